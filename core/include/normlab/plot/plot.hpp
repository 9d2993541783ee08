// NormLab core: one plot described as plain data, and the maths every renderer shares.
//
// [SECTION] Description     — Plot, Axis, Series, Annotation, RefLine (what the user sees)
// [SECTION] Palette         — Okabe–Ito colours, dashes and markers per series index
// [SECTION] Axis maths      — linear / log10 scales, auto range, data ⇄ pixel mapping
// [SECTION] Ticks           — "nice" 1-2-5 ticks, decades on log axes, tick labels
// [SECTION] Layout          — where the data area, ticks, labels and legend go, in pixels
// [SECTION] Series geometry — clipped polylines, markers and bars in pixels, hit testing
// [SECTION] Writers         — SVG and CSV (plot_svg.cpp, plot_csv.cpp)
//
// One description feeds three outputs: the interactive ImGui view (app/), the SVG writer and
// the offscreen PNG renderer. They all call layout_plot() and the series geometry functions
// below, so ticks, ranges, legend placement and clipping are computed in exactly one place and
// the outputs cannot drift apart; a renderer only turns the resulting pixels into strokes.
//
// Pixel coordinates: origin at the top-left of the figure, x to the right, y DOWN (as in SVG
// and ImGui). Data coordinates: y up. All text is UTF-8 (δ, μ, σ, ‖∂L/∂W‖, 10⁻³ …).
// Nothing here throws on odd data: NaN/±inf, and values ≤ 0 on a log axis, are skipped (a line
// is broken there), empty plots get a default range.
#pragma once

#include "normlab/base/palette.hpp"
#include "normlab/base/text.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace normlab {

// [SECTION] Description ---------------------------------------------------------------------

std::string to_hex(Color c);   // "#0072b2"

enum class LineStyle { Solid, Dashed, Dotted };
// Ring: an open circle (its stroke a fifth of its diameter), e.g. test cases over training dots.
enum class Marker { None, Circle, Square, Triangle, Diamond, Ring };
enum class SeriesKind { Line, Scatter, Bars };
enum class Scale { Linear, Log10 };

// One data series: points (x[i], y[i]) for i < min(x.size(), y.size()).
//   Line    — a polyline through the points in order, broken at skipped points; markers (if
//             any) on at most ~kMaxLineMarkers evenly spaced points, so dense curves stay legible.
//   Scatter — a marker at every point (Circle when marker is None); no line.
//   Bars    — a bar from the baseline (y = 0 on a linear axis, the bottom of the data area on a
//             log axis) to y at each x; several bar series side by side share each x slot.
struct Series {
    std::string label;                 // legend text; empty: not in the legend
    // What the data are, for exports that list them (CSV): empty means `label`. Set where the
    // legend names a group of curves (one label for several) or nothing at all.
    std::string data_name;
    std::vector<double> x, y;
    Color color{0, 114, 178};
    LineStyle line = LineStyle::Solid;
    Marker marker = Marker::None;
    double width = 1.75;               // stroke width in px (at 1×)
    double marker_size = 7.0;          // marker diameter in px
    bool halo = false;                 // markers on a white disc 2 px wider (at 1×): dots over a map
    bool visible = true;               // hidden series: not drawn, not in the legend or CSV
    // Hidden by the viewer (a click on its legend entry): not drawn, not in the axis ranges, the
    // data the legend avoids, hover, or CSV/SVG data; still listed in the legend, dimmed, so that
    // it can be shown again. Exports leave such series out (visible = false) instead.
    bool faded = false;
    SeriesKind kind = SeriesKind::Line;
    // Bars only: drawn as outlines (no fill, 2 px at 1×) over the bars of the last non-overlay
    // bar series before it, in their slot (a reference, e.g. the outputs at δ = 1); no slot of its own.
    bool overlay = false;
    // Bars only: a text at each bar's end, parallel to x and y (e.g. "1.342"): above a bar ≥ 0,
    // below one < 0, inside its end where the data area leaves no room. One wider than its bar is
    // kept where it stays in the data area clear of other slots' bars and earlier labels; one that
    // fits neither outside nor inside is left out. Empty: none. Laid out by layout_plot
    // (PlotLayout::bar_labels).
    std::vector<std::string> bar_labels;
    // Line only: a text right of the data area, level with the line's last drawn point, in the
    // series' colour (e.g. a fitted slope, "W −1.00"); laid out by layout_plot (PlotLayout::
    // end_labels). Empty: none.
    std::string end_label;
};

