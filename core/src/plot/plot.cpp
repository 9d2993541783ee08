// NormLab core: plot description helpers, axis maths, ticks, layout and series geometry.
// The SVG and CSV writers live in plot_svg.cpp and plot_csv.cpp; all three, and the app's
// ImGui view, share what is computed here.
//
// [SECTION] Colours and palette
// [SECTION] Axis ranges and mapping (AxisRange, auto_range, Viewport, pan/zoom)
// [SECTION] Ticks (linear 1-2-5, log decades)
// [SECTION] Text width estimate
// [SECTION] Series geometry (clipping, markers, bars, dashes, hit testing)
// [SECTION] Layout (margins, ticks, legend, annotations)
// [SECTION] Annotation overlaps (moved up or down a little, or dropped)
#include "normlab/plot/plot.hpp"

#include "normlab/base/text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <limits>
#include <optional>
#include <stdexcept>

namespace normlab {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::size_t point_count(const Series& s) { return std::min(s.x.size(), s.y.size()); }
}  // namespace

// [SECTION] Colours and palette -------------------------------------------------------------

std::string to_hex(Color c) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c.r, c.g, c.b);
    return buf;
}

namespace {
constexpr LineStyle kDashes[] = {LineStyle::Solid, LineStyle::Dashed, LineStyle::Dotted};
constexpr Marker kMarkers[] = {Marker::Circle, Marker::Square, Marker::Triangle, Marker::Diamond};

int wrap(int i, int n) { return i < 0 ? 0 : i % n; }
}  // namespace

Color palette_color(int i) { return kOkabeIto[wrap(i, kPaletteSize)]; }
LineStyle palette_dash(int i) { return kDashes[wrap(i, 3)]; }
Marker palette_marker(int i) { return kMarkers[wrap(i, 4)]; }

Color diverging_color(double t) {
    t = std::clamp(std::isfinite(t) ? t : 0.0, -1.0, 1.0);
    const Color a = colors::kHeatZero, b = t >= 0.0 ? colors::kHeatPositive : colors::kHeatNegative;
    const double u = std::fabs(t);
    const auto mix = [u](std::uint8_t p, std::uint8_t q) { return static_cast<std::uint8_t>(std::lround(p + (q - p) * u)); };
    return {mix(a.r, b.r), mix(a.g, b.g), mix(a.b, b.b)};
}

Series palette_series(int i, std::string label, std::vector<double> x, std::vector<double> y,
                      SeriesKind kind) {
    Series s;
    s.label = std::move(label);
    s.x = std::move(x);
    s.y = std::move(y);
    s.color = palette_color(i);
    s.line = kind == SeriesKind::Line ? palette_dash(i) : LineStyle::Solid;
    s.marker = palette_marker(i);
    s.kind = kind;
    return s;
}

Plot& plot_named(std::vector<Plot>& plots, std::string_view name) {
    for (Plot& p : plots)
        if (p.name == name) return p;
    throw std::invalid_argument("no figure named \"" + std::string(name) + "\"");
}

// [SECTION] Axis ranges and mapping ---------------------------------------------------------

bool AxisRange::accepts(double v) const { return std::isfinite(v) && (scale == Scale::Linear || v > 0.0); }

double AxisRange::to_unit(double v) const {
    if (!accepts(v)) return kNaN;
    const double llo = scale == Scale::Linear ? lo : std::log10(lo);
    const double t = scale == Scale::Linear ? (v - lo) / (hi - lo) : (std::log10(v) - llo) / (std::log10(hi) - llo);
    return reversed ? 1.0 - t : t;
}

double AxisRange::from_unit(double t) const {
    if (reversed) t = 1.0 - t;
    if (scale == Scale::Linear) return lo + t * (hi - lo);
    const double llo = std::log10(lo);
    return std::pow(10.0, llo + t * (std::log10(hi) - llo));
}

namespace {

// The axis's transform f: identity or log10 (ranges are padded and widened in f-space).
double fwd(Scale s, double v) { return s == Scale::Linear ? v : std::log10(v); }
double inv(Scale s, double f) { return s == Scale::Linear ? f : std::pow(10.0, f); }

bool own_axis_accepts(Scale s, double v) { return std::isfinite(v) && (s == Scale::Linear || v > 0.0); }

bool usable(Scale s, const std::optional<double>& v) {
    return v && std::isfinite(*v) && (s == Scale::Linear || *v > 0.0);
}

// Half-width in f-space used to widen a degenerate span around f-value c.
double widen_half(Scale s, double c) {
    if (s == Scale::Log10) return 0.5;
    return c == 0.0 ? 1.0 : 0.1 * std::fabs(c);
}

struct Extent {
    double lo = std::numeric_limits<double>::infinity();
    double hi = -std::numeric_limits<double>::infinity();
    void add(double f) {
        if (!std::isfinite(f)) return;
        lo = std::min(lo, f);
        hi = std::max(hi, f);
    }
    bool empty() const { return lo > hi; }
};

}  // namespace

AxisRange auto_range(const Plot& plot, AxisId which) {
    const Axis& axis = which == AxisId::X ? plot.x : plot.y;
    const Scale sc = axis.scale;
    const AxisRange xa{plot.x.scale, 1.0, 10.0}, ya{plot.y.scale, 1.0, 10.0};  // for accepts()

    // Data extent in f-space.
    Extent e;
    bool bar_baseline = false;              // a linear y axis with bars: 0 belongs to the data
    std::vector<double> bar_x;              // f(x) of bars, for the half-slot on x
    for (const Series& s : plot.series) {
        if (!drawn(s)) continue;
        const std::size_t n = point_count(s);
        for (std::size_t i = 0; i < n; ++i) {
            if (!xa.accepts(s.x[i]) || !ya.accepts(s.y[i])) continue;
            const double v = which == AxisId::X ? s.x[i] : s.y[i];
            e.add(fwd(sc, v));
            if (s.kind == SeriesKind::Bars && which == AxisId::X) bar_x.push_back(fwd(sc, v));
            if (s.kind == SeriesKind::Bars && which == AxisId::Y && sc == Scale::Linear) bar_baseline = true;
        }
    }
    const AxisRange& own = which == AxisId::X ? xa : ya;
    for (const RefLine& r : plot.ref_lines) {
        const bool mine = (r.orientation == RefLine::Orientation::Horizontal) == (which == AxisId::Y);
        if (mine && own.accepts(r.value)) e.add(fwd(sc, r.value));
    }
    for (const Annotation& a : plot.annotations)
        if (xa.accepts(a.x) && ya.accepts(a.y)) e.add(fwd(sc, which == AxisId::X ? a.x : a.y));
    if (plot.heat && plot.heat->rows > 0 && plot.heat->cols > 0) {
        const HeatMap& h = *plot.heat;
        const double ends[2] = {which == AxisId::X ? h.x0 : h.y0, which == AxisId::X ? h.x1 : h.y1};
        for (double v : ends)
            if (own_axis_accepts(sc, v)) e.add(fwd(sc, v));
    }
    if (!bar_x.empty()) {
        std::sort(bar_x.begin(), bar_x.end());
        double gap = std::numeric_limits<double>::infinity();
        for (std::size_t i = 1; i < bar_x.size(); ++i)
            if (bar_x[i] > bar_x[i - 1]) gap = std::min(gap, bar_x[i] - bar_x[i - 1]);
        if (std::isfinite(gap)) {
            e.add(bar_x.front() - 0.5 * gap);
            e.add(bar_x.back() + 0.5 * gap);
        }
    }
    bool stick_lo = false, stick_hi = false;   // keep a bar baseline at the edge, unpadded
    if (bar_baseline && !e.empty()) {
        stick_lo = e.lo >= 0.0;
        stick_hi = e.hi <= 0.0;
        e.add(0.0);
    }

    // Auto bounds: padded data, or widened when degenerate, or the defaults.
    double lo, hi;
    if (e.empty()) {
        lo = 0.0;   // f-space: [0, 1] linear, [10⁰, 10¹] log
        hi = 1.0;
    } else {
        const double span = e.hi - e.lo;
        const double mag = std::max(std::fabs(e.lo), std::fabs(e.hi));
        if (!(span > 1e-12 * mag) || !std::isfinite(span)) {
            const double c = 0.5 * e.lo + 0.5 * e.hi, h = widen_half(sc, c);
            lo = c - h;
            hi = c + h;
        } else {
            const double pad = kAutoRangePadding * span;
            lo = stick_lo ? e.lo : e.lo - pad;
            hi = stick_hi ? e.hi : e.hi + pad;
            if (!std::isfinite(lo)) lo = e.lo;
            if (!std::isfinite(hi)) hi = e.hi;
        }
    }

    // Explicit bounds win; repair min ≥ max.
    const bool has_min = usable(sc, axis.min), has_max = usable(sc, axis.max);
    if (has_min) lo = fwd(sc, *axis.min);
    if (has_max) hi = fwd(sc, *axis.max);
    if (has_min && has_max && lo > hi) std::swap(lo, hi);
    if (!(lo < hi)) {
        if (has_min && !has_max) {
            hi = lo + 2.0 * widen_half(sc, lo);
        } else if (has_max && !has_min) {
            lo = hi - 2.0 * widen_half(sc, hi);
        } else {
            const double c = lo, h = widen_half(sc, c);
            lo = c - h;
            hi = c + h;
        }
    }
    AxisRange r{sc, inv(sc, lo), inv(sc, hi), axis.reversed};
    // Last resort for spans a double cannot hold after transforming back (|v| near DBL_MAX,
    // 10^±400 on log axes): the default range rather than inf or 0.
    if (!(r.lo < r.hi) || !std::isfinite(r.hi - r.lo) || !r.accepts(r.lo) || !r.accepts(r.hi)) {
        r.lo = sc == Scale::Linear ? 0.0 : 1.0;
        r.hi = sc == Scale::Linear ? 1.0 : 10.0;
    }
    return r;
}

