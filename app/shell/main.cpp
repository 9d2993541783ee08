// normlab: the desktop app. Parses the command line, opens the window, runs the frame loop.
//
// [SECTION] Command line
// [SECTION] Window and GL context
// [SECTION] Frame loop
// [SECTION] Layout check
// [SECTION] Run
// [SECTION] main
#include "control_probe.hpp"
#include "frame_pacer.hpp"
#include "input_queue.hpp"
#include "labs.hpp"
#include "layout_check.hpp"
#include "lecture.hpp"
#include "main_menu.hpp"
#include "plot_export.hpp"
#include "quit_signals.hpp"
#include "screenshot.hpp"
#include "session_io.hpp"
#include "slide.hpp"
#include "theme_fonts.hpp"
#include "ui_util.hpp"
#include "web_page.hpp"

#include <normlab/base/file_io.hpp>
#include <normlab/base/latest_box.hpp>
#include <normlab/base/stats.hpp>
#include <normlab/norm/eval.hpp>
#include <normlab/scene/scene.hpp>
#include <normlab/scene/scene_plots.hpp>
#include <normlab/scene/session.hpp>

#include "gl.hpp"
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace {

using namespace normlab;

constexpr int kWindowWidth = 1600, kWindowHeight = 1000;
constexpr int kDefaultScreenshotFrames = 5;

using Clock = std::chrono::steady_clock;
const Clock::time_point g_process_start = Clock::now();   // --frame-stats: time to first frame

// [SECTION] Command line --------------------------------------------------------------------

constexpr const char* kUsage =
    "Usage: normlab [--lab NAME] [--screenshot OUT.png] [--frames N]\n"
    "       normlab --export-plot NAME [--scale K] --out FILE.png\n"
    "       normlab --bench-gpu [--json] [--cpu] [--egl] [--rows R,...] [--cols C,...] [--reps N] [--timing M]\n"
    "       normlab --frames N --frame-stats [--lab NAME | --all-labs]\n"
    "       normlab --check-layout [--size WxH] [--scale-ui K] [--lab NAME | --all-labs | --lecture FILE]\n"
    "               [--presenter] [--theme T] [--json]\n"
    "       normlab [--scene FILE | --lecture FILE [--slide N]] [--presenter] [--fullscreen]\n"
    "               [--theme light|dark|projector] [--font-scale P] [--size WxH] [--scale-ui K]\n"
    "NormLab: a desktop lab for LayerNorm vs RMSNorm (Zhang & Sennrich, NeurIPS 2019).\n"
    "\n"
    "  --lab NAME            start on this lab (%s)\n"
    "  --scene FILE          open this scene (every lab's state; assets/scenes/ has some) instead\n"
    "                        of the last session; a bad file: one line on stderr, exit 2\n"
    "  --lecture FILE        open this lecture (assets/lectures/): ← / → step through its scenes\n"
    "  --slide N             with --lecture: start on slide N (1-based)\n"
    "  --presenter           presenter view (F5): the slide's title, its caption (at least 24 px)\n"
    "                        and one or two figures as large as the window allows, side by side or\n"
    "                        stacked, with only the controls the lecture file names (none without\n"
    "                        a lecture); F5 or Esc: editing view, every control\n"
    "  --fullscreen          full screen (F11)\n"
    "  --theme T             light (default), dark or projector (black on white, thick lines,\n"
    "                        text at 150 %% unless --font-scale says otherwise)\n"
    "  --font-scale P        text size in percent of the default, 80 to 250\n"
    "  --size WxH            the window's size in screen pixels (default: 1600x1000, or the size it\n"
    "                        had when last closed, shrunk to fit the screen's work area); laid out\n"
    "                        for 1024x768 up: narrower than 60 text heights, the labs start with\n"
    "                        their control panels folded (F9 shows them) and scroll rather than crush\n"
    "  --scale-ui K          draw text, spacing and plots K times larger, K = 1 to 4 (default: the\n"
    "                        monitor's content scale, e.g. 2 on a 2560x1440 laptop set to 200 %%)\n"
    "  --autosave FILE       keep the session in FILE: restored at start, saved every few seconds\n"
    "                        and on exit (default ~/.local/share/normlab/autosave.json; runs with\n"
    "                        --frames or --export-plot use none unless this names one)\n"
    "  --dump-session        print the scene (session JSON) on stdout before exiting\n"
    "  --text-log FILE       write the texts of the latest frame to FILE, one per line, whenever\n"
    "                        they change (for tests that drive the window and read what it says)\n"
    "  --pointer X,Y         draw the pointer highlight (F6) at window pixel X,Y (scripted runs)\n"
    "  --screenshot OUT.png  save the whole window as PNG after the last frame, then exit 0\n"
    "  --frames N            render N frames, then exit (with --screenshot: default 5)\n"
    "  --frame-stats         with --frames N: print the frame times (p50, p95, max, in ms) and the\n"
    "                        time to the first frame as JSON; the labs run as they do for a user\n"
    "  --check-figures       with --frames N: list the figures the lab on screen offered for export\n"
    "                        (right-click) that `normlab-cli export --list` lacks (exit 1 if any),\n"
    "                        and the lab's listed figures that were not on screen\n"
    "  --all-labs            with --frame-stats: N frames of each lab in turn, each lab's times;\n"
    "                        with --check-layout: check every lab\n"
    "  --check-layout        lay out the lab (--lab, --all-labs, or every slide of --lecture) in a\n"
    "                        hidden window and report each pair of overlapping texts and each text\n"
    "                        clipped by its container or the window, and each slider grab over a\n"
    "                        text; exit 0 when there is none, 1 otherwise (--json: {\"overlaps\":\n"
    "                        [...], \"clipped\": [...]} on stdout)\n"
    "  --probe-controls      after N frames (--frames, default 5), hover the window every 24 px and\n"
    "                        click each widget outside the controls the slide names; print what was\n"
    "                        found as JSON, exit 1 if a click edited anything (an unnamed control)\n"
    "  --frame-delay MS      wait MS milliseconds (1 to 5000) after each frame: a slow classroom PC,\n"
    "                        for testing that no key press or click is lost\n"
    "  --loop-stats          on exit, print on stderr as JSON how many frames were drawn in each\n"
    "                        second of the run and how often the loop slept waiting for events\n"
    "  --export-plot NAME    save that figure of a lab as PNG (720 × 450 px at 1×), rendered\n"
    "                        offscreen in a hidden window, then exit 0\n"
    "  --scale K             with --export-plot: K× the pixels, K = 1 to 4 (default 1)\n"
    "  --out FILE.png        with --export-plot: where to write it (a file already there is kept:\n"
    "                        exit 2, unless --replace)\n"
    "  --replace             with --export-plot: replace the --out file when it exists\n"
    "  --bench-gpu           time the GPU lab's kernels in a hidden window and print the sweep\n"
    "                        (--json: as JSON; --rows/--cols: sizes, e.g. 1024,4096; --reps: timed\n"
    "                        runs; --cpu: core's CPU kernels too; --egl: no window, a GPU through\n"
    "                        EGL; --timing gl_time_elapsed or glfinish_cpu_clock); docs/BENCHMARKS.md\n"
    "  --help                print this text\n"
    "  --version             print the version\n"
    "\n"
    "Needs a display; without one, run it in a virtual one, e.g.\n"
    "  xvfb-run -a -s \"-screen 0 1600x1000x24\" normlab --screenshot shot.png --frames 10\n";

struct Options {
    int lab = 0;              // --lab: index into ui::kLabs
    std::string screenshot;   // --screenshot: PNG path, empty for none
    int frames = 0;           // --frames: exit after this many frames; 0 = run until closed
    std::string export_plot;  // --export-plot: a plot name (Lab::plots), empty for none
    int scale = 1;            // --scale: of --export-plot
    std::string out;          // --out: of --export-plot
    bool replace = false;     // --replace: --out may replace a file
    bool lab_given = false;   // --lab was given: it wins over the scene's lab
    std::string scene;        // --scene FILE
    std::string lecture;      // --lecture FILE
    int slide = 1;            // --slide N (1-based)
    bool presenter = false;   // --presenter
    bool fullscreen = false;  // --fullscreen
    std::string theme = "light";   // --theme
    int font_px = ui::kDefaultFontPx;   // --font-scale P → P % of the default
    bool font_given = false;  // else the projector theme starts at ui::kProjectorFontPx
    std::string autosave;     // --autosave FILE
    bool dump_session = false;   // --dump-session
    std::string text_log;     // --text-log FILE
    bool pointer = false;     // --pointer X,Y
    float pointer_x = 0.0f, pointer_y = 0.0f;
    bool frame_stats = false; // --frame-stats
    bool all_labs = false;    // --all-labs: with --frame-stats or --check-layout, every lab in turn
    bool probe_controls = false;   // --probe-controls
    int width = 0, height = 0;   // --size WxH; 0: fit the screen
    float scale_ui = 0.0f;    // --scale-ui K; 0: the monitor's content scale
    bool check_layout = false;   // --check-layout
    bool json = false;        // --json (with --check-layout)
    int frame_delay_ms = 0;   // --frame-delay MS
    bool loop_stats = false;  // --loop-stats
    bool check_figures = false;   // --check-figures
};

bool parse_positive(const char* text, int& out) {
    char* end = nullptr;
    const long v = std::strtol(text, &end, 10);
    if (end == text || *end != '\0' || v <= 0 || v > 1000000) return false;
    out = static_cast<int>(v);
    return true;
}

// "normlab: cannot open s.json: …"; a reader's own "cannot read \"d\": it is a directory…" as it is.
void print_open_error(const std::string& error) {
    const bool says_cannot = error.rfind("cannot ", 0) == 0;
    std::fprintf(stderr, "normlab: %s%s\n", says_cannot ? "" : "cannot open ", error.c_str());
}

// "640,360" → 640, 360 (window pixels).
bool parse_point(const char* text, float& x, float& y) {
    char* end = nullptr;
    x = std::strtof(text, &end);
    const bool comma = end != text && *end == ',';
    if (comma) y = std::strtof(end + 1, &end);
    return comma && *end == '\0';
}

// "1280x720" → 1280, 720 (each 200 to 16384).
bool parse_size(const char* text, int& w, int& h) {
    char* end = nullptr;
    const long x = std::strtol(text, &end, 10);
    if (end == text || (*end != 'x' && *end != 'X')) return false;
    const char* rest = end + 1;
    const long y = std::strtol(rest, &end, 10);
    if (end == rest || *end != '\0' || x < 200 || y < 200 || x > 16384 || y > 16384) return false;
    w = static_cast<int>(x);
    h = static_cast<int>(y);
    return true;
}

// Flags that set a switch, and flags that take a text as it is.
constexpr std::pair<const char*, bool Options::*> kSwitches[] = {
    {"--presenter", &Options::presenter},
    {"--fullscreen", &Options::fullscreen},
    {"--check-layout", &Options::check_layout},
    {"--json", &Options::json},
    {"--frame-stats", &Options::frame_stats},
    {"--probe-controls", &Options::probe_controls},
    {"--loop-stats", &Options::loop_stats},
    {"--check-figures", &Options::check_figures},
    {"--all-labs", &Options::all_labs},
    {"--replace", &Options::replace},
    {"--dump-session", &Options::dump_session},
};
const std::pair<const char*, std::string Options::*> kTexts[] = {
    {"--scene", &Options::scene},
    {"--lecture", &Options::lecture},
    {"--autosave", &Options::autosave},
    {"--text-log", &Options::text_log},
    {"--screenshot", &Options::screenshot},
    {"--export-plot", &Options::export_plot},
    {"--out", &Options::out},
};

// The flags' combinations, and the scene or lecture named (refused here, before a window opens:
// one line, exit 2). -1: run the app.
int check_args(Options& opt) {
    if (!opt.screenshot.empty() && opt.frames == 0) opt.frames = kDefaultScreenshotFrames;
    if (opt.probe_controls && opt.frames == 0) opt.frames = kDefaultScreenshotFrames;
    if (opt.frame_stats && opt.frames == 0) {
        std::fprintf(stderr, "normlab: --frame-stats needs --frames N (how many frames to time)\n");
        return 2;
    }
    if (opt.all_labs && ((!opt.frame_stats && !opt.check_layout) || opt.lab_given)) {
        std::fprintf(stderr, "normlab: --all-labs goes with --frame-stats or --check-layout, and without --lab\n");
        return 2;
    }
    if (opt.json && !opt.check_layout) {
        std::fprintf(stderr, "normlab: --json goes with --check-layout (or --bench-gpu)\n");
        return 2;
    }
    if (opt.check_layout && (opt.frames > 0 || !opt.export_plot.empty())) {
        std::fprintf(stderr, "normlab: --check-layout takes no --frames, --screenshot or --export-plot\n");
        return 2;
    }
    if (opt.export_plot.empty() != opt.out.empty()) {
        std::fprintf(stderr, "normlab: --export-plot NAME and --out FILE.png go together (see normlab --help)\n");
        return 2;
    }
    if (!opt.scene.empty() && !opt.lecture.empty()) {
        std::fprintf(stderr, "normlab: --scene and --lecture exclude each other (a lecture opens its own scenes)\n");
        return 2;
    }
    // A bad scene or lecture is refused here, before a window opens: one line, exit 2.
    try {
        if (!opt.scene.empty()) load_scene(opt.scene);
        if (!opt.lecture.empty()) {
            const Lecture lecture = load_lecture(opt.lecture);
            if (const std::string bad = ui::check_slide_names(lecture); !bad.empty())
                throw InputError(opt.lecture + ": " + bad);
            if (opt.slide > static_cast<int>(lecture.slides.size())) {
                std::fprintf(stderr, "normlab: --slide %d, but %s has %zu slides\n", opt.slide, opt.lecture.c_str(),
                             lecture.slides.size());
                return 2;
            }
        }
    } catch (const InputError& e) {
        print_open_error(e.what());
        return 2;
    }
    return -1;
}

// Returns -1 to run the app, otherwise the exit code (0 after --help/--version, 2 on bad usage).
int parse_args(int argc, char** argv, Options& opt) {
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool has_value = i + 1 < argc;
        if (arg == "--help" || arg == "-h") {
            std::printf(kUsage, ui::lab_ids().c_str());
            return 0;
        }
        if (arg == "--version") {
            std::printf("normlab %s\n", NORMLAB_VERSION);
            return 0;
        }
        if (const auto flag = std::find_if(std::begin(kSwitches), std::end(kSwitches), [&](const auto& s) { return arg == s.first; });
            flag != std::end(kSwitches)) {
            opt.*flag->second = true;
            continue;
        }
        if (const auto flag = std::find_if(std::begin(kTexts), std::end(kTexts), [&](const auto& s) { return arg == s.first; });
            flag != std::end(kTexts) && has_value) {
            opt.*flag->second = argv[++i];
            continue;
        }
        if (arg == "--lab" && has_value) {
            opt.lab = ui::find_lab(argv[++i]);
            opt.lab_given = true;
            if (opt.lab < 0) {
                std::fprintf(stderr, "normlab: unknown lab '%s' (labs: %s)\n", argv[i], ui::lab_ids().c_str());
                return 2;
            }
        } else if (arg == "--slide" && has_value) {
            if (!parse_positive(argv[++i], opt.slide)) {
                std::fprintf(stderr, "normlab: --slide needs a positive whole number, got '%s'\n", argv[i]);
                return 2;
            }
        } else if (arg == "--theme" && has_value) {
            opt.theme = argv[++i];
            if (opt.theme != "light" && opt.theme != "dark" && opt.theme != "projector") {
                std::fprintf(stderr, "normlab: unknown theme '%s' (themes: light, dark, projector)\n", argv[i]);
                return 2;
            }
        } else if (arg == "--font-scale" && has_value) {
            int percent = 0;
            if (!parse_positive(argv[++i], percent) || percent < 80 || percent > 250) {
                std::fprintf(stderr, "normlab: --font-scale needs a percentage from 80 to 250, got '%s'\n", argv[i]);
                return 2;
            }
            opt.font_px = (ui::kDefaultFontPx * percent + 50) / 100;
            opt.font_given = true;
        } else if (arg == "--size" && has_value) {
            if (!parse_size(argv[++i], opt.width, opt.height)) {
                std::fprintf(stderr, "normlab: --size needs WxH in pixels, each 200 to 16384 (e.g. 1280x720), got '%s'\n",
                             argv[i]);
                return 2;
            }
        } else if (arg == "--scale-ui" && has_value) {
            char* end = nullptr;
            opt.scale_ui = std::strtof(argv[++i], &end);
            if (end == argv[i] || *end != '\0' || !(opt.scale_ui >= 1.0f && opt.scale_ui <= 4.0f)) {
                std::fprintf(stderr, "normlab: --scale-ui needs a number from 1 to 4, got '%s'\n", argv[i]);
                return 2;
            }
        } else if (arg == "--frame-delay" && has_value) {
            if (!parse_positive(argv[++i], opt.frame_delay_ms) || opt.frame_delay_ms > 5000) {
                std::fprintf(stderr, "normlab: --frame-delay needs milliseconds from 1 to 5000, got '%s'\n", argv[i]);
                return 2;
            }
        } else if (arg == "--pointer" && has_value) {
            if (!parse_point(argv[++i], opt.pointer_x, opt.pointer_y)) {
                std::fprintf(stderr, "normlab: --pointer needs X,Y in window pixels, got '%s'\n", argv[i]);
                return 2;
            }
            opt.pointer = true;
        } else if (arg == "--frames" && has_value) {
            if (!parse_positive(argv[++i], opt.frames)) {
                std::fprintf(stderr, "normlab: --frames needs a positive whole number, got '%s'\n", argv[i]);
                return 2;
            }
        } else if (arg == "--scale" && has_value) {
            if (!parse_positive(argv[++i], opt.scale) || opt.scale > ui::kMaxExportScale) {
                std::fprintf(stderr, "normlab: --scale needs a whole number from 1 to %d, got '%s'\n",
                             ui::kMaxExportScale, argv[i]);
                return 2;
            }
        } else if (arg == "--lab" || arg == "--screenshot" || arg == "--frames" || arg == "--export-plot" ||
                   arg == "--scale" || arg == "--out" || arg == "--scene" || arg == "--lecture" || arg == "--slide" ||
                   arg == "--theme" || arg == "--font-scale" || arg == "--autosave" || arg == "--pointer" ||
                   arg == "--size" || arg == "--scale-ui" || arg == "--frame-delay") {
            std::fprintf(stderr, "normlab: %s needs a value (see normlab --help)\n", arg.c_str());
            return 2;
        } else {
            std::fprintf(stderr, "normlab: unknown argument '%s' (see normlab --help)\n", arg.c_str());
            return 2;
        }
    }
    return check_args(opt);
}

