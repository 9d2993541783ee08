// OpenGL without a window or an X server, through EGL (see docs/ARCHITECTURE.md):
//   EglContext — a GL core context current on this thread with no surface, on a GPU device when
//                asked and EGL lists one (EGL_EXT_platform_device), else on Mesa's surfaceless
//                platform (EGL_MESA_platform_surfaceless; llvmpipe where there is no GPU).
//                `normlab --bench-gpu --egl` times the kernels in one.
//   HeadlessGl — an EglContext on the surfaceless platform plus an ImGui context with ImGui's
//                OpenGL3 backend, so that save_plot_png() (plot_export.hpp) renders a figure with
//                the very code, fonts and rasteriser the app uses: `normlab-cli export` writes
//                PNGs on a build machine or CI job that has no display.
#pragma once

#include <memory>
#include <string>

namespace normlab::ui {

enum class EglPlatform { Surfaceless, PreferDevice };

class EglContext {
public:
    // A GL `major`.`minor` core context, current; nullptr with `error` saying why there is none.
    static std::unique_ptr<EglContext> create(int major, int minor, EglPlatform platform, std::string& error);
    ~EglContext();
    EglContext(const EglContext&) = delete;
    EglContext& operator=(const EglContext&) = delete;

private:
    EglContext() = default;
    void* display_ = nullptr;   // EGLDisplay
    void* context_ = nullptr;   // EGLContext
};

class HeadlessGl {
public:
    // The context (GL 3.3 core, surfaceless), current, with ImGui's renderer started; or nullptr
    // with `error` saying why.
    static std::unique_ptr<HeadlessGl> create(std::string& error);
    ~HeadlessGl();
    HeadlessGl(const HeadlessGl&) = delete;
    HeadlessGl& operator=(const HeadlessGl&) = delete;

private:
    HeadlessGl() = default;
    std::unique_ptr<EglContext> gl_;
    bool imgui_ = false;   // ImGui context made
};

}  // namespace normlab::ui
