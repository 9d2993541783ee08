// A test driver for the plot widget and its offscreen export, independent of the labs:
//   plot_demo --export NAME --scale K --out FILE.png   one demo plot, offscreen at K× (hidden window)
//   plot_demo --screenshot FILE.png [--dark]           the demo plots on screen through draw_plot()
//   plot_demo --interact                               scripted mouse gestures on one plot, checked
//   plot_demo --export-all DIR                         every demo plot as PNG 2× + SVG into DIR
// The demo plots are hard-coded data (no core maths): "demo_gradients" (log-log lines with
// markers, dashes, a reference line and an annotation), "demo_bars" (two bar series) and
// "demo_curves" (dense linear curves). Exit 0 on success, 1 on failure, 2 on bad usage.
#include "plot_export.hpp"
#include "plot_view.hpp"
#include "screenshot.hpp"
#include "theme_fonts.hpp"

#include <normlab/plot/plot.hpp>

#include <epoxy/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace {

using namespace normlab;

std::vector<Plot> demo_plots() {
    std::vector<Plot> plots;

    Plot g;
    g.name = "demo_gradients";
    g.title = "Gradient norms under weight re-scaling W' = δW";
    g.x = {"δ", Scale::Log10, {}, {}};
    g.y = {"‖∂L/∂·‖", Scale::Log10, {}, {}};
    std::vector<double> d, dw, dg, dx;
    for (int i = 0; i <= 40; ++i) {
        const double delta = std::pow(10.0, -2.0 + 0.1 * i);
        d.push_back(delta);
        dw.push_back(0.9 / delta);
        dg.push_back(0.35);
        dx.push_back(2.0);
    }
    g.series.push_back(palette_series(0, "‖∂L/∂W‖ (RMSNorm)", d, dw));
    g.series.push_back(palette_series(1, "‖∂L/∂g‖ (RMSNorm)", d, dg));
    g.series.push_back(palette_series(2, "‖∂L/∂x‖ (RMSNorm)", d, dx));
    g.annotations.push_back({0.1, 9.0, "slope −1.00"});
    g.ref_lines.push_back({RefLine::Orientation::Vertical, 1.0, "δ = 1", {90, 90, 90}, LineStyle::Dashed, 1.25});
    plots.push_back(g);

    Plot b;
    b.name = "demo_bars";
    b.title = "Outputs for x = [2, 4, 6, 8]";
    b.x = {"index i", Scale::Linear, {}, {}};
    b.y = {"yᵢ", Scale::Linear, {}, {}};
    b.series.push_back(palette_series(0, "LayerNorm", {1, 2, 3, 4}, {-1.342, -0.447, 0.447, 1.342}, SeriesKind::Bars));
    b.series.push_back(palette_series(1, "RMSNorm", {1, 2, 3, 4}, {0.365, 0.730, 1.095, 1.461}, SeriesKind::Bars));
    b.ref_lines.push_back({RefLine::Orientation::Horizontal, 1.0, "RMS = 1", {90, 90, 90}, LineStyle::Dotted, 1.25});
    plots.push_back(b);

    Plot c;
    c.name = "demo_curves";
    c.title = "Training loss";
    c.x = {"step", Scale::Linear, {}, {}};
    c.y = {"loss", Scale::Linear, {}, {}};
    std::vector<double> step, ln, rms;
    for (int i = 0; i < 2000; ++i) {
        step.push_back(i);
        ln.push_back(0.1 + 0.6 * std::exp(-i / 300.0) + 0.02 * std::sin(i * 0.37));
        rms.push_back(0.1 + 0.6 * std::exp(-i / 240.0) + 0.02 * std::cos(i * 0.29));
    }
    c.series.push_back(palette_series(0, "LayerNorm", step, ln));
    c.series.push_back(palette_series(1, "RMSNorm", step, rms));
    c.series[1].line = LineStyle::Solid;
    plots.push_back(c);
    return plots;
}

int usage() {
    std::fprintf(stderr, "usage: plot_demo --export NAME --scale K --out FILE.png | --screenshot FILE.png [--dark]"
                         " | --interact | --export-all DIR\n");
    return 2;
}

// The mouse of one scripted frame (nullopt: no mouse, as in a scripted screenshot).
struct Mouse {
    ImVec2 pos;
    bool left = false, right = false, ctrl = false;
    float wheel = 0.0f;
};

