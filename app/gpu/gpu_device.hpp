// The GPU as the labs share it: one runner (made on first use, with the window's context
// current), the watch for a lost context, and the small sweep that times one activation shape
// for a lab that lays GPU times over its own figures (the Training lab). The GPU lab's own
// sweep and figures are its display state (labs/gpu_lab.hpp); this is what every lab reaches
// through LabContext::gpu (docs/ARCHITECTURE.md, Data flow).
#pragma once

#include "gpu_runner.hpp"
#include "gpu_sweep.hpp"

#include <memory>
#include <optional>
#include <string>

namespace normlab::ui {

// Destroyed before the window (its GL objects need the context), after every lab's UI struct
// (a lab's sweep runs on this runner).
struct GpuDevice {
    std::unique_ptr<GpuRunner> runner;   // null until first use
    bool runner_tried = false;           // made once; a failure is reported once
    ContextWatch watch;                  // a lost GL context turns the GPU work off for good
    // The one shape other labs measure at a time (gpu_norm_times).
    std::unique_ptr<GpuSweep> overlay;
    int overlay_rows = 0, overlay_cols = 0;
    std::optional<NormKernelTimes> overlay_times;
    std::string overlay_error;           // why the overlay's shape could not be measured
};

// The runner, made on first call; null when the GPU path is off (no GL 4.3, a shader that does
// not build, a lost context): then *why (when given) says why, in one line, and that was printed
// once on stderr.
GpuRunner* gpu_runner(GpuDevice& gpu, std::string* why = nullptr);

// Once per frame, with the window's context current: asks whether the GL context was lost (a
// GPU reset; see ContextWatch). The first time it was, says so in one line on stderr, drops the
// overlay's work and turns the GPU path off (gpu_runner() is null from then on; the GPU lab
// stops its sweep and shows why); the labs' CPU work carries on.
void watch_gl_context(GpuDevice& gpu);

// For other labs (e.g. the training lab's time split): the GPU's LayerNorm and RMSNorm times at
// one activation shape (rows = cases in a batch, cols = features). Never waits: the first call
// for a shape starts measuring it, each later call does a few ms of the work (and sets
// `animate`: measured over the coming frames), and the times come back once measured (within a
// few frames). Null until then, and when the GPU path is off (*why says why). One shape at a
// time: asking for another starts over.
const NormKernelTimes* gpu_norm_times(GpuDevice& gpu, bool& animate, int rows, int cols, std::string* why = nullptr);

}  // namespace normlab::ui
