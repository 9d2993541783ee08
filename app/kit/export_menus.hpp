// The right-click menus that save what the user sees into the export folder (plot_export.hpp):
// a figure drawn by its own widget, a table; and the note of every figure the screen offers.
#pragma once

#include <normlab/plot/plot.hpp>
#include <normlab/plot/table.hpp>

#include <functional>
#include <string>
#include <vector>

namespace normlab::ui {

// The right-click menu of a figure drawn by its own widget as the last item (e.g. the Explorer's
// W editor, drawn from the same colours as its Plot): Save PNG (2×), SVG or CSV of `figure()`
// (computed when chosen; its name is `name`) into export_folder(), never over a file. Returns
// the status line, as table_context_menu does.
std::string figure_context_menu(const char* id, const std::string& name, const std::function<Plot()>& figure);

// The right-click menu of a table drawn as the last item (its whole area): Save SVG, CSV,
// Markdown or LaTeX of each of `tables()` (computed when chosen; their names are `names`) into
// export_folder(), never over a file. Returns the status line ("Saved DIR/NAME.md", "⚠ Not saved:
// …"), "" when nothing was chosen. Call right after the item, every frame.
std::string table_context_menu(const char* id, const std::vector<std::string>& names,
                               const std::function<std::vector<Table>()>& tables);

// The figures a user can export from the screen, noted by name as they are drawn (draw_plot and
// the two menus above), for `normlab --check-figures`: every one must be in the lab registry.
// Off until started; started, it collects over every frame until read.
void start_export_notes();
void note_exportable(const std::string& name);
std::vector<std::string> exportable_noted();   // sorted, each once

}  // namespace normlab::ui
