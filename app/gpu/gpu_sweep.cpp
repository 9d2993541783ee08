// A benchmark sweep of the GPU kernels, spread across frames (see gpu_sweep.hpp).
//
// [SECTION] Plan → steps
// [SECTION] CPU buffers and kernels
// [SECTION] Taking steps
// [SECTION] One shape, for other labs
// [SECTION] normlab --bench-gpu
#include "gpu_sweep.hpp"

#include <normlab/base/i18n.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <new>
#include <stdexcept>

namespace normlab::ui {

namespace {

using Clock = std::chrono::steady_clock;

// A step runs a whole round (each kernel once) when the round moves at most this much, else one
// kernel: a step then takes ~50 ms at most on llvmpipe (its norm kernels move ~0.5 GB/s), and
// the sweep's frame count does not depend on the machine's speed (scripted screenshots finish in
// time: advance() takes at least one step per call).
constexpr double kBatchBytes = 24e6;

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

std::string shape_text(int rows, int cols) { return std::to_string(rows) + " × " + std::to_string(cols); }

int tag_of(int shape, BenchKernel kernel) { return shape * kBenchKernelCount + static_cast<int>(kernel); }

}  // namespace

// [SECTION] Plan → steps --------------------------------------------------------------------

GpuSweep::GpuSweep(GpuRunner& runner, SweepPlan plan) : runner_(runner), plan_(std::move(plan)) {
    const bool gpu = runner_.available();
    if (!gpu && !plan_.cpu) throw std::invalid_argument("the GPU runner is off: " + runner_.error());
    plan_.reps = std::max(plan_.reps, 1);
    results_.renderer = runner_.renderer();
    results_.timing = runner_.timing();
    for (int r : plan_.rows)
        for (int c : plan_.cols) shapes_.push_back({r, c});
    // Per shape and device: a warm-up round, then plan_.reps timed rounds, each kernel once per
    // round, a round in one step when it is small.
    const auto add_rounds = [&](Device device, int shape, const std::vector<BenchKernel>& kernels) {
        if (kernels.empty()) return;
        const Shape& sh = shapes_[static_cast<std::size_t>(shape)];
        double round_bytes = 0.0;
        for (BenchKernel k : kernels) round_bytes += bench_bytes(k, sh.rows, sh.cols);
        for (int round = 0; round <= plan_.reps; ++round) {
            const bool timed = round > 0;
            if (round_bytes <= kBatchBytes) {
                steps_.push_back({device, shape, kernels, timed});
            } else {
                for (BenchKernel k : kernels) steps_.push_back({device, shape, {k}, timed});
            }
        }
    };
    std::vector<BenchKernel> cpu_kernels;
    for (BenchKernel k : plan_.kernels)
        if (has_cpu_kernel(k)) cpu_kernels.push_back(k);
    if (!gpu) results_.notes.push_back("GPU: " + runner_.error());
    for (int s = 0; s < static_cast<int>(shapes_.size()); ++s) {
        if (gpu) add_rounds(Device::Gpu, s, plan_.kernels);
        if (plan_.cpu) add_rounds(Device::Cpu, s, cpu_kernels);
    }
    for (auto& samples : samples_) samples.resize(shapes_.size() * kBenchKernelCount);
    if (gpu && runner_.timing() == TimingMethod::GlTimeElapsed) ring_ = std::make_unique<TimerRing>();
    if (plan_.cpu) {
        results_.cpu_threads = fast::num_threads();
        results_.cpu_path = std::string(fast::to_string(fast::resolve_path(fast::KernelPath::Auto)));
    }
}

// [SECTION] CPU buffers and kernels ---------------------------------------------------------

// The CPU's buffers of the sweep's current shape: core's benchmark set (bench_buffers.hpp).
struct GpuSweep::CpuBuffers : BenchBuffers {
    CpuBuffers(int r, int c) : BenchBuffers(static_cast<std::size_t>(r), static_cast<std::size_t>(c)) {}
};

GpuSweep::~GpuSweep() = default;

// [SECTION] Taking steps --------------------------------------------------------------------

void GpuSweep::record(Device device, int tag, double ms) {
    auto& samples = samples_[static_cast<int>(device)][static_cast<std::size_t>(tag)];
    samples.push_back(ms);
    if (static_cast<int>(samples.size()) != plan_.reps) return;
    const Shape& shape = shapes_[static_cast<std::size_t>(tag / kBenchKernelCount)];
    (device == Device::Gpu ? results_.gpu : results_.cpu)
        .push_back(bench_point(static_cast<BenchKernel>(tag % kBenchKernelCount), shape.rows, shape.cols, samples));
}

void GpuSweep::collect(bool wait) {
    if (!ring_) return;
    for (const auto& [tag, ms] : ring_->collect(wait)) record(Device::Gpu, tag, ms);
}

bool GpuSweep::gpu_step(const Step& step, const SweepBudget& budget, double& gpu_bytes) {
    Shape& shape = shapes_[static_cast<std::size_t>(step.shape)];
    if (shape.gpu_failed) return true;
    if (const std::string err = runner_.prepare(shape.rows, shape.cols, plan_.p, plan_.eps); !err.empty()) {
        shape.gpu_failed = true;
        results_.notes.push_back("GPU, " + shape_text(shape.rows, shape.cols) + ": " + err);
        return true;
    }
    for (; runs_issued_ < step.kernels.size(); ++runs_issued_) {
        const BenchKernel k = step.kernels[runs_issued_];
        const int tag = tag_of(step.shape, k);
        if (!step.timed) {
            runner_.dispatch(k);
        } else if (!ring_) {   // software renderer: glFinish + CPU clock
            record(Device::Gpu, tag, runner_.time_runs_with_finish(k, 1).front());
        } else {
            while (ring_->full()) {
                if (!budget.wait) return false;   // the results come in later frames; go on from this run then
                collect(true);
            }
            ring_->begin(tag);
            runner_.dispatch(k);
            ring_->end();
        }
        gpu_bytes += bench_bytes(k, shape.rows, shape.cols);
    }
    runs_issued_ = 0;
    return true;
}

void GpuSweep::cpu_step(const Step& step) {
    Shape& shape = shapes_[static_cast<std::size_t>(step.shape)];
    if (shape.cpu_failed) return;
    if (!cpu_ || cpu_->rows != static_cast<std::size_t>(shape.rows) || cpu_->cols != static_cast<std::size_t>(shape.cols)) {
        cpu_.reset();
        try {
            cpu_ = std::make_unique<CpuBuffers>(shape.rows, shape.cols);
        } catch (const std::bad_alloc&) {
            shape.cpu_failed = true;
            results_.notes.push_back("CPU, " + shape_text(shape.rows, shape.cols) + ": out of memory");
            return;
        }
        cpu_->run(BenchKernel::LayerNormForward, plan_.eps);   // mean, rstd for the backwards
        cpu_->run(BenchKernel::RMSNormForward, plan_.eps);
    }
    for (BenchKernel k : step.kernels) {
        const auto t0 = Clock::now();
        cpu_->run(k, plan_.eps);
        const double ms = ms_since(t0);
        if (step.timed) record(Device::Cpu, tag_of(step.shape, k), ms);
    }
}

bool GpuSweep::take_step(Step& step, const SweepBudget& budget, double& gpu_bytes) {
    if (step.device == Device::Gpu) return gpu_step(step, budget, gpu_bytes);
    cpu_step(step);
    return true;
}

void GpuSweep::advance(const SweepBudget& budget) {
    const auto t0 = Clock::now();
    collect(false);
    double gpu_bytes = 0.0;
    for (bool first = true; next_ < steps_.size(); first = false) {
        if (!first && (ms_since(t0) >= budget.wall_ms || gpu_bytes >= budget.gpu_bytes)) break;
        if (!take_step(steps_[next_], budget, gpu_bytes)) break;
        ++next_;
    }
    if (next_ == steps_.size()) {
        cpu_.reset();   // the sweep's CPU buffers can be large; the GPU's stay for the next sweep
        if (budget.wait)
            while (ring_ && ring_->in_flight() > 0) collect(true);
    }
    collect(false);
}

void GpuSweep::run_to_end() {
    const SweepBudget all{std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(), true};
    while (!done()) advance(all);
}

bool GpuSweep::done() const { return next_ == steps_.size() && (!ring_ || ring_->in_flight() == 0); }

double GpuSweep::progress() const {
    if (steps_.empty() || done()) return 1.0;
    return std::min(0.99, static_cast<double>(next_) / static_cast<double>(steps_.size()));
}

std::string GpuSweep::status() const {
    if (done()) return tr("done");
    if (next_ == steps_.size()) return tr("waiting for the GPU's timer results");
    const Step& s = steps_[next_];
    const Shape& shape = shapes_[static_cast<std::size_t>(s.shape)];
    const std::string what = s.kernels.size() == 1 ? std::string(display_name(s.kernels.front())) : tr("kernels");
    const std::string at = shape_text(shape.rows, shape.cols);
    const std::string step = s.device == Device::Gpu ? tr("GPU {0} at {1}", what, at) : tr("CPU {0} at {1}", what, at);
    return s.timed ? step : tr("{0} (warm-up)", step);
}

// [SECTION] One shape, for other labs -------------------------------------------------------

SweepPlan norm_times_plan(int rows, int cols, int reps) {
    SweepPlan plan;
    plan.rows = {rows};
    plan.cols = {cols};
    plan.kernels = {BenchKernel::LayerNormForward, BenchKernel::LayerNormBackward, BenchKernel::RMSNormForward,
                    BenchKernel::RMSNormBackward};
    plan.reps = reps;
    plan.cpu = false;
    return plan;
}

std::optional<NormKernelTimes> norm_times_from(const BenchResults& results, int rows, int cols) {
    NormKernelTimes t;
    t.rows = rows;
    t.cols = cols;
    t.timing = results.timing;
    t.renderer = results.renderer;
    for (auto [kernel, ms] : {std::pair{BenchKernel::LayerNormForward, &t.layernorm_forward_ms},
                              {BenchKernel::LayerNormBackward, &t.layernorm_backward_ms},
                              {BenchKernel::RMSNormForward, &t.rmsnorm_forward_ms},
                              {BenchKernel::RMSNormBackward, &t.rmsnorm_backward_ms}}) {
        const BenchPoint* p = find_point(results.gpu, kernel, rows, cols);
        if (p == nullptr) return std::nullopt;
        *ms = p->ms;
    }
    return t;
}

NormKernelTimes time_norm_kernels(GpuRunner& runner, int rows, int cols, int reps) {
    GpuSweep sweep(runner, norm_times_plan(rows, cols, reps));
    sweep.run_to_end();
    if (auto t = norm_times_from(sweep.results(), rows, cols)) return *t;
    const auto& notes = sweep.results().notes;
    throw std::runtime_error(notes.empty() ? "no GPU times at " + shape_text(rows, cols) : notes.front());
}

std::string norm_times_caption(const NormKernelTimes& t) {
    const double ln = t.layernorm_forward_ms + t.layernorm_backward_ms;
    const double rms = t.rmsnorm_forward_ms + t.rmsnorm_backward_ms;
    const double saved = time_saved_percent(ln, rms);
    const std::string l = format_number(ln, 3), r = format_number(rms, 3);
    const std::string shape = std::to_string(t.rows) + "×" + std::to_string(t.cols);
    std::string caption =
        !std::isfinite(saved) ? tr("GPU: LayerNorm fwd+bwd {0} ms, RMSNorm {1} ms at {2}", l, r, shape)
        : saved >= 0.0 ? tr("GPU: LayerNorm fwd+bwd {0} ms, RMSNorm {1} ms ({2}% less) at {3}", l, r, format_number(saved, 2), shape)
                       : tr("GPU: LayerNorm fwd+bwd {0} ms, RMSNorm {1} ms ({2}% more) at {3}", l, r, format_number(-saved, 2), shape);
    caption += " · " + short_renderer(t.renderer, 24);
    if (t.timing == TimingMethod::GlFinishCpuClock) caption += std::string(", ") + tr("glFinish + CPU clock");
    return caption;

}

// [SECTION] normlab --bench-gpu -------------------------------------------------------------

namespace {

void print_table(const char* device, const std::vector<BenchPoint>& points) {
    std::printf("\n%s\n%-20s %6s %6s %10s %9s %10s\n", device, "kernel", "rows", "cols", "ms", "GB/s", "of copy");
    for (const BenchPoint& p : points) {
        const double g = gbps(bench_bytes(p.kernel, p.rows, p.cols), p.ms);
        const BenchPoint* copy = find_point(points, BenchKernel::Copy, p.rows, p.cols);
        const double c = copy != nullptr ? gbps(bench_bytes(BenchKernel::Copy, p.rows, p.cols), copy->ms) : NAN;
        std::printf("%-20s %6d %6d %10.4f %9.2f %9.0f%%\n", std::string(to_string(p.kernel)).c_str(), p.rows, p.cols,
                    p.ms, g, 100.0 * g / c);
    }
}

}  // namespace

int run_gpu_bench(const GpuBenchOptions& options) {
    GpuRunner runner(embedded_shader_sources(), {0, options.timing});
    if (!runner.available()) {
        std::fprintf(stderr, "normlab: --bench-gpu: %s\n", runner.error().c_str());
        return 1;
    }
    const GpuLabState defaults = gpu_lab_default_state(is_software_renderer(runner.renderer()));
    SweepPlan plan;
    plan.rows = options.rows.empty() ? selected_rows(defaults) : options.rows;
    plan.cols = options.cols.empty() ? selected_cols(defaults) : options.cols;
    plan.reps = options.reps > 0 ? options.reps : defaults.reps;
    plan.cpu = options.cpu;
    plan.p = defaults.p;
    plan.eps = static_cast<float>(defaults.eps);
    GpuSweep sweep(runner, plan);
    sweep.run_to_end();
    const BenchResults& r = sweep.results();
    if (options.json) {
        std::printf("%s\n", bench_json(r).c_str());
    } else {
        std::printf("renderer: %s\ntiming:   %s\nmedian of %d runs after one warm-up; GB/s counts 2·R·C·4 bytes "
                    "(copy, forward) or 3·R·C·4 (backward)\n",
                    r.renderer.c_str(), std::string(describe(r.timing)).c_str(), plan.reps);
        print_table("GPU", r.gpu);
        if (!r.cpu.empty()) print_table(("CPU (fast_norm, " + std::to_string(r.cpu_threads) + " threads, " +
                                            r.cpu_path + ")").c_str(), r.cpu);
        for (const std::string& note : r.notes) std::printf("note: %s\n", note.c_str());
    }
    return 0;
}

}  // namespace normlab::ui
