// NormLab core: a Plot as a standalone SVG figure. Every position comes from layout_plot() and
// the series geometry in plot.cpp (the ImGui view draws the same); this file only writes them.
//
// [SECTION] Text and numbers — XML escaping (with UTF-8 repair), compact coordinates
// [SECTION] Primitives        — text, markers, stroke attributes
// [SECTION] to_svg            — background, grid, clipped data, frame, ticks, labels, legend
//
// Paint order: background, grid, reference lines, bars, lines, markers (clipped to the data
// area), frame, ticks, tick labels, axis labels, title, annotations, bar labels, legend.
#include "normlab/plot/plot.hpp"

#include "normlab/base/line_break.hpp"
#include "normlab/base/text.hpp"
#include "plot/plot_internal.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace normlab {

// [SECTION] Text and numbers ----------------------------------------------------------------

// Text as XML character data or attribute value: & < > " ' escaped, characters XML 1.0 does
// not allow dropped (controls other than tab/LF/CR, U+FFFE/U+FFFF), invalid UTF-8 → U+FFFD.
std::string xml_escape(std::string_view s) {
    std::string out;
    out.reserve(s.size() + 8);
    for (std::size_t i = 0; i < s.size();) {
        const char32_t c = next_code_point(s, i);
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&apos;"; break;
        default:
            if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0xFFFE || c == 0xFFFF) break;
            append_utf8(out, c);
        }
    }
    return out;
}

namespace {

// A coordinate or length: at most 2 decimals, no trailing zeros, never "-0", "nan" or "inf".
std::string num(double v) {
    if (!std::isfinite(v)) return "0";
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    std::string s = buf;
    if (s.find('.') != std::string::npos) {
        while (s.back() == '0') s.pop_back();
        if (s.back() == '.') s.pop_back();
    }
    if (s == "-0") s = "0";
    return s;
}

// An id usable in url(#…): letters, digits, '-' and '_' of the plot's name.
std::string svg_id(const std::string& name) {
    std::string id = "normlab-";
    for (char c : name) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
        id += ok ? c : '_';
    }
    return name.empty() ? id + "plot" : id;
}

// [SECTION] Primitives ----------------------------------------------------------------------

constexpr const char* kFont = plot_internal::kSvgFont;
constexpr const char* kFadedColor = "#b0b0b0";   // legend entries of faded series (the app's light_figure().faded)

void text(std::string& o, const PlacedText& t, const char* extra = "") {
    if (t.text.empty()) return;
    const char* anchor = t.anchor == TextAnchor::Middle ? "middle" : t.anchor == TextAnchor::End ? "end" : "start";
    o += "<text x=\"" + num(t.at.x) + "\" y=\"" + num(t.at.y) + "\" font-family=\"" + kFont + "\" font-size=\"" +
         num(t.font_px) + "\" text-anchor=\"" + anchor + "\"";
    if (t.rotate_deg != 0.0)
        o += " transform=\"rotate(" + num(t.rotate_deg) + " " + num(t.at.x) + " " + num(t.at.y) + ")\"";
    o += extra;
    o += ">" + xml_escape(t.text) + "</text>\n";
}

