// The Gradient lab: how scaling the input or the weights changes ∂L/∂W, ∂L/∂x, ∂L/∂g, ∂L/∂b
// (RMSNorm paper, eq. 8–10), measured on the Explorer's layer; the analytic backward against
// central finite differences; and the implicit learning-rate effect of larger weights.
#pragma once

#include "lab.hpp"
#include "plot_view.hpp"
#include "ui_util.hpp"

#include <normlab/labs/gradients_lab.hpp>
#include <normlab/plot/plot.hpp>

#include <optional>
#include <string>
#include <vector>

namespace normlab::ui {

inline constexpr LabInfo kGradientsInfo{
    tr_later("Gradients: how scaling x or W changes ∂L/∂W, ∂L/∂x, ∂L/∂g, ∂L/∂b"),
    "Layer (paper eq. 1–4):  a = W x,  y = norm(a) ⊙ g + b,  loss ½‖y − t‖² or Σ dy ⊙ y\n"
    "∂L/∂b (eq. 10) and ∂L/∂g (eq. 9): invariant to x′ = δx and to W′ = δW (slope 0)\n"
    "∂L/∂W (eq. 8): invariant to x′ = δx; scales as 1/δ under W′ = δW (slope −1)\n"
    "∂L/∂x: scales as 1/δ under x′ = δx (slope −1), invariant to W′ = δW\n"
    "Slopes: least-squares fit of log‖∂L/∂·‖ against log δ over δ ∈ [10⁻², 10²], 41 points\n"
    "Implicit learning rate (eq. 8):  ‖ΔW‖/‖W‖ = η‖∂L/∂W‖/‖W‖ ∝ 1/δ² from W′ = δW\n"
    "Check:  ∂L/∂θ ≈ (L(θ + h) − L(θ − h)) / 2h,  h = 10⁻⁵·max(1, |θ|)",
    "normlab::compute_gradient_lab, finite_difference_check, gradient_sweep_plot, sgd_*_plot\n"
    "(core/src/labs/gradients_lab.cpp), over gradient_sweep, sgd_trace, probe_gradients\n"
    "(core/src/norm/gradients.cpp) and layer_forward / layer_backward (core/src/norm/norm.cpp);\n"
    "drawn by app/labs/gradients_lab.cpp.",
};

// A figure built from the lab's results: rebuilt when they (reset) or the legend switches change.
using CachedPlot = CachedFigure<std::vector<std::string>>;

// Display-only state of the Gradient lab; the numbers live in GradientLabState.
struct GradientsUi {
    PlotView input_view, weight_view;              // the two sweeps
    PlotView outputs_view, weight_norm_view, step_view;   // the SGD demonstration
    CachedPlot input_plot, weight_plot, outputs_plot, weight_norm_plot, step_plot;
    TextField target_field;                        // the t field (fields.hpp)
    // The last results and what they were computed from: recomputed only when the inputs change.
    std::optional<GradientLabInputs> computed_for;
    std::optional<GradientLabResults> results;
    std::string error;                             // why the last computation failed
};
using GradientsContext = LabContextOf<GradientsUi>;

// The lab's row in the table of labs (labs.cpp): all the table needs of it (LabWindow, lab.hpp).
// Its draw function reads the Explorer's layer (ctx.session.explorer) and reads and edits
// ctx.session.gradients. Its five figures as they are now, empty when they cannot be computed. A
// presenter slide may name figures gradients_input_scaling and gradients_weight_scaling
// (‖∂L/∂·‖ against δ, with the line that checks their slopes).
extern const LabWindow<GradientsContext> kGradientsWindow;

}  // namespace normlab::ui
