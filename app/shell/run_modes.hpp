// normlab: the runs a script drives rather than a user: --export-plot, --frame-stats,
// --check-layout, --check-figures and --text-log.
#pragma once

#include "app_options.hpp"
#include "app_window.hpp"
#include "layout_check.hpp"
#include "shell_state.hpp"

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

struct GLFWwindow;

namespace normlab::ui {

// --export-plot: the named figure of a lab (the first lab that has it; later labs' figures are
// not computed), offscreen at opt.scale×; returns the exit code.
int export_plot(AppContext& ctx, const Options& opt);

// --frame-stats: each frame's time, from its start to the next frame's start (the last one's to
// its end, after glFinish), grouped by the lab on screen; and the time from the process's start
// to the first frame on screen (after its swap and glFinish).
class FrameStats {
public:
    using Clock = std::chrono::steady_clock;

    explicit FrameStats(int groups) : times_ms_(static_cast<std::size_t>(groups)), lab_(times_ms_.size(), 0) {}

    // Frame start, of group `group` (0 unless --all-labs), showing lab index `lab`.
    void frame_starts(int group, int lab);
    void first_frame_shown();

    // The JSON docs/ARCHITECTURE.md names: p50/p95/max over every frame, the same per lab, first frame.
    std::string finish(const std::string& renderer);

private:
    void close_frame(Clock::time_point now);


    std::vector<std::vector<double>> times_ms_;   // [group][frame]
    std::vector<int> lab_;                        // [group]: the lab index it showed
    std::size_t group_ = 0;
    Clock::time_point started_;
    bool open_ = false;
    double first_frame_ms_ = 0.0;
};

// The theme `theme` (light, dark, projector) on the app's display state: the projector's larger
// text unless --font-scale gave a size.
void apply_theme_option(const std::string& theme, const Options& opt, AppUi& ui);

// --check-layout: each page (a lab, or a slide of --lecture) is drawn for kSettleFrames frames
// (tables and windows size themselves from the previous frame), the texts of the last one
// recorded (layout_check.hpp), at each size of --size in each theme of --theme; prints the
// problems, returns 0 when there are none, else 1.
int check_layout(GLFWwindow* window, const Options& opt, AppContext& ctx, Fonts& fonts, Look& look);

// --check-figures: the figures offered for export on screen (plot_export.hpp's notes) against the
// lab registry's names for this session (scene_plots.hpp): those the registry lacks, then the
// lab's registered ones that were not on screen. 1 when the registry lacks one.
int check_figures(const LabContext& ctx);

// --text-log FILE: the texts of the latest frame, one per line (top to bottom, then left to
// right), rewritten whenever they change. Tests drive the window with xdotool and read it.
// With --check-layout, the texts of every page checked, each page after a line
// "## <lab> [slide N] <W>x<H>", written once at the end. With --text-boxes each line starts with
// the text's box, "X0 Y0 X1 Y1\t" (window pixels).
class TextLog {
public:
    TextLog(std::string path, bool boxes) : path_(std::move(path)), boxes_(boxes) {}
    void write(std::vector<TextBox> texts);
    // The lines of `texts` in reading order (top to bottom, then left to right).
    static std::string lines(std::vector<TextBox> texts, bool boxes);

private:
    std::string path_, last_;
    bool boxes_ = false;
};

}  // namespace normlab::ui
