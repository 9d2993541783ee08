// NormLab core (private): model_kernels.hpp's dispatch and its portable copy.
//
// [SECTION] Paths
// [SECTION] Portable copy
// [SECTION] Dispatch
#include "models/model_kernels.hpp"

#include "normlab/models/mlp.hpp"

#include <Eigen/Core>

#include <atomic>

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

namespace normlab::model_kernels {

void matmul(float* C, const float* A, bool transpose_a, const float* B, bool transpose_b, std::ptrdiff_t m,
            std::ptrdiff_t n, std::ptrdiff_t k) {
#if NORMLAB_MODEL_AVX2
    if (model_kernel_path() == fast::KernelPath::Avx2) return avx2::matmul(C, A, transpose_a, B, transpose_b, m, n, k);
#endif
    portable::matmul(C, A, transpose_a, B, transpose_b, m, n, k);
}

}  // namespace normlab::model_kernels
