// A benchmark sweep of the GPU kernels (and, beside them, core's fast float32 CPU kernels) over
// rows × widths, spread across frames so that the UI never freezes: the GPU lab, the overlay on
// other labs (time_norm_kernels) and `normlab --bench-gpu` all run one.
//
// [SECTION] The plan and the budget
// [SECTION] The sweep
// [SECTION] One shape, for other labs
// [SECTION] normlab --bench-gpu
//
// How it measures. Per shape and device: one warm-up run of each kernel, then `reps` rounds in
// which each kernel runs once, in turn, so that a burst of outside load (the machine may be
// shared) hits them all alike; each kernel's median is kept (BenchPoint). The GPU is timed as the runner says (TimingMethod): GL_TIME_ELAPSED queries
// on real GPUs, read a frame or more later; glFinish + std::chrono::steady_clock on software
// renderers, whose queries read ~0 for compute work. The CPU kernels (normlab::fast, all
// threads) are timed with steady_clock around each call, on the UI thread, one step at a time:
// on llvmpipe the "GPU" is the same CPU, so the two must never run at once.
#pragma once

#include "gpu_runner.hpp"

#include <normlab/norm/fast_norm.hpp>
#include <normlab/labs/gpu_lab.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace normlab::ui {

// [SECTION] The plan and the budget ---------------------------------------------------------

struct SweepPlan {
    std::vector<int> rows, cols;                 // every rows × cols pair is measured
    std::vector<BenchKernel> kernels{std::begin(kBenchKernels), std::end(kBenchKernels)};
    int reps = 9;                                // timed runs per kernel and shape
    bool cpu = true;                             // also time fast_norm's copy, LayerNorm, RMSNorm
    double p = 0.0625;                           // pRMSNorm's p
    float eps = 1e-5f;
};

// What one advance() may do: it always takes one step, then more while both limits hold.
struct SweepBudget {
    double wall_ms = 8.0;       // time spent in advance() (≈ half a 60 fps frame)
    double gpu_bytes = 2e9;     // traffic of the GPU runs issued (with queries the GPU works after we return)
    bool wait = false;          // wait for timer results when the ring is full or at the end (no frame to keep)
};

// [SECTION] The sweep -----------------------------------------------------------------------

class GpuSweep {
public:
    // The runner must outlive the sweep. Where it is not available() (WebGL2, no OpenGL 4.3) the
    // sweep times the CPU kernels alone, if the plan asks for them (else it throws), and its
    // results' notes say why the GPU did not run.
    GpuSweep(GpuRunner& runner, SweepPlan plan);
    ~GpuSweep();
    GpuSweep(const GpuSweep&) = delete;
    GpuSweep& operator=(const GpuSweep&) = delete;

    // Does the next piece of work within the budget (see SweepBudget) and collects the timer
    // results that have arrived.
    void advance(const SweepBudget& budget);
    // Runs to the end, waiting for the GPU as needed (scripts; not for a frame loop).
    void run_to_end();

    bool done() const;
    double progress() const;          // 0 … 1
    // Steps in the plan: advance() takes at least one per call, so a sweep ends after at most this
    // many calls (plus those that wait for timer results), however fast the machine.
    int step_count() const { return static_cast<int>(steps_.size()); }
    std::string status() const;       // what runs now, in the UI's language: "GPU LayerNorm backward at 1024 × 4096"
    const BenchResults& results() const { return results_; }   // grows as each median is known
    const SweepPlan& plan() const { return plan_; }

private:
    enum class Device { Gpu, Cpu };
    // One run of each of `kernels`, in order: a whole round of the shape's kernels when it is
    // small, one kernel otherwise.
    struct Step {
        Device device = Device::Gpu;
        int shape = 0;             // index into shapes_
        std::vector<BenchKernel> kernels;
        bool timed = false;        // false: the warm-up round
    };
    struct Shape {
        int rows = 0, cols = 0;
        bool gpu_failed = false, cpu_failed = false;
    };
    struct CpuBuffers;             // fast_norm's inputs and outputs for one shape

    GpuRunner& runner_;
    SweepPlan plan_;
    std::vector<Shape> shapes_;
    std::vector<Step> steps_;
    std::size_t next_ = 0;         // the step to take next
    std::size_t runs_issued_ = 0;  // of steps_[next_]'s kernels, when it is taken in several advance() calls
    std::vector<std::vector<double>> samples_[2];   // [device][shape · kBenchKernelCount + kernel]
    std::unique_ptr<TimerRing> ring_;               // GL_TIME_ELAPSED only
    std::unique_ptr<CpuBuffers> cpu_;
    BenchResults results_;

    bool take_step(Step& step, const SweepBudget& budget, double& gpu_bytes);   // false: stopped part-way
    void record(Device device, int tag, double ms);
    void collect(bool wait);
    bool gpu_step(const Step& step, const SweepBudget& budget, double& gpu_bytes);
    void cpu_step(const Step& step);
};

// The kernels fast_norm has (copy, LayerNorm and RMSNorm forward and backward; no pRMSNorm).

// [SECTION] One shape, for other labs -------------------------------------------------------

// The GPU's times for LayerNorm and RMSNorm, forward and backward, at one activation shape.
struct NormKernelTimes {
    int rows = 0, cols = 0;
    double layernorm_forward_ms = 0.0, layernorm_backward_ms = 0.0;
    double rmsnorm_forward_ms = 0.0, rmsnorm_backward_ms = 0.0;
    TimingMethod timing = TimingMethod::GlTimeElapsed;
    std::string renderer;
};

// The plan that measures them (no copy, no pRMSNorm, no CPU).
SweepPlan norm_times_plan(int rows, int cols, int reps = 9);

// The times from a finished sweep of norm_times_plan(rows, cols); nothing when a kernel is missing.
std::optional<NormKernelTimes> norm_times_from(const BenchResults& results, int rows, int cols);

// Measures them now, waiting for the GPU (scripts and tests; a frame loop uses a GpuSweep of
// norm_times_plan() advanced a little per frame, as gpu_lab.hpp's gpu_norm_times() does).
// Throws std::runtime_error when the shape cannot be run (the reason is in the message).
NormKernelTimes time_norm_kernels(GpuRunner& runner, int rows, int cols, int reps = 9);

// "GPU: LayerNorm fwd+bwd 0.84 ms, RMSNorm 0.61 ms (27% less) at 64×128 · llvmpipe, glFinish + CPU clock"
std::string norm_times_caption(const NormKernelTimes& times);

// [SECTION] normlab --bench-gpu -------------------------------------------------------------

struct GpuBenchOptions {
    bool json = false;
    bool cpu = false;                 // --cpu: fast_norm's kernels at the same shapes
    std::vector<int> rows, cols;      // empty: the GPU lab's default sweep for this renderer
    int reps = 0;                     // 0: the lab's default
    std::optional<TimingMethod> timing;   // --timing: force a method (default: by the renderer)
};

// Runs the sweep on the current context (a hidden window) and prints it: JSON (bench_json) with
// --json, a table otherwise. Returns the exit code: 0, or 1 with one line on stderr when there
// is no GL 4.3 or a shader does not build.
int run_gpu_bench(const GpuBenchOptions& options);

}  // namespace normlab::ui
