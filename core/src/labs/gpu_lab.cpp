// NormLab core: the GPU lab's benchmark as plain data (see gpu_lab.hpp).
//
// [SECTION] Kernels
// [SECTION] Timing
// [SECTION] Results
// [SECTION] Lab state
// [SECTION] Figures
// [SECTION] JSON
#include "normlab/labs/gpu_lab.hpp"

#include "normlab/base/i18n.hpp"
#include "normlab/base/text.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <utility>

namespace normlab {

// [SECTION] Kernels -------------------------------------------------------------------------

std::string_view to_string(BenchKernel kernel) {
    switch (kernel) {
        case BenchKernel::Copy: return "copy";
        case BenchKernel::LayerNormForward: return "layernorm_forward";
        case BenchKernel::LayerNormBackward: return "layernorm_backward";
        case BenchKernel::RMSNormForward: return "rmsnorm_forward";
        case BenchKernel::RMSNormBackward: return "rmsnorm_backward";
        case BenchKernel::PRMSNormForward: return "prmsnorm_forward";
        case BenchKernel::PRMSNormBackward: return "prmsnorm_backward";
    }
    return "copy";
}

std::string_view display_name(BenchKernel kernel) {
    switch (kernel) {
        case BenchKernel::Copy: return "copy";
        case BenchKernel::LayerNormForward: return "LayerNorm forward";
        case BenchKernel::LayerNormBackward: return "LayerNorm backward";
        case BenchKernel::RMSNormForward: return "RMSNorm forward";
        case BenchKernel::RMSNormBackward: return "RMSNorm backward";
        case BenchKernel::PRMSNormForward: return "pRMSNorm forward";
        case BenchKernel::PRMSNormBackward: return "pRMSNorm backward";
    }
    return "copy";
}

std::optional<BenchKernel> parse_bench_kernel(std::string_view name) {
    for (BenchKernel k : kBenchKernels)
        if (to_string(k) == name) return k;
    return std::nullopt;
}

Norm bench_norm(BenchKernel kernel) {
    switch (kernel) {
        case BenchKernel::LayerNormForward:
        case BenchKernel::LayerNormBackward: return Norm::LayerNorm;
        case BenchKernel::RMSNormForward:
        case BenchKernel::RMSNormBackward: return Norm::RMSNorm;
        case BenchKernel::PRMSNormForward:
        case BenchKernel::PRMSNormBackward: return Norm::PRMSNorm;
        case BenchKernel::Copy: break;
    }
    return Norm::None;
}

bool is_backward(BenchKernel kernel) {
    return kernel == BenchKernel::LayerNormBackward || kernel == BenchKernel::RMSNormBackward ||
           kernel == BenchKernel::PRMSNormBackward;
}

BenchKernel bench_kernel(Norm norm, bool backward) {
    switch (norm) {
        case Norm::LayerNorm: return backward ? BenchKernel::LayerNormBackward : BenchKernel::LayerNormForward;
        case Norm::RMSNorm: return backward ? BenchKernel::RMSNormBackward : BenchKernel::RMSNormForward;
        case Norm::PRMSNorm: return backward ? BenchKernel::PRMSNormBackward : BenchKernel::PRMSNormForward;
        default: return BenchKernel::Copy;
    }
}

double bench_bytes(BenchKernel kernel, long rows, long cols) {
    const double tensor = 4.0 * static_cast<double>(rows) * static_cast<double>(cols);   // one R×C float32
    return (is_backward(kernel) ? 3.0 : 2.0) * tensor;
}

// [SECTION] Timing --------------------------------------------------------------------------

std::string_view to_string(TimingMethod method) {
    return method == TimingMethod::GlTimeElapsed ? "gl_time_elapsed" : "glfinish_cpu_clock";
}

std::string_view describe(TimingMethod method) {
    return method == TimingMethod::GlTimeElapsed ? tr("timed with GL_TIME_ELAPSED queries (the GPU's own clock)")
                                                 : tr("timed with glFinish + CPU clock: software renderer");
}

double gbps(double bytes, double ms) {
    if (!(ms > 0.0)) return std::numeric_limits<double>::quiet_NaN();
    return bytes / (ms * 1e-3) / 1e9;
}

BenchPoint bench_point(BenchKernel kernel, int rows, int cols, const std::vector<double>& ms) {
    return {kernel, rows, cols, median(ms), percentile(ms, 0.25), percentile(ms, 0.75)};
}

bool within_noise(const BenchPoint& a, const BenchPoint& b) {
    const bool kept = a.q3_ms > 0.0 && b.q3_ms > 0.0;
    return kept && a.q1_ms <= b.q3_ms && b.q1_ms <= a.q3_ms;
}

double time_saved_percent(double layernorm_ms, double rmsnorm_ms) {
    if (!(layernorm_ms > 0.0) || !(rmsnorm_ms > 0.0)) return std::numeric_limits<double>::quiet_NaN();
    return 100.0 * (1.0 - rmsnorm_ms / layernorm_ms);
}

// [SECTION] Results -------------------------------------------------------------------------

const BenchPoint* find_point(const std::vector<BenchPoint>& points, BenchKernel kernel, int rows, int cols) {
    for (const BenchPoint& p : points)
        if (p.kernel == kernel && p.rows == rows && p.cols == cols) return &p;
    return nullptr;
}

std::vector<int> widths_at(const std::vector<BenchPoint>& points, int rows) {
    std::set<int> widths;
    for (const BenchPoint& p : points)
        if (p.rows == rows) widths.insert(p.cols);
    return {widths.begin(), widths.end()};
}

// [SECTION] Lab state -----------------------------------------------------------------------

GpuLabState gpu_lab_default_state(bool software_renderer) {
    GpuLabState s;
    if (software_renderer) {   // llvmpipe moves a few GB/s: a sweep of seconds, not minutes
        const bool rows[kGpuLabSizeCount] = {true, false, true, false, false, false};
        const bool cols[kGpuLabSizeCount] = {true, false, true, false, true, false};
        std::copy(rows, rows + kGpuLabSizeCount, s.rows_on);
        std::copy(cols, cols + kGpuLabSizeCount, s.cols_on);
        s.reps = 5;
    }
    return s;
}

namespace {

std::vector<int> selected(const bool (&on)[kGpuLabSizeCount]) {
    std::vector<int> sizes;
    for (int i = 0; i < kGpuLabSizeCount; ++i)
        if (on[i]) sizes.push_back(kGpuLabSizes[i]);
    return sizes;
}

}  // namespace

std::vector<int> selected_rows(const GpuLabState& state) { return selected(state.rows_on); }
std::vector<int> selected_cols(const GpuLabState& state) { return selected(state.cols_on); }

// [SECTION] Figures -------------------------------------------------------------------------

Color bench_kernel_color(BenchKernel kernel) {
    const Norm norm = bench_norm(kernel);
    return norm == Norm::None ? okabe_ito::kBlack : norm_color(norm);   // the copy black
}

std::string short_renderer(const std::string& renderer, std::size_t max_chars) {
    // The name before its details: "llvmpipe (LLVM 15.0.6, 256 bits)" → "llvmpipe",
    // "NVIDIA H100 80GB HBM3/PCIe/SSE2" → "NVIDIA H100 80GB HBM3".
    std::string name = renderer.substr(0, std::min(renderer.find(" ("), renderer.find('/')));
    // Then at most max_chars code points, cut at a space where there is one.
    std::size_t chars = 0, cut = std::string::npos, last_space = std::string::npos;
    for (std::size_t i = 0; i < name.size(); ++i) {
        if (is_utf8_continuation(name[i])) continue;
        if (chars == max_chars) {
            cut = i;
            if (name[i] == ' ') last_space = i;   // the first max_chars end a word
            break;
        }
        if (name[i] == ' ') last_space = i;
        ++chars;
    }
    if (cut == std::string::npos) return name.empty() ? renderer.substr(0, std::min(renderer.size(), max_chars)) : name;
    name.resize(last_space != std::string::npos && last_space > 0 ? last_space : cut);
    while (!name.empty() && (name.back() == ',' || name.back() == ' ')) name.pop_back();
    return name + "…";
}

namespace {

constexpr int kCpuMarkerSize = 6;

Series kernel_series(const std::vector<BenchPoint>& points, BenchKernel kernel, int rows, bool cpu) {
    Series s;
    // "GPU LayerNorm", "CPU copy": the title says forward or backward.
    const std::string_view name = display_name(kernel);
    s.label = kernel == BenchKernel::Copy ? std::string(cpu ? tr("CPU copy") : tr("GPU copy"))
                                          : std::string(cpu ? "CPU " : "GPU ") + std::string(name.substr(0, name.find(' ')));
    s.color = bench_kernel_color(kernel);
    if (cpu && kernel == BenchKernel::Copy) s.color = {128, 128, 128};
    s.line = cpu ? LineStyle::Dashed : LineStyle::Solid;
    s.marker = cpu ? Marker::Square : Marker::Circle;
    s.marker_size = cpu ? kCpuMarkerSize : 7.0;
    s.width = kernel == BenchKernel::Copy && !cpu ? 2.75 : 1.75;
    for (int c : widths_at(points, rows))
        if (const BenchPoint* p = find_point(points, kernel, rows, c)) {
            s.x.push_back(c);
            s.y.push_back(gbps(bench_bytes(kernel, rows, c), p->ms));
        }
    return s;
}

bool has_kernel(const std::vector<BenchPoint>& points, BenchKernel kernel, int rows) {
    for (const BenchPoint& p : points)
        if (p.kernel == kernel && p.rows == rows) return true;
    return false;
}

// The widths measured at `rows` on either device: the x axis' ticks (256, 1024, 4096, not a
// log axis' 500, 1000, 2000).
std::vector<double> measured_widths(const BenchResults& results, int rows) {
    std::set<int> widths;
    for (const auto* points : {&results.gpu, &results.cpu})
        for (int c : widths_at(*points, rows)) widths.insert(c);
    return {widths.begin(), widths.end()};
}

std::string rows_text(int rows) { return rows == 1 ? std::string(tr("1 row")) : tr("{0} rows", rows); }

}  // namespace

Plot gpu_bandwidth_plot(const BenchResults& results, bool backward, int rows, bool with_cpu) {
    const bool cpu_only = results.gpu.empty() && !results.cpu.empty();   // the GPU kernels were off
    Plot plot;
    plot.name = backward ? "gpu_backward_gbps" : "gpu_forward_gbps";
    const std::string device = cpu_only ? std::string("CPU") : short_renderer(results.renderer);
    plot.title = backward ? tr("Backward GB/s · {0} · {1}", rows_text(rows), device)
                          : tr("Forward GB/s · {0} · {1}", rows_text(rows), device);
    const std::string kernels = backward ? tr("Backward kernels (dx, dg, db: 3·R·C·4 bytes)")
                                         : tr("Forward kernels (y, mean, rstd: 2·R·C·4 bytes)");
    const std::string timing(describe(results.timing));
    plot.caption = cpu_only ? tr("{0} against a plain copy (2·R·C·4 bytes), float32, {1}, on the CPU (core's fast_norm "
                                 "kernels, dashed); the GPU kernels did not run.",
                                 kernels, rows_text(rows))
                   : with_cpu ? tr("{0} against a plain copy (2·R·C·4 bytes), float32, {1}, on {2}, {3}; CPU: core's "
                                   "fast_norm kernels, dashed.",
                                   kernels, rows_text(rows), results.renderer, timing)
                              : tr("{0} against a plain copy (2·R·C·4 bytes), float32, {1}, on {2}, {3}.", kernels,
                                   rows_text(rows), results.renderer, timing);
    plot.x = {tr("width C (floats per row)"), Scale::Log10, std::nullopt, std::nullopt};
    plot.x.ticks = measured_widths(results, rows);
    if (with_cpu && !cpu_only) {   // a CPU and a GPU differ tenfold or more
        plot.y = {tr("GB/s (log scale)"), Scale::Log10, std::nullopt, std::nullopt};
    } else {          // from 0, so that the distance to the copy's curve reads as the share of it
        plot.y = {"GB/s", Scale::Linear, 0.0, std::nullopt};
    }
    const BenchKernel norms[] = {bench_kernel(Norm::LayerNorm, backward), bench_kernel(Norm::RMSNorm, backward),
                                 bench_kernel(Norm::PRMSNorm, backward)};
    for (bool cpu : {false, true}) {
        if (cpu && !with_cpu && !cpu_only) break;
        const std::vector<BenchPoint>& points = cpu ? results.cpu : results.gpu;
        if (has_kernel(points, BenchKernel::Copy, rows))
            plot.series.push_back(kernel_series(points, BenchKernel::Copy, rows, cpu));
        for (BenchKernel k : norms)
            if (has_kernel(points, k, rows)) plot.series.push_back(kernel_series(points, k, rows, cpu));
    }
    plot.legend_corner = LegendCorner::Auto;
    return plot;
}

Plot gpu_time_saved_plot(const BenchResults& results, int rows) {
    Plot plot;
    plot.name = "gpu_rmsnorm_time_saved";
    plot.title = tr("RMSNorm's time saved · {0}", rows_text(rows));
    const bool cpu_only = results.gpu.empty() && !results.cpu.empty();   // the GPU kernels were off
    plot.caption = cpu_only ? tr("100·(1 − t_RMSNorm / t_LayerNorm) per width at {0}; the RMSNorm paper reports "
                                 "7%–64% (Zhang & Sennrich 2019, §5). CPU only: the GPU kernels did not run.",
                                 rows_text(rows))
                            : tr("100·(1 − t_RMSNorm / t_LayerNorm) per width at {0}; the RMSNorm paper reports "
                                 "7%–64% (Zhang & Sennrich 2019, §5). GPU: {1}, {2}.",
                                 rows_text(rows), results.renderer, std::string(describe(results.timing)));
    plot.x = {tr("width C (floats per row)"), Scale::Log10, std::nullopt, std::nullopt};
    plot.x.ticks = measured_widths(results, rows);
    plot.y = {tr("time saved vs LayerNorm (%)"), Scale::Linear, std::nullopt, std::nullopt};
    struct Curve {
        const char* label;
        bool cpu, forward, backward;
        Color color;
        LineStyle line;
        Marker marker;
    };
    const Curve curves[] = {
        {tr_later("GPU forward"), false, true, false, palette_color(1), LineStyle::Solid, Marker::Circle},
        {tr_later("GPU backward"), false, false, true, palette_color(5), LineStyle::Solid, Marker::Triangle},
        {tr_later("GPU forward + backward"), false, true, true, palette_color(6), LineStyle::Solid, Marker::Diamond},
        {tr_later("CPU forward + backward"), true, true, true, {128, 128, 128}, LineStyle::Dashed, Marker::Square},
    };
    for (const Curve& c : curves) {
        const std::vector<BenchPoint>& points = c.cpu ? results.cpu : results.gpu;
        Series s;
        s.label = tr(c.label);
        s.color = c.color;
        s.line = c.line;
        s.marker = c.marker;
        for (int w : widths_at(points, rows)) {
            double ln = 0.0, rms = 0.0;
            bool complete = true;
            for (bool backward : {false, true}) {
                if (!(backward ? c.backward : c.forward)) continue;
                const BenchPoint* l = find_point(points, bench_kernel(Norm::LayerNorm, backward), rows, w);
                const BenchPoint* r = find_point(points, bench_kernel(Norm::RMSNorm, backward), rows, w);
                if (l == nullptr || r == nullptr) {
                    complete = false;
                    break;
                }
                ln += l->ms;
                rms += r->ms;
            }
            if (!complete) continue;
            s.x.push_back(w);
            s.y.push_back(time_saved_percent(ln, rms));
        }
        if (!s.x.empty()) plot.series.push_back(std::move(s));
    }
    // The paper's range as two dashed lines across the measured widths, named in the legend (a
    // reference line's label would sit under the legend, top right, as often as not).
    std::vector<int> widths = widths_at(cpu_only ? results.cpu : results.gpu, rows);
    if (!widths.empty()) {
        Series paper;
        paper.label = tr("paper: 7% and 64%");
        paper.color = {90, 90, 90};
        paper.line = LineStyle::Dashed;
        paper.width = 1.25;
        const double nan = std::numeric_limits<double>::quiet_NaN();
        paper.x = {double(widths.front()), double(widths.back()), nan, double(widths.front()), double(widths.back())};
        paper.y = {kPaperTimeSavedLow, kPaperTimeSavedLow, nan, kPaperTimeSavedHigh, kPaperTimeSavedHigh};
        plot.series.push_back(std::move(paper));
    }
    RefLine zero;
    zero.value = 0.0;
    zero.line = LineStyle::Solid;
    zero.width = 1.0;
    zero.color = {160, 160, 160};
    plot.ref_lines.push_back(zero);
    return plot;
}

// [SECTION] JSON ----------------------------------------------------------------------------

namespace {

nlohmann::json number_or_null(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

nlohmann::json points_json(const std::vector<BenchPoint>& points) {
    nlohmann::json list = nlohmann::json::array();
    for (const BenchPoint& p : points) {
        const BenchPoint* copy = find_point(points, BenchKernel::Copy, p.rows, p.cols);
        const double copy_gbps =
            copy != nullptr ? gbps(bench_bytes(BenchKernel::Copy, p.rows, p.cols), copy->ms)
                            : std::numeric_limits<double>::quiet_NaN();
        list.push_back({{"kernel", std::string(to_string(p.kernel))},
                        {"rows", p.rows},
                        {"cols", p.cols},
                        {"ms", number_or_null(p.ms)},
                        {"gbps", number_or_null(gbps(bench_bytes(p.kernel, p.rows, p.cols), p.ms))},
                        {"copy_gbps", number_or_null(copy_gbps)}});
    }
    return list;
}

}  // namespace

std::string bench_json(const BenchResults& results) {
    nlohmann::json j;
    j["renderer"] = results.renderer;
    j["timing"] = std::string(to_string(results.timing));
    j["results"] = points_json(results.gpu);
    if (!results.cpu.empty())
        j["cpu"] = {{"threads", results.cpu_threads}, {"path", results.cpu_path}, {"results", points_json(results.cpu)}};
    j["notes"] = results.notes;
    return j.dump(2);
}

}  // namespace normlab
