// The GPU kernels (shaders/*.comp through app/gpu/gpu_runner.hpp) against core's double-precision
// reference (normlab::layer_forward / layer_backward) on random inputs, in a hidden GL 4.3 core
// window: run under Xvfb (Mesa llvmpipe), e.g.  xvfb-run -a normlab_gpu_kernel_tests
//
// [SECTION] Set-up      — one hidden window for all tests; the reference and the comparison
// [SECTION] Row split   — how rows are shared among threads (no GL)
// [SECTION] Kernels     — forward (y, mean, rstd) and backward (dx, dg, db) of each norm, both
//                          workgroup sizes (llvmpipe's 8, a GPU's 256), vec4 and float paths
// [SECTION] Copy
// [SECTION] Failures    — a shader that does not compile, shapes too large for the GL
// [SECTION] Timing      — the sweep's bookkeeping (never its speed)
#include "gpu_runner.hpp"
#include "gpu_sweep.hpp"

#include <normlab/norm/norm.hpp>
#include <normlab/base/i18n.hpp>
#include <normlab/base/random.hpp>

#include <epoxy/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace normlab::ui {
namespace {

// [SECTION] Set-up --------------------------------------------------------------------------

constexpr double kTolerance = 1e-5;   // ‖out − ref‖ / ‖ref‖, float32 against double

GLFWwindow* g_window = nullptr;

// Both workgroup sizes the runner uses: llvmpipe's (8) and a GPU's (256).
class GpuKernels : public ::testing::TestWithParam<int> {
protected:
    static void SetUpTestSuite() {
        for (int local : {kSoftwareLocalSize, kGpuLocalSize}) runners_[local == kGpuLocalSize] = new GpuRunner(embedded_shader_sources(), {local, {}});
    }
    static void TearDownTestSuite() {
        for (GpuRunner*& r : runners_) {
            delete r;
            r = nullptr;
        }
    }
    GpuRunner& runner() { return *runners_[GetParam() == kGpuLocalSize]; }
    void SetUp() override { ASSERT_TRUE(runner().available()) << runner().error(); }

