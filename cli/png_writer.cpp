// PNGs through the app's renderer in a surfaceless EGL context (see png_writer.hpp).
#include "png_writer.hpp"

#include "headless_gl.hpp"
#include "plot_export.hpp"

namespace normlab::cli {

namespace {

class AppPngWriter : public PngWriter {
public:
    explicit AppPngWriter(std::unique_ptr<ui::HeadlessGl> gl) : gl_(std::move(gl)) {}
    std::string encode(const Plot& plot, int base_w, int base_h, int scale, std::string& png) override {
        return ui::encode_plot_png(plot, base_w, base_h, scale, png);
    }

private:
    std::unique_ptr<ui::HeadlessGl> gl_;
};

}  // namespace

std::unique_ptr<PngWriter> PngWriter::open(std::string& error) {
    std::unique_ptr<ui::HeadlessGl> gl = ui::HeadlessGl::create(error);
    if (!gl) return nullptr;
    return std::make_unique<AppPngWriter>(std::move(gl));
}

}  // namespace normlab::cli
