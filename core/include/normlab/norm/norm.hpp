// NormLab core: the normalization engine (double precision, the interactive path).
//
// [SECTION] Notation        — the RMSNorm paper's (Zhang & Sennrich, 2019)
// [SECTION] Norm kinds      — names, parsing, pRMSNorm's k
// [SECTION] Group statistics — μ, σ₀, the ε-denominator, computed without overflow
// [SECTION] Layer forward / backward — a = W x, y = norm(a) ⊙ g + b and its gradients
//
// Notation: a batch of B cases x (B×m, one case per row), weights W (n×m), summed inputs
// a = x Wᵀ (B×n, eq. 1 of the paper per case: a_i = w_iᵀ x), normalized ā (B×n), output
// y = ā ⊙ g + b (B×n; eq. 2/4 with f = identity). Gradients are those of L = Σ dy ⊙ y.
//
// Which values a norm's statistics run over (a "group"):
//   layernorm, rmsnorm, prmsnorm, l2norm — each case (row of a), over its n features;
//   batchnorm                            — each feature (column of a), over the B cases;
//   weightnorm                           — each weight row w_i (length m): ā_i = a_i / ‖w_i‖, with no ε
//                                          (Salimans & Kingma 2016; NormSpec::eps is not used);
//   none                                 — no statistics, ā = a.
#pragma once

#include "normlab/base/palette.hpp"

#include <Eigen/Dense>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace normlab {

using Mat = Eigen::MatrixXd;
using Vec = Eigen::VectorXd;

// [SECTION] Norm kinds ----------------------------------------------------------------------

enum class Norm { None, LayerNorm, RMSNorm, PRMSNorm, L2Norm, BatchNorm, WeightNorm };

// Where ε enters the denominator:
//   InsideSqrt — D = sqrt(σ₀² + ε)   (PyTorch, HF, the paper's TensorFlow code; the default)
//   AddToRms   — D = σ₀ + ε          (the paper's PyTorch file: a / (RMS + ε))
enum class EpsMode { InsideSqrt, AddToRms };

// pRMSNorm's k from n and p: the paper defines k = ⌈n·p⌉; the authors' PyTorch file uses
// int(n·p) = ⌊n·p⌋. Both are clamped to [1, n].
enum class PartialRounding { Ceil, Floor };

struct NormSpec {
    Norm norm = Norm::LayerNorm;
    double eps = 1e-5;                         // ≥ 0 (every norm but weightnorm, which has none)
    EpsMode eps_mode = EpsMode::InsideSqrt;
    double p = 0.0625;                         // pRMSNorm only, 0 < p ≤ 1 (paper: 6.25%)
    PartialRounding rounding = PartialRounding::Ceil;
};

inline constexpr Norm kAllNorms[] = {Norm::None,   Norm::LayerNorm, Norm::RMSNorm,   Norm::PRMSNorm,
                                     Norm::L2Norm, Norm::BatchNorm, Norm::WeightNorm};

std::string_view to_string(Norm norm);          // "layernorm", "rmsnorm", ... (the CLI's names)
std::string_view display_name(Norm norm);       // "LayerNorm", "RMSNorm", "pRMSNorm", ...
// Its colour in every lab and figure (base/palette.hpp): LayerNorm blue, RMSNorm vermillion,
// BatchNorm bluish green, WeightNorm reddish purple, pRMSNorm orange, L2-Norm sky blue, none grey.
Color norm_color(Norm norm);
std::optional<Norm> parse_norm(std::string_view name);
std::string_view to_string(EpsMode mode);       // "inside_sqrt" | "add_to_rms"
std::optional<EpsMode> parse_eps_mode(std::string_view name);
std::string_view to_string(PartialRounding rounding);   // "ceil" | "floor"
std::optional<PartialRounding> parse_rounding(std::string_view name);

// Number of leading entries pRMSNorm estimates the RMS from: ⌈n·p⌉ or ⌊n·p⌋ in [1, n].
// n·p is rounded to the nearest integer first when it lies within a relative 1e-9 of one
// (|n·p − round(n·p)| ≤ 1e-9·max(1, n·p)), so that n = 10, p = 0.3 gives k = 3 rather than 4
// from 3.0000000000000004.
Eigen::Index partial_k(Eigen::Index n, double p, PartialRounding rounding);

// [SECTION] Group statistics ----------------------------------------------------------------

// Exact scaling and accurate sums, shared by every statistic below (docs/ARCHITECTURE.md,
// "Exact where cheap"):
//   pow2_scale(m)   2^⌊log₂ m⌋ for m > 0 (0 for 0): dividing by it is exact, and m/it ∈ [1, 2)
//   compensated_sum Σv as hi + lo, to about twice double precision (Neumaier's TwoSum)
//   precise_mean    Σv/N as hi + lo (|lo| ≤ ulp(hi)/2), the division's remainder carried: hi is
//                   the exact mean whenever that is a double and the sum fits compensated_sum
//   accurate_mean   precise_mean's hi
//   centred_sum_squares  Σ(v_i − μ)² over deviations (v_i − hi) − lo (exact or correctly rounded
//                   for data near a common offset), with the two-pass correction −(Σd)²/N
//                   (Chan, Golub & LeVeque); center = false: Σv_i²
struct TwoDouble {
    double hi = 0.0;
    double lo = 0.0;
};
double pow2_scale(double max_abs);
TwoDouble compensated_sum(const Eigen::Ref<const Vec>& v);
TwoDouble precise_mean(const Eigen::Ref<const Vec>& v);
double accurate_mean(const Eigen::Ref<const Vec>& v);
double centred_sum_squares(const Eigen::Ref<const Vec>& v, const TwoDouble& mean, bool center);

