// NormLab core: a figure's layout: margins, ticks, legend, colour bar, annotations (moved a
// little up or down, or dropped, when they overlap).
#include "normlab/plot/plot.hpp"

#include "normlab/base/line_break.hpp"
#include "normlab/base/text.hpp"

#include "plot/plot_internal.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <optional>

namespace normlab {

using namespace plot_internal;

// [SECTION] Layout --------------------------------------------------------------------------

namespace {

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
// `given` (Axis::ticks), when not empty, are the ticks instead: every one inside the range, else
// every second, fourth, … one.
template <class Collide>
std::vector<PlacedTick> fit_ticks(const AxisRange& r, double p0, double p1, int target, double min_step,
                                  const std::vector<double>& given, Collide collide) {
    std::vector<PlacedTick> placed;
    if (!given.empty()) {
        std::vector<double> inside;
        for (double v : given)
            if (r.accepts(v) && v >= r.lo && v <= r.hi) inside.push_back(v);
        for (std::size_t stride = 1; stride <= std::max<std::size_t>(1, inside.size()); stride *= 2) {
            std::vector<Tick> ticks;
            for (std::size_t i = 0; i < inside.size(); i += stride) ticks.push_back({inside[i], format_number(inside[i], 6), true});
            placed = place(ticks, r, p0, p1);
            if (!collide(placed)) break;
        }
        return placed;
    }
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
constexpr double kMinYLabelScale = 0.7;   // the least an axis label longer than its figure is scaled

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

// End labels (Series::end_label): their gap from the data area (kEndLeaderGapEm where two or more
// may need leaders: room for the leaders to fan out), their spacing (a row: a text height and a
// visible gap), in text heights.
constexpr double kEndGapEm = 0.4, kEndLeaderGapEm = 1.1, kEndRowEm = 1.2, kEndMergeEm = 0.9, kEndLeaderEm = 0.3;
constexpr double kEndCompactFont = 0.8;   // crowded end labels' font, of the tick font

bool has_end_label(const Series& s) { return drawn(s) && s.kind == SeriesKind::Line && !s.end_label.empty(); }

// The gap between the data area and the end labels: kEndLeaderGapEm for two labels or more.
double end_label_gap(const Plot& plot, double tf) {
    const auto n = std::count_if(plot.series.begin(), plot.series.end(), has_end_label);
    return (n > 1 ? kEndLeaderGapEm : kEndGapEm) * tf;
}

// The width the end labels take right of the data area (0: none).
double end_label_room(const Plot& plot, const Measure& measure, double tf) {
    double w = 0.0;
    for (const Series& s : plot.series)
        if (has_end_label(s)) w = std::max(w, measure(s.end_label, tf));
    return w > 0.0 ? end_label_gap(plot, tf) + w : 0.0;
}

// Places the end labels right of L's data area (see layout_plot).
void place_end_labels(const Plot& plot, double tf, PlotLayout& L) {   // tf: the tick font (by value: may shrink)
    const Rect& d = L.view.px;
    const double gap = end_label_gap(plot, tf);   // the tick font's: the room made for them
    struct End {
        double y, sum;   // centre line; the sum of its lines' ends (a shared label sits at their mean)
        int n;
        std::size_t series;
        bool shared;
    };
    std::vector<End> ends;
    for (std::size_t i = 0; i < plot.series.size(); ++i) {
        const Series& s = plot.series[i];
        if (!has_end_label(s)) continue;
        const auto lines = series_polylines(s, L.view, 0.0);
        if (lines.empty() || lines.back().empty()) continue;
        const double y = std::clamp(lines.back().back().y, d.y0, d.y1);
        ends.push_back({y, y, 1, i, false});
    }
    std::stable_sort(ends.begin(), ends.end(), [](const End& a, const End& b) { return a.y < b.y; });
    std::vector<End> merged;
    for (const End& e : ends) {
        End* m = merged.empty() ? nullptr : &merged.back();
        if (m != nullptr && plot.series[m->series].end_label == plot.series[e.series].end_label &&
            e.y - m->y < kEndMergeEm * tf) {
            const Color a = plot.series[m->series].color, b = plot.series[e.series].color;
            m->shared = m->shared || a.r != b.r || a.g != b.g || a.b != b.b;
            m->sum += e.y;
            ++m->n;
            m->series = std::min(m->series, e.series);
        } else {
            merged.push_back(e);
        }
    }
    for (End& e : merged) e.y = e.sum / e.n;
    // The height holds floor(h / row) + 1 centres: where that is fewer than the labels, they are set
    // in kEndCompactFont of the tick font; beyond that, the last series' labels are left out.
    const double lo = d.y0, hi = d.y1 - 0.2 * tf;   // clear of the last x tick label
    const auto rows_for = [&](double f) {
        return static_cast<std::size_t>(std::max(0.0, std::floor((hi - lo) / (kEndRowEm * f)))) + 1;
    };
    if (rows_for(tf) < merged.size()) tf *= kEndCompactFont;
    const double row = kEndRowEm * tf;
    const std::size_t room = rows_for(tf);
    while (merged.size() > room)
        merged.erase(std::max_element(merged.begin(), merged.end(),
                                      [](const End& a, const End& b) { return a.series < b.series; }));
    std::vector<double> c;
    for (const End& e : merged) c.push_back(e.y);
    for (std::size_t i = 0; i < c.size(); ++i) c[i] = std::max(c[i], i == 0 ? lo : c[i - 1] + row);
    for (std::size_t i = c.size(); i-- > 0;) c[i] = std::min(c[i], i + 1 == c.size() ? hi : c[i + 1] - row);
    // One column of labels: kEndGapEm from the data where none moved, else at the room's gap, so
    // that the leaders (straight, in the labels' order: they never cross) fan out visibly apart.
    bool moved = false;
    for (std::size_t i = 0; i < merged.size(); ++i) moved = moved || std::fabs(c[i] - merged[i].y) > kEndLeaderEm * tf;
    const double x = d.x1 + (moved ? gap : kEndGapEm * tf);
    for (std::size_t i = 0; i < merged.size(); ++i) {
        EndLabel l;
        l.series = merged[i].series;
        l.shared = merged[i].shared;
        l.from = {d.x1, merged[i].y};
        l.leader = moved;   // every label of a moved column: a level one's leader is horizontal
        l.label = {plot.series[l.series].end_label, {x, c[i] + kMidline * tf}, TextAnchor::Start, tf, 0.0};
        L.end_labels.push_back(std::move(l));
    }
}

// `text` broken into lines no wider than `width` where English, Korean and Chinese allow
// (base/line_break.hpp: at spaces, between Han characters, never inside a number; a number wider
// than that is a line of its own).
std::vector<std::string> wrap_words(const std::string& text, double width, double font_px, const Measure& measure) {
    std::vector<std::string> lines;
    const auto advance = [&](char32_t c) { return measure(encode_utf8(c), font_px); };
    for (const TextLine& l : break_lines(text, width, advance))
        if (l.end > l.begin) lines.push_back(text.substr(l.begin, l.end - l.begin));
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
            // Right of the line, else left of it; where neither side holds it, as far right as
            // the data area lets it start (over the line, never over the y tick labels).
            const double w = measure(r.label, tf), top = d.y0 + off + kAscent * tf;
            if (x + off + w <= d.x1 || x - off - w < d.x0)
                L.ref_labels.push_back({r.label, {std::max(d.x0 + off, std::min(x + off, d.x1 - w)), top},
                                        TextAnchor::Start, tf, 0.0});
            else
                L.ref_labels.push_back({r.label, {x - off, top}, TextAnchor::End, tf, 0.0});
        }
    }
}

// The y label's lines, first (leftmost) to last, and their font size: one line, set smaller down
// to kMinYLabelScale of the label font where it is longer than `room` (the height from the data
// area's top to the figure's bottom: never beside the title); else broken onto at most
// kMaxYLabelLines lines (base/line_break.hpp), at the label font, else at the smallest size, the
// last line shortened with "…" where even that is too long.
constexpr std::size_t kMaxYLabelLines = 2;
constexpr double kYLabelLineEm = 1.15;   // from one line's baseline to the next

struct YLabelFit {
    std::vector<std::string> lines;
    double font_px = 0.0;
    // The width the label takes left of the y tick labels, its gap included (0: no label).
    double block(double lf, double pad) const {
        return lines.empty() ? 0.0 : lf + static_cast<double>(lines.size() - 1) * kYLabelLineEm * font_px + 0.5 * pad;
    }
};

// `text` shortened from its end, "…" appended, to fit `width` (the ellipsis alone where nothing fits).
std::string shortened(const std::string& text, double width, double font_px, const Measure& measure) {
    std::size_t end = text.size();
    while (end > 0 && measure(text.substr(0, end) + "…", font_px) > width) end = utf8_floor(text, end - 1);
    return std::string(trim_spaces(text.substr(0, end))) + "…";
}

YLabelFit fit_y_label(const std::string& label, double room, double lf, const Measure& measure) {
    const double full = measure(label, lf);
    if (full <= room || !(room > 0.0)) return {{label}, lf};
    const double small = kMinYLabelScale * lf;
    if (measure(label, small) <= room) return {{label}, std::max(small, room / full * lf)};
    const auto fits = [&](const std::vector<std::string>& lines, double f) {
        return std::all_of(lines.begin(), lines.end(), [&](const std::string& l) { return measure(l, f) <= room; });
    };
    for (const double f : {lf, small}) {
        std::vector<std::string> lines = wrap_words(label, room, f, measure);
        if (lines.size() <= kMaxYLabelLines && fits(lines, f)) return {std::move(lines), f};
    }
    std::vector<std::string> lines = wrap_words(label, room, small, measure);
    std::size_t from = 0;   // where the last line kept starts in `label`: it takes the rest, shortened
    for (std::size_t i = 0; i + 1 < kMaxYLabelLines && i < lines.size(); ++i)
        from = label.find(lines[i], from) + lines[i].size();
    lines.resize(std::min(lines.size(), kMaxYLabelLines));
    lines.back() = std::string(trim_spaces(std::string_view(label).substr(from)));
    for (std::string& l : lines)
        if (measure(l, small) > room) l = shortened(l, room, small, measure);
    return {std::move(lines), small};
}

// Everything but the legend, for the given ranges: margins from the text sizes, the data area,
// ticks, tick and axis labels, title, annotations and reference-line labels.
// The axis labels (L.view.px placed): x centred under the data area, y on it (rotated).
struct AxisLabelGaps {
    double pad, below_data, tf, lf;   // the figure's padding; data edge to tick label; tick and label font px
};
void place_axis_labels(const Plot& plot, const Measure& measure, const Rect& outer, const AxisLabelGaps& g,
                       const YLabelFit& y, PlotLayout& L) {
    const Rect& d = L.view.px;
    const double pad = g.pad, tf = g.tf, lf = g.lf;
    if (!plot.x.label.empty()) {
        // Centred under the data area; one wider than the figure right of the y label is set
        // smaller to fit, down to kMinYLabelScale of its size, and moved in to stay there.
        const double x0 = outer.x0 + pad + y.block(lf, pad), room = outer.x1 - pad - x0;
        const double full = measure(plot.x.label, lf);
        const double xf = full > room && room > 0.0 ? std::max(kMinYLabelScale, room / full) * lf : lf;
        const double half = 0.5 * std::min(measure(plot.x.label, xf), room);
        const double mid = std::clamp(0.5 * (d.x0 + d.x1), x0 + half, std::max(x0 + half, outer.x1 - pad - half));
        L.x_label = {plot.x.label, {mid, d.y1 + g.below_data + tf + 0.5 * pad + kAscent * lf}, TextAnchor::Middle, xf, 0.0};
    }
    // The y label's lines (fit_y_label), each centred on the data area; one longer than it is moved
    // down, clear of the title, and never leaves the figure.
    for (std::size_t i = 0; i < y.lines.size() && !plot.y.label.empty(); ++i) {
        const double half = 0.5 * measure(y.lines[i], y.font_px);
        const double mid = std::max(outer.y0 + pad + half,
                                    std::min(std::max(0.5 * (d.y0 + d.y1), d.y0 + half), outer.y1 - pad - half));
        const double x = outer.x0 + pad + kAscent * lf + static_cast<double>(i) * kYLabelLineEm * y.font_px;
        L.y_label.push_back({y.lines[i], {x, mid}, TextAnchor::Middle, y.font_px, -90.0});
    }
}

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
    L.y_ticks = fit_ticks(L.view.y, bottom, top, y_target, y_whole ? 1.0 : 0.0, plot.y.ticks,
                          [&](const std::vector<PlacedTick>& t) { return y_labels_collide(t, tf); });
    double ylab_w = 0.0;
    for (const PlacedTick& t : L.y_ticks)
        if (!t.tick.label.empty()) ylab_w = std::max(ylab_w, measure(t.tick.label, tf));
    double left = outer.x0 + pad;
    YLabelFit y_fit;
    if (!plot.y.label.empty()) {
        y_fit = fit_y_label(plot.y.label, outer.y1 - pad - top, lf, measure);
        left += y_fit.block(lf, pad);
    }
    left += ylab_w + tick_gap + tick;
    L.view.px.x0 = left;

