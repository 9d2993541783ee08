// NormLab core (private): the float32 models' large products, on the fastest path this CPU has.
//
// [SECTION] Kernels — matmul, on the path mlp.hpp's model_kernel_path() names
//
// The same source, model_kernels_body.hpp, is compiled twice (docs/ARCHITECTURE.md, Layers: models):
// once for the build's target (x86-64's SSE2, or WebAssembly) in namespace portable, and once
// with -mavx2 -mfma in namespace avx2 (x86-64 builds only, model_kernels_avx2.cpp). The AVX2
// copy renames Eigen's namespace too, so that none of its template instances can stand in for
// the portable build's at link time (one definition each). fast_norm's CPUID check picks which
// copy runs (mlp.hpp: set_model_kernel_path). float64 never comes here: the reference path stays
// on the build's own Eigen.
#pragma once

#include <cstddef>

namespace normlab::model_kernels {

// [SECTION] Kernels -------------------------------------------------------------------------

// C = op(A) · op(B), column-major float matrices, contiguous (leading dimension = rows):
//   C m×n (overwritten); op(A) m×k: A is m×k, or k×m when transpose_a; op(B) k×n: B is k×n,
//   or n×k when transpose_b. None may alias C.
void matmul(float* C, const float* A, bool transpose_a, const float* B, bool transpose_b, std::ptrdiff_t m,
            std::ptrdiff_t n, std::ptrdiff_t k);

namespace portable {
void matmul(float* C, const float* A, bool transpose_a, const float* B, bool transpose_b, std::ptrdiff_t m,
            std::ptrdiff_t n, std::ptrdiff_t k);
}
namespace avx2 {
void matmul(float* C, const float* A, bool transpose_a, const float* B, bool transpose_b, std::ptrdiff_t m,
            std::ptrdiff_t n, std::ptrdiff_t k);
}

}  // namespace normlab::model_kernels
