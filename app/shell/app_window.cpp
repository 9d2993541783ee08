// normlab: the window and its GL context, its size and scale, the look and one frame's UI.
#include "app_window.hpp"

#include "labs.hpp"
#include "lecture.hpp"
#include "main_menu.hpp"
#include "session_io.hpp"
#include "slide.hpp"
#include "ui_util.hpp"

#include <normlab/base/file_io.hpp>

#include "gl.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>

namespace normlab::ui {

GLFWwindow* create_window(const WindowSize& size, bool visible) {
    for (const auto& [major, minor] : {std::pair{4, 3}, std::pair{3, 3}}) {
        for (const bool robust : {true, false}) {
            glfwDefaultWindowHints();
            glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, major);
            glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, minor);
            glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
            glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
            glfwWindowHint(GLFW_VISIBLE, visible ? GLFW_TRUE : GLFW_FALSE);
            glfwWindowHint(GLFW_MAXIMIZED, size.maximized ? GLFW_TRUE : GLFW_FALSE);
            if (robust) glfwWindowHint(GLFW_CONTEXT_ROBUSTNESS, GLFW_LOSE_CONTEXT_ON_RESET);
            if (GLFWwindow* window = glfwCreateWindow(size.width, size.height, "NormLab", nullptr, nullptr)) return window;
        }
    }
    return nullptr;
}

// The size last closed at: "W H" in this file (interactive runs only).
std::string window_size_file() {
    const std::string autosave = ui::default_autosave_file();
    return autosave.empty() ? "" : (std::filesystem::path(autosave).parent_path() / "window-size.txt").string();
}

namespace {
constexpr int kFallbackWidth = 1600, kFallbackHeight = 1000;
}  // namespace

WindowSize initial_window_size(const Options& opt) {
    if (opt.width > 0) return {opt.width, opt.height, false};
    int x = 0, y = 0, w = 0, h = 0;
#ifndef __EMSCRIPTEN__   // the page is sized by its browser window (web_page.hpp)
    if (GLFWmonitor* monitor = glfwGetPrimaryMonitor()) glfwGetMonitorWorkarea(monitor, &x, &y, &w, &h);
#endif
    WindowSize size{w > 0 ? w : kFallbackWidth, h > 0 ? h : kFallbackHeight, true};
    const bool scripted = opt.frames > 0 || !opt.export_plot.empty() || opt.check_layout;
    std::ifstream in(scripted ? std::string() : window_size_file());
    int saved_w = 0, saved_h = 0;
    if (in >> saved_w >> saved_h && saved_w >= 200 && saved_h >= 200)
        size = {std::min(saved_w, size.width), std::min(saved_h, size.height), false};
    return size;
}

// Keeps the window's size for the next start (not when full screen; failures are ignored: the
// next start just opens at the default).
void save_window_size(GLFWwindow* window, const ui::LectureUi& lecture) {
    const std::string path = window_size_file();
    if (path.empty() || lecture.fullscreen) return;
    int w = 0, h = 0;
    glfwGetWindowSize(window, &w, &h);
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp);
        out << w << ' ' << h << '\n';
        if (!out) return;
    }
    std::filesystem::rename(tmp, path, ec);
}

// The UI's scale: --scale-ui, else the window's content scale (GLFW: the monitor's DPI setting,
// 1 under Xvfb), so that text and plots are drawn, not stretched, at the monitor's scale.
float ui_scale(GLFWwindow* window, const Options& opt) {
    if (opt.scale_ui > 0.0f) return opt.scale_ui;
    float x = 1.0f, y = 1.0f;
#ifndef __EMSCRIPTEN__   // emscripten's GLFW draws at CSS pixels
    glfwGetWindowContentScale(window, &x, &y);
#endif
    return std::clamp(std::max(x, y), 1.0f, 4.0f);
}

ui::AppInfo query_gl(const ui::Fonts& fonts) {
    ui::AppInfo info;
    const int version = ui::gl_version();   // e.g. 45 for 4.5
    info.gl_version = std::to_string(version / 10) + "." + std::to_string(version % 10);
    info.renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    info.has_gl43 = version >= 43;
    info.font_warning = fonts.warning;
    return info;
}

// "normlab-20250101-093000.png" in the current folder; "…-093000-2.png" when that one exists.
std::string timestamped_png_name() {
    const std::time_t now = std::time(nullptr);
    char buf[64];
    std::strftime(buf, sizeof buf, "normlab-%Y%m%d-%H%M%S.png", std::localtime(&now));
    return unused_file_name(buf);
}

void update_look(Look& look, ui::Fonts& fonts, const ui::AppUi& ui, float scale) {
    const int px = static_cast<int>(std::lround(static_cast<float>(ui.font_px) * scale));
    if (px != fonts.px || fonts.stale) {   // a new size, or new characters to draw (font_atlas.hpp)
        load_fonts(fonts, px);
        ImGui_ImplOpenGL3_DestroyFontsTexture();
        ImGui_ImplOpenGL3_CreateFontsTexture();
    }
    if (px != look.px || ui.dark != look.dark || ui.projector != look.projector) {
        ui::apply_theme(ui.dark, ui.projector, px);
        look = {px, ui.dark, ui.projector};
    }
}

void draw_ui(ui::AppContext& ctx) {
    ui::watch_gl_context(ctx.gpu);   // a lost context (GPU reset): said once, GPU work off
    ui::handle_session_keys(ctx);
    ui::handle_lecture_keys(ctx);
    ui::draw_main_menu(ctx);
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    if (ctx.app.presenter && ctx.lecture != nullptr)
        ui::draw_slide(ctx, viewport->WorkPos, viewport->WorkSize, ctx.lecture->boxes);
    else
        ui::draw_labs(ctx, ctx.uis, viewport->WorkPos, viewport->WorkSize);
    ui::draw_popups(ctx);
    ui::draw_pointer(ctx);
    ui::track_session(ctx, glfwGetTime());
}

std::string glfw_error() {
    const char* description = nullptr;
#ifndef __EMSCRIPTEN__   // emscripten's GLFW (3.2's API) has no glfwGetError
    glfwGetError(&description);
#endif
    return description != nullptr ? description : "no details";
}

}  // namespace normlab::ui
