// NormLab core: a Plot's data as CSV, long form (series, x, y: one row per point), the header
// naming the axes ("series,x: δ,y: ‖y′ − y‖ / ‖y‖") so that the file stands alone.
// Numbers keep full double precision (%.17g reads back bit for bit); NaN and ±inf become empty
// fields; labels are quoted as RFC 4180 asks when they hold a comma, a quote, CR or LF.
#include "normlab/plot/plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace normlab {

std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

namespace {

std::string csv_number(double v) {
    if (!std::isfinite(v)) return "";
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

}  // namespace

std::string csv_header(const Plot& plot) {
    const auto axis = [](const char* id, const Axis& a) { return csv_field(a.label.empty() ? id : id + (": " + a.label)); };
    if (!plot.heat) return "series," + axis("x", plot.x) + "," + axis("y", plot.y) + "\n";
    std::string values;
    for (const HeatValues& v : plot.heat->values) values += "," + csv_field(v.name);
    return "series,row,col," + axis("x", plot.x) + "," + axis("y", plot.y) + values + "\n";
}

namespace {

// A heat map's cells: its name, row and column (from 1), the cell's centre, its values.
void heat_rows(std::string& out, const HeatMap& h) {
    const double dx = (h.x1 - h.x0) / std::max(1, h.cols), dy = (h.y1 - h.y0) / std::max(1, h.rows);
    const std::string name = csv_field(h.name);
    for (int r = 0; r < h.rows; ++r)
        for (int c = 0; c < h.cols; ++c) {
            const auto i = static_cast<std::size_t>(r) * static_cast<std::size_t>(h.cols) + static_cast<std::size_t>(c);
            out += name + "," + std::to_string(r + 1) + "," + std::to_string(c + 1) + "," + csv_number(h.x0 + (c + 0.5) * dx) +
                   "," + csv_number(h.y0 + (r + 0.5) * dy);
            for (const HeatValues& v : h.values) out += "," + (i < v.v.size() ? csv_number(v.v[i]) : "");
            out += "\n";
        }
}

}  // namespace

std::string to_csv(const Plot& plot) {
    std::string out = csv_header(plot);
    if (plot.heat) heat_rows(out, *plot.heat);
    // With a heat map, points leave its row, column and values empty.
    const std::string cells = plot.heat ? ",," : "";
    const std::string no_values = plot.heat ? std::string(plot.heat->values.size(), ',') : "";
    for (const Series& s : plot.series) {
        if (!drawn(s)) continue;
        const std::string label = csv_field(series_name(s));
        const std::size_t n = std::min(s.x.size(), s.y.size());
        for (std::size_t i = 0; i < n; ++i)
            out += label + cells + "," + csv_number(s.x[i]) + "," + csv_number(s.y[i]) + no_values + "\n";
    }
    return out;
}

}  // namespace normlab
