// Reads a CSV written by `normlab-cli export --plot NAME --out FILE.csv` back and compares it,
// row by row and bit for bit, with the plot as core builds it from the same scene.
//   check_export_csv SCENE.json NAME FILE.csv   → exit 0 when they agree, 1 (with the first
//   difference on stdout) when not.
//   check_export_csv --named FILE.csv   → only the form: a header "series,x…,y…" (a heat map:
//   "series,row,col,x…,y…,value…"), then rows of its fields whose first (the series) is never
//   empty (for figures whose data vary from run to run, e.g. measured step times).
#include "normlab/base/file_io.hpp"
#include "normlab/scene/scene.hpp"
#include "normlab/scene/scene_plots.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

// One CSV record (RFC 4180 quotes), from `pos` to the end of its line; pos moves past it.
std::vector<std::string> record(const std::string& text, std::size_t& pos) {
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (; pos < text.size(); ++pos) {
        const char c = text[pos];
        if (quoted) {
            if (c == '"' && pos + 1 < text.size() && text[pos + 1] == '"') {
                fields.back() += '"';
                ++pos;
            } else if (c == '"') {
                quoted = false;
            } else {
                fields.back() += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            fields.emplace_back();
        } else if (c == '\n') {
            ++pos;
            break;
        } else {
            fields.back() += c;
        }
    }
    return fields;
}

bool same(double want, const std::string& field) {
    if (!std::isfinite(want)) return field.empty();
    char* end = nullptr;
    const double got = std::strtod(field.c_str(), &end);
    return !field.empty() && *end == '\0' && got == want;
}



// Every row after the header has the header's fields and names its series. Headers:
// "series,x…,y…", or with a heat map "series,row,col,x…,y…,VALUE…" (at least one value).
int check_named(const std::string& text) {
    std::size_t pos = 0;
    const std::vector<std::string> h = record(text, pos);
    const bool plain = h.size() == 3 && h[0] == "series" && h[1].rfind("x", 0) == 0 && h[2].rfind("y", 0) == 0;
    const bool heat = h.size() >= 6 && h[0] == "series" && h[1] == "row" && h[2] == "col" && h[3].rfind("x", 0) == 0 &&
                      h[4].rfind("y", 0) == 0;
    if (!plain && !heat) {
        std::printf("FAIL: the header is neither series,x…,y… nor series,row,col,x…,y…,value…\n");
        return 1;
    }
    for (std::size_t row = 2; pos < text.size(); ++row) {
        const std::vector<std::string> r = record(text, pos);
        if (r.size() != h.size() || r[0].empty()) {
            std::printf("FAIL: row %zu %s\n", row, r.size() != h.size() ? "has not the header's fields" : "names no series");
            return 1;
        }
    }
    return 0;
}

}  // namespace

// A heat map's CSV (plot.hpp, to_csv) against its cells: the header, then each cell's name, row
// and column from 1, its centre and its values, then each series' points, bit for bit.
int check_heat(const normlab::Plot& plot, const std::string& text) {
    const normlab::HeatMap& h = *plot.heat;
    std::size_t pos = 0;
    std::vector<std::string> want = {"series", "row", "col", "x: " + plot.x.label, "y: " + plot.y.label};
    for (const normlab::HeatValues& v : h.values) want.push_back(v.name);
    if (record(text, pos) != want) {
        std::printf("FAIL: the header is not series,row,col,x: X,y: Y,VALUES\n");
        return 1;
    }
    const double dx = (h.x1 - h.x0) / h.cols, dy = (h.y1 - h.y0) / h.rows;
    for (int r = 0; r < h.rows; ++r)
        for (int c = 0; c < h.cols; ++c) {
            const std::vector<std::string> f = record(text, pos);
            bool ok = f.size() == want.size() && f[0] == h.name && !f[0].empty() && f[1] == std::to_string(r + 1) &&
                      f[2] == std::to_string(c + 1) && same(h.x0 + (c + 0.5) * dx, f[3]) && same(h.y0 + (r + 0.5) * dy, f[4]);
            for (std::size_t k = 0; ok && k < h.values.size(); ++k)
                ok = same(h.values[k].v[static_cast<std::size_t>(r * h.cols + c)], f[5 + k]);
            if (!ok) {
                std::printf("FAIL: the cell in row %d, column %d differs\n", r + 1, c + 1);
                return 1;
            }
        }
    // Then the series' points (a decision map's cases), with row, column and values empty.
    std::size_t points = 0;
    for (const normlab::Series& s : plot.series) {
        if (!normlab::drawn(s)) continue;
        for (std::size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i, ++points) {
            const std::vector<std::string> f = record(text, pos);
            bool ok = f.size() == want.size() && f[0] == normlab::series_name(s) && !f[0].empty() && f[1].empty() &&
                      f[2].empty() && same(s.x[i], f[3]) && same(s.y[i], f[4]);
            for (std::size_t k = 5; ok && k < f.size(); ++k) ok = f[k].empty();
            if (!ok) {
                std::printf("FAIL: point %zu of %s differs\n", i + 1, normlab::series_name(s).c_str());
                return 1;
            }
        }
    }
    if (pos != text.size()) {
        std::printf("FAIL: rows after the %d cells and %zu points\n", h.rows * h.cols, points);
        return 1;
    }
    std::printf("ok: %d cells and %zu points read back exactly\n", h.rows * h.cols, points);
    return 0;
}

int main(int argc, char** argv) {
    if (argc == 3 && std::string(argv[1]) == "--named") return check_named(normlab::read_file(argv[2]));
    if (argc != 4) {
        std::fprintf(stderr, "usage: check_export_csv SCENE.json NAME FILE.csv | --named FILE.csv\n");
        return 2;
    }
    const normlab::Scene scene = normlab::load_scene(argv[1]);
    const normlab::Plot plot = normlab::scene_plot(scene, argv[2]);
    const std::string text = normlab::read_file(argv[3]);
    if (plot.heat) return check_heat(plot, text);
    std::size_t pos = 0;
    const auto axis = [](const char* id, const normlab::Axis& a) { return a.label.empty() ? id : id + (": " + a.label); };
    if (record(text, pos) != std::vector<std::string>{"series", axis("x", plot.x), axis("y", plot.y)}) {
        std::printf("FAIL: the header is not series,x: X LABEL,y: Y LABEL\n");
        return 1;
    }
    std::size_t rows = 0;
    for (const normlab::Series& s : plot.series) {
        if (!normlab::drawn(s)) continue;
        for (std::size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i, ++rows) {
            const std::vector<std::string> r = record(text, pos);
            if (r.size() != 3 || r[0] != normlab::series_name(s) || r[0].empty() || !same(s.x[i], r[1]) || !same(s.y[i], r[2])) {
                std::printf("FAIL: row %zu: expected %s,%.17g,%.17g; got %s\n", rows + 2, normlab::series_name(s).c_str(), s.x[i], s.y[i],
                            r.size() == 3 ? (r[0] + "," + r[1] + "," + r[2]).c_str() : "a row of the wrong length");
                return 1;
            }
        }
    }
    if (pos != text.size()) {
        std::printf("FAIL: rows after the %zu expected ones\n", rows);
        return 1;
    }
    if (rows == 0) {
        std::printf("FAIL: no data rows\n");
        return 1;
    }
    std::printf("ok: %zu rows of %s read back exactly\n", rows, argv[2]);
    return 0;
}
