// Checks a screenshot of a presenter slide by its pixels:
//   check_slide FILE.png --size W H [--text-px P] [--fill F] [--rows R]
// The slide's header (title and caption) ends at a rule across the window: the first row, below
// the top edge, whose pixels are ≥ 80% "ink" (far from the background, the top-left pixel).
// --text-px  every line of text in the header (left of the slide counter, which takes the right
//            third) is at least P px tall as drawn: the ink of a line
//            (a run of rows with ink) spans at least 0.7 P rows (DejaVu Sans: capitals and
//            ascenders are 0.73 em tall, so a line in a font of P px has ink ≥ 0.7 P rows)
// --fill     the figures fill the slide below the rule: the box around its ink covers at least
//            F of that area's width and F of its height
// --rows     and at least R of its rows have ink (a figure collapsed to a strip leaves most empty)
// Prints what it measured; exits 0 when every check passes, 1 otherwise.
#include <stb/stb_image.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

struct Image {
    int w = 0, h = 0;
    const unsigned char* px = nullptr;   // RGB
    const unsigned char* at(int x, int y) const { return px + 3 * (static_cast<long>(y) * w + x); }
};

// Ink: a pixel whose summed channel difference from the background is over 120.
bool ink(const Image& im, int x, int y, const unsigned char* bg) {
    const unsigned char* p = im.at(x, y);
    return std::abs(p[0] - bg[0]) + std::abs(p[1] - bg[1]) + std::abs(p[2] - bg[2]) > 120;
}

int usage() {
    std::fprintf(stderr, "usage: check_slide FILE.png --size W H [--text-px P] [--fill F] [--rows R]\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) return usage();
    int want_w = 0, want_h = 0;
    double text_px = 0.0, fill = 0.0, min_rows = 0.0;
    for (int i = 2; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--size" && i + 2 < argc) {
            want_w = std::atoi(argv[++i]);
            want_h = std::atoi(argv[++i]);
        } else if (arg == "--text-px" && i + 1 < argc) {
            text_px = std::atof(argv[++i]);
        } else if (arg == "--fill" && i + 1 < argc) {
            fill = std::atof(argv[++i]);
        } else if (arg == "--rows" && i + 1 < argc) {
            min_rows = std::atof(argv[++i]);
        } else {
            return usage();
        }
    }
    int n = 0;
    Image im;
    unsigned char* data = stbi_load(argv[1], &im.w, &im.h, &n, 3);
    if (data == nullptr) {
        std::printf("FAIL: cannot read %s\n", argv[1]);
        return 1;
    }
    im.px = data;
    bool ok = true;
    if (want_w > 0 && (im.w != want_w || im.h != want_h)) {
        std::printf("FAIL: %d×%d, expected %d×%d\n", im.w, im.h, want_w, want_h);
        ok = false;
    }
    const unsigned char* bg = im.at(im.w / 2, 3);   // the slide's background, inside its border
    const int x0 = im.w / 50, x1 = im.w - im.w / 50;   // inside the window's border
    const auto row_ink = [&](int y) {
        int count = 0;
        for (int x = x0; x < x1; ++x) count += ink(im, x, y, bg) ? 1 : 0;
        return count;
    };
    int rule = -1;
    for (int y = 4; y < im.h && rule < 0; ++y)
        if (row_ink(y) >= 0.8 * (x1 - x0)) rule = y;
    if (rule < 0) {
        std::printf("FAIL: no rule under the header\n");
        stbi_image_free(data);
        return 1;
    }
    std::printf("header: rows 0–%d\n", rule);

    if (text_px > 0.0) {   // runs of rows with ink, above the rule, left of the counter: the lines of text
        const auto text_ink = [&](int y) {
            for (int x = x0; x < im.w * 13 / 20; ++x)
                if (ink(im, x, y, bg)) return true;
            return false;
        };
        std::vector<int> runs;
        int run = 0;
        for (int y = 4; y < rule; ++y) {
            if (text_ink(y)) {
                ++run;
            } else if (run > 0) {
                runs.push_back(run);
                run = 0;
            }
        }
        if (run > 0) runs.push_back(run);
        std::printf("header lines' ink heights:");
        for (int r : runs) std::printf(" %d", r);
        std::printf(" px\n");
        const int need = static_cast<int>(0.7 * text_px);
        const int smallest = runs.empty() ? 0 : *std::min_element(runs.begin(), runs.end());
        if (runs.size() < 2 || smallest < need) {
            std::printf("FAIL: a header line's ink is %d px tall (need ≥ %d for text of %.0f px)\n", smallest, need, text_px);
            ok = false;
        }
    }
    if (fill > 0.0 || min_rows > 0.0) {   // the ink below the rule
        const int top = rule + 3;
        int min_x = im.w, max_x = -1, min_y = im.h, max_y = -1, rows = 0;
        for (int y = top; y < im.h - 3; ++y) {
            bool any = false;
            for (int x = x0; x < x1; ++x) {
                if (!ink(im, x, y, bg)) continue;
                any = true;
                min_x = std::min(min_x, x);
                max_x = std::max(max_x, x);
                min_y = std::min(min_y, y);
                max_y = std::max(max_y, y);
            }
            rows += any ? 1 : 0;
        }
        const double area_w = x1 - x0, area_h = im.h - 3 - top;
        const double fw = (max_x - min_x + 1) / area_w, fh = (max_y - min_y + 1) / area_h, fr = rows / area_h;
        std::printf("figures: ink box %.0f%% of the width, %.0f%% of the height; %.0f%% of the rows have ink\n",
                    100.0 * fw, 100.0 * fh, 100.0 * fr);
        if (fw < fill || fh < fill) {
            std::printf("FAIL: the figures span less than %.0f%% of the slide below its header\n", 100.0 * fill);
            ok = false;
        }
        if (fr < min_rows) {
            std::printf("FAIL: fewer than %.0f%% of the rows below the header have ink\n", 100.0 * min_rows);
            ok = false;
        }
    }
    stbi_image_free(data);
    std::printf(ok ? "OK\n" : "FAILED\n");
    return ok ? 0 : 1;
}
