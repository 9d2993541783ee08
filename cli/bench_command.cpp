// `normlab-cli bench`: the benchmarks of docs/ARCHITECTURE.md's "Performance targets".
//   --cpu    core's fast float32 kernels (fast_norm.hpp) against the fastest plain copy, on
//            buffers allocated once: the median of the repetitions as ms, GB/s and the fraction
//            of the copy's bandwidth;
//   --train  training steps per second of the training lab's MLP (training.hpp) at the default
//            sizes, for each norm;
//   --depth  milliseconds per training step of the depth lab's transformer (depth.hpp) at
//            normlab-cli depth's defaults;
//   --depth-demo  the Depth lab's default demo as the app trains it (bench_demo.cpp).
// With --torch, the same work in PyTorch (bench/torch_peer.py, a child process) is timed in the
// same run, interleaved repetition by repetition, and the ratios are reported.
//
// [SECTION] Help
// [SECTION] Timing: interleaved repetitions, medians
// [SECTION] --cpu: the kernels
// [SECTION] --train: steps per second
// [SECTION] --depth: ms per step of the transformer
// [SECTION] Entry point
#include "bench_demo.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "torch_peer.hpp"

#include "normlab/models/datasets.hpp"
#include "normlab/models/depth.hpp"
#include "normlab/norm/bench_buffers.hpp"
#include "normlab/base/input_error.hpp"
#include "normlab/norm/fast_norm.hpp"
#include "normlab/base/stats.hpp"
#include "normlab/models/training.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

namespace normlab::cli {

// [SECTION] Help ----------------------------------------------------------------------------

const char kBenchHelp[] = R"(Usage: normlab-cli bench --cpu [--rows R] [--cols C] [--reps N] [--path P] [--threads T] [--torch] [--json]
       normlab-cli bench --train [--dataset D] [--steps N] [--reps N] [--precision P] [--path P] [--torch] [--json]
       normlab-cli bench --depth [--placement P] [--norm N] [--steps N] [--reps N] [--precision P] [--path P]
                                 [--torch] [--json]
       normlab-cli bench --depth-demo [--precision f32|f64] [--threads T] [--scene FILE] [--json]

--cpu: times the fast float32 kernels of core (LayerNorm and RMSNorm, forward and backward, one row per
case, ε inside the square root) on a rows × cols batch, against the fastest plain copy of the same
data (streaming stores when the CPU has them, all threads): for a kernel that only has to stream its
data through, that copy is the ceiling. Buffers are allocated once and touched before timing; the
kernels run in turn, rep after rep, and each one's median time is reported.

Bytes moved, counted per element: copy and forwards 8 (read x, write y), backwards 12 (read x and dy,
write dx); g, b, mean, rstd, dg, db are one row or column and not counted. GB/s = 10⁹ bytes/s.
LayerNorm has a bias (its backward also computes dg and db); RMSNorm has none (its backward computes
dg). "memcpy" is the C library's memcpy on one thread, for comparison.

--train: trains the training lab's MLP at the default sizes of a data set (normlab-cli train's:
spiral: 2 hidden layers × 32, ReLU, batch 32, Adam, float64) with each norm (none, layernorm,
rmsnorm, prmsnorm), without evaluations, and reports training steps per second (the median over
the repetitions of N steps each). A step is what normlab-cli train does per step: next mini-batch,
forward, cross-entropy, backward, Adam update (plus the per-layer gradient norms it records).

--depth: trains the depth lab's transformer at normlab-cli depth's defaults (sort of 6 digits, so
batches of 32 × 12 tokens; 6 layers, width 64, 4 heads, FFN 4·64, Adam lr 1e-3, float64, one thread)
with the given placement (default preln) and norm (default layernorm), without evaluations, and
reports milliseconds per step (the median over the repetitions of N steps each). A step is what
normlab-cli depth does per step: a fresh batch, forward, cross-entropy, backward, the per-layer
measure mean |∂L/∂W₂|, Adam update. With --precision f32 the float64 model is timed too, in
turn with it ("f64_ms_per_step", "f32_over_f64": float64's time over float32's).

