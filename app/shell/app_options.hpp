// normlab: the app's command line: its options, their parser and the help text.
#pragma once

#include "theme_fonts.hpp"

#include <string>
#include <utility>
#include <vector>

namespace normlab::ui {

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
    std::string edit_lecture; // --edit-lecture STEPS (lecture_writer.hpp, run_lecture_script)
    bool presenter = false;   // --presenter
    bool fullscreen = false;  // --fullscreen
    std::string theme = "light";   // --theme
    std::vector<std::string> more_themes;   // --check-layout --theme T,T,…: the themes after the first
    std::string lang;         // --lang en|ko|zh|pseudo; "" for none
    int font_px = ui::kDefaultFontPx;   // --font-scale P → P % of the default
    bool font_given = false;  // else the projector theme starts at ui::kProjectorFontPx
    std::string autosave;     // --autosave FILE
    bool dump_session = false;   // --dump-session
    std::string text_log;     // --text-log FILE
    bool text_boxes = false;  // --text-boxes (with --text-log): each text after its box
    bool pointer = false;     // --pointer X,Y
    float pointer_x = 0.0f, pointer_y = 0.0f;
    bool frame_stats = false; // --frame-stats
    bool all_labs = false;    // --all-labs: with --frame-stats or --check-layout, every lab in turn
    bool probe_controls = false;   // --probe-controls
    int width = 0, height = 0;   // --size WxH; 0: fit the screen
    std::vector<std::pair<int, int>> more_sizes;   // --check-layout --size WxH,WxH,…: the sizes after the first
    float scale_ui = 0.0f;    // --scale-ui K; 0: the monitor's content scale
    bool check_layout = false;   // --check-layout
    bool json = false;        // --json (with --check-layout)
    bool dropped = false;     // --dropped (with --check-layout): compare with each page at 1920x1080
    int frame_delay_ms = 0;   // --frame-delay MS
    bool loop_stats = false;  // --loop-stats
    bool check_figures = false;   // --check-figures
};

// Returns -1 to run the app, otherwise the exit code (0 after --help/--version, 2 on bad usage).
int parse_args(int argc, char** argv, Options& opt);

// "normlab: cannot open s.json: …"; a reader's own "cannot read \"d\": it is a directory…" as it is.
void print_open_error(const std::string& error);

// Runs that a script drives (--frames, --export-plot, --check-layout).
bool scripted_run(const Options& opt);

}  // namespace normlab::ui
