// NormLab core: one set of float32 buffers for timing the fast kernels (fast_norm.hpp), used by
// `normlab-cli bench --cpu`, the GPU lab's CPU bars and bench/normlab_bench alike: the same
// inputs, the same calls (docs/BENCHMARKS.md).
//
// The inputs are ordinary numbers (no NaN, no denormal: those could change a kernel's time),
// from one deterministic pattern that the GPU runner uploads too.
#pragma once

#include "normlab/norm/fast_norm.hpp"

#include <cstddef>
#include <cstdint>

namespace normlab {

// The kernels the benchmarks time. The GPU has all of them; the CPU (fast_norm) no pRMSNorm.
enum class BenchKernel {
    Copy,
    LayerNormForward,
    LayerNormBackward,
    RMSNormForward,
    RMSNormBackward,
    PRMSNormForward,
    PRMSNormBackward,
};

// Whether fast_norm has a CPU kernel for it (all but pRMSNorm's).
bool has_cpu_kernel(BenchKernel kernel);

// v[0..n) in [lo, hi): xorshift32 from `seed`, its first kBenchPatternValues values repeated
// (1 MB: the GPU runner uploads that much and doubles it on the GPU).
inline constexpr std::size_t kBenchPatternValues = std::size_t{1} << 18;
void bench_fill(float* v, std::size_t n, float lo, float hi, std::uint32_t seed);

// Inputs x, dy (rows×cols) ∈ [−2, 2), [−1, 1); g, b (cols) ∈ [0.5, 1.5), [−0.5, 0.5); outputs
// y, dx (rows×cols), dg, db (cols), the per-row mean and rstd of each norm: allocated once
// (throws std::bad_alloc). RMSNorm runs without a bias (the paper's RMSNorm has none).
struct BenchBuffers {
    std::size_t rows = 0, cols = 0;
    fast::FloatBuffer x, dy, y, dx, g, b, dg, db, mean, rstd_ln, rstd_rms;

    BenchBuffers(std::size_t rows, std::size_t cols);

    // Runs one kernel once (nothing for one without a CPU kernel). A backward reads the mean
    // and rstd its forward left: run each forward once first.
    void run(BenchKernel kernel, float eps, fast::KernelPath path = fast::KernelPath::Auto);
};

}  // namespace normlab