// One frame: `draw` fills a window covering the display; returns the framebuffer size.
template <class Draw>
ImVec2 frame(GLFWwindow* window, const std::optional<Mouse>& mouse, Draw draw) {
    glfwPollEvents();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = mouse ? mouse->pos : ImVec2(-FLT_MAX, -FLT_MAX);
    io.MouseDown[0] = mouse && mouse->left;
    io.MouseDown[1] = mouse && mouse->right;
    io.KeyCtrl = mouse && mouse->ctrl;
    io.MouseWheel = mouse ? mouse->wheel : 0.0f;
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(io.DisplaySize);
    ImGui::Begin("plots", nullptr, ImGuiWindowFlags_NoDecoration);
    draw();
    ImGui::End();
    ImGui::Render();
    int w = 0, h = 0;
    glfwGetFramebufferSize(window, &w, &h);
    glViewport(0, 0, w, h);
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    glClearColor(bg.x, bg.y, bg.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    return ImVec2(static_cast<float>(w), static_cast<float>(h));
}

int export_png(const std::string& name, int scale, const std::string& out) {
    for (const Plot& p : demo_plots()) {
        if (p.name != name) continue;
        const std::string error = ui::save_plot_png(p, ui::kDefaultFigureWidth, ui::kDefaultFigureHeight, scale, out, IfExists::Replace);
        if (error.empty()) return 0;
        std::fprintf(stderr, "plot_demo: %s\n", error.c_str());
        return 1;
    }
    std::fprintf(stderr, "plot_demo: unknown plot '%s'\n", name.c_str());
    return 2;
}

int export_all(const std::string& dir) {
    const std::string summary = ui::export_figures(demo_plots(), dir, 2);
    std::printf("%s\n", summary.c_str());
    return summary.rfind("Saved ", 0) == 0 ? 0 : 1;
}

// Three frames of the demo plots in a 2×2 grid (one with a message, one with a hidden
// series), then a capture of the window. The last frame also saves a PNG in its middle (as the
// context menu does), so the capture shows that the export left the frame intact.
int screenshot(GLFWwindow* window, const std::string& out, bool dark) {
    ui::Fonts fonts;
    ui::load_fonts(fonts, ui::kDefaultFontPx);
    ui::apply_theme(dark, ui::kDefaultFontPx);
    const std::vector<Plot> plots = demo_plots();
    std::vector<ui::PlotView> views(plots.size());
    views[1].message = "Saved /tmp/demo_bars.png (1440 × 900 px)";
    views[2].hidden = {"RMSNorm"};
    bool export_now = false;
    std::string export_error;
    const auto draw = [&] {
        const ImVec2 avail = ImGui::GetContentRegionAvail();
        const ImVec2 cell(0.5f * avail.x - 6.0f, 0.5f * avail.y - 6.0f);
        for (std::size_t i = 0; i < plots.size(); ++i) {
            if (i % 2 == 1) ImGui::SameLine();
            ImGui::BeginChild(static_cast<int>(i) + 1, cell);
            ui::draw_plot(views[i], plots[i], fonts);
            ImGui::EndChild();
            if (i == 0 && export_now) export_error = ui::save_plot_png(plots[0], 600, 400, 3, out + ".mid-frame.png", IfExists::Replace);
        }
    };
    for (int i = 1; i <= 3; ++i) {
        export_now = i == 3;
        const ImVec2 fb = frame(window, std::nullopt, draw);
        if (!export_error.empty()) {
            std::fprintf(stderr, "plot_demo: export in the middle of a frame: %s\n", export_error.c_str());
            return 1;
        }
        if (i == 3) {
            const std::string error = ui::save_back_buffer_png(out, static_cast<int>(fb.x), static_cast<int>(fb.y), IfExists::Replace);
            if (!error.empty()) {
                std::fprintf(stderr, "plot_demo: %s\n", error.c_str());
                return 1;
            }
        }
        glfwSwapBuffers(window);
    }
    return 0;
}

// Scripted gestures on "demo_curves" filling the window; each step's effect on the PlotView
// is checked. The figure's centre lies inside the data area.
int interact(GLFWwindow* window) {
    ui::Fonts fonts;
    ui::load_fonts(fonts, ui::kDefaultFontPx);
    ui::apply_theme(false, ui::kDefaultFontPx);
    const Plot plot = demo_plots()[2];
    ui::PlotView view;
    ImVec2 centre(0, 0);
    bool menu_open = false;
    const auto draw = [&] {
        const ImVec2 at = ImGui::GetCursorScreenPos(), avail = ImGui::GetContentRegionAvail();
        centre = ImVec2(at.x + 0.5f * avail.x, at.y + 0.5f * avail.y);
        ui::draw_plot(view, plot, fonts);
        ImGui::PushID(&view);
        menu_open = ImGui::IsPopupOpen("plot menu");
        ImGui::PopID();
    };
    const auto run = [&](std::vector<Mouse> frames) {
        for (const Mouse& m : frames) frame(window, m, draw);
        frame(window, Mouse{ImVec2(5, 5)}, draw);   // settle, mouse away from the figure
    };
    bool ok = true;
    const auto check = [&ok](bool pass, const char* what) {
        std::printf("%s: %s\n", pass ? "ok  " : "FAIL", what);
        ok = ok && pass;
    };
    const auto width = [](const std::optional<normlab::AxisRange>& r) { return r ? r->hi - r->lo : 0.0; };

    run({Mouse{centre}});   // lay out once so that `centre` is known
    run({Mouse{centre, false, false, false, 1.0f}});
    const double w1 = width(view.range.x);
    run({Mouse{centre, false, false, false, 1.0f}});
    check(view.range.x && view.range.y && std::fabs(width(view.range.x) / w1 - 0.85) < 1e-9,
          "a wheel notch up zooms both axes in by 0.85 about the cursor");
    run({Mouse{centre, true}, Mouse{centre}, Mouse{centre, true}, Mouse{centre}});
    check(!view.range.x && !view.range.y, "a double-click resets to the automatic range");

    const ImVec2 left(centre.x - 120.0f, centre.y);
    run({Mouse{centre, true}, Mouse{ImVec2(centre.x - 40.0f, centre.y), true}, Mouse{left, true}, Mouse{left}});
    const double lo_after_pan = view.range.x ? view.range.x->lo : 0.0;
    check(view.range.x && !view.range.y && lo_after_pan > 0.0, "dragging left pans x to later steps, y untouched");
    run({Mouse{centre, true}, Mouse{centre}, Mouse{centre, true}, Mouse{centre}});

    const ImVec2 a(centre.x - 60.0f, centre.y - 40.0f), b(centre.x + 60.0f, centre.y + 40.0f);
    run({Mouse{a, false, true}, Mouse{centre, false, true}, Mouse{b, false, true}, Mouse{b}});
    const double wx = width(view.range.x);
    check(view.range.x && view.range.y && wx > 0.0 && wx < 1000.0, "a right-drag box zooms into the box");
    run({Mouse{a, true, false, true}, Mouse{b, true, false, true}, Mouse{b, false, false, true}});
    check(width(view.range.x) < wx, "a Ctrl+drag box zooms further");

    // The legend sits in the top-right corner: click down the figure's right side until a
    // click hides a series, then click the same place again to show it.
    const ImVec2 corner(2.0f * centre.x - 70.0f, 0.0f);
    std::optional<ImVec2> entry;
    for (float y = 0.0f; y < centre.y && !entry; y += 8.0f) {
        const ImVec2 p(corner.x, y);
        run({Mouse{p, true}, Mouse{p}});
        if (!view.hidden.empty()) entry = p;
    }
    check(entry && view.hidden == std::vector<std::string>{"LayerNorm"}, "a click on a legend entry hides its series");
    if (entry) run({Mouse{*entry, true}, Mouse{*entry}});
    check(view.hidden.empty(), "a second click shows it again");

    frame(window, Mouse{centre, false, true}, draw);
    frame(window, Mouse{centre}, draw);
    frame(window, Mouse{centre}, draw);
    check(menu_open, "a right-click without dragging opens the context menu");
    return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    std::string export_name, out, shot, all_dir;
    int scale = 1;
    bool dark = false, scripted = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool has_value = i + 1 < argc;
        if (arg == "--export" && has_value) export_name = argv[++i];
        else if (arg == "--scale" && has_value) scale = std::atoi(argv[++i]);
        else if (arg == "--out" && has_value) out = argv[++i];
        else if (arg == "--screenshot" && has_value) shot = argv[++i];
        else if (arg == "--dark") dark = true;
        else if (arg == "--interact") scripted = true;
        else if (arg == "--export-all" && has_value) all_dir = argv[++i];
        else return usage();
    }
    if (int(!export_name.empty()) + int(!shot.empty()) + int(scripted) + int(!all_dir.empty()) != 1 ||
        (!export_name.empty() && out.empty()))
        return usage();

    if (glfwInit() != GLFW_TRUE) {
        std::fprintf(stderr, "plot_demo: no display (run it under xvfb-run)\n");
        return 1;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_VISIBLE, export_name.empty() && all_dir.empty() ? GLFW_TRUE : GLFW_FALSE);
    GLFWwindow* window = glfwCreateWindow(1600, 1000, "plot_demo", nullptr, nullptr);
    if (window == nullptr) {
        std::fprintf(stderr, "plot_demo: cannot create an OpenGL 3.3 window\n");
        glfwTerminate();
        return 1;
    }
    glfwMakeContextCurrent(window);
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    ImGui_ImplOpenGL3_Init("#version 330 core");

    const int code = !export_name.empty() ? export_png(export_name, scale, out)
                     : !all_dir.empty()   ? export_all(all_dir)
                     : scripted           ? interact(window)
                                          : screenshot(window, shot, dark);

    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(window);
    glfwTerminate();
    return code;
}
