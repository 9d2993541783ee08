// NormLab core (private): model_kernels_body.hpp compiled with -mavx2 -mfma (core/CMakeLists.txt adds
// this file on x86-64 builds only). Its code runs only when model_kernel_path() (mlp.hpp) says Avx2.
//
// Eigen is renamed in this file: every Eigen template instantiated here (the GEMM kernels,
// packet functions, Matrix members) is a different symbol from the portable build's, so the
// linker can never pick this file's AVX2 code for the portable path, nor the reverse. Of the
// standard library the file uses only what compiles inline (sqrt, memcpy of 4 bytes), no template;
// the test core.model_kernels_isolated reads its symbols (nm) and fails on any outside these
// namespaces.
#define Eigen normlab_avx2_Eigen
#include <Eigen/Core>

#include "models/model_kernels.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#define NORMLAB_KERNELS_NS avx2
#include "models/model_kernels_body.hpp"
