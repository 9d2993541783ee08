// normlab: the runs a script drives: --export-plot, --frame-stats, --check-layout,
// --check-figures, --text-log.
#include "run_modes.hpp"

#include "labs.hpp"
#include "lecture.hpp"
#include "export_menus.hpp"
#include "plot_export.hpp"

#include <normlab/base/file_io.hpp>
#include <normlab/base/stats.hpp>
#include <normlab/scene/scene_plots.hpp>

#include "gl.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cfloat>
#include <cstdio>
#include <iostream>
#include <set>

namespace normlab::ui {

namespace {
const FrameStats::Clock::time_point g_process_start = FrameStats::Clock::now();   // --frame-stats: time to first frame
}  // namespace

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
            // A refused target (a FIFO, a device, no such folder) is bad input, as "exists" is: exit 2.
            std::fprintf(stderr, "normlab: cannot save the plot: %s\n", err.c_str());
            return 2;
        }
    }
    std::fprintf(stderr, "normlab: unknown plot '%s' (plots: %s)\n", opt.export_plot.c_str(),
                 names.empty() ? "none yet, no lab has figures" : names.c_str());
    return 2;
}

namespace {

double ms(FrameStats::Clock::time_point from, FrameStats::Clock::time_point to) {
    return std::chrono::duration<double, std::milli>(to - from).count();
}
nlohmann::json summary(const std::vector<double>& t) {
    return {{"frames", t.size()}, {"p50_ms", percentile(t, 0.5)}, {"p95_ms", percentile(t, 0.95)},
            {"max_ms", t.empty() ? 0.0 : *std::max_element(t.begin(), t.end())}};
}
}  // namespace

void FrameStats::frame_starts(int group, int lab) {
    const Clock::time_point now = Clock::now();
    close_frame(now);
    group_ = static_cast<std::size_t>(group);
    lab_[group_] = lab;
    started_ = now;
    open_ = true;
}

void FrameStats::first_frame_shown() {
    glFinish();
    first_frame_ms_ = ms(g_process_start, Clock::now());
}