// Whether a series' data are drawn, ranged, avoided by the legend, hovered and exported: visible
// and not faded. Its legend entry needs only `visible` (faded entries are listed, dimmed).
inline bool drawn(const Series& s) { return s.visible && !s.faded; }

// The series' name in data exports: data_name, or its legend label when that is empty.
inline const std::string& series_name(const Series& s) { return s.data_name.empty() ? s.label : s.data_name; }

// The axis as the user set it. Unset min/max come from the data (auto_range()).
struct Axis {
    std::string label;
    Scale scale = Scale::Linear;
    std::optional<double> min, max;
    bool reversed = false;   // values grow leftward (x) or downward (y), e.g. a matrix's rows
    std::vector<double> ticks = {};   // labelled ticks at these values (ascending; e.g. the sizes measured)
                                      // instead of 1-2-5 steps or decades; empty: automatic
};

// A grid of coloured cells under the series: a matrix (the Explorer's W) or a map over the plane
// (a decision map). Cell (r, c) spans x ∈ [x0 + c·Δx, x0 + (c + 1)·Δx], y ∈ [y0 + r·Δy, …]
// with Δx = (x1 − x0)/cols, Δy = (y1 − y0)/rows; cells are stored row-major (r·cols + c).
struct HeatValues {
    std::string name;              // a CSV column, e.g. "W" or "confidence"
    std::vector<double> v;         // rows·cols
};
struct HeatMap {
    int rows = 0, cols = 0;
    double x0 = 0.0, x1 = 1.0, y0 = 0.0, y1 = 1.0;
    std::vector<Color> colors;          // rows·cols: each cell's fill
    std::vector<HeatValues> values;     // what the cells show, for data exports (CSV)
    std::vector<std::string> labels;    // rows·cols texts drawn in the cells where they fit; empty: none
    std::string name;                   // the cells' series name in the CSV (e.g. "W")
    // A colour bar right of the data area: its colours from top to bottom and the labels at its
    // top, middle and bottom (e.g. "+2.39", "0", "−2.39"). No colours: no bar.
    std::vector<Color> bar;
    std::string bar_top, bar_middle, bar_bottom;
};

// Text at data coordinates (x, y), e.g. a fitted slope "slope −1.00". Drawn from a small
// offset right of and above the point (left of it near the right edge); skipped when the point
// lies outside the data area. Labels never overlap: layout_plot() moves one that would cover the
// legend, a reference-line label or an earlier annotation up or down a little, and drops it when
// no free spot lies within kAnnotationMaxShiftEm text heights (see layout_plot).
struct Annotation {
    double x = 0.0, y = 0.0;
    std::string text;
};

// A reference line across the data area: Horizontal at y = value (e.g. a tolerance),
// Vertical at x = value. Its label (optional) sits at the line's right / top end.
struct RefLine {
    enum class Orientation { Horizontal, Vertical };
    Orientation orientation = Orientation::Horizontal;
    double value = 0.0;
    std::string label;
    Color color{90, 90, 90};
    LineStyle line = LineStyle::Dashed;
    double width = 1.25;
};

// Auto: the inside corner of the data area whose legend box hides the least data (line segments
// crossing it, markers and bars touching it); over a heat map every corner hides cells. When every corner hides some, layout_plot grows a
// free end of the y axis to make room, and where that is not enough puts the legend outside the
// data area: see there. The fixed corners never change the ranges.
enum class LegendCorner { Auto, TopRight, TopLeft, BottomRight, BottomLeft };

