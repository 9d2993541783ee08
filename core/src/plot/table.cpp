// NormLab core: tables and their writers (see table.hpp).
//
// [SECTION] Tones
// [SECTION] CSV and Markdown
// [SECTION] LaTeX (booktabs)
// [SECTION] SVG
#include "normlab/plot/table.hpp"

#include "plot/plot_internal.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace normlab {

// [SECTION] Tones ---------------------------------------------------------------------------

Color tone_fill(CellTone tone) {
    switch (tone) {
    case CellTone::Pass: return {214, 240, 220};   // pale green
    case CellTone::Fail: return {252, 222, 218};   // pale red
    case CellTone::Plain: break;
    }
    return {255, 255, 255};
}

Color tone_text(CellTone tone) {
    switch (tone) {
    case CellTone::Pass: return {13, 128, 38};
    case CellTone::Fail: return {191, 13, 13};
    case CellTone::Plain: break;
    }
    return {0, 0, 0};
}

namespace {

// Row r's cell c, or an empty cell where the row is short.
const TableCell& cell(const Table& t, std::size_t r, std::size_t c) {
    static const TableCell kEmpty;
    return c < t.rows[r].size() ? t.rows[r][c] : kEmpty;
}

void replace_all(std::string& s, const std::string& from, const std::string& to) {
    for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
}

}  // namespace

// [SECTION] CSV and Markdown ----------------------------------------------------------------

std::string table_to_csv(const Table& t) {
    std::string out;
    for (std::size_t c = 0; c < t.columns.size(); ++c) out += (c > 0 ? "," : "") + csv_field(t.columns[c]);
    out += "\n";
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
        for (std::size_t c = 0; c < t.columns.size(); ++c) {
            const TableCell& x = cell(t, r, c);
            out += (c > 0 ? "," : "") + csv_field(x.flagged ? x.text + " (!)" : x.text);
        }
        out += "\n";
    }
    return out;
}

namespace {

std::string markdown_cell(std::string s) {
    std::string out;
    for (char ch : s) {
        if (ch == '|' || ch == '\\') out += '\\';
        out += (ch == '\n' || ch == '\r') ? ' ' : ch;
    }
    return out;
}

}  // namespace

std::string table_to_markdown(const Table& t) {
    std::string out;
    if (!t.title.empty()) out += "**" + markdown_cell(t.title) + "**\n\n";
    const auto row = [&](const std::vector<std::string>& cells) {
        out += "|";
        for (const std::string& c : cells) out += " " + c + " |";
        out += "\n";
    };
    std::vector<std::string> header, rule;
    for (const std::string& c : t.columns) header.push_back(markdown_cell(c));
    for (std::size_t c = 0; c < t.columns.size(); ++c) rule.push_back(c == 0 ? ":---" : ":---:");
    row(header);
    row(rule);
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
        std::vector<std::string> cells;
        for (std::size_t c = 0; c < t.columns.size(); ++c) {
            const TableCell& x = cell(t, r, c);
            const std::string text = markdown_cell(x.text);
            cells.push_back(x.flagged && !text.empty() ? "**" + text + "**" : text);
        }
        row(cells);
    }
    if (!t.note.empty()) out += "\n" + markdown_cell(t.note) + "\n";
    return out;
}

// [SECTION] LaTeX (booktabs) ----------------------------------------------------------------

namespace {

std::string latex_text(const std::string& s) {
    std::string out;
    for (char ch : s) {
        switch (ch) {
        case '&': case '%': case '$': case '#': case '_': case '{': case '}': out += '\\'; out += ch; break;
        case '~': out += "\\textasciitilde{}"; break;
        case '^': out += "\\textasciicircum{}"; break;
        case '\\': out += "\\textbackslash{}"; break;
        case '\n': case '\r': out += ' '; break;
        default: out += ch;
        }
    }
    replace_all(out, "✓", "\\checkmark{}");
    replace_all(out, "✗", "\\texttimes{}");
    return out;
}

std::string latex_color(Color c) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "\\cellcolor[RGB]{%d,%d,%d}", c.r, c.g, c.b);
    return buf;
}

}  // namespace

std::string table_to_latex(const Table& t) {
    std::string out =
        "% NormLab table " + t.name + ". Needs: \\usepackage{booktabs,amssymb}, \\usepackage[table]{xcolor};\n"
        "% UTF-8 symbols: XeLaTeX or LuaLaTeX (or newunicodechar).\n"
        "\\begin{table}\n\\centering\n";
    if (!t.title.empty()) out += "\\caption{" + latex_text(t.title) + "}\n";
    if (!t.name.empty()) out += "\\label{tab:" + latex_text(t.name) + "}\n";
    out += "\\begin{tabular}{l" + std::string(t.columns.empty() ? 0 : t.columns.size() - 1, 'c') + "}\n\\toprule\n";
    for (std::size_t c = 0; c < t.columns.size(); ++c) out += (c > 0 ? " & " : "") + latex_text(t.columns[c]);
    out += " \\\\\n\\midrule\n";
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
        for (std::size_t c = 0; c < t.columns.size(); ++c) {
            const TableCell& x = cell(t, r, c);
            std::string text = latex_text(x.text);
            if (x.flagged && !text.empty()) text = "\\textbf{" + text + "}";
            out += (c > 0 ? " & " : "") + (x.tone != CellTone::Plain ? latex_color(tone_fill(x.tone)) + " " : "") + text;
        }
        out += " \\\\\n";
    }
    out += "\\bottomrule\n\\end{tabular}\n";
    if (!t.note.empty()) out += "\\par\\smallskip{\\footnotesize " + latex_text(t.note) + "}\n";
    return out + "\\end{table}\n";
}

