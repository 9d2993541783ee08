// NormLab core (private): the float32 models' kernels, on the fastest path this CPU has.
//
// [SECTION] Kernels   — row norms (LayerNorm / RMSNorm) forward and backward; GELU; causal
//                       multi-head attention forward and backward; Adam; matmul
// [SECTION] Copies    — the same declarations in namespaces portable and avx2
//
// The same source, model_kernels_body.hpp, is compiled twice (docs/ARCHITECTURE.md, Layers: models):
// once for the build's target (x86-64's SSE2, or WebAssembly) in namespace portable, and once
// with -mavx2 -mfma in namespace avx2 (x86-64 builds only, model_kernels_avx2.cpp). The AVX2
// copy renames Eigen's namespace too, so that none of its template instances can stand in for
// the portable build's at link time (one definition each). fast_norm's CPUID check picks which
// copy runs (mlp.hpp: set_model_kernel_path). float64 never comes here: the reference path stays
// on the build's own Eigen.
//
// Matrices are column-major and contiguous (leading dimension = rows), as Eigen's MatOf<float>.
#pragma once

#include <cstddef>

namespace normlab::model_kernels {

// [SECTION] Kernels -------------------------------------------------------------------------

// How a row norm reduces each row a_i (n values) (docs/ARCHITECTURE.md, The science: precision):
//   center         LayerNorm (μ = mean a_i) or RMSNorm (μ = 0);  σ² = (1/n) Σ_j (a_ij − μ)²
//   eps_inside     D = √(σ² + ε), else D = σ + ε                   ā_ij = (a_ij − μ)/D
struct RowNormSpec {
    bool center = true;
    bool eps_inside = true;
    double eps = 1e-5;
};

// What a row norm's forward keeps per row for its backward, each `rows` floats (the caller's):
//   mean, mean_lo  μ as mean + mean_lo (the float sum's mean and its one-step correction)
//   rstd           1/D
//   proj           c/n of the backward's projection term (c = 1 for ε inside the root, else D/σ)
struct RowNormStats {
    float* mean;
    float* mean_lo;
    float* rstd;
    float* proj;
};

// The statistics are accumulated in float, per row in column order, over the values' deviations
// from a first float mean (Chan, Golub & LeVeque's two-pass form: the mean corrected by the
// deviations' mean, the squares by −(Σd)²/n); D, 1/D and c in double, rounded once.
// Rows whose squares could leave float's range or whose ε does not dwarf float's underflow are
// not this kernel's: kRowNormMaxAbs and kRowNormMinEps bound what row_norm_forward accepts.
inline constexpr float kRowNormMaxAbs = 1125899906842624.0f;   // 2^50: n·(2·2^50)² stays finite
inline constexpr double kRowNormMinEps = 1e-10;                 // ≫ float's smallest σ² (2^-126)

// Forward of a row norm with gain and bias, rows×cols:
//   y     out: ā ⊙ g + b (g, b per column: cols each)
//   abar  out: ā
//   st    out: the statistics above
//   a     in
//   work  2·rows floats of scratch
// Returns false, having written nothing but st and work, when some |a_ij| exceeds kRowNormMaxAbs or is
// not finite, or spec.eps < kRowNormMinEps: the caller then takes the float64 path (norm.hpp).
bool row_norm_forward(float* y, float* abar, const RowNormStats& st, const float* a, const float* g, const float* b,
                      std::ptrdiff_t rows, std::ptrdiff_t cols, const RowNormSpec& spec, float* work);

// Backward: with h = dy ⊙ g,  da_ij = (h_ij − [center]·mean_j h_ij − proj_i·ā_ij·Σ_j h_ij ā_ij)·rstd_i
// (norm.hpp's group_backward).  da out; dy, abar in (rows×cols); g in (cols); st from the
// forward; work: 2·rows floats.
void row_norm_backward(float* da, const float* dy, const float* g, const float* abar, const RowNormStats& st,
                       std::ptrdiff_t rows, std::ptrdiff_t cols, bool center, float* work);

// GELU, exact erf form, n values: y = z Φ(z), Φ(z) = ½(1 + erf(z/√2)), erf by a rational
// approximation clamped to ±4 (Eigen's and XLA's float erf; its error is measured in
// tests/core/test_model_kernels.cpp). cdf out: Φ(z), kept for the backward.
void gelu_forward(float* y, float* cdf, const float* z, std::ptrdiff_t n);
// dz = dy · (Φ(z) + z φ(z)),  φ(z) = e^{−z²/2}/√(2π);  cdf: the forward's Φ(z).
void gelu_backward(float* dz, const float* dy, const float* z, const float* cdf, std::ptrdiff_t n);

// Causal multi-head self-attention (transformer.hpp, Attention) of B cases of T positions, width
// d, H heads of d_h = d/H, every case at once: the kernels first copy their inputs to "case-minor"
// order, element (column, t) of case b at (column·T + t)·B₈ + b with B rounded up to B₈, a
// multiple of kAttentionLanes (the extra lanes zero), so that each vector holds kAttentionLanes
// cases and no loop has a tail; per case, sums over keys j and columns c run in order.
inline constexpr std::ptrdiff_t kAttentionLanes = 8;   // cases per step: one AVX vector of floats, two SSE ones
struct AttentionShape {
    std::ptrdiff_t batch, time, width, heads;
    std::ptrdiff_t lanes() const { return (batch + kAttentionLanes - 1) / kAttentionLanes * kAttentionLanes; }
    // What the forward keeps for the backward: every P (H·T·T·B₈) and qkv in case-minor order (3d·T·B₈).
    std::ptrdiff_t cache_size() const { return (heads * time + 3 * width) * time * lanes(); }
    // Scratch for either direction.
    std::ptrdiff_t work_size() const { return 4 * width * time * lanes() + 2 * time * kAttentionLanes; }
};

// qkv (B·T)×3d in (rows [0, d) of W_qkv make Q, [d, 2d) K, [2d, 3d) V; head i the columns
// [i·d_h, (i+1)·d_h) of each); y (B·T)×d out: Concat(head_i), head_i = P V with
// P = softmax(Q_i K_iᵀ/√d_h) over keys j ≤ t; cache out (cache_size()).
void attention_forward(float* y, float* cache, const float* qkv, const AttentionShape& s, float* work);
// dy = ∂L/∂y ((B·T)×d) → dqkv = ∂L/∂qkv ((B·T)×3d, overwritten), from the forward's cache.
void attention_backward(float* dqkv, const float* dy, const float* cache, const AttentionShape& s, float* work);
// P of case b, head i, from a forward's cache: out T×T column-major, 0 above the diagonal.
void attention_weights(float* out, const float* cache, const AttentionShape& s, std::ptrdiff_t b, std::ptrdiff_t head);

// Adam on n values (mlp.hpp, Optimizer), one pass: m ← β₁ m + (1 − β₁) g; v ← β₂ v + (1 − β₂) g²;
// θ ← θ − lr_t · m / (√(v / c₂) + ε), lr_t = lr/(1 − β₁ᵗ), c₂ = 1 − β₂ᵗ (each constant in double,
// rounded once by the caller).
struct AdamStep {
    float beta1, one_minus_beta1, beta2, one_minus_beta2, lr_t, c2, eps;
};
void adam_update(float* theta, float* m, float* v, const float* g, std::ptrdiff_t n, const AdamStep& a);

// C = op(A) · op(B), or C += op(A) · op(B) when accumulate; column-major float matrices,
// contiguous (leading dimension = rows): C m×n; op(A) m×k: A is m×k, or k×m when transpose_a;
// op(B) k×n: B is k×n, or n×k when transpose_b. None may alias C.
void matmul(float* C, const float* A, bool transpose_a, const float* B, bool transpose_b, std::ptrdiff_t m,
            std::ptrdiff_t n, std::ptrdiff_t k, bool accumulate = false);

// [SECTION] Copies --------------------------------------------------------------------------

#define NORMLAB_KERNEL_DECLARATIONS                                                                               \
    bool row_norm_forward(float* y, float* abar, const RowNormStats& st, const float* a, const float* g,          \
                          const float* b, std::ptrdiff_t rows, std::ptrdiff_t cols, const RowNormSpec& spec,      \
                          float* work);                                                                           \
    void row_norm_backward(float* da, const float* dy, const float* g, const float* abar, const RowNormStats& st, \
                           std::ptrdiff_t rows, std::ptrdiff_t cols, bool center, float* work);                   \
    void gelu_forward(float* y, float* cdf, const float* z, std::ptrdiff_t n);                                    \
    void gelu_backward(float* dz, const float* dy, const float* z, const float* cdf, std::ptrdiff_t n);           \
    void attention_forward(float* y, float* cache, const float* qkv, const AttentionShape& s, float* work);        \
    void attention_backward(float* dqkv, const float* dy, const float* cache, const AttentionShape& s,            \
                            float* work);                                                                         \
    void adam_update(float* theta, float* m, float* v, const float* g, std::ptrdiff_t n, const AdamStep& a);      \
    void matmul(float* C, const float* A, bool transpose_a, const float* B, bool transpose_b, std::ptrdiff_t m,   \
                std::ptrdiff_t n, std::ptrdiff_t k, bool accumulate);

namespace portable {
NORMLAB_KERNEL_DECLARATIONS
}
namespace avx2 {
NORMLAB_KERNEL_DECLARATIONS
}
#undef NORMLAB_KERNEL_DECLARATIONS

}  // namespace normlab::model_kernels
