// The Number formats lab ("precision"): the norms of x in float16, bfloat16, float32 or float64,
// every operation rounded or computed in float32, beside float64 with the error in ulps and the
// events in plain words; the δ sweep (where overflow, underflow and ε begin, where re-scaling
// invariance breaks) and the offset sweep (LayerNorm's cancellation against RMSNorm).
#pragma once

#include "lab.hpp"
#include "plot_view.hpp"
#include "ui_util.hpp"

#include <normlab/labs/precision_lab.hpp>

#include <optional>
#include <string>

namespace normlab::ui {

inline constexpr LabInfo kPrecisionInfo{
    "Number formats: the norms in float16, bfloat16, float32 and float64",
    "Stored: xᵢ, gᵢ, bᵢ rounded to the format (to nearest, ties to even; float16 max 65504, bfloat16 8 bits)\n"
    "LayerNorm:  μ = (((x₁ + x₂) + x₃) + …) / n,  σ² = Σ (xᵢ − μ)² / n left to right,  āᵢ = (xᵢ − μ) / √(σ² + ε)\n"
    "RMSNorm:  ms = Σ xᵢ·xᵢ / n left to right,  āᵢ = xᵢ / √(ms + ε)   (pRMSNorm: the first k;  L2-Norm: Σ xᵢ², no / n)\n"
    "every step: each result rounded to the format, ε too;  float32 steps: computed in float32, y rounded back\n"
    "error in ulps: (y − y₆₄) / ulp(y₆₄), against float64 from the stored x and from x itself",
    "normlab::format_forward, round_to, ulp_error (core/src/norm/number_format.cpp);\n"
    "normlab::compute_precision_lab and its figures (core/src/labs/precision_lab.cpp);\n"
    "drawn by app/labs/precision_lab.cpp.",
};

// Display-only state of the lab; the numbers live in PrecisionLabState.
struct PrecisionUi {
    TextField x_field;
    PlotView delta_view, offset_view;
    std::optional<PrecisionLabState> computed_for;
    std::optional<PrecisionLabResults> results;
    std::string error;
    CachedFigure<std::vector<std::string>> delta_plot, offset_plot;
};
using PrecisionContext = LabContextOf<PrecisionUi>;

// The lab's row in the table of labs (labs.cpp). Its draw function reads and edits
// ctx.session.precision; its keys are its presets. A presenter slide may name figures
// precision_outputs (the headline, the outputs and the events), precision_delta_sweep and
// precision_offset_sweep.
extern const LabWindow<PrecisionContext> kPrecisionWindow;

}  // namespace normlab::ui
