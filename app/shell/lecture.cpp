// Lecture mode (see lecture.hpp).
//
// [SECTION] Lectures and slides
// [SECTION] Keys and menu items
// [SECTION] Presenter header
// [SECTION] Pointer highlight
// [SECTION] Full screen
#include "lecture.hpp"

#include "labs.hpp"
#include "session_io.hpp"
#include "ui_util.hpp"

#include <normlab/norm/eval.hpp>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cfloat>
#include <string>

namespace normlab::ui {

// [SECTION] Lectures and slides -------------------------------------------------------------

std::string open_lecture_file(LabContext& ctx, const std::string& path, int slide) {
    if (ctx.lecture == nullptr || ctx.io == nullptr) return "this window has no lecture mode";
    try {
        ctx.lecture->lecture = load_lecture(path);
    } catch (const InputError& e) {
        ctx.app.status = std::string("⚠ Not opened: ") + e.what();
        return e.what();
    }
    ctx.lecture->lecture_file = path;
    go_to_slide(ctx, slide);
    return "";
}

void go_to_slide(LabContext& ctx, int i) {
    LectureUi& lec = *ctx.lecture;
    if (!lec.lecture) return;
    const int count = static_cast<int>(lec.lecture->slides.size());
    lec.slide = std::clamp(i, 0, count - 1);
    const LectureSlide& slide = lec.lecture->slides[static_cast<std::size_t>(lec.slide)];
    lec.slide_error = open_scene_file(ctx, slide.scene, slide.caption, false);
    if (lec.slide_error.empty())
        ctx.app.status = "Slide " + std::to_string(lec.slide + 1) + " / " + std::to_string(count) +
                         (lec.lecture->title.empty() ? "" : " · " + lec.lecture->title);
}

// [SECTION] Keys and menu items -------------------------------------------------------------

namespace {

bool popup_open() { return ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel); }

void step(LabContext& ctx, int by) {
    if (ctx.lecture != nullptr && ctx.lecture->lecture) go_to_slide(ctx, ctx.lecture->slide + by);
}

}  // namespace

void handle_lecture_keys(LabContext& ctx) {
    if (ctx.lecture == nullptr || popup_open()) return;
    LectureUi& lec = *ctx.lecture;
    const ImGuiIO& io = ImGui::GetIO();
    const auto pressed = [](int key) { return ImGui::IsKeyPressed(key, false); };
    if (pressed(GLFW_KEY_F5)) ctx.app.presenter = !ctx.app.presenter;
    if (pressed(GLFW_KEY_F11)) lec.want_fullscreen = !lec.want_fullscreen;
    if (pressed(GLFW_KEY_F6)) lec.pointer = !lec.pointer;
    if (io.WantTextInput || ImGui::IsAnyItemActive()) return;   // keys that text fields use
    if (ctx.app.presenter && pressed(GLFW_KEY_ESCAPE)) ctx.app.presenter = false;
    if (!lec.lecture || io.KeyCtrl || io.KeyAlt) return;
    if (pressed(GLFW_KEY_RIGHT) || pressed(GLFW_KEY_PAGE_DOWN)) step(ctx, +1);
    if (pressed(GLFW_KEY_LEFT) || pressed(GLFW_KEY_PAGE_UP)) step(ctx, -1);
    if (pressed(GLFW_KEY_HOME)) go_to_slide(ctx, 0);
    if (pressed(GLFW_KEY_END)) go_to_slide(ctx, static_cast<int>(lec.lecture->slides.size()) - 1);
}

void draw_lecture_menu_items(LabContext& ctx) {
    if (ctx.lecture == nullptr) return;
    LectureUi& lec = *ctx.lecture;
    ImGui::MenuItem("Presenter view", "F5", &ctx.app.presenter);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Hides the editing panels; shows the scene's title and caption above the figures");
    ImGui::MenuItem("Full screen", "F11", &lec.want_fullscreen);
    ImGui::MenuItem("Pointer highlight", "F6", &lec.pointer);
    if (lec.lecture) {
        const int count = static_cast<int>(lec.lecture->slides.size());
        const std::string label = "Slides: " + (lec.lecture->title.empty() ? std::string("lecture") : lec.lecture->title) +
                                  "  (" + std::to_string(lec.slide + 1) + " / " + std::to_string(count) + ")";
        if (ImGui::BeginMenu(label.c_str())) {
            if (ImGui::MenuItem("Next slide", "→", false, lec.slide + 1 < count)) step(ctx, +1);
            if (ImGui::MenuItem("Previous slide", "←", false, lec.slide > 0)) step(ctx, -1);
            ImGui::Separator();
            int go = -1;
            for (int i = 0; i < count; ++i) {
                const std::string name = std::to_string(i + 1) + ".  " +
                                         lec.lecture->slides[static_cast<std::size_t>(i)].scene.substr(
                                             lec.lecture->slides[static_cast<std::size_t>(i)].scene.find_last_of('/') + 1);
                if (ImGui::MenuItem(name.c_str(), nullptr, i == lec.slide)) go = i;
            }
            ImGui::Separator();
            if (ImGui::MenuItem("Close lecture")) lec.lecture.reset();
            ImGui::EndMenu();
            if (go >= 0) go_to_slide(ctx, go);
        }
    }
}

