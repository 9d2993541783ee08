// Lecture mode (see lecture.hpp).
//
// [SECTION] Lectures and slides
// [SECTION] Keys and menu items
// [SECTION] Pointer highlight
// [SECTION] Full screen
#include "lecture.hpp"

#include "input_queue.hpp"
#include "labs.hpp"
#include "session_io.hpp"
#include "slide.hpp"
#include "ui_util.hpp"

#include <normlab/base/i18n.hpp>
#include <normlab/base/input_error.hpp>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cfloat>
#include <cstdio>
#include <filesystem>
#include <string>

namespace normlab::ui {

// [SECTION] Lectures and slides -------------------------------------------------------------

std::string open_lecture_file(AppContext& ctx, const std::string& path, int slide) {
    if (ctx.lecture == nullptr || ctx.io == nullptr) return "this window has no lecture mode";
    try {
        Lecture lecture = load_lecture(path);
        std::vector<SlideHead> heads = slide_heads(lecture);
        if (const std::string bad = check_slide_names(lecture, heads); !bad.empty()) throw InputError(path + ": " + bad);
        ctx.lecture->writer.edits.reset(lecture);   // edited from here (lecture_writer.hpp)
        ctx.lecture->writer.pending.reset();
        ctx.lecture->lecture = std::move(lecture);
        ctx.lecture->heads = std::move(heads);
        ctx.lecture->fit_problems.clear();   // laid out again at the next slide drawn
    } catch (const InputError& e) {
        ctx.app.status = tr("⚠ Not opened: {0}", e.what());
        return e.what();
    }
    ctx.lecture->lecture_file = path;
    go_to_slide(ctx, slide);
    const std::vector<std::string>& ignored = ctx.lecture->lecture->ignored;
    std::string& warning = ctx.lecture->warning;
    warning.clear();
    std::string keys;
    for (const std::string& key : ignored) keys += (keys.empty() ? "" : ", ") + key;
    if (!keys.empty()) {
        const std::string file = std::filesystem::path(path).filename().string();
        warning = file + ": unknown keys ignored: " + keys + " (docs/LECTURES.md lists every key)";   // stderr: English
        std::fprintf(stderr, "normlab: warning: %s\n", warning.c_str());
        ctx.app.status = "⚠ " + tr("{0}: unknown keys ignored: {1} (docs/LECTURES.md lists every key)", file, keys);
    }

    return "";
}

namespace {

// The status line on a slide: "Slide 3 / 9 · the lecture's title", and what did not fit on it.
std::string slide_status(const LectureUi& lec) {
    const auto at = static_cast<std::size_t>(lec.slide);
    return tr("Slide {0} / {1}", lec.slide + 1, static_cast<int>(lec.lecture->slides.size())) +
           (lec.lecture->title.empty() ? "" : " · " + shown_title(*lec.lecture)) +
           (at < lec.fit_problems.size() && !lec.fit_problems[at].empty() ? " · ⚠ " + lec.fit_problems[at] : "");
}

}  // namespace

void show_language(AppContext& ctx) {
    if (ctx.io != nullptr) show_scene_language(*ctx.io);
    LectureUi* lec = ctx.lecture;
    if (lec == nullptr || !lec->lecture) return;
    lec->heads = slide_heads(*lec->lecture);
    lec->fit_problems.clear();   // the captions' lengths changed: laid out again at the next slide drawn
    if (!lec->slide_error.empty() || ctx.io == nullptr) return;
    const std::string caption = shown_caption(lec->lecture->slides[static_cast<std::size_t>(lec->slide)]);
    if (!caption.empty()) ctx.io->caption = caption;
    if (ctx.app.status.empty()) ctx.app.status = slide_status(*lec);   // unless the switch had a problem to say
}

void go_to_slide(AppContext& ctx, int i) {
    LectureUi& lec = *ctx.lecture;
    if (!lec.lecture) return;
    const int count = static_cast<int>(lec.lecture->slides.size());
    lec.slide = std::clamp(i, 0, count - 1);
    const LectureSlide& slide = lec.lecture->slides[static_cast<std::size_t>(lec.slide)];
    lec.slide_error = open_scene_file(ctx, slide.scene, shown_caption(slide), false);
    lec.slide_lab = ctx.app.select_lab;
    if (lec.slide_error.empty() && lec.slide_lab >= 0) {   // its run, if it has one, as the slide says
        if (const Lab& lab = kLabs[lec.slide_lab]; lab.set_playing != nullptr)
            lab.set_playing(ctx, ctx.uis, slide.run == SlideRun::Auto);
    }
    if (lec.slide_error.empty()) ctx.app.status = slide_status(lec);
}

// [SECTION] Keys and menu items -------------------------------------------------------------

namespace {

void step(AppContext& ctx, int by) {
    if (ctx.lecture != nullptr && ctx.lecture->lecture) go_to_slide(ctx, ctx.lecture->slide + by);
}

}  // namespace

void handle_lecture_keys(AppContext& ctx) {
    if (ctx.lecture == nullptr || !keys_free()) return;
    LectureUi& lec = *ctx.lecture;
    const ImGuiIO& io = ImGui::GetIO();
    const auto pressed = [](int key) { return key_presses(key, 0) > 0; };
    if (pressed(GLFW_KEY_F5)) ctx.app.presenter = !ctx.app.presenter;
    if (pressed(GLFW_KEY_F11)) lec.want_fullscreen = !lec.want_fullscreen;
    if (pressed(GLFW_KEY_F6)) lec.pointer = !lec.pointer;
    if (io.WantTextInput || ImGui::IsAnyItemActive()) return;   // keys that text fields use
    if (ctx.app.presenter && pressed(GLFW_KEY_ESCAPE)) ctx.app.presenter = false;
    if (!lec.lecture) return;
    if (pressed(GLFW_KEY_RIGHT) || pressed(GLFW_KEY_PAGE_DOWN)) step(ctx, +1);
    if (pressed(GLFW_KEY_LEFT) || pressed(GLFW_KEY_PAGE_UP)) step(ctx, -1);
    if (pressed(GLFW_KEY_HOME)) go_to_slide(ctx, 0);
    if (pressed(GLFW_KEY_END)) go_to_slide(ctx, static_cast<int>(lec.lecture->slides.size()) - 1);
}

void draw_lecture_menu_items(AppContext& ctx) {
    if (ctx.lecture == nullptr) return;
    LectureUi& lec = *ctx.lecture;
    ImGui::MenuItem(tr("Presenter view"), "F5", &ctx.app.presenter);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", tr("The slide alone: the scene's title and caption, its figures as large as the window allows and "
                                   "only the controls the lecture names"));
    ImGui::MenuItem(tr("Full screen"), "F11", &lec.want_fullscreen);
    ImGui::MenuItem(tr("Pointer highlight"), "F6", &lec.pointer);
    if (lec.lecture) {
        const int count = static_cast<int>(lec.lecture->slides.size());
        const std::string label =
            tr("Slides: {0}  ({1} / {2})", lec.lecture->title.empty() ? std::string(tr("lecture")) : shown_title(*lec.lecture),
               lec.slide + 1, count);
        if (ImGui::BeginMenu(label.c_str())) {
            if (ImGui::MenuItem(tr("Next slide"), "→", false, lec.slide + 1 < count)) step(ctx, +1);
            if (ImGui::MenuItem(tr("Previous slide"), "←", false, lec.slide > 0)) step(ctx, -1);
            ImGui::Separator();
            int go = -1;
            for (int i = 0; i < count; ++i) {
                const std::string name = std::to_string(i + 1) + ".  " +
                                         lec.lecture->slides[static_cast<std::size_t>(i)].scene.substr(
                                             lec.lecture->slides[static_cast<std::size_t>(i)].scene.find_last_of('/') + 1);
                if (ImGui::MenuItem(name.c_str(), nullptr, i == lec.slide)) go = i;
            }
            ImGui::Separator();
            if (ImGui::MenuItem(tr("Close lecture"))) {
                lec.lecture.reset();
                lec.writer.pending.reset();   // an edit waiting for its place goes with it
            }

            ImGui::EndMenu();
            if (go >= 0) go_to_slide(ctx, go);
        }
    }
}

