// NormLab core: the GPU lab's benchmark as plain data — no GL here (app/gpu/gpu_runner.hpp runs the
// kernels; this file says what is measured, what it means, and how it is shown).
//
// [SECTION] Kernels   — names, the norm each computes, the bytes each moves
// [SECTION] Timing    — how the GPU was timed, medians, GB/s
// [SECTION] Results   — one median per kernel and shape, GPU and CPU
// [SECTION] Lab state — the sweep the GPU lab runs (Session::gpu)
// [SECTION] Figures   — GB/s against width (with the copy ceiling), RMSNorm's time saved
// [SECTION] JSON      — `normlab --bench-gpu --json`
//
// The question the lab answers: the RMSNorm paper (Zhang & Sennrich 2019, §5) reports that
// RMSNorm cuts running time by 7%–64% against LayerNorm; both kernels read and write the same
// bytes, so once each is a single memory-bound pass the gap should nearly close. Each kernel's
// GB/s is therefore shown against a plain copy's, the ceiling it cannot beat.
#pragma once

#include "normlab/norm/bench_buffers.hpp"
#include "normlab/norm/norm.hpp"
#include "normlab/plot/plot.hpp"
#include "normlab/base/stats.hpp"   // median, for the sweeps' samples

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace normlab {

// [SECTION] Kernels -------------------------------------------------------------------------

// BenchKernel and the CPU's buffers: norm/bench_buffers.hpp.
inline constexpr BenchKernel kBenchKernels[] = {
    BenchKernel::Copy,           BenchKernel::LayerNormForward, BenchKernel::LayerNormBackward,
    BenchKernel::RMSNormForward, BenchKernel::RMSNormBackward,  BenchKernel::PRMSNormForward,
    BenchKernel::PRMSNormBackward};
inline constexpr int kBenchKernelCount = 7;

std::string_view to_string(BenchKernel kernel);      // "copy", "layernorm_forward", … (JSON, the CLI's bench)
std::string_view display_name(BenchKernel kernel);   // "copy", "LayerNorm forward", …
std::optional<BenchKernel> parse_bench_kernel(std::string_view name);
Norm bench_norm(BenchKernel kernel);                 // Norm::None for the copy
bool is_backward(BenchKernel kernel);
// The forward or backward of `norm` (LayerNorm, RMSNorm or PRMSNorm).
BenchKernel bench_kernel(Norm norm, bool backward);

// Bytes a kernel must move at rows × cols float32 (docs/ARCHITECTURE.md): the copy and a forward read x and
// write y, 2·R·C·4; a backward reads x and dy and writes dx, 3·R·C·4. g, b, the per-row mean and
// rstd and the per-column dg, db are one row or column and are not counted.
double bench_bytes(BenchKernel kernel, long rows, long cols);

// [SECTION] Timing --------------------------------------------------------------------------

// How the GPU's times were taken. GL_TIME_ELAPSED queries time the GPU's own work and are read
// a frame or more later. On Mesa's software renderers they have been seen to read ~0 for compute
// work (docs/ARCHITECTURE.md; Mesa 22.3.6's llvmpipe reads the real time, docs/BENCHMARKS.md), so there the
// runner brackets the work with glFinish and reads a CPU clock, which is right either way.
enum class TimingMethod { GlTimeElapsed, GlFinishCpuClock };
std::string_view to_string(TimingMethod method);   // "gl_time_elapsed" | "glfinish_cpu_clock"
std::string_view describe(TimingMethod method);    // the sentence the UI shows

// GB/s (10⁹ bytes per second) for `bytes` moved in `ms` milliseconds; NaN unless ms > 0.
double gbps(double bytes, double ms);

// RMSNorm's running time saved against LayerNorm's, in percent: 100·(1 − t_rms/t_ln), the
// paper's measure (7%–64%). NaN unless both times are > 0.
double time_saved_percent(double layernorm_ms, double rmsnorm_ms);

inline constexpr double kPaperTimeSavedLow = 7.0;    // % (Zhang & Sennrich 2019, §5)
inline constexpr double kPaperTimeSavedHigh = 64.0;

// [SECTION] Results -------------------------------------------------------------------------

// One kernel at one shape: the median of its timed runs, and the middle half of them (first to
// third quartile; 0, 0 where not kept).
struct BenchPoint {
    BenchKernel kernel = BenchKernel::Copy;
    int rows = 0, cols = 0;
    double ms = 0.0;
    double q1_ms = 0.0, q3_ms = 0.0;
};

// The point of one kernel's timed runs: their median and quartiles.
BenchPoint bench_point(BenchKernel kernel, int rows, int cols, const std::vector<double>& ms);

// Whether two kernels' times cannot be told apart: the middle halves of their timed runs overlap
// (a loaded machine, or a difference smaller than the run-to-run spread). False where the
// quartiles are not kept.
bool within_noise(const BenchPoint& a, const BenchPoint& b);

struct BenchResults {
    std::string renderer;                        // GL_RENDERER
    TimingMethod timing = TimingMethod::GlTimeElapsed;
    std::vector<BenchPoint> gpu;
    std::vector<BenchPoint> cpu;                 // core's fast_norm kernels (no pRMSNorm there)
    unsigned cpu_threads = 0;                    // fast::num_threads() when cpu was measured
    std::string cpu_path;                        // "avx2" | "scalar"
    std::vector<std::string> notes;              // shapes skipped, and why
};

// The point of that kernel and shape, or null.
const BenchPoint* find_point(const std::vector<BenchPoint>& points, BenchKernel kernel, int rows, int cols);

// The widths (sorted, distinct) of the points at `rows`.
std::vector<int> widths_at(const std::vector<BenchPoint>& points, int rows);

// [SECTION] Lab state -----------------------------------------------------------------------

// The sizes a sweep can take, for rows and for widths (cols).
inline constexpr int kGpuLabSizes[] = {256, 512, 1024, 2048, 4096, 8192};
inline constexpr int kGpuLabSizeCount = 6;
inline constexpr int kGpuLabMinReps = 3, kGpuLabMaxReps = 25;

struct GpuLabState {
    bool rows_on[kGpuLabSizeCount] = {true, false, true, false, true, true};
    bool cols_on[kGpuLabSizeCount] = {true, false, true, true, true, true};
    int reps = 9;            // timed runs per kernel and shape (after one warm-up run)
    bool cpu = true;         // time core's fast_norm kernels at the same shapes
    bool cpu_curves = false; // …and draw them in the GB/s figures (log scale) as well as in the table
    int shown_rows = 1024;   // the row count the figures show
    double p = 0.0625;       // pRMSNorm's p (the paper's 6.25%); k = ⌈C·p⌉
    double eps = 1e-5;       // ε, inside the square root
};

// The default sweep for a software renderer (llvmpipe: 256 and 1024 rows, widths 256, 1024,
// 4096, a few seconds in all) or for a real GPU (256 to 8192 rows and widths).
GpuLabState gpu_lab_default_state(bool software_renderer);

std::vector<int> selected_rows(const GpuLabState& state);
std::vector<int> selected_cols(const GpuLabState& state);

// [SECTION] Figures -------------------------------------------------------------------------

// The colour of a kernel's curves: the norms' colours of the other labs (LayerNorm blue,
// RMSNorm vermillion, pRMSNorm orange), the copy black.
Color bench_kernel_color(BenchKernel kernel);

// GB/s against the width C at `rows` rows, forward or backward kernels, on the GPU (the copy thick,
// black; y from 0); with_cpu: also the CPU's, dashed with square markers (copy grey), on a log
// scale (the two differ tenfold or more). Name "gpu_forward_gbps" / "gpu_backward_gbps"; the title
// names the renderer (short_renderer). Results of the CPU alone (the GPU kernels were off: WebGL2,
// no OpenGL 4.3) give the CPU's curves from 0, the title naming the CPU.
Plot gpu_bandwidth_plot(const BenchResults& results, bool backward, int rows, bool with_cpu = false);

// RMSNorm's time saved against LayerNorm (%) against the width at `rows` rows: forward, backward
// and both on the GPU, both on the CPU; the paper's 7% and 64% as a dashed pair named in the legend.
// Name "gpu_rmsnorm_time_saved".
Plot gpu_time_saved_plot(const BenchResults& results, int rows);

// A short form of GL_RENDERER for titles: the name before " (" or "/" ("llvmpipe (LLVM 15.0.6,
// 256 bits)" → "llvmpipe", "NVIDIA H100 80GB HBM3/PCIe/SSE2" → "NVIDIA H100 80GB HBM3"), at most
// max_chars code points (longer: cut at a space, ending in "…").
std::string short_renderer(const std::string& renderer, std::size_t max_chars = 28);

// [SECTION] JSON ----------------------------------------------------------------------------

// {"renderer": …, "timing": "gl_time_elapsed" | "glfinish_cpu_clock",
//  "results": [{"kernel", "rows", "cols", "ms", "gbps", "copy_gbps"}, …],
//  "cpu": {"threads", "path", "results": [same keys]}   (when the CPU was measured),
//  "notes": [...]}
// copy_gbps is the copy's GB/s at the same shape on the same device (null when not measured).
std::string bench_json(const BenchResults& results);

}  // namespace normlab
