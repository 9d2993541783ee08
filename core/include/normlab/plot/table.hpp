// NormLab core: a table as plain data (a figure kind beside Plot), and its writers: CSV,
// Markdown, LaTeX (booktabs) and a standalone SVG. docs/ARCHITECTURE.md: figures.
//
// [SECTION] Description — Table, TableCell, their tones (✓ pale green, ✗ pale red, flagged amber)
// [SECTION] Writers     — CSV, Markdown, LaTeX, SVG
//
// The Invariance lab's measured and paper tables are built here (invariance_lab.hpp), listed with
// the scene's figures (scene_plots.hpp) and written by `normlab-cli export` in every format. Text
// is UTF-8 (✓, ✗, δ, ‖y′ − y‖ …); every writer escapes what its format needs.
#pragma once

#include "normlab/plot/plot.hpp"

#include <string>
#include <vector>

namespace normlab {

// [SECTION] Description ---------------------------------------------------------------------

// What a cell says beyond its text, drawn as its background: Pass (✓) pale green, Fail (✗) pale
// red. A flagged cell (e.g. it disagrees with the paper) also gets an amber outline.
enum class CellTone { Plain, Pass, Fail };

struct TableCell {
    std::string text;
    CellTone tone = CellTone::Plain;
    bool flagged = false;
};

// Rows of cells under one header row; the first column names the row. Rows shorter than the
// header are padded with empty cells by the writers; extra cells are dropped.
struct Table {
    std::string name;      // file-safe id, e.g. "invariance_table_measured" (CLI names, SVG ids)
    std::string title;     // above the table (SVG, Markdown heading); the caption as in Plot
    std::string caption;
    std::vector<std::string> columns;
    std::vector<std::vector<TableCell>> rows;
    std::string note;      // a line under the table (e.g. what a flag means); may be empty
};

// Background and text colours of a tone (the same in every writer and on screen).
Color tone_fill(CellTone tone);     // Plain: white
Color tone_text(CellTone tone);     // Pass: dark green, Fail: dark red, Plain: black
inline constexpr Color kFlagOutline{240, 170, 0};   // amber

// [SECTION] Writers -------------------------------------------------------------------------

// CSV (RFC 4180): the header row, then one record per row, cells as their text; a flagged cell
// ends in " (!)". Lines end with "\n".
std::string table_to_csv(const Table& t);

// A GitHub-flavoured Markdown table ('|' and '\' escaped, newlines as spaces), the title as a
// "**bold**" line above it and the note below; flagged cells in **bold**.
std::string table_to_markdown(const Table& t);

// A LaTeX `table` with booktabs rules (\toprule, \midrule, \bottomrule), the title as \caption and
// `name` as \label. ✓ and ✗ become \checkmark and \texttimes (amssymb), Pass/Fail cells are
// coloured with \cellcolor (xcolor with the table option), flagged cells are \textbf; special
// characters (& % $ # _ { } ~ ^ \) are escaped. Other UTF-8 (δ, ‖, ′) stays: compile with
// XeLaTeX or LuaLaTeX, or declare them with newunicodechar. The preamble it needs is a comment
// at the top.
std::string table_to_latex(const Table& t);

// A standalone SVG 1.1 table (the fonts and XML escaping of to_svg): title, header row, rows with
// their tone fills and flag outlines, the note. Its size follows the text (estimate_text_width).
std::string table_to_svg(const Table& t);

}  // namespace normlab
