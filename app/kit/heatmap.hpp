// An editable heat map of a matrix: one coloured cell per entry on a diverging colour map
// (palette: purple < 0 < green, white at 0, ends at ±max|W|), with a colour legend beside it.
// Click a cell to select it; drag up/down to change it (Shift: 10× finer).
#pragma once

#include <normlab/norm/norm.hpp>

#include <imgui.h>

namespace normlab::ui {

struct HeatmapUi {
    Eigen::Index row = 0;   // the selected cell (clamped to the matrix on every draw)
    Eigen::Index col = 0;
};

// Draws W (n×m) in at most `width` pixels, cells no larger than max_cell (square); numbers
// appear inside the cells when they fit. The tooltip names the hovered cell, then `help`.
// Returns true when W was changed.
bool heatmap_editor(const char* id, Mat& W, HeatmapUi& ui, float width, float max_cell, ImFont* small_font,
                    const char* help);

}  // namespace normlab::ui
