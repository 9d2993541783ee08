// The layout checker's record of a figure the plot view draws (layout_check.hpp): every text
// where the painter (plot_painter.hpp) puts it, and the data it paints.
#include "plot_record.hpp"

#include "layout_check.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace normlab::ui {

namespace {

// The layout checker's record of a text as draw_figure() places it: its box turned about its
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

}  // namespace

void record_figure_texts(const PlotLayout& L, const FigureFonts& fonts, const ImVec4& clip, std::string_view name) {
    const Rect& o = L.outer;
    const ImVec4 frame(static_cast<float>(o.x0), static_cast<float>(o.y0), static_cast<float>(o.x1),
                       static_cast<float>(o.y1));
    const auto record = [&](const PlacedText& t, ImFont* font) { record_placed(t, font, clip, frame, false, name); };
    for (const auto* texts : {&L.x_tick_labels, &L.y_tick_labels})
        for (const PlacedText& t : *texts) record_placed(t, figure_font(fonts, t.font_px), clip, frame);
    for (const auto* texts : {&L.annotations, &L.color_bar_labels})
        for (const PlacedText& t : *texts) record(t, figure_font(fonts, t.font_px));
    // Labels of the data they sit on: a bar's value, a reference line's name, a cell's value.
    for (const auto* texts : {&L.ref_labels, &L.bar_labels})
        for (const PlacedText& t : *texts) record_placed(t, figure_font(fonts, t.font_px), clip, frame, true, name);
    for (const HeatCell& c : L.heat_cells) record_placed(c.label, figure_font(fonts, c.label.font_px), clip, frame, true, name);
    for (const EndLabel& e : L.end_labels) record(e.label, figure_font(fonts, e.label.font_px));
    record_placed(L.x_label, figure_font(fonts, L.x_label.font_px), clip, frame);
    for (const PlacedText& t : L.y_label) record_placed(t, figure_font(fonts, t.font_px), clip, frame);
    for (const PlacedText& t : L.title)
        record_placed(t, fonts.bold != nullptr ? fonts.bold : figure_font(fonts, t.font_px), clip, frame);
    if (L.has_legend)
        for (const LegendEntry& e : L.legend) record(e.label, figure_font(fonts, e.label.font_px));
}

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

}  // namespace normlab::ui