Point2 Viewport::to_px(Point2 d) const {
    return {px.x0 + x.to_unit(d.x) * px.width(), px.y1 - y.to_unit(d.y) * px.height()};
}

Point2 Viewport::to_data(Point2 p) const {
    const double tx = px.width() > 0.0 ? (p.x - px.x0) / px.width() : 0.0;
    const double ty = px.height() > 0.0 ? (px.y1 - p.y) / px.height() : 0.0;
    return {x.from_unit(tx), y.from_unit(ty)};
}

AxisRange zoomed(const AxisRange& r, double anchor, double factor) {
    if (!(factor > 0.0) || !std::isfinite(factor)) return r;
    const double ta = r.accepts(anchor) ? r.to_unit(anchor) : 0.5;
    const double t0 = ta - ta * factor, t1 = ta + (1.0 - ta) * factor;
    AxisRange z = r;
    z.lo = std::min(r.from_unit(t0), r.from_unit(t1));
    z.hi = std::max(r.from_unit(t0), r.from_unit(t1));
    if (!(z.lo < z.hi) || !z.accepts(z.lo) || !z.accepts(z.hi) || !std::isfinite(z.hi - z.lo)) return r;
    return z;
}

AxisRange panned(const AxisRange& r, double dt) {
    if (!std::isfinite(dt)) return r;
    AxisRange p = r;
    p.lo = std::min(r.from_unit(dt), r.from_unit(1.0 + dt));
    p.hi = std::max(r.from_unit(dt), r.from_unit(1.0 + dt));
    if (!(p.lo < p.hi) || !p.accepts(p.lo) || !p.accepts(p.hi) || !std::isfinite(p.hi - p.lo)) return r;
    return p;
}

// [SECTION] Ticks ---------------------------------------------------------------------------

namespace {

double pow10i(int k) { return std::pow(10.0, k); }

// The exact decimal N·10^k as a double: N / 10^−k is correctly rounded for −k ≤ 22.
double decimal_value(long long n, int k) {
    if (n == 0) return 0.0;
    return k < 0 ? static_cast<double>(n) / pow10i(-k) : static_cast<double>(n) * pow10i(k);
}

// The label of N·10^k: plain decimals ("0.6", "−1.25", "3000"), or m×10ᵉ when sci.
std::string decimal_label(long long n, int k, bool sci) {
    if (n == 0) return "0";
    const std::string sign = n < 0 ? kMinusSign : "";
    std::string digits = std::to_string(n < 0 ? -n : n);
    if (sci) {
        const int e = k + static_cast<int>(digits.size()) - 1;
        std::string m = digits.substr(0, 1);
        std::string rest = digits.substr(1);
        while (!rest.empty() && rest.back() == '0') rest.pop_back();
        if (!rest.empty()) m += "." + rest;
        return sign + (m == "1" ? decade_label(e) : m + kTimesSign + decade_label(e));
    }
    if (k >= 0) return sign + digits + std::string(static_cast<std::size_t>(k), '0');
    const std::size_t dec = static_cast<std::size_t>(-k);
    if (digits.size() <= dec) digits.insert(0, dec - digits.size() + 1, '0');
    std::string s = digits.substr(0, digits.size() - dec) + "." + digits.substr(digits.size() - dec);
    return sign + strip_zeros(s);
}

// Integer tick indices i with lo ≤ i·step ≤ hi (tolerant to rounding at the ends).
void index_range(double lo, double hi, double step, double& i0, double& i1) {
    const double tol = 1e-9;
    i0 = std::ceil(lo / step - tol);
    i1 = std::floor(hi / step + tol);
}

}  // namespace

std::vector<Tick> linear_ticks(double lo, double hi, int target, double min_step) {
    std::vector<Tick> out;
    if (!std::isfinite(lo) || !std::isfinite(hi) || !(lo < hi) || !std::isfinite(hi - lo)) return out;
    target = std::clamp(target, 2, 50);
    int k0 = static_cast<int>(std::floor(std::log10((hi - lo) / target)));
    const bool has_min_step = std::isfinite(min_step) && min_step > 0.0;
    if (has_min_step) k0 = std::max(k0, static_cast<int>(std::floor(std::log10(min_step))));

    // Step = mult·10^k: the candidate whose tick count is closest to target (ties: larger step).
    int best_mult = 1, best_k = k0;
    double best_err = std::numeric_limits<double>::infinity();
    for (int k = k0 - 1; k <= k0 + 1; ++k) {
        for (int mult : {1, 2, 5}) {
            const double step = mult * pow10i(k);
            if (has_min_step && step < min_step * (1.0 - 1e-12)) continue;
            double i0, i1;
            index_range(lo, hi, step, i0, i1);
            const double count = i1 - i0 + 1.0;
            // A lone tick says nothing about the scale: never chosen while two fit.
            const double err = std::fabs(count - target) + (count < 2.0 ? 1000.0 : 0.0);
            if (err < best_err || (err == best_err && step > best_mult * pow10i(best_k))) {
                best_err = err;
                best_mult = mult;
                best_k = k;
            }
        }
    }
    const double step = best_mult * pow10i(best_k);
    double i0, i1;
    index_range(lo, hi, step, i0, i1);
    if (!(i1 >= i0) || std::fabs(i0) > 1e15 || std::fabs(i1) > 1e15 || i1 - i0 > 1000) return out;

    const double big = std::max(std::fabs(i0), std::fabs(i1)) * step;
    const bool sci = big >= 1e6 || best_k < -4;
    for (double i = i0; i <= i1; i += 1.0) {
        const long long n = static_cast<long long>(i) * best_mult;
        out.push_back({decimal_value(n, best_k), decimal_label(n, best_k, sci), true});
    }
    return out;
}

std::vector<Tick> log_ticks(double lo, double hi, int target, int slack) {
    std::vector<Tick> out;
    if (!std::isfinite(lo) || !std::isfinite(hi) || !(lo > 0.0) || !(lo < hi)) return out;
    target = std::clamp(target, 2, 50);
    const double llo = std::log10(lo), lhi = std::log10(hi);
    const double tol = 1e-9;
    const int e0 = static_cast<int>(std::ceil(llo - tol)), e1 = static_cast<int>(std::floor(lhi + tol));
    const int decades = e1 - e0 + 1;
    auto inside = [&](double v) { return v >= lo * (1.0 - tol) && v <= hi * (1.0 + tol); };

    if (decades >= 2) {
        // Label every stride-th decade; decade labels are short, so allow target + slack of them.
        int stride = 1;
        for (int base = 1;; base *= 10) {
            bool done = false;
            for (int m : {1, 2, 5}) {
                stride = m * base;
                if ((decades + stride - 1) / stride <= target + slack) {
                    done = true;
                    break;
                }
            }
            if (done || base > 100) break;
        }
        for (int e = e0; e <= e1; ++e) {
            const bool major = ((e % stride) + stride) % stride == 0;
            out.push_back({pow10i(e), major ? decade_label(e) : "", major});
        }
        if (stride == 1) {   // minor ticks 2…9 × 10^e, also below the first decade
            for (int e = e0 - 1; e <= e1; ++e)
                for (int m = 2; m <= 9; ++m) {
                    const double v = m * pow10i(e);
                    if (inside(v)) out.push_back({v, "", false});
                }
        }
        std::sort(out.begin(), out.end(), [](const Tick& a, const Tick& b) { return a.value < b.value; });
        return out;
    }

    // Less than two decades: 1, 2, 5 × 10^e labelled as plain numbers, the rest minor.
    std::vector<Tick> majors;
    for (int e = e0 - 1; e <= e1; ++e)
        for (int m = 1; m <= 9; ++m) {
            const double v = decimal_value(m, e);
            if (!inside(v)) continue;
            const bool major = m == 1 || m == 2 || m == 5;
            (major ? majors : out).push_back({v, major ? format_number(v, 3) : "", major});
        }
    if (majors.size() < 2) {
        out.clear();
        for (Tick& t : linear_ticks(lo, hi, target))
            if (t.value > 0.0) out.push_back(std::move(t));
        return out;
    }
    out.insert(out.end(), majors.begin(), majors.end());
    std::sort(out.begin(), out.end(), [](const Tick& a, const Tick& b) { return a.value < b.value; });
    return out;
}

