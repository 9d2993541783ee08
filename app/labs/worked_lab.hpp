// The Worked example lab: every step of LayerNorm and RMSNorm with its numbers for the
// Explorer's x, and a claim checker that says which formula a write-up's numbers come from and
// which of its intermediate steps do not hold.
#pragma once

#include "lab.hpp"

#include <normlab/labs/worked_lab.hpp>

namespace normlab::ui {

inline constexpr LabInfo kWorkedInfo{
    tr_later("Worked example and claim checker"),
    "LayerNorm (paper eq. 2–3):  μ = Σx/n,  σ² = Σ(x − μ)²/n (population, not n − 1),  σ = √(σ² + ε),  ā = (x − μ)/σ\n"
    "RMSNorm (eq. 4):  RMS = √(Σx²/n + ε),  ā = x / RMS  (no mean subtracted)\n"
    "For comparison:  L2-Norm ā = x / ‖x‖;  (x − μ)/√(Σ(x − μ)²/(n − 1)) is LayerNorm with the sample std\n"
    "A claimed output matches a formula when it equals the formula's value to its printed precision.",
    "normlab::explain, check_claim, check_step (core/src/norm/explain.cpp); normlab::compute_worked\n"
    "(core/src/labs/worked_lab.cpp); outputs from normlab::layer_forward (core/src/norm/norm.cpp);\n"
    "drawn by app/labs/worked_lab.cpp.",
};

// Display-only state of the Worked example lab; the claim lives in WorkedState.
struct WorkedUi {
    int digits = 4;   // significant digits of the numbers in the steps (3..8)
};
using WorkedContext = LabContextOf<WorkedUi>;

// The lab's row in the table of labs (labs.cpp): all the table needs of it (LabWindow, lab.hpp).
// Its draw function reads and edits ctx.session.worked and the Explorer's x
// (ctx.session.explorer.x), which both labs show; its keys are the Explorer's x presets and the
// claim presets. A presenter slide may name figures worked_verdict (NormLab's verdict on the
// claim), worked_layernorm_steps, worked_rmsnorm_steps (each norm's steps).
extern const LabWindow<WorkedContext> kWorkedWindow;

}  // namespace normlab::ui
