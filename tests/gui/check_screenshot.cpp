// Checks a screenshot of the Explorer lab by its pixels:  check_screenshot FILE.png [--geometry]
// The file must load, be at least 1280×720, not be one flat colour, and hold a bar's worth of
// pixels of each bar colour (core's base/palette.hpp, shared with the app): LayerNorm, RMSNorm and a = W x.
// --geometry: the Geometry lab instead: its markers' fill colours — inputs (the a = W x grey),
// RMSNorm images, LayerNorm images and circle — each on more pixels than the legend and the panel
// draw in them, and its translucent sphere: a large area of white tinted by the sphere's colour,
// kRmsNorm, seen alone or through the plane Σ = 0 (tinted kLayerNorm). Layers blended over
// white give white + a·(sphere − white) + b·(plane − white) with a, b ≥ 0, and
// shaders/geometry_surface.frag shades by opacity only, so every such pixel has that form.
// Prints what it counted; exits 0 when every check passes, 1 otherwise.
#include <normlab/base/palette.hpp>

#include <stb/stb_image.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

using Rgb = normlab::Color;

constexpr int kMinWidth = 1280, kMinHeight = 720;
// At 1600×1000 each chart's default bars cover tens of thousands of pixels; text and the
// caption swatches in the same colours cover a few hundred.
constexpr long kMinBarPixels = 5000;
constexpr int kTolerance = 2;   // per channel
// Geometry lab: the legend's marker and the panel's dot cover ~100 pixels each of their colour;
// each of the view's 8 points per colour adds ~110 where it is in front, LayerNorm's circle more.
// The sphere covers ~120 000 pixels; the faded RMSNorm paths, of its tint too, a few thousand.
constexpr long kMinMarkerPixels = 400;
constexpr long kMinSpherePixels = 40000;
constexpr double kSphereMinTint = 0.06, kMaxTint = 0.6;   // the layers' opacities over white (the UI's light
                                                          // frame grey fits a = 0.03, b = 0.06)

bool near(const unsigned char* px, Rgb c) {
    return std::abs(px[0] - c.r) <= kTolerance && std::abs(px[1] - c.g) <= kTolerance &&
           std::abs(px[2] - c.b) <= kTolerance;
}

// True when px = white + a·(c − white) + b·(e − white), within kTolerance + 1 per channel (blending
// rounds once per layer), with a ∈ [a_min, kMaxTint] and b ∈ [0, kMaxTint]: white seen through a
// layer tinted c, and maybe one tinted e.
bool tinted_white(const unsigned char* px, Rgb c, double a_min, Rgb e) {
    const double u[3] = {255.0 - c.r, 255.0 - c.g, 255.0 - c.b};           // white − c
    const double v[3] = {255.0 - e.r, 255.0 - e.g, 255.0 - e.b};           // white − e
    const double q[3] = {255.0 - px[0], 255.0 - px[1], 255.0 - px[2]};     // white − px
    const auto dot = [](const double* x, const double* y) { return x[0] * y[0] + x[1] * y[1] + x[2] * y[2]; };
    // Least squares for q ≈ a u + b v (the 2×2 normal equations).
    const double uu = dot(u, u), uv = dot(u, v), vv = dot(v, v), uq = dot(u, q), vq = dot(v, q);
    const double det = uu * vv - uv * uv;
    const double a = (uq * vv - vq * uv) / det, b = (vq * uu - uq * uv) / det;
    if (a < a_min || a > kMaxTint || b < -0.01 || b > kMaxTint) return false;
    for (int k = 0; k < 3; ++k)
        if (std::abs(q[k] - a * u[k] - b * v[k]) > kTolerance + 1) return false;
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    const bool geometry = argc == 3 && std::string(argv[2]) == "--geometry";
    if (argc != 2 && !geometry) {
        std::fprintf(stderr, "usage: check_screenshot FILE.png [--geometry]\n");
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
    } bars[] = {{geometry ? "LayerNorm image and circle" : "LayerNorm bar", normlab::colors::kLayerNorm},
                {geometry ? "RMSNorm image" : "RMSNorm bar", normlab::colors::kRmsNorm},
                {geometry ? "input point" : "a = W x bar", normlab::colors::kSummedInput}};
    const long min_pixels = geometry ? kMinMarkerPixels : kMinBarPixels;
    long counts[3] = {0, 0, 0};
    long sphere = 0;      // geometry: pixels of the sphere's tint over white
    long differing = 0;   // pixels unlike the first one
    const long n = static_cast<long>(w) * h;
    for (long i = 0; i < n; ++i) {
        const unsigned char* px = pixels + 3 * i;
        if (px[0] != pixels[0] || px[1] != pixels[1] || px[2] != pixels[2]) ++differing;
        for (int b = 0; b < 3; ++b) counts[b] += near(px, bars[b].color) ? 1 : 0;
        const bool tinted = geometry && tinted_white(px, normlab::colors::kRmsNorm, kSphereMinTint,
                                                     normlab::colors::kLayerNorm);
        sphere += tinted ? 1 : 0;
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
                      min_pixels);
        check(counts[b] >= min_pixels, line);
    }
    if (geometry) {
        std::snprintf(line, sizeof line, "%ld pixels of the translucent sphere's tint over white (need ≥ %ld)", sphere,
                      kMinSpherePixels);
        check(sphere >= kMinSpherePixels, line);
    }
    return ok ? 0 : 1;
}