    static GpuRunner* runners_[2];
};
GpuRunner* GpuKernels::runners_[2] = {nullptr, nullptr};

std::vector<float> to_floats(const Mat& m) {   // row-major
    std::vector<float> out(static_cast<std::size_t>(m.size()));
    for (Eigen::Index i = 0; i < m.rows(); ++i)
        for (Eigen::Index j = 0; j < m.cols(); ++j) out[static_cast<std::size_t>(i * m.cols() + j)] = static_cast<float>(m(i, j));
    return out;
}
std::vector<float> to_floats(const Vec& v) {
    std::vector<float> out(static_cast<std::size_t>(v.size()));
    for (Eigen::Index i = 0; i < v.size(); ++i) out[static_cast<std::size_t>(i)] = static_cast<float>(v(i));
    return out;
}

// ‖out − ref‖ / ‖ref‖ (‖out − ref‖ when ref = 0), in double.
double relative_error(const std::vector<float>& out, const std::vector<double>& ref) {
    double diff = 0.0, norm = 0.0;
    for (std::size_t i = 0; i < ref.size(); ++i) {
        diff += (out[i] - ref[i]) * (out[i] - ref[i]);
        norm += ref[i] * ref[i];
    }
    return norm > 0.0 ? std::sqrt(diff / norm) : std::sqrt(diff);
}
std::vector<double> flat(const Mat& m) {
    std::vector<double> out;
    for (Eigen::Index i = 0; i < m.rows(); ++i)
        for (Eigen::Index j = 0; j < m.cols(); ++j) out.push_back(m(i, j));
    return out;
}
std::vector<double> flat(const Vec& v) { return {v.data(), v.data() + v.size()}; }

struct Case {
    int rows, cols;
    double p = 0.0625;
};

// Inputs with a mean far from 0 (x ~ N(1, 2²)), so that LayerNorm and RMSNorm differ.
struct Inputs {
    Mat x, dy;
    Vec g, b;
};
Inputs random_inputs(int rows, int cols, std::uint64_t seed) {
    Rng rng(seed);
    Inputs in{Mat(rows, cols), Mat(rows, cols), Vec(cols), Vec(cols)};
    for (Eigen::Index i = 0; i < rows; ++i)
        for (Eigen::Index j = 0; j < cols; ++j) {
            in.x(i, j) = static_cast<float>(1.0 + 2.0 * rng.normal());   // exactly representable in float
            in.dy(i, j) = static_cast<float>(rng.normal());
        }
    for (Eigen::Index j = 0; j < cols; ++j) {
        in.g(j) = static_cast<float>(1.0 + 0.5 * rng.normal());
        in.b(j) = static_cast<float>(0.5 * rng.normal());
    }
    return in;
}

const char* name(GpuNorm n) {
    return n == GpuNorm::LayerNorm ? "LayerNorm" : n == GpuNorm::RMSNorm ? "RMSNorm" : "pRMSNorm";
}

Norm core_norm(GpuNorm n) {
    return n == GpuNorm::LayerNorm ? Norm::LayerNorm : n == GpuNorm::RMSNorm ? Norm::RMSNorm : Norm::PRMSNorm;
}

// Runs one norm forward and backward on the GPU and checks all six outputs against core.
void check_norm(GpuRunner& runner, GpuNorm norm, const Case& c, std::uint64_t seed) {
    SCOPED_TRACE(std::string(name(norm)) + " at " + std::to_string(c.rows) + " × " + std::to_string(c.cols) +
                 ", p = " + std::to_string(c.p) + ", workgroup " + std::to_string(runner.local_size()));
    const Inputs in = random_inputs(c.rows, c.cols, seed);
    const float eps = 1e-5f;
    NormSpec spec;
    spec.norm = core_norm(norm);
    spec.eps = eps;
    spec.p = c.p;
    spec.rounding = PartialRounding::Ceil;
    const LayerParams params{std::nullopt, in.g, in.b};
    const LayerForward ref = layer_forward(spec, in.x, params);
    const LayerGrads ref_grads = layer_backward(spec, in.x, params, ref, in.dy);
    std::vector<double> ref_mean, ref_rstd;
    for (const GroupStats& s : ref.cache.groups) {
        ref_mean.push_back(s.mean);
        ref_rstd.push_back(1.0 / s.denom);
    }

    const GpuForward fwd = runner.forward(norm, c.rows, c.cols, to_floats(in.x), to_floats(in.g), to_floats(in.b), eps, c.p);
    EXPECT_LT(relative_error(fwd.y, flat(ref.y)), kTolerance) << "y";
    EXPECT_LT(relative_error(fwd.mean, ref_mean), kTolerance) << "mean";
    EXPECT_LT(relative_error(fwd.rstd, ref_rstd), kTolerance) << "rstd";

    const GpuBackward bwd =
        runner.backward(norm, c.rows, c.cols, to_floats(in.dy), to_floats(in.x), to_floats(in.g), fwd.mean, fwd.rstd, c.p);
    EXPECT_LT(relative_error(bwd.dx, flat(ref_grads.dx)), kTolerance) << "dx";
    EXPECT_LT(relative_error(bwd.dg, flat(ref_grads.dg)), kTolerance) << "dg (summed over rows)";
    EXPECT_LT(relative_error(bwd.db, flat(ref_grads.db)), kTolerance) << "db (summed over rows)";
}

// [SECTION] Row split -----------------------------------------------------------------------

TEST(GpuRowSplit, Vec4WhenTheWidthAllowsIt) {
    EXPECT_TRUE(row_split(4, 256, 256).vec4);
    EXPECT_FALSE(row_split(4, 255, 256).vec4);
    EXPECT_EQ(row_split(4, 256, 256).elements, 64);
    EXPECT_EQ(row_split(4, 255, 256).elements, 255);
}

TEST(GpuRowSplit, ShortRowsShareAWorkgroupLongRowsFillOne) {
    const RowSplit shortrows = row_split(1000, 16, 256);   // 4 vec4s a row: 4 lanes, 64 rows a workgroup
    EXPECT_EQ(shortrows.lanes, 4);
    EXPECT_EQ(shortrows.rows_per_group, 64);
    EXPECT_EQ(shortrows.blocks, 16);   // ⌈1000 / 64⌉
    const RowSplit longrows = row_split(1000, 8192, 256);
    EXPECT_EQ(longrows.lanes, 256);
    EXPECT_EQ(longrows.rows_per_group, 1);
    EXPECT_EQ(longrows.blocks, 1000);
    EXPECT_EQ(longrows.forward_groups, 1000);
    EXPECT_EQ(row_split(1, 1, 256).lanes, 1);
}

TEST(GpuRowSplit, BackwardGroupsAddSeveralRowsEach) {
    const RowSplit s = row_split(8192, 4096, 256);
    EXPECT_EQ(s.backward_groups, 512);   // 8192 blocks / 16
    EXPECT_EQ(s.slots, 512);
    EXPECT_EQ(row_split(100, 4096, 256).backward_groups, 64);   // at least 64 where there are blocks
    EXPECT_EQ(row_split(10, 4096, 256).backward_groups, 10);
    EXPECT_EQ(row_split(10, 4096, 8).lanes, 8);
}

TEST(GpuRenderer, SoftwareRenderersAreRecognised) {
    EXPECT_TRUE(is_software_renderer("llvmpipe (LLVM 15.0.6, 256 bits)"));
    EXPECT_TRUE(is_software_renderer("softpipe"));
    EXPECT_TRUE(is_software_renderer("Software Rasterizer (swrast)"));
    EXPECT_FALSE(is_software_renderer("NVIDIA H100 80GB HBM3/PCIe/SSE2"));
    EXPECT_FALSE(is_software_renderer("AMD Radeon RX 7900 XTX (radeonsi, navi31, LLVM 15.0.7, DRM 3.54)"));
}

// [SECTION] Kernels -------------------------------------------------------------------------

// Widths that are and are not multiples of 4 (vec4 and float paths), one row and many, rows that
// fill a workgroup's row slots part-way, rows short enough to share a workgroup, rows long enough
// that dg, db go through global memory instead of registers (kMaxItems), and pRMSNorm's k that
// ends inside a vec4. Not widths 1 and 2: there ā is ±1 up to ε, so dx is ε-sized, the difference
// of two nearly equal terms, which float32 cannot resolve (an ill-conditioned case, not a bug).
const Case kCases[] = {
    {1, 3},     {1, 7},     {1, 4096},  {3, 255},    {5, 256},    {257, 64},  {64, 1023},
    {1000, 12}, {2, 8193},  {513, 1000}, {4100, 16}, {1024, 512}, {7, 10, 0.3}, {9, 13, 0.3},
    {33, 1000, 0.3}, {4, 4, 1.0}};

TEST_P(GpuKernels, LayerNormMatchesCore) {
    std::uint64_t seed = 1;
    for (const Case& c : kCases) check_norm(runner(), GpuNorm::LayerNorm, c, seed++);
}

TEST_P(GpuKernels, RMSNormMatchesCore) {
    std::uint64_t seed = 100;
    for (const Case& c : kCases) check_norm(runner(), GpuNorm::RMSNorm, c, seed++);
}

TEST_P(GpuKernels, PRMSNormMatchesCoreWithKFromCeil) {
    std::uint64_t seed = 200;
    for (const Case& c : kCases) check_norm(runner(), GpuNorm::PRMSNorm, c, seed++);
}

TEST_P(GpuKernels, PRMSNormUsesOnlyTheFirstKEntries) {
    // C = 10, p = 0.3: k = ⌈3⌉ = 3. Changing x beyond the first 3 leaves rstd as it was.
    std::vector<float> x(10, 1.0f), g(10, 1.0f), b(10, 0.0f);
    x[0] = 3.0f;
    const GpuForward a = runner().forward(GpuNorm::PRMSNorm, 1, 10, x, g, b, 0.0f, 0.3);
    x[7] = 100.0f;
    const GpuForward c = runner().forward(GpuNorm::PRMSNorm, 1, 10, x, g, b, 0.0f, 0.3);
    EXPECT_FLOAT_EQ(a.rstd[0], c.rstd[0]);
    EXPECT_NEAR(a.rstd[0], 1.0 / std::sqrt((9.0 + 1.0 + 1.0) / 3.0), 1e-6);
}

TEST_P(GpuKernels, WrongSizesAreRefused) {
    EXPECT_THROW(runner().forward(GpuNorm::LayerNorm, 2, 3, std::vector<float>(5), std::vector<float>(3),
                                  std::vector<float>(3), 1e-5f),
                 std::invalid_argument);
}

INSTANTIATE_TEST_SUITE_P(Workgroup, GpuKernels, ::testing::Values(kSoftwareLocalSize, kGpuLocalSize),
                         [](const ::testing::TestParamInfo<int>& param) { return "local" + std::to_string(param.param); });

// [SECTION] Copy ----------------------------------------------------------------------------

TEST(GpuCopy, CopiesEveryFloatExactly) {
    GpuRunner runner;
    ASSERT_TRUE(runner.available()) << runner.error();
    for (std::size_t n : {std::size_t{1}, std::size_t{3}, std::size_t{4}, std::size_t{1000}, std::size_t{(1 << 20) + 3},
                          std::size_t{1 << 22}}) {
        std::vector<float> src(n);
        for (std::size_t i = 0; i < n; ++i) src[i] = static_cast<float>(i) * 0.5f - 7.0f;
        EXPECT_EQ(runner.copy(src), src) << n << " floats";
    }
}

// [SECTION] Failures ------------------------------------------------------------------------

TEST(GpuFailures, ABrokenShaderGivesOneLineAndNoProgram) {
    std::string error;
    const GLuint program = build_compute_program(
        "broken.comp", "#version 430\nlayout(local_size_x = 1) in;\nvoid main() { this is not glsl; }\n", "", error);
    EXPECT_EQ(program, 0u);
    EXPECT_EQ(error.rfind("broken.comp does not compile: ", 0), 0u) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    EXPECT_GT(error.size(), std::string("broken.comp does not compile: ").size()) << "the driver's message is kept";
}

TEST(GpuFailures, DefinesGoAfterTheVersionLine) {
    std::string error;
    const GLuint program = build_compute_program(
        "defines.comp", "#version 430\nlayout(local_size_x = 1) in;\nvoid main() { int v = NEEDED; }\n",
        "#define NEEDED 3\n", error);
    EXPECT_NE(program, 0u) << error;
    glDeleteProgram(program);
}

TEST(GpuFailures, ARunnerWithABrokenShaderFallsBack) {
    GpuShaderSources sources = embedded_shader_sources();
    sources.norm_backward = "#version 430\nlayout(local_size_x = 1) in;\nvoid main() { oops }\n";
    GpuRunner runner(sources);
    EXPECT_FALSE(runner.available());
    EXPECT_EQ(runner.error().rfind("shaders/norm_backward.comp, LayerNorm (float) does not compile: ", 0), 0u)
        << runner.error();
    EXPECT_EQ(runner.error().find('\n'), std::string::npos);
    EXPECT_THROW(runner.copy({1.0f}), std::invalid_argument);
    EXPECT_THROW(GpuSweep(runner, norm_times_plan(4, 4)), std::invalid_argument);
}

// Where the GPU kernels are off (WebGL2, no OpenGL 4.3) a sweep that asks for the CPU kernels
// times them alone, and its notes say why the GPU did not run.
TEST(GpuFailures, AnOffRunnerSweepsTheCpuAlone) {
    GpuShaderSources sources = embedded_shader_sources();
    sources.copy = "#version 430\nlayout(local_size_x = 1) in;\nvoid main() { oops }\n";
    GpuRunner runner(sources);
    ASSERT_FALSE(runner.available());
    SweepPlan plan;
    plan.rows = {16, 33};
    plan.cols = {64};
    plan.reps = 3;
    plan.cpu = true;
    GpuSweep sweep(runner, plan);
    sweep.run_to_end();
    const BenchResults& r = sweep.results();
    EXPECT_TRUE(r.gpu.empty());
    EXPECT_EQ(r.cpu.size(), 2u * 5u);   // copy, LayerNorm and RMSNorm forward and backward, per shape
    ASSERT_EQ(r.notes.size(), 1u);
    EXPECT_EQ(r.notes.front(), "GPU: " + runner.error());
    for (const BenchPoint& p : r.cpu) EXPECT_GE(p.ms, 0.0) << to_string(p.kernel);
}

TEST(GpuFailures, ShapesBeyondTheLargestBufferAreReportedNotRun) {
    GpuRunner runner;
    ASSERT_TRUE(runner.available()) << runner.error();
    if (runner.max_buffer_bytes() > (256LL << 20)) GTEST_SKIP() << "this GL's buffers hold more than 256 MB";
    const int cols = 4096;
    const int rows = static_cast<int>(runner.max_buffer_bytes() / 4 / cols) + 1;
    const std::string why = runner.prepare(rows, cols, 0.0625, 1e-5f);
    EXPECT_NE(why.find("exceed this GL's largest shader storage block"), std::string::npos) << why;
}

// A GPU reset cannot be caused on purpose here; the statuses the driver would report are fed to
// the watch instead, and the live context is asked once (it is fine: no reset).
TEST(GpuLostContext, EachResetStatusIsSaidInWordsNoErrorIsSilent) {
    EXPECT_EQ(describe_graphics_reset(GL_NO_ERROR), "");
    EXPECT_EQ(describe_graphics_reset(GL_GUILTY_CONTEXT_RESET),
              "the GPU was reset and the GL context is lost; this app's GL work caused it (GL_GUILTY_CONTEXT_RESET)");
    EXPECT_EQ(describe_graphics_reset(GL_INNOCENT_CONTEXT_RESET),
              "the GPU was reset and the GL context is lost; another program's GPU work caused it "
              "(GL_INNOCENT_CONTEXT_RESET)");
    EXPECT_EQ(describe_graphics_reset(GL_UNKNOWN_CONTEXT_RESET),
              "the GPU was reset and the GL context is lost; the cause is unknown (GL_UNKNOWN_CONTEXT_RESET)");
    EXPECT_EQ(describe_graphics_reset(0x1234), "the GL context is lost (reset status 0x1234)");
}

TEST(GpuLostContext, AResetIsReportedOnceAndStays) {
    ContextWatch watch;
    EXPECT_FALSE(watch.observe(GL_NO_ERROR));
    EXPECT_FALSE(watch.lost());
    EXPECT_TRUE(watch.observe(GL_INNOCENT_CONTEXT_RESET)) << "the first reset: say it";
    EXPECT_TRUE(watch.lost());
    EXPECT_FALSE(watch.observe(GL_GUILTY_CONTEXT_RESET)) << "said once";
    EXPECT_FALSE(watch.observe(GL_NO_ERROR)) << "a lost context does not come back";
    EXPECT_TRUE(watch.lost());
    EXPECT_EQ(watch.message(), describe_graphics_reset(GL_INNOCENT_CONTEXT_RESET)) << "the first reset's words";
    EXPECT_FALSE(watch.check()) << "no more questions to the driver once lost";
}

TEST(GpuLostContext, AHealthyContextIsNotLost) {
    while (glGetError() != GL_NO_ERROR) {
    }   // earlier tests' errors are not this test's
    ContextWatch watch;
    EXPECT_FALSE(watch.check());
    EXPECT_FALSE(watch.check());
    EXPECT_FALSE(watch.lost());
    EXPECT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR)) << "the status query is valid on this context";
}

