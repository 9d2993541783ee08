// The plot widget (see plot_view.hpp): core's layout painted with ImDrawList, and the mouse.
//
// [SECTION] Colours and fonts
// [SECTION] Helpers          — rotation, text placement, the plot as shown
// [SECTION] Painting         — text (rotated, with halo), crisp hairlines, strokes, markers
// [SECTION] draw_figure      — one laid-out plot, in to_svg()'s paint order
// [SECTION] Screen figure    — the on-screen style (the app's fonts), one layout with hidden series faded
// [SECTION] Interaction      — wheel zoom, pan, box zoom, double-click, legend toggles, hover
// [SECTION] Context menu     — Save PNG / SVG / CSV, Copy values, Reset view
// [SECTION] draw_plot
#include "plot_view.hpp"

#include "layout_check.hpp"
#include "plot_export.hpp"
#include "ui_util.hpp"

#include <normlab/base/i18n.hpp>

#include <imgui_internal.h>   // ImGui::SetItemUsingMouseWheel

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <filesystem>

namespace normlab::ui {

// [SECTION] Colours and fonts ---------------------------------------------------------------

FigureColors light_figure() {
    // The SVG writer's colours (plot_svg.cpp), so that PNG and SVG exports look alike.
    return {IM_COL32(255, 255, 255, 255), IM_COL32(0, 0, 0, 255),       IM_COL32(227, 227, 227, 255),
            IM_COL32(0, 0, 0, 255),       IM_COL32(255, 255, 255, 230), IM_COL32(176, 176, 176, 255),
            IM_COL32(34, 34, 34, 255),    IM_COL32(68, 68, 68, 255),    IM_COL32(255, 255, 255, 255),
            IM_COL32(176, 176, 176, 255)};
}

FigureColors dark_figure() {
    return {IM_COL32(24, 25, 28, 255),    IM_COL32(232, 232, 236, 255), IM_COL32(58, 60, 66, 255),
            IM_COL32(170, 172, 180, 255), IM_COL32(24, 25, 28, 230),    IM_COL32(90, 92, 100, 255),
            IM_COL32(225, 225, 230, 255), IM_COL32(200, 200, 206, 255), IM_COL32(24, 25, 28, 255),
            IM_COL32(100, 102, 110, 255)};
}

namespace {

ImFont* pick_font(const FigureFonts& fonts, double px) {
    ImFont* best = fonts.regular.front();
    for (ImFont* f : fonts.regular)
        if (std::fabs(f->FontSize - px) < std::fabs(best->FontSize - px)) best = f;
    return best;
}

ImVec2 to_im(Point2 p) { return ImVec2(static_cast<float>(p.x), static_cast<float>(p.y)); }

}  // namespace

TextWidthFn figure_text_width(const FigureFonts& fonts) {
    return [fonts](std::string_view text, double font_px) {
        const auto px = static_cast<float>(font_px);
        return static_cast<double>(
            pick_font(fonts, font_px)->CalcTextSizeA(px, FLT_MAX, 0.0f, text.data(), text.data() + text.size()).x);
    };
}

// [SECTION] Helpers -------------------------------------------------------------------------

ImVec2 rotate_about(ImVec2 p, ImVec2 pivot, double deg) {
    constexpr double kPi = 3.14159265358979323846;
    const double a = deg * kPi / 180.0, c = std::cos(a), s = std::sin(a);
    const double dx = p.x - pivot.x, dy = p.y - pivot.y;
    return ImVec2(static_cast<float>(pivot.x + c * dx - s * dy), static_cast<float>(pivot.y + s * dx + c * dy));
}

ImVec2 text_top_left(Point2 at, TextAnchor anchor, double width, double ascent) {
    const double shift = anchor == TextAnchor::Middle ? 0.5 * width : anchor == TextAnchor::End ? width : 0.0;
    return ImVec2(static_cast<float>(at.x - shift), static_cast<float>(at.y - ascent));
}

namespace {

// The plot with the view's zoomed ranges as explicit min/max and its hidden series switched off:
// invisible (exports) or faded (the screen).
Plot with_view(const Plot& plot, const PlotView& view, bool fade) {
    Plot shown = plot;
    for (Series& s : shown.series) {
        if (std::find(view.hidden.begin(), view.hidden.end(), s.label) == view.hidden.end()) continue;
        if (fade) {
            s.faded = true;
        } else {
            s.visible = false;
        }
    }
    if (view.range.x) {
        shown.x.min = view.range.x->lo;
        shown.x.max = view.range.x->hi;
    }
    if (view.range.y) {
        shown.y.min = view.range.y->lo;
        shown.y.max = view.range.y->hi;
    }
    return shown;
}

}  // namespace

Plot plot_as_shown(const Plot& plot, const PlotView& view) { return with_view(plot, view, false); }

Plot plot_on_screen(const Plot& plot, const PlotView& view) { return with_view(plot, view, true); }

namespace {

// [SECTION] Painting ------------------------------------------------------------------------

// No CPU culling: rotated text is laid out horizontally first, possibly outside the clip rect,
// and turned into place afterwards; the draw command's clip rect still applies on the GPU.
const ImVec4 kNoCull(-FLT_MAX, -FLT_MAX, FLT_MAX, FLT_MAX);

void draw_text(ImDrawList& dl, const PlacedText& t, ImFont* font, ImU32 color, ImVec2 offset = ImVec2(0, 0)) {
    if (t.text.empty()) return;
    const auto size = static_cast<float>(t.font_px);
    const char* begin = t.text.data();
    const char* end = begin + t.text.size();
    const double width = font->CalcTextSizeA(size, FLT_MAX, 0.0f, begin, end).x;
    const double ascent = font->Ascent * size / font->FontSize;
    const ImVec2 top_left = text_top_left(t.at, t.anchor, width, ascent);
    const int first = dl.VtxBuffer.Size;
    font->RenderText(&dl, size, ImVec2(top_left.x + offset.x, top_left.y + offset.y), color, kNoCull, begin, end);
    if (t.rotate_deg == 0.0) return;
    const ImVec2 pivot = to_im(t.at);
    for (int i = first; i < dl.VtxBuffer.Size; ++i)
        dl.VtxBuffer[i].pos = rotate_about(dl.VtxBuffer[i].pos, pivot, t.rotate_deg);
}

// The layout checker's record of a text as draw_text() places it: its box turned about its
// anchor like the glyphs, in the figure's rect `frame` under the window's `clip`.
void record_placed(const PlacedText& t, ImFont* font, const ImVec4& clip, const ImVec4& frame, bool labels_data = false,
                   std::string_view figure = {}) {
    if (t.text.empty()) return;
    const auto size = static_cast<float>(t.font_px);
    const double width = font->CalcTextSizeA(size, FLT_MAX, 0.0f, t.text.data(), t.text.data() + t.text.size()).x;
    const ImVec2 a = text_top_left(t.at, t.anchor, width, font->Ascent * size / font->FontSize);
    const ImVec2 b(static_cast<float>(a.x + width), a.y + size);
    ImVec4 box(a.x, a.y, b.x, b.y);
    if (t.rotate_deg != 0.0) {
        box = ImVec4(FLT_MAX, FLT_MAX, -FLT_MAX, -FLT_MAX);
        for (const ImVec2 c : {a, b, ImVec2(a.x, b.y), ImVec2(b.x, a.y)}) {
            const ImVec2 r = rotate_about(c, to_im(t.at), t.rotate_deg);
            box = ImVec4(std::min(box.x, r.x), std::min(box.y, r.y), std::max(box.z, r.x), std::max(box.w, r.y));
        }
    }
    record_text(t.text, box, clip, &frame, labels_data, figure);
}

// Text over data: a halo of the background colour around it keeps it legible (as the SVG's
// white stroke does).
void draw_haloed_text(ImDrawList& dl, const PlacedText& t, ImFont* font, ImU32 color, ImU32 halo, double k) {
    const auto r = static_cast<float>(1.5 * k), d = 0.7071f * r;
    for (const ImVec2 o : {ImVec2(r, 0), ImVec2(-r, 0), ImVec2(0, r), ImVec2(0, -r), ImVec2(d, d), ImVec2(-d, d),
                           ImVec2(d, -d), ImVec2(-d, -d)})
        draw_text(dl, t, font, halo, o);
    draw_text(dl, t, font, color);
}

// Axis-parallel hairlines of a whole number of pixels, on pixel boundaries so that they stay
// sharp (ImDrawList::AddLine strokes through p + 0.5).
double hairline_width(double k) { return std::max(1.0, std::round(k)); }

float crisp(double pos, double width) {
    return static_cast<float>(std::round(pos - 0.5 * width) + 0.5 * width - 0.5);
}

void vline(ImDrawList& dl, double x, double y0, double y1, ImU32 color, double width) {
    const float cx = crisp(x, width);
    dl.AddLine(ImVec2(cx, static_cast<float>(y0)), ImVec2(cx, static_cast<float>(y1)), color,
               static_cast<float>(width));
}

void hline(ImDrawList& dl, double y, double x0, double x1, ImU32 color, double width) {
    const float cy = crisp(y, width);
    dl.AddLine(ImVec2(static_cast<float>(x0), cy), ImVec2(static_cast<float>(x1), cy), color,
               static_cast<float>(width));
}

double stroke_width(double w) { return std::isfinite(w) && w > 0.0 ? w : 1.0; }

// A polyline in a line style: solid, or cut into dashes by core's apply_dashes().
void stroke(ImDrawList& dl, const std::vector<Point2>& line, LineStyle style, double width, ImU32 color) {
    const std::vector<double> pattern = dash_pattern(style, width);
    std::vector<ImVec2> pts;
    const auto draw = [&](const std::vector<Point2>& piece) {
        pts.clear();
        for (const Point2& p : piece) pts.push_back(to_im(p));
        if (pts.size() >= 2)
            dl.AddPolyline(pts.data(), static_cast<int>(pts.size()), color, 0, static_cast<float>(width));
    };
    if (pattern.empty()) {
        draw(line);
    } else {
        for (const auto& dash : apply_dashes(line, pattern)) draw(dash);
    }
}

// One filled marker of diameter `size` centred at p, the same shapes as the SVG writer's.
void draw_marker(ImDrawList& dl, Marker m, Point2 p, double size, ImU32 color) {
    const double r = 0.5 * (std::isfinite(size) && size > 0.0 ? size : 7.0);
    const auto at = [&](double dx, double dy) { return ImVec2(static_cast<float>(p.x + dx), static_cast<float>(p.y + dy)); };
    switch (m) {
    case Marker::None: return;
    case Marker::Circle: dl.AddCircleFilled(to_im(p), static_cast<float>(r), color); return;
    case Marker::Ring: {
        const double w = 0.4 * r;
        dl.AddCircle(to_im(p), static_cast<float>(r - 0.5 * w), color, 0, static_cast<float>(w));
        return;
    }
    case Marker::Square: {
        const double h = 0.88 * r;
        dl.AddRectFilled(at(-h, -h), at(h, h), color);
        return;
    }
    case Marker::Triangle: {
        const double h = 1.15 * r;
        dl.AddTriangleFilled(at(0, -h), at(0.866 * h, 0.5 * h), at(-0.866 * h, 0.5 * h), color);
        return;
    }
    case Marker::Diamond: {
        const double h = 1.2 * r;
        dl.AddQuadFilled(at(0, -h), at(0.8 * h, 0), at(0, h), at(-0.8 * h, 0), color);
        return;
    }
    }
}

}  // namespace

// [SECTION] draw_figure ---------------------------------------------------------------------

namespace {

void draw_legend(ImDrawList& dl, const Plot& plot, const PlotLayout& L, double k, const FigureFonts& fonts,
                 const FigureColors& colors);

// A heat map's cell labels (white on dark cells) and its colour bar: colours top to bottom, frame, labels.
void draw_heat_texts(ImDrawList& dl, const Plot& plot, const PlotLayout& L, const FigureFonts& fonts,
                     const FigureColors& colors, double hair) {
    for (const HeatCell& c : L.heat_cells)
        draw_text(dl, c.label, pick_font(fonts, c.label.font_px), is_dark(c.color) ? IM_COL32(255, 255, 255, 255) : IM_COL32(30, 30, 30, 255));
    if (!plot.heat || plot.heat->bar.empty() || L.color_bar.height() <= 0.0) return;
    const std::vector<Color>& bar = plot.heat->bar;
    const Rect& b = L.color_bar;
    const double step = b.height() / static_cast<double>(bar.size());
    for (std::size_t i = 0; i < bar.size(); ++i)
        dl.AddRectFilled(to_im({b.x0, b.y0 + double(i) * step}), to_im({b.x1, b.y0 + double(i + 1) * step}), to_u32(bar[i]));
    dl.AddRect(to_im({b.x0, b.y0}), to_im({b.x1, b.y1}), colors.frame, 0.0f, 0, static_cast<float>(hair));
    for (const PlacedText& t : L.color_bar_labels) draw_text(dl, t, pick_font(fonts, t.font_px), colors.text);
}

// Every text of a laid-out figure, for the layout checker (layout_check.hpp), with the fonts
// draw_figure() paints them in; `clip`: the window's clip rect around the figure. Its labels and
// values (all but tick labels, axis labels and title lines, which a smaller figure thins or wraps
// onto more lines) carry the figure's `name` (TextBox::figure: "dropped" compares them across sizes).
void record_figure_texts(const PlotLayout& L, const FigureFonts& fonts, const ImVec4& clip, std::string_view name) {
    const Rect& o = L.outer;
    const ImVec4 frame(static_cast<float>(o.x0), static_cast<float>(o.y0), static_cast<float>(o.x1),
                       static_cast<float>(o.y1));
    const auto record = [&](const PlacedText& t, ImFont* font) { record_placed(t, font, clip, frame, false, name); };
    for (const auto* texts : {&L.x_tick_labels, &L.y_tick_labels})
        for (const PlacedText& t : *texts) record_placed(t, pick_font(fonts, t.font_px), clip, frame);
    for (const auto* texts : {&L.annotations, &L.color_bar_labels})
        for (const PlacedText& t : *texts) record(t, pick_font(fonts, t.font_px));
    // Labels of the data they sit on: a bar's value, a reference line's name, a cell's value.
    for (const auto* texts : {&L.ref_labels, &L.bar_labels})
        for (const PlacedText& t : *texts) record_placed(t, pick_font(fonts, t.font_px), clip, frame, true, name);
    for (const HeatCell& c : L.heat_cells) record_placed(c.label, pick_font(fonts, c.label.font_px), clip, frame, true, name);
    for (const EndLabel& e : L.end_labels) record(e.label, pick_font(fonts, e.label.font_px));
    record_placed(L.x_label, pick_font(fonts, L.x_label.font_px), clip, frame);
    for (const PlacedText& t : L.y_label) record_placed(t, pick_font(fonts, t.font_px), clip, frame);
    for (const PlacedText& t : L.title)
        record_placed(t, fonts.bold != nullptr ? fonts.bold : pick_font(fonts, t.font_px), clip, frame);
    if (L.has_legend)
        for (const LegendEntry& e : L.legend) record(e.label, pick_font(fonts, e.label.font_px));
}

// The data draw_figure_data() paints, for the layout checker: bars, curves, markers, heat cells,
// clipped to the data area within the window's `clip`.
void record_figure_data(const Plot& plot, const PlotLayout& L, const ImVec4& clip, double k) {
    const Rect& d = L.view.px;
    const ImVec4 area = ImVec4(std::max(clip.x, static_cast<float>(d.x0)), std::max(clip.y, static_cast<float>(d.y0)),
                               std::min(clip.z, static_cast<float>(d.x1)), std::min(clip.w, static_cast<float>(d.y1)));
    const auto rect = [&](const Rect& r) {
        record_data_rect(ImVec4(static_cast<float>(r.x0), static_cast<float>(r.y0), static_cast<float>(r.x1),
                                static_cast<float>(r.y1)), area, plot.name);
    };
    for (const HeatCell& c : L.heat_cells) rect(c.rect);
    for (std::size_t i = 0; i < plot.series.size(); ++i) {
        const Series& s = plot.series[i];
        if (!drawn(s)) continue;
        if (s.kind == SeriesKind::Bars)
            for (const Rect& b : series_bars(plot, i, L.view)) rect(b);
        if (s.kind == SeriesKind::Line)
            for (const auto& line : series_polylines(s, L.view))
                for (std::size_t j = 1; j < line.size(); ++j)
                    record_data_segment(to_im(line[j - 1]), to_im(line[j]), area, plot.name);
        const double r = 0.5 * k * (std::isfinite(s.marker_size) && s.marker_size > 0.0 ? s.marker_size : 7.0);
        if (effective_marker(s) != Marker::None)
            for (const Point2& p : series_markers(s, L.view)) rect({p.x - r, p.y - r, p.x + r, p.y + r});
    }
}

// A row's run of heat cells of one colour as one rectangle (a decision map's 48 × 48 cells are a
// few hundred runs): the same pixels, far fewer vertices.
void draw_heat_cells(ImDrawList& dl, const std::vector<HeatCell>& cells) {
    for (std::size_t i = 0; i < cells.size();) {
        std::size_t end = i + 1;
        while (end < cells.size() && cells[end].row == cells[i].row && cells[end].col == cells[end - 1].col + 1 &&
               to_u32(cells[end].color) == to_u32(cells[i].color))
            ++end;
        const Rect& a = cells[i].rect;
        const Rect& b = cells[end - 1].rect;
        dl.AddRectFilled(to_im({std::min(a.x0, b.x0), a.y0}), to_im({std::max(a.x1, b.x1), a.y1}), to_u32(cells[i].color));
        i = end;
    }
}

}  // namespace

void draw_figure_data(ImDrawList& dl, const Plot& plot, const PlotLayout& L, double k) {
    const Rect& d = L.view.px;
    draw_heat_cells(dl, L.heat_cells);
    for (const RefLine& r : plot.ref_lines) {
        const bool horizontal = r.orientation == RefLine::Orientation::Horizontal;
        const double u = (horizontal ? L.view.y : L.view.x).to_unit(r.value);
        if (!std::isfinite(u) || u < 0.0 || u > 1.0) continue;
        const double w = stroke_width(r.width) * k;
        const std::vector<Point2> line = horizontal
                                             ? std::vector<Point2>{{d.x0, d.y1 - u * d.height()}, {d.x1, d.y1 - u * d.height()}}
                                             : std::vector<Point2>{{d.x0 + u * d.width(), d.y0}, {d.x0 + u * d.width(), d.y1}};
        stroke(dl, line, r.line, w, to_u32(r.color));
    }
    for (std::size_t i = 0; i < plot.series.size(); ++i) {
        const Series& s = plot.series[i];
        if (!drawn(s) || s.kind != SeriesKind::Bars) continue;
        for (const Rect& b : series_bars(plot, i, L.view)) {
            if (s.overlay) {
                dl.AddRect(to_im({b.x0, b.y0}), to_im({b.x1, b.y1}), to_u32(s.color), 0.0f, 0, static_cast<float>(2.0 * k));
            } else {
                dl.AddRectFilled(to_im({b.x0, b.y0}), to_im({b.x1, b.y1}), to_u32(s.color));
            }
        }
    }
    for (const Series& s : plot.series) {
        if (!drawn(s) || s.kind != SeriesKind::Line) continue;
        for (const auto& line : series_polylines(s, L.view)) stroke(dl, line, s.line, stroke_width(s.width) * k, to_u32(s.color));
    }
    for (const Series& s : plot.series) {
        if (!drawn(s)) continue;
        for (const Point2& p : series_markers(s, L.view)) {
            if (s.halo) draw_marker(dl, Marker::Circle, p, (s.marker_size + 2.0) * k, IM_COL32_WHITE);
            draw_marker(dl, effective_marker(s), p, s.marker_size * k, to_u32(s.color));
        }
    }
}

void draw_figure(ImDrawList& dl, const Plot& plot, const PlotLayout& L, const PlotStyle& style, double k,
                 const FigureFonts& fonts, const FigureColors& colors) {
    const Rect& o = L.outer;
    const Rect& d = L.view.px;
    const double hair = hairline_width(k);
    dl.AddRectFilled(to_im({o.x0, o.y0}), to_im({o.x1, o.y1}), colors.background);

    // Grid at the major ticks.
    for (const PlacedTick& t : L.x_ticks)
        if (t.tick.major) vline(dl, t.pos, d.y0, d.y1, colors.grid, hair);
    for (const PlacedTick& t : L.y_ticks)
        if (t.tick.major) hline(dl, t.pos, d.x0, d.x1, colors.grid, hair);

    // The data, clipped to the data area: a heat map, reference lines, bars, lines, markers.
    dl.PushClipRect(to_im({d.x0, d.y0}), to_im({d.x1, d.y1}), true);
    draw_figure_data(dl, plot, L, k);
    dl.PopClipRect();

    // Frame (its snapped edges meet in square corners) and outward ticks (minor ones shorter).
    const float x0 = crisp(d.x0, hair), x1 = crisp(d.x1, hair), y0 = crisp(d.y0, hair), y1 = crisp(d.y1, hair);
    const auto half = static_cast<float>(0.5 * hair), w = static_cast<float>(hair);
    dl.AddLine(ImVec2(x0 - half, y0), ImVec2(x1 + half, y0), colors.frame, w);
    dl.AddLine(ImVec2(x0 - half, y1), ImVec2(x1 + half, y1), colors.frame, w);
    dl.AddLine(ImVec2(x0, y0 - half), ImVec2(x0, y1 + half), colors.frame, w);
    dl.AddLine(ImVec2(x1, y0 - half), ImVec2(x1, y1 + half), colors.frame, w);
    const double major = style.tick_length, minor = 0.6 * style.tick_length;
    for (const PlacedTick& t : L.x_ticks) vline(dl, t.pos, d.y1, d.y1 + (t.tick.major ? major : minor), colors.frame, hair);
    for (const PlacedTick& t : L.y_ticks) hline(dl, t.pos, d.x0 - (t.tick.major ? major : minor), d.x0, colors.frame, hair);

    // Texts: tick labels, axis labels, title, annotations, reference-line and bar labels.
    for (const auto* labels : {&L.x_tick_labels, &L.y_tick_labels})
        for (const PlacedText& t : *labels) draw_text(dl, t, pick_font(fonts, t.font_px), colors.text);
    draw_text(dl, L.x_label, pick_font(fonts, L.x_label.font_px), colors.text);
    for (const PlacedText& t : L.y_label) draw_text(dl, t, pick_font(fonts, t.font_px), colors.text);
    for (const PlacedText& t : L.title)
        draw_text(dl, t, fonts.bold != nullptr ? fonts.bold : pick_font(fonts, t.font_px), colors.text);
    for (const PlacedText& t : L.annotations)
        draw_haloed_text(dl, t, pick_font(fonts, t.font_px), colors.annotation, colors.halo, k);
    for (const PlacedText& t : L.ref_labels)
        draw_haloed_text(dl, t, pick_font(fonts, t.font_px), colors.ref_label, colors.halo, k);
    for (const PlacedText& t : L.bar_labels) draw_haloed_text(dl, t, pick_font(fonts, t.font_px), colors.text, colors.halo, k);
    for (const EndLabel& e : L.end_labels) {
        const ImU32 color = e.shared ? colors.text : to_u32(plot.series[e.series].color);
        if (e.leader)
            dl.AddLine(to_im(e.from), to_im({e.label.at.x - 0.15 * e.label.font_px, e.label.at.y - 0.36 * e.label.font_px}),
                       color, static_cast<float>(hair));
        draw_text(dl, e.label, pick_font(fonts, e.label.font_px), color);
    }
    draw_heat_texts(dl, plot, L, fonts, colors, hair);
    draw_legend(dl, plot, L, k, fonts, colors);
}

namespace {

void draw_legend(ImDrawList& dl, const Plot& plot, const PlotLayout& L, double k, const FigureFonts& fonts,
                 const FigureColors& colors) {
    // Legend: a line sample (with its marker) or a square patch for bars, and the label.
    if (!L.has_legend) return;
    const Rect& b = L.legend_box;
    dl.AddRectFilled(to_im({b.x0, b.y0}), to_im({b.x1, b.y1}), colors.legend_fill);
    dl.AddRect(to_im({b.x0, b.y0}), to_im({b.x1, b.y1}), colors.legend_border, 0.0f, 0, static_cast<float>(0.8 * k));
    for (const LegendEntry& e : L.legend) {
        const Series& s = plot.series[e.series];
        const ImU32 color = e.faded ? colors.faded : to_u32(s.color);
        const Point2 mid{0.5 * (e.swatch_from.x + e.swatch_to.x), e.swatch_from.y};
        if (s.kind == SeriesKind::Bars) {
            const double h = 0.5 * e.label.font_px;
            if (s.overlay) {
                dl.AddRect(to_im({mid.x - h, mid.y - h}), to_im({mid.x + h, mid.y + h}), color, 0.0f, 0, static_cast<float>(2.0 * k));
            } else {
                dl.AddRectFilled(to_im({mid.x - h, mid.y - h}), to_im({mid.x + h, mid.y + h}), color);
            }
        } else {
            if (s.kind == SeriesKind::Line) stroke(dl, {e.swatch_from, e.swatch_to}, s.line, stroke_width(s.width) * k, color);
            draw_marker(dl, effective_marker(s), mid, s.marker_size * k, color);
        }
        draw_text(dl, e.label, pick_font(fonts, e.label.font_px), e.faded ? colors.faded : colors.text);
    }
}

}  // namespace

namespace {

// [SECTION] Screen figure -------------------------------------------------------------------

// On screen the figure is core's default style scaled to the app's text size, with the font
// sizes set to the app's fonts (small: ticks and legend, regular: axis labels, heading: title),
// so that every glyph is drawn at the size it was rasterised at.
struct ScreenFigure {
    PlotStyle style;
    double k = 1.0;        // screen px per export px at 1×
    FigureFonts fonts;
    FigureColors colors;
};

ScreenFigure screen_figure(const Fonts& app) {
    ScreenFigure f;
    f.k = app.small->FontSize / PlotStyle{}.tick_font_px;
    f.style = scaled(PlotStyle{}, f.k);
    f.style.tick_font_px = app.small->FontSize;
    f.style.label_font_px = app.regular->FontSize;
    f.style.title_font_px = app.heading->FontSize;
    f.fonts = {{app.small, app.regular}, app.heading};
    f.style.text_width = figure_text_width(f.fonts);
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    f.colors = 0.299f * bg.x + 0.587f * bg.y + 0.114f * bg.z < 0.5f ? dark_figure() : light_figure();
    return f;
}

// The layout on screen. Series switched off are faded (plot_on_screen): the legend still lists
// them, dimmed, so that they can be clicked back, and core lays that legend out (its corner, the
// room made for it, the annotations kept off it) with their rows in it and their data left out.
struct ScreenLayout {
    Plot shown;                        // plot_on_screen()
    PlotLayout layout;
};

ScreenLayout layout_screen(const Plot& plot, const PlotView& view, const Rect& outer, const PlotStyle& style) {
    ScreenLayout s{plot_on_screen(plot, view), {}};
    s.layout = layout_plot(s.shown, outer, style);
    return s;
}

// [SECTION] Interaction ---------------------------------------------------------------------

constexpr double kWheelZoom = 0.85;    // range factor per wheel notch (up: zoom in)
constexpr float kClickSlop = 4.0f;     // px a click may move and still be a click
constexpr float kMinBox = 5.0f;        // px: smaller box zooms are taken as clicks

Point2 to_point(ImVec2 p) { return {p.x, p.y}; }

bool moved(ImGuiMouseButton button) {
    return ImGui::GetIO().MouseDragMaxDistanceSqr[button] > kClickSlop * kClickSlop;
}

// The legend entry under the mouse: rows split at the midpoints between their centre lines.
const LegendEntry* legend_entry_at(const PlotLayout& L, ImVec2 mouse) {
    if (!L.has_legend || !L.legend_box.contains(to_point(mouse))) return nullptr;
    for (std::size_t i = 0; i < L.legend.size(); ++i) {
        const double next = i + 1 < L.legend.size() ? L.legend[i + 1].swatch_from.y : L.legend_box.y1;
        if (mouse.y <= 0.5 * (L.legend[i].swatch_from.y + next) || i + 1 == L.legend.size()) return &L.legend[i];
    }
    return nullptr;
}

void toggle_hidden(PlotView& view, const std::string& label) {
    const auto it = std::find(view.hidden.begin(), view.hidden.end(), label);
    if (it == view.hidden.end()) {
        view.hidden.push_back(label);
    } else {
        view.hidden.erase(it);
    }
}

// The range of one axis as shown now: the view's override, or the layout's (auto) range.
AxisRange& current(std::optional<AxisRange>& r, const AxisRange& shown) {
    if (!r) r = shown;
    return *r;
}

// Applies this frame's mouse to the view; returns true when the ranges or hidden series changed.
// `opens_menu` is set when a right-click (without a box drag) asks for the context menu.
bool interact(PlotView& view, const Plot& plot, const PlotLayout& L, bool& opens_menu) {
    const ImGuiIO& io = ImGui::GetIO();
    const Rect& d = L.view.px;
    const ImVec2 mouse = io.MousePos;
    const bool hovered = ImGui::IsItemHovered();
    const bool in_data = d.contains(to_point(mouse));
    const LegendEntry* entry = hovered ? legend_entry_at(L, mouse) : nullptr;
    bool changed = false;

    // Wheel: about the value under the cursor; over the tick labels of one axis, that axis only.
    if (hovered && io.MouseWheel != 0.0f) {
        const double factor = std::pow(kWheelZoom, static_cast<double>(io.MouseWheel));
        const Point2 at = L.view.to_data(to_point(mouse));
        const bool x_axis = mouse.y > d.y1 && mouse.x >= d.x0, y_axis = mouse.x < d.x0 && mouse.y <= d.y1;
        if (!y_axis) view.range.x = zoomed(current(view.range.x, L.view.x), at.x, factor);
        if (!x_axis) view.range.y = zoomed(current(view.range.y, L.view.y), at.y, factor);
        changed = true;
    }

    // Box zoom: right-drag or Ctrl+drag; a right-click that did not drag opens the menu.
    if (ImGui::IsItemActivated() && (ImGui::IsMouseClicked(ImGuiMouseButton_Right) || io.KeyCtrl)) {
        view.box_zooming = true;
        view.box_from = mouse;
    }
    if (view.box_zooming && !ImGui::IsItemActive()) {
        view.box_zooming = false;
        const ImVec2 a = view.box_from, b = mouse;
        if (std::fabs(a.x - b.x) >= kMinBox && std::fabs(a.y - b.y) >= kMinBox) {
            const auto clamp_x = [&](double x) { return std::clamp(x, d.x0, d.x1); };
            const auto clamp_y = [&](double y) { return std::clamp(y, d.y0, d.y1); };
            const Point2 lo = L.view.to_data({clamp_x(std::min(a.x, b.x)), clamp_y(std::max(a.y, b.y))});
            const Point2 hi = L.view.to_data({clamp_x(std::max(a.x, b.x)), clamp_y(std::min(a.y, b.y))});
            if (lo.x < hi.x && lo.y < hi.y) {
                view.range.x = AxisRange{L.view.x.scale, lo.x, hi.x};
                view.range.y = AxisRange{L.view.y.scale, lo.y, hi.y};
                changed = true;
            }
        } else if (ImGui::IsMouseReleased(ImGuiMouseButton_Right)) {
            opens_menu = true;
        }
    }

    // Drag pans (in unit lengths, so that log axes pan by decades evenly).
    if (ImGui::IsItemActive() && !view.box_zooming && ImGui::IsMouseDown(ImGuiMouseButton_Left) &&
        (io.MouseDelta.x != 0.0f || io.MouseDelta.y != 0.0f) && moved(ImGuiMouseButton_Left)) {
        if (io.MouseDelta.x != 0.0f)
            view.range.x = panned(current(view.range.x, L.view.x), -io.MouseDelta.x / std::max(1.0, d.width()));
        if (io.MouseDelta.y != 0.0f)
            view.range.y = panned(current(view.range.y, L.view.y), io.MouseDelta.y / std::max(1.0, d.height()));
        changed = true;
    }

    // A click on a legend entry hides or shows its series; a double-click elsewhere resets.
    if (entry != nullptr && ImGui::IsMouseReleased(ImGuiMouseButton_Left) && !moved(ImGuiMouseButton_Left) &&
        !io.KeyCtrl) {
        toggle_hidden(view, plot.series[entry->series].label);
        changed = true;
    } else if (hovered && entry == nullptr && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
        view.range = {};
        changed = true;
    }

    if (hovered && entry != nullptr) ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
    else if (hovered && in_data && !view.box_zooming) ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeAll);
    return changed;
}

// While hovering the data: a ring on the nearest point and its values in a tooltip.
void hover_tooltip(ImDrawList& dl, const Plot& shown, const PlotLayout& L, double k, ImU32 ring) {
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    if (!ImGui::IsItemHovered() || ImGui::IsItemActive() || !L.view.px.contains(to_point(mouse))) return;
    if (legend_entry_at(L, mouse) != nullptr) {
        ImGui::SetTooltip("%s", tr("Click to hide or show this series"));
        return;
    }
    const std::optional<PointHit> hit = nearest_point(shown, L.view, to_point(mouse), 8.0 * k);
    if (!hit) return;
    const Series& s = shown.series[hit->series];
    const Point2 p = L.view.to_px({s.x[hit->index], s.y[hit->index]});
    dl.AddCircle(to_im(p), static_cast<float>(0.5 * s.marker_size * k + 3.0 * k), ring, 0, static_cast<float>(1.5 * k));
    const std::string x = format_number(s.x[hit->index], 6), y = format_number(s.y[hit->index], 6);
    const std::string& xl = shown.x.label, &yl = shown.y.label;
    const std::string& name = series_name(s);
    ImGui::SetTooltip("%s\n%s = %s\n%s = %s", name.empty() ? tr("(unlabelled series)") : name.c_str(),
                      xl.empty() ? "x" : xl.c_str(), x.c_str(), yl.empty() ? "y" : yl.c_str(), y.c_str());
}

// [SECTION] Context menu --------------------------------------------------------------------

// "/home/me/talk/invariance_vs_delta.png": where a file went, absolute so the user can find it.
std::string shown_path(const std::string& path) {
    std::error_code ec;
    const std::filesystem::path abs = std::filesystem::absolute(path, ec);
    return ec ? path : abs.string();
}

// Exports show what is on screen without the series switched off: plot_as_shown(), not the
// screen's faded plot.
void context_menu(PlotView& view, const Plot& plot, ImVec2 base) {
    if (!ImGui::BeginPopup("plot menu")) return;
    const Plot shown = plot_as_shown(plot, view);
    const int w = static_cast<int>(base.x), h = static_cast<int>(base.y);
    const std::string& dir = view.export_dir.empty() ? export_folder() : view.export_dir;
    const auto saved = [&](const std::string& path, const std::string& error, const std::string& what) {
        view.message = error.empty() ? tr("Saved {0}", shown_path(path) + what) : tr("⚠ Not saved: {0}", error);
    };
    if (ImGui::BeginMenu(tr("Save PNG"))) {
        for (int scale = 1; scale <= kMaxExportScale; ++scale) {
            const std::string label = std::to_string(scale) + "×   " + std::to_string(w * scale) + " × " +
                                      std::to_string(h * scale) + " px";
            if (ImGui::MenuItem(label.c_str())) {
                const std::string path = unused_file_name(figure_path(dir, shown.name, "png"));
                saved(path, save_plot_png(shown, w, h, scale, path, IfExists::Refuse),
                      " (" + std::to_string(w * scale) + " × " + std::to_string(h * scale) + " px)");
            }
        }
        ImGui::EndMenu();
    }
    if (ImGui::MenuItem(tr("Save SVG"))) {
        const std::string path = unused_file_name(figure_path(dir, shown.name, "svg"));
        saved(path, save_text_file(path, to_svg(shown, w, h), IfExists::Refuse), "");
    }
    if (ImGui::MenuItem(tr("Save CSV"))) {
        const std::string path = unused_file_name(figure_path(dir, shown.name, "csv"));
        saved(path, save_text_file(path, to_csv(shown), IfExists::Refuse), "");
    }
    if (ImGui::MenuItem(tr("Copy values (CSV)"))) {
        const std::string csv = to_csv(shown);
        ImGui::SetClipboardText(csv.c_str());
        view.message = tr("Copied the values of the shown series to the clipboard (CSV: series, x, y)");
    }
    ImGui::Separator();
    if (ImGui::MenuItem(tr("Reset view"), tr("double-click"), false, view.range.x || view.range.y)) view.range = {};
    if (ImGui::MenuItem(tr("Show all series"), nullptr, false, !view.hidden.empty())) view.hidden.clear();
    ImGui::Separator();
    ImGui::TextDisabled(tr("Files go to %s  (File ▸ Export folder…)"), shown_path(dir.empty() ? "." : dir).c_str());
    ImGui::EndPopup();
}

// The last export's result under the figure, until the × dismisses it.
void message_line(PlotView& view) {
    if (view.message.empty()) return;
    const bool warning = view.message.rfind("⚠", 0) == 0;
    if (ImGui::SmallButton("×")) view.message.clear();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("Dismiss this message"));