std::vector<Tick> axis_ticks(const AxisRange& r, int target, double min_step, int log_slack) {
    return r.scale == Scale::Log10 ? log_ticks(r.lo, r.hi, target, log_slack) : linear_ticks(r.lo, r.hi, target, min_step);
}

// [SECTION] Text width estimate -------------------------------------------------------------

namespace {

// Advance widths of DejaVu Sans in em, roughly by class.
double em_width(char32_t c) {
    if (c == ' ') return 0.32;
    if (c >= '0' && c <= '9') return 0.64;
    if (c == 'i' || c == 'l' || c == 'j' || c == '.' || c == ',' || c == ':' || c == ';' || c == '|' ||
        c == '\'' || c == '!' || c == 'I')
        return 0.3;
    if (c == 'f' || c == 't' || c == 'r' || c == '(' || c == ')' || c == '[' || c == ']' || c == '/')
        return 0.4;
    if (c == 'm' || c == 'w' || c == 'M' || c == 'W') return 0.92;
    if (c >= 'A' && c <= 'Z') return 0.72;
    if (c == 0xB2 || c == 0xB3 || c == 0xB9 || (c >= 0x2070 && c <= 0x209F)) return 0.42;   // super/subscripts
    if (c >= 0x300 && c <= 0x36F) return 0.0;                                             // combining marks
    return 0.62;
}

}  // namespace

double estimate_text_width(std::string_view text, double font_px) {
    double em = 0.0;
    for (std::size_t i = 0; i < text.size();) em += em_width(next_code_point(text, i));
    return em * font_px;
}

// [SECTION] Series geometry -----------------------------------------------------------------

namespace {

// The point where segment a→b meets edge k of r (0: x = x0, 1: x = x1, 2: y = y0, 3: y = y1),
// interpolated from the endpoint nearer the edge: exact on the edge and accurate even when the
// other endpoint is astronomically far away (data of 1e300 on a [0, 1] axis).
Point2 on_edge(Point2 a, Point2 b, int k, const Rect& r) {
    if (k < 2) {
        const double x = k == 0 ? r.x0 : r.x1;
        const Point2 n = std::fabs(a.x - x) <= std::fabs(b.x - x) ? a : b;
        return {x, n.y + (x - n.x) * ((b.y - a.y) / (b.x - a.x))};
    }
    const double y = k == 2 ? r.y0 : r.y1;
    const Point2 n = std::fabs(a.y - y) <= std::fabs(b.y - y) ? a : b;
    return {n.x + (y - n.y) * ((b.x - a.x) / (b.y - a.y)), y};
}

// Liang–Barsky: clips segment a→b to r; false when nothing of it is inside. The clipped
// points are clamped into r, so rounding can never place them outside.
bool clip_segment(Point2& a, Point2& b, const Rect& r) {
    const double dx = b.x - a.x, dy = b.y - a.y;
    double t0 = 0.0, t1 = 1.0;
    int k0 = -1, k1 = -1;   // the edges that set t0 and t1
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4] = {a.x - r.x0, r.x1 - a.x, a.y - r.y0, r.y1 - a.y};
    for (int k = 0; k < 4; ++k) {
        if (p[k] == 0.0) {
            if (q[k] < 0.0) return false;
            continue;
        }
        const double t = q[k] / p[k];
        if (p[k] < 0.0) {
            if (t > t1) return false;
            if (t > t0) {
                t0 = t;
                k0 = k;
            }
        } else {
            if (t < t0) return false;
            if (t < t1) {
                t1 = t;
                k1 = k;
            }
        }
    }
    const Point2 a0 = a, b0 = b;
    if (k0 >= 0) a = on_edge(a0, b0, k0, r);
    if (k1 >= 0) b = on_edge(a0, b0, k1, r);
    for (Point2* pt : {&a, &b}) {
        pt->x = std::clamp(pt->x, r.x0, r.x1);
        pt->y = std::clamp(pt->y, r.y0, r.y1);
    }
    return true;
}

Rect grown(const Rect& r, double m) { return {r.x0 - m, r.y0 - m, r.x1 + m, r.y1 + m}; }

bool finite(Point2 p) { return std::isfinite(p.x) && std::isfinite(p.y); }

// Pixel position of point i, or non-finite when it cannot be drawn.
Point2 point_px(const Series& s, std::size_t i, const Viewport& view) { return view.to_px({s.x[i], s.y[i]}); }

}  // namespace

std::vector<std::vector<Point2>> series_polylines(const Series& s, const Viewport& view, double margin) {
    std::vector<std::vector<Point2>> out;
    const Rect clip = grown(view.px, std::max(0.0, margin));
    std::vector<Point2> cur;
    auto flush = [&] {
        if (cur.size() >= 2) out.push_back(std::move(cur));
        cur.clear();
    };
    bool have_prev = false;
    Point2 prev;
    const std::size_t n = point_count(s);
    for (std::size_t i = 0; i < n; ++i) {
        const Point2 p = point_px(s, i, view);
        if (!finite(p)) {
            flush();
            have_prev = false;
            continue;
        }
        if (have_prev) {
            Point2 a = prev, b = p;
            if (clip_segment(a, b, clip)) {
                if (cur.empty() || cur.back().x != a.x || cur.back().y != a.y) {
                    flush();
                    cur.push_back(a);
                }
                cur.push_back(b);
            } else {
                flush();
            }
        }
        prev = p;
        have_prev = true;
    }
    flush();
    return out;
}

Marker effective_marker(const Series& s) {
    if (s.kind == SeriesKind::Scatter && s.marker == Marker::None) return Marker::Circle;
    if (s.kind == SeriesKind::Bars) return Marker::None;
    return s.marker;
}

std::vector<Point2> series_markers(const Series& s, const Viewport& view) {
    std::vector<Point2> out;
    if (effective_marker(s) == Marker::None) return out;
    const Rect area = grown(view.px, 0.5 * std::max(0.0, s.marker_size));
    std::vector<Point2> pts;
    const std::size_t n = point_count(s);
    for (std::size_t i = 0; i < n; ++i) {
        const Point2 p = point_px(s, i, view);
        if (finite(p)) pts.push_back(p);
    }
    if (s.kind == SeriesKind::Line && pts.size() > static_cast<std::size_t>(kMaxLineMarkers)) {
        std::vector<Point2> picked;
        const double last = static_cast<double>(pts.size() - 1);
        for (int j = 0; j < kMaxLineMarkers; ++j)
            picked.push_back(pts[static_cast<std::size_t>(std::lround(j * last / (kMaxLineMarkers - 1)))]);
        pts.swap(picked);
    }
    for (const Point2& p : pts)
        if (area.contains(p)) out.push_back(p);
    return out;
}

std::vector<PlacedBar> series_placed_bars(const Plot& plot, std::size_t index, const Viewport& view) {
    std::vector<PlacedBar> out;
    if (index >= plot.series.size()) return out;
    const Series& s = plot.series[index];
    if (s.kind != SeriesKind::Bars || !drawn(s)) return out;

    // Slot: shared by all drawn bar series but overlays; this series' place in it (an overlay:
    // that of the bar series before it).
    std::size_t nbar = 0, slot_index = 0;
    std::vector<double> xs;
    for (std::size_t k = 0; k < plot.series.size(); ++k) {
        const Series& b = plot.series[k];
        if (!drawn(b) || b.kind != SeriesKind::Bars) continue;
        if (k <= index && !b.overlay) slot_index = nbar;
        if (!b.overlay) ++nbar;
        for (std::size_t i = 0; i < point_count(b); ++i) {
            const double px = view.px.x0 + view.x.to_unit(b.x[i]) * view.px.width();
            if (std::isfinite(px)) xs.push_back(px);
        }
    }
    std::sort(xs.begin(), xs.end());
    double gap = std::numeric_limits<double>::infinity();
    for (std::size_t i = 1; i < xs.size(); ++i)
        if (xs[i] - xs[i - 1] > 1e-9) gap = std::min(gap, xs[i] - xs[i - 1]);
    const double slot = std::isfinite(gap) ? 0.8 * gap : 0.1 * view.px.width();
    const double bw = slot / static_cast<double>(std::max<std::size_t>(nbar, 1));

    double base = view.px.y1;   // log y: the bottom of the data area
    if (view.y.scale == Scale::Linear) base = std::clamp(view.to_px({0.0, 0.0}).y, view.px.y0, view.px.y1);
    if (!std::isfinite(base)) base = view.px.y1;
    for (std::size_t i = 0; i < point_count(s); ++i) {
        const Point2 p = point_px(s, i, view);
        if (!finite(p)) continue;
        const double left = p.x - 0.5 * slot + static_cast<double>(slot_index) * bw;
        Rect r{left, std::min(base, p.y), left + bw, std::max(base, p.y)};
        r.x0 = std::max(r.x0, view.px.x0);
        r.x1 = std::min(r.x1, view.px.x1);
        r.y0 = std::max(r.y0, view.px.y0);
        r.y1 = std::min(r.y1, view.px.y1);
        if (r.x1 > r.x0 && r.y1 >= r.y0) out.push_back({i, r});
    }
    return out;
}

std::vector<Rect> series_bars(const Plot& plot, std::size_t index, const Viewport& view) {
    std::vector<Rect> out;
    for (const PlacedBar& b : series_placed_bars(plot, index, view)) out.push_back(b.rect);
    return out;
}

