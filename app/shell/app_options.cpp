// normlab: parses the command line into Options, and prints --help.
#include "app_options.hpp"

#include "labs.hpp"
#include "lecture.hpp"
#include "session_io.hpp"

#include <normlab/base/file_io.hpp>
#include <normlab/base/input_error.hpp>
#include <normlab/scene/scene.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <iostream>
#include <algorithm>
#include <string>
#include <tuple>
#include <utility>

namespace normlab::ui {

namespace {

constexpr int kDefaultScreenshotFrames = 5;

constexpr const char* kUsage =
    "Usage: normlab [--lab NAME] [--screenshot OUT.png] [--frames N]\n"
    "       normlab --export-plot NAME [--scale K] --out FILE.png\n"
    "       normlab --bench-gpu [--json] [--cpu] [--egl] [--rows R,...] [--cols C,...] [--reps N] [--timing M]\n"
    "       normlab --frames N --frame-stats [--lab NAME | --all-labs]\n"
    "       normlab --check-layout [--size WxH[,WxH…]] [--scale-ui K] [--lab NAME | --all-labs | --lecture FILE]\n"
    "               [--presenter] [--theme T[,T…]] [--json]\n"
    "       normlab [--scene FILE | --lecture FILE [--slide N]] [--presenter] [--fullscreen]\n"
    "               [--theme light|dark|projector] [--font-scale P] [--size WxH] [--scale-ui K]\n"
    "NormLab: a desktop lab for LayerNorm vs RMSNorm (Zhang & Sennrich, NeurIPS 2019).\n"
    "\n"
    "  --lab NAME            start on this lab (%s)\n"
    "  --scene FILE          open this scene (every lab's state; assets/scenes/ has some) instead\n"
    "                        of the last session; a bad file: one line on stderr, exit 2\n"
    "  --lecture FILE        open this lecture (assets/lectures/): ← / → step through its scenes\n"
    "  --slide N             with --lecture: start on slide N (1-based)\n"
    "  --edit-lecture STEPS  edit the lecture as the Slides panel does, before the first frame:\n"
    "                        \"add FIG[,FIG] | TITLE | CAPTION; place FILE; move 3 1; delete 2;\n"
    "                        undo; redo; panel; ask\" (add: the view on screen; place: where a\n"
    "                        copy of a shipped lecture, or a new one, is saved; panel, ask: show\n"
    "                        the Slides panel, the add dialog); a failed step: exit 2\n"
    "  --presenter           presenter view (F5): the slide's title, its caption (at least 24 px)\n"
    "                        and one or two figures as large as the window allows, side by side or\n"
    "                        stacked, with only the controls the lecture file names (none without\n"
    "                        a lecture); F5 or Esc: editing view, every control\n"
    "  --fullscreen          full screen (F11)\n"
    "  --theme T             light (default), dark or projector (black on white, thick lines,\n"
    "                        text at 150 %% unless --font-scale says otherwise)\n"
    "  --lang L              the interface's language: en, ko or zh (or pseudo: English 40 %% longer,\n"
    "                        for layout checks); else View ▸ Language's last choice, else the locale\n"
    "                        (LC_ALL, LC_MESSAGES, LANG)\n"
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
    "                        they change (for tests that drive the window and read what it says);\n"
    "                        with --check-layout: every page's texts, each after a line \"## LAB SIZE\"\n"
    "  --text-boxes          with --text-log: each text after its box in window pixels,\n"
    "                        \"X0 Y0 X1 Y1<tab>TEXT\" (a test can tell fonts and baselines apart)\n"
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
    "                        [...], \"clipped\": [...]} on stdout); --size WxH,WxH,…: at each size\n"
    "                        in turn, in one run; --theme T,T,…: each size in each theme in turn\n"
    "  --dropped             with --check-layout: first lay out each page at 1920x1080, then report\n"
    "                        each figure label or value (not a tick label) it showed there that the\n"
    "                        page at a checked size lacks (\"dropped\"; exit 1 if any)\n"
    "  --probe-controls      after N frames (--frames, default 5), hover the window every 24 px and\n"
    "                        click each widget outside the controls the slide names; print what was\n"
    "                        found as JSON, exit 1 if a click edited anything (an unnamed control)\n"
    "  --frame-delay MS      wait MS milliseconds (1 to 5000) after each frame: a slow classroom PC,\n"
    "                        for testing that no key press or click is lost\n"
    "  --loop-stats          on exit, print on stderr as JSON how many frames were drawn in each\n"
    "                        second of the run and how often the loop slept waiting for events\n"
    "  --export-plot NAME    save that figure of a lab as PNG (720 × 450 px at 1×), rendered\n"
    "                        offscreen in a hidden window, its texts in the interface's language\n"
    "                        (--lang ko: Korean), then exit 0\n"
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
bool parse_positive(const char* text, int& out) {
    char* end = nullptr;
    const long v = std::strtol(text, &end, 10);
    if (end == text || *end != '\0' || v <= 0 || v > 1000000) return false;
    out = static_cast<int>(v);
    return true;
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
    {"--dropped", &Options::dropped},
    {"--frame-stats", &Options::frame_stats},
    {"--probe-controls", &Options::probe_controls},
    {"--loop-stats", &Options::loop_stats},
    {"--check-figures", &Options::check_figures},
    {"--all-labs", &Options::all_labs},
    {"--replace", &Options::replace},
    {"--dump-session", &Options::dump_session},
    {"--text-boxes", &Options::text_boxes},
};
const std::pair<const char*, std::string Options::*> kTexts[] = {
    {"--scene", &Options::scene},
    {"--lecture", &Options::lecture},
    {"--edit-lecture", &Options::edit_lecture},
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
    if (opt.text_boxes && opt.text_log.empty()) {
        std::fprintf(stderr, "normlab: --text-boxes goes with --text-log\n");
        return 2;
    }
    if (opt.dropped && !opt.check_layout) {
        std::fprintf(stderr, "normlab: --dropped goes with --check-layout\n");
        return 2;
    }
    if (opt.json && !opt.check_layout) {
        std::fprintf(stderr, "normlab: --json goes with --check-layout (or --bench-gpu)\n");
        return 2;
    }
    if (!opt.more_sizes.empty() && !opt.check_layout) {
        std::fprintf(stderr, "normlab: --size takes one WxH (a list only with --check-layout)\n");
        return 2;
    }
    if (!opt.more_themes.empty() && !opt.check_layout) {
        std::fprintf(stderr, "normlab: --theme takes one theme (a list only with --check-layout)\n");
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

}  // namespace

// "normlab: cannot open s.json: …"; a reader's own "cannot read \"d\": it is a directory…" as it is.
void print_open_error(const std::string& error) {
    const bool says_cannot = error.rfind("cannot ", 0) == 0;
    std::fprintf(stderr, "normlab: %s%s\n", says_cannot ? "" : "cannot open ", error.c_str());
}

// One of `choices` into `out`; otherwise false, said on stderr ("unknown theme 'x' (themes: …)").
bool parse_choice(const char* value, std::initializer_list<const char*> choices, const char* what, std::string& out) {
    out = value;
    std::string list;
    for (const char* c : choices) {
        if (out == c) return true;
        list += (list.empty() ? "" : ", ") + std::string(c);
    }
    std::fprintf(stderr, "normlab: unknown %s '%s' (%ss: %s)\n", what, value, what, list.c_str());
    return false;
}

// --size's value: WxH, or with --check-layout WxH,WxH,… (the first is the window's size).
bool parse_sizes(const std::string& sizes, Options& opt) {
    for (std::size_t at = 0; at <= sizes.size();) {
        const std::size_t comma = std::min(sizes.find(',', at), sizes.size());
        int w = 0, h = 0;
        if (!parse_size(sizes.substr(at, comma - at).c_str(), w, h)) return false;
        if (at == 0) std::tie(opt.width, opt.height) = std::pair(w, h);
        else opt.more_sizes.emplace_back(w, h);
        at = comma + 1;
    }
    return true;
}

// Whether `arg` takes a value: its line in kUsage's list names one ("  --lab NAME   …").
bool takes_value(const std::string& arg) {
    const std::string usage = kUsage, line = "\n  " + arg + " ";
    const std::size_t at = usage.find(line);
    return at != std::string::npos && usage.size() > at + line.size() && usage[at + line.size()] != ' ';
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
            // T, or with --check-layout T,T,… (the first is the window's theme).
            const std::string themes = argv[++i];
            opt.more_themes.clear();
            for (std::size_t at = 0; at <= themes.size();) {
                const std::size_t comma = std::min(themes.find(',', at), themes.size());
                std::string& theme = at == 0 ? opt.theme : opt.more_themes.emplace_back();
                if (!parse_choice(themes.substr(at, comma - at).c_str(), {"light", "dark", "projector"}, "theme", theme))
                    return 2;
                at = comma + 1;
            }
        } else if (arg == "--lang" && has_value) {
            if (!parse_choice(argv[++i], {"en", "ko", "zh", "pseudo"}, "language", opt.lang)) return 2;
        } else if (arg == "--font-scale" && has_value) {
            int percent = 0;
            if (!parse_positive(argv[++i], percent) || percent < 80 || percent > 250) {
                std::fprintf(stderr, "normlab: --font-scale needs a percentage from 80 to 250, got '%s'\n", argv[i]);
                return 2;
            }
            opt.font_px = (ui::kDefaultFontPx * percent + 50) / 100;
            opt.font_given = true;
        } else if (arg == "--size" && has_value) {
            if (!parse_sizes(argv[++i], opt)) {
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
        } else if (takes_value(arg)) {
            std::fprintf(stderr, "normlab: %s needs a value (see normlab --help)\n", arg.c_str());
            return 2;
        } else {
            std::fprintf(stderr, "normlab: unknown argument '%s' (see normlab --help)\n", arg.c_str());
            return 2;
        }
    }
    return check_args(opt);
}

// Runs that a script drives (--frames, --export-plot, --check-layout).
bool scripted_run(const Options& opt) { return opt.frames > 0 || !opt.export_plot.empty() || opt.check_layout; }

}  // namespace normlab::ui
