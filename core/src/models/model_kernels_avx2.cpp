// NormLab core (private): model_kernels_body.hpp compiled with -mavx2 -mfma (core/CMakeLists.txt adds
// this file on x86-64 builds only). Its code runs only when model_kernel_path() (mlp.hpp) says Avx2.
//
// Eigen is renamed in this file: every Eigen template instantiated here (the GEMM kernels,
// packet functions, Matrix members) is a different symbol from the portable build's, so the
// linker can never pick this file's AVX2 code for the portable path, nor the reverse. The file
// uses nothing of the standard library itself; the test core.model_kernels_isolated reads its
// symbols (nm) and fails on any outside these namespaces.
#define Eigen normlab_avx2_Eigen
#include <Eigen/Core>

#include <cstddef>

#define NORMLAB_KERNELS_NS avx2
#include "models/model_kernels_body.hpp"
