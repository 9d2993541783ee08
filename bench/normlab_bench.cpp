// normlab_bench: Google Benchmark of core's fast float32 kernels (fast_norm.hpp).
//
// Each benchmark is one kernel at one size (rows × cols) on one path (avx2, or scalar = 1), with
// its buffers allocated and touched once, outside the timed loop. bytes_per_second counts the
// bytes a kernel must move (docs/BENCHMARKS.md): copy and the forwards 8 per element (read x,
// write y), the backwards 12 (read x and dy, write dx). Compare a kernel with BM_Copy at the same
// size: that copy (streaming stores, all threads) is the ceiling. normlab-cli bench --cpu gives
// the same numbers as a median of interleaved repetitions, which is steadier on a busy machine.
#include "normlab/norm/bench_buffers.hpp"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

namespace {

using normlab::BenchBuffers;
using normlab::BenchKernel;
using normlab::fast::KernelPath;

constexpr float kEps = 1e-5f;

KernelPath path_of(const benchmark::State& state) {
    return state.range(2) ? KernelPath::Scalar : KernelPath::Auto;
}

void finish(benchmark::State& state, double bytes_per_element, size_t n) {
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                            static_cast<int64_t>(bytes_per_element * static_cast<double>(n)));
    state.counters["threads"] = normlab::fast::num_threads();
}

// One kernel at one size, its buffers (core's benchmark set, bench_buffers.hpp) allocated and
// its forward run once outside the timed loop; `bytes` per element as docs/BENCHMARKS.md counts.
void time_kernel(benchmark::State& state, BenchKernel kernel, BenchKernel forward, double bytes) {
    BenchBuffers buf(static_cast<size_t>(state.range(0)), static_cast<size_t>(state.range(1)));
    buf.run(forward, kEps, path_of(state));
    for (auto _ : state) {
        buf.run(kernel, kEps, path_of(state));
        benchmark::ClobberMemory();
    }
    finish(state, bytes, buf.rows * buf.cols);
}

void BM_Copy(benchmark::State& state) { time_kernel(state, BenchKernel::Copy, BenchKernel::Copy, 8); }
void BM_LayerNormForward(benchmark::State& state) {
    time_kernel(state, BenchKernel::LayerNormForward, BenchKernel::LayerNormForward, 8);
}
void BM_LayerNormBackward(benchmark::State& state) {
    time_kernel(state, BenchKernel::LayerNormBackward, BenchKernel::LayerNormForward, 12);
}
void BM_RmsNormForward(benchmark::State& state) {
    time_kernel(state, BenchKernel::RMSNormForward, BenchKernel::RMSNormForward, 8);
}
void BM_RmsNormBackward(benchmark::State& state) {
    time_kernel(state, BenchKernel::RMSNormBackward, BenchKernel::RMSNormForward, 12);
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