std::vector<double> dash_pattern(LineStyle style, double width) {
    const double w = std::isfinite(width) && width > 0.0 ? width : 1.0;
    const double k = std::max(1.0, w / 1.5);
    switch (style) {
    case LineStyle::Dashed: return {6.0 * k, 3.5 * k};
    case LineStyle::Dotted: return {std::max(1.5, w), std::max(3.0, 2.0 * w)};
    case LineStyle::Solid: break;
    }
    return {};
}

std::vector<std::vector<Point2>> apply_dashes(const std::vector<Point2>& line, const std::vector<double>& pattern) {
    std::vector<std::vector<Point2>> out;
    double period = 0.0;
    for (double d : pattern) period += std::max(0.0, d);
    if (pattern.empty() || !(period > 0.0) || !std::isfinite(period)) {
        if (line.size() >= 2) out.push_back(line);
        return out;
    }
    // As in SVG, an odd-length pattern repeats twice to make an even one.
    std::vector<double> pat = pattern;
    if (pat.size() % 2 == 1) pat.insert(pat.end(), pattern.begin(), pattern.end());
    std::size_t k = 0;                     // current pattern entry (even: on, odd: off)
    double left = std::max(0.0, pat[0]);   // length left in it
    std::vector<Point2> cur;
    for (std::size_t i = 1; i < line.size(); ++i) {
        Point2 a = line[i - 1];
        const Point2 b = line[i];
        double seg = std::hypot(b.x - a.x, b.y - a.y);
        if (!std::isfinite(seg)) continue;
        while (seg > 0.0) {
            const double step = std::min(seg, left);
            const Point2 c{a.x + (b.x - a.x) * (step / seg), a.y + (b.y - a.y) * (step / seg)};
            if (k % 2 == 0) {
                if (cur.empty()) cur.push_back(a);
                cur.push_back(c);
            }
            seg -= step;
            left -= step;
            a = c;
            if (left <= 0.0) {
                if (k % 2 == 0 && cur.size() >= 2) out.push_back(std::move(cur));
                cur.clear();
                k = (k + 1) % pat.size();
                left = std::max(0.0, pat[k]);
            }
        }
    }
    if (cur.size() >= 2) out.push_back(std::move(cur));
    return out;
}

std::optional<PointHit> nearest_point(const Plot& plot, const Viewport& view, Point2 p, double max_px) {
    std::optional<PointHit> best;
    for (std::size_t k = 0; k < plot.series.size(); ++k) {
        const Series& s = plot.series[k];
        if (!drawn(s)) continue;
        if (s.kind == SeriesKind::Bars) {
            if (s.overlay || !view.px.contains(p)) continue;
            for (const PlacedBar& b : series_placed_bars(plot, k, view)) {
                const double d = p.x < b.rect.x0 ? b.rect.x0 - p.x : p.x > b.rect.x1 ? p.x - b.rect.x1 : 0.0;
                if (d <= max_px && (!best || d < best->distance_px)) best = PointHit{k, b.index, d};
            }
            continue;
        }
        for (std::size_t i = 0; i < point_count(s); ++i) {
            const Point2 q = point_px(s, i, view);
            if (!finite(q) || !view.px.contains(q)) continue;
            const double d = std::hypot(q.x - p.x, q.y - p.y);
            if (d <= max_px && (!best || d < best->distance_px)) best = PointHit{k, i, d};
        }
    }
    return best;
}

// [SECTION] Layout --------------------------------------------------------------------------

namespace {

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
Rect text_box(const PlacedText& t, double width, double clear_x = 0.0, double clear_y = 0.0) {
    const double x0 = t.anchor == TextAnchor::Start ? t.at.x
                      : t.anchor == TextAnchor::End ? t.at.x - width
                                                    : t.at.x - 0.5 * width;
    return Rect{x0 - clear_x, t.at.y - kAscent * t.font_px - clear_y, x0 + width + clear_x,
                t.at.y + kDescent * t.font_px + clear_y};
}

// Whether two boxes share more than a sliver (touching edges, up to rounding, do not count:
// the 1× and k× layouts must agree).
bool boxes_meet(const Rect& a, const Rect& b, double eps) {
    return a.x0 < b.x1 - eps && b.x0 < a.x1 - eps && a.y0 < b.y1 - eps && b.y0 < a.y1 - eps;
}

int tick_target(double length, double spacing) {
    if (!(spacing > 0.0)) spacing = 80.0;
    return std::clamp(static_cast<int>(std::lround(length / spacing)), 2, 12);
}

std::vector<PlacedTick> place(const std::vector<Tick>& ticks, const AxisRange& r, double p0, double p1) {
    std::vector<PlacedTick> out;
    for (const Tick& t : ticks) {
        const double u = r.to_unit(t.value);
        if (!std::isfinite(u) || u < -1e-9 || u > 1.0 + 1e-9) continue;
        out.push_back({t, p0 + std::clamp(u, 0.0, 1.0) * (p1 - p0)});
    }
    return out;
}

// Whether the labelled x ticks would overlap (with a gap of at least one em).
bool x_labels_collide(const std::vector<PlacedTick>& ticks, const Measure& m, double font_px) {
    double prev_right = -std::numeric_limits<double>::infinity();
    for (const PlacedTick& t : ticks) {
        if (t.tick.label.empty()) continue;
        const double w = m(t.tick.label, font_px);
        if (t.pos - 0.5 * w < prev_right + font_px) return true;
        prev_right = t.pos + 0.5 * w;
    }
    return false;
}

bool y_labels_collide(const std::vector<PlacedTick>& ticks, double font_px) {
    double prev = std::numeric_limits<double>::infinity();
    for (const PlacedTick& t : ticks) {   // ascending values: pixel y decreasing
        if (t.tick.label.empty()) continue;
        if (std::fabs(prev - t.pos) < 1.4 * font_px) return true;
        prev = t.pos;
    }
    return false;
}

// Ticks for an axis of the given pixel length, fewer when their labels would collide; on a log
// axis short enough that even the fewest collide, without log_ticks' slack for decade labels.
template <class Collide>
std::vector<PlacedTick> fit_ticks(const AxisRange& r, double p0, double p1, int target, double min_step,
                                  Collide collide) {
    std::vector<PlacedTick> placed;
    for (int slack : {2, 0}) {
        for (int t = target; t >= 2; --t) {
            placed = place(axis_ticks(r, t, min_step, slack), r, p0, p1);
            if (!collide(placed)) return placed;
        }
        if (r.scale != Scale::Log10) break;
    }
    return placed;
}

// Whether the plot's heat map has cells one unit wide (or high) centred on whole numbers: a
// matrix's columns (rows), whose ticks are then whole.
bool unit_cells(const Plot& plot, AxisId which) {
    if (!plot.heat) return false;
    const HeatMap& h = *plot.heat;
    const double lo = which == AxisId::X ? h.x0 : h.y0, hi = which == AxisId::X ? h.x1 : h.y1;
    const int count = which == AxisId::X ? h.cols : h.rows;
    return count > 0 && hi - lo == count && lo + 0.5 == std::round(lo + 0.5);
}

// Whether the plot shows bars and every drawn bar sits at a whole x (categories 0, 1, 2, …).
bool bars_at_integers(const Plot& plot) {
    bool any = false;
    for (const Series& s : plot.series) {
        if (!drawn(s) || s.kind != SeriesKind::Bars) continue;
        for (std::size_t i = 0; i < point_count(s); ++i) {
            if (!std::isfinite(s.x[i])) continue;
            if (s.x[i] != std::round(s.x[i])) return false;
            any = true;
        }
    }
    return any;
}

// Counts how much of the drawn data a legend box would hide: line segments that cross it
// (a segment passing through counts, not only its vertices), markers and bars that touch it,
// annotation points (×3). Lines and markers count from half their stroke width / marker size
// away, times k, the factor the style was scaled by, as the renderers draw them. Counting stops
// once it reaches `enough` (the best corner so far: this one cannot beat it).
double coverage(const Plot& plot, const Viewport& view, const Rect& box, double k,
                double enough = std::numeric_limits<double>::infinity()) {
    double hits = 0.0;
    for (const Annotation& a : plot.annotations)
        if (box.contains(view.to_px({a.x, a.y}))) hits += 3.0;
    for (std::size_t j = 0; j < plot.series.size() && hits < enough; ++j) {
        const Series& s = plot.series[j];
        if (!drawn(s)) continue;
        if (s.kind == SeriesKind::Line) {
            // The segments series_polylines() draws, unclipped: clipping them to the data area
            // first would not change which of them meet a box inside it.
            const Rect near_line = grown(box, 0.5 * std::max(0.0, s.width) * k);
            Point2 prev{kNaN, kNaN};
            for (std::size_t i = 0; i < point_count(s); ++i) {
                const Point2 p = point_px(s, i, view);
                Point2 a = prev, b = p;
                prev = p;
                if (!finite(a) || !finite(b) || !clip_segment(a, b, near_line)) continue;
                hits += 1.0;
                if (hits >= enough) return hits;
            }
        }
        if (s.kind == SeriesKind::Bars) {
            for (const Rect& r : series_bars(plot, j, view))
                if (r.x0 < box.x1 && r.x1 > box.x0 && r.y0 < box.y1 && r.y1 > box.y0) hits += 1.0;
        } else {
            const Rect near_marker = grown(box, 0.5 * std::max(0.0, s.marker_size) * k);
            for (const Point2& p : series_markers(s, view))
                if (near_marker.contains(p)) hits += 1.0;
        }
    }
    return hits;
}

}  // namespace

