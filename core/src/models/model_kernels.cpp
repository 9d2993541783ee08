// NormLab core (private): model_kernels.hpp's dispatch and its portable copy.
//
// [SECTION] Paths
// [SECTION] Portable copy
// [SECTION] Dispatch
#include "models/model_kernels.hpp"

#include <Eigen/Core>

#include <atomic>

namespace normlab::model_kernels {

// [SECTION] Paths ---------------------------------------------------------------------------

namespace {
std::atomic<fast::KernelPath> g_path{fast::KernelPath::Auto};
}  // namespace

bool avx2_available() {
#if NORMLAB_MODEL_AVX2
    return fast::avx2_supported();
#else
    return false;
#endif
}

void set_path(fast::KernelPath path) { g_path.store(path); }

fast::KernelPath active_path() {
    return g_path.load() != fast::KernelPath::Scalar && avx2_available() ? fast::KernelPath::Avx2
                                                                          : fast::KernelPath::Scalar;
}

}  // namespace normlab::model_kernels

// [SECTION] Portable copy -------------------------------------------------------------------

#define NORMLAB_KERNELS_NS portable
#include "models/model_kernels_body.hpp"
#undef NORMLAB_KERNELS_NS

// [SECTION] Dispatch ------------------------------------------------------------------------

namespace normlab::model_kernels {

void matmul(float* C, const float* A, bool transpose_a, const float* B, bool transpose_b, std::ptrdiff_t m,
            std::ptrdiff_t n, std::ptrdiff_t k) {
#if NORMLAB_MODEL_AVX2
    if (active_path() == fast::KernelPath::Avx2) return avx2::matmul(C, A, transpose_a, B, transpose_b, m, n, k);
#endif
    portable::matmul(C, A, transpose_a, B, transpose_b, m, n, k);
}

}  // namespace normlab::model_kernels
