// normlab-cli: figures as PNG without a window (export_command.cpp). With the app built, the
// app's own offscreen renderer (app/render/plot_export.hpp) in a surfaceless EGL context
// (app/render/headless_gl.hpp): the PNG is the one `normlab --export-plot` saves under X. Without
// the app (NORMLAB_BUILD_APP=OFF) open() says that PNGs need it.
#pragma once

#include "normlab/plot/plot.hpp"

#include <memory>
#include <string>

namespace normlab::cli {

class PngWriter {
public:
    // The renderer, or nullptr with `error` saying why there is none.
    static std::unique_ptr<PngWriter> open(std::string& error);
    virtual ~PngWriter() = default;
    // The figure at K× (base size base_w × base_h px) as PNG bytes in `png`; "" or an error.
    virtual std::string encode(const Plot& plot, int base_w, int base_h, int scale, std::string& png) = 0;
};

}  // namespace normlab::cli
