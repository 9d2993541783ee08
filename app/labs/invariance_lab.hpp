// The Invariance lab: the RMSNorm paper's Table 1 measured live on the lab's own batch, beside
// the paper's; the relative change against δ for the norms and transforms the user picks; and
// the transforms applied with one click to the Explorer's x and W.
#pragma once

#include "heatmap.hpp"
#include "lab.hpp"
#include "plot_view.hpp"

#include <normlab/labs/invariance_lab.hpp>
#include <normlab/plot/plot.hpp>

#include <optional>
#include <vector>

namespace normlab::ui {

inline constexpr LabInfo kInvarianceInfo{
    tr_later("Invariance: Table 1 of the RMSNorm paper, measured"),
    "Layer output (paper eq. 1–4):  y = norm(W x) ⊙ g + b, for a batch of cases x\n"
    "Each cell (Table 1):  ‖y′ − y‖ / ‖y‖ after one transform, ✓ when ≤ the tolerance\n"
    "Transforms:  W′ = δW,  W′ = W + 1γᵀ,  w′ᵢ = δᵢwᵢ,  x′ = δx,  x′ = x + γ,  x′₀ = δx₀\n"
    "ε in the denominator (√(σ² + ε) inside the √, σ + ε added) breaks exact invariance to re-scaling\n"
    "as δ → 0; at large δ the change left is ε's share in y at δ = 1 (about ε / 2σ² inside, ε / σ added).",
    "normlab::invariance_table, apply_transform, invariance_residual, paper_table1\n"
    "(core/src/norm/invariance.cpp); normlab::invariance_lab_table, check_cell, invariance_curve_plot,\n"
    "apply_to_explorer (core/src/labs/invariance_lab.cpp); drawn by app/labs/invariance_lab.cpp.",
};

// What the curves are built from: a state, compared by same_curve_inputs (δ and the tolerance
// only move their reference lines).
struct CurveInputs {
    InvarianceLabState state;
    bool operator!=(const CurveInputs& other) const { return !same_curve_inputs(state, other.state); }
};

// Display-only state of the Invariance lab; the numbers live in InvarianceLabState.
struct InvarianceUi {
    HeatmapUi x_map, W_map;      // the selected cells of the batch's x and W
    PlotView plot_view;
    PlotView layernorm_view, rmsnorm_view;   // the Explorer's outputs, now and before a transform
    CachedFigure<CurveInputs> curves;   // invariance_curve_plot, its reference lines moved each frame
    std::optional<ExplorerTransformResult> last_apply;   // the last transform applied to the Explorer
};
using InvarianceContext = LabContextOf<InvarianceUi>;

// The lab's row in the table of labs (labs.cpp): all the table needs of it (LabWindow, lab.hpp).
// Its draw function reads and edits ctx.session.invariance (and, for the "apply to the Explorer"
// buttons, ctx.session.explorer). Its figure as it is now: the relative change against δ, with
// the series hidden in its legend left out and its zoom applied. A presenter slide may name
// figures invariance_table (Table 1 as measured), invariance_vs_delta (the curves); controls
// delta, eps (their sliders).
extern const LabWindow<InvarianceContext> kInvarianceWindow;

}  // namespace normlab::ui