// [SECTION] Window and GL context -----------------------------------------------------------

// A core-profile window: GL 4.3 (the GPU lab's compute shaders), else 3.3 (all but the GPU lab);
// each asked for with reset notification first (so that a lost context is noticed: ContextWatch
// in gpu_runner.hpp), then without, for drivers that refuse it.
GLFWwindow* create_window(int width, int height, bool visible) {
    for (const auto& [major, minor] : {std::pair{4, 3}, std::pair{3, 3}}) {
        for (const bool robust : {true, false}) {
            glfwDefaultWindowHints();
            glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, major);
            glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, minor);
            glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
            glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
            glfwWindowHint(GLFW_VISIBLE, visible ? GLFW_TRUE : GLFW_FALSE);
            if (robust) glfwWindowHint(GLFW_CONTEXT_ROBUSTNESS, GLFW_LOSE_CONTEXT_ON_RESET);
            if (GLFWwindow* window = glfwCreateWindow(width, height, "NormLab", nullptr, nullptr)) return window;
        }
    }
    return nullptr;
}

// The size last closed at: "W H" in this file (interactive runs only).
std::string window_size_file() {
    const std::string autosave = ui::default_autosave_file();
    return autosave.empty() ? "" : (std::filesystem::path(autosave).parent_path() / "window-size.txt").string();
}

