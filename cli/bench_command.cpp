// `normlab-cli bench --cpu`: times core's fast float32 kernels (fast_norm.hpp) against the
// fastest plain copy, on buffers allocated once, and reports the median of the repetitions as
// milliseconds, GB/s and the fraction of the copy's bandwidth (DESIGN.md, "Performance targets").
#include "commands.hpp"
#include "options.hpp"

#include "normlab/eval.hpp"
#include "normlab/fast_norm.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

namespace normlab::cli {

const char kBenchHelp[] = R"(Usage: normlab-cli bench --cpu [--rows R] [--cols C] [--reps N] [--path P] [--threads T] [--json]

Times the fast float32 kernels of core (LayerNorm and RMSNorm, forward and backward, one row per
case, ε inside the square root) on a rows × cols batch, against the fastest plain copy of the same
data (streaming stores when the CPU has them, all threads): for a kernel that only has to stream its
data through, that copy is the ceiling. Buffers are allocated once and touched before timing; the
kernels run in turn, rep after rep, and each one's median time is reported.

Bytes moved, counted per element: copy and forwards 8 (read x, write y), backwards 12 (read x and dy,
write dx); g, b, mean, rstd, dg, db are one row or column and not counted. GB/s = 10⁹ bytes/s.
LayerNorm has a bias (its backward also computes dg and db); RMSNorm has none (its backward computes
dg). "memcpy" is the C library's memcpy on one thread, for comparison.

Options:
  --cpu          time the CPU kernels (required; the GPU kernels are timed in the app's GPU lab)
  --rows R       cases (default 8192)
  --cols C       values per case (default 4096); rows·cols ≤ 2^28
  --reps N       timed repetitions of each kernel (default 20; the median is reported)
  --path P       auto (default: avx2 when the CPU has AVX2 and FMA), avx2 or scalar
  --threads T    threads to split rows over (default: the pool's, hardware threads or NORMLAB_THREADS)
  --json         {"rows": R, "cols": C, "threads": T, "copy": {"ms": t, "gbps": g, "of_copy": 1},
                  "layernorm_forward": {"ms": t, "gbps": g, "of_copy": f}, "layernorm_backward": ...,
                  "rmsnorm_forward": ..., "rmsnorm_backward": ..., "memcpy": ..., ...}
)";

namespace {

struct Timed {
    const char* name;
    double bytes_per_element;
    std::function<void()> run;
    std::vector<double> ms;
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Deterministic values in [lo, hi): the timings must not depend on the data, but NaNs or
// denormals could make them, so the inputs are ordinary numbers.
void fill(fast::FloatBuffer& buf, std::uint64_t seed, float lo, float hi) {
    std::uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
    for (size_t i = 0; i < buf.size(); ++i) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        buf[i] = lo + (hi - lo) * static_cast<float>(s >> 40) * 0x1.0p-24f;
    }
}

}  // namespace

int run_bench(const Args& args) {
    const Options opt("bench", args,
                      {{"cpu", false}, {"rows", true}, {"cols", true}, {"reps", true}, {"path", true},
                       {"threads", true}, {"json", false}});
    if (!opt.flag("cpu"))
        throw InputError("bench needs --cpu (the GPU kernels are timed in the app's GPU lab)");
    const auto rows = static_cast<size_t>(opt.integer("rows", 8192, 1, 1L << 28));
    const auto cols = static_cast<size_t>(opt.integer("cols", 4096, 1, 1L << 28));
    if (rows * cols > (size_t{1} << 28))
        throw InputError("--rows · --cols = " + std::to_string(rows * cols) + " is more than 2^28 values");
    const auto reps = static_cast<int>(opt.integer("reps", 20, 1, 100000));
    fast::KernelPath path = fast::KernelPath::Auto;
    if (const auto p = opt.value("path")) {
        const auto parsed = fast::parse_kernel_path(*p);
        if (!parsed) throw InputError("--path must be auto, avx2 or scalar (got " + quote_for_message(*p) + ")");
        path = *parsed;
    }
    if (opt.value("threads")) fast::set_num_threads(static_cast<unsigned>(opt.integer("threads", 0, 1, 256)));
    const fast::KernelPath resolved = fast::resolve_path(path);
    const size_t n = rows * cols;
    const float eps = 1e-5f;

    // Buffers, allocated once. Inputs x, dy; outputs y (forward), dx (backward), the copy's dst.
    fast::FloatBuffer x(n), dy(n), y(n), dx(n), g(cols), b(cols), dg(cols), db(cols), mean(rows), rstd(rows),
        rms_rstd(rows);
    fill(x, 1, -2.0f, 2.0f);
    fill(dy, 2, -1.0f, 1.0f);
    fill(g, 3, 0.5f, 1.5f);
    fill(b, 4, -0.5f, 0.5f);

    std::vector<Timed> kernels = {
        {"copy", 8, [&] { fast::copy(y.data(), x.data(), n, path); }, {}},
        {"memcpy", 8, [&] { std::memcpy(dx.data(), x.data(), n * sizeof(float)); }, {}},
        {"layernorm_forward", 8,
         [&] { fast::layernorm_forward(y.data(), mean.data(), rstd.data(), x.data(), g.data(), b.data(), rows, cols, eps, path); },
         {}},
        {"layernorm_backward", 12,
         [&] {
             fast::layernorm_backward(dx.data(), dg.data(), db.data(), dy.data(), x.data(), g.data(), mean.data(),
                                      rstd.data(), rows, cols, path);
         },
         {}},
        {"rmsnorm_forward", 8,
         [&] { fast::rmsnorm_forward(y.data(), rms_rstd.data(), x.data(), g.data(), nullptr, rows, cols, eps, path); },
         {}},
        {"rmsnorm_backward", 12,
         [&] {
             fast::rmsnorm_backward(dx.data(), dg.data(), nullptr, dy.data(), x.data(), g.data(), rms_rstd.data(), rows,
                                    cols, path);
         },
         {}},
    };
    // One untimed round: faults every output page in, starts the pool, fills mean and rstd (in
    // this order, each forward runs before its backward).
    for (Timed& k : kernels) k.run();
    using Clock = std::chrono::steady_clock;
    for (int rep = 0; rep < reps; ++rep)
        for (Timed& k : kernels) {
            const auto t0 = Clock::now();
            k.run();
            k.ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
        }

    struct Result {
        const char* name;
        double bytes, ms, gbps;
    };
    std::vector<Result> results;
    for (const Timed& k : kernels) {
        const double bytes = k.bytes_per_element * static_cast<double>(n);
        const double ms = std::max(median(k.ms), 1e-9);  // a clock tick at least: GB/s stays finite
        results.push_back({k.name, bytes, ms, bytes / (ms * 1e-3) / 1e9});
    }
    const double copy_gbps = results[0].gbps;
    const unsigned threads = fast::num_threads();
    const bool streaming = resolved == fast::KernelPath::Avx2 && n * sizeof(float) >= fast::kStreamingThresholdBytes;

    if (opt.flag("json")) {
        nlohmann::ordered_json out = {{"rows", rows},
                                      {"cols", cols},
                                      {"threads", threads},
                                      {"reps", reps},
                                      {"path", std::string(fast::to_string(resolved))},
                                      {"streaming_stores", streaming}};
        for (const Result& r : results)
            out[r.name] = {{"ms", r.ms}, {"gbps", r.gbps}, {"of_copy", r.gbps / copy_gbps}, {"bytes", r.bytes}};
        std::cout << out.dump() << '\n';
        return 0;
    }
    std::printf("float32, %zu × %zu, %u thread%s, %s path%s, median of %d reps\n\n", rows, cols, threads,
                threads == 1 ? "" : "s", std::string(fast::to_string(resolved)).c_str(),
                streaming ? ", streaming stores" : "", reps);
    std::printf("%-20s %8s %10s %9s %10s\n", "kernel", "B/elem", "ms", "GB/s", "% of copy");
    for (size_t i = 0; i < results.size(); ++i)
        std::printf("%-20s %8.0f %10.3f %9.2f %9.1f%%\n", results[i].name, kernels[i].bytes_per_element,
                    results[i].ms, results[i].gbps, 100.0 * results[i].gbps / copy_gbps);
    return 0;
}

}  // namespace normlab::cli
