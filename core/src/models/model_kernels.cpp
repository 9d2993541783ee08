// NormLab core (private): model_kernels.hpp's dispatch and its portable copy.
//
// [SECTION] Paths
// [SECTION] Portable copy
// [SECTION] Dispatch      — and attention_weights, one copy for both paths (it only reads)
#include "models/model_kernels.hpp"

#include "normlab/models/mlp.hpp"

#include <Eigen/Core>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace normlab {

// [SECTION] Paths ---------------------------------------------------------------------------

namespace {
std::atomic<fast::KernelPath> g_path{fast::KernelPath::Auto};
}  // namespace

void set_model_kernel_path(fast::KernelPath path) { g_path.store(path); }

fast::KernelPath model_kernel_path() {
#if NORMLAB_MODEL_AVX2
    if (g_path.load() != fast::KernelPath::Scalar && fast::avx2_supported()) return fast::KernelPath::Avx2;
#endif
    return fast::KernelPath::Scalar;
}

}  // namespace normlab

// [SECTION] Portable copy -------------------------------------------------------------------

#define NORMLAB_KERNELS_NS portable
#include "models/model_kernels_body.hpp"
#undef NORMLAB_KERNELS_NS

// [SECTION] Dispatch ------------------------------------------------------------------------

// Each kernel calls its AVX2 copy where model_kernel_path() says Avx2, else the portable one.
#if NORMLAB_MODEL_AVX2
#define NORMLAB_DISPATCH(call)                                                        \
    if (model_kernel_path() == fast::KernelPath::Avx2) return avx2::call;             \
    return portable::call
#else
#define NORMLAB_DISPATCH(call) return portable::call
#endif

namespace normlab::model_kernels {

bool row_norm_forward(float* y, float* abar, const RowNormStats& st, const float* a, const float* g, const float* b,
                      std::ptrdiff_t rows, std::ptrdiff_t cols, const RowNormSpec& spec, float* work) {
    NORMLAB_DISPATCH(row_norm_forward(y, abar, st, a, g, b, rows, cols, spec, work));
}

void row_norm_backward(float* da, const float* dy, const float* g, const float* abar, const RowNormStats& st,
                       std::ptrdiff_t rows, std::ptrdiff_t cols, bool center, float* work) {
    NORMLAB_DISPATCH(row_norm_backward(da, dy, g, abar, st, rows, cols, center, work));
}

void gelu_forward(float* y, float* cdf, const float* z, std::ptrdiff_t n) { NORMLAB_DISPATCH(gelu_forward(y, cdf, z, n)); }

void gelu_backward(float* dz, const float* dy, const float* z, const float* cdf, std::ptrdiff_t n) {
    NORMLAB_DISPATCH(gelu_backward(dz, dy, z, cdf, n));
}

void attention_forward(float* y, float* cache, const float* qkv, const AttentionShape& s, float* work) {
    NORMLAB_DISPATCH(attention_forward(y, cache, qkv, s, work));
}

void attention_backward(float* dqkv, const float* dy, const float* cache, const AttentionShape& s, float* work) {
    NORMLAB_DISPATCH(attention_backward(dqkv, dy, cache, s, work));
}

void attention_weights(float* out, const float* cache, const AttentionShape& s, std::ptrdiff_t b, std::ptrdiff_t head) {
    // cache's P: element (t, j) of case b, head i at ((i·T + t)·T + j)·B₈ + b, for j ≤ t
    const std::ptrdiff_t T = s.time, lanes = s.lanes();
    for (std::ptrdiff_t j = 0; j < T; ++j)
        for (std::ptrdiff_t t = 0; t < T; ++t) out[t + j * T] = j <= t ? cache[((head * T + t) * T + j) * lanes + b] : 0.0f;
}

void adam_update(float* theta, float* m, float* v, const float* g, std::ptrdiff_t n, const AdamStep& a) {
    NORMLAB_DISPATCH(adam_update(theta, m, v, g, n, a));
}

void matmul(float* C, const float* A, bool transpose_a, const float* B, bool transpose_b, std::ptrdiff_t m,
            std::ptrdiff_t n, std::ptrdiff_t k, bool accumulate) {
    NORMLAB_DISPATCH(matmul(C, A, transpose_a, B, transpose_b, m, n, k, accumulate));
}

}  // namespace normlab::model_kernels

#undef NORMLAB_DISPATCH
