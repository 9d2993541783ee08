// normlab-cli built without the app (NORMLAB_BUILD_APP=OFF): no PNG renderer (see png_writer.hpp).
#include "png_writer.hpp"

namespace normlab::cli {

std::unique_ptr<PngWriter> PngWriter::open(std::string& error) {
    error = "this normlab-cli was built without the app (NORMLAB_BUILD_APP=OFF), whose renderer PNGs need; "
            "write .svg or .csv";
    return nullptr;
}

}  // namespace normlab::cli
