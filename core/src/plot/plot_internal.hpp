// NormLab core: small helpers the plot files share (private to core/src/plot).
#pragma once

#include "normlab/plot/plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace normlab::plot_internal {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

inline std::size_t point_count(const Series& s) { return std::min(s.x.size(), s.y.size()); }

// The axis's transform f: identity or log10 (ranges are padded and widened in f-space).
inline double fwd(Scale s, double v) { return s == Scale::Linear ? v : std::log10(v); }
inline double inv(Scale s, double f) { return s == Scale::Linear ? f : std::pow(10.0, f); }

// Whether an axis of scale s can show the value v (set and finite, and > 0 on a log axis).
inline bool usable(Scale s, const std::optional<double>& v) {
    return v && std::isfinite(*v) && (s == Scale::Linear || *v > 0.0);
}

inline double pow10i(int k) { return std::pow(10.0, k); }

// The exact decimal N·10^k as a double: N / 10^−k is correctly rounded for −k ≤ 22.
inline double decimal_value(long long n, int k) {
    if (n == 0) return 0.0;
    return k < 0 ? static_cast<double>(n) / pow10i(-k) : static_cast<double>(n) * pow10i(k);
}


// Liang–Barsky: clips segment a→b to r; false when nothing of it is inside. The clipped
// points are clamped into r, so rounding can never place them outside.
bool clip_segment(Point2& a, Point2& b, const Rect& r);

inline Rect grown(const Rect& r, double m) { return {r.x0 - m, r.y0 - m, r.x1 + m, r.y1 + m}; }

inline bool finite(Point2 p) { return std::isfinite(p.x) && std::isfinite(p.y); }

// Pixel position of point i, or non-finite when it cannot be drawn.
inline Point2 point_px(const Series& s, std::size_t i, const Viewport& view) { return view.to_px({s.x[i], s.y[i]}); }

// The SVG writers' font stack, "DejaVu Sans, sans-serif"; where `svg` has Hangul, Han or Kana,
// each is named with Noto Sans CJK after DejaVu (its Korean forms first where there is Hangul,
// else the Simplified Chinese ones): docs/i18n/TRANSLATING.md, Fonts. Text without CJK is unchanged.
constexpr const char* kSvgFont = "DejaVu Sans, sans-serif";
std::string with_cjk_fonts(std::string svg);

// [SECTION] Text boxes: what the layout files (plot_layout.cpp, plot_overlaps.cpp) measure texts by

// Font metrics of DejaVu Sans, in em: the part of a line above its baseline.
constexpr double kAscent = 0.76;
constexpr double kMidline = 0.36;   // baseline below a line's visual centre (half the digit height)

struct Measure {
    const PlotStyle& style;
    double operator()(std::string_view text, double font_px) const {
        return style.text_width ? style.text_width(text, font_px) : estimate_text_width(text, font_px);
    }
};

// The drawn extent of a text line of size f: kAscent·f above the baseline (caps, digits, b, d),
// kDescent·f below it (g, y, p); together one text height.
constexpr double kDescent = 1.0 - kAscent;

// The box a horizontal text covers, grown by clear_x left and right and clear_y above and below.
inline Rect text_box(const PlacedText& t, double width, double clear_x = 0.0, double clear_y = 0.0) {
    const double x0 = t.anchor == TextAnchor::Start ? t.at.x
                      : t.anchor == TextAnchor::End ? t.at.x - width
                                                    : t.at.x - 0.5 * width;
    return Rect{x0 - clear_x, t.at.y - kAscent * t.font_px - clear_y, x0 + width + clear_x,
                t.at.y + kDescent * t.font_px + clear_y};
}

// Whether two boxes share more than a sliver (touching edges, up to rounding, do not count:
// the 1× and k× layouts must agree).
inline bool boxes_meet(const Rect& a, const Rect& b, double eps) {
    return a.x0 < b.x1 - eps && b.x0 < a.x1 - eps && a.y0 < b.y1 - eps && b.y0 < a.y1 - eps;
}

// After the legend is placed (plot_overlaps.cpp): reference-line labels kept clear of the legend,
// the x tick labels and each other; then the annotations, each moved to a free spot or dropped.
void keep_ref_labels_clear(PlotLayout& L, const PlotStyle& style);
void resolve_annotation_overlaps(PlotLayout& L, const PlotStyle& style);

}  // namespace normlab::plot_internal