--depth-demo: the Depth lab's default demo, as a new session's lab plays it in the app: its default
state (3 placements × 100 steps, the learning-rate sweep of 6 rates × 3 placements × 30 steps, then
the claims' extra seeds, 4 × 3 placements × 50 steps; float32 unless --precision f64) on the app's
kind of worker thread, a snapshot published as the app's worker publishes them. Reports the seconds
from the start until the 3 runs are done, the sweep is done, the seeds are done and the whole demo
(samples included) is done, the model steps of each part, the units of work, the process's CPU time
(÷ the whole demo's time: how many cores it kept busy) and the load average (/proc/loadavg) before
and after. --scene FILE: that scene's Depth lab instead of the defaults (its
data files as `export` reads them, --read-outside-files too). --threads T: the threads a unit's runs are stepped on (default:
the lab's, as in the app; at most one per placement is used). One run per command: interleave runs of different settings to compare.

--torch: the same work in PyTorch, timed in the same run, each repetition right after ours; the
report adds its numbers and ours/PyTorch. Kernels: float32, torch.nn.functional.layer_norm and an
RMSNorm of torch ops (x · rsqrt(mean(x²) + ε) · g), forwards under no_grad, backwards through
autograd, on as many threads as ours. Training: the identical model and optimizer on one thread
(ours runs a step on one thread), in float64 (ours) and in float32 (PyTorch's usual precision, its
fastest); for --depth, the same transformer written in torch ops (bench/torch_peer.py's Depth: the
same sizes, placement, norms, initialization law and optimizer; its own random tokens). The peer runs with Debian's OpenBLAS first on its library path where it is installed
(libopenblas0-serial: Debian's torch otherwise takes whatever libblas.so.3 is selected, often the
reference BLAS, several times slower); the report names the BLAS it used. PyTorch is optional: it
is run by bench/torch_peer.py with /usr/bin/python3 (or --python, or $NORMLAB_PYTHON); without it
the PyTorch column is skipped with a note saying how to install it (Debian: sudo apt-get install
python3-torch libopenblas0-serial).

Options:
  --cpu          time the CPU kernels (the GPU kernels are timed in the app's GPU lab)
  --train        time training steps instead
  --depth        time the depth lab's transformer steps instead
  --torch        also time PyTorch's version of the same work, in the same run
  --python P     the Python that has PyTorch (default: $NORMLAB_PYTHON, else /usr/bin/python3)
  --rows R       cases (default 8192)
  --cols C       values per case (default 4096); rows·cols ≤ 2^28
  --reps N       timed repetitions of each kernel (default 20) or of N steps (default 10); the
                 median is reported
  --dataset D    --train: circle | xor | gauss | spiral (default) | moons | digits
  --steps N      --train: steps per repetition (default 200); --depth: (default 10)
  --placement P  --depth: postln | preln (default) | normformer
  --norm N       --depth: layernorm (default) | rmsnorm
  --precision P  --train, --depth: f64 (default) or f32, the models' scalar (normlab-cli train
                 and depth's --precision)
  --path P       auto (default: avx2 when the CPU has AVX2 and FMA), avx2 or scalar: the kernels'
                 path (--cpu), the float32 models' products' (--train, --depth)
  --depth-demo   time the Depth lab's default demo instead
  --scene FILE   --depth-demo: that scene's Depth lab instead of the defaults
  --read-outside-files
                 --depth-demo --scene: read data files outside the scene's folder and assets/
  --threads T    --cpu: threads to split rows over (default: the pool's, hardware threads or
                 NORMLAB_THREADS); --depth-demo: threads a unit's runs are stepped on (default: the
                 lab's; at most 3 are used)
  --json         {"rows": R, "cols": C, "threads": T, "copy": {"ms": t, "gbps": g, "of_copy": 1},
                  "layernorm_forward": {"ms": t, "gbps": g, "of_copy": f}, "layernorm_backward": ...,
                  "rmsnorm_forward": ..., "rmsnorm_backward": ..., "memcpy": ..., "torch": {"version",
                  "threads", "layernorm_forward": {"ms", "gbps", "of_copy", "ours_over_torch"}, ...}}
                 --train: {"dataset", "hidden", "width", "batch", "dtype", "steps", "reps",
                  "results": {NORM: {"ms_per_step", "steps_per_s", "torch_steps_per_s",
                  "ours_over_torch", "torch_f32_steps_per_s", "ours_over_torch_f32"}},
                  "torch": {"version", "threads", "blas"}}
                 --depth: {"placement", "norm", "layers", "width", "heads", "batch", "context",
                  "dtype", "steps", "reps", "parameters", "ms_per_step", "torch_parameters", "torch_ms_per_step", "ours_over_torch",
                  "torch_f32_ms_per_step", "ours_over_torch_f32", "path", "f64_ms_per_step",
                  "f32_over_f64", "torch": {...}} (ratios are
                  speed-ups: PyTorch's time over ours); when PyTorch could not be run,
                  "torch": {"skipped": why}
                 --depth-demo: {"precision", "path", "threads", "cores", "order": ["runs", "sweep",
                  "seeds"], "units", "steps": {"runs", "sweep", "seeds", "total"}, "seconds":
                  {"runs", "sweep", "seeds", "whole"}, "cpu_seconds", "cores_busy" (cpu_seconds ÷
                  whole), "ms_per_step" (wall: whole ÷ total steps),
                  "load": {"before": [1, 5, 15 min], "after": [...]}}
)";

// [SECTION] Timing: interleaved repetitions, medians -----------------------------------------

namespace {

using Clock = std::chrono::steady_clock;

// One thing timed: run() does it once and returns its time in ms (ours: measured around the
// call; PyTorch's: measured by the peer around its own work, the pipe not included).
struct Timed {
    std::string name;
    double bytes_per_element;  // --cpu: bytes counted per element; --train: unused
    std::function<double()> run;
    std::vector<double> ms;
};

double ms_of(const std::function<void()>& fn) {
    const auto t0 = Clock::now();
    fn();
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// One untimed round (page faults, thread pools, allocators, caches warm), then `reps` rounds in
// which every entry runs once, in turn, so that a burst of outside load hits them all alike.
void time_interleaved(std::vector<Timed>& timed, int reps) {
    for (Timed& t : timed) t.run();
    for (int rep = 0; rep < reps; ++rep)
        for (Timed& t : timed) t.ms.push_back(t.run());
}

// Starts the PyTorch peer when --torch was given; otherwise, or when it cannot run, null (and,
// for the latter, why in `skipped`: the report says it in place of the PyTorch column).
std::unique_ptr<TorchPeer> start_peer(const Options& opt, const nlohmann::json& hello, std::string& skipped) {
    if (!opt.flag("torch")) return nullptr;
    return TorchPeer::start(opt.value("python").value_or(""), hello, skipped);
}

// The text report's last line about PyTorch.
void print_torch_line(const TorchPeer* peer, const std::string& skipped) {
    if (peer)
        std::printf("\nPyTorch %s, %d thread%s, %s (%s)%s\n", peer->version().c_str(), peer->threads(),
                    peer->threads() == 1 ? "" : "s", peer->blas().c_str(), peer->command().c_str(),
                    peer->blas().rfind("OpenBLAS", 0) == 0
                        ? ""
                        : "\nnote: PyTorch is not at its best on the reference BLAS; install Debian's "
                          "libopenblas0-serial and the peer uses it");
    else if (!skipped.empty())
        std::printf("\nPyTorch: skipped, %s\n", skipped.c_str());
}

nlohmann::ordered_json torch_json(const TorchPeer* peer, const std::string& skipped) {
    if (!peer) return {{"skipped", skipped}};
    return {{"version", peer->version()}, {"threads", peer->threads()}, {"blas", peer->blas()}};
}

// [SECTION] --cpu: the kernels --------------------------------------------------------------

constexpr const char* kNormKernels[] = {"layernorm_forward", "layernorm_backward", "rmsnorm_forward",
                                        "rmsnorm_backward"};

// What one kernel measured: bytes moved per run, the median time and the bandwidth.
struct KernelResult {
    std::string name;
    double bytes_per_element, bytes, ms, gbps;
};

// The kernels' shape, threads and path as the report heads them.
struct KernelSetup {
    size_t rows, cols;
    unsigned threads;
    int reps;
    fast::KernelPath resolved;
    bool streaming;
};

// Prints the --cpu report, JSON or text; results[0] is the copy, [ours, …) PyTorch's.
void report_kernel_bench(const Options& opt, const KernelSetup& k, const std::vector<KernelResult>& results,
                         size_t ours, const TorchPeer* peer, const std::string& skipped) {
    const double copy_gbps = results[0].gbps;
    const auto ours_of = [&](const std::string& torch_name) {  // our result for "torch_<kernel>"
        return *std::find_if(results.begin(), results.end(),
                             [&](const KernelResult& r) { return "torch_" + r.name == torch_name; });
    };
    if (opt.flag("json")) {
        nlohmann::ordered_json out = {{"rows", k.rows},
                                      {"cols", k.cols},
                                      {"threads", k.threads},
                                      {"reps", k.reps},
                                      {"path", std::string(fast::to_string(k.resolved))},
                                      {"streaming_stores", k.streaming}};
        for (size_t i = 0; i < ours; ++i) {
            const KernelResult& r = results[i];
            out[r.name] = {{"ms", r.ms}, {"gbps", r.gbps}, {"of_copy", r.gbps / copy_gbps}, {"bytes", r.bytes}};
        }
        if (opt.flag("torch")) {
            nlohmann::ordered_json t = torch_json(peer, skipped);
            for (size_t i = ours; i < results.size(); ++i) {
                const KernelResult& r = results[i];
                t[r.name.substr(6)] = {{"ms", r.ms},
                                       {"gbps", r.gbps},
                                       {"of_copy", r.gbps / copy_gbps},
                                       {"ours_over_torch", ours_of(r.name).gbps / r.gbps}};
            }
            out["torch"] = t;
        }
        std::cout << out.dump() << '\n';
        return;
    }
    std::printf("float32, %zu × %zu, %u thread%s, %s path%s, median of %d reps\n\n", k.rows, k.cols, k.threads,
                k.threads == 1 ? "" : "s", std::string(fast::to_string(k.resolved)).c_str(),
                k.streaming ? ", streaming stores" : "", k.reps);
    std::printf("%-26s %8s %10s %9s %10s %11s\n", "kernel", "B/elem", "ms", "GB/s", "% of copy",
                peer ? "ours/torch" : "");
    for (size_t i = 0; i < results.size(); ++i) {
        std::printf("%-26s %8.0f %10.3f %9.2f %9.1f%%", results[i].name.c_str(), results[i].bytes_per_element,
                    results[i].ms, results[i].gbps, 100.0 * results[i].gbps / copy_gbps);
        if (i >= ours) std::printf(" %10.2f×", ours_of(results[i].name).gbps / results[i].gbps);
        std::printf("\n");
    }
    print_torch_line(peer, skipped);
}

// --path: auto (default), avx2 or scalar.
fast::KernelPath kernel_path_option(const Options& opt) {
    const auto p = opt.value("path");
    if (!p) return fast::KernelPath::Auto;
    const auto parsed = fast::parse_kernel_path(*p);
    if (!parsed) throw InputError("--path must be auto, avx2 or scalar (got " + quote_for_message(*p) + ")");
    return *parsed;
}

// --precision (--train, --depth): the models' scalar; sets the float32 products' path (--path).
Precision precision_option(const Options& opt) {
    set_model_kernel_path(kernel_path_option(opt));
    return opt.choice("precision", parse_precision, "f32, f64", Precision::F64);
}

// What the float32 models' products run on ("scalar" for float64, which never takes AVX2).
std::string model_path_name(Precision precision) {
    return std::string(fast::to_string(precision == Precision::F32 ? model_kernel_path() : fast::KernelPath::Scalar));
}

int run_kernel_bench(const Options& opt) {
    const auto rows = static_cast<size_t>(opt.integer("rows", 8192, 1, 1L << 28));
    const auto cols = static_cast<size_t>(opt.integer("cols", 4096, 1, 1L << 28));
    if (rows * cols > (size_t{1} << 28))
        throw InputError("--rows · --cols = " + std::to_string(rows * cols) + " is more than 2^28 values");
    const auto reps = static_cast<int>(opt.integer("reps", 20, 1, 100000));
    const fast::KernelPath path = kernel_path_option(opt);
    if (opt.value("threads")) fast::set_num_threads(static_cast<unsigned>(opt.integer("threads", 0, 1, 256)));
    const fast::KernelPath resolved = fast::resolve_path(path);
    const size_t n = rows * cols;
    const float eps = 1e-5f;
    const unsigned threads = fast::num_threads();

    // Buffers, allocated once (bench_buffers.hpp, as the GPU lab and bench/ use them).
    BenchBuffers buf(rows, cols);
    const auto timed = [&](const char* name, double bytes, BenchKernel kernel) {
        return Timed{name, bytes, [&buf, kernel, eps, path] { return ms_of([&] { buf.run(kernel, eps, path); }); }, {}};
    };
    std::vector<Timed> kernels = {
        timed("copy", 8, BenchKernel::Copy),
        {"memcpy", 8, [&] { return ms_of([&] { std::memcpy(buf.dx.data(), buf.x.data(), n * sizeof(float)); }); }, {}},
        timed("layernorm_forward", 8, BenchKernel::LayerNormForward),
        timed("layernorm_backward", 12, BenchKernel::LayerNormBackward),
        timed("rmsnorm_forward", 8, BenchKernel::RMSNormForward),
        timed("rmsnorm_backward", 12, BenchKernel::RMSNormBackward),
    };
    // PyTorch's four, after ours in every repetition, on the same shape and as many threads.
    std::string skipped;
    const std::unique_ptr<TorchPeer> peer =
        start_peer(opt, {{"op", "kernels"}, {"rows", rows}, {"cols", cols}, {"threads", threads}}, skipped);
    const size_t ours = kernels.size();
    if (peer)
        for (const std::string name : kNormKernels) {
            const double bytes = name.find("forward") != std::string::npos ? 8.0 : 12.0;
            kernels.push_back({"torch_" + name, bytes, [&peer, name] { return peer->run_ms(name); }, {}});
        }
    // The untimed round faults every output page in, starts the pools, fills mean and rstd (in
    // this order, each forward runs before its backward).
    time_interleaved(kernels, reps);

    std::vector<KernelResult> results;
    for (const Timed& k : kernels) {
        const double bytes = k.bytes_per_element * static_cast<double>(n);
        const double ms = std::max(median(k.ms), 1e-9);  // a clock tick at least: GB/s stays finite
        results.push_back({k.name, k.bytes_per_element, bytes, ms, bytes / (ms * 1e-3) / 1e9});
    }
    const bool streaming = resolved == fast::KernelPath::Avx2 && n * sizeof(float) >= fast::kStreamingThresholdBytes;
    report_kernel_bench(opt, {rows, cols, threads, reps, resolved, streaming}, results, ours, peer.get(), skipped);
    return 0;
}

// [SECTION] --train: steps per second -------------------------------------------------------

constexpr Norm kTrainNorms[] = {Norm::None, Norm::LayerNorm, Norm::RMSNorm, Norm::PRMSNorm};

// The peer's copy of a model: the training set and the configuration, as bench/torch_peer.py
// reads them.
nlohmann::json torch_train_request(const Dataset& data, const TrainConfig& c) {
    std::vector<std::vector<double>> x(static_cast<size_t>(data.train_x.rows()));
    std::vector<int> y(x.size());
    for (Eigen::Index i = 0; i < data.train_x.rows(); ++i) {
        for (Eigen::Index j = 0; j < data.train_x.cols(); ++j) x[static_cast<size_t>(i)].push_back(data.train_x(i, j));
        y[static_cast<size_t>(i)] = data.train_y(i);
    }
    return {{"op", "train"},
            {"norm", std::string(to_string(c.model.norm.norm))},
            {"x", x},
            {"y", y},
            {"classes", data.classes},
            {"hidden", c.model.hidden_layers},
            {"width", c.model.width},
            {"batch", c.batch_size},
            {"lr", c.optimizer.lr},
            {"eps", c.model.norm.eps},
            {"k", partial_k(c.model.width, c.model.norm.p, c.model.norm.rounding)},
            {"seed", c.seed},
            {"threads", 1}};
}

// One more request to a running peer; when it fails, the peer is dropped (why in `skipped`) and
// the reply is an empty object.
nlohmann::json request_or_drop(std::unique_ptr<TorchPeer>& peer, const nlohmann::json& req, std::string& skipped) {
    try {
        return peer->request(req);
    } catch (const std::exception& e) {
        skipped = e.what();
        peer.reset();
        return nlohmann::json::object();
    }
}

// With --torch, the PyTorch peer holding the models of every norm, in float64 and float32; null
// without it or when it cannot run (why in `skipped`).
std::unique_ptr<TorchPeer> start_train_peer(const Options& opt, const Dataset& data, DatasetKind kind,
                                            std::string& skipped) {
    if (!opt.flag("torch")) return nullptr;
    std::unique_ptr<TorchPeer> peer =
        start_peer(opt, torch_train_request(data, default_train_config(kind, kTrainNorms[0])), skipped);
    for (size_t i = 1; peer && i < 2 * std::size(kTrainNorms); ++i) {   // 0 came with the hello
        nlohmann::json req = torch_train_request(data, default_train_config(kind, kTrainNorms[i % std::size(kTrainNorms)]));
        if (i >= std::size(kTrainNorms)) req["dtype"] = "float32";
        request_or_drop(peer, req, skipped);
    }
    return peer;
}

int run_train_bench(const Options& opt) {
    DatasetKind kind = DatasetKind::Spiral;
    if (const auto d = opt.value("dataset")) {
        const auto parsed = parse_dataset(*d);
        if (!parsed || *parsed == DatasetKind::Csv)
            throw InputError("--dataset must be circle, xor, gauss, spiral, moons or digits (got " +
                             quote_for_message(*d) + ")");
        kind = *parsed;
    }
    const auto steps = static_cast<int>(opt.integer("steps", 200, 1, 1000000));
    const auto reps = static_cast<int>(opt.integer("reps", 10, 1, 100000));
    // Every step a trainer takes is kept in its history (a few doubles per layer): bound the run.
    constexpr long kMaxTrainSteps = 2000000;
    const long total_steps = (static_cast<long>(reps) + 1) * steps;
    if (total_steps > kMaxTrainSteps)
        throw InputError("--steps × (--reps + 1) = " + std::to_string(total_steps) + " is over " +
                         std::to_string(kMaxTrainSteps) + " steps per trainer (each step is kept in its history)");
    const Dataset data = make_dataset(default_data_spec(kind));
    const Precision precision = precision_option(opt);

    // One trainer per norm, at normlab-cli train's defaults, set never to evaluate (evaluations
    // are not steps) and never to finish within the run.
    std::vector<std::unique_ptr<Trainer>> trainers;
    std::vector<Timed> timed;
    for (Norm norm : kTrainNorms) {
        TrainConfig c = default_train_config(kind, norm);
        c.steps = static_cast<int>(total_steps + 1);
        c.eval_every = INT_MAX;
        c.precision = precision;
        trainers.push_back(std::make_unique<Trainer>(data, c));
        Trainer* t = trainers.back().get();
        timed.push_back({std::string(to_string(norm)), 0.0,
                         [t, steps] { return ms_of([t, steps] { for (int s = 0; s < steps; ++s) t->step(); }); }, {}});
    }
    const TrainConfig shown = default_train_config(kind, Norm::LayerNorm);
    std::string skipped;
    std::unique_ptr<TorchPeer> peer = start_train_peer(opt, data, kind, skipped);
    const size_t ours = timed.size();
    if (peer)
        for (const char* suffix : {"", ":float32"})
            for (Norm norm : kTrainNorms) {
                const std::string name = "train:" + std::string(to_string(norm)) + suffix;
                timed.push_back({name, 0.0, [&peer, name, steps] { return peer->run_ms(name, {{"steps", steps}}); }, {}});
            }
    time_interleaved(timed, reps);

    const auto steps_per_s = [&](const Timed& t) { return steps / (std::max(median(t.ms), 1e-9) * 1e-3); };
    nlohmann::ordered_json out = {{"dataset", std::string(to_string(kind))},
                                  {"hidden", shown.model.hidden_layers},
                                  {"width", shown.model.width},
                                  {"batch", shown.batch_size},
                                  {"optimizer", "adam"},
                                  {"dtype", precision == Precision::F32 ? "float32" : "float64"},
                                  {"path", model_path_name(precision)},
                                  {"threads", 1},
                                  {"steps", steps},
                                  {"reps", reps}};
    nlohmann::ordered_json results = nlohmann::ordered_json::object();
    for (size_t i = 0; i < ours; ++i) {
        const double sps = steps_per_s(timed[i]);
        nlohmann::ordered_json r = {{"ms_per_step", 1e3 / sps}, {"steps_per_s", sps}};
        if (peer) {
            const double tsps = steps_per_s(timed[ours + i]);
            const double tsps32 = steps_per_s(timed[2 * ours + i]);
            r["torch_steps_per_s"] = tsps;
            r["ours_over_torch"] = sps / tsps;
            r["torch_f32_steps_per_s"] = tsps32;
            r["ours_over_torch_f32"] = sps / tsps32;
        }
        results[timed[i].name] = r;
    }
    out["results"] = results;
    if (opt.flag("torch")) out["torch"] = torch_json(peer.get(), skipped);
    if (opt.flag("json")) {
        std::cout << out.dump() << '\n';
        return 0;
    }
    std::printf("training steps of the %s MLP (%d hidden × %d, batch %d, Adam, %s, 1 thread), "
                "median of %d reps of %d steps\n\n",
                std::string(to_string(kind)).c_str(), shown.model.hidden_layers, static_cast<int>(shown.model.width),
                static_cast<int>(shown.batch_size), out["dtype"].get<std::string>().c_str(), reps, steps);
    std::printf("%-12s %12s %12s %14s %11s %14s %11s\n", "norm", "ms/step", "steps/s", peer ? "torch f64/s" : "",
                peer ? "ours/torch" : "", peer ? "torch f32/s" : "", peer ? "ours/f32" : "");
    for (const auto& [name, r] : results.items()) {
        std::printf("%-12s %12.4f %12.0f", name.c_str(), r["ms_per_step"].get<double>(),
                    r["steps_per_s"].get<double>());
        if (peer)
            std::printf(" %14.0f %10.2f× %14.0f %10.2f×", r["torch_steps_per_s"].get<double>(),
                        r["ours_over_torch"].get<double>(), r["torch_f32_steps_per_s"].get<double>(),
                        r["ours_over_torch_f32"].get<double>());
        std::printf("\n");
    }
    print_torch_line(peer.get(), skipped);
    return 0;
}

// [SECTION] --depth: ms per step of the transformer ------------------------------------------

// The peer's copy of the depth model, as bench/torch_peer.py's Depth reads it.
nlohmann::json torch_depth_request(const DepthConfig& c, int context, int scored) {
    return {{"op", "depth"},
            {"placement", std::string(to_string(c.model.placement))},
            {"norm", std::string(to_string(c.model.norm.norm))},
            {"vocab", c.model.vocab},
            {"context", context},
            {"layers", c.model.layers},
            {"width", c.model.width},
            {"heads", c.model.heads},
            {"batch", c.batch_size},
            {"scored", scored},
            {"lr", c.optimizer.lr},
            {"eps", c.model.norm.eps},
            {"seed", c.seed},
            {"threads", 1}};
}

DepthConfig depth_bench_config(const Options& opt) {
    NormPlacement placement = NormPlacement::PreLN;
    if (const auto p = opt.value("placement")) {
        const auto parsed = parse_norm_placement(*p);
        if (!parsed) throw InputError("--placement must be postln, preln or normformer (got " + quote_for_message(*p) + ")");
        placement = *parsed;
    }
    Norm norm = Norm::LayerNorm;
    if (const auto n = opt.value("norm")) {
        const auto parsed = parse_norm(*n);
        if (!parsed || (*parsed != Norm::LayerNorm && *parsed != Norm::RMSNorm))
            throw InputError("--norm must be layernorm or rmsnorm (got " + quote_for_message(*n) + ")");
        norm = *parsed;
    }
    return default_depth_config(TaskKind::Sort, placement, norm);
}

int run_depth_bench(const Options& opt) {
    const auto steps = static_cast<int>(opt.integer("steps", 10, 1, 100000));
    const auto reps = static_cast<int>(opt.integer("reps", 10, 1, 10000));
    DepthConfig config = depth_bench_config(opt);
    config.steps = steps * (reps + 1) + 1;   // never finishes, never evaluates within the run
    config.eval_every = INT_MAX;
    config.precision = precision_option(opt);
    DepthTrainer trainer(config);
    const TransformerConfig& m = trainer.config().model;
    const int context = trainer.task().context();
    // float32: the float64 reference too, in turn with it (timed last, after any peer's).
    DepthConfig reference_config = config;
    reference_config.precision = Precision::F64;
    std::unique_ptr<DepthTrainer> reference;
    if (config.precision == Precision::F32) reference = std::make_unique<DepthTrainer>(reference_config);

    std::vector<Timed> timed;
    timed.push_back({"ours", 0.0, [&trainer, steps] { return ms_of([&] { for (int s = 0; s < steps; ++s) trainer.step(); }); }, {}});
    std::string skipped;
    nlohmann::json request = torch_depth_request(trainer.config(), context, config.task.length);
    std::unique_ptr<TorchPeer> peer = start_peer(opt, request, skipped);
    Eigen::Index torch_parameters = -1;
    if (peer) {
        request["dtype"] = "float32";
        torch_parameters = request_or_drop(peer, request, skipped).value("parameters", Eigen::Index{-1});
    }
    if (peer) {
        const std::string name = "depth:" + std::string(to_string(m.placement)) + ":" + std::string(to_string(m.norm.norm));
        for (const std::string& n : {name, name + ":float32"})
            timed.push_back({n, 0.0, [&peer, n, steps] { return peer->run_ms(n, {{"steps", steps}}); }, {}});
    }
    if (reference)
        timed.push_back({"f64", 0.0, [&reference, steps] { return ms_of([&] { for (int s = 0; s < steps; ++s) reference->step(); }); }, {}});
    time_interleaved(timed, reps);

    const auto ms_per_step = [&](const Timed& t) { return median(t.ms) / steps; };
    const double ours = ms_per_step(timed[0]);
    nlohmann::ordered_json out = {{"placement", std::string(to_string(m.placement))},
                                  {"norm", std::string(to_string(m.norm.norm))},
                                  {"layers", m.layers},
                                  {"width", m.width},
                                  {"heads", m.heads},
                                  {"batch", config.batch_size},
                                  {"context", context},
                                  {"dtype", config.precision == Precision::F32 ? "float32" : "float64"},
                                  {"path", model_path_name(config.precision)},
                                  {"steps", steps},
                                  {"reps", reps},
                                  {"parameters", trainer.parameter_count()},
                                  {"ms_per_step", ours}};
    if (reference) {
        out["f64_ms_per_step"] = ms_per_step(timed.back());
        out["f32_over_f64"] = ms_per_step(timed.back()) / ours;
    }
    if (peer) {
        out["torch_parameters"] = torch_parameters;   // the same model: the same count
        out["torch_ms_per_step"] = ms_per_step(timed[1]);
        out["ours_over_torch"] = ms_per_step(timed[1]) / ours;
        out["torch_f32_ms_per_step"] = ms_per_step(timed[2]);
        out["ours_over_torch_f32"] = ms_per_step(timed[2]) / ours;
    }
    if (opt.flag("torch")) out["torch"] = torch_json(peer.get(), skipped);
    if (opt.flag("json")) {
        std::cout << out.dump() << '\n';
        return 0;
    }
    std::printf("training steps of the depth lab's transformer (%s, %s, %d layers × %d, %d heads, batch %d × %d "
                "tokens, Adam, %s on %s, 1 thread), median of %d reps of %d steps\n\n",
                std::string(display_name(m.placement)).c_str(), std::string(to_string(m.norm.norm)).c_str(), m.layers,
                static_cast<int>(m.width), m.heads, static_cast<int>(config.batch_size), context,
                out["dtype"].get<std::string>().c_str(), out["path"].get<std::string>().c_str(), reps, steps);
    std::printf("ours                 %9.2f ms/step\n", ours);
    if (reference)
        std::printf("ours, float64        %9.2f ms/step   (float32 %.2f× as fast)\n", ms_per_step(timed.back()),
                    ms_per_step(timed.back()) / ours);
    if (peer) {
        std::printf("PyTorch float64      %9.2f ms/step   (ours %.2f× as fast)\n", ms_per_step(timed[1]),
                    ms_per_step(timed[1]) / ours);
        std::printf("PyTorch float32      %9.2f ms/step   (ours %.2f× as fast)\n", ms_per_step(timed[2]),
                    ms_per_step(timed[2]) / ours);
    }
    print_torch_line(peer.get(), skipped);
    return 0;
}

}  // namespace

// [SECTION] Entry point ---------------------------------------------------------------------

int run_bench(const Args& args) {
    const Options opt("bench", args,
                      {{"cpu", false}, {"train", false}, {"depth", false}, {"depth-demo", false}, {"rows", true},
                       {"cols", true}, {"reps", true}, {"path", true}, {"threads", true}, {"dataset", true},
                       {"steps", true}, {"placement", true}, {"norm", true}, {"torch", false}, {"python", true},
                       {"json", false}, {"precision", true}, {"scene", true}, {"read-outside-files", false}});
    const int modes = int(opt.flag("cpu")) + int(opt.flag("train")) + int(opt.flag("depth")) + int(opt.flag("depth-demo"));
    if (modes != 1)
        throw InputError("bench needs one of --cpu, --train, --depth or --depth-demo (the GPU kernels are timed in the "
                         "app's GPU lab)");
    const std::string mode = opt.flag("cpu")     ? "--cpu"
                             : opt.flag("train") ? "--train"
                             : opt.flag("depth") ? "--depth"
                                                 : "--depth-demo";
    // The options each mode does not take.
    const std::vector<const char*> foreign =
        mode == "--cpu"     ? std::vector<const char*>{"dataset", "steps", "placement", "norm", "precision", "scene", "read-outside-files"}
        : mode == "--train" ? std::vector<const char*>{"rows", "cols", "threads", "placement", "norm", "scene", "read-outside-files"}
        : mode == "--depth" ? std::vector<const char*>{"rows", "cols", "threads", "dataset", "scene", "read-outside-files"}
                            : std::vector<const char*>{"rows", "cols", "reps", "path", "dataset", "steps", "placement",
                                                       "norm", "torch", "python"};
    for (const char* name : foreign)
        if (opt.value(name)) throw InputError(std::string("--") + name + " is not an option of bench " + mode);
    if (mode == "--cpu") return run_kernel_bench(opt);
    if (mode == "--depth-demo") return run_depth_demo_bench(opt);
    return mode == "--train" ? run_train_bench(opt) : run_depth_bench(opt);
}

}  // namespace normlab::cli
