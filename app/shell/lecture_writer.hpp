// The lecture writer: a lecture made in the app, without editing JSON (docs/LECTURES.md, Making a
// lecture in the app). Lecture ▸ Add this view as a slide… saves the lab on screen as a scene
// beside the lecture and adds a slide that shows it (its figures chosen from the lab's list, a
// title and caption typed in place); the Slides panel moves and deletes slides; Ctrl+Z undoes
// each of these in turn with the labs' edits (session_undo.cpp). Every edit rewrites the lecture
// file atomically (core's lecture_edit.hpp). A shipped lecture (assets/) is never written: the
// first edit asks where to place a copy (SessionIo::Dialog::SaveLecture) and edits that copy;
// with no lecture open, the first slide asks where to save a new one. The page keeps its files
// in its own storage and hands them over with the panel's Download (downloads, web_page.hpp).
//
// [SECTION] Edits — add, move, delete; placing the copy
// [SECTION] Undo  — the lecture's steps among the session's
// [SECTION] UI    — the Lecture menu, the add dialog, the Slides panel
// [SECTION] Script — --edit-lecture, the GUI test's way in
#pragma once

#include "shell_state.hpp"

#include <normlab/base/file_io.hpp>

#include <string>

namespace normlab::ui {

// [SECTION] Edits ---------------------------------------------------------------------------

// Adds the view on screen as a slide after the slide on screen (the lecture's first where none is
// open). Where the lecture is shipped or none is open, the edit waits for the user to place the
// file (the SaveLecture dialog) and this returns "". Returns "" or why not (said on the status line).
std::string add_view_as_slide(AppContext& ctx, const SlideDraft& draft);
// Moves slide `from` to index `to` / deletes slide `i` (0-based) of the open lecture; "" or why not.
std::string move_slide(AppContext& ctx, int from, int to);
std::string delete_slide(AppContext& ctx, int i);

// The SaveLecture dialog's answer: writes the lecture (the open one, or a new one) to `path`,
// which becomes the lecture's file, then makes the waiting edit. "" or why not.
std::string place_lecture(AppContext& ctx, const std::string& path, IfExists if_exists);

// [SECTION] Undo ----------------------------------------------------------------------------

// Whether Ctrl+Z (redo: Ctrl+Shift+Z) next undoes a lecture edit rather than a lab's: the
// lecture's step when no session step came after it (LectureStep::mark).
bool lecture_step_due(const AppContext& ctx, bool redo);
// "slide 3 added (Lecture)": the lecture's next step, as Edit ▸ Undo names it.
std::string lecture_step_text(const AppContext& ctx, bool redo);
// How many lecture steps there are to undo / redo (0 where the lecture cannot be written).
std::size_t lecture_steps(const AppContext& ctx, bool redo);
// Undoes / redoes the lecture's step, rewrites the file, says so on the status line.
void step_lecture(AppContext& ctx, bool redo);

// [SECTION] UI ------------------------------------------------------------------------------

// The Lecture menu: Add this view as a slide…, Slide list.
void draw_lecture_writer_menu(AppContext& ctx);
// The add dialog and the Slides panel; call where pop-ups are drawn, before draw_session_dialogs.
void draw_lecture_writer(AppContext& ctx);

// [SECTION] Script --------------------------------------------------------------------------

// --edit-lecture STEPS: the edits the panel makes, in order, separated by ";":
//   add FIG[,FIG] [| TITLE [| CAPTION]]   (the view on screen; "-" for the lab's default figures)
//   place PATH   move FROM TO   delete N   undo   redo   (slides 1-based)
//   panel   ask   (show the Slides panel / the add dialog: for screenshots and layout checks)
// Returns "" or the first step's error, e.g. `step 2 ("move 9 1"): there is no slide 9`.
std::string run_lecture_script(AppContext& ctx, const std::string& steps);

}  // namespace normlab::ui