// [SECTION] Timing --------------------------------------------------------------------------

TEST(GpuSweepTest, EveryKernelAndShapeGetsOneMedianGpuAndCpu) {
    GpuRunner runner;
    ASSERT_TRUE(runner.available()) << runner.error();
    SweepPlan plan;
    plan.rows = {16, 33};
    plan.cols = {64, 100};
    plan.reps = 3;
    plan.cpu = true;
    GpuSweep sweep(runner, plan);
    sweep.run_to_end();
    ASSERT_TRUE(sweep.done());
    const BenchResults& r = sweep.results();
    EXPECT_EQ(r.gpu.size(), 4u * kBenchKernelCount);
    EXPECT_EQ(r.cpu.size(), 4u * 5u);   // copy, LayerNorm and RMSNorm forward and backward
    EXPECT_TRUE(r.notes.empty());
    for (const BenchPoint& p : r.gpu) EXPECT_GE(p.ms, 0.0) << to_string(p.kernel);
    EXPECT_EQ(r.timing, is_software_renderer(runner.renderer()) ? TimingMethod::GlFinishCpuClock
                                                                 : TimingMethod::GlTimeElapsed);
    EXPECT_EQ(r.renderer, runner.renderer());
}

// What the sweep says it runs is shown in the GPU lab: in the UI's language.
TEST(GpuSweepTest, StatusIsInTheUiLanguage) {
    GpuShaderSources sources = embedded_shader_sources();
    sources.copy = "#version 430\nlayout(local_size_x = 1) in;\nvoid main() { oops }\n";
    GpuRunner runner(sources);   // off: the CPU's kernels alone
    SweepPlan plan;
    plan.rows = {16};
    plan.cols = {64};
    plan.reps = 1;
    plan.cpu = true;
    GpuSweep sweep(runner, plan);
    const std::string english = sweep.status();
    EXPECT_NE(english.find("CPU "), std::string::npos) << english;
    EXPECT_NE(english.find(" at 16 × 64 (warm-up)"), std::string::npos) << english;
    set_language(Language::Ko, parse_po("msgid \"CPU {0} at {1}\"\nmsgstr \"CPU {0} ({1})\"\n"
                                        "msgid \"{0} (warm-up)\"\nmsgstr \"{0} (워밍업)\"\n", "ko.po"));
    const std::string korean = sweep.status();
    set_language(Language::En, Catalog{});
    EXPECT_NE(korean.find("(16 × 64) (워밍업)"), std::string::npos) << korean;
    sweep.run_to_end();
    EXPECT_EQ(sweep.status(), "done");
}