// The window's size: --size as given; else the size last closed at (or 1600 × 1000), shrunk to
// the primary monitor's work area (the screen less panels and docks), so that it never runs off
// a projector's 1024 × 768 or a laptop's 1366 × 768. Scripted runs ignore the saved size.
std::pair<int, int> initial_window_size(const Options& opt) {
    if (opt.width > 0) return {opt.width, opt.height};
    int width = kWindowWidth, height = kWindowHeight;
    const bool scripted = opt.frames > 0 || !opt.export_plot.empty() || opt.check_layout;
    if (!scripted) {
        std::ifstream in(window_size_file());
        int w = 0, h = 0;
        if (in >> w >> h && w >= 200 && h >= 200) {
            width = w;
            height = h;
        }
    }
    int x = 0, y = 0, w = 0, h = 0;
#ifndef __EMSCRIPTEN__   // the page is sized by its browser window (web_page.hpp)
    if (GLFWmonitor* monitor = glfwGetPrimaryMonitor()) glfwGetMonitorWorkarea(monitor, &x, &y, &w, &h);
#endif
    if (w > 0 && h > 0) {
        width = std::min(width, w);
        height = std::min(height, h);
    }
    return {width, height};
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

// --export-plot: the named figure of a lab (the first lab that has it; later labs' figures are
// not computed), offscreen at opt.scale×; returns the exit code.
int export_plot(ui::AppContext& ctx, const Options& opt) {
    std::string names;   // of every figure, for the message when none has the name
    for (int i = 0; i < ui::kLabCount; ++i) {
        if (ui::kLabs[i].plots == nullptr) continue;
        for (const Plot& plot : ui::kLabs[i].plots(ctx, ctx.uis)) {
            if (plot.name != opt.export_plot) {
                if (!plot.name.empty()) names += (names.empty() ? "" : ", ") + plot.name;
                continue;
            }
            if (!opt.replace && path_exists(opt.out)) {
                std::fprintf(stderr, "normlab: %s exists; not replaced (add --replace to replace it)\n", opt.out.c_str());
                return 2;
            }
            const std::string err = ui::save_plot_png(plot, ui::kDefaultFigureWidth, ui::kDefaultFigureHeight, opt.scale,
                                                      opt.out, opt.replace ? IfExists::Replace : IfExists::Refuse);
            if (err.empty()) return 0;
            std::fprintf(stderr, "normlab: cannot save the plot: %s\n", err.c_str());
            return 1;
        }
    }
    std::fprintf(stderr, "normlab: unknown plot '%s' (plots: %s)\n", opt.export_plot.c_str(),
                 names.empty() ? "none yet, no lab has figures" : names.c_str());
    return 2;
}

// [SECTION] Frame loop ----------------------------------------------------------------------

// --frame-stats: each frame's time, from its start to the next frame's start (the last one's to
// its end, after glFinish), grouped by the lab on screen; and the time from the process's start
// to the first frame on screen (after its swap and glFinish).
class FrameStats {
public:
    explicit FrameStats(int groups) : times_ms_(static_cast<std::size_t>(groups)), lab_(times_ms_.size(), 0) {}

    // Frame start, of group `group` (0 unless --all-labs), showing lab index `lab`.
    void frame_starts(int group, int lab) {
        const Clock::time_point now = Clock::now();
        close_frame(now);
        group_ = static_cast<std::size_t>(group);
        lab_[group_] = lab;
        started_ = now;
        open_ = true;
    }

    void first_frame_shown() {
        glFinish();
        first_frame_ms_ = ms(g_process_start, Clock::now());
    }

    // The JSON docs/ARCHITECTURE.md names: p50/p95/max over every frame, the same per lab, first frame.
    std::string finish(const std::string& renderer) {
        glFinish();
        close_frame(Clock::now());
        if (first_frame_ms_ == 0.0) first_frame_ms_ = ms(g_process_start, Clock::now());   // --frames 1: not swapped
        std::vector<double> all;
        nlohmann::json labs = nlohmann::json::array();
        for (std::size_t g = 0; g < times_ms_.size(); ++g) {
            all.insert(all.end(), times_ms_[g].begin(), times_ms_[g].end());
            nlohmann::json lab = summary(times_ms_[g]);
            lab["lab"] = ui::kLabs[lab_[g]].id;
            labs.push_back(std::move(lab));
        }
        nlohmann::json out = summary(all);
        out["renderer"] = renderer;
        out["first_frame_ms"] = first_frame_ms_;
        out["labs"] = std::move(labs);
        return out.dump(2) + "\n";
    }

private:
    static double ms(Clock::time_point from, Clock::time_point to) {
        return std::chrono::duration<double, std::milli>(to - from).count();
    }
    static nlohmann::json summary(const std::vector<double>& t) {
        return {{"frames", t.size()}, {"p50_ms", percentile(t, 0.5)}, {"p95_ms", percentile(t, 0.95)},
                {"max_ms", t.empty() ? 0.0 : *std::max_element(t.begin(), t.end())}};
    }
    void close_frame(Clock::time_point now) {
        if (open_) times_ms_[group_].push_back(ms(started_, now));
        open_ = false;
    }

    std::vector<std::vector<double>> times_ms_;   // [group][frame]
    std::vector<int> lab_;                        // [group]: the lab index it showed
    std::size_t group_ = 0;
    Clock::time_point started_;
    bool open_ = false;
    double first_frame_ms_ = 0.0;
};

// The window's close button, File ▸ Quit, SIGINT or SIGTERM: true when the frame loop ends now.
// A close or Quit first writes the autosave; when that fails, the user is asked (session_io.hpp:
// may_quit) and the loop goes on. A signal ends it at once (the final autosave follows).
bool quit_now(GLFWwindow* window, ui::AppContext& ctx) {
    if (ui::quit_signal() != 0 || ctx.io->quit_confirmed) return true;
    if (!glfwWindowShouldClose(window) && !ctx.app.quit) return false;
    glfwSetWindowShouldClose(window, GLFW_FALSE);
    ctx.app.quit = false;
    return ui::may_quit(ctx);
}

// The last autosave, said on stderr: what was saved where, or why not (and which signal ended it).
void report_final_autosave(ui::AppContext& ctx) {
    const std::string line = ui::final_autosave(ctx);
    if (line.empty()) return;
    if (const int sig = ui::quit_signal(); sig != 0)
        std::fprintf(stderr, "normlab: %s: %s\n", ui::signal_name(sig), line.c_str());
    else
        std::fprintf(stderr, "normlab: %s\n", line.c_str());
}

// Fonts and theme as they were last built: rebuilt between frames when the text size, the UI
// scale (--scale-ui, or the monitor's content scale, which changes when the window moves to
// another monitor) or the theme changes.
struct Look {
    int px = 0;
    bool dark = false, projector = false;
};

void update_look(Look& look, ui::Fonts& fonts, const ui::AppUi& ui, float scale) {
    const int px = static_cast<int>(std::lround(static_cast<float>(ui.font_px) * scale));
    if (px != fonts.px) {
        load_fonts(fonts, px);
        ImGui_ImplOpenGL3_DestroyFontsTexture();
        ImGui_ImplOpenGL3_CreateFontsTexture();
    }
    if (px != look.px || ui.dark != look.dark || ui.projector != look.projector) {
        ui::apply_theme(ui.dark, ui.projector, px);
        look = {px, ui.dark, ui.projector};
    }
}

// One frame's UI, between ImGui::NewFrame() and ImGui::Render().
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

// [SECTION] Layout check ----------------------------------------------------------------------

// --check-layout: each page (a lab, or a slide of --lecture) is drawn for kSettleFrames frames
// (tables and windows size themselves from the previous frame), the texts of the last one
// recorded (layout_check.hpp); prints the problems, returns 0 when there are none, else 1.
constexpr int kSettleFrames = 6;

int check_layout(GLFWwindow* window, const Options& opt, ui::AppContext& ctx, ui::Fonts& fonts, Look& look) {
    struct Page {
        int lab = -1, slide = -1;
    };
    std::vector<Page> pages;
    if (ctx.lecture->lecture) {
        for (int i = 0; i < static_cast<int>(ctx.lecture->lecture->slides.size()); ++i) pages.push_back({-1, i});
    } else if (opt.all_labs) {
        for (int i = 0; i < ui::kLabCount; ++i) pages.push_back({i, -1});
    } else {
        pages.push_back({opt.lab, -1});
    }
    ui::LayoutReport report;
    ImGuiIO& io = ImGui::GetIO();
    for (const Page& page : pages) {
        if (page.slide >= 0) ui::go_to_slide(ctx, page.slide);
        if (page.lab >= 0) ctx.app.select_lab = page.lab;
        std::vector<ui::TextBox> texts;
        for (int frame = 1; frame <= kSettleFrames; ++frame) {
            glfwPollEvents();
            update_look(look, fonts, ctx.app, ui_scale(window, opt));
            ImGui_ImplOpenGL3_NewFrame();
            ImGui_ImplGlfw_NewFrame();
            io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
            ImGui::NewFrame();
            if (frame == kSettleFrames) ui::start_text_record();
            draw_ui(ctx);
            if (frame == kSettleFrames) texts = ui::stop_text_record();
            ImGui::Render();
        }
        int w = 0, h = 0;
        glfwGetWindowSize(window, &w, &h);
        ui::LayoutPage where;
        where.lab = ui::kLabs[ctx.app.lab].id;
        where.slide = page.slide + 1;
        where.size = std::to_string(w) + "x" + std::to_string(h);
        where.scale = ui_scale(window, opt);
        where.theme = opt.theme;
        ui::add_problems(report, where, texts);
    }
    std::cout << (opt.json ? ui::report_json(report) : ui::report_text(report)) << std::flush;
    return report.overlaps.empty() && report.clipped.empty() ? 0 : 1;
}

// [SECTION] Run -------------------------------------------------------------------------------

// --check-figures: the figures offered for export on screen (plot_export.hpp's notes) against the
// lab registry's names for this session (scene_plots.hpp): those the registry lacks, then the
// lab's registered ones that were not on screen. 1 when the registry lacks one.
int check_figures(const ui::LabContext& ctx) {
    const std::string_view lab = ui::kLabs[ctx.app.lab].id;
    std::set<std::string> listed;
    for (std::string_view n : lab_plot_names(ctx.session, lab)) listed.emplace(n);
    for (std::string_view n : lab_table_names(lab)) listed.emplace(n);
    std::string missing, unseen;
    const std::vector<std::string> seen = ui::exportable_noted();
    for (const std::string& n : seen)
        if (listed.count(n) == 0) missing += (missing.empty() ? "" : ", ") + n;
    for (const std::string& n : listed)
        if (std::find(seen.begin(), seen.end(), n) == seen.end()) unseen += (unseen.empty() ? "" : ", ") + n;
    std::cout << lab << ": on screen, not in export --list: " << (missing.empty() ? "none" : missing) << "\n"
              << lab << ": in export --list, not on screen: " << (unseen.empty() ? "none" : unseen) << std::endl;
    return missing.empty() ? 0 : 1;
}

// Runs that a script drives (--frames, --export-plot, --check-layout).
bool scripted_run(const Options& opt) { return opt.frames > 0 || !opt.export_plot.empty() || opt.check_layout; }

// Scenes: --scene or --lecture, else the last session. Scripted runs leave the user's autosave
// and recent files alone unless --autosave names a file. Returns "" or why the scene cannot be
// opened.
std::string open_start_scene(ui::AppContext& ctx, const Options& opt) {
    ui::SessionIo& scene_io = *ctx.io;
    const bool scripted = scripted_run(opt);
    scene_io.assets_dir = NORMLAB_ASSETS_DIR;
    scene_io.autosave_file = !opt.autosave.empty() ? opt.autosave : scripted ? "" : ui::default_autosave_file();
    scene_io.recent_file = scripted ? "" : ui::default_recent_file();
    const std::string autosave_note = ui::claim_autosave(scene_io);   // a second NormLab: its own file
    ui::load_recent(scene_io);
    std::string error;
    if (!opt.scene.empty())
        error = ui::open_scene_file(ctx, opt.scene, "", !scripted);
    else if (!opt.lecture.empty())
        error = ui::open_lecture_file(ctx, opt.lecture, opt.slide - 1);
    else
        ui::restore_autosave(ctx);
    if (error.empty() && !autosave_note.empty()) {
        std::fprintf(stderr, "normlab: %s\n", autosave_note.c_str());
        ctx.app.status = autosave_note;
    }
    return error;
}

// --text-log FILE: the texts of the latest frame, one per line (top to bottom, then left to
// right), rewritten whenever they change. Tests drive the window with xdotool and read it.
class TextLog {
public:
    explicit TextLog(std::string path) : path_(std::move(path)) {}
    void write(std::vector<ui::TextBox> texts) {
        std::stable_sort(texts.begin(), texts.end(), [](const ui::TextBox& a, const ui::TextBox& b) {
            return a.box.y != b.box.y ? a.box.y < b.box.y : a.box.x < b.box.x;
        });
        std::string text;
        for (const ui::TextBox& t : texts) text += t.text + "\n";
        if (text == last_) return;
        last_ = text;
        try {
            write_file_atomically(path_, text, IfExists::Replace);   // the run's own named file
        } catch (const std::exception& e) {
            std::fprintf(stderr, "normlab: --text-log: %s\n", e.what());
        }
    }

private:
    std::string path_, last_;
};

// What the command line asks of the app's and the lecture's display state (after the start scene).
void apply_options(const Options& opt, ui::AppUi& ui, ui::LectureUi& lecture) {
    if (opt.lab_given) ui.select_lab = opt.lab;
    ui.presenter = opt.presenter;
    ui.dark = opt.theme == "dark";
    ui.projector = opt.theme == "projector";
    ui.font_px = ui.projector && !opt.font_given ? ui::kProjectorFontPx : opt.font_px;
    lecture.want_fullscreen = opt.fullscreen;
    if (opt.pointer) {
        lecture.pointer = true;
        lecture.pointer_at = ImVec2(opt.pointer_x, opt.pointer_y);
    }
}

// The app from its first frame to its last: run() drives it on the desktop, the browser in the
// page (one frame per animation frame, web_page.hpp).
class App {
public:
    App(GLFWwindow* window, const Options& opt, ui::InputQueue& input)
        : window_(window), opt_(opt), input_(input), io_(ImGui::GetIO()),
          ctx_{{session_, ui_, info_, fonts_, gpu_}, uis_, &scene_io_, &lecture_},
          stats_(opt.all_labs ? ui::kLabCount : 1), pacer_(opt.frames > 0, opt.frame_delay_ms) {}

    // Fonts, GL, the start scene; returns -1 to go on with frames, else the exit code (a scene
    // that cannot be opened, --export-plot, --check-layout).
    int start() {
        load_fonts(fonts_, ui_.font_px);
        info_ = query_gl(fonts_);
        info_.scripted = (opt_.frames > 0 && !opt_.frame_stats) || opt_.check_layout;   // timed runs: as a user has them
        if (!fonts_.warning.empty()) std::fprintf(stderr, "normlab: %s\n", fonts_.warning.c_str());
        ui_.select_lab = opt_.lab;
        if (const std::string open_error = open_start_scene(ctx_, opt_); !open_error.empty()) {   // checked at start-up already; the file changed since
            print_open_error(open_error);
            return 2;
        }
        apply_options(opt_, ui_, lecture_);
        if (!opt_.export_plot.empty()) return export_plot(ctx_, opt_);
        if (opt_.check_layout) return check_layout(window_, opt_, ctx_, fonts_, look_);
        if (opt_.check_figures) ui::start_export_notes();
        total_frames_ = opt_.all_labs ? opt_.frames * ui::kLabCount : opt_.frames;
        return -1;
    }

    // One frame; false when the loop ends (closed, Quit, a signal, the last scripted frame).
    bool frame() {
        if (quit_now(window_, ctx_)) return false;
        const int frame = ++frame_;
        pacer_.poll_or_wait(input_.pending(), std::exchange(ui_.animate, false), io_.WantTextInput, ui::autosave_due(ctx_));
        if (opt_.frame_stats) {
            const int lab = opt_.all_labs ? (frame - 1) / opt_.frames : 0;
            if (opt_.all_labs && (frame - 1) % opt_.frames == 0) ui_.select_lab = lab;
            stats_.frame_starts(lab, opt_.all_labs ? lab : ui_.lab);
        }
        ui::apply_window_mode(window_, lecture_);
        update_look(look_, fonts_, ui_, ui_scale(window_, opt_));
        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        pacer_.fed(input_.feed_imgui());
        if (opt_.frames > 0) io_.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);   // scripted runs: no hover
        if (probe_) probe_->before_frame(io_);
        ImGui::NewFrame();

        if (!opt_.text_log.empty()) ui::start_text_record();
        const int lab_before = ui_.lab;
        draw_ui(ctx_);
        if (opt_.check_figures && ui_.lab != lab_before) ui::start_export_notes();   // only the lab on screen at the end
        if (!opt_.text_log.empty()) text_log_.write(ui::stop_text_record());
        if (probe_) probe_->after_frame(ctx_, ctx_.app.presenter ? ctx_.lecture->boxes : no_boxes_);

        ImGui::Render();
        int fb_w = 0, fb_h = 0;
        glfwGetFramebufferSize(window_, &fb_w, &fb_h);
        glViewport(0, 0, fb_w, fb_h);
        const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
        glClearColor(bg.x, bg.y, bg.z, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        if (!probe_) ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());   // the probe reads widgets, not pixels

        // Captures read the back buffer, so they happen here: rendered, not yet swapped.
        const bool last_frame = opt_.frames > 0 && frame >= total_frames_ && !opt_.probe_controls;
        if (last_frame && !opt_.screenshot.empty()) {
            // A scripted capture names its file: replaced, like a compiler's -o (special files refused).
            if (const std::string err = ui::save_back_buffer_png(opt_.screenshot, fb_w, fb_h, IfExists::Replace);
                !err.empty()) {
                std::fprintf(stderr, "normlab: cannot save the screenshot: %s\n", err.c_str());
                return end_now(1);
            }
        }
        if (ui_.save_screenshot) {
            const std::string name = timestamped_png_name();
            const std::string err = ui::save_back_buffer_png(name, fb_w, fb_h, IfExists::Refuse);
            ui_.status = err.empty() ? "Saved " + name : "⚠ " + err;
            ui_.save_screenshot = false;
        }
        if (last_frame && opt_.check_figures) return end_now(check_figures(ctx_));
        if (last_frame) return false;
        if (opt_.probe_controls && frame == total_frames_) {
            probe_.emplace(io_.DisplaySize, 24.0f);
            ctx_.uis.training.playing = ctx_.uis.depth.playing = false;   // the probe reads widgets: no training meanwhile
        }
        if (probe_ && probe_->done()) {
            std::cout << probe_->report_json(ctx_.app.presenter ? ctx_.lecture->boxes : no_boxes_) << std::flush;
            return end_now(probe_->passed() ? 0 : 1);
        }
        glfwSwapBuffers(window_);
        if (opt_.frame_stats && frame == 1) stats_.first_frame_shown();
        pacer_.frame_shown();
        return true;
    }

    // The page, before each animation frame: whether to draw it (an idle page draws nothing).
    bool frame_due() { return pacer_.due(input_.pending(), ui_.animate, io_.WantTextInput, ui::autosave_due(ctx_)); }
    long frames_skipped() const { return pacer_.skipped(); }

    // After the last frame: the final autosave and what the options ask to print; the exit code.
    int finish() {
        if (end_code_) return *end_code_;
        if (opt_.frame_stats) std::cout << stats_.finish(info_.renderer) << std::flush;
        if (opt_.loop_stats) std::fprintf(stderr, "%s\n", pacer_.stats_json().c_str());
        report_final_autosave(ctx_);
        if (!scripted_run(opt_)) save_window_size(window_, lecture_);
        if (opt_.dump_session) std::cout << scene_to_text(ui::current_scene(ctx_)) << std::flush;
        return ui::quit_signal() != 0 ? 128 + ui::quit_signal() : 0;
    }

    ui::AppContext& context() { return ctx_; }

private:
    bool end_now(int code) {   // ends the loop with this exit code, skipping finish()'s work
        end_code_ = code;
        return false;
    }

    GLFWwindow* window_;
    const Options& opt_;
    ui::InputQueue& input_;
    ImGuiIO& io_;
    ui::AppUi ui_;
    ui::Fonts fonts_;
    Look look_;
    ui::AppInfo info_;
    Session session_;
    ui::GpuDevice gpu_;   // before uis_: a lab's sweep runs on its runner
    ui::LabUis uis_;
    ui::SessionIo scene_io_;
    ui::LectureUi lecture_;
    ui::AppContext ctx_;
    int total_frames_ = 0, frame_ = 0;
    FrameStats stats_;
    ui::FramePacer pacer_;
    std::optional<ui::ControlProbe> probe_;   // --probe-controls, after the first opt.frames frames
    TextLog text_log_{opt_.text_log};
    const std::vector<ui::SlideBox> no_boxes_;
    std::optional<int> end_code_;
};

