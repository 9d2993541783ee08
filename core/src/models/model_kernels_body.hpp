// NormLab core (private): the body of model_kernels.hpp's kernels, compiled once per path into
// namespace NORMLAB_KERNELS_NS (portable or avx2; see model_kernels.hpp). Eigen's products
// (its blocked GEMM) do the work; the flags of the including file decide its vector width.
// No include guard: included once per copy.
#ifndef NORMLAB_KERNELS_NS
#error "define NORMLAB_KERNELS_NS before including model_kernels_body.hpp"
#endif

namespace normlab::model_kernels::NORMLAB_KERNELS_NS {

void matmul(float* C, const float* A, bool transpose_a, const float* B, bool transpose_b, std::ptrdiff_t m,
            std::ptrdiff_t n, std::ptrdiff_t k) {
    using M = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic>;
    Eigen::Map<M> c(C, m, n);
    if (!transpose_a && !transpose_b)
        c.noalias() = Eigen::Map<const M>(A, m, k) * Eigen::Map<const M>(B, k, n);
    else if (!transpose_a)
        c.noalias() = Eigen::Map<const M>(A, m, k) * Eigen::Map<const M>(B, n, k).transpose();
    else if (!transpose_b)
        c.noalias() = Eigen::Map<const M>(A, k, m).transpose() * Eigen::Map<const M>(B, k, n);
    else
        c.noalias() = Eigen::Map<const M>(A, k, m).transpose() * Eigen::Map<const M>(B, n, k).transpose();
}

}  // namespace normlab::model_kernels::NORMLAB_KERNELS_NS
