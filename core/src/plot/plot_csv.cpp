// NormLab core: a Plot's data as CSV, long form ("series,x,y", one row per point).
// Numbers keep full double precision (%.17g reads back bit for bit); NaN and ±inf become empty
// fields; labels are quoted as RFC 4180 asks when they hold a comma, a quote, CR or LF.
#include "normlab/plot/plot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace normlab {

namespace {

std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

std::string csv_number(double v) {
    if (!std::isfinite(v)) return "";
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

}  // namespace

std::string to_csv(const Plot& plot) {
    std::string out = "series,x,y\n";
    for (const Series& s : plot.series) {
        if (!drawn(s)) continue;
        const std::string label = csv_field(s.label);
        const std::size_t n = std::min(s.x.size(), s.y.size());
        for (std::size_t i = 0; i < n; ++i) out += label + "," + csv_number(s.x[i]) + "," + csv_number(s.y[i]) + "\n";
    }
    return out;
}

}  // namespace normlab