// stroke-dasharray="…" (with a leading space), or nothing for solid lines.
std::string dash_attr(LineStyle style, double width) {
    const std::vector<double> d = dash_pattern(style, width);
    if (d.empty()) return "";
    std::string s = " stroke-dasharray=\"";
    for (std::size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + num(d[i]);
    return s + "\"";
}

double stroke_width(double w) { return std::isfinite(w) && w > 0.0 ? w : 1.0; }

// One marker centred at p, diameter size, filled with colour (circles, squares, triangles and
// diamonds of about equal visual weight; rings stroked; none of them is a <path>).
void marker(std::string& o, Marker m, Point2 p, double size, const std::string& color) {
    const double r = 0.5 * (std::isfinite(size) && size > 0.0 ? size : 7.0);
    switch (m) {
    case Marker::None: return;
    case Marker::Circle:
        o += "<circle cx=\"" + num(p.x) + "\" cy=\"" + num(p.y) + "\" r=\"" + num(r) + "\" fill=\"" + color + "\"/>\n";
        return;
    case Marker::Ring: {
        const double w = 0.2 * r * 2.0;
        o += "<circle cx=\"" + num(p.x) + "\" cy=\"" + num(p.y) + "\" r=\"" + num(r - 0.5 * w) + "\" fill=\"none\" stroke=\"" +
             color + "\" stroke-width=\"" + num(w) + "\"/>\n";
        return;
    }
    case Marker::Square: {
        const double h = 0.88 * r;
        o += "<rect x=\"" + num(p.x - h) + "\" y=\"" + num(p.y - h) + "\" width=\"" + num(2 * h) + "\" height=\"" +
             num(2 * h) + "\" fill=\"" + color + "\"/>\n";
        return;
    }
    case Marker::Triangle: {
        const double h = 1.15 * r;
        o += "<polygon points=\"" + num(p.x) + "," + num(p.y - h) + " " + num(p.x + 0.866 * h) + "," +
             num(p.y + 0.5 * h) + " " + num(p.x - 0.866 * h) + "," + num(p.y + 0.5 * h) + "\" fill=\"" + color + "\"/>\n";
        return;
    }
    case Marker::Diamond: {
        const double h = 1.2 * r;
        o += "<polygon points=\"" + num(p.x) + "," + num(p.y - h) + " " + num(p.x + 0.8 * h) + "," + num(p.y) + " " +
             num(p.x) + "," + num(p.y + h) + " " + num(p.x - 0.8 * h) + "," + num(p.y) + "\" fill=\"" + color + "\"/>\n";
        return;
    }
    }
}

void line(std::string& o, Point2 a, Point2 b) {
    o += "<line x1=\"" + num(a.x) + "\" y1=\"" + num(a.y) + "\" x2=\"" + num(b.x) + "\" y2=\"" + num(b.y) + "\"/>\n";
}

void rect(std::string& o, const Rect& r, const std::string& attributes) {
    o += "<rect x=\"" + num(r.x0) + "\" y=\"" + num(r.y0) + "\" width=\"" + num(r.width()) + "\" height=\"" +
         num(r.height()) + "\" " + attributes + "/>\n";
}

// A heat map's cells (crispEdges: no hairline seams between them).
void heat_map(std::string& o, const PlotLayout& L) {
    if (L.heat_cells.empty()) return;
    o += "<g class=\"heat-map\" shape-rendering=\"crispEdges\">\n";
    for (const HeatCell& c : L.heat_cells) rect(o, c.rect, "fill=\"" + to_hex(c.color) + "\"");
    o += "</g>\n";
}

// The cells' labels (white on dark cells), and the colour bar: its colours top to bottom, a frame, its labels.
void heat_texts(std::string& o, const Plot& plot, const PlotLayout& L) {
    for (const HeatCell& c : L.heat_cells)
        text(o, c.label, is_dark(c.color) ? " class=\"cell-label\" fill=\"#ffffff\"" : " class=\"cell-label\" fill=\"#1e1e1e\"");
    if (!plot.heat || plot.heat->bar.empty() || L.color_bar.height() <= 0.0) return;
    const std::vector<Color>& bar = plot.heat->bar;
    const Rect& b = L.color_bar;
    const double step = b.height() / static_cast<double>(bar.size());
    o += "<g class=\"color-bar\" shape-rendering=\"crispEdges\">\n";
    for (std::size_t i = 0; i < bar.size(); ++i)
        rect(o, {b.x0, b.y0 + double(i) * step, b.x1, b.y0 + double(i + 1) * step}, "fill=\"" + to_hex(bar[i]) + "\"");
    rect(o, b, "fill=\"none\" stroke=\"#000000\" stroke-width=\"1\"");
    for (const PlacedText& t : L.color_bar_labels) text(o, t, " fill=\"#000000\"");
    o += "</g>\n";
}

// The data, clipped to the data area: a heat map, reference lines, bars, lines, markers.
void svg_data(std::string& o, const Plot& plot, const PlotLayout& L, const std::string& id) {
    const Rect& d = L.view.px;
    o += "<g class=\"data\" clip-path=\"url(#" + id + "-data)\">\n";
    heat_map(o, L);
    for (const RefLine& r : plot.ref_lines) {
        const bool horiz = r.orientation == RefLine::Orientation::Horizontal;
        const AxisRange& ax = horiz ? L.view.y : L.view.x;
        const double u = ax.to_unit(r.value);
        if (!std::isfinite(u) || u < 0.0 || u > 1.0) continue;
        const double w = stroke_width(r.width);
        o += "<g class=\"ref-line\" stroke=\"" + to_hex(r.color) + "\" stroke-width=\"" + num(w) + "\"" +
             dash_attr(r.line, w) + ">";
        if (horiz) {
            const double y = d.y1 - u * d.height();
            line(o, {d.x0, y}, {d.x1, y});
        } else {
            const double x = d.x0 + u * d.width();
            line(o, {x, d.y0}, {x, d.y1});
        }
        o += "</g>\n";
    }
    for (std::size_t k = 0; k < plot.series.size(); ++k) {
        const Series& s = plot.series[k];
        if (!drawn(s) || s.kind != SeriesKind::Bars) continue;
        const std::vector<Rect> bars = series_bars(plot, k, L.view);
        const std::string paint = s.overlay ? "fill=\"none\" stroke=\"" + to_hex(s.color) + "\" stroke-width=\"2\""
                                            : "fill=\"" + to_hex(s.color) + "\"";
        o += "<g class=\"series-bars\" data-series=\"" + std::to_string(k) + "\" " + paint + ">\n";
        for (const Rect& b : bars)
            o += "<rect x=\"" + num(b.x0) + "\" y=\"" + num(b.y0) + "\" width=\"" + num(b.width()) + "\" height=\"" +
                 num(b.height()) + "\"/>\n";
        o += "</g>\n";
    }
    for (std::size_t k = 0; k < plot.series.size(); ++k) {
        const Series& s = plot.series[k];
        if (!drawn(s) || s.kind != SeriesKind::Line) continue;
        const auto lines = series_polylines(s, L.view);
        if (lines.empty()) continue;
        const double w = stroke_width(s.width);
        std::string dpath;
        for (const auto& pl : lines)
            for (std::size_t i = 0; i < pl.size(); ++i)
                dpath += (i == 0 ? (dpath.empty() ? "M" : " M") : " L") + num(pl[i].x) + " " + num(pl[i].y);
        o += "<path class=\"series-line\" data-series=\"" + std::to_string(k) + "\" d=\"" + dpath +
             "\" fill=\"none\" stroke=\"" + to_hex(s.color) + "\" stroke-width=\"" + num(w) +
             "\" stroke-linejoin=\"round\" stroke-linecap=\"butt\"" + dash_attr(s.line, w) + "/>\n";
    }
    for (std::size_t k = 0; k < plot.series.size(); ++k) {
        const Series& s = plot.series[k];
        if (!drawn(s)) continue;
        const std::vector<Point2> pts = series_markers(s, L.view);
        if (pts.empty()) continue;
        const std::string color = to_hex(s.color);
        o += "<g class=\"series-markers\" data-series=\"" + std::to_string(k) + "\">\n";
        for (const Point2& p : pts) {
            if (s.halo) marker(o, Marker::Circle, p, s.marker_size + 2.0, "#ffffff");
            marker(o, effective_marker(s), p, s.marker_size, color);
        }
        o += "</g>\n";
    }
    o += "</g>\n";
}

// The legend. Entries of faded series (hidden by a viewer) are grey, in a <g class="faded">.
void svg_legend(std::string& o, const Plot& plot, const PlotLayout& L) {
    if (!L.has_legend) return;
    const Rect& b = L.legend_box;
    o += "<g class=\"legend\">\n";
    o += "<rect x=\"" + num(b.x0) + "\" y=\"" + num(b.y0) + "\" width=\"" + num(b.width()) + "\" height=\"" +
         num(b.height()) + "\" fill=\"#ffffff\" fill-opacity=\"0.9\" stroke=\"#b0b0b0\" stroke-width=\"0.8\"/>\n";
    for (const LegendEntry& e : L.legend) {
        const Series& s = plot.series[e.series];
        const std::string color = e.faded ? kFadedColor : to_hex(s.color);
        if (e.faded) o += "<g class=\"faded\">\n";
        const Point2 mid{0.5 * (e.swatch_from.x + e.swatch_to.x), e.swatch_from.y};
        if (s.kind == SeriesKind::Bars) {
            const double h = 0.5 * L.legend.front().label.font_px;
            o += "<rect x=\"" + num(mid.x - h) + "\" y=\"" + num(mid.y - h) + "\" width=\"" + num(2 * h) +
                 "\" height=\"" + num(2 * h) + "\" " +
                 (s.overlay ? "fill=\"none\" stroke=\"" + color + "\" stroke-width=\"2\"" : "fill=\"" + color + "\"") + "/>\n";
        } else {
            if (s.kind == SeriesKind::Line) {
                const double w = stroke_width(s.width);
                o += "<g stroke=\"" + color + "\" stroke-width=\"" + num(w) + "\"" + dash_attr(s.line, w) + ">";
                line(o, e.swatch_from, e.swatch_to);
                o += "</g>\n";
            }
            marker(o, effective_marker(s), mid, s.marker_size, color);
        }
        text(o, e.label, (" fill=\"" + (e.faded ? std::string(kFadedColor) : "#000000") + "\"").c_str());
        if (e.faded) o += "</g>\n";
    }
    o += "</g>\n";
}

}  // namespace