struct Plot {
    std::string name;      // file-safe id, e.g. "invariance_vs_delta" (CLI --plot NAME, SVG ids)
    std::string title;     // drawn above the data area; SVG <title>
    std::string caption;   // not drawn (figures go under the lecturer's own caption); SVG <desc>
    Axis x, y;
    std::vector<Series> series;
    std::vector<Annotation> annotations;
    std::vector<RefLine> ref_lines;
    bool legend = true;    // shown when at least one visible series (faded ones too) has a label
    LegendCorner legend_corner = LegendCorner::Auto;
    std::optional<HeatMap> heat;   // drawn under the series, over the grid
    // One data unit as long across as up (a projected 3D view, a circle that must look round):
    // layout_plot widens the linear axis range that is short for its side of the data area.
    bool equal_aspect = false;
};

// The figure of `plots` named `name` (Plot::name): figures are found by name, never by their
// place in a list. Throws std::invalid_argument when none has it.
Plot& plot_named(std::vector<Plot>& plots, std::string_view name);
const Plot& plot_named(const std::vector<Plot>& plots, std::string_view name);

// [SECTION] Palette -------------------------------------------------------------------------

// Series i gets colour i mod 8 from the Okabe–Ito palette (base/palette.hpp),
// ordered for a white background (blue, vermillion, bluish green, reddish purple, orange,
// sky blue, black, yellow), dash i mod 3 (solid, dashed, dotted) and marker i mod 4 (circle,
// square, triangle, diamond): the first 12 series differ in (dash, marker), so they stay
// apart when printed in greyscale. Negative i counts as 0.
Color palette_color(int i);
LineStyle palette_dash(int i);
Marker palette_marker(int i);

// The heat maps' diverging colour map at t ∈ [−1, 1] (clamped; NaN: 0): purple at −1, near
// white at 0, green at +1 (palette colors::kHeat*), linear in between.
Color diverging_color(double t);

// A series styled for index i (colour, dash, marker as above).
Series palette_series(int i, std::string label, std::vector<double> x, std::vector<double> y,
                      SeriesKind kind = SeriesKind::Line);

// [SECTION] Axis maths ----------------------------------------------------------------------

struct Point2 {
    double x = 0.0, y = 0.0;
};

// A pixel rectangle: left x0, top y0, right x1, bottom y1 (x0 ≤ x1, y0 ≤ y1 when not empty).
struct Rect {
    double x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0;
    double width() const { return x1 - x0; }
    double height() const { return y1 - y0; }
    bool contains(Point2 p) const { return p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1; }
};

// A resolved axis: its scale and the data interval [lo, hi] shown (lo < hi, both finite, and
// both > 0 on a log axis). The unit coordinate t runs 0 at lo to 1 at hi, linear in v or log10 v.
struct AxisRange {
    Scale scale = Scale::Linear;
    double lo = 0.0, hi = 1.0;
    bool reversed = false;   // t runs 0 at hi to 1 at lo (Axis::reversed); lo < hi still

    // Whether v can be placed on this axis: finite, and > 0 on a log axis.
    bool accepts(double v) const;
    // Data → unit: t = (v − lo)/(hi − lo), or the same in log10; NaN when !accepts(v).
    double to_unit(double v) const;
    // Unit → data, the inverse of to_unit (any finite t, also outside [0, 1]).
    double from_unit(double t) const;
};

// Which axis of a plot.
enum class AxisId { X, Y };

// Fraction of the data span added on each side of an auto range (in log10 units on log axes).
inline constexpr double kAutoRangePadding = 0.05;

// The range an axis shows: Axis::min/max where set and usable, the data otherwise. The data are
// the drawn() series' points the axis accepts (finite; > 0 on log axes), reference lines of that
// axis and annotations; bars add their baseline 0 (linear y) and half a slot on x. The data
// span is padded by kAutoRangePadding on each auto side (not below a bar baseline of 0). A
// degenerate span is widened (±1 around 0, ±10% of |v| otherwise, ±½ decade on log axes); no
// data at all gives [0, 1] (linear) or [1, 10] (log). An explicit bound that is unusable (NaN,
// ≤ 0 on a log axis) is ignored; min > max are swapped; min = max (or one bound beyond the
// data's other end) is widened as for a degenerate span. Always lo < hi, finite.
AxisRange auto_range(const Plot& plot, AxisId which);

