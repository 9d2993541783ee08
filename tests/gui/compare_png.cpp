// Compares two renderings of one figure (the headless PNG of normlab-cli export against the
// app's, rendered under X), pixel by pixel:
//   compare_png A.png B.png [--max-mean M] [--max-differing F] [--rows Y0 Y1]
// mean       the mean absolute difference of all channel values (0..255)
// differing  the fraction of pixels whose largest channel difference exceeds 64
// --rows: only pixel rows Y0 ≤ y < Y1 (a part of a window whose other parts move).
// Prints both; exits 0 when the sizes agree and mean ≤ M (default 0.5) and differing ≤ F
// (default 0.002), 1 when not, 2 on bad usage or an unreadable file.
#include <stb/stb_image.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: compare_png A.png B.png [--max-mean M] [--max-differing F] [--rows Y0 Y1]\n");
        return 2;
    }
    double max_mean = 0.5, max_differing = 0.002;
    int row0 = 0, row1 = -1;   // -1: to the last row
    for (int i = 3; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--max-mean") == 0) max_mean = std::atof(argv[i + 1]);
        else if (std::strcmp(argv[i], "--max-differing") == 0) max_differing = std::atof(argv[i + 1]);
        else if (std::strcmp(argv[i], "--rows") == 0 && i + 2 < argc) {
            row0 = std::atoi(argv[i + 1]);
            row1 = std::atoi(argv[i + 2]);
            ++i;
        } else return 2;
    }
    int wa = 0, ha = 0, wb = 0, hb = 0, n = 0;
    unsigned char* a = stbi_load(argv[1], &wa, &ha, &n, 3);
    unsigned char* b = stbi_load(argv[2], &wb, &hb, &n, 3);
    if (a == nullptr || b == nullptr) {
        std::printf("FAIL: cannot read %s\n", a == nullptr ? argv[1] : argv[2]);
        return 2;
    }
    int code = 0;
    if (wa != wb || ha != hb) {
        std::printf("FAIL: sizes differ: %d × %d and %d × %d\n", wa, ha, wb, hb);
        code = 1;
    } else if (row1 >= 0 && (row0 < 0 || row0 >= row1 || row1 > ha)) {
        std::printf("FAIL: rows %d to %d are not inside the %d rows\n", row0, row1, ha);
        code = 1;
    } else {
        if (row1 < 0) row1 = ha;
        const std::size_t first = static_cast<std::size_t>(row0) * static_cast<std::size_t>(wa);
        const std::size_t pixels = static_cast<std::size_t>(row1 - row0) * static_cast<std::size_t>(wa);
        double sum = 0.0;
        std::size_t differing = 0;
        for (std::size_t p = first; p < first + pixels; ++p) {
            int worst = 0;
            for (int c = 0; c < 3; ++c) {
                const int d = std::abs(a[3 * p + c] - b[3 * p + c]);
                sum += d;
                worst = std::max(worst, d);
            }
            if (worst > 64) ++differing;
        }
        const double mean = sum / (3.0 * static_cast<double>(pixels));
        const double fraction = static_cast<double>(differing) / static_cast<double>(pixels);
        const bool ok = mean <= max_mean && fraction <= max_differing;
        std::printf("%s: mean |difference| %.4f (at most %.4f), pixels differing by > 64: %zu of %zu = %.5f (at most %.5f)\n",
                    ok ? "ok" : "FAIL", mean, max_mean, differing, pixels, fraction, max_differing);
        code = ok ? 0 : 1;
    }
    stbi_image_free(a);
    stbi_image_free(b);
    return code;
}
