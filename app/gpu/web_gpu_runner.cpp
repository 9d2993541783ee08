// The GPU runner in the page (docs/ARCHITECTURE.md, "The web build"): WebGL2 is OpenGL ES 3.0,
// which has no compute shaders, so the runner is never available() and says why; the GPU lab
// then shows the CPU side, as on a desktop without GL 4.3. gpu_runner.cpp holds everything that
// needs no GL 4.3 (row splits, norm names, the reset messages' wording) for both builds.
#include "gpu_runner.hpp"

#include <stdexcept>

namespace normlab::ui {

namespace {
constexpr const char* kNoCompute =
    "WebGL2 has no compute shaders: the GPU kernels run only in the desktop app (OpenGL 4.3); "
    "the page shows the CPU side";
}  // namespace

GLuint build_compute_program(const std::string& name, const char*, const std::string&, std::string& error) {
    error = name + ": " + kNoCompute;
    return 0;
}

GpuRunner::GpuRunner(const GpuShaderSources&, const GpuRunnerOptions&) {
    if (const GLubyte* r = glGetString(GL_RENDERER)) renderer_ = reinterpret_cast<const char*>(r);
    timing_ = TimingMethod::GlFinishCpuClock;
    error_ = kNoCompute;
}

GpuRunner::~GpuRunner() = default;

void GpuRunner::require_available() const { throw std::invalid_argument(std::string("the GPU runner is off: ") + error_); }

GpuForward GpuRunner::forward(GpuNorm, int, int, const std::vector<float>&, const std::vector<float>&,
                              const std::vector<float>&, float, double) {
    require_available();
    return {};
}

GpuBackward GpuRunner::backward(GpuNorm, int, int, const std::vector<float>&, const std::vector<float>&,
                                const std::vector<float>&, const std::vector<float>&, const std::vector<float>&,
                                double) {
    require_available();
    return {};
}

std::vector<float> GpuRunner::copy(const std::vector<float>&) {
    require_available();
    return {};
}

std::string GpuRunner::prepare(int, int, double, float) { return error_; }

void GpuRunner::dispatch(BenchKernel) { require_available(); }

std::vector<double> GpuRunner::time_runs_with_finish(BenchKernel, int) {
    require_available();
    return {};
}

void GpuRunner::release_buffers() {}

// WebGL2 has no GL_TIME_ELAPSED queries; the runner is never available, so no sweep makes a ring.
TimerRing::TimerRing(int) { throw std::logic_error(std::string("TimerRing: ") + kNoCompute); }
TimerRing::~TimerRing() = default;
void TimerRing::begin(int) {}
void TimerRing::end() {}
std::vector<std::pair<int, double>> TimerRing::collect(bool) { return {}; }

// A lost WebGL context is the browser's to restore; glGetGraphicsResetStatus is not in WebGL2.
std::string describe_graphics_reset(GLenum status) {
    return status == GL_NO_ERROR ? std::string() : std::string("the WebGL context is lost");
}

bool ContextWatch::check() { return false; }

}  // namespace normlab::ui
