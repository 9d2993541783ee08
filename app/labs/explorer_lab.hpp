// The Explorer lab: edit x, W, g, b, ε and δ; see a = W x and its LayerNorm and RMSNorm
// outputs side by side, recomputed by core every frame (normlab::compute_explorer).
#pragma once

#include "action_table.hpp"
#include "heatmap.hpp"
#include "lab.hpp"
#include "plot_view.hpp"
#include "theme_fonts.hpp"
#include "ui_util.hpp"
#include "x_presets.hpp"

#include <normlab/scene/session.hpp>

#include <imgui.h>

#include <string>
#include <vector>

namespace normlab::ui {

inline constexpr LabInfo kExplorerInfo{
    tr_later("Explorer: LayerNorm vs RMSNorm"),
    tr_later("Summed inputs (paper eq. 1):  a = W x\n"
    "LayerNorm (eq. 2–3):  ā = (a − μ) / σ,  μ = mean(a),  σ = √(mean((a − μ)²) + ε)\n"
    "RMSNorm (eq. 4):  ā = a / RMS(a),  RMS(a) = √(mean(a²) + ε)\n"
    "Output:  y = ā ⊙ g + b\n"
    "δ re-scales x (x' = δx) or W (W' = δW): both norms are invariant to either (Table 1)."),
    "normlab::layer_forward (core/src/norm/norm.cpp), once per norm, called by\n"
    "normlab::compute_explorer (core/src/labs/explorer_lab.cpp); drawn by app/labs/explorer_lab.cpp.",
};

// Display-only state of the Explorer; the numbers live in ExplorerState.
struct ExplorerUi {
    TextField x_field;             // the paste field (fields.hpp)
    HeatmapUi heatmap;
    bool show_reference = true;    // outline the outputs at δ = 1 while δ ≠ 1
    bool value_labels = true;      // print values on the bars when they fit
    PlotView summed_view, layernorm_view, rmsnorm_view;   // explorer_plots' three bar charts
    float norm_panel_h = 0.0f;     // the height the LayerNorm | RMSNorm columns needed last frame (px)
};
using ExplorerContext = LabContextOf<ExplorerUi>;

// The x presets (x_presets.hpp), the Explorer's own: its paste field also forgets an entry it refused.
void set_x_preset(ExplorerContext& ctx, XPreset preset);

// The lab's row in the table of labs (labs.cpp): all the table needs of it (LabWindow, lab.hpp).
// Its draw function reads and edits ctx.session.explorer; its figures as they are now are its
// three bar charts, as shown (explorer_plots); its keys are every preset (x's, then W's and δ's).
// A presenter slide may name figures explorer_outputs (LayerNorm | RMSNorm bars),
// explorer_summed_inputs (a = Wx); control delta (the δ slider).
extern const LabWindow<ExplorerContext> kExplorerWindow;

}  // namespace normlab::ui