PlotStyle scaled(PlotStyle style, double k) {
    if (!(k > 0.0) || !std::isfinite(k)) return style;
    for (double* v : {&style.title_font_px, &style.label_font_px, &style.tick_font_px, &style.tick_length, &style.pad,
                      &style.x_tick_spacing, &style.y_tick_spacing, &style.legend_swatch})
        *v *= k;
    return style;
}

namespace {

constexpr double kBoldWidth = 1.12;   // DejaVu Sans Bold's width over DejaVu Sans's, at most
constexpr double kMinYLabelScale = 0.7;   // the least a y label longer than its figure is scaled

// A heat map's colour bar: kColorBarEm wide, kColorBarGapEm from the data area and from its labels.
constexpr double kColorBarEm = 1.2, kColorBarGapEm = 0.4;

bool has_color_bar(const Plot& plot) { return plot.heat && !plot.heat->bar.empty(); }

// The width the colour bar and its labels take right of the data area (0: none).
double color_bar_room(const Plot& plot, const Measure& measure, double tf, double pad) {
    if (!has_color_bar(plot)) return 0.0;
    const HeatMap& h = *plot.heat;
    double w = 0.0;
    for (const std::string* t : {&h.bar_top, &h.bar_middle, &h.bar_bottom}) w = std::max(w, measure(*t, tf));
    return pad + (kColorBarEm + kColorBarGapEm) * tf + w;
}

// `text` broken at spaces into lines no wider than `width` (a word wider than that is a line
// of its own).
std::vector<std::string> wrap_words(const std::string& text, double width, double font_px, const Measure& measure) {
    std::vector<std::string> lines;
    std::string line;
    for (std::size_t start = 0; start < text.size();) {
        const std::size_t end = std::min(text.find(' ', start), text.size());
        const std::string word = text.substr(start, end - start);
        start = end + 1;
        if (word.empty()) continue;
        const std::string longer = line.empty() ? word : line + " " + word;
        if (!line.empty() && measure(longer, font_px) > width) {
            lines.push_back(line);
            line = word;
        } else {
            line = longer;
        }
    }
    if (!line.empty()) lines.push_back(line);
    return lines;
}

// Annotations (right of and above their point, flipped left near the right edge) and the
// reference lines' labels, in L's data area at tick font size tf, `off` from their anchor.
void place_annotations(const Plot& plot, const Measure& measure, double tf, double off, PlotLayout& L) {
    const Rect& d = L.view.px;
    for (const Annotation& a : plot.annotations) {
        const Point2 p = L.view.to_px({a.x, a.y});
        if (!finite(p) || !d.contains(p) || a.text.empty()) continue;
        const double w = measure(a.text, tf);
        const bool flip = p.x + off + w > d.x1;
        L.annotations.push_back({a.text, {flip ? p.x - off : p.x + off, std::max(p.y - off, d.y0 + kAscent * tf)},
                                 flip ? TextAnchor::End : TextAnchor::Start, tf, 0.0});
    }
    for (const RefLine& r : plot.ref_lines) {
        if (r.label.empty()) continue;
        if (r.orientation == RefLine::Orientation::Horizontal) {
            const double y = L.view.to_px({0.5 * (L.view.x.lo + L.view.x.hi), r.value}).y;
            if (!std::isfinite(y) || y < d.y0 || y > d.y1) continue;
            const double base = y - off - kAscent * tf < d.y0 ? y + off + kAscent * tf : y - off;
            L.ref_labels.push_back({r.label, {d.x1 - off, base}, TextAnchor::End, tf, 0.0});
        } else {
            const double x = d.x0 + L.view.x.to_unit(r.value) * d.width();
            if (!std::isfinite(x) || x < d.x0 || x > d.x1) continue;
            const bool flip = x + off + measure(r.label, tf) > d.x1;
            L.ref_labels.push_back({r.label, {flip ? x - off : x + off, d.y0 + off + kAscent * tf},
                                    flip ? TextAnchor::End : TextAnchor::Start, tf, 0.0});
        }
    }
}

// Everything but the legend, for the given ranges: margins from the text sizes, the data area,
// ticks, tick and axis labels, title, annotations and reference-line labels.
PlotLayout layout_frame(const Plot& plot, const Rect& outer, const PlotStyle& style, const AxisRange& x_range,
                        const AxisRange& y_range) {
    PlotLayout L;
    L.outer = outer;
    const Measure measure{style};
    const double tf = style.tick_font_px, lf = style.label_font_px, ttf = style.title_font_px;
    const double pad = style.pad, tick = style.tick_length;
    // Small gaps scale with the tick font, so that a k× style lays out at exactly k×.
    const double tick_gap = 0.25 * tf;   // between a tick's end and its label
    const double off = 0.4 * tf;         // annotation and reference-label offsets from their anchor

    L.view.x = x_range;
    L.view.y = y_range;

    // Vertical margins: title above; tick labels and the x label below.
    double top = outer.y0 + pad;
    const double title_w = outer.x1 - outer.x0 - 2.0 * pad;
    if (!plot.title.empty()) {
        // A title wider than the figure wraps (the lines 1.15 text heights apart); it is bold,
        // up to kBoldWidth wider than the regular text `measure` measures.
        for (const std::string& line : wrap_words(plot.title, title_w / kBoldWidth, ttf, measure)) {
            L.title.push_back({line, {0.0, top + kAscent * ttf}, TextAnchor::Middle, ttf, 0.0});
            top += 1.15 * ttf;
        }
        top += -0.15 * ttf + 0.6 * pad;
    } else {
        top += 0.5 * tf;   // room for the top y tick label's upper half
    }
    double bottom_block = tick + tick_gap + tf;
    if (!plot.x.label.empty()) bottom_block += 0.5 * pad + lf;
    const double bottom = std::max(top + 1.0, outer.y1 - pad - bottom_block);
    L.view.px.y0 = top;
    L.view.px.y1 = bottom;

    // y ticks depend only on the height; their labels' width sets the left margin.
    const bool y_whole = unit_cells(plot, AxisId::Y);
    int y_target = tick_target(bottom - top, style.y_tick_spacing);
    if (y_whole) y_target = std::max(y_target, std::min(50, plot.heat->rows));
    L.y_ticks = fit_ticks(L.view.y, bottom, top, y_target, y_whole ? 1.0 : 0.0,
                          [&](const std::vector<PlacedTick>& t) { return y_labels_collide(t, tf); });
    double ylab_w = 0.0;
    for (const PlacedTick& t : L.y_ticks)
        if (!t.tick.label.empty()) ylab_w = std::max(ylab_w, measure(t.tick.label, tf));
    double left = outer.x0 + pad;
    if (!plot.y.label.empty()) left += lf + 0.5 * pad;
    left += ylab_w + tick_gap + tick;
    L.view.px.x0 = left;

    // x ticks; then shrink the right edge so that the last label stays inside the figure (and
    // leaves room for a heat map's colour bar).
    double right = std::max(left + 1.0, outer.x1 - pad - color_bar_room(plot, measure, tf, pad));
    L.view.px.x1 = right;
    int x_target = tick_target(right - left, style.x_tick_spacing);
    auto x_collide = [&](const std::vector<PlacedTick>& t) { return x_labels_collide(t, measure, tf); };
    const double x_min_step = bars_at_integers(plot) || unit_cells(plot, AxisId::X) ? 1.0 : 0.0;
    // Categories (bars at whole x): a label for each while they do not collide (short labels).
    if (x_min_step > 0.0) x_target = std::max(x_target, std::min(50, static_cast<int>(std::floor(x_range.hi - x_range.lo))));
    L.x_ticks = fit_ticks(L.view.x, left, right, x_target, x_min_step, x_collide);
    double overflow = 0.0;
    for (const PlacedTick& t : L.x_ticks)
        if (!t.tick.label.empty()) overflow = std::max(overflow, t.pos + 0.5 * measure(t.tick.label, tf) - (outer.x1 - 0.2 * tf));
    if (overflow > 0.0) {
        right = std::max(left + 1.0, right - overflow);
        L.view.px.x1 = right;
        L.x_ticks = fit_ticks(L.view.x, left, right, x_target, x_min_step, x_collide);
    }

    // Tick labels, axis labels, title.
    const Rect& d = L.view.px;
    for (const PlacedTick& t : L.x_ticks)
        if (!t.tick.label.empty())
            L.x_tick_labels.push_back({t.tick.label, {t.pos, d.y1 + tick + tick_gap + kAscent * tf}, TextAnchor::Middle, tf, 0.0});
    for (const PlacedTick& t : L.y_ticks)
        if (!t.tick.label.empty())
            L.y_tick_labels.push_back({t.tick.label, {d.x0 - tick - tick_gap, t.pos + kMidline * tf},
                                       TextAnchor::End, tf, 0.0});
    if (!plot.x.label.empty())
        L.x_label = {plot.x.label, {0.5 * (d.x0 + d.x1), d.y1 + tick + tick_gap + tf + 0.5 * pad + kAscent * lf},
                     TextAnchor::Middle, lf, 0.0};
    if (!plot.y.label.empty()) {
        // Centred on the data area; one longer than it is moved down, clear of the title; one
        // longer than the height below the title is set smaller to fit there, down to
        // kMinYLabelScale of its size, and never leaves the figure.
        const double room = outer.y1 - pad - d.y0;
        const double full = measure(plot.y.label, lf);
        const double yf = full > room && room > 0.0 ? std::max(kMinYLabelScale, room / full) * lf : lf;
        const double half = 0.5 * measure(plot.y.label, yf);
        const double mid = std::max(outer.y0 + pad + half,
                                    std::min(std::max(0.5 * (d.y0 + d.y1), d.y0 + half), outer.y1 - pad - half));
        L.y_label = {plot.y.label, {outer.x0 + pad + kAscent * lf, mid}, TextAnchor::Middle, yf, -90.0};
    }
    // Each title line centred over the data area, moved in where that would cross the figure's edge.
    for (PlacedText& t : L.title) {
        const double half = 0.5 * std::min(kBoldWidth * measure(t.text, ttf), title_w);
        t.at.x = std::clamp(0.5 * (d.x0 + d.x1), outer.x0 + pad + half, outer.x1 - pad - half);
    }

    place_annotations(plot, measure, tf, off, L);
    return L;
}

// The legend's box: its size from the labels, and where it sits in each inside corner.
struct LegendBox {
    double width = 0.0, height = 0.0, inset = 0.0;
    int cols = 1;              // entries fill rows left to right, `cols` per row
    double col_width = 0.0;    // one entry's cell: swatch and the longest label, with their margins
    double row = 0.0, inner = 0.0;
    // The box for `n` entries in `c` columns.
    static LegendBox grid(std::size_t n, int c, double col_width, double row, double inner, double inset, double tf) {
        const auto rows = static_cast<double>((n + static_cast<std::size_t>(c) - 1) / static_cast<std::size_t>(c));
        return LegendBox{col_width * c, 2.0 * inner + row * rows - (row - tf) * 0.5, inset, c, col_width, row, inner};
    }
    Rect at(const Rect& d, LegendCorner c) const {
        const bool rightside = c == LegendCorner::TopRight || c == LegendCorner::BottomRight;
        const bool topside = c == LegendCorner::TopRight || c == LegendCorner::TopLeft;
        const double x0 = rightside ? d.x1 - inset - width : d.x0 + inset;
        const double y0 = topside ? d.y0 + inset : d.y1 - inset - height;
        return Rect{x0, y0, x0 + width, y0 + height};
    }
};

struct CornerChoice {
    LegendCorner corner = LegendCorner::TopRight;
    double data = std::numeric_limits<double>::infinity();   // coverage() of its box
    int labels = 0;                                           // reference-line labels it would hide
    // Less data hidden wins; at equal data, fewer labels (a hidden label is the lesser evil).
    bool beats(const CornerChoice& o) const { return data < o.data || (data == o.data && labels < o.labels); }
};

// The corner among `corners` whose legend box hides the least of L's data, and then the fewest
// of its reference-line labels (they sit at a line's end, often in a corner); ties go to the
// earlier one.
CornerChoice least_covered(const Plot& plot, const PlotLayout& L, const LegendBox& box, double k,
                           const Measure& measure, std::initializer_list<LegendCorner> corners) {
    CornerChoice best{*corners.begin()};
    for (LegendCorner c : corners) {
        const Rect at = box.at(L.view.px, c);
        CornerChoice here{c, 0.0, 0};
        for (const PlacedText& t : L.ref_labels)
            if (boxes_meet(text_box(t, measure(t.text, t.font_px)), at, 0.0)) ++here.labels;
        // coverage() counts whole hits: it may stop where this corner can no longer win.
        here.data = coverage(plot, L.view, at, k, here.labels < best.labels ? best.data + 1.0 : best.data);
        if (here.beats(best)) best = here;
    }
    return best;
}

// How far an Auto legend may push an end of the y axis to find room: the span may at most
// double (in log10 units on a log axis, and there by one decade at most), so that the data never
// shrink to a sliver for the sake of a legend.
constexpr double kMaxHeadroomDecades = 1.0;

// The bottom is grown instead of the top only when it needs less than this share of the top's
// growth: legends read best top right, and most curves here (losses, GB/s, norms) are ≥ 0.
constexpr double kBottomWin = 0.5;

// Nice values past the top (or bottom) end of the y range, nearest first, within the cap above:
// the axis's labelled grid continued, so that the grown end is a round number like the tick
// labels (auto ranges otherwise end at the padded data, anywhere). Linear: multiples of the major
// step of `ticks` (the layout's y ticks); the bottom does not cross zero when the range starts at
// or above it (no negative axis under positive data, bars keep their base). Log: decades, or
// 1, 2, 5 × 10^k when fewer than two decades are inside, as log_ticks() labels them.
std::vector<double> grid_beyond(const AxisRange& r, const std::vector<PlacedTick>& ticks, bool top) {
    const Scale sc = r.scale;
    const double flo = fwd(sc, r.lo), fhi = fwd(sc, r.hi), end = top ? fhi : flo;
    const double cap = sc == Scale::Log10 ? std::min(fhi - flo, kMaxHeadroomDecades) : fhi - flo;
    const double tol = 1e-9;

    std::vector<double> out;
    if (sc == Scale::Linear) {
        // n·step for n from the end outward, step = mult·10^e: the spacing of two labelled ticks.
        std::vector<double> major;
        for (const PlacedTick& t : ticks)
            if (!t.tick.label.empty()) major.push_back(t.tick.value);
        if (major.size() < 2) return out;
        const double step = major[1] - major[0];
        if (!(step > 0.0) || !std::isfinite(step)) return out;
        const int e = static_cast<int>(std::floor(std::log10(step) + tol));
        const long long mult = std::llround(step / pow10i(e));
        if (mult != 1 && mult != 2 && mult != 5) return out;
        const double unit = static_cast<double>(mult) * pow10i(e);
        const double n0 = top ? std::floor(r.hi / unit + tol) + 1.0 : std::ceil(r.lo / unit - tol) - 1.0;
        for (double n = n0; std::fabs(n - n0) <= 1000.0 && std::fabs(n) <= 1e15; n += top ? 1.0 : -1.0) {
            const double v = decimal_value(static_cast<long long>(n) * mult, e);
            if (std::fabs(v - end) > cap * (1.0 + tol) || (!top && r.lo >= 0.0 && v < 0.0)) break;
            out.push_back(v);
        }
        return out;
    }
    // Log: m·10^e, within a decade or two of the end (the cap is one decade at most).
    const int e0 = static_cast<int>(std::ceil(flo - tol)), e1 = static_cast<int>(std::floor(fhi + tol));
    const std::vector<int> mults = e1 - e0 + 1 >= 2 ? std::vector<int>{1} : std::vector<int>{1, 2, 5};
    const int e_end = static_cast<int>(std::floor(end));
    for (int e = e_end - 2; e <= e_end + 2; ++e)
        for (int m : mults) {
            const double v = decimal_value(m, e);
            const double beyond = top ? std::log10(v) - fhi : flo - std::log10(v);
            if (beyond > tol && beyond <= cap + tol) out.push_back(v);
        }
    std::sort(out.begin(), out.end());
    if (!top) std::reverse(out.begin(), out.end());
    return out;
}

// The least share of the data area's width a legend right of it may leave, and of their height
// a legend under them may leave (a row legend is short: losing height beats hiding curves).
constexpr double kOutsideMinShare = 0.6, kBelowMinShare = 0.5;

// A layout whose y range was grown to make room for the legend.
struct Headroom {
    PlotLayout layout;
    LegendCorner corner = LegendCorner::TopRight;
    double growth = 0.0;   // how far the end moved, as a share of the old span (log10 units on log)
};

// Grows the top (or bottom) of L's y range to the nearest value of grid_beyond() at which the
// legend, in a top (bottom) corner, hides no data. Each candidate is laid out afresh: the y tick
// labels it brings can widen the left margin, which moves the data under the legend.
std::optional<Headroom> grow_for_legend(const Plot& plot, const Rect& outer, const PlotStyle& style,
                                        const PlotLayout& L, const LegendBox& box, double k, bool top) {
    const AxisRange& y = L.view.y;
    const double span = fwd(y.scale, y.hi) - fwd(y.scale, y.lo);
    for (double v : grid_beyond(y, L.y_ticks, top)) {
        const AxisRange grown_y{y.scale, top ? y.lo : v, top ? v : y.hi, y.reversed};
        PlotLayout G = layout_frame(plot, outer, style, L.view.x, grown_y);
        const CornerChoice c =
            top ? least_covered(plot, G, box, k, Measure{style}, {LegendCorner::TopRight, LegendCorner::TopLeft})
                : least_covered(plot, G, box, k, Measure{style}, {LegendCorner::BottomRight, LegendCorner::BottomLeft});
        if (c.data == 0.0)
            return Headroom{std::move(G), c.corner, std::fabs(fwd(y.scale, v) - fwd(y.scale, top ? y.hi : y.lo)) / span};
    }
    return std::nullopt;
}

// A layout with the legend outside the data area: right of it, or, where that leaves the data
// narrower than kOutsideMinShare of their width, under the x label in rows of as many entries as
// the width holds (where that leaves them kBelowMinShare of their height); nothing when neither
// does. `n` entries.
struct Outside {
    PlotLayout layout;
    Rect at;          // the legend's box
    LegendBox box;    // its grid (the columns under the data)
};
std::optional<Outside> legend_outside(const Plot& plot, const Rect& outer, const PlotStyle& style, const PlotLayout& L,
                                      const LegendBox& box, int n) {
    const double pad = style.pad;
    Rect right = outer;
    right.x1 -= box.width + pad;
    PlotLayout R = layout_frame(plot, right, style, L.view.x, L.view.y);
    if (R.view.px.width() >= kOutsideMinShare * L.view.px.width() && R.view.px.y0 + box.height <= outer.y1 - pad) {
        const Rect at{right.x1, R.view.px.y0, right.x1 + box.width, R.view.px.y0 + box.height};
        return Outside{std::move(R), at, box};
    }
    // Under the x label, the entries side by side in as many columns as the figure's width holds.
    const int cols = std::clamp(static_cast<int>((outer.width() - 2.0 * pad) / box.col_width), 1, n);
    const LegendBox wide = LegendBox::grid(static_cast<std::size_t>(n), cols, box.col_width, box.row, box.inner, box.inset,
                                           style.tick_font_px);
    Rect below = outer;
    below.y1 -= wide.height + pad;
    PlotLayout B = layout_frame(plot, below, style, L.view.x, L.view.y);
    if (B.view.px.height() >= kBelowMinShare * L.view.px.height() && wide.width <= outer.x1 - outer.x0 - 2.0 * pad) {
        const double x0 = std::clamp(B.view.px.x0, outer.x0 + pad, outer.x1 - pad - wide.width);
        return Outside{std::move(B), Rect{x0, below.y1, x0 + wide.width, below.y1 + wide.height}, wide};
    }
    return std::nullopt;
}

}  // namespace