// [SECTION] SVG -----------------------------------------------------------------------------

namespace {

constexpr double kFontPx = 13.0, kTitlePx = 15.0, kPadPx = 8.0, kRowPx = 26.0, kMarginPx = 12.0;

std::string px(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

std::string svg_text(double x, double y, const std::string& s, const char* anchor, Color color, double size,
                     bool bold = false) {
    return "<text x=\"" + px(x) + "\" y=\"" + px(y) + "\" font-size=\"" + px(size) + "\" text-anchor=\"" + anchor +
           "\" fill=\"" + to_hex(color) + "\"" + (bold ? " font-weight=\"bold\"" : "") + ">" + xml_escape(s) +
           "</text>\n";
}

// Column widths: the widest text of each column (header or cell), padded.
std::vector<double> column_widths(const Table& t) {
    std::vector<double> w(t.columns.size(), 0.0);
    for (std::size_t c = 0; c < t.columns.size(); ++c) {
        w[c] = estimate_text_width(t.columns[c], kFontPx);
        for (std::size_t r = 0; r < t.rows.size(); ++r)
            w[c] = std::max(w[c], estimate_text_width(cell(t, r, c).text, kFontPx));
        w[c] += 2.0 * kPadPx;
    }
    return w;
}

}  // namespace

std::string table_to_svg(const Table& t) {
    const std::vector<double> widths = column_widths(t);
    double table_w = 0.0;
    for (double w : widths) table_w += w;
    const double title_h = t.title.empty() ? 0.0 : kTitlePx + kPadPx;
    const double note_h = t.note.empty() ? 0.0 : kFontPx + kPadPx;
    const double W = std::ceil(std::max({table_w, estimate_text_width(t.title, kTitlePx) * 1.0,
                                         estimate_text_width(t.note, kFontPx)}) + 2.0 * kMarginPx);
    const double H = std::ceil(title_h + kRowPx * static_cast<double>(t.rows.size() + 1) + note_h + 2.0 * kMarginPx);
    std::string o = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" +
                    px(W) + "\" height=\"" + px(H) + "\" viewBox=\"0 0 " + px(W) + " " + px(H) +
                    "\" font-family=\"" + plot_internal::kSvgFont + "\">\n";
    if (!t.title.empty()) o += "<title>" + xml_escape(t.title) + "</title>\n";
    if (!t.caption.empty()) o += "<desc>" + xml_escape(t.caption) + "</desc>\n";
    o += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
    double y = kMarginPx;
    if (!t.title.empty()) o += svg_text(kMarginPx, y + 0.8 * kTitlePx, t.title, "start", {0, 0, 0}, kTitlePx, true);
    y += title_h;
    const auto row_text = [&](std::size_t c, double x0, double yy, const std::string& s, Color color, bool bold) {
        const bool first = c == 0;
        return svg_text(first ? x0 + kPadPx : x0 + 0.5 * widths[c], yy + 0.5 * kRowPx + 0.35 * kFontPx, s,
                        first ? "start" : "middle", color, kFontPx, bold);
    };
    double x = kMarginPx;
    for (std::size_t c = 0; c < t.columns.size(); x += widths[c], ++c)
        o += row_text(c, x, y, t.columns[c], {0, 0, 0}, true);
    y += kRowPx;
    o += "<line x1=\"" + px(kMarginPx) + "\" y1=\"" + px(y) + "\" x2=\"" + px(kMarginPx + table_w) + "\" y2=\"" + px(y) +
         "\" stroke=\"#000000\" stroke-width=\"1\"/>\n";
    for (std::size_t r = 0; r < t.rows.size(); ++r, y += kRowPx) {
        x = kMarginPx;
        for (std::size_t c = 0; c < t.columns.size(); x += widths[c], ++c) {
            const TableCell& k = cell(t, r, c);
            if (k.tone != CellTone::Plain || k.flagged)
                o += "<rect class=\"cell\" x=\"" + px(x + 1) + "\" y=\"" + px(y + 1) + "\" width=\"" + px(widths[c] - 2) +
                     "\" height=\"" + px(kRowPx - 2) + "\" fill=\"" + to_hex(tone_fill(k.tone)) + "\"" +
                     (k.flagged ? " stroke=\"" + to_hex(kFlagOutline) + "\" stroke-width=\"2.5\"" : std::string()) + "/>\n";
            o += row_text(c, x, y, k.text, tone_text(k.tone), c == 0);
        }
    }
    o += "<line x1=\"" + px(kMarginPx) + "\" y1=\"" + px(y) + "\" x2=\"" + px(kMarginPx + table_w) + "\" y2=\"" + px(y) +
         "\" stroke=\"#000000\" stroke-width=\"1\"/>\n";
    if (!t.note.empty()) o += svg_text(kMarginPx, y + kPadPx + 0.8 * kFontPx, t.note, "start", {90, 90, 90}, kFontPx);
    return plot_internal::with_cjk_fonts(o + "</svg>\n");
}

}  // namespace normlab
