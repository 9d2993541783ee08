// NormLab core: gradient magnitudes under scaling (RMSNorm paper, eq. 8–10), measured.
//
// The paper shows that with RMSNorm ∂L/∂b and ∂L/∂g (eq. 9, 10) do not change when x or W is
// scaled, while ∂L/∂W (eq. 8) is invariant to scaling x but shrinks as 1/δ when W is scaled by δ:
// an implicit learning-rate adaptation. Here those magnitudes are measured for any norm over a
// range of δ, and the log-log slope is fitted, so the claim is checked, not asserted.
#pragma once

#include "normlab/norm/norm.hpp"

#include <optional>
#include <string_view>
#include <vector>

namespace normlab {

enum class Scaling { Input, Weight };  // x′ = δx  or  W′ = δW
std::string_view to_string(Scaling s);  // "input_scaling" | "weight_scaling"

// One point of the gradient experiment. The loss is L = Σ dy ⊙ y with a fixed upstream
// gradient dy, or, when target is set, L = ½‖y − t‖² (so dy = y − t).
struct GradientProbe {
    Mat x;                      // B×m
    Mat W;                      // n×m
    Vec g, b;                   // n
    Mat dy;                     // B×n, the fixed upstream gradient
    std::optional<Mat> target;  // B×n
};

// Seeded standard-normal x, W, dy; g = 1, b = 0; no target.
GradientProbe random_gradient_probe(unsigned seed, Eigen::Index B = 4, Eigen::Index m = 8, Eigen::Index n = 8);

// The probe's loss for outputs y (B×n): ½‖y − t‖² with a target, Σ dy ⊙ y otherwise.
double probe_loss(const GradientProbe& probe, const Mat& y);

// Forward and backward of the probe's loss at the layer (x, params) (x: B×m, the probe's shapes);
// `loss`, when given, receives probe_loss of the forward's y.
LayerGrads probe_gradients(const NormSpec& spec, const Mat& x, const LayerParams& params, const GradientProbe& probe,
                           double* loss = nullptr);

struct GradNorms {
    double dW = 0, dx = 0, dg = 0, db = 0;  // Frobenius / Euclidean norms
};

// ‖∂L/∂W‖, ‖∂L/∂x‖, ‖∂L/∂g‖, ‖∂L/∂b‖ with x or W scaled by δ.
GradNorms gradient_norms(const NormSpec& spec, const GradientProbe& probe, Scaling scaling, double delta);

// Least-squares slope of log10 y against log10 x (points with x, y ≤ 0 are skipped).
double loglog_slope(const std::vector<double>& x, const std::vector<double>& y);

struct GradientSweep {
    std::vector<double> delta;     // log-spaced
    std::vector<GradNorms> norms;  // one per δ
    GradNorms slope;               // fitted log-log slope of each magnitude against δ
};

// The sweep over δ ∈ [lo, hi] (log-spaced, `points` values) and its fitted slopes.
GradientSweep gradient_sweep(const NormSpec& spec, const GradientProbe& probe, Scaling scaling, double lo = 1e-2,
                             double hi = 1e2, int points = 41);

// The "implicit learning rate" demonstration: plain SGD on W (g, b fixed) minimizing
// ½‖y − t‖², started once from W and once from δW with the same learning rate.
struct SgdTrace {
    std::vector<double> loss;          // per step, before the update
    std::vector<double> weight_norm;   // ‖W_t‖
    std::vector<double> relative_step; // ‖W_{t+1} − W_t‖ / ‖W_t‖: shrinks as 1/δ² for a δ-times larger W
    std::vector<Vec> output;           // y of case 0 per step (n)
};
SgdTrace sgd_trace(const NormSpec& spec, const GradientProbe& probe, double delta, double learning_rate, int steps);

}  // namespace normlab
