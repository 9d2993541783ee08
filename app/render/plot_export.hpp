// Figures to files: file names, SVG/CSV files, the offscreen PNG renderer, a lab's figures at once
// (the right-click menus that save them: kit/export_menus.hpp).
//
// A PNG at K× is not a screenshot: the plot is laid out again with scaled(PlotStyle{}, K) in a
// K-times larger rectangle, painted by draw_figure() into an ImDrawList of a private ImGui
// context whose font atlas holds DejaVu Sans at exactly the K× sizes, rendered by ImGui's own
// OpenGL3 backend into a framebuffer object and read back. Text and lines are therefore sharp
// at every scale, and the layout is the SVG's (same style, same size at 1×). Exports are always
// light: white background, black text, whatever the app's theme.
#pragma once

#include <normlab/base/file_io.hpp>
#include <normlab/plot/plot.hpp>
#include <normlab/plot/table.hpp>

#include <string>
#include <vector>

namespace normlab::ui {

inline constexpr int kMaxExportScale = 4;
// The 1× size of a figure saved without a view (normlab --export-plot, Export all figures):
// to_svg()'s default.
inline constexpr int kDefaultFigureWidth = 720, kDefaultFigureHeight = 450;

// "DIR/NAME.EXT": NAME is `name` made file-safe (letters, digits, '-', '_' and '.' kept, any
// other byte becomes '_', no leading '.'; empty: "plot"); an empty dir means the current folder.
std::string figure_path(const std::string& dir, const std::string& name, const std::string& ext);

// The plots' names made unique for files in one folder: the second "loss" becomes "loss_2";
// an empty name becomes "figure_N" (N: its 1-based position).
std::vector<std::string> unique_figure_names(const std::vector<Plot>& plots);

// Writes text with write_file_atomically; returns "" or a one-line error (with IfExists::Refuse,
// "… a file of that name exists (not replaced)" when one does).
std::string save_text_file(const std::string& path, const std::string& text, IfExists if_exists);

// The plot as a PNG of (scale·base_w) × (scale·base_h) pixels, rendered offscreen (see above),
// written to `path` atomically. Needs the app's GL 3.3 context current and ImGui's OpenGL3
// backend initialised; may be called in the middle of an ImGui frame. Returns "" or a
// one-line error (scale outside 1..kMaxExportScale, a size the GPU cannot render, GL or
// file errors).
std::string save_plot_png(const Plot& plot, int base_w, int base_h, int scale, const std::string& path,
                          IfExists if_exists);

// The same PNG's bytes in `png` (no file), e.g. for normlab-cli's headless export (headless_gl.hpp).
std::string encode_plot_png(const Plot& plot, int base_w, int base_h, int scale, std::string& png);

// Where exports go when a view names no folder of its own (PlotView::export_dir): File ▸ Export
// folder… sets it for the session; empty (the default): the current folder.
void set_export_folder(std::string dir);
const std::string& export_folder();

// Every plot as NAME.png (scale×), NAME.svg at the default size and NAME.csv into `dir` (created
// if missing; empty: the current folder), names from unique_figure_names(); a name taken by a
// file already there gets "-2", "-3", … (unused_file_name), nothing is replaced. Returns "Saved N
// figures (PNG 2× + SVG + CSV) to DIR" or "⚠ …" with the first error.
std::string export_figures(const std::vector<Plot>& plots, const std::string& dir, int scale);

// The same export one figure at a time, so that it can run over frames (File ▸ Export all
// figures: the window stays responsive and a progress bar shows how far it is). step() writes
// the next figure's three files, then each of `tables` as SVG, CSV, Markdown and LaTeX (as
// normlab-cli export --all does); it stops at the first error.
class FigureExport {
public:
    FigureExport(std::vector<Plot> plots, std::string dir, int scale, std::vector<Table> tables = {});
    void step();
    bool done() const { return !error_.empty() || next_ >= total(); }
    std::size_t written() const { return next_; }
    std::size_t total() const { return plots_.size() + tables_.size(); }
    std::string status() const;   // export_figures' message, once done()

private:
    void write_table(const Table& table);

    std::vector<Plot> plots_;
    std::vector<Table> tables_;
    std::vector<std::string> names_;
    std::string dir_;
    int scale_;
    std::size_t next_ = 0;
    std::string error_;
};

}  // namespace normlab::ui
