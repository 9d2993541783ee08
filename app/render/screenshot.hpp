// PNG capture of the whole window.
#pragma once

#include <normlab/base/file_io.hpp>

#include <string>

namespace normlab::ui {

// Reads the current back buffer (width × height, RGB) — call after rendering a frame and
// before swapping buffers — flips it to top-row-first and writes it to `path` as PNG with
// write_file_atomically, so that no reader ever sees half a file.
// Returns an empty string on success, otherwise a one-line description of what went wrong.
std::string save_back_buffer_png(const std::string& path, int width, int height, IfExists if_exists);

}  // namespace normlab::ui
