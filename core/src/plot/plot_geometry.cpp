// NormLab core: series geometry in pixels: clipped polylines, markers, bars, dashes, hit testing.
#include "normlab/plot/plot.hpp"

#include "plot/plot_internal.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace normlab {

using namespace plot_internal;

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

}  // namespace

namespace plot_internal {

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

}  // namespace plot_internal

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

}  // namespace normlab
