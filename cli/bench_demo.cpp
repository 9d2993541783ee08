// `normlab-cli bench --depth-demo`: the Depth lab's default demo (docs/ARCHITECTURE.md,
// Performance targets), timed as the app's worker trains it.
//
// [SECTION] The job    — DepthLab on a StepWorker, noting when each part is done
// [SECTION] The report — seconds to each part's end, steps, load
#include "bench_demo.hpp"
#include "commands.hpp"

#include "normlab/base/step_worker.hpp"
#include "normlab/labs/depth_lab.hpp"
#include "normlab/models/mlp.hpp"
#include "normlab/base/input_error.hpp"
#include "normlab/norm/fast_norm.hpp"
#include "normlab/scene/scene.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <limits>
#include <optional>
#include <string>
#include <thread>

namespace normlab::cli {

namespace {

using Clock = std::chrono::steady_clock;

// [SECTION] The job -------------------------------------------------------------------------

// When each part was done, in seconds since the lab was configured (unset: not yet).
struct DemoTimes {
    std::optional<double> runs, sweep, seeds, whole;
};

struct DemoSnapshot {
    DepthLabSnapshot lab;
    DemoTimes times;
    std::uint64_t steps = 0;
};

// What DepthLabWorker's job is (depth_lab.hpp: one DepthLab, advance() per unit, a snapshot
// published at the worker's pace), plus a look at DepthLab::progress() after every unit.
struct DemoJob {
    DepthLab lab;
    Clock::time_point start;
    DemoTimes times;

    bool work(bool train) {
        const bool worked = lab.advance(train);
        const double t = std::chrono::duration<double>(Clock::now() - start).count();
        const DepthLab::Progress p = lab.progress();
        if (p.runs && !times.runs) times.runs = t;
        if (p.sweep && !times.sweep) times.sweep = t;
        if (p.seeds && !times.seeds) times.seeds = t;
        if (train && !worked && !times.whole) times.whole = t;   // (paused, before play(): not the end)
        return worked;
    }
    std::uint64_t units() const { return lab.work(); }
    bool finished() const { return false; }
    DemoSnapshot snapshot() const { return {lab.snapshot(), times, lab.progress().steps}; }
};

// [SECTION] The report ----------------------------------------------------------------------

// The 1-, 5- and 15-minute load averages (/proc/loadavg), null where the system has none.
nlohmann::json load_average() {
    std::ifstream in("/proc/loadavg");
    double a = 0.0, b = 0.0, c = 0.0;
    if (!(in >> a >> b >> c)) return nullptr;
    return {a, b, c};
}

// Model steps each part took: the runs' steps, the sweep points', the seed runs'.
struct PartSteps {
    std::uint64_t runs = 0, sweep = 0, seeds = 0;
};

PartSteps part_steps(const DepthLabSnapshot& s) {
    PartSteps n;
    for (const DepthRunView& r : s.runs) n.runs += static_cast<std::uint64_t>(r.run.step);
    for (const DepthSweepPoint& q : s.sweep) n.sweep += static_cast<std::uint64_t>(q.steps);
    for (const DepthSeedRun& q : s.seed_runs) n.seeds += q.history.train_loss.size();
    return n;
}

nlohmann::json seconds_or_null(const std::optional<double>& t) { return t ? nlohmann::json(*t) : nlohmann::json(nullptr); }

}  // namespace

int run_depth_demo_bench(const Options& opt) {
    DepthLabState state;   // a new session's Depth lab: the demo
    if (const auto scene = opt.value("scene")) state = open_scene(*scene, opt.flag("read-outside-files")).session.depth;
    state.precision = opt.choice("precision", parse_precision, "f32, f64", state.precision);
    const auto threads = static_cast<unsigned>(opt.integer("threads", 0, 1, 256));
    const nlohmann::json load_before = load_average();
    const std::clock_t cpu_start = std::clock();   // the process's CPU time, every thread's

    StepWorker<DemoJob> worker([state, threads](DemoJob& job) {
        job.lab.set_threads(threads);
        job.start = Clock::now();
        job.lab.configure(state);
    });
    worker.play();
    worker.wait_for(std::numeric_limits<std::uint64_t>::max());   // until it rests: nothing left
    const std::shared_ptr<const DemoSnapshot> last = worker.latest();
    if (!last || !last->lab.error.empty())
        throw InputError("the demo could not train: " + (last ? last->lab.error : std::string("no snapshot")));
    const double cpu_seconds = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    const DemoTimes& t = last->times;
    const PartSteps n = part_steps(last->lab);
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const std::string path = state.precision == Precision::F32 ? std::string(fast::to_string(model_kernel_path())) : "scalar";

    nlohmann::ordered_json out = {
        {"precision", std::string(to_string(state.precision))},
        {"path", path},
        {"threads", threads > 0 ? nlohmann::json(threads) : nlohmann::json("lab default")},
        {"cores", cores},
        {"order", {"runs", "sweep", "seeds"}},
        {"units", last->lab.work},
        {"steps", {{"runs", n.runs}, {"sweep", n.sweep}, {"seeds", n.seeds}, {"total", last->steps}}},
        {"seconds", {{"runs", seconds_or_null(t.runs)}, {"sweep", seconds_or_null(t.sweep)},
                     {"seeds", seconds_or_null(t.seeds)}, {"whole", seconds_or_null(t.whole)}}},
        {"cpu_seconds", cpu_seconds},
        {"cores_busy", t.whole && *t.whole > 0.0 ? nlohmann::json(cpu_seconds / *t.whole) : nlohmann::json(nullptr)},
        {"ms_per_step", t.whole && last->steps > 0 ? nlohmann::json(*t.whole * 1000.0 / static_cast<double>(last->steps))
                                                    : nlohmann::json(nullptr)},
        {"load", {{"before", load_before}, {"after", load_average()}}}};
    if (opt.flag("json")) {
        std::cout << out.dump() << '\n';
        return 0;
    }
    const auto secs = [](const std::optional<double>& v) { return v ? *v : 0.0; };
    std::printf("the Depth lab's %s (%s on %s, %s threads, %u cores): %llu units, %llu model steps\n\n",
                opt.value("scene") ? ("demo of " + *opt.value("scene")).c_str() : "default demo",
                out["precision"].get<std::string>().c_str(), path.c_str(),
                threads > 0 ? std::to_string(threads).c_str() : "the lab's default", cores,
                static_cast<unsigned long long>(last->lab.work), static_cast<unsigned long long>(last->steps));
    std::printf("the 3 runs done      %8.2f s   (%llu steps)\n", secs(t.runs), static_cast<unsigned long long>(n.runs));
    std::printf("the sweep done       %8.2f s   (%llu steps)\n", secs(t.sweep), static_cast<unsigned long long>(n.sweep));
    std::printf("the seeds done       %8.2f s   (%llu steps)\n", secs(t.seeds), static_cast<unsigned long long>(n.seeds));
    std::printf("the whole demo       %8.2f s   (%.1f ms per step, wall)\n", secs(t.whole), out["ms_per_step"].is_null() ? 0.0 : out["ms_per_step"].get<double>());
    std::printf("CPU time             %8.2f s   (%.2f cores busy on average)\n", cpu_seconds,
                out["cores_busy"].is_null() ? 0.0 : out["cores_busy"].get<double>());
    std::printf("\nload average before %s, after %s\n", load_before.dump().c_str(), out["load"]["after"].dump().c_str());
    return 0;
}

}  // namespace normlab::cli