// Maps data to pixels inside a rectangle (y grows downward on screen, upward in data).
struct Viewport {
    AxisRange x, y;
    Rect px;   // the data area in pixels

    // Data → pixel; NaN coordinates where an axis does not accept the value.
    Point2 to_px(Point2 data) const;
    // Pixel → data (the inverse of to_px), e.g. for the mouse position under the cursor.
    Point2 to_data(Point2 pixel) const;
};

// Pan and zoom, done in unit space so that both behave on log axes.
// zoomed: scale the range by factor (< 1 zooms in) about the data value `anchor`
//         (e.g. the value under the mouse); anchor not accepted: about the centre.
// panned: shift the range by dt unit lengths (dt = −Δpixels / pixel length for a drag on x).
AxisRange zoomed(const AxisRange& r, double anchor, double factor);
AxisRange panned(const AxisRange& r, double dt);

// [SECTION] Ticks ---------------------------------------------------------------------------

struct Tick {
    double value = 0.0;
    std::string label;     // empty for minor ticks
    bool major = true;     // major: labelled, with a grid line; minor: a short mark only
};

// Linear ticks at multiples of a step from {1, 2, 5}·10^k, the step chosen so that the number
// of ticks in [lo, hi] is closest to `target` (ties: fewer ticks; one alone only when no step
// gives two). All are major and labelled
// with just enough decimals for the step: [0, 1] → 0, 0.2, 0.4, 0.6, 0.8, 1. Values are exact
// decimal multiples (0.6, not 0.6000000000000001); zero is +0. Steps below min_step are not
// considered (layout_plot passes 1 for bars at integer x, so categories get whole ticks).
std::vector<Tick> linear_ticks(double lo, double hi, int target = 6, double min_step = 0.0);

// Log10 ticks for 0 < lo < hi: major ticks at the decades inside, labelled "10⁻³" … "10³"
// ([1e-3, 1e3] → 7 majors); with more decades than ~target, every 2nd/5th/10th… decade is
// labelled (the others become minor); otherwise minor ticks at 2…9 × 10^k. With fewer than two
// decades inside, majors at 1, 2, 5 × 10^k labelled by format_number ("0.002", "20"), and with
// fewer than two of those, the (positive) linear ticks of [lo, hi]. Sorted by value. Decade
// labels are short, so up to target + slack of them are labelled.
std::vector<Tick> log_ticks(double lo, double hi, int target = 6, int slack = 2);

// linear_ticks or log_ticks by the range's scale (min_step: linear axes only; slack: log only).
std::vector<Tick> axis_ticks(const AxisRange& r, int target = 6, double min_step = 0.0, int log_slack = 2);

// Tick labels and other numbers shown in a figure use format_number and decade_label
// (base/text.hpp). Renderers need glyphs for U+2212, U+00D7, U+00B9 U+00B2 U+00B3 and
// U+2070…U+207B.

// [SECTION] Layout --------------------------------------------------------------------------

// Width in pixels of `text` set in a font of size font_px. Renderers pass their own (ImGui:
// ImGui::CalcTextSize scaled to font_px); the default estimates DejaVu Sans per code point.
using TextWidthFn = std::function<double(std::string_view text, double font_px)>;
double estimate_text_width(std::string_view text, double font_px);

// Sizes in pixels at 1×; scale all of them for a PNG rendered at K×.
struct PlotStyle {
    double title_font_px = 16.0;
    double label_font_px = 14.0;     // axis labels
    double tick_font_px = 12.0;      // tick labels, legend, annotations, ref-line labels
    double tick_length = 5.0;        // major (outward); minor ticks are 60% of it
    double pad = 10.0;               // outer margin and gaps between text blocks
    double x_tick_spacing = 90.0;    // about one labelled x tick per this many pixels
    double y_tick_spacing = 55.0;
    double legend_swatch = 28.0;     // width of the line sample in the legend
    TextWidthFn text_width;          // empty: estimate_text_width
};