TEST(GpuSweepTest, EachAdvanceTakesAtLeastOneStep) {
    GpuRunner runner;
    ASSERT_TRUE(runner.available()) << runner.error();
    SweepPlan plan;
    plan.rows = {8};
    plan.cols = {32, 48};
    plan.reps = 2;
    GpuSweep sweep(runner, plan);
    int calls = 0;
    const SweepBudget none{0.0, 0.0, false};   // one step per call
    while (!sweep.done() && calls <= sweep.step_count() + 100) {
        sweep.advance(none);
        ++calls;
        if (calls > sweep.step_count()) glFinish();   // only timer results can be outstanding now
    }
    EXPECT_TRUE(sweep.done());
    EXPECT_GE(calls, 1);
    EXPECT_EQ(sweep.progress(), 1.0);
    EXPECT_EQ(sweep.status(), "done");
}

// The GPU lab's default sweep on a software renderer ends within the frames its screenshot test
// renders (tests/gui/CMakeLists.txt: gui.gpu_screenshot, 300 frames; advance() takes at least one
// step per frame).
TEST(GpuSweepTest, TheDefaultSoftwareSweepFitsTheScreenshotTest) {
    GpuRunner runner;
    ASSERT_TRUE(runner.available()) << runner.error();
    const GpuLabState s = gpu_lab_default_state(true);
    SweepPlan plan;
    plan.rows = selected_rows(s);
    plan.cols = selected_cols(s);
    plan.reps = s.reps;
    plan.cpu = s.cpu;
    const GpuSweep sweep(runner, plan);
    EXPECT_LE(sweep.step_count(), 290);
}

