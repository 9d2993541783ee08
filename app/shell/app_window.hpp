// normlab: the window and its GL context, its size and scale, the look (fonts, theme) and one
// frame's UI.
#pragma once

#include "app_options.hpp"
#include "shell_state.hpp"
#include "theme_fonts.hpp"

#include <string>

struct GLFWwindow;

namespace normlab::ui {

// A core-profile window: GL 4.3 (the GPU lab's compute shaders), else 3.3 (all but the GPU lab);
// each asked for with reset notification first (so that a lost context is noticed: ContextWatch
// in gpu_runner.hpp), then without, for drivers that refuse it.
struct WindowSize {
    int width = 0, height = 0;
    bool maximized = false;   // asked of the window manager too (the work area leaves out its title bar)
};
GLFWwindow* create_window(const WindowSize& size, bool visible);

// The window's size: --size as given; else the size last closed at; else (a first start, and every
// scripted run) the primary monitor's whole work area (the screen less panels and docks; 1600 ×
// 1000 where GLFW cannot tell), maximised. A saved size is shrunk to the work area, so that it
// never runs off a projector's 1024 × 768 or a laptop's 1366 × 768.
WindowSize initial_window_size(const Options& opt);

// Keeps the window's size for the next start (not when full screen; failures are ignored: the
// next start just opens at the default).
void save_window_size(GLFWwindow* window, const LectureUi& lecture);

// The UI's scale: --scale-ui, else the window's content scale (GLFW: the monitor's DPI setting,
// 1 under Xvfb), so that text and plots are drawn, not stretched, at the monitor's scale.
float ui_scale(GLFWwindow* window, const Options& opt);

// The GL version and renderer, and the fonts' warning, for Help ▸ About.
AppInfo query_gl(const Fonts& fonts);

// "normlab-20250101-093000.png" in the current folder; "…-093000-2.png" when that one exists.
std::string timestamped_png_name();

// Fonts and theme as they were last built: rebuilt between frames when the text size, the UI
// scale (--scale-ui, or the monitor's content scale, which changes when the window moves to
// another monitor) or the theme changes.
struct Look {
    int px = 0;
    bool dark = false, projector = false;
};

void update_look(Look& look, Fonts& fonts, const AppUi& ui, float scale);

// One frame's UI, between ImGui::NewFrame() and ImGui::Render().
void draw_ui(AppContext& ctx);

// GLFW's description of its last error, "no details" when it gave none (for one-line messages).
std::string glfw_error();

}  // namespace normlab::ui
