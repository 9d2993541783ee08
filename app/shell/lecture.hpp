// Lecture mode: full screen (F11), presenter view (F5) with the scene's title and caption above
// the lab and the labs' editing panels hidden (labs read ctx.app.presenter), a lecture — an
// ordered list of scenes (assets/lectures/*.json) — stepped through with ← / → (or a clicker's
// Page Up / Page Down) with a "3 / 7" counter, and a pointer highlight that follows the mouse.
//
// [SECTION] State
// [SECTION] Lectures and slides
// [SECTION] Per frame — keys, the presenter header, the pointer, the window mode
#pragma once

#include "lab.hpp"

#include <normlab/scene/scene.hpp>

#include <imgui.h>

#include <optional>
#include <string>

struct GLFWwindow;

namespace normlab::ui {

// [SECTION] State ---------------------------------------------------------------------------

struct LectureUi {
    std::optional<Lecture> lecture;   // the open lecture; none: ←/→ do nothing
    std::string lecture_file;
    int slide = 0;                    // index into lecture->slides of the slide on screen
    std::string slide_error;          // why the slide on screen could not be opened

    bool fullscreen = false;          // what the window is (set by apply_window_mode)
    bool want_fullscreen = false;     // what the user asked for (F11, View ▸ Full screen)
    int windowed[4] = {0, 0, 0, 0};   // x, y, width, height to restore

    bool pointer = false;             // the pointer highlight (F6)
    std::optional<ImVec2> pointer_at; // scripted runs: draw it here instead of at the mouse
};

// [SECTION] Lectures and slides -------------------------------------------------------------

// Opens the lecture and its first slide (or `slide`, 0-based, clamped). Returns "" or why not
// (the lecture on screen, if any, stays).
std::string open_lecture_file(LabContext& ctx, const std::string& path, int slide = 0);

// Opens slide i of the open lecture (clamped to the slides).
void go_to_slide(LabContext& ctx, int i);

// [SECTION] Per frame -----------------------------------------------------------------------

// F5 presenter, F11 full screen, F6 pointer, ←/→/Page Up/Page Down slides, Esc leaves presenter
// view. Call after ImGui::NewFrame().
void handle_lecture_keys(LabContext& ctx);

// View ▸ items: Presenter view, Full screen, Pointer highlight, slides.
void draw_lecture_menu_items(LabContext& ctx);

// In presenter view: the title, the caption and the slide counter in a band at `pos`, `width`
// wide; returns its height (0 outside presenter view).
float draw_presenter_header(LabContext& ctx, ImVec2 pos, float width);

// The pointer highlight, over everything (call last in the frame).
void draw_pointer(const LabContext& ctx);

// Makes the window full screen on its monitor or restores its size, as ctx.lecture asks.
// Call between frames.
void apply_window_mode(GLFWwindow* window, LectureUi& lecture);

}  // namespace normlab::ui