// Statistics of one group of values v (length N), computed in units of s = pow2_scale(max|v|)
// (exact) so that values of 1e200 or 1e-320 neither overflow nor underflow when squared, and
// centred before squaring so that a common offset of 1e12 loses no digits:
//   mean   μ  = (1/N) Σ v_i                      (0 when the norm does not centre)
//   sigma0 σ₀ = sqrt((1/divisor) Σ_{i<k} (v_i − μ)²)   (std, RMS or ‖v‖; no ε)
//   denom  D  = sqrt(σ₀² + ε) or σ₀ + ε           (what ā divides by)
//   denom_u = D / s (may be +inf when s is tiny and ε > 0: then ā → 0, its true limit)
struct GroupStats {
    double mean = 0.0;
    double mean_lo = 0.0;  // μ − mean: the exact mean's part below mean's last digit
    double scale = 0.0;    // s = pow2_scale(max |v_i|); 0 for an all-zero group
    double sigma0 = 0.0;
    double denom = 0.0;
    double denom_u = 0.0;
};

// What a norm's forward caches for its backward (llm.c style: statistics, not ā).
// One GroupStats per group: per case (row norms), per feature (batchnorm), per weight row
// (weightnorm); empty for none.
struct NormCache {
    std::vector<GroupStats> groups;
    Eigen::Index k = 0;    // entries the RMS is taken over (n, or pRMSNorm's k)
};

// Per-case summary of the summed inputs a (independent of the norm), for display and the CLI:
// mean, biased variance (may be +inf when it exceeds the double range, e.g. a ~ 1e200),
// std = sqrt(var) (always finite), rms = sqrt(mean(a²)) (no ε).
struct CaseStats {
    double mean = 0.0;
    double var = 0.0;
    double std = 0.0;
    double rms = 0.0;
};
std::vector<CaseStats> case_stats(const Mat& a);   // a: B×n → B entries

// [SECTION] Layer forward / backward --------------------------------------------------------

// The user's layer. W absent means a = x (n = m; for weightnorm, W = I).
struct LayerParams {
    std::optional<Mat> W;  // n×m
    Vec g;                 // n (gain)
    Vec b;                 // n (bias)
};

struct LayerForward {
    Mat a;         // B×n summed inputs, a = x Wᵀ
    Mat abar;      // B×n normalized inputs ā
    Mat y;         // B×n outputs, y = ā ⊙ g + b
    NormCache cache;
};

struct LayerGrads {
    Mat dx;                // B×m
    Vec dg;                // n
    Vec db;                // n
    std::optional<Mat> dW; // n×m, when W was given
};

// a = x Wᵀ, ā = norm(a), y = ā ⊙ g + b.   x: B×m.   Requires g, b of length n.
LayerForward layer_forward(const NormSpec& spec, const Mat& x, const LayerParams& params);

// Gradients of L = Σ dy ⊙ y (paper eq. 8–10 for RMSNorm).   dy: B×n.
LayerGrads layer_backward(const NormSpec& spec, const Mat& x, const LayerParams& params,
                          const LayerForward& fwd, const Mat& dy);

// The normalization alone, on summed inputs a (B×n): ā and its cache. Not for weightnorm
// (which normalizes W, not a): there it returns ā = a.
Mat norm_forward(const NormSpec& spec, const Mat& a, NormCache& cache);

// ∂L/∂a from ∂L/∂ā (B×n), using the forward's cache. Not for weightnorm (identity there).
Mat norm_backward(const NormSpec& spec, const Mat& a, const NormCache& cache, const Mat& dabar);

// The same two, for a training step: outputs into the caller's matrices and one group at a time
// through the caller's scratch, so that once the sizes have been seen nothing is allocated (the
// forms above allocate a few vectors per case). Same arithmetic, the same results bit for bit.
struct NormScratch {
    Vec v, u;          // one group's values (length N) and v / s (s a power of two)
    Vec h, abar, out;  // the group's ∂L/∂ā, ā, and the row being produced
};
//   abar  B×n out: ā                                       (resized)
void norm_forward(const NormSpec& spec, const Mat& a, NormCache& cache, Mat& abar, NormScratch& scratch);
//   abar  B×n in: ā from norm_forward(spec, a, cache, ...) (not recomputed, unlike the form above)
//   da    B×n out: ∂L/∂a                                   (resized)
void norm_backward(const NormSpec& spec, const Mat& a, const NormCache& cache, const Mat& abar, const Mat& dabar,
                   Mat& da, NormScratch& scratch);

}  // namespace normlab