// [SECTION] Presenter header ----------------------------------------------------------------

float draw_presenter_header(LabContext& ctx, ImVec2 pos, float width) {
    if (!ctx.app.presenter) return 0.0f;
    const ImGuiStyle& style = ImGui::GetStyle();
    const Fonts& fonts = ctx.fonts;
    const LectureUi* lec = ctx.lecture;
    const SessionIo* io = ctx.io;

    std::string title = io != nullptr ? io->title : "";
    if (title.empty()) title = kLabs[std::clamp(ctx.app.lab, 0, kLabCount - 1)].info->title;
    std::string caption = io != nullptr ? io->caption : "";
    const bool failed = lec != nullptr && !lec->slide_error.empty();
    if (failed) caption = "⚠ This slide could not be opened: " + lec->slide_error;
    std::string counter, hint;
    if (lec != nullptr && lec->lecture) {
        counter = std::to_string(lec->slide + 1) + " / " + std::to_string(lec->lecture->slides.size());
        hint = "← →";
    }
    hint += hint.empty() ? "F5: editing view" : "   F5: edit";

    // Sizes: the counter block on the right, title and caption wrapped in what is left.
    const float counter_w = std::max(counter.empty() ? 0.0f : fonts.heading->CalcTextSizeA(fonts.heading->FontSize, FLT_MAX, 0.0f, counter.c_str()).x,
                                     fonts.small->CalcTextSizeA(fonts.small->FontSize, FLT_MAX, 0.0f, hint.c_str()).x);
    const float text_w = std::max(10.0f * fonts.regular->FontSize, width - 2.0f * style.WindowPadding.x - counter_w - 2.0f * style.ItemSpacing.x);
    const float title_h = fonts.heading->CalcTextSizeA(fonts.heading->FontSize, FLT_MAX, text_w, title.c_str()).y;
    const float caption_h =
        caption.empty() ? 0.0f : style.ItemSpacing.y + fonts.regular->CalcTextSizeA(fonts.regular->FontSize, FLT_MAX, text_w, caption.c_str()).y;
    const float counter_h = (counter.empty() ? 0.0f : fonts.heading->FontSize + style.ItemSpacing.y) + fonts.small->FontSize;
    const float height = std::floor(2.0f * style.WindowPadding.y + std::max(title_h + caption_h, counter_h) + 2.0f);

    ImGui::SetNextWindowPos(pos);
    ImGui::SetNextWindowSize(ImVec2(width, height));
    constexpr ImGuiWindowFlags kFlags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                        ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus |
                                        ImGuiWindowFlags_NoFocusOnAppearing;
    ImGui::Begin("##presenter", nullptr, kFlags);
    const ImVec2 origin = ImGui::GetCursorPos();
    ImGui::PushTextWrapPos(origin.x + text_w);
    ImGui::PushFont(fonts.heading);
    ImGui::TextUnformatted(title.c_str());
    ImGui::PopFont();
    if (!caption.empty()) {
        if (failed)
            ImGui::TextColored(kErrorText, "%s", caption.c_str());
        else
            ImGui::TextUnformatted(caption.c_str());
    }
    ImGui::PopTextWrapPos();

    const float right = width - style.WindowPadding.x;
    float y = origin.y;
    if (!counter.empty()) {
        ImGui::PushFont(fonts.heading);
        ImGui::SetCursorPos(ImVec2(right - ImGui::CalcTextSize(counter.c_str()).x, y));
        ImGui::TextUnformatted(counter.c_str());
        ImGui::PopFont();
        y += fonts.heading->FontSize + style.ItemSpacing.y;
    }
    ImGui::PushFont(fonts.small);
    ImGui::SetCursorPos(ImVec2(right - ImGui::CalcTextSize(hint.c_str()).x, y));
    ImGui::TextDisabled("%s", hint.c_str());
    ImGui::PopFont();

    // A rule under the band, in the text colour: it separates the slide's words from the lab.
    const ImVec2 wpos = ImGui::GetWindowPos();
    ImGui::GetWindowDrawList()->AddLine(ImVec2(wpos.x, wpos.y + height - 1.0f), ImVec2(wpos.x + width, wpos.y + height - 1.0f),
                                        ImGui::GetColorU32(ImGuiCol_Separator), 2.0f);
    ImGui::End();
    return height;
}

// [SECTION] Pointer highlight ---------------------------------------------------------------

void draw_pointer(const LabContext& ctx) {
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
