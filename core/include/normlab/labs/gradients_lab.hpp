// NormLab core: the Gradient lab — gradient magnitudes against δ (paper eq. 8–10), a finite-
// difference check of the analytic backward, and the implicit learning-rate demonstration.
//
// [SECTION] State        — loss, ε, norms shown, SGD settings (plain data the GUI edits)
// [SECTION] The probe    — the Explorer's x, W, g, b with the lab's loss
// [SECTION] Finite differences — central differences against layer_backward, element by element
// [SECTION] Results      — everything the lab shows, computed in one call, and its cache key
// [SECTION] Plots        — the lab's figures as core Plots (exportable as SVG/CSV)
//
// The lab measures, it does not assert: for LayerNorm, RMSNorm and pRMSNorm it sweeps δ over
// [10⁻², 10²], scaling either the input (x′ = δx) or the weight matrix (W′ = δW), and fits the
// log-log slope of ‖∂L/∂W‖, ‖∂L/∂x‖, ‖∂L/∂g‖, ‖∂L/∂b‖. The paper predicts input scaling
// 0, −1, 0, 0 and weight scaling −1, 0, 0, 0, as long as ε ≪ (δσ₀)².
#pragma once

#include "normlab/norm/gradients.hpp"
#include "normlab/labs/explorer_lab.hpp"
#include "normlab/norm/norm.hpp"
#include "normlab/base/number_rule.hpp"
#include "normlab/plot/plot.hpp"

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace normlab {

class SceneReader;   // state_json.hpp

// [SECTION] State ---------------------------------------------------------------------------

// The norms the lab compares, in display order (index k of every per-norm array below).
inline constexpr int kGradientLabNormCount = 3;
inline constexpr Norm kGradientLabNorms[kGradientLabNormCount] = {Norm::LayerNorm, Norm::RMSNorm, Norm::PRMSNorm};

// The gradients it measures, in display order: ∂L/∂W, ∂L/∂x, ∂L/∂g, ∂L/∂b (index q below).
inline constexpr int kGradientCount = 4;
inline constexpr const char* kGradientSymbols[kGradientCount] = {"W", "x", "g", "b"};

// L = ½‖y − t‖² with the editable target t, or L = Σ dy ⊙ y with a seeded random upstream dy.
enum class GradientLoss { SquaredError, RandomUpstream };

inline constexpr double kGradientLabMinDelta = 1e-2;   // the sweep's δ range (paper: any δ)
inline constexpr double kGradientLabMaxDelta = 1e2;
inline constexpr int kGradientLabPoints = 41;          // log-spaced δ values in the sweep
inline constexpr double kGradientLabBendEps = 1e-2;    // ε that visibly bends the curves at small δ
inline constexpr double kSlopeTolerance = 0.02;        // |fitted − expected| counted as agreement
inline constexpr int kSgdMaxSteps = 200;
// What the lab's fields accept (the GUI and scene files alike; ε: kLabEpsRule, p: kFractionRule).
inline constexpr NumberRule kSgdDeltaRule{0.1, 100.0};          // the second run's δ
inline constexpr NumberRule kSgdLearningRateRule{1e-3, 1.0};    // η

struct GradientLabState {
    GradientLoss loss = GradientLoss::SquaredError;
    Vec target = Vec();                 // t as the user set it; read through gradient_lab_target
    std::uint64_t seed = 1;             // the random upstream gradient dy ~ N(0, 1)
    double eps = 1e-5;                  // ε ∈ (0, 1] of the three norms (the Explorer's default)
    EpsMode eps_mode = EpsMode::InsideSqrt;
    double p = 0.0625;                  // pRMSNorm's fraction (the paper's 6.25%, k = ⌈n·p⌉)
    std::array<bool, kGradientLabNormCount> show{true, true, true};   // curves drawn per norm
    std::array<bool, kGradientCount> show_gradient{true, true, true, true};   // … and per gradient
    int fd_norm = 1;                    // index into kGradientLabNorms: the table's norm
    // Implicit learning rate: SGD on W from W and from δW, same learning rate.
    int sgd_norm = 1;                   // index into kGradientLabNorms
    double sgd_delta = 10.0;            // δ (kSgdDeltaRule)
    double learning_rate = 0.1;         // η (kSgdLearningRateRule)
    int sgd_steps = 30;                 // 1..kSgdMaxSteps
};

bool operator==(const GradientLabState& a, const GradientLabState& b);
inline bool operator!=(const GradientLabState& a, const GradientLabState& b) { return !(a == b); }

// Scene file (scene.hpp, state_json.hpp): every field by name; missing keys keep `state`'s values.
nlohmann::json state_to_json(const GradientLabState& state);
void state_from_json(SceneReader& in, GradientLabState& state);

// t = (1, −1, 1, −1, …) (n): not parallel to any normalized output of an increasing x, so that
// the squared-error gradient does not vanish (t = 0 or t ∝ ā would make ∂L/∂a ≈ 0).
Vec gradient_lab_default_target(Eigen::Index n);

// The target t for a layer of n outputs: state.target's first n entries, the default pattern
// after them. The state keeps what the user set (the Explorer's n may change back), so nothing
// is written when the Explorer changes n: everything reads t through this.
Vec gradient_lab_target(const GradientLabState& state, Eigen::Index n);

// The norm spec of norm index k (0..2) with the state's ε, ε placement and p.
NormSpec gradient_lab_spec(const GradientLabState& state, int k);

// [SECTION] The probe -----------------------------------------------------------------------

// One case from the Explorer: x (1×m), W (n×m; the identity when the Explorer has no W), g, b;
// dy (1×n) ~ N(0, 1) from normlab::Rng(state.seed); target t (state.target fitted to n) for the
// squared-error loss. Throws std::invalid_argument when the Explorer's shapes are inconsistent.
GradientProbe gradient_lab_probe(const GradientLabState& state, const ExplorerState& explorer);

bool operator==(const GradientProbe& a, const GradientProbe& b);

// The δ below which ε stops being negligible: (δσ₀)² = ε (inside √) or δσ₀ = ε (added), σ₀ being
// the norm's std / RMS of a = W x at δ = 1. 0 when ε = 0; +inf when σ₀ = 0.
double eps_bend_delta(const NormSpec& spec, const GradientProbe& probe);

// The paper's slopes (eq. 8–10): input scaling {dW 0, dx −1, dg 0, db 0}, weight {−1, 0, 0, 0}.
GradNorms expected_slopes(Scaling scaling);

// [SECTION] Finite differences --------------------------------------------------------------

enum class GradParam { W, x, g, b };

// One checked element: ∂L/∂θ from layer_backward against (L(θ + h) − L(θ − h)) / 2h.
struct FdEntry {
    GradParam param = GradParam::W;
    Eigen::Index row = 0, col = 0;   // W(row, col); x(col) (case 0); g(row), b(row)
    double analytic = 0.0, numeric = 0.0;
    double rel_error = 0.0;          // |analytic − numeric| / max(|analytic|, |numeric|, floor)
};

struct FdCheck {
    std::vector<FdEntry> entries;    // W row by row, then x, g, b; every `stride`-th element
    Eigen::Index total = 0;          // elements of W, x, g, b together
    Eigen::Index stride = 1;         // 1: every element checked
    double worst_rel_error = 0.0;
    std::size_t worst = 0;           // index into entries of the worst one
    double floor = 0.0;              // the relative error's denominator floor (below)
};

inline constexpr double kFdStep = 1e-5;          // h = kFdStep · max(1, |θ|)
inline constexpr double kFdTolerance = 1e-5;     // worst relative error counted as agreement
inline constexpr Eigen::Index kFdMaxEntries = 400;

// Checks `analytic` (the gradients at the probe's own x, W, g, b, as probe_gradients returns
// them) against central differences of probe_loss, element by element. With more than
// max_entries elements, every ⌈total / max_entries⌉-th one (in the order above) is checked.
// The relative error's floor is 1e-5 · max(1, max |analytic|), so that elements whose gradient
// is zero up to rounding do not read as failures. A wrong `analytic` gives a large worst error.
FdCheck finite_difference_check(const NormSpec& spec, const GradientProbe& probe, const LayerGrads& analytic,
                                Eigen::Index max_entries = kFdMaxEntries);

// "W₁,₂", "x₃", "g₁", "b₄": an element's name for the table (1-based subscripts).
std::string fd_entry_name(const FdEntry& entry);

// [SECTION] Results -------------------------------------------------------------------------

// What the results were computed from: they are current while both are unchanged.
struct GradientLabInputs {
    GradientLabState state;
    GradientProbe probe;
};
bool operator==(const GradientLabInputs& a, const GradientLabInputs& b);

struct GradientLabResults {
    GradientLabInputs inputs;
    std::array<GradientSweep, kGradientLabNormCount> input_sweep;    // x′ = δx, per norm
    std::array<GradientSweep, kGradientLabNormCount> weight_sweep;   // W′ = δW, per norm
    std::array<double, kGradientLabNormCount> bend_delta{};          // eps_bend_delta per norm
    FdCheck fd;                                  // state.fd_norm's backward at δ = 1
    SgdTrace sgd_from_W, sgd_from_dW;                                // squared error towards t
    std::string sgd_error;   // set (and the traces cut short) when an SGD run left the finite range
};

// Everything the lab shows. Throws std::invalid_argument for a state out of range (ε < 0,
// p ∉ (0, 1], δ ≤ 0, η ≤ 0, steps ∉ [1, kSgdMaxSteps]) with a message for the user.
GradientLabResults compute_gradient_lab(const GradientLabState& state, const GradientProbe& probe);

// The sweeps of one scaling.
const std::array<GradientSweep, kGradientLabNormCount>& sweeps(const GradientLabResults& r, Scaling scaling);

// Whether every fitted slope of norm k under `scaling` is within kSlopeTolerance of the paper's.
// False also when a slope could not be fitted (a gradient that is zero for every δ).
bool slopes_ideal(const GradientLabResults& r, Scaling scaling, int k);

// [SECTION] Plots ---------------------------------------------------------------------------

// Line colour of norm k in every figure of the lab: norm_color (norm/norm.hpp), as in every lab.
Color gradient_lab_color(int k);

// ‖∂L/∂W‖, ‖∂L/∂x‖, ‖∂L/∂g‖, ‖∂L/∂b‖ against δ, log-log, for the shown norms and gradients:
// colour = norm (the legend), line style and marker = gradient, and at each curve's end its name
// and fitted slope in its colour ("W −1.00", Series::end_label: right of the data). A dashed
// vertical line marks eps_bend_delta where it falls inside [10⁻², 10²]. Names:
// "gradients_input_scaling", "gradients_weight_scaling". `hidden`: legend labels the user
// switched off (norm names): their curves and slopes are left out, their keys kept (to switch back).
Plot gradient_sweep_plot(const GradientLabResults& r, Scaling scaling, const std::vector<std::string>& hidden = {});

// The implicit learning-rate demonstration, one SGD step per x unit (name "implicit_lr_outputs",
// "implicit_lr_weight_norm", "implicit_lr_relative_step"): the first up to 4 outputs yᵢ from W
// (solid) and from δW (dashed, named at their end) with their targets tᵢ (dotted); ‖W‖ (log);
// ‖ΔW‖/‖W‖ (log) with the ratio of the two runs' first steps printed (δ² in theory).
inline constexpr int kSgdPlotOutputs = 4;
Plot sgd_output_plot(const GradientLabResults& r);
Plot sgd_weight_norm_plot(const GradientLabResults& r);
Plot sgd_relative_step_plot(const GradientLabResults& r);

// "−1.00": a slope with two decimals and U+2212 as the minus sign ("0.00", never "−0.00");
// "n/a" when it is not finite.
std::string slope_text(double slope);

}  // namespace normlab