// [SECTION] Annotation overlaps ---------------------------------------------------------------
//
// Annotations are placed one by one at their offset spot (layout_frame); afterwards, in the
// order of Plot::annotations, each is checked against what is already fixed: the legend box,
// the reference-line labels and the annotations before it. One that meets any of them (or whose
// text is not inside the data area's height) is tried kAnnotationStepEm text heights up, then
// as far down, then twice as far up, … up to kAnnotationMaxShiftEm; the first free spot wins,
// and when there is none the annotation is dropped. Everything scales with the tick font, so a
// k× style moves the same labels by k× the pixels.

namespace {

// Clearance kept around each annotation box, in em: above and below, more than the renderers'
// halo (1.5 px at 12 px text); left and right, so that two labels side by side are two words
// apart (0.6 em, about two spaces) rather than reading as one.
constexpr double kAnnotationClearYEm = 0.12, kAnnotationClearXEm = 0.3;

// A reference-line label moves to the other end of its line (a horizontal line's left end, a
// vertical line's foot).
void move_ref_label_to_other_end(PlacedText& t, const Rect& d) {
    const double off = 0.4 * t.font_px;
    if (t.anchor == TextAnchor::End && t.at.x >= d.x1 - off - 1e-9) {   // a horizontal line's label
        t.at.x = d.x0 + off;
        t.anchor = TextAnchor::Start;
    } else {                                                           // a vertical line's
        t.at.y = d.y1 - off;
    }
}

// A reference-line label under the legend box (a small figure has no free corner) or over an
// earlier reference-line label moves to the other end of its line; where it is in the way there
// too, the label is dropped: the line stays, unlabelled, rather than two labels drawn over each
// other.
void keep_ref_labels_clear(PlotLayout& L, const PlotStyle& style) {
    const Measure measure{style};
    const Rect& d = L.view.px;
    std::vector<PlacedText> kept;
    std::vector<Rect> taken;
    if (L.has_legend) taken.push_back(L.legend_box);
    const auto blocked = [&](const Rect& box) {
        return std::any_of(taken.begin(), taken.end(), [&](const Rect& r) { return boxes_meet(box, r, 0.0); });
    };
    for (PlacedText t : L.ref_labels) {
        const double w = measure(t.text, t.font_px);
        if (blocked(text_box(t, w))) {
            move_ref_label_to_other_end(t, d);
            if (blocked(text_box(t, w))) continue;
        }
        taken.push_back(text_box(t, w));
        kept.push_back(std::move(t));
    }
    L.ref_labels = std::move(kept);
}

void resolve_annotation_overlaps(PlotLayout& L, const PlotStyle& style) {
    if (L.annotations.empty()) return;
    const Measure measure{style};
    const Rect& d = L.view.px;
    std::vector<Rect> fixed;
    if (L.has_legend) fixed.push_back(L.legend_box);
    for (const PlacedText& t : L.ref_labels) fixed.push_back(text_box(t, measure(t.text, t.font_px)));

    std::vector<PlacedText> kept;
    kept.reserve(L.annotations.size());
    for (PlacedText& t : L.annotations) {
        const double f = t.font_px, eps = 1e-6 * f;
        const double clear_x = kAnnotationClearXEm * f, clear_y = kAnnotationClearYEm * f;
        const double w = measure(t.text, f);
        // Horizontally the spot stays (right of the point, or left of it near the right edge);
        // a text that sticks out on the left is pulled in.
        const Rect ink0 = text_box(t, w);
        if (ink0.x0 < d.x0) t.at.x += std::min(d.x0 - ink0.x0, std::max(0.0, d.x1 - ink0.x1));
        const auto free_at = [&](double dy) {
            PlacedText moved = t;
            moved.at.y += dy;
            const Rect ink = text_box(moved, w);
            if (ink.y0 < d.y0 - eps || ink.y1 > d.y1 + eps) return false;
            const Rect box = text_box(moved, w, clear_x, clear_y);
            for (const Rect& r : fixed)
                if (boxes_meet(box, r, eps)) return false;
            return true;
        };
        const double step = kAnnotationStepEm * f;
        const int steps = static_cast<int>(std::floor(kAnnotationMaxShiftEm / kAnnotationStepEm + 1e-9));
        std::optional<double> shift;
        for (int n = 0; n <= steps && !shift; ++n) {
            for (const double dy : {-n * step, n * step}) {   // up first (y grows downward)
                if (free_at(dy)) {
                    shift = dy;
                    break;
                }
                if (n == 0) break;
            }
        }
        if (!shift) continue;   // nowhere free near its point: dropped rather than drawn over another
        t.at.y += *shift;
        fixed.push_back(text_box(t, w, clear_x, clear_y));
        kept.push_back(std::move(t));
    }
    L.annotations = std::move(kept);
}

}  // namespace

