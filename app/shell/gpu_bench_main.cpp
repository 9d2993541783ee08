// `normlab --bench-gpu`: the GPU lab's sweep for scripts, without the UI (declared in gpu_lab.hpp).
//
// [SECTION] Command line
// [SECTION] A GL 4.3 context: a hidden GLFW window, or EGL with no display at all
// [SECTION] gpu_bench_main
//
// Where the context comes from decides which GPU is measured. Under Xvfb, GLX is always Mesa's
// software renderer (llvmpipe), even on a machine with a GPU; --egl asks EGL for a device directly
// (EGL_EXT_platform_device: the first one that is not Mesa's software device; else Mesa's
// surfaceless platform), needs no X server, and so measures the real GPU on a headless machine.
// The JSON's "renderer" says which one ran.
#include "app_window.hpp"   // glfw_error
#include "gpu_lab.hpp"
#include "headless_gl.hpp"
#include "ui_util.hpp"
#include "gpu_sweep.hpp"

#include <epoxy/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace normlab::ui {

namespace {

// [SECTION] Command line --------------------------------------------------------------------

constexpr int kMaxBenchSize = 1 << 20;

struct BenchArgs {
    GpuBenchOptions bench;
    bool egl = false;   // --egl: a headless EGL context instead of a hidden window
};

// "256,1024,4096" → sizes; false when an entry is not a whole number in [1, 2²⁰].
bool parse_sizes(const char* text, std::vector<int>& out) {
    out.clear();
    const char* p = text;
    while (true) {
        char* end = nullptr;
        const long v = std::strtol(p, &end, 10);
        if (end == p || v < 1 || v > kMaxBenchSize) return false;
        out.push_back(static_cast<int>(v));
        if (*end == '\0') return true;
        if (*end != ',') return false;
        p = end + 1;
    }
}

// Returns -1 when the options are good, else the exit code (2).
int parse_bench_args(int argc, char** argv, BenchArgs& args) {
    GpuBenchOptions& opt = args.bench;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool has_value = i + 1 < argc;
        if (arg == "--bench-gpu") continue;
        if (arg == "--json") {
            opt.json = true;
        } else if (arg == "--cpu") {
            opt.cpu = true;
        } else if (arg == "--egl") {
            args.egl = true;
        } else if ((arg == "--rows" || arg == "--cols") && has_value) {
            if (!parse_sizes(argv[++i], arg == "--rows" ? opt.rows : opt.cols)) {
                std::fprintf(stderr, "normlab: %s needs whole numbers from 1 to %d separated by commas, got '%s'\n",
                             arg.c_str(), kMaxBenchSize, argv[i]);
                return 2;
            }
        } else if (arg == "--reps" && has_value) {
            char* end = nullptr;
            const long v = std::strtol(argv[++i], &end, 10);
            if (end == argv[i] || *end != '\0' || v < 1 || v > 1000) {
                std::fprintf(stderr, "normlab: --reps needs a whole number from 1 to 1000, got '%s'\n", argv[i]);
                return 2;
            }
            opt.reps = static_cast<int>(v);
        } else if (arg == "--timing" && has_value) {
            const std::string method = argv[++i];
            if (method == to_string(TimingMethod::GlTimeElapsed)) {
                opt.timing = TimingMethod::GlTimeElapsed;
            } else if (method == to_string(TimingMethod::GlFinishCpuClock)) {
                opt.timing = TimingMethod::GlFinishCpuClock;
            } else {
                std::fprintf(stderr, "normlab: --timing is gl_time_elapsed or glfinish_cpu_clock, got '%s'\n",
                             argv[i]);
                return 2;
            }
        } else {
            std::fprintf(stderr,
                         "normlab: --bench-gpu takes --json, --cpu, --egl, --rows R,…, --cols C,…, --reps N and "
                         "--timing M; got '%s'\n",
                         arg.c_str());
            return 2;
        }
    }
    return -1;
}

// [SECTION] A GL 4.3 context ----------------------------------------------------------------

// Runs `body` with a hidden GLFW window's GL 4.3 core context current; returns its exit code,
// or 1 with one line on stderr when there is no display or no GL 4.3.
template <class Body>
int with_glfw_context(Body body) {
    if (glfwInit() != GLFW_TRUE) {
        std::fprintf(stderr,
                     "normlab: no display to open a window on (%s); run it in a virtual one (xvfb-run -a normlab "
                     "--bench-gpu --json: Mesa's software renderer) or without one (normlab --bench-gpu --egl --json)\n",
                     glfw_error().c_str());
        return 1;
    }
    glfwDefaultWindowHints();
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
    GLFWwindow* window = glfwCreateWindow(64, 64, "NormLab GPU bench", nullptr, nullptr);
    if (window == nullptr) {
        std::fprintf(stderr, "normlab: --bench-gpu needs an OpenGL 4.3 core context (compute shaders): %s\n",
                     glfw_error().c_str());
        glfwTerminate();
        return 1;
    }
    glfwMakeContextCurrent(window);
    const int code = body();
    glfwDestroyWindow(window);
    glfwTerminate();
    return code;
}

// Runs `body` with a headless EGL GL 4.3 core context current (no surface; a GPU device when EGL
// lists one, else Mesa's software one); returns its exit code, or 1 with one line on stderr when
// EGL cannot give one.
template <class Body>
int with_egl_context(Body body) {
    std::string why;
    const std::unique_ptr<ui::EglContext> gl = ui::EglContext::create(4, 3, ui::EglPlatform::PreferDevice, why);
    if (!gl) {
        std::fprintf(stderr, "normlab: --bench-gpu --egl: no OpenGL 4.3 core context without a surface: %s\n", why.c_str());
        return 1;
    }
    return body();
}

}  // namespace

// [SECTION] gpu_bench_main ------------------------------------------------------------------

bool wants_gpu_bench(int argc, char** argv) {
    for (int i = 1; i < argc; ++i)
        if (std::string(argv[i]) == "--bench-gpu") return true;
    return false;
}

int gpu_bench_main(int argc, char** argv) {
    BenchArgs args;
    if (const int code = parse_bench_args(argc, argv, args); code >= 0) return code;
    const auto bench = [&] { return run_gpu_bench(args.bench); };
    return args.egl ? with_egl_context(bench) : with_glfw_context(bench);
}

}  // namespace normlab::ui
