// Scenes in the app: File ▸ Open scene…, Save scene, Save scene as…, Recent files; the autosave;
// undo and redo of every edit. The file format and its checks are core's (normlab/scene/scene.hpp).
//
// [SECTION] State      — SessionIo: the open scene's title, caption and file; history; autosave
// [SECTION] Start/stop — restoring the last session, the autosave on exit
// [SECTION] Per frame  — keys, edit tracking (undo steps), the autosave timer
// [SECTION] Menus      — File and Edit items, the path dialogs
//
// Undo: core's SessionHistory (normlab/scene/scene_history.hpp) snapshots the session when an edit ends —
// in a frame after user input in which no widget is active and no mouse button is down — so a
// slider drag, a typed number or a dragged point is one step. Labs draw from the session and
// never change it by themselves (docs/ARCHITECTURE.md, Data flow).
// Autosave: every kAutosaveSeconds, when the scene's text differs from what was last written,
// and on exit; atomically (temp file + rename), so a crash or kill -9 loses at most a few seconds.
#pragma once

#include "shell_state.hpp"

#include <normlab/scene/scene.hpp>
#include <normlab/scene/scene_history.hpp>

#include <string>
#include <vector>

namespace normlab::ui {

// [SECTION] State ---------------------------------------------------------------------------

inline constexpr double kAutosaveSeconds = 3.0;
inline constexpr std::size_t kRecentLimit = 8;

// SessionIo: the open scene, its files and dialogs, undo history (shell_state.hpp).

// $XDG_DATA_HOME/normlab/autosave.json, else ~/.local/share/normlab/autosave.json ("" without HOME).
std::string default_autosave_file();
// $XDG_CONFIG_HOME/normlab/recent.json, else ~/.config/normlab/recent.json ("" without HOME).
std::string default_recent_file();

// The scene on screen: title, caption, the lab's id and the session.
Scene current_scene(const AppContext& ctx);

// After View ▸ Language: the open scene's title and caption in the interface's language, where the
// file has them (docs/LECTURES.md, Languages); the texts as shown first go back to their keys.
void show_scene_language(SessionIo& io);

// [SECTION] Start/stop ----------------------------------------------------------------------

// Reads the recent list (when io.recent_file is set).
void load_recent(SessionIo& io);

// Replaces the session, title, caption and lab by the scene's; caption_override, when not empty,
// replaces the scene's caption (a lecture slide's). Returns "" or why not (the session is then
// untouched). Adds the file to the recent list when `remember`.
std::string open_scene_file(AppContext& ctx, const std::string& path, const std::string& caption_override = "",
                            bool remember = true);

// A note for the user: `line` for stderr (English: scripts read it), `shown` for the status line
// (in the user's language where it has one). Both empty: nothing to say.
struct UserNote {
    std::string line, shown;
};

// Makes io.autosave_file this run's own: locks FILE.lock; when another running NormLab holds it,
// or the lock file is a symbolic link or not a regular file (never followed nor used), takes the
// first free of FILE-2.json … FILE-9.json instead and says so ("Another NormLab (pid 4711) keeps
// autosave.json: this window autosaves to autosave-2.json"). With none free, the autosave is off
// and the note says so.
UserNote claim_autosave(SessionIo& io);

// Restores io.autosave_file when it exists. A file that cannot be read is moved aside to
// autosave.json.corrupt (it would be overwritten otherwise; a lab's section refused: copied), or
// autosave.json-2.corrupt, … when taken: nothing is replaced, a link there is not written
// through. The status line says so.
void restore_autosave(AppContext& ctx);

// Writes the autosave now if the scene changed since the last one (by the timer). A failure is
// shown in the menu bar (AppUi::autosave_warning) until it works again or the reason changes;
// the status line stays the user's. Returns false when it failed. With io.keep_previous (a run
// started from --scene or --lecture), the first write first copies a different session the file
// holds to autosave-previous.json (-2, -3, …) and says so; when that copy fails, so does the autosave.
bool autosave_now(AppContext& ctx);

// When `file` holds something other than `text`, copies it to autosave-previous.json beside it
// (or the first free of autosave-previous-2.json, …; nothing replaced, no link written through)
// and returns that name; "" when there is nothing to keep. Throws std::runtime_error when the
// file cannot be read or the copy written.
std::string keep_previous_autosave(const std::string& file, const std::string& text);

// The last autosave, on exit (window closed, Quit, a signal, a lost X connection): a line for stderr that says
// what was saved where, or why not; "" when there is no autosave.
std::string final_autosave(AppContext& ctx);

// Whether the app may end now that the user asked (window closed, Quit): the autosave is
// written first; when it fails, a dialog asks (Quit without saving / Save scene as… / Cancel)
// and this returns false until the user chose to quit.
bool may_quit(AppContext& ctx);

// [SECTION] Per frame -----------------------------------------------------------------------

// Ctrl+O, Ctrl+S, Ctrl+Shift+S, Ctrl+Z, Ctrl+Shift+Z / Ctrl+Y. Call after ImGui::NewFrame().
void handle_session_keys(AppContext& ctx);

// Edit tracking and the autosave timer; call once per frame after the labs were drawn.
void track_session(AppContext& ctx, double now);

// When the autosave timer next has work (glfwGetTime seconds): its due time while the scene
// differs from what the autosave holds, else infinity (an idle loop need not wake for it).
double autosave_due(const AppContext& ctx);

void undo(AppContext& ctx);
void redo(AppContext& ctx);
bool can_undo(const AppContext& ctx);
bool can_redo(const AppContext& ctx);

// [SECTION] Menus ---------------------------------------------------------------------------

// File ▸ Open scene…, Save scene, Save scene as…, Recent scenes, Open lecture…
void draw_file_menu_items(AppContext& ctx);
// Edit ▸ Undo, Redo.
void draw_edit_menu(AppContext& ctx);
// The path dialogs; call where pop-ups are drawn (after the labs).
void draw_session_dialogs(AppContext& ctx);

}  // namespace normlab::ui
