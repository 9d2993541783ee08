// Lecture mode: full screen (F11), presenter view (F5: the slide alone, slide.hpp), a lecture — an
// ordered list of scenes (assets/lectures/*.json) — stepped through with ← / → (or a clicker's
// Page Up / Page Down) with a "3 / 7" counter, and a pointer highlight that follows the mouse.
//
// [SECTION] State
// [SECTION] Lectures and slides
// [SECTION] Per frame — keys, the pointer, the window mode
#pragma once

#include "shell_state.hpp"
#include "slide.hpp"

#include <normlab/scene/scene.hpp>

#include <imgui.h>

#include <optional>
#include <set>
#include <string>
#include <vector>

struct GLFWwindow;

namespace normlab::ui {

// [SECTION] State ---------------------------------------------------------------------------

// LectureUi: the open lecture, the slide on screen, the window mode (shell_state.hpp).

// [SECTION] Lectures and slides -------------------------------------------------------------

// Opens the lecture and its first slide (or `slide`, 0-based, clamped). Returns "" or why not
// (the lecture on screen, if any, stays).
std::string open_lecture_file(AppContext& ctx, const std::string& path, int slide = 0);

// Opens slide i of the open lecture (clamped to the slides).
void go_to_slide(AppContext& ctx, int i);

// After View ▸ Language: the open scene's title and caption, the slide's own caption, the
// slide list's titles and the status line's slide and lecture title in the new language, at once
// (not at the next slide); whether each slide fits is checked again (its words' lengths changed).
void show_language(AppContext& ctx);

// [SECTION] Per frame -----------------------------------------------------------------------

// F5 presenter, F11 full screen, F6 pointer, ←/→/Page Up/Page Down slides, Esc leaves presenter
// view. Call after ImGui::NewFrame().
void handle_lecture_keys(AppContext& ctx);

// View ▸ items: Presenter view, Full screen, Pointer highlight, slides.
void draw_lecture_menu_items(AppContext& ctx);

// The pointer highlight, over everything (call last in the frame).
void draw_pointer(const AppContext& ctx);

// Makes the window full screen on its monitor or restores its size, as ctx.lecture asks.
// Call between frames.
void apply_window_mode(GLFWwindow* window, LectureUi& lecture);

}  // namespace normlab::ui
