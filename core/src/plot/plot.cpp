// NormLab core: the palette's helpers, figures by name, axis ranges and their mapping to pixels
// (AxisRange, auto_range, Viewport, pan and zoom). Ticks: plot_ticks.cpp; series geometry:
// plot_geometry.cpp; layout: plot_layout.cpp; the SVG and CSV writers: plot_svg.cpp, plot_csv.cpp.
#include "normlab/plot/plot.hpp"

#include "plot/plot_internal.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <stdexcept>

namespace normlab {

using namespace plot_internal;

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

const Plot& plot_named(const std::vector<Plot>& plots, std::string_view name) {
    for (const Plot& p : plots)
        if (p.name == name) return p;
    throw std::invalid_argument("no figure named \"" + std::string(name) + "\"");
}

Plot& plot_named(std::vector<Plot>& plots, std::string_view name) {
    return const_cast<Plot&>(plot_named(static_cast<const std::vector<Plot>&>(plots), name));
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

bool own_axis_accepts(Scale s, double v) { return std::isfinite(v) && (s == Scale::Linear || v > 0.0); }

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

}  // namespace normlab
