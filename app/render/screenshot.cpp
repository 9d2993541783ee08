// PNG capture of the whole window (see screenshot.hpp).
#include "screenshot.hpp"

#include "normlab/base/file_io.hpp"

#include "gl.hpp"
#include <stb/stb_image_write.h>

#include <cstring>
#include <exception>
#include <vector>

namespace normlab::ui {

std::string save_back_buffer_png(const std::string& path, int width, int height, IfExists if_exists) {
    if (width <= 0 || height <= 0) return "the window has no pixels to capture";
    const auto w = static_cast<std::size_t>(width), h = static_cast<std::size_t>(height);
    std::vector<unsigned char> pixels(w * h * 3);   // h rows × w pixels × RGB, bottom row first
    glReadBuffer(GL_BACK);
    read_pixels_rgb(width, height, pixels.data());
    if (const GLenum err = glGetError(); err != GL_NO_ERROR) {
        return "glReadPixels failed (GL error " + std::to_string(err) + ")";
    }
    std::vector<unsigned char> flipped(pixels.size());   // top row first, as PNG stores it
    const std::size_t row = w * 3;
    for (std::size_t y = 0; y < h; ++y) {
        std::memcpy(flipped.data() + y * row, pixels.data() + (h - 1 - y) * row, row);
    }

    // Encode in memory, then write through core's atomic writer (temp file, fsync, rename).
    std::string png;
    const auto append = [](void* context, void* data, int size) {
        static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<std::size_t>(size));
    };
    if (stbi_write_png_to_func(append, &png, width, height, 3, flipped.data(), width * 3) == 0)
        return "cannot encode the PNG";
    try {
        write_file_atomically(path, png, if_exists);
    } catch (const std::exception& e) {
        return e.what();
    }
    return {};
}

}  // namespace normlab::ui