    ImGui::SameLine();
    if (warning) {
        ImGui::TextColored(kWarnText, "%s", view.message.c_str());
    } else {
        ImGui::TextUnformatted(view.message.c_str());
    }
}

}  // namespace

// [SECTION] draw_plot -----------------------------------------------------------------------

void draw_plot(PlotView& view, const Plot& plot, const Fonts& fonts, ImVec2 size) {
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    if (size.x <= 0.0f) size.x = avail.x;
    if (size.y <= 0.0f) size.y = avail.y;
    const float message_h = view.message.empty() ? 0.0f : ImGui::GetFrameHeightWithSpacing();
    // Never smaller than kMinFigure*Em: the window around it scrolls instead.
    const float em = fonts.regular->FontSize;
    const float min_w = view.compact ? kMinCompactWidthEm : kMinFigureWidthEm;
    const float min_h = view.compact ? kMinCompactHeightEm : kMinFigureHeightEm;
    const ImVec2 fig(std::max(size.x, min_w * em), std::max(size.y - message_h, min_h * em));

    ImGui::PushID(&view);
    note_exportable(plot.name);   // its right-click saves it (plot_export.hpp)
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("figure", fig, ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight);
    ImGui::SetItemUsingMouseWheel();   // the wheel zooms the plot instead of scrolling the window

    ScreenFigure f = screen_figure(fonts);
    if (view.compact) f.style.pad *= 0.4;   // a chart in a panel: the panel's own margins suffice
    const Rect outer{origin.x, origin.y, origin.x + fig.x, origin.y + fig.y};
    Plot unlabelled;
    if (view.compact) {
        unlabelled = plot;
        unlabelled.title.clear();
        unlabelled.x.label.clear();
        unlabelled.y.label.clear();
    }
    const Plot& on_screen = view.compact ? unlabelled : plot;
    ScreenLayout s = layout_screen(on_screen, view, outer, f.style);
    bool opens_menu = false;
    if (interact(view, on_screen, s.layout, opens_menu)) s = layout_screen(on_screen, view, outer, f.style);

    ImDrawList& dl = *ImGui::GetWindowDrawList();
    if (text_recording()) {
        record_figure_texts(s.layout, f.fonts, dl._ClipRectStack.back(), plot.name);
        record_figure_data(s.shown, s.layout, dl._ClipRectStack.back(), f.k);
    }
    dl.PushClipRect(origin, ImVec2(origin.x + fig.x, origin.y + fig.y), true);
    draw_figure(dl, s.shown, s.layout, f.style, f.k, f.fonts, f.colors);
    if (view.box_zooming) {
        const ImVec4 sel = ImGui::GetStyle().Colors[ImGuiCol_NavHighlight];
        dl.AddRectFilled(view.box_from, ImGui::GetIO().MousePos, ImGui::ColorConvertFloat4ToU32(ImVec4(sel.x, sel.y, sel.z, 0.15f)));
        dl.AddRect(view.box_from, ImGui::GetIO().MousePos, ImGui::ColorConvertFloat4ToU32(sel), 0.0f, 0, 1.5f);
    }
    hover_tooltip(dl, s.shown, s.layout, f.k, f.colors.text);
    dl.PopClipRect();

    if (opens_menu) ImGui::OpenPopup("plot menu");
    // Exports are laid out at 1× in the size the figure has on screen, in core's default style.
    context_menu(view, plot, ImVec2(std::round(fig.x / static_cast<float>(f.k)), std::round(fig.y / static_cast<float>(f.k))));
    message_line(view);
    ImGui::PopID();
}

}  // namespace normlab::ui