namespace {

// Series::bar_labels at their bars' ends (see there), in the tick font; a label wider than its
// bar less 0.3 em is left out.
void place_bar_labels(const Plot& plot, PlotLayout& L, const PlotStyle& style) {
    const Measure measure{style};
    const double f = style.tick_font_px, gap = 0.2 * f;
    const Rect& d = L.view.px;
    for (std::size_t k = 0; k < plot.series.size(); ++k) {
        const Series& s = plot.series[k];
        if (s.kind != SeriesKind::Bars || s.bar_labels.empty()) continue;
        for (const PlacedBar& b : series_placed_bars(plot, k, L.view)) {
            if (b.index >= s.bar_labels.size() || s.bar_labels[b.index].empty()) continue;
            const std::string& text = s.bar_labels[b.index];
            if (measure(text, f) > b.rect.width() - 0.3 * f) continue;
            const bool up = !(s.y[b.index] < 0.0);
            double base = up ? b.rect.y0 - gap - (1.0 - kAscent) * f : b.rect.y1 + gap + kAscent * f;
            const bool outside = up ? base - kAscent * f >= d.y0 : base + (1.0 - kAscent) * f <= d.y1;
            if (!outside && b.rect.height() < f + 2.0 * gap) continue;   // no room outside, nor inside the bar
            if (!outside) base = up ? b.rect.y0 + gap + kAscent * f : b.rect.y1 - gap - (1.0 - kAscent) * f;
            L.bar_labels.push_back({text, {0.5 * (b.rect.x0 + b.rect.x1), base}, TextAnchor::Middle, f, 0.0});
        }
    }
}

// Everything but the bar labels: the frame, the legend and the annotations (below).
PlotLayout layout_series_frame(const Plot& plot, const Rect& outer, const PlotStyle& style,
                               const RangeOverride& override_ranges);

}  // namespace

bool is_dark(Color c) { return 0.299 * c.r + 0.587 * c.g + 0.114 * c.b < 140.0; }