// Runs until the window closes, Quit, or opt.frames frames; returns the exit code.
int run(GLFWwindow* window, const Options& opt, ui::InputQueue& input) {
    App app(window, opt, input);
    if (const int code = app.start(); code >= 0) return code;
    while (app.frame()) {
    }
    return app.finish();
}

#ifdef __EMSCRIPTEN__
// The page: main returns at once and the app lives on, the browser calling one frame per
// animation frame (web_page.hpp); what the app holds lives as long as the page.
int run_page(GLFWwindow* window, const Options& opt) {
    struct Page {
        Options opt;
        ui::InputQueue input;
        std::unique_ptr<App> app;
    };
    auto* page = new Page{opt, {}, nullptr};
    page->input.install(window);
    publish_listener = ui::wake_frame_loop;
    page->app = std::make_unique<App>(window, page->opt, page->input);
    if (const int code = page->app->start(); code >= 0) return code;
    ui::PageFrames frames;
    frames.frame = [page] { return page->app->frame(); };
    frames.due = [page] { return page->app->frame_due(); };
    frames.skipped = [page] { return page->app->frames_skipped(); };
    ui::run_page_frames(window, page->app->context(), std::move(frames));
    return 0;
}
#endif

}  // namespace

// [SECTION] main ----------------------------------------------------------------------------