std::string FrameStats::finish(const std::string& renderer) {
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

void FrameStats::close_frame(Clock::time_point now) {
    if (open_) times_ms_[group_].push_back(ms(started_, now));
    open_ = false;
}

namespace {

constexpr int kSettleFrames = 6;

// Resizes the window to w × h and waits (up to 2 s) until the window system has done it.
bool resize_window(GLFWwindow* window, int w, int h) {
    glfwSetWindowSize(window, w, h);
    for (int i = 0; i < 200; ++i) {
        glfwWaitEventsTimeout(0.01);
        int cw = 0, ch = 0, fw = 0, fh = 0;
        glfwGetWindowSize(window, &cw, &ch);
        glfwGetFramebufferSize(window, &fw, &fh);
        if (cw == w && ch == h && fw > 0 && fh > 0) return true;
    }
    return false;
}

// Lays out one page (a lab, or slide ≥ 0 of the lecture) for kSettleFrames frames and adds the
// last frame's problems to the report (none without one: a reference page for --dropped), and
// the figure labels and values of `reference` it lacks; returns its texts.
std::vector<ui::TextBox> check_page(GLFWwindow* window, const Options& opt, const std::string& theme, ui::AppContext& ctx, ui::Fonts& fonts,
                                    Look& look, ImGuiIO& io, int lab, int slide, ui::LayoutReport* report,
                                    const std::vector<ui::TextBox>* reference, std::string& log) {
    if (slide >= 0) ui::go_to_slide(ctx, slide);
    if (lab >= 0) ctx.app.select_lab = lab;
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
    where.slide = slide + 1;
    where.size = std::to_string(w) + "x" + std::to_string(h);
    where.scale = ui_scale(window, opt);
    where.theme = theme;
    if (report == nullptr) return texts;
    if (!opt.text_log.empty())
        log += "## " + where.lab + (slide >= 0 ? " slide " + std::to_string(slide + 1) : "") + " " + where.size + "\n" +
               TextLog::lines(texts, opt.text_boxes);
    ui::add_problems(*report, where, texts);
    if (reference != nullptr)
        for (ui::TextBox& t : ui::dropped_texts(*reference, texts)) report->dropped.push_back({where, {std::move(t)}});
    return texts;
}

}  // namespace

void apply_theme_option(const std::string& theme, const Options& opt, AppUi& ui) {
    ui.dark = theme == "dark";
    ui.projector = theme == "projector";
    ui.font_px = ui.projector && !opt.font_given ? kProjectorFontPx : opt.font_px;
}

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
    std::string log;   // --text-log: every page's texts
    std::vector<std::pair<int, int>> sizes{{0, 0}};   // the window's own first, then --size's others
    sizes.insert(sizes.end(), opt.more_sizes.begin(), opt.more_sizes.end());
    int w0 = 0, h0 = 0;
    glfwGetWindowSize(window, &w0, &h0);
    if (opt.dropped || !opt.more_themes.empty()) sizes[0] = {w0, h0};   // the window is resized before it
    std::vector<std::string> themes{opt.theme};
    themes.insert(themes.end(), opt.more_themes.begin(), opt.more_themes.end());
    for (const std::string& theme : themes) {
        apply_theme_option(theme, opt, ctx.app);
        // --dropped: every page at 1920x1080 first (in this theme), then the sizes.
        std::vector<std::vector<ui::TextBox>> reference;
        if (opt.dropped) {
            if (!resize_window(window, 1920, 1080)) {
                std::fprintf(stderr, "normlab: --check-layout: the window did not take the size 1920x1080\n");
                return 2;
            }
            for (const Page& page : pages)
                reference.push_back(check_page(window, opt, theme, ctx, fonts, look, io, page.lab, page.slide, nullptr, nullptr, log));
        }
        for (const auto& [size_w, size_h] : sizes) {
            if (size_w > 0 && !resize_window(window, size_w, size_h)) {
                std::fprintf(stderr, "normlab: --check-layout: the window did not take the size %dx%d\n", size_w, size_h);
                return 2;
            }
            for (std::size_t i = 0; i < pages.size(); ++i)
                check_page(window, opt, theme, ctx, fonts, look, io, pages[i].lab, pages[i].slide, &report,
                           reference.empty() ? nullptr : &reference[i], log);
        }
    }
    if (!opt.text_log.empty()) {
        try {
            write_file_atomically(opt.text_log, log, IfExists::Replace);   // the run's own named file
        } catch (const std::exception& e) {
            std::fprintf(stderr, "normlab: --text-log: %s\n", e.what());
            return 2;
        }
    }
    std::cout << (opt.json ? ui::report_json(report) : ui::report_text(report)) << std::flush;
    return report.overlaps.empty() && report.clipped.empty() && report.split_numbers.empty() && report.dropped.empty() ? 0 : 1;
}

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

std::string TextLog::lines(std::vector<TextBox> texts, bool boxes) {
    std::stable_sort(texts.begin(), texts.end(), [](const ui::TextBox& a, const ui::TextBox& b) {
        return a.box.y != b.box.y ? a.box.y < b.box.y : a.box.x < b.box.x;
    });
    std::string text;
    for (const ui::TextBox& t : texts) {
        if (boxes) {
            char box[96];
            std::snprintf(box, sizeof box, "%.0f %.0f %.0f %.0f\t", t.box.x, t.box.y, t.box.z, t.box.w);
            text += box;
        }
        text += t.text + "\n";
    }
    return text;
}

void TextLog::write(std::vector<TextBox> texts) {
    std::string text = lines(std::move(texts), boxes_);
    if (text == last_) return;
    last_ = text;
    try {
        write_file_atomically(path_, text, IfExists::Replace);   // the run's own named file
    } catch (const std::exception& e) {
        std::fprintf(stderr, "normlab: --text-log: %s\n", e.what());
    }
}

}  // namespace normlab::ui