namespace {

// Plot::heat's cells in pixels (clipped to the data area), their labels where they fit, and its
// colour bar right of the data area (room made by layout_frame) with its three labels.
void place_heat_map(const Plot& plot, PlotLayout& L, const PlotStyle& style) {
    if (!plot.heat) return;
    const HeatMap& h = *plot.heat;
    const std::size_t n = static_cast<std::size_t>(std::max(0, h.rows)) * static_cast<std::size_t>(std::max(0, h.cols));
    if (n == 0 || h.colors.size() < n) return;
    const Measure measure{style};
    const double f = style.tick_font_px;
    const Rect& d = L.view.px;
    const double dx = (h.x1 - h.x0) / h.cols, dy = (h.y1 - h.y0) / h.rows;
    for (int r = 0; r < h.rows; ++r)
        for (int c = 0; c < h.cols; ++c) {
            const Point2 a = L.view.to_px({h.x0 + c * dx, h.y0 + r * dy});
            const Point2 b = L.view.to_px({h.x0 + (c + 1) * dx, h.y0 + (r + 1) * dy});
            if (!finite(a) || !finite(b)) continue;
            Rect cell{std::max(std::min(a.x, b.x), d.x0), std::max(std::min(a.y, b.y), d.y0),
                      std::min(std::max(a.x, b.x), d.x1), std::min(std::max(a.y, b.y), d.y1)};
            if (!(cell.x1 > cell.x0 && cell.y1 > cell.y0)) continue;
            const std::size_t i = static_cast<std::size_t>(r) * h.cols + c;
            HeatCell out{cell, h.colors[i], {}, r, c};
            if (i < h.labels.size() && !h.labels[i].empty() && measure(h.labels[i], f) <= cell.width() - 0.3 * f &&
                f <= cell.height())
                out.label = {h.labels[i], {0.5 * (cell.x0 + cell.x1), 0.5 * (cell.y0 + cell.y1) + kMidline * f},
                             TextAnchor::Middle, f, 0.0};
            L.heat_cells.push_back(std::move(out));
        }
    if (h.bar.empty()) return;
    const double x0 = d.x1 + style.pad, x1 = x0 + kColorBarEm * f, tx = x1 + kColorBarGapEm * f;
    L.color_bar = {x0, d.y0, x1, d.y1};
    L.color_bar_labels = {{h.bar_top, {tx, d.y0 + kAscent * f}, TextAnchor::Start, f, 0.0},
                          {h.bar_middle, {tx, 0.5 * (d.y0 + d.y1) + kMidline * f}, TextAnchor::Start, f, 0.0},
                          {h.bar_bottom, {tx, d.y1}, TextAnchor::Start, f, 0.0}};
}

// The ranges of L widened about their centres so that a data unit spans as many pixels across
// as up (Plot::equal_aspect): the axis with more units per pixel keeps its range.
RangeOverride equal_aspect_ranges(const PlotLayout& L) {
    AxisRange x = L.view.x, y = L.view.y;
    const double w = L.view.px.width(), h = L.view.px.height();
    if (x.scale != Scale::Linear || y.scale != Scale::Linear || w <= 0.0 || h <= 0.0) return {x, y};
    const double per_px = std::max((x.hi - x.lo) / w, (y.hi - y.lo) / h);
    const auto widen = [per_px](AxisRange& a, double px) {
        const double mid = 0.5 * (a.lo + a.hi), half = 0.5 * per_px * px;
        a.lo = mid - half;
        a.hi = mid + half;
    };
    widen(x, w);
    widen(y, h);
    return {x, y};
}

}  // namespace

PlotLayout layout_plot(const Plot& plot, const Rect& outer, const PlotStyle& style,
                       const RangeOverride& override_ranges) {
    PlotLayout L = layout_series_frame(plot, outer, style, override_ranges);
    if (plot.equal_aspect) {   // twice: the new ranges' tick labels may move the margins a little
        for (int pass = 0; pass < 2; ++pass) L = layout_series_frame(plot, outer, style, equal_aspect_ranges(L));
    }
    place_bar_labels(plot, L, style);
    place_heat_map(plot, L, style);
    return L;
}

PlotLayout layout_data(const Plot& plot, const Rect& area, const PlotStyle& style, const RangeOverride& override_ranges) {
    PlotLayout L;
    L.outer = area;
    L.view = {override_ranges.x.value_or(auto_range(plot, AxisId::X)), override_ranges.y.value_or(auto_range(plot, AxisId::Y)),
              area};
    place_heat_map(plot, L, style);
    L.color_bar = {};   // it would sit outside the area
    L.color_bar_labels.clear();
    return L;
}

namespace {

PlotLayout layout_series_frame(const Plot& plot, const Rect& outer, const PlotStyle& style,
                               const RangeOverride& override_ranges) {
    const AxisRange x = override_ranges.x ? *override_ranges.x : auto_range(plot, AxisId::X);
    const AxisRange y = override_ranges.y ? *override_ranges.y : auto_range(plot, AxisId::Y);
    PlotLayout L = layout_frame(plot, outer, style, x, y);

    // Legend: one row per visible labelled series, faded ones included (dimmed, so that the viewer
    // can show them again), in the least crowded inside corner (outside: see legend_outside): the
    // box is sized for all rows, and
    // the data it avoids are the drawn ones only.
    std::vector<std::size_t> entries;
    for (std::size_t j = 0; j < plot.series.size(); ++j)
        if (plot.series[j].visible && !plot.series[j].label.empty()) entries.push_back(j);
    if (!plot.legend || entries.empty()) {
        resolve_annotation_overlaps(L, style);
        return L;
    }
    const Measure measure{style};
    const double tf = style.tick_font_px;
    const double row = 1.45 * tf, inner = 0.5 * tf;
    const double k = tf / PlotStyle{}.tick_font_px;   // the factor the style was scaled by
    double text_w = 0.0;
    for (std::size_t j : entries) text_w = std::max(text_w, measure(plot.series[j].label, tf));
    LegendBox box = LegendBox::grid(entries.size(), 1, inner + style.legend_swatch + inner + text_w + inner, row, inner,
                                    0.67 * tf, tf);

    LegendCorner corner = plot.legend_corner;
    bool hides = false;   // the corner chosen hides data
    if (corner == LegendCorner::Auto) {
        const CornerChoice least = least_covered(plot, L, box, k, measure, {LegendCorner::TopRight, LegendCorner::TopLeft,
                                                                      LegendCorner::BottomRight, LegendCorner::BottomLeft});
        corner = least.corner;
        // Every corner hides data: where the caller left an end of y free (no Axis::min/max, no
        // override: a zoomed or panned view passes its ranges and must not jump), grow that end
        // just enough for the legend to sit clear of all data. Beyond the cap, keep the corner.
        if (least.data > 0.0 && !override_ranges.y && !y.reversed) {
            std::optional<Headroom> up, down;
            if (!usable(y.scale, plot.y.max)) up = grow_for_legend(plot, outer, style, L, box, k, true);
            if (!usable(y.scale, plot.y.min)) down = grow_for_legend(plot, outer, style, L, box, k, false);
            if (down && (!up || down->growth < kBottomWin * up->growth)) up = std::move(down);
            if (up) {
                L = std::move(up->layout);
                corner = up->corner;
            }
            hides = !up;
        }
    }

    // A heat map fills the data area: every corner of it hides cells (an Auto legend goes outside).
    if (plot.legend_corner == LegendCorner::Auto && plot.heat) hides = true;
    L.has_legend = true;
    L.legend_box = box.at(L.view.px, corner);
    // A box that hides data in every corner, or that does not fit inside the data area (it would
    // cover the tick labels), goes outside the data area where the figure has room for it.
    const Rect& d = L.view.px;
    const bool fits = box.width + 2.0 * box.inset <= d.width() && box.height + 2.0 * box.inset <= d.height();
    if (hides || !fits) {
        if (auto out = legend_outside(plot, outer, style, L, box, static_cast<int>(entries.size()))) {
            L = std::move(out->layout);
            L.outer = outer;   // laid out in the part of it beside (or above) the legend
            L.has_legend = true;
            L.legend_box = out->at;
            L.legend_outside = true;
            box = out->box;
        }
    }
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const std::size_t j = entries[i];
        const int c = static_cast<int>(i % static_cast<std::size_t>(box.cols));
        const double row_y = L.legend_box.y0 + inner + 0.5 * tf +   // centre line of the entry's row
                             row * static_cast<double>(i / static_cast<std::size_t>(box.cols));
        LegendEntry e;
        e.series = j;
        const double sx = L.legend_box.x0 + box.col_width * c + inner;
        e.swatch_from = {sx, row_y};
        e.swatch_to = {sx + style.legend_swatch, row_y};
        e.label = {plot.series[j].label, {sx + style.legend_swatch + inner, row_y + kMidline * tf},
                   TextAnchor::Start, tf, 0.0};
        e.faded = plot.series[j].faded;
        L.legend.push_back(std::move(e));
    }
    keep_ref_labels_clear(L, style);
    resolve_annotation_overlaps(L, style);
    return L;
}

}  // namespace

}  // namespace normlab