    // x ticks; then shrink the right edge so that the last label stays inside the figure (and
    // leaves room for a heat map's colour bar).
    double right = std::max(left + 1.0, outer.x1 - pad - color_bar_room(plot, measure, tf, pad) -
                                            end_label_room(plot, measure, tf));
    L.view.px.x1 = right;
    int x_target = tick_target(right - left, style.x_tick_spacing);
    auto x_collide = [&](const std::vector<PlacedTick>& t) { return x_labels_collide(t, measure, tf); };
    const double x_min_step = bars_at_integers(plot) || unit_cells(plot, AxisId::X) ? 1.0 : 0.0;
    // Categories (bars at whole x): a label for each while they do not collide (short labels).
    if (x_min_step > 0.0) x_target = std::max(x_target, std::min(50, static_cast<int>(std::floor(x_range.hi - x_range.lo))));
    L.x_ticks = fit_ticks(L.view.x, left, right, x_target, x_min_step, plot.x.ticks, x_collide);
    double overflow = 0.0;
    for (const PlacedTick& t : L.x_ticks)
        if (!t.tick.label.empty()) overflow = std::max(overflow, t.pos + 0.5 * measure(t.tick.label, tf) - (outer.x1 - 0.2 * tf));
    if (overflow > 0.0) {
        right = std::max(left + 1.0, right - overflow);
        L.view.px.x1 = right;
        L.x_ticks = fit_ticks(L.view.x, left, right, x_target, x_min_step, plot.x.ticks, x_collide);
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
    place_axis_labels(plot, measure, outer, {pad, tick + tick_gap, tf, lf}, y_fit, L);
    // Each title line centred over the data area, moved in where that would cross the figure's edge.
    for (PlacedText& t : L.title) {
        const double half = 0.5 * std::min(kBoldWidth * measure(t.text, ttf), title_w);
        t.at.x = std::clamp(0.5 * (d.x0 + d.x1), outer.x0 + pad + half, outer.x1 - pad - half);
    }

    place_annotations(plot, measure, tf, off, L);
    place_end_labels(plot, tf, L);
    return L;
}

// The legend's box: its size from the labels, and where it sits in each inside corner.
struct LegendBox {
    double width = 0.0, height = 0.0, inset = 0.0;
    int cols = 1;                // entries fill rows left to right, `cols` per row
    std::vector<double> col_x;   // each column's left edge from the box's: its cells hold a swatch and
                                 // the column's longest label, with their margins
    std::vector<double> text_w;  // each entry's label width at `font`
    double font = 0.0, swatch = 0.0, row = 0.0, inner = 0.0;   // label font px, line sample, row height, margin
    // The box for entries whose labels are `text_w` px wide in a font of `f` px, in `c` columns.
    static LegendBox grid(std::vector<double> text_w, int c, double f, double swatch, double inset) {
        LegendBox b;
        b.inset = inset;
        b.cols = std::max(1, c);
        b.font = f;
        b.swatch = swatch;
        b.row = 1.45 * f;
        b.inner = 0.5 * f;
        std::vector<double> widest(static_cast<std::size_t>(b.cols), 0.0);
        for (std::size_t i = 0; i < text_w.size(); ++i) widest[i % widest.size()] = std::max(widest[i % widest.size()], text_w[i]);
        for (const double w : widest) {
            b.col_x.push_back(b.width);
            b.width += 3.0 * b.inner + swatch + w;
        }
        const auto rows = static_cast<double>((text_w.size() + widest.size() - 1) / widest.size());
        b.height = 2.0 * b.inner + b.row * rows - (b.row - f) * 0.5;
        b.text_w = std::move(text_w);
        return b;
    }
    // The same entries in `c` columns, in a font `s` times this one's, the swatch `swatch` long.
    LegendBox regrid(int c, double s, double swatch_px) const {
        std::vector<double> w = text_w;
        for (double& x : w) x *= s;
        return grid(std::move(w), c, s * font, swatch_px, inset);
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
// a legend under them may leave (a row legend is short: losing height beats hiding curves, and
// the data keep their width, which the curves' shapes and the x tick labels need).
constexpr double kOutsideMinShare = 0.6, kBelowMinShare = 0.3;
// Under the data, the least height they keep in tick text heights; the compact legend's font (of
// the tick font) and its swatch's length (in its text heights) where the legend in full takes more.
constexpr double kBelowMinEm = 6.0, kCompactFont = 0.8, kCompactSwatchEm = 1.2;

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
// the width holds (each column as wide as its own longest label). Under the data, the legend
// must leave them kBelowMinEm text heights and kBelowMinShare of their height; where the
// legend in the tick font does not, it is set in kCompactFont of it with a swatch of
// kCompactSwatchEm (fewer rows), kept where the data keep kBelowMinShare. Nothing when none of
// these does. `n` entries.
struct Outside {
    PlotLayout layout;
    Rect at;          // the legend's box
    LegendBox box;    // its grid (the columns under the data)
};

// The legend under the data, in `box`'s font and swatch, in as many columns as the width holds.
std::optional<Outside> legend_under(const Plot& plot, const Rect& outer, const PlotStyle& style, const PlotLayout& L,
                                    const LegendBox& box, int n) {
    const double pad = style.pad, room = outer.width() - 2.0 * pad;
    LegendBox wide = box.regrid(1, 1.0, box.swatch);
    for (int c = n; c >= 1; --c) {
        wide = box.regrid(c, 1.0, box.swatch);
        if (wide.width <= room) break;
    }
    if (wide.width > room) return std::nullopt;
    Rect below = outer;
    below.y1 -= wide.height + pad;
    PlotLayout B = layout_frame(plot, below, style, L.view.x, L.view.y);
    const double x0 = std::clamp(B.view.px.x0, outer.x0 + pad, outer.x1 - pad - wide.width);
    return Outside{std::move(B), Rect{x0, below.y1, x0 + wide.width, below.y1 + wide.height}, wide};
}

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
    const double h = L.view.px.height();
    const double least = kBelowMinShare * h, enough = std::max(least, kBelowMinEm * style.tick_font_px);
    std::optional<Outside> under = legend_under(plot, outer, style, L, box, n);
    if (under && under->layout.view.px.height() >= enough) return under;
    const double f = kCompactFont * box.font;
    if (auto compact = legend_under(plot, outer, style, L, box.regrid(1, kCompactFont, kCompactSwatchEm * f), n))
        if (!under || compact->layout.view.px.height() > under->layout.view.px.height()) under = std::move(compact);
    if (under && under->layout.view.px.height() >= least) return under;
    return std::nullopt;
}

}  // namespace

namespace {

// The sizes a bar's value label tries, of the tick font, before it is left out.
constexpr double kBarLabelScales[] = {1.0, 0.85, 0.72};

// Series::bar_labels at their bars' ends (see there), in the tick font, else set smaller
// (kBarLabelScales) before one is left out. A label may be wider than its bar less 0.3 em (a
// negative value's minus sign makes it so first) where it stays inside the data area and, with
// 0.15 em either side, clear of the bars of other slots and of the labels kept before it.
void place_bar_labels(const Plot& plot, PlotLayout& L, const PlotStyle& style) {
    const Measure measure{style};
    const double f = style.tick_font_px, gap = 0.2 * f, clear = 0.15 * f, eps = 1e-6 * f;
    const Rect& d = L.view.px;
    std::vector<Rect> bars;   // every drawn bar, outlines too
    for (std::size_t k = 0; k < plot.series.size(); ++k)
        if (drawn(plot.series[k]) && plot.series[k].kind == SeriesKind::Bars)
            for (const Rect& r : series_bars(plot, k, L.view)) bars.push_back(r);
    std::vector<Rect> kept;
    const auto clear_of_others = [&](const Rect& box, const Rect& own) {
        for (const Rect& r : bars)
            if ((r.x1 <= own.x0 + eps || r.x0 >= own.x1 - eps) && boxes_meet(box, r, eps)) return false;
        for (const Rect& r : kept)
            if (boxes_meet(box, r, eps)) return false;
        return box.x0 + clear >= d.x0 - eps && box.x1 - clear <= d.x1 + eps;
    };
    for (std::size_t k = 0; k < plot.series.size(); ++k) {
        const Series& s = plot.series[k];
        if (s.kind != SeriesKind::Bars || s.bar_labels.empty()) continue;
        for (const PlacedBar& b : series_placed_bars(plot, k, L.view)) {
            if (b.index >= s.bar_labels.size() || s.bar_labels[b.index].empty()) continue;
            const std::string& text = s.bar_labels[b.index];
            const bool up = !(s.y[b.index] < 0.0);
            const double cx = 0.5 * (b.rect.x0 + b.rect.x1);
            // In the tick font, else set smaller (as end labels are) before it is left out.
            for (const double scale : kBarLabelScales) {
                const double fs = scale * f, gs = scale * gap;
                const double w = measure(text, fs);
                const bool narrow = w <= b.rect.width() - 0.3 * f;
                double base = up ? b.rect.y0 - gs - (1.0 - kAscent) * fs : b.rect.y1 + gs + kAscent * fs;
                const bool outside = up ? base - kAscent * fs >= d.y0 : base + (1.0 - kAscent) * fs <= d.y1;
                if (!outside && b.rect.height() < fs + 2.0 * gs) continue;   // no room outside, nor inside the bar
                if (!outside) base = up ? b.rect.y0 + gs + kAscent * fs : b.rect.y1 - gs - (1.0 - kAscent) * fs;
                const Rect box{cx - 0.5 * w - clear, base - kAscent * fs, cx + 0.5 * w + clear, base + (1.0 - kAscent) * fs};
                if (!narrow && !clear_of_others(box, b.rect)) continue;
                kept.push_back(box);
                L.bar_labels.push_back({text, {cx, base}, TextAnchor::Middle, fs, 0.0});
                break;
            }
        }
    }
}

// The legend's labels as drawn: those longer than `room` (the figure's width less a swatch) set
// smaller, down to kMinYLabelScale, then shortened with "…", so that the box fits the figure.
struct LegendLabels {
    std::vector<std::string> text;   // one per entry
    double font_px = 0.0;            // their font
};
LegendLabels fit_legend_labels(const Plot& plot, const std::vector<std::size_t>& entries, double room, const PlotStyle& style) {
    const Measure measure{style};
    const double tf = style.tick_font_px;
    double widest = 0.0;
    for (std::size_t j : entries) widest = std::max(widest, measure(plot.series[j].label, tf));
    LegendLabels out;
    out.font_px = widest > room && room > 0.0 ? std::max(kMinYLabelScale, room / widest) * tf : tf;
    for (std::size_t j : entries) {
        const std::string& l = plot.series[j].label;
        out.text.push_back(room > 0.0 && measure(l, out.font_px) > room ? shortened(l, room, out.font_px, measure) : l);
    }
    return out;
}

// `box` (one column) in as few more columns as make it fit the data area `d`, if any do.
LegendBox legend_in_columns(const LegendBox& box, std::size_t n, const Rect& d) {
    for (std::size_t c = 2; c <= n; ++c) {
        const LegendBox wider = box.regrid(static_cast<int>(c), 1.0, box.swatch);
        if (wider.width + 2.0 * wider.inset > d.width()) break;
        if (wider.height + 2.0 * wider.inset <= d.height()) return wider;
    }
    return box;
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
        keep_ref_labels_clear(L, style);
        resolve_annotation_overlaps(L, style);
        return L;
    }
    const Measure measure{style};
    const double tf = style.tick_font_px;
    const double k = tf / PlotStyle{}.tick_font_px;   // the factor the style was scaled by
    // Labels longer than the figure's width (less a swatch and its margins) set smaller, then shortened.
    const double label_room = outer.width() - 2.0 * style.pad - 1.5 * tf - style.legend_swatch;
    const LegendLabels labels = fit_legend_labels(plot, entries, label_room, style);
    std::vector<double> text_w;
    for (const std::string& t : labels.text) text_w.push_back(measure(t, labels.font_px));
    LegendBox box = LegendBox::grid(std::move(text_w), 1, labels.font_px, style.legend_swatch, 0.67 * tf);

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
        } else if (!fits) {   // no room outside: in more columns, else set smaller (≥ kMinYLabelScale), inside
            box = legend_in_columns(box, entries.size(), d);
            const double ls = std::clamp(std::min((d.width() - 2.0 * box.inset) / box.width,
                                                  (d.height() - 2.0 * box.inset) / box.height), kMinYLabelScale, 1.0);
            box = box.regrid(box.cols, ls, ls * box.swatch);
            L.legend_box = box.at(L.view.px, corner);
        }
    }
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const std::size_t j = entries[i];
        const std::size_t c = i % static_cast<std::size_t>(box.cols);
        const double f = box.font;
        const double row_y = L.legend_box.y0 + box.inner + 0.5 * f +   // centre line of the entry's row
                             box.row * static_cast<double>(i / static_cast<std::size_t>(box.cols));
        LegendEntry e;
        e.series = j;
        const double sx = L.legend_box.x0 + box.col_x[c] + box.inner;
        e.swatch_from = {sx, row_y};
        e.swatch_to = {sx + box.swatch, row_y};
        e.label = {labels.text[i], {sx + box.swatch + box.inner, row_y + kMidline * f}, TextAnchor::Start, f, 0.0};
        e.faded = plot.series[j].faded;
        L.legend.push_back(std::move(e));
    }
    keep_ref_labels_clear(L, style);
    resolve_annotation_overlaps(L, style);
    return L;
}

}  // namespace

}  // namespace normlab
