// Checks a screenshot of lecture mode by its pixels:
//   check_lecture FILE.png [--size W H] [--luma MIN MAX] [--color RRGGBB TOL MIN] [--absent RRGGBB]...
// --luma    the mean luma (0.299 R + 0.587 G + 0.114 B, 0..255) of the whole image lies in
//           [MIN, MAX]: a projector theme is bright, the dark theme dark
// --color   at least MIN pixels within ±TOL per channel of the colour (e.g. the pointer highlight)
// --absent  no pixel within ±2 of the colour (e.g. the Explorer's heat-map green, hidden in
//           presenter view with the panel that holds it)
// Prints what it counted; exits 0 when every check passes, 1 otherwise.
#include <stb/stb_image.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

struct Rgb {
    int r = 0, g = 0, b = 0;
};

bool parse_rgb(const char* text, Rgb& out) {
    const std::string s(text);
    if (s.size() != 6 || s.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) return false;
    const long v = std::strtol(s.c_str(), nullptr, 16);
    out = {static_cast<int>((v >> 16) & 255), static_cast<int>((v >> 8) & 255), static_cast<int>(v & 255)};
    return true;
}

struct ColorCheck {
    Rgb color;
    int tolerance = 2;
    long min = 0;     // --color: at least this many; --absent: -1
    long count = 0;
};

int usage() {
    std::fprintf(stderr, "usage: check_lecture FILE.png [--size W H] [--luma MIN MAX] [--color RRGGBB TOL MIN] [--absent RRGGBB]...\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) return usage();
    int want_w = 0, want_h = 0;
    double luma_min = -1.0, luma_max = 256.0;
    std::vector<ColorCheck> colors;
    for (int i = 2; i < argc; ++i) {
        const std::string arg = argv[i];
        ColorCheck c;
        if (arg == "--size" && i + 2 < argc) {
            want_w = std::atoi(argv[++i]);
            want_h = std::atoi(argv[++i]);
        } else if (arg == "--luma" && i + 2 < argc) {
            luma_min = std::atof(argv[++i]);
            luma_max = std::atof(argv[++i]);
        } else if (arg == "--color" && i + 3 < argc && parse_rgb(argv[i + 1], c.color)) {
            c.tolerance = std::atoi(argv[i + 2]);
            c.min = std::atol(argv[i + 3]);
            i += 3;
            colors.push_back(c);
        } else if (arg == "--absent" && i + 1 < argc && parse_rgb(argv[i + 1], c.color)) {
            c.min = -1;
            ++i;
            colors.push_back(c);
        } else {
            return usage();
        }
    }

    int w = 0, h = 0, channels = 0;
    unsigned char* pixels = stbi_load(argv[1], &w, &h, &channels, 3);
    if (pixels == nullptr) {
        std::printf("FAIL: cannot load %s: %s\n", argv[1], stbi_failure_reason());
        return 1;
    }
    double luma_sum = 0.0;
    for (long p = 0; p < static_cast<long>(w) * h; ++p) {
        const unsigned char* px = pixels + 3 * p;
        luma_sum += 0.299 * px[0] + 0.587 * px[1] + 0.114 * px[2];
        for (ColorCheck& c : colors)
            if (std::abs(px[0] - c.color.r) <= c.tolerance && std::abs(px[1] - c.color.g) <= c.tolerance &&
                std::abs(px[2] - c.color.b) <= c.tolerance)
                ++c.count;
    }
    stbi_image_free(pixels);

    bool ok = true;
    const auto report = [&ok](bool pass, const std::string& what) {
        std::printf("%s: %s\n", pass ? "ok  " : "FAIL", what.c_str());
        ok = ok && pass;
    };
    if (want_w > 0) report(w == want_w && h == want_h, std::to_string(w) + " × " + std::to_string(h) + " pixels");
    const double luma = luma_sum / (static_cast<double>(w) * h);
    if (luma_min >= 0.0 || luma_max <= 255.0) {
        char text[96];
        std::snprintf(text, sizeof text, "mean luma %.1f in [%g, %g]", luma, luma_min, luma_max);
        report(luma >= luma_min && luma <= luma_max, text);
    }
    for (const ColorCheck& c : colors) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "%02x%02x%02x", c.color.r, c.color.g, c.color.b);
        if (c.min < 0)
            report(c.count == 0, std::to_string(c.count) + " pixels of #" + hex + " (none expected)");
        else
            report(c.count >= c.min, std::to_string(c.count) + " pixels of #" + hex + " ±" + std::to_string(c.tolerance) +
                                         " (at least " + std::to_string(c.min) + ")");
    }
    return ok ? 0 : 1;
}
