// The Explorer lab: edit x, W, g, b, ε and δ; see a = W x and its LayerNorm and RMSNorm
// outputs side by side, recomputed by core every frame (normlab::compute_explorer).
#pragma once

#include "heatmap.hpp"
#include "lab.hpp"
#include "theme_fonts.hpp"

#include <normlab/scene/session.hpp>

#include <imgui.h>

#include <string>

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
    bool square_W = true;          // n follows m
    std::string x_text;            // the paste field
    std::string x_text_error;      // why the last paste was rejected; empty when it was accepted
    bool x_text_editing = false;   // the paste field has the keyboard
    HeatmapUi heatmap;
    bool show_reference = true;    // outline the outputs at δ = 1 while δ ≠ 1
    bool value_labels = true;      // print values on the bars when they fit
};

// A preset reached by a button and a key. One table (kExplorerActions) drives the buttons,
// the keys and Help ▸ Keyboard shortcuts, so that they cannot disagree.
struct ExplorerAction {
    enum class Group { X, W, Delta } group;   // the button row it sits in
    const char* label;                        // button text
    char key;                                 // 'A'..'Z'
    bool shift;                               // with Shift
    const char* what;                         // what it does, for the shortcut list
    const char* help;                         // one more sentence for the button's tooltip
    void (*apply)(ExplorerState& state, ExplorerUi& ui);
};
inline constexpr int kExplorerActionCount = 6;
extern const ExplorerAction kExplorerActions[kExplorerActionCount];

// "E", "Shift+R": the key of an action as the user presses it.
std::string key_name(const ExplorerAction& action);

// Help ▸ Keyboard shortcuts (Lab::keys): the lab's keys, from the table its key handler reads.
std::vector<KeyHelp> explorer_lab_keys();

// Draws the lab into the current window, reading and editing ctx.session.explorer.
void draw_explorer_lab(LabContext& ctx);

}  // namespace normlab::ui
