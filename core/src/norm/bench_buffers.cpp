// NormLab core: the benchmarks' buffers (norm/bench_buffers.hpp).
#include "normlab/norm/bench_buffers.hpp"

#include <algorithm>
#include <cstring>

namespace normlab {

bool has_cpu_kernel(BenchKernel kernel) {
    return kernel != BenchKernel::PRMSNormForward && kernel != BenchKernel::PRMSNormBackward;
}

void bench_fill(float* v, std::size_t n, float lo, float hi, std::uint32_t seed) {
    const std::size_t chunk = std::min(n, kBenchPatternValues);
    std::uint32_t state = seed * 2654435761u + 1u;
    for (std::size_t i = 0; i < chunk; ++i) {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        v[i] = lo + (hi - lo) * static_cast<float>(state >> 8) * (1.0f / 16777216.0f);
    }
    for (std::size_t i = chunk; i < n; i += chunk) std::memcpy(v + i, v, std::min(chunk, n - i) * sizeof(float));
}

BenchBuffers::BenchBuffers(std::size_t r, std::size_t c)
    : rows(r), cols(c), x(r * c), dy(r * c), y(r * c), dx(r * c), g(c), b(c), dg(c), db(c), mean(r), rstd_ln(r),
      rstd_rms(r) {
    bench_fill(x.data(), x.size(), -2.0f, 2.0f, 1);
    bench_fill(dy.data(), dy.size(), -1.0f, 1.0f, 2);
    bench_fill(g.data(), g.size(), 0.5f, 1.5f, 3);
    bench_fill(b.data(), b.size(), -0.5f, 0.5f, 4);
}

void BenchBuffers::run(BenchKernel kernel, float eps, fast::KernelPath path) {
    switch (kernel) {
        case BenchKernel::Copy: fast::copy(y.data(), x.data(), rows * cols, path); break;
        case BenchKernel::LayerNormForward:
            fast::layernorm_forward(y.data(), mean.data(), rstd_ln.data(), x.data(), g.data(), b.data(), rows, cols, eps,
                                    path);
            break;
        case BenchKernel::LayerNormBackward:
            fast::layernorm_backward(dx.data(), dg.data(), db.data(), dy.data(), x.data(), g.data(), mean.data(),
                                     rstd_ln.data(), rows, cols, path);
            break;
        case BenchKernel::RMSNormForward:
            fast::rmsnorm_forward(y.data(), rstd_rms.data(), x.data(), g.data(), nullptr, rows, cols, eps, path);
            break;
        case BenchKernel::RMSNormBackward:
            fast::rmsnorm_backward(dx.data(), dg.data(), nullptr, dy.data(), x.data(), g.data(), rstd_rms.data(), rows,
                                   cols, path);
            break;
        case BenchKernel::PRMSNormForward:
        case BenchKernel::PRMSNormBackward: break;   // no fast CPU pRMSNorm
    }
}

}  // namespace normlab
