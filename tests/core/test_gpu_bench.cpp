// The GPU lab's benchmark as plain data (normlab/labs/gpu_lab.hpp): bytes, medians, GB/s, the
// figures and the JSON of `normlab --bench-gpu --json`. The kernels themselves are checked
// against core in tests/gui/test_gpu_kernels.cpp (they need a GL context).
#include <normlab/base/i18n.hpp>
#include <normlab/labs/gpu_lab.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <string>

namespace normlab {
namespace {

TEST(GpuBench, KernelNamesRoundTrip) {
    for (BenchKernel k : kBenchKernels) EXPECT_EQ(parse_bench_kernel(to_string(k)), k);
    EXPECT_EQ(to_string(BenchKernel::RMSNormBackward), "rmsnorm_backward");
    EXPECT_EQ(display_name(BenchKernel::PRMSNormForward), "pRMSNorm forward");
    EXPECT_FALSE(parse_bench_kernel("batchnorm_forward"));
    EXPECT_EQ(bench_kernel(Norm::RMSNorm, true), BenchKernel::RMSNormBackward);
    EXPECT_EQ(bench_norm(BenchKernel::Copy), Norm::None);
    EXPECT_EQ(bench_norm(BenchKernel::PRMSNormBackward), Norm::PRMSNorm);
}

TEST(GpuBench, BytesMovedAreTwoOrThreeTensors) {
    // docs/ARCHITECTURE.md: forward 2·R·C·4, backward 3·R·C·4, copy 2·R·C·4.
    EXPECT_EQ(bench_bytes(BenchKernel::Copy, 8192, 4096), 2.0 * 8192 * 4096 * 4);
    EXPECT_EQ(bench_bytes(BenchKernel::LayerNormForward, 1024, 1000), 2.0 * 1024 * 1000 * 4);
    EXPECT_EQ(bench_bytes(BenchKernel::PRMSNormBackward, 3, 5), 3.0 * 3 * 5 * 4);
}

TEST(GpuBench, GbpsAndTimeSaved) {
    EXPECT_DOUBLE_EQ(gbps(2e9, 1000.0), 2.0);   // 2 GB in a second
    EXPECT_DOUBLE_EQ(gbps(1e6, 1.0), 1.0);
    EXPECT_TRUE(std::isnan(gbps(1e6, 0.0)));
    EXPECT_NEAR(time_saved_percent(10.0, 9.3), 7.0, 1e-12);
    EXPECT_DOUBLE_EQ(time_saved_percent(2.0, 3.0), -50.0);   // slower: negative
    EXPECT_TRUE(std::isnan(time_saved_percent(0.0, 1.0)));
}

TEST(GpuBench, TimingMethodsSayWhatTheyAre) {
    EXPECT_EQ(to_string(TimingMethod::GlTimeElapsed), "gl_time_elapsed");
    EXPECT_EQ(to_string(TimingMethod::GlFinishCpuClock), "glfinish_cpu_clock");
    EXPECT_EQ(describe(TimingMethod::GlFinishCpuClock), "timed with glFinish + CPU clock: software renderer");
}

TEST(GpuBench, DefaultSweepIsSmallOnSoftware) {
    const GpuLabState sw = gpu_lab_default_state(true), hw = gpu_lab_default_state(false);
    EXPECT_EQ(selected_rows(sw), (std::vector<int>{256, 1024}));
    EXPECT_EQ(selected_cols(sw), (std::vector<int>{256, 1024, 4096}));
    EXPECT_EQ(selected_rows(hw), (std::vector<int>{256, 1024, 4096, 8192}));
    EXPECT_EQ(selected_cols(hw), (std::vector<int>{256, 1024, 2048, 4096, 8192}));
    EXPECT_LT(sw.reps, hw.reps);
}

TEST(GpuBench, ShortRendererNames) {
    EXPECT_EQ(short_renderer("llvmpipe (LLVM 15.0.6, 256 bits)"), "llvmpipe");
    EXPECT_EQ(short_renderer("NVIDIA H100 80GB HBM3/PCIe/SSE2"), "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(short_renderer("AMD Radeon Pro W7900 Dual Slot Workstation Edition", 20), "AMD Radeon Pro W7900…");
    EXPECT_EQ(short_renderer(""), "");
}

BenchResults sample_results() {
    BenchResults r;
    r.renderer = "llvmpipe (LLVM 15.0.6, 256 bits)";
    r.timing = TimingMethod::GlFinishCpuClock;
    for (int c : {256, 1024}) {
        r.gpu.push_back({BenchKernel::Copy, 64, c, 0.1});
        r.gpu.push_back({BenchKernel::LayerNormForward, 64, c, 0.4});
        r.gpu.push_back({BenchKernel::RMSNormForward, 64, c, 0.3});
        r.gpu.push_back({BenchKernel::LayerNormBackward, 64, c, 0.6});
        r.gpu.push_back({BenchKernel::RMSNormBackward, 64, c, 0.6});
    }
    r.cpu.push_back({BenchKernel::LayerNormForward, 64, 256, 1.0});   // no copy measured here
    return r;
}

TEST(GpuBench, FindAndWidths) {
    const BenchResults r = sample_results();
    ASSERT_NE(find_point(r.gpu, BenchKernel::RMSNormForward, 64, 1024), nullptr);
    EXPECT_EQ(find_point(r.gpu, BenchKernel::RMSNormForward, 64, 1024)->ms, 0.3);
    EXPECT_EQ(find_point(r.gpu, BenchKernel::PRMSNormForward, 64, 1024), nullptr);
    EXPECT_EQ(widths_at(r.gpu, 64), (std::vector<int>{256, 1024}));
    EXPECT_TRUE(widths_at(r.gpu, 65).empty());
}

TEST(GpuBench, BandwidthPlotShowsEachKernelAgainstTheCopy) {
    const BenchResults r = sample_results();
    const Plot p = gpu_bandwidth_plot(r, false, 64);
    EXPECT_EQ(p.name, "gpu_forward_gbps");
    EXPECT_NE(p.title.find("llvmpipe"), std::string::npos) << "the renderer is on the figure";
    EXPECT_NE(p.caption.find("glFinish + CPU clock"), std::string::npos);
    ASSERT_EQ(p.series.size(), 3u);   // copy, LayerNorm, RMSNorm (no pRMSNorm measured, CPU not asked for)
    EXPECT_EQ(p.series[0].label, "GPU copy");
    EXPECT_EQ(p.series[1].label, "GPU LayerNorm");
    EXPECT_EQ(p.series[1].color.b, palette_color(0).b);
    // 2·64·256·4 bytes in 0.1 ms.
    EXPECT_NEAR(p.series[0].y[0], 2.0 * 64 * 256 * 4 / 1e-4 / 1e9, 1e-9);
    EXPECT_EQ(p.y.scale, Scale::Linear);
    const Plot with_cpu = gpu_bandwidth_plot(r, false, 64, true);
    EXPECT_EQ(with_cpu.series.size(), 4u);
    EXPECT_EQ(with_cpu.series.back().label, "CPU LayerNorm");
    EXPECT_EQ(with_cpu.series.back().line, LineStyle::Dashed);
    EXPECT_EQ(with_cpu.y.scale, Scale::Log10);
    EXPECT_EQ(gpu_bandwidth_plot(r, true, 64).name, "gpu_backward_gbps");
}

// The widths measured are the x axis' ticks, labelled as measured: 256 and 1024 (a log axis' own
// ticks would be 500, 1000), on the time-saved figure too.
TEST(GpuBench, WidthAxisTicksAtTheWidthsMeasured) {
    BenchResults r = sample_results();
    r.gpu.push_back({BenchKernel::Copy, 64, 4096, 1.6});
    for (const Plot& p : {gpu_bandwidth_plot(r, false, 64), gpu_time_saved_plot(r, 64)}) {
        const PlotLayout L = layout_plot(p, Rect{0, 0, 600, 400});
        std::vector<std::string> labels;
        for (const PlacedTick& t : L.x_ticks) labels.push_back(t.tick.label);
        EXPECT_EQ(labels, (std::vector<std::string>{"256", "1024", "4096"})) << p.name;
    }
    // Too narrow for three labels: every second one.
    const PlotLayout narrow = layout_plot(gpu_bandwidth_plot(r, false, 64), Rect{0, 0, 150, 300});
    ASSERT_EQ(narrow.x_ticks.size(), 2u);
    EXPECT_EQ(narrow.x_ticks[1].tick.label, "4096");
}

// A point keeps its runs' median and quartiles; two kernels whose middle halves overlap are
// within the noise (a time saved of −135% on a loaded machine is not a result).
TEST(GpuBench, OverlappingRunsAreNoise) {
    const BenchPoint ln = bench_point(BenchKernel::LayerNormForward, 64, 256, {5.0, 1.0, 4.0, 2.0, 3.0});
    EXPECT_EQ(ln.ms, 3.0);
    EXPECT_EQ(ln.q1_ms, 2.0);
    EXPECT_EQ(ln.q3_ms, 4.0);
    // Median 7 ms (a time saved of −133%), but the middle half 3.5–8 ms overlaps LayerNorm's 2–4 ms.
    const BenchPoint spread = bench_point(BenchKernel::RMSNormForward, 64, 256, {30.0, 1.5, 8.0, 7.0, 3.5});
    EXPECT_LT(time_saved_percent(ln.ms, spread.ms), -100.0);
    EXPECT_TRUE(within_noise(ln, spread));
    const BenchPoint apart = bench_point(BenchKernel::RMSNormForward, 64, 256, {4.5, 5.0, 5.5, 6.0, 6.5});
    EXPECT_FALSE(within_noise(ln, apart));   // 2–4 ms against 5–6 ms
    EXPECT_FALSE(within_noise(BenchPoint{BenchKernel::Copy, 1, 1, 1.0}, BenchPoint{BenchKernel::Copy, 1, 1, 1.0}))
        << "no quartiles kept: not called noise";
}

// The GPU kernels off (WebGL2, no OpenGL 4.3): the CPU's curves alone, from 0, the title naming
// the CPU, not the renderer that could not run them.
TEST(GpuBench, CpuOnlyResultsPlotTheCpu) {
    BenchResults r;
    r.renderer = "WebKit WebGL";
    for (int c : {256, 1024}) {
        r.cpu.push_back({BenchKernel::Copy, 64, c, 0.1});
        r.cpu.push_back({BenchKernel::LayerNormForward, 64, c, 0.4});
        r.cpu.push_back({BenchKernel::RMSNormForward, 64, c, 0.3});
        r.cpu.push_back({BenchKernel::LayerNormBackward, 64, c, 0.6});
        r.cpu.push_back({BenchKernel::RMSNormBackward, 64, c, 0.5});
    }
    const Plot p = gpu_bandwidth_plot(r, false, 64);
    EXPECT_EQ(p.title, "Forward GB/s · 64 rows · CPU");
    EXPECT_NE(p.caption.find("the GPU kernels did not run"), std::string::npos) << p.caption;
    ASSERT_EQ(p.series.size(), 3u);
    EXPECT_EQ(p.series[0].label, "CPU copy");
    EXPECT_NEAR(p.series[0].y[0], 2.0 * 64 * 256 * 4 / 1e-4 / 1e9, 1e-9);
    EXPECT_EQ(p.y.scale, Scale::Linear);
    EXPECT_EQ(p.y.min, 0.0);
    const Plot saved = gpu_time_saved_plot(r, 64);
    ASSERT_GE(saved.series.size(), 1u);
    EXPECT_EQ(saved.series[0].label, "CPU forward + backward");
    EXPECT_NEAR(saved.series[0].y[0], 20.0, 1e-12);   // 1 − (0.3 + 0.5)/(0.4 + 0.6)
    EXPECT_EQ(saved.series.back().label, "paper: 7% and 64%");   // across the CPU's widths
    EXPECT_NE(saved.caption.find("CPU only"), std::string::npos) << saved.caption;
}

TEST(GpuBench, TimeSavedPlotHasThePapersRange) {
    const Plot p = gpu_time_saved_plot(sample_results(), 64);
    EXPECT_EQ(p.name, "gpu_rmsnorm_time_saved");
    ASSERT_GE(p.series.size(), 3u);
    EXPECT_EQ(p.series[0].label, "GPU forward");
    EXPECT_NEAR(p.series[0].y[0], 25.0, 1e-12);   // 1 − 0.3/0.4
    EXPECT_NEAR(p.series[1].y[0], 0.0, 1e-12);    // backward: equal times
    EXPECT_NEAR(p.series[2].y[0], 10.0, 1e-12);   // 1 − 0.9/1.0
    const Series& paper = p.series.back();
    EXPECT_EQ(paper.label, "paper: 7% and 64%");
    ASSERT_EQ(paper.y.size(), 5u);   // two segments across the measured widths, broken in between
    EXPECT_EQ(paper.y[0], 7.0);
    EXPECT_EQ(paper.y[4], 64.0);
    EXPECT_EQ(paper.x[0], 256.0);
    EXPECT_EQ(paper.x[1], 1024.0);
    EXPECT_TRUE(std::isnan(paper.x[2]));
    ASSERT_EQ(p.ref_lines.size(), 1u);   // the zero line
    EXPECT_EQ(p.ref_lines[0].value, 0.0);
}

TEST(GpuBench, JsonHasTheKeysScriptsRead) {
    const nlohmann::json j = nlohmann::json::parse(bench_json(sample_results()));
    EXPECT_EQ(j.at("renderer"), "llvmpipe (LLVM 15.0.6, 256 bits)");
    EXPECT_EQ(j.at("timing"), "glfinish_cpu_clock");
    ASSERT_EQ(j.at("results").size(), 10u);
    const nlohmann::json& ln = j.at("results").at(1);
    EXPECT_EQ(ln.at("kernel"), "layernorm_forward");
    EXPECT_EQ(ln.at("rows"), 64);
    EXPECT_EQ(ln.at("cols"), 256);
    EXPECT_EQ(ln.at("ms"), 0.4);
    EXPECT_NEAR(ln.at("gbps").get<double>(), 2.0 * 64 * 256 * 4 / 4e-4 / 1e9, 1e-9);
    EXPECT_NEAR(ln.at("copy_gbps").get<double>(), 2.0 * 64 * 256 * 4 / 1e-4 / 1e9, 1e-9);
    EXPECT_TRUE(j.at("cpu").at("results").at(0).at("copy_gbps").is_null()) << "no CPU copy at that shape";
    EXPECT_TRUE(j.at("notes").is_array());
}

// The figures speak the UI's language (docs/i18n/TRANSLATING.md); English, the CLI's, when none is chosen.
TEST(GpuBench, FiguresFollowTheLanguage) {
    struct EnglishAfter {
        ~EnglishAfter() { set_language(Language::En, Catalog{}); }
    } restore;
    const BenchResults r = sample_results();
    ASSERT_TRUE(set_language(Language::Ko, NORMLAB_ASSETS_DIR "/i18n").empty());
    Plot p = gpu_time_saved_plot(r, 64);
    EXPECT_EQ(p.title, "RMSNorm이 줄인 시간 · 64행");
    EXPECT_EQ(p.series[0].label, "GPU 순전파");
    EXPECT_EQ(gpu_bandwidth_plot(r, true, 1).title.rfind("역전파 GB/s · 1행 · ", 0), 0u);
    ASSERT_TRUE(set_language(Language::Zh, NORMLAB_ASSETS_DIR "/i18n").empty());
    EXPECT_EQ(gpu_time_saved_plot(r, 64).title, "RMSNorm 节省的时间 · 64 行");
    set_language(Language::En, Catalog{});
    p = gpu_time_saved_plot(r, 64);
    EXPECT_EQ(p.title, "RMSNorm's time saved · 64 rows");
    EXPECT_EQ(p.series[0].label, "GPU forward");
}

}  // namespace
}  // namespace normlab
