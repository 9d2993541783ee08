// Checks a screenshot of the Explorer lab by its pixels:  check_screenshot FILE.png
// The file must load, be at least 1280×720, not be one flat colour, and hold a bar's worth of
// pixels of each bar colour (palette.hpp, shared with the app): LayerNorm, RMSNorm and a = W x.
// Prints what it counted; exits 0 when every check passes, 1 otherwise.
#include "palette.hpp"

#include <stb/stb_image.h>

#include <cstdio>
#include <cstdlib>

namespace {

using normlab::palette::Rgb;

constexpr int kMinWidth = 1280, kMinHeight = 720;
// At 1600×1000 each chart's default bars cover tens of thousands of pixels; text and the
// caption swatches in the same colours cover a few hundred.
constexpr long kMinBarPixels = 5000;
constexpr int kTolerance = 2;   // per channel

bool near(const unsigned char* px, Rgb c) {
    return std::abs(px[0] - c.r) <= kTolerance && std::abs(px[1] - c.g) <= kTolerance &&
           std::abs(px[2] - c.b) <= kTolerance;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: check_screenshot FILE.png\n");
        return 2;
    }
    int w = 0, h = 0, channels = 0;
    unsigned char* pixels = stbi_load(argv[1], &w, &h, &channels, 3);   // h rows × w pixels × RGB
    if (pixels == nullptr) {
        std::printf("FAIL: cannot load %s: %s\n", argv[1], stbi_failure_reason());
        return 1;
    }

    const struct {
        const char* name;
        Rgb color;
    } bars[] = {{"LayerNorm bar", normlab::palette::kLayerNormBar},
                {"RMSNorm bar", normlab::palette::kRmsNormBar},
                {"a = W x bar", normlab::palette::kSummedInputBar}};
    long counts[3] = {0, 0, 0};
    long differing = 0;   // pixels unlike the first one
    const long n = static_cast<long>(w) * h;
    for (long i = 0; i < n; ++i) {
        const unsigned char* px = pixels + 3 * i;
        if (px[0] != pixels[0] || px[1] != pixels[1] || px[2] != pixels[2]) ++differing;
        for (int b = 0; b < 3; ++b) counts[b] += near(px, bars[b].color) ? 1 : 0;
    }
    stbi_image_free(pixels);

    bool ok = true;
    const auto check = [&ok](bool pass, const char* what) {
        std::printf("%s: %s\n", pass ? "ok  " : "FAIL", what);
        ok = ok && pass;
    };
    char line[160];
    std::snprintf(line, sizeof line, "size %d×%d (need ≥ %d×%d)", w, h, kMinWidth, kMinHeight);
    check(w >= kMinWidth && h >= kMinHeight, line);
    std::snprintf(line, sizeof line, "%ld of %ld pixels differ from the first (need > 0: not uniform)", differing, n);
    check(differing > 0, line);
    for (int b = 0; b < 3; ++b) {
        std::snprintf(line, sizeof line, "%ld pixels of the %s colour (need ≥ %ld)", counts[b], bars[b].name,
                      kMinBarPixels);
        check(counts[b] >= kMinBarPixels, line);
    }
    return ok ? 0 : 1;
}