// The style with every size multiplied by k (a PNG rendered at k×: lay out in a k-times larger
// rectangle with scaled(style, k), and multiply Series/RefLine widths and marker sizes by k).
PlotStyle scaled(PlotStyle style, double k);

// A tick placed on screen: pos is its pixel x (x axis) or pixel y (y axis).
struct PlacedTick {
    Tick tick;
    double pos = 0.0;
};

// Anchoring of a text: x is the start, middle or end of the text; y is its baseline.
enum class TextAnchor { Start, Middle, End };
struct PlacedText {
    std::string text;
    Point2 at;               // baseline point
    TextAnchor anchor = TextAnchor::Start;
    double font_px = 12.0;
    double rotate_deg = 0.0; // about `at`; −90 for the y-axis label
};

// A Series::end_label placed right of the data area. Labels of the same text whose lines end
// within 0.9 text heights of each other are one label (`shared`: of curves in different colours,
// drawn in the text colour); where any label had to move more than 0.3 text heights to stay
// 1.2 text heights from the next, every label of the figure keeps a leader from its line's end
// (`from`), the labels 1.1 text heights right of the data so that the leaders fan out apart.
struct EndLabel {
    PlacedText label;
    std::size_t series = 0;   // the first series it labels (its colour)
    bool shared = false;
    Point2 from;              // the line's end (x: the data area's right edge)
    bool leader = false;
};

struct LegendEntry {
    std::size_t series = 0;  // index into Plot::series
    Point2 swatch_from, swatch_to;  // the line sample (a square patch for bars), in pixels
    PlacedText label;
    bool faded = false;      // the series is Series::faded: draw the swatch and label dimmed
};

// A heat map's cell on screen: its rectangle, its fill and its label (empty where it does not
// fit: wider than the cell less 0.3 em, or taller than the cell). Text on a dark fill is white.
struct HeatCell {
    Rect rect;
    Color color;
    PlacedText label;
    int row = 0, col = 0;
};
bool is_dark(Color c);

// Everything positioned, in pixels. `view` maps data to pixels inside `view.px`, the data area
// (clip every series to it). Ticks lie inside the range; their labels are placed outside the
// frame. Texts that are empty in the plot are absent (their `text` is empty).
struct PlotLayout {
    Rect outer;                       // the whole figure
    Viewport view;                    // view.px: the data area (framed, clipped)
    std::vector<PlacedTick> x_ticks, y_ticks;
    std::vector<PlacedText> x_tick_labels, y_tick_labels;
    std::vector<PlacedText> title;    // its lines: wrapped at spaces to the figure's width
    PlacedText x_label;
    std::vector<PlacedText> y_label;  // its lines, rotated −90°, first (leftmost) to last; none for no label
    bool has_legend = false;
    Rect legend_box;
    bool legend_outside = false;      // the box is right of (or under) the data area, not in a corner
    std::vector<LegendEntry> legend;
    std::vector<PlacedText> annotations;   // only those inside the data area and not dropped
    std::vector<PlacedText> ref_labels;
    std::vector<PlacedText> bar_labels;    // Series::bar_labels that fit, drawn over the data with a halo
    std::vector<EndLabel> end_labels;      // Series::end_label, right of the data area (room made for them)
    std::vector<HeatCell> heat_cells;      // Plot::heat's cells, clipped to the data area
    Rect color_bar;                        // HeatMap::bar's rectangle (empty: none), its colours top to bottom
    std::vector<PlacedText> color_bar_labels;
};

// Optional ranges that replace the plot's own (the ImGui view's pan/zoom state, kept outside
// the description so that a figure saved later still uses the lecturer's axis settings unless
// the view copies them into Plot::x/y).
struct RangeOverride {
    std::optional<AxisRange> x, y;
};

