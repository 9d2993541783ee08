// normlab: the desktop app's main and its frame loop (App: one frame, from input to swap). The
// command line: app_options.cpp; the window: app_window.cpp; scripted runs: run_modes.cpp.
#include "app_options.hpp"
#include "app_window.hpp"
#include "control_probe.hpp"
#include "frame_pacer.hpp"
#include "input_queue.hpp"
#include "labs.hpp"
#include "language.hpp"
#include "lecture.hpp"
#include "lecture_writer.hpp"
#include "export_menus.hpp"
#include "quit_signals.hpp"
#include "run_modes.hpp"
#include "screenshot.hpp"
#include "session_io.hpp"
#include "font_atlas.hpp"
#include "theme_fonts.hpp"
#include "ui_util.hpp"
#include "web_page.hpp"

#include <normlab/base/file_io.hpp>
#include <normlab/base/i18n.hpp>
#include <normlab/base/latest_box.hpp>
#include <normlab/base/input_error.hpp>
#include <normlab/scene/scene.hpp>
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
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace {

using namespace normlab;

using namespace normlab::ui;

// The window's close button, File ▸ Quit, SIGINT, SIGTERM, SIGHUP or SIGQUIT: true when the frame loop ends now.
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

// Scenes: --scene or --lecture, else the last session. Scripted runs leave the user's autosave
// and recent files alone unless --autosave names a file. Returns "" or why the scene cannot be
// opened.
std::string open_start_scene(ui::AppContext& ctx, const Options& opt) {
    ui::SessionIo& scene_io = *ctx.io;
    const bool scripted = scripted_run(opt);
    scene_io.assets_dir = NORMLAB_ASSETS_DIR;
    scene_io.autosave_file = !opt.autosave.empty() ? opt.autosave : scripted ? "" : ui::default_autosave_file();
    scene_io.recent_file = scripted ? "" : ui::default_recent_file();
    const ui::UserNote autosave_note = ui::claim_autosave(scene_io);   // a second NormLab: its own file
    ui::load_recent(scene_io);
    std::string error;
    if (!opt.scene.empty())
        error = ui::open_scene_file(ctx, opt.scene, "", !scripted);
    else if (!opt.lecture.empty())
        error = ui::open_lecture_file(ctx, opt.lecture, opt.slide - 1);
    else
        ui::restore_autosave(ctx);
    scene_io.keep_previous = !opt.scene.empty() || !opt.lecture.empty();   // the last session is not replaced unseen
    if (error.empty() && !autosave_note.line.empty()) {
        std::fprintf(stderr, "normlab: %s\n", autosave_note.line.c_str());
        ctx.app.status = autosave_note.shown;
    }
    return error;
}

// What the command line asks of the app's and the lecture's display state (after the start scene).
void apply_options(const Options& opt, ui::AppUi& ui, ui::LectureUi& lecture) {
    if (opt.lab_given) ui.select_lab = opt.lab;
    ui.presenter = opt.presenter;
    ui::apply_theme_option(opt.theme, opt, ui);
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
        language_file_ = scripted_run(opt_) ? "" : ui::default_language_file();
        const Language lang = ui::start_language(opt_.lang, language_file_, ui::lecture_language(opt_.lecture));
        if (const std::string problem = ui::use_language(lang, kI18nDir); !problem.empty()) {
            std::fprintf(stderr, "normlab: %s\n", problem.c_str());
            ui_.status = "⚠ " + problem;
        }
        fonts_.han = ui::lecture_language(opt_.lecture).value_or(lang);
        ui::watch_glyphs(&fonts_);
        load_fonts(fonts_, ui_.font_px);
        info_ = query_gl(fonts_);
        info_.scripted = (opt_.frames > 0 && !opt_.frame_stats) || opt_.check_layout;   // timed runs: as a user has them
        if (!fonts_.warning.empty()) std::fprintf(stderr, "normlab: %s\n", tr(fonts_.warning.c_str()));   // a terminal draws CJK
        ui_.select_lab = opt_.lab;
        if (const std::string open_error = open_start_scene(ctx_, opt_); !open_error.empty()) {   // checked at start-up already; the file changed since
            print_open_error(open_error);
            return 2;
        }
        apply_options(opt_, ui_, lecture_);
        if (const std::string error = ui::run_lecture_script(ctx_, opt_.edit_lecture); !error.empty()) {
            std::fprintf(stderr, "normlab: --edit-lecture: %s\n", error.c_str());
            return 2;
        }
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
        const bool switched = ui::apply_language_request(ui_, kI18nDir, language_file_);   // View ▸ Language, live
        if (switched) ui::show_language(ctx_);
        // Han characters in the open lecture's forms, else the UI language's (docs/LECTURES.md, Languages).
        const Language han = lecture_.lecture ? parse_language(lecture_.lecture->language).value_or(current_language())
                                              : current_language();
        if (switched || han != fonts_.han) {
            fonts_.han = han;
            fonts_.stale = true;
        }
        update_look(look_, fonts_, ui_, ui_scale(window_, opt_));
        info_.font_warning = fonts_.warning;   // fonts-noto-cjk missing, the atlas at its limit
        if (!fonts_.notice.empty()) ui_.status = "⚠ " + std::exchange(fonts_.notice, std::string());   // once
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
#ifndef __EMSCRIPTEN__
        if (!scene_io_.autosave_file.empty())   // what a lost X connection found on another thread saves
            ui::publish_session(scene_io_.autosave_file, scene_to_text(ui::current_scene(ctx_)), scene_io_.keep_previous);
#endif
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
                return end_now(2);   // a refused target is bad input, as for --export-plot
            }
        }
        if (ui_.save_screenshot) {
            const std::string name = timestamped_png_name();
            const std::string err = ui::save_back_buffer_png(name, fb_w, fb_h, IfExists::Refuse);
            ui_.status = err.empty() ? tr("Saved {0}", name) : "⚠ " + err;

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
#ifndef __EMSCRIPTEN__
        ui::die_of_quit_signal();   // SIGQUIT: saved, now the core dump the user asked for
#endif
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
    TextLog text_log_{opt_.text_log, opt_.text_boxes};
    const std::vector<ui::SlideBox> no_boxes_;
    std::optional<int> end_code_;
    std::string language_file_;   // View ▸ Language's choice, remembered here ("" in scripted runs)
    static constexpr const char* kI18nDir = NORMLAB_ASSETS_DIR "/i18n";
};

// Runs until the window closes, Quit, or opt.frames frames; returns the exit code.
int run(GLFWwindow* window, const Options& opt, ui::InputQueue& input) {
    App app(window, opt, input);
    if (const int code = app.start(); code >= 0) return code;
#ifndef __EMSCRIPTEN__
    ui::on_display_lost([&app] { return ui::final_autosave(app.context()); });
#endif
    while (app.frame()) {
    }
#ifndef __EMSCRIPTEN__
    ui::on_display_lost(nullptr);   // from here on finish() says what was saved
#endif
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
    GLFWwindow* window = create_window(initial_window_size(opt), opt.export_plot.empty() && !opt.check_layout);
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
    // Tab shows a keyboard focus; arrows move it, Space and Enter press it, Esc closes a menu
    // (the input queue keeps Space and the arrows for the app until a focus shows).
    ImGui::GetIO().ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
    ImGui::GetIO().ConfigDragClickToInputText = true;   // one click in a number field types; a drag drags
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