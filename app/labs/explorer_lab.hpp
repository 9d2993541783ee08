// The Explorer lab: edit x, W, g, b, ε and δ; see a = W x and its LayerNorm and RMSNorm
// outputs side by side, recomputed by core every frame (normlab::compute_explorer).
#pragma once

#include "action_table.hpp"
#include "heatmap.hpp"
#include "lab.hpp"
#include "plot_view.hpp"
#include "theme_fonts.hpp"
#include "ui_util.hpp"

#include <normlab/scene/session.hpp>

#include <imgui.h>

#include <string>
#include <vector>

namespace normlab::ui {

inline constexpr LabInfo kExplorerInfo{
    "Explorer: LayerNorm vs RMSNorm",
    "Summed inputs (paper eq. 1):  a = W x\n"
    "LayerNorm (eq. 2–3):  ā = (a − μ) / σ,  μ = mean(a),  σ = √(mean((a − μ)²) + ε)\n"
    "RMSNorm (eq. 4):  ā = a / RMS(a),  RMS(a) = √(mean(a²) + ε)\n"
    "Output:  y = ā ⊙ g + b\n"
    "δ re-scales x (x' = δx) or W (W' = δW): both norms are invariant to either (Table 1).",
    "normlab::layer_forward (core/src/norm.cpp), once per norm, called by\n"
    "normlab::compute_explorer (core/src/session.cpp); drawn by app/explorer_lab.cpp.",
};

// Display-only state of the Explorer; the numbers live in ExplorerState.
struct ExplorerUi {
    TextField x_field;             // the paste field (ui_util.hpp)
    HeatmapUi heatmap;
    bool show_reference = true;    // outline the outputs at δ = 1 while δ ≠ 1
    bool value_labels = true;      // print values on the bars when they fit
    PlotView summed_view, layernorm_view, rmsnorm_view;   // explorer_plots' three bar charts
};

// The lab's figures as they are now (Lab::plots): its three bar charts, as shown (explorer_plots).
std::vector<Plot> explorer_lab_plots(LabContext& ctx);

// The Explorer's presets, reached by a button and a key (action_table.hpp); the worked example
// shows the first three (the ones that set x) too.
enum ExplorerActionIndex { kExampleX, kLargeX, kRandomX, kIdentityW, kRandomW, kDeltaOne, kExplorerActionCount };
extern const Action kExplorerActions[kExplorerActionCount];

// Lab::actions (labs.hpp): every preset.
Actions explorer_lab_actions();

// Draws the lab into the current window, reading and editing ctx.session.explorer.
// What a presenter slide of the Explorer may name (lab.hpp): figures explorer_outputs (LayerNorm
// | RMSNorm bars), explorer_summed_inputs (a = Wx); control delta (the δ slider).
extern const SlideParts kExplorerSlide;

void draw_explorer_lab(LabContext& ctx);

}  // namespace normlab::ui
