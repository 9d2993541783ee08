// The GPU lab: LayerNorm, RMSNorm and pRMSNorm as GL 4.3 compute shaders (shaders/*.comp),
// timed over rows × widths against a plain copy — the bandwidth ceiling — with core's fast CPU
// kernels beside them, and RMSNorm's time saved against the RMSNorm paper's 7%–64%.
// Also the GPU times other labs lay over their own figures (gpu_norm_times).
#pragma once

#include "gpu_runner.hpp"
#include "gpu_sweep.hpp"
#include "lab.hpp"
#include "plot_view.hpp"

#include <normlab/labs/gpu_lab.hpp>
#include <normlab/plot/plot.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace normlab::ui {

inline constexpr LabInfo kGpuInfo{
    tr_later("GPU: LayerNorm vs RMSNorm kernels, GB/s against a plain copy"),
    "LayerNorm (paper eq. 2–3):  y = (x − μ)·rstd ⊙ g + b,  rstd = 1/√(σ² + ε)\n"
    "RMSNorm (eq. 4):  y = x·rstd ⊙ g + b,  rstd = 1/√(mean(x²) + ε);  pRMSNorm: mean over the first k = ⌈C·p⌉\n"
    "Backward (eq. 8–10):  dx = rstd·(dx̂ − mean(dx̂) − x̂·mean(dx̂ ⊙ x̂)),  dg = Σ_rows dy ⊙ x̂,  db = Σ_rows dy\n"
    "Bytes moved:  copy and forward 2·R·C·4,  backward 3·R·C·4;   GB/s = bytes / median time\n"
    "Time saved:  100·(1 − t_RMSNorm / t_LayerNorm);  the paper reports 7%–64% (§5)",
    "shaders/norm_forward.comp, norm_backward.comp, norm_reduce_columns.comp, copy.comp, run by\n"
    "app/gpu/gpu_runner.cpp (GpuRunner) and timed by app/gpu/gpu_sweep.cpp (GpuSweep); CPU: normlab::fast\n"
    "(core/src/norm/fast_norm.cpp); figures and JSON: gpu_bandwidth_plot, gpu_time_saved_plot, bench_json\n"
    "(core/src/labs/gpu_lab.cpp); checked against layer_forward / layer_backward (core/src/norm/norm.cpp)\n"
    "by tests/gui/test_gpu_kernels.cpp; drawn by app/labs/gpu_lab.cpp.",
};

// A figure rebuilt only when what it shows changed: the key names the results' generation and
// size, the rows and the legend switches it was built for.
using GpuCachedPlot = CachedFigure<std::string>;

// The GPU lab's display state and its sweep's GL objects (made on first use, with the context
// current; destroyed with LabUis, before the window and the runner, LabContext::gpu).
struct GpuUi {
    bool sized_for_renderer = false;     // Session::gpu set to this renderer's default sweep
    std::unique_ptr<GpuSweep> sweep;     // the lab's sweep, running or finished
    std::optional<BenchResults> stopped_results;   // what a stopped sweep had measured
    bool started = false;                // the lab started its first sweep (it does so when first drawn)
    int generation = 0;                  // counts sweeps started and stopped: the figures' cache key
    int table_cols = 0;                  // the width the table shows (0: the widest measured)
    PlotView forward_view, backward_view, saved_view;
    GpuCachedPlot forward_plot, backward_plot, saved_plot;
};
using GpuContext = LabContextOf<GpuUi>;

// What the lab shows: the running sweep's results so far, or the stopped one's; null before any.
// `running`: whether a sweep is still measuring.
const BenchResults* gpu_lab_results(const GpuUi& ui, bool* running = nullptr);

// The lab's row in the table of labs (labs.cpp): all the table needs of it (LabWindow, lab.hpp).
// Its draw function reads and edits ctx.session.gpu. Its three figures: when no sweep has run
// yet, the session's sweep is run to the end first (seconds on llvmpipe; the CPU's alone where
// the GPU kernels are off); none when the GL context was lost.
extern const LabWindow<GpuContext> kGpuWindow;

// `normlab --bench-gpu [--json] [--cpu] [--egl] [--rows R,…] [--cols C,…] [--reps N] [--timing M]`
// (app/shell/gpu_bench_main.cpp): main() hands the whole command line over when it names --bench-gpu.
// Runs the sweep (run_gpu_bench) in a hidden GL 4.3 window, or with --egl in a headless EGL
// context (a real GPU without an X server), and returns the exit code: 0; 1 without a display,
// GL 4.3 or working shaders (one line on stderr); 2 on bad usage. --timing gl_time_elapsed |
// glfinish_cpu_clock forces a timing method, to compare the two on one renderer.
bool wants_gpu_bench(int argc, char** argv);
int gpu_bench_main(int argc, char** argv);

}  // namespace normlab::ui
