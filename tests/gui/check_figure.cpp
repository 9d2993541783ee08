// Checks an exported figure (or a screenshot of figures) by its pixels:
//   check_figure FILE.png [--size W H] [--corner RRGGBB] [--color RRGGBB MIN]...
// --size     the image must be exactly W × H pixels
// --corner   the top-left pixel must be this colour (exports: a white background)
// --color    at least MIN pixels within ±2 per channel of this colour (a series' colour)
// Prints one ok/FAIL line per check; exits 0 when all pass, 1 when one fails, 2 on bad usage.
#include <stb/stb_image.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

struct Rgb {
    int r = 0, g = 0, b = 0;
};

bool parse_rgb(const char* hex, Rgb& out) {
    const std::string s = hex[0] == '#' ? hex + 1 : hex;
    char* end = nullptr;
    const long v = std::strtol(s.c_str(), &end, 16);
    if (s.size() != 6 || *end != '\0') return false;
    out = {static_cast<int>((v >> 16) & 0xFF), static_cast<int>((v >> 8) & 0xFF), static_cast<int>(v & 0xFF)};
    return true;
}

bool near(const unsigned char* px, Rgb c, int tolerance) {
    return std::abs(px[0] - c.r) <= tolerance && std::abs(px[1] - c.g) <= tolerance &&
           std::abs(px[2] - c.b) <= tolerance;
}

int usage() {
    std::fprintf(stderr, "usage: check_figure FILE.png [--size W H] [--corner RRGGBB] [--color RRGGBB MIN]...\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) return usage();
    int want_w = 0, want_h = 0;
    bool check_corner = false;
    Rgb corner;
    std::vector<std::pair<Rgb, long>> colors;
    for (int i = 2; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--size" && i + 2 < argc) {
            want_w = std::atoi(argv[++i]);
            want_h = std::atoi(argv[++i]);
        } else if (arg == "--corner" && i + 1 < argc && parse_rgb(argv[i + 1], corner)) {
            check_corner = true;
            ++i;
        } else if (arg == "--color" && i + 2 < argc) {
            Rgb c;
            if (!parse_rgb(argv[++i], c)) return usage();
            colors.emplace_back(c, std::atol(argv[++i]));
        } else {
            return usage();
        }
    }

    int w = 0, h = 0, channels = 0;
    unsigned char* pixels = stbi_load(argv[1], &w, &h, &channels, 3);   // h rows × w pixels × RGB
    if (pixels == nullptr) {
        std::printf("FAIL: cannot load %s: %s\n", argv[1], stbi_failure_reason());
        return 1;
    }
    bool ok = true;
    const auto check = [&ok](bool pass, const std::string& what) {
        std::printf("%s: %s\n", pass ? "ok  " : "FAIL", what.c_str());
        ok = ok && pass;
    };
    if (want_w > 0)
        check(w == want_w && h == want_h, "size " + std::to_string(w) + "×" + std::to_string(h) + " (need " +
                                              std::to_string(want_w) + "×" + std::to_string(want_h) + ")");
    if (check_corner)
        check(near(pixels, corner, 0), "top-left pixel " + std::to_string(pixels[0]) + "," + std::to_string(pixels[1]) +
                                           "," + std::to_string(pixels[2]));
    for (const auto& [color, min] : colors) {
        long count = 0;
        for (long i = 0, n = static_cast<long>(w) * h; i < n; ++i) count += near(pixels + 3 * i, color, 2) ? 1 : 0;
        char hex[8];
        std::snprintf(hex, sizeof hex, "%02x%02x%02x", color.r, color.g, color.b);
        check(count >= min, std::to_string(count) + " pixels of #" + hex + " (need ≥ " + std::to_string(min) + ")");
    }
    stbi_image_free(pixels);
    return ok ? 0 : 1;
}