// [SECTION] to_svg --------------------------------------------------------------------------

std::string to_svg(const Plot& plot, double width_px, double height_px) {
    const double W = std::isfinite(width_px) && width_px >= 50.0 ? width_px : 720.0;
    const double H = std::isfinite(height_px) && height_px >= 50.0 ? height_px : 450.0;
    const PlotStyle style;
    const PlotLayout L = layout_plot(plot, Rect{0.0, 0.0, W, H}, style);
    const Rect& d = L.view.px;
    const std::string id = svg_id(plot.name);

    std::string o;
    o.reserve(16384);
    o += "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n";
    o += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + num(W) + "\" height=\"" + num(H) +
         "\" viewBox=\"0 0 " + num(W) + " " + num(H) + "\" font-family=\"" + kFont + "\">\n";
    const std::string& title = plot.title.empty() ? plot.name : plot.title;
    if (!title.empty()) o += "<title>" + xml_escape(title) + "</title>\n";
    if (!plot.caption.empty()) o += "<desc>" + xml_escape(plot.caption) + "</desc>\n";
    o += "<defs><clipPath id=\"" + id + "-data\"><rect x=\"" + num(d.x0) + "\" y=\"" + num(d.y0) + "\" width=\"" +
         num(d.width()) + "\" height=\"" + num(d.height()) + "\"/></clipPath></defs>\n";
    o += "<rect x=\"0\" y=\"0\" width=\"" + num(W) + "\" height=\"" + num(H) + "\" fill=\"#ffffff\"/>\n";

    // Grid at the major ticks.
    o += "<g class=\"grid\" stroke=\"#e3e3e3\" stroke-width=\"1\" fill=\"none\">\n";
    for (const PlacedTick& t : L.x_ticks)
        if (t.tick.major) line(o, {t.pos, d.y0}, {t.pos, d.y1});
    for (const PlacedTick& t : L.y_ticks)
        if (t.tick.major) line(o, {d.x0, t.pos}, {d.x1, t.pos});
    o += "</g>\n";

    svg_data(o, plot, L, id);

    // Frame and ticks (outward; minor ticks shorter).
    o += "<rect class=\"frame\" x=\"" + num(d.x0) + "\" y=\"" + num(d.y0) + "\" width=\"" + num(d.width()) +
         "\" height=\"" + num(d.height()) + "\" fill=\"none\" stroke=\"#000000\" stroke-width=\"1\"/>\n";
    const double major_len = style.tick_length, minor_len = 0.6 * style.tick_length;
    o += "<g class=\"ticks\" stroke=\"#000000\" stroke-width=\"1\">\n";
    for (const PlacedTick& t : L.x_ticks)
        line(o, {t.pos, d.y1}, {t.pos, d.y1 + (t.tick.major ? major_len : minor_len)});
    for (const PlacedTick& t : L.y_ticks)
        line(o, {d.x0, t.pos}, {d.x0 - (t.tick.major ? major_len : minor_len), t.pos});
    o += "</g>\n";

    // Text: tick labels, axis labels, title, annotations, reference-line labels.
    o += "<g class=\"tick-labels\" fill=\"#000000\">\n";
    for (const PlacedText& t : L.x_tick_labels) text(o, t);
    for (const PlacedText& t : L.y_tick_labels) text(o, t);
    o += "</g>\n";
    text(o, L.x_label, " class=\"x-label\" fill=\"#000000\"");
    for (const PlacedText& t : L.y_label) text(o, t, " class=\"y-label\" fill=\"#000000\"");
    for (const PlacedText& t : L.title) text(o, t, " class=\"title\" fill=\"#000000\" font-weight=\"bold\"");
    // Annotations and reference-line labels sit on the data: a white halo keeps them legible.
    const char* halo = " stroke=\"#ffffff\" stroke-width=\"3\" stroke-linejoin=\"round\" paint-order=\"stroke\"";
    for (const PlacedText& t : L.annotations)
        text(o, t, (std::string(" class=\"annotation\" fill=\"#222222\"") + halo).c_str());
    for (const PlacedText& t : L.ref_labels)
        text(o, t, (std::string(" class=\"ref-label\" fill=\"#444444\"") + halo).c_str());
    for (const PlacedText& t : L.bar_labels)
        text(o, t, (std::string(" class=\"bar-label\" fill=\"#000000\"") + halo).c_str());
    for (const EndLabel& e : L.end_labels) {
        const std::string fill = e.shared ? "#000000" : to_hex(plot.series[e.series].color);
        if (e.leader) {
            o += "<g class=\"end-leader\" stroke=\"" + fill + "\" stroke-width=\"1\">";
            line(o, e.from, {e.label.at.x - 0.15 * e.label.font_px, e.label.at.y - 0.36 * e.label.font_px});
            o += "</g>\n";
        }
        text(o, e.label, (" class=\"end-label\" fill=\"" + fill + "\"").c_str());
    }
    heat_texts(o, plot, L);

    svg_legend(o, plot, L);
    o += "</svg>\n";
    return plot_internal::with_cjk_fonts(std::move(o));
}

namespace plot_internal {

std::string with_cjk_fonts(std::string svg) {
    bool cjk = false, hangul = false;
    for (std::size_t i = 0; i < svg.size();) {
        const char32_t c = next_code_point(svg, i);
        cjk = cjk || is_wide_char(c);
        hangul = hangul || (c >= 0xAC00 && c <= 0xD7A3);
    }
    if (!cjk) return svg;
    const std::string stack = hangul ? "DejaVu Sans, Noto Sans CJK KR, Noto Sans CJK SC, sans-serif"
                                     : "DejaVu Sans, Noto Sans CJK SC, Noto Sans CJK KR, sans-serif";
    const std::string from(kSvgFont);
    for (std::size_t at = svg.find(from); at != std::string::npos; at = svg.find(from, at + stack.size()))
        svg.replace(at, from.size(), stack);
    return svg;
}

}  // namespace plot_internal

}  // namespace normlab