// The real-GPU path, GL_TIME_ELAPSED queries in a ring, forced on llvmpipe (where they read ~0):
// more timed runs than the ring holds, so that advance() stops when it is full and later frames
// collect the results.
TEST(GpuSweepTest, TimerQueriesAreCollectedInLaterCalls) {
    GpuRunner runner(embedded_shader_sources(), {0, TimingMethod::GlTimeElapsed});
    ASSERT_TRUE(runner.available()) << runner.error();
    SweepPlan plan;
    plan.rows = {8};
    plan.cols = {64};
    plan.kernels = {BenchKernel::Copy, BenchKernel::RMSNormBackward};
    plan.reps = 100;   // > the ring's 64 queries
    plan.cpu = false;
    GpuSweep sweep(runner, plan);
    const SweepBudget frame{1e9, 1e18, false};   // no limit but the ring's
    sweep.advance(frame);
    EXPECT_FALSE(sweep.done()) << "100 runs cannot all be in flight in a ring of 64";
    int calls = 1;
    for (; !sweep.done() && calls < 10000; ++calls) {
        glFinish();   // lets the queries finish, as a frame's swap would
        sweep.advance(frame);
    }
    ASSERT_TRUE(sweep.done());
    EXPECT_EQ(sweep.results().timing, TimingMethod::GlTimeElapsed);
    ASSERT_EQ(sweep.results().gpu.size(), 2u);
    for (const BenchPoint& p : sweep.results().gpu) {
        EXPECT_GE(p.ms, 0.0);
        std::printf("GL_TIME_ELAPSED on %s: %s median %.6f ms\n", runner.renderer().c_str(),
                    std::string(to_string(p.kernel)).c_str(), p.ms);
    }
}