// Lays the plot out inside `outer`: margins from the text sizes, the data area, ticks (about one
// per style.*_tick_spacing pixels, fewer when x labels would collide), legend and annotations.
// The legend lists every visible labelled series, faded ones included (marked in LegendEntry),
// and its box is sized, placed and given room for all of them; the data it keeps clear of, and
// the ranges, are those of the drawn() series only.
// Room for an Auto legend: when every corner's box would hide data and the y axis has a free end
// (no Axis::min/max there, no override_ranges.y), that end is moved out to the nearest value of
// its tick grid (a multiple of the major step; decades, or 1, 2, 5 × 10^k on a log axis) at
// which the legend, in a corner on that side, hides nothing. The top is preferred; the bottom is
// grown only when it needs less than half the top's growth and, on a linear axis, not across 0
// from above. The span may at most double (log: and grow by one decade at most); when that is
// not enough, the ranges stay and the legend goes outside the data area (PlotLayout::
// legend_outside): right of it, its top level with the data's, where the data keep 60% of their
// width, else under the x label, its entries side by side in as many columns as the figure's
// width holds (each column as wide as its longest label), where the data keep 30% of their
// height and 6 tick text heights; where that legend leaves them less than 6, in 0.8 of the tick
// font with a 1.2 em line sample (fewer rows) while they keep 30%; else in the least crowded corner. A box
// (Auto or fixed corner) too large to fit inside the data area goes outside the same way rather
// than over the tick labels.
//
// End labels (Series::end_label): the right margin is widened to hold the widest; each sits
// 0.4 em right of the data area, centred on its line's last drawn point, one label for the same
// text at ends closer than 0.9 em; then they are pushed apart to 1.2 em (a visible gap between
// rows) and kept within the data area's height; where the height cannot hold them all, they are
// set in 0.8 of the tick font, and where it still cannot, the last series' labels are left out.
// Where any moved, all sit 1.1 em right of the data (the room made for two labels or more), each
// with a straight leader from its line's end: in the lines' order, so no two leaders cross, and
// no leader meets a label.
//
// Annotations last, so that every output shows the same readable labels: in the order of
// Plot::annotations (earlier ones stay, later ones move), each text's box (its measured width;
// 0.76 em above the baseline, 0.24 em below; plus a clearance of 0.12 em above and below and
// 0.3 em left and right) must lie within the data area's height and meet neither the legend
// box, nor a reference-line label, nor an annotation kept before it. One that does is shifted
// vertically by the smallest multiple of kAnnotationStepEm text heights that frees it, trying up
// before down at each distance, at most kAnnotationMaxShiftEm text heights from its usual spot;
// when no such spot is free it is DROPPED from PlotLayout::annotations (a missing label reads
// better than a pile of them). Labels that meet nothing keep exactly their usual spot; a label
// sticking out of the data area on the left is slid right. All sizes scale with the tick font,
// so a k× style gives k× the pixels. O(n²) in the number of annotations.
PlotLayout layout_plot(const Plot& plot, const Rect& outer, const PlotStyle& style = {},
                       const RangeOverride& override_ranges = {});

// The data area alone filling `area`: the plot's ranges (auto_range, or `override_ranges`), its
// heat map's cells (labels placed where they fit), nothing else (no ticks, texts, legend or colour
// bar): a figure drawn small inside a widget of its own (the Training lab's decision maps).
PlotLayout layout_data(const Plot& plot, const Rect& area, const PlotStyle& style = {},
                       const RangeOverride& override_ranges = {});

// The vertical search of layout_plot() for annotations that overlap, in text heights (font px).
inline constexpr double kAnnotationStepEm = 0.25;
inline constexpr double kAnnotationMaxShiftEm = 3.0;

// [SECTION] Series geometry -----------------------------------------------------------------

inline constexpr int kMaxLineMarkers = 15;

// A Line series as pixel polylines: one per run of drawable points (a point that is NaN/inf or
// ≤ 0 on a log axis ends a run), each segment clipped to the data area grown by `margin` px, so
// that no coordinate is huge. Runs of a single point are dropped (draw markers for them).
std::vector<std::vector<Point2>> series_polylines(const Series& s, const Viewport& view,
                                                  double margin = 4.0);