int main(int argc, char** argv) {
#ifdef __EMSCRIPTEN__
    ui::prepare_page();   // web_page.hpp: the page's arguments come from its URL; storage in IndexedDB
#else
    if (ui::wants_gpu_bench(argc, argv)) return ui::gpu_bench_main(argc, argv);   // gpu_lab.hpp: no UI
#endif
    Options opt;
    if (const int code = parse_args(argc, argv, opt); code >= 0) return code;

    if (glfwInit() != GLFW_TRUE) {
        std::fprintf(stderr,
                     "normlab: no display to open a window on (%s); run it in a virtual one: "
                     "xvfb-run -a normlab\n",
                     ui::glfw_error().c_str());
        return 1;
    }
    const auto [width, height] = initial_window_size(opt);
    GLFWwindow* window = create_window(width, height, opt.export_plot.empty() && !opt.check_layout);
    if (window == nullptr) {
        std::fprintf(stderr, "normlab: cannot create an OpenGL 3.3 core window (%s)\n", ui::glfw_error().c_str());
        glfwTerminate();
        return 1;
    }
    glfwMakeContextCurrent(window);
    glfwSwapInterval(opt.frames > 0 ? 0 : 1);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;   // the app lays its windows out; no imgui.ini in the user's folder
    ImGui_ImplGlfw_InitForOpenGL(window, false);   // the input queue takes GLFW's callbacks
#ifdef __EMSCRIPTEN__
    ImGui_ImplOpenGL3_Init("#version 300 es");
    return run_page(window, opt);
#else
    ImGui_ImplOpenGL3_Init("#version 330 core");
#endif
    ui::InputQueue input;
    input.install(window);
    publish_listener = ui::wake_frame_loop;   // workers' new results wake an idle loop

    ui::install_quit_signals();
    const int code = run(window, opt, input);
    ui::stop_quit_signals();
    publish_listener = nullptr;
    input.uninstall();

    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(window);
    glfwTerminate();
    return code;
}
