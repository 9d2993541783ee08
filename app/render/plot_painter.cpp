// The plot painter (see plot_painter.hpp): a laid-out core Plot painted into an ImDrawList, no
// interaction; the screen's plot view and the offscreen PNG both paint with it.
//
// [SECTION] Colours and fonts
// [SECTION] Helpers          — rotation, text placement
// [SECTION] Painting         — text (rotated, with halo), crisp hairlines, strokes, markers
// [SECTION] draw_figure      — one laid-out plot, in to_svg()'s paint order
#include "plot_painter.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>

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

ImFont* figure_font(const FigureFonts& fonts, double px) {
    ImFont* best = fonts.regular.front();
    for (ImFont* f : fonts.regular)
        if (std::fabs(f->FontSize - px) < std::fabs(best->FontSize - px)) best = f;
    return best;
}

TextWidthFn figure_text_width(const FigureFonts& fonts) {
    return [fonts](std::string_view text, double font_px) {
        const auto px = static_cast<float>(font_px);
        return static_cast<double>(
            figure_font(fonts, font_px)->CalcTextSizeA(px, FLT_MAX, 0.0f, text.data(), text.data() + text.size()).x);
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
        draw_text(dl, c.label, figure_font(fonts, c.label.font_px), is_dark(c.color) ? IM_COL32(255, 255, 255, 255) : IM_COL32(30, 30, 30, 255));
    if (!plot.heat || plot.heat->bar.empty() || L.color_bar.height() <= 0.0) return;
    const std::vector<Color>& bar = plot.heat->bar;
    const Rect& b = L.color_bar;
    const double step = b.height() / static_cast<double>(bar.size());
    for (std::size_t i = 0; i < bar.size(); ++i)
        dl.AddRectFilled(to_im({b.x0, b.y0 + double(i) * step}), to_im({b.x1, b.y0 + double(i + 1) * step}), to_u32(bar[i]));
    dl.AddRect(to_im({b.x0, b.y0}), to_im({b.x1, b.y1}), colors.frame, 0.0f, 0, static_cast<float>(hair));
    for (const PlacedText& t : L.color_bar_labels) draw_text(dl, t, figure_font(fonts, t.font_px), colors.text);
}

// Every text of a laid-out figure, for the layout checker (layout_check.hpp), with the fonts
// draw_figure() paints them in; `clip`: the window's clip rect around the figure. Its labels and
// values (all but tick labels, axis labels and title lines, which a smaller figure thins or wraps
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
        for (const PlacedText& t : *labels) draw_text(dl, t, figure_font(fonts, t.font_px), colors.text);
    draw_text(dl, L.x_label, figure_font(fonts, L.x_label.font_px), colors.text);
    for (const PlacedText& t : L.y_label) draw_text(dl, t, figure_font(fonts, t.font_px), colors.text);
    for (const PlacedText& t : L.title)
        draw_text(dl, t, fonts.bold != nullptr ? fonts.bold : figure_font(fonts, t.font_px), colors.text);
    for (const PlacedText& t : L.annotations)
        draw_haloed_text(dl, t, figure_font(fonts, t.font_px), colors.annotation, colors.halo, k);
    for (const PlacedText& t : L.ref_labels)
        draw_haloed_text(dl, t, figure_font(fonts, t.font_px), colors.ref_label, colors.halo, k);
    for (const PlacedText& t : L.bar_labels) draw_haloed_text(dl, t, figure_font(fonts, t.font_px), colors.text, colors.halo, k);
    for (const EndLabel& e : L.end_labels) {
        const ImU32 color = e.shared ? colors.text : to_u32(plot.series[e.series].color);
        if (e.leader)
            dl.AddLine(to_im(e.from), to_im({e.label.at.x - 0.15 * e.label.font_px, e.label.at.y - 0.36 * e.label.font_px}),
                       color, static_cast<float>(hair));
        draw_text(dl, e.label, figure_font(fonts, e.label.font_px), color);
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
        draw_text(dl, e.label, figure_font(fonts, e.label.font_px), e.faded ? colors.faded : colors.text);
    }
}

}  // namespace

}  // namespace normlab::ui