// Marker centres in pixels: every drawable point inside the data area for Scatter (and
// Line series with a marker: evenly spaced, at most kMaxLineMarkers of them); none for Bars
// or for Line series without a marker.
std::vector<Point2> series_markers(const Series& s, const Viewport& view);

// Effective marker of a series (Scatter with Marker::None draws circles).
Marker effective_marker(const Series& s);

// Bars of series `index` (a Bars series of `plot`) in pixels, clipped to the data area.
// All drawn() bar series that are not overlays share each x slot side by side; slot width = 80%
// of the smallest spacing between distinct x values in pixels (or 1/10 of the data area for a
// single x). An overlay series' bars take the slot place of the bar series before it.
std::vector<Rect> series_bars(const Plot& plot, std::size_t index, const Viewport& view);

// The same bars with the index of the point each one draws (points that cannot be drawn have none).
struct PlacedBar {
    std::size_t index = 0;
    Rect rect;
};
std::vector<PlacedBar> series_placed_bars(const Plot& plot, std::size_t index, const Viewport& view);

// Dash pattern of a style at a stroke width: alternating on/off lengths in px, empty for solid
// (the SVG writer's stroke-dasharray). Renderers without dashed strokes (ImGui's ImDrawList)
// cut each polyline with apply_dashes(), which carries the pattern's phase across vertices.
std::vector<double> dash_pattern(LineStyle style, double width);
std::vector<std::vector<Point2>> apply_dashes(const std::vector<Point2>& polyline,
                                              const std::vector<double>& pattern);

// The drawn() point nearest to pixel p within max_px, for hover tooltips: series index, point
// index, or nothing. A bar (not an overlay) is hit anywhere above or below it in the data area,
// at its horizontal distance from the bar's centre (0 inside the bar).
struct PointHit {
    std::size_t series = 0, index = 0;
    double distance_px = 0.0;
};
std::optional<PointHit> nearest_point(const Plot& plot, const Viewport& view, Point2 p,
                                      double max_px = 8.0);

// [SECTION] Writers -------------------------------------------------------------------------

// A standalone SVG 1.1 figure (UTF-8, fonts "DejaVu Sans, sans-serif"): white background, grid,
// frame, ticks and labels, title, clipped series, legend, annotations. drawn() Line series are
// one <path class="series-line"> each (broken at skipped points with a new "M"; none when nothing
// of the series is drawable); no other element is a <path>. Faded series have no data in it, only
// their legend entry, grey (#b0b0b0, class "faded"). Never contains NaN or inf. Text is
// XML-escaped (invalid UTF-8 → U+FFFD).
std::string to_svg(const Plot& plot, double width_px = 720, double height_px = 450);

// The drawn() series' data in long form: a header naming the axes by their labels,
// "series,x: LABEL,y: LABEL" ("x", "y" where a label is empty), then one row per point (all
// points, including those a log axis cannot show): series_name(), full precision (%.17g),
// NaN/inf as empty fields. Fields are quoted (RFC 4180) when they contain a comma, quote, CR or
// LF. Lines end with "\n". Every series that has data should have a name (data_name where the
// legend shows none): tests/core/test_scene.cpp checks it for every shipped figure.
// With a heat map: "series,row,col,x: LABEL,y: LABEL,NAME…" (one column per HeatValues), one
// row per cell first (HeatMap::name, row and column from 1, the cell's centre, its values), then
// the series' points with row, column and values empty.
std::string csv_header(const Plot& plot);

// The escapes the writers share: a CSV field, quoted as RFC 4180 asks when it holds a comma,
// quote, CR or LF; XML character data or attribute value (& < > " ' escaped, characters XML 1.0
// does not allow dropped, invalid UTF-8 → U+FFFD).
std::string csv_field(const std::string& s);
std::string xml_escape(std::string_view s);
std::string to_csv(const Plot& plot);

}  // namespace normlab
