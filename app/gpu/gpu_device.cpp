// The GPU as the labs share it (see gpu_device.hpp).
#include "gpu_device.hpp"

#include <normlab/base/i18n.hpp>

#include <cstdio>

namespace normlab::ui {

namespace {
constexpr SweepBudget kOverlayBudget{4.0, 5e8, false};   // a frame's share of the overlay's sweep
}  // namespace

GpuRunner* gpu_runner(GpuDevice& gpu, std::string* why) {
    if (gpu.watch.lost()) {
        if (why != nullptr) *why = gpu.watch.message();
        return nullptr;
    }
    if (!gpu.runner_tried) {
        gpu.runner_tried = true;
        gpu.runner = std::make_unique<GpuRunner>();
        if (!gpu.runner->available())
            std::fprintf(stderr, "normlab: GPU kernels off (the other labs are unaffected): %s\n",
                         gpu.runner->error().c_str());
    }
    if (gpu.runner->available()) return gpu.runner.get();
    if (why != nullptr) *why = gpu.runner->error();
    return nullptr;
}

void watch_gl_context(GpuDevice& gpu) {
    if (!gpu.watch.check()) return;
    std::fprintf(stderr, "normlab: %s. GPU kernels off; the labs carry on on the CPU (the window may stay blank "
                 "until NormLab restarts; the session is autosaved)\n", gpu.watch.message().c_str());
    gpu.overlay.reset();
    gpu.overlay_times.reset();
}

const NormKernelTimes* gpu_norm_times(GpuDevice& gpu, bool& animate, int rows, int cols, std::string* why) {
    GpuRunner* runner = gpu_runner(gpu, why);
    if (runner == nullptr) return nullptr;
    if (rows < 1 || cols < 1) {
        if (why != nullptr) *why = "no activation shape yet";
        return nullptr;
    }
    if (gpu.overlay_rows != rows || gpu.overlay_cols != cols) {
        gpu.overlay_times.reset();
        gpu.overlay_error.clear();
        gpu.overlay_rows = rows;
        gpu.overlay_cols = cols;
        gpu.overlay = std::make_unique<GpuSweep>(*runner, norm_times_plan(rows, cols));
    }
    if (!gpu.overlay_times && gpu.overlay) {
        gpu.overlay->advance(kOverlayBudget);
        animate = true;   // measured over the coming frames
        if (gpu.overlay->done()) {
            gpu.overlay_times = norm_times_from(gpu.overlay->results(), rows, cols);
            if (!gpu.overlay_times)
                gpu.overlay_error = gpu.overlay->results().notes.empty() ? tr("not measured") : gpu.overlay->results().notes.front();
            gpu.overlay.reset();
        }
    }
    if (gpu.overlay_times) return &*gpu.overlay_times;
    if (why != nullptr) *why = gpu.overlay_error.empty() ? tr("measuring on the GPU…") : gpu.overlay_error;
    return nullptr;
}

}  // namespace normlab::ui
