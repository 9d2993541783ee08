// Reads a CSV written by `normlab-cli export --plot NAME --out FILE.csv` back and compares it,
// row by row and bit for bit, with the plot as core builds it from the same scene.
//   check_export_csv SCENE.json NAME FILE.csv   → exit 0 when they agree, 1 (with the first
//   difference on stdout) when not.
#include "normlab/base/file_io.hpp"
#include "normlab/scene/scene.hpp"
#include "normlab/scene/scene_plots.hpp"

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

}  // namespace

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: check_export_csv SCENE.json NAME FILE.csv\n");
        return 2;
    }
    const normlab::Scene scene = normlab::load_scene(argv[1]);
    const normlab::Plot plot = normlab::scene_plot(scene, argv[2]);
    const std::string text = normlab::read_file(argv[3]);
    std::size_t pos = 0;
    if (record(text, pos) != std::vector<std::string>{"series", "x", "y"}) {
        std::printf("FAIL: the header is not series,x,y\n");
        return 1;
    }
    std::size_t rows = 0;
    for (const normlab::Series& s : plot.series) {
        if (!s.visible) continue;
        for (std::size_t i = 0; i < std::min(s.x.size(), s.y.size()); ++i, ++rows) {
            const std::vector<std::string> r = record(text, pos);
            if (r.size() != 3 || r[0] != s.label || !same(s.x[i], r[1]) || !same(s.y[i], r[2])) {
                std::printf("FAIL: row %zu: expected %s,%.17g,%.17g; got %s\n", rows + 2, s.label.c_str(), s.x[i], s.y[i],
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