// [SECTION] Pointer highlight ---------------------------------------------------------------

void draw_pointer(const AppContext& ctx) {
    if (ctx.lecture == nullptr || !ctx.lecture->pointer) return;
    ImVec2 at = ImGui::GetIO().MousePos;
    if (ctx.lecture->pointer_at) at = *ctx.lecture->pointer_at;
    if (at.x <= -FLT_MAX / 2.0f || at.y <= -FLT_MAX / 2.0f) return;   // the mouse is outside the window
    const float r = 1.6f * ImGui::GetFontSize();
    ImDrawList* dl = ImGui::GetForegroundDrawList();
    dl->AddCircleFilled(at, r, IM_COL32(255, 200, 0, 96), 48);             // translucent yellow
    dl->AddCircle(at, r, to_u32(colors::kPointer, 220), 48, std::max(2.0f, 0.12f * ImGui::GetFontSize()));
}

// [SECTION] Full screen ---------------------------------------------------------------------

namespace {

// The monitor that holds the centre of the window, else the primary one.
GLFWmonitor* monitor_of(GLFWwindow* window) {
    int wx = 0, wy = 0, ww = 0, wh = 0;
    glfwGetWindowPos(window, &wx, &wy);
    glfwGetWindowSize(window, &ww, &wh);
    const int cx = wx + ww / 2, cy = wy + wh / 2;
    int count = 0;
    GLFWmonitor** monitors = glfwGetMonitors(&count);
    for (int i = 0; i < count; ++i) {
        int mx = 0, my = 0;
        glfwGetMonitorPos(monitors[i], &mx, &my);
        const GLFWvidmode* mode = glfwGetVideoMode(monitors[i]);
        if (mode != nullptr && cx >= mx && cx < mx + mode->width && cy >= my && cy < my + mode->height) return monitors[i];
    }
    return glfwGetPrimaryMonitor();
}

}  // namespace

void apply_window_mode(GLFWwindow* window, LectureUi& lec) {
    if (lec.want_fullscreen == lec.fullscreen) return;
    if (lec.want_fullscreen) {
        GLFWmonitor* monitor = monitor_of(window);
        const GLFWvidmode* mode = monitor != nullptr ? glfwGetVideoMode(monitor) : nullptr;
        if (mode == nullptr) {
            lec.want_fullscreen = false;   // no monitor to fill (a headless display without RandR)
            return;
        }
        glfwGetWindowPos(window, &lec.windowed[0], &lec.windowed[1]);
        glfwGetWindowSize(window, &lec.windowed[2], &lec.windowed[3]);
        glfwSetWindowMonitor(window, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
    } else {
        glfwSetWindowMonitor(window, nullptr, lec.windowed[0], lec.windowed[1], std::max(lec.windowed[2], 320),
                             std::max(lec.windowed[3], 240), GLFW_DONT_CARE);
    }
    lec.fullscreen = lec.want_fullscreen;
}

}  // namespace normlab::ui