TEST(GpuSweepTest, NormTimesForAnotherLabsShape) {
    GpuRunner runner;
    ASSERT_TRUE(runner.available()) << runner.error();
    const NormKernelTimes t = time_norm_kernels(runner, 64, 96, 3);
    EXPECT_EQ(t.rows, 64);
    EXPECT_EQ(t.cols, 96);
    for (double ms : {t.layernorm_forward_ms, t.layernorm_backward_ms, t.rmsnorm_forward_ms, t.rmsnorm_backward_ms})
        EXPECT_GE(ms, 0.0);
    const std::string caption = norm_times_caption(t);
    EXPECT_EQ(caption.rfind("GPU: LayerNorm fwd+bwd ", 0), 0u) << caption;
    EXPECT_NE(caption.find(" at 64×96"), std::string::npos) << caption;
}

}  // namespace
}  // namespace normlab::ui

// A hidden GL 4.3 core window for every test (the kernels need its context current).
int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    if (glfwInit() != GLFW_TRUE) {
        std::fprintf(stderr, "test_gpu_kernels: no display; run it under xvfb-run -a\n");
        return 1;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
    normlab::ui::g_window = glfwCreateWindow(64, 64, "test_gpu_kernels", nullptr, nullptr);
    if (normlab::ui::g_window == nullptr) {
        std::fprintf(stderr, "test_gpu_kernels: cannot create an OpenGL 4.3 core context\n");
        glfwTerminate();
        return 1;
    }
    glfwMakeContextCurrent(normlab::ui::g_window);
    const int code = RUN_ALL_TESTS();
    glfwDestroyWindow(normlab::ui::g_window);
    glfwTerminate();
    return code;
}
