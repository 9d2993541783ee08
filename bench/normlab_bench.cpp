// normlab_bench: Google Benchmark of core's fast float32 kernels (fast_norm.hpp).
//
// Each benchmark is one kernel at one size (rows × cols) on one path (avx2, or scalar = 1), with
// its buffers allocated and touched once, outside the timed loop. bytes_per_second counts the
// bytes a kernel must move (docs/BENCHMARKS.md): copy and the forwards 8 per element (read x,
// write y), the backwards 12 (read x and dy, write dx). Compare a kernel with BM_Copy at the same
// size: that copy (streaming stores, all threads) is the ceiling. normlab-cli bench --cpu gives
// the same numbers as a median of interleaved repetitions, which is steadier on a busy machine.
#include "normlab/norm/fast_norm.hpp"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

namespace {

using normlab::fast::FloatBuffer;
using normlab::fast::KernelPath;

constexpr float kEps = 1e-5f;

// Inputs and outputs of one size, filled with ordinary numbers (no NaNs or denormals).
struct Buffers {
    size_t rows, cols;
    FloatBuffer x, dy, y, dx, g, b, dg, db, mean, rstd;
    Buffers(size_t r, size_t c)
        : rows(r), cols(c), x(r * c), dy(r * c), y(r * c), dx(r * c), g(c), b(c), dg(c), db(c), mean(r), rstd(r) {
        std::uint32_t s = 12345;
        auto next = [&s] {
            s = s * 1664525u + 1013904223u;
            return static_cast<float>(s >> 8) * 0x1.0p-24f * 2.0f - 1.0f;  // [−1, 1)
        };
        for (size_t i = 0; i < r * c; ++i) x[i] = 2.0f * next(), dy[i] = next(), y[i] = dx[i] = 0.0f;
        for (size_t j = 0; j < c; ++j) g[j] = 1.0f + 0.5f * next(), b[j] = 0.5f * next();
    }
};

KernelPath path_of(const benchmark::State& state) {
    return state.range(2) ? KernelPath::Scalar : KernelPath::Auto;
}

void finish(benchmark::State& state, double bytes_per_element, size_t n) {
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                            static_cast<int64_t>(bytes_per_element * static_cast<double>(n)));
    state.counters["threads"] = normlab::fast::num_threads();
}

void BM_Copy(benchmark::State& state) {
    Buffers buf(static_cast<size_t>(state.range(0)), static_cast<size_t>(state.range(1)));
    const size_t n = buf.rows * buf.cols;
    for (auto _ : state) {
        normlab::fast::copy(buf.y.data(), buf.x.data(), n, path_of(state));
        benchmark::ClobberMemory();
    }
    finish(state, 8, n);
}

void BM_LayerNormForward(benchmark::State& state) {
    Buffers buf(static_cast<size_t>(state.range(0)), static_cast<size_t>(state.range(1)));
    for (auto _ : state) {
        normlab::fast::layernorm_forward(buf.y.data(), buf.mean.data(), buf.rstd.data(), buf.x.data(), buf.g.data(),
                                         buf.b.data(), buf.rows, buf.cols, kEps, path_of(state));
        benchmark::ClobberMemory();
    }
    finish(state, 8, buf.rows * buf.cols);
}

void BM_LayerNormBackward(benchmark::State& state) {
    Buffers buf(static_cast<size_t>(state.range(0)), static_cast<size_t>(state.range(1)));
    normlab::fast::layernorm_forward(buf.y.data(), buf.mean.data(), buf.rstd.data(), buf.x.data(), buf.g.data(),
                                     buf.b.data(), buf.rows, buf.cols, kEps, path_of(state));
    for (auto _ : state) {
        normlab::fast::layernorm_backward(buf.dx.data(), buf.dg.data(), buf.db.data(), buf.dy.data(), buf.x.data(),
                                          buf.g.data(), buf.mean.data(), buf.rstd.data(), buf.rows, buf.cols,
                                          path_of(state));
        benchmark::ClobberMemory();
    }
    finish(state, 12, buf.rows * buf.cols);
}

void BM_RmsNormForward(benchmark::State& state) {
    Buffers buf(static_cast<size_t>(state.range(0)), static_cast<size_t>(state.range(1)));
    for (auto _ : state) {
        normlab::fast::rmsnorm_forward(buf.y.data(), buf.rstd.data(), buf.x.data(), buf.g.data(), nullptr, buf.rows,
                                       buf.cols, kEps, path_of(state));
        benchmark::ClobberMemory();
    }
    finish(state, 8, buf.rows * buf.cols);
}

void BM_RmsNormBackward(benchmark::State& state) {
    Buffers buf(static_cast<size_t>(state.range(0)), static_cast<size_t>(state.range(1)));
    normlab::fast::rmsnorm_forward(buf.y.data(), buf.rstd.data(), buf.x.data(), buf.g.data(), nullptr, buf.rows,
                                   buf.cols, kEps, path_of(state));
    for (auto _ : state) {
        normlab::fast::rmsnorm_backward(buf.dx.data(), buf.dg.data(), nullptr, buf.dy.data(), buf.x.data(),
                                        buf.g.data(), buf.rstd.data(), buf.rows, buf.cols, path_of(state));
        benchmark::ClobberMemory();
    }
    finish(state, 12, buf.rows * buf.cols);
}

// Sizes: 4 MiB per buffer (fits the L3 cache: no streaming stores), 32 MiB and 128 MiB (the
// 8192 × 4096 of the targets: DRAM-bound, streaming). Each on the AVX2 path; the largest also scalar.
void sizes(benchmark::internal::Benchmark* b) {
    b->ArgNames({"rows", "cols", "scalar"});
    for (const auto& rc : std::vector<std::pair<int64_t, int64_t>>{{256, 4096}, {1024, 1024}, {2048, 4096}, {8192, 4096}})
        b->Args({rc.first, rc.second, 0});
    b->Args({8192, 4096, 1});
    b->UseRealTime()->Unit(benchmark::kMillisecond);
}

BENCHMARK(BM_Copy)->Apply(sizes);
BENCHMARK(BM_LayerNormForward)->Apply(sizes);
BENCHMARK(BM_LayerNormBackward)->Apply(sizes);
BENCHMARK(BM_RmsNormForward)->Apply(sizes);
BENCHMARK(BM_RmsNormBackward)->Apply(sizes);

}  // namespace

BENCHMARK_MAIN();
