// The shell's state beside the labs' (the open scene and its undo history, the lecture and the
// slide on screen) and AppContext, the context the shell's functions take: LabContext, what
// every lab gets, plus every lab's UI struct and the shell's own state. Labs never see it
// (docs/ARCHITECTURE.md, Layers).
#pragma once

#include "labs.hpp"

#include <normlab/base/file_io.hpp>
#include <normlab/scene/lecture_edit.hpp>
#include <normlab/scene/scene.hpp>
#include <normlab/scene/scene_history.hpp>

#include <imgui.h>

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace normlab::ui {

// A box on screen, in window pixels.
struct SlideRect {
    ImVec2 min, max;
    float width() const { return max.x - min.x; }
    float height() const { return max.y - min.y; }
};


// What the last slide drew, in window pixels: each figure's and each named control's box
// (`--probe-controls` checks that every widget lies in one of them).
struct SlideBox {
    bool figure = true;   // else a control
    std::string id;
    SlideRect rect;
};


struct SessionIo {
    // The scene on screen.
    std::string title, caption;      // shown in presenter view; saved with the scene
    // The file's own title and caption, its language and translations (docs/LECTURES.md,
    // Languages); `shown_language`: the language title and caption were picked in, whose key an
    // edit of them goes back to when saved.
    std::string own_title, own_caption, language, shown_language;
    Translations translations;
    std::string path;                // the file it came from or was last saved to; empty: none

    // File dialogs: a path field and a folder listing (no native dialogs).
    // ExportFolder: a folder, not a file: File ▸ Export folder… (plot_export.hpp's export_folder).
    // SaveLecture: where the lecture a user edits is placed (its copy of a shipped one, or a new one).
    enum class Dialog { None, OpenScene, SaveScene, OpenLecture, ExportFolder, SaveLecture };
    Dialog open_request = Dialog::None;   // honoured by draw_session_dialogs
    Dialog dialog = Dialog::None;         // the one on screen
    std::string path_field;
    int dialog_opened = 0;                // counts openings: the path field's ImGui ID, so that each
                                          // opening starts with its text selected (ImGui keeps a
                                          // field's cursor for an ID it saw last)
    std::string dialog_error;             // why the last try failed, shown in the dialog

    std::vector<std::string> recent;      // absolute paths, most recent first
    std::string recent_file;              // where they are kept; empty: not kept (scripted runs)

    std::string autosave_file;            // empty: no autosave (scripted runs without --autosave)
    std::string autosaved_text;           // what the file holds now, as far as this run knows
    double next_autosave = -1.0;          // glfw time; < 0: set by the first track_session
    std::string autosave_error;           // why the last autosave failed (no temp file names); "" when it worked
    FileLock autosave_lock;               // autosave_file + ".lock": this run's, while it runs
    bool keep_previous = false;           // started from --scene / --lecture: the first autosave
                                          // keeps a different session the file holds (autosave_now)

    // Quitting while the autosave fails: the "Quit without saving?" dialog.
    bool ask_quit = false;                // the dialog is on screen
    bool quit_confirmed = false;          // the user chose to quit anyway

    SessionHistory history;
    std::string assets_dir;               // the shipped scenes and lectures: assets/

    // Data files a scene names outside its folder and assets/: not read until the user agrees
    // in the "Read files outside the scene's folder?" dialog (docs/ARCHITECTURE.md, File safety).
    std::vector<SceneDataFile> pending_files;
    std::string pending_scene;            // the scene's file name, for the dialog
    // Reads refused since (a data file that now leads outside: swapped for a link after the scene
    // opened), as {path, where it leads}: the "A data file now leads outside…" dialog asks about
    // them; declined_targets are not asked about again.
    std::vector<std::pair<std::string, std::string>> refused_reads;
    std::vector<std::string> declined_targets;
};


// What a slide's scene says of it without computing anything (slide.hpp, slide_heads): its lab
// (kLabs index; -1: the scene cannot be opened), title and caption.
struct SlideHead {
    int lab = -1;
    std::string title, caption;
};

// What Lecture ▸ Add this view as a slide… makes of the view on screen (lecture_writer.hpp).
struct SlideDraft {
    std::string title, caption;
    std::vector<std::string> figures, controls;   // names of the lab's (SlideNames)
};

// An edit of the lecture that waits for the user to place their copy (a shipped lecture, or
// none open): done once the Place your lecture dialog saved it.
struct PendingLectureEdit {
    LectureEditKind kind = LectureEditKind::Add;
    SlideDraft draft;   // Add
    int from = 0, to = 0;
};

// The lecture writer (lecture_writer.hpp): the open lecture's edits and the panel's state.
struct LectureWriter {
    LectureHistory edits;                // the open lecture as edited, with undo
    bool panel = false;                  // the Slides panel is shown (Lecture ▸ Slide list)
    bool open_add = false;               // the add dialog opens next frame
    SlideDraft draft;                    // what the add dialog holds
    int draft_lab = -1;                  // the lab the draft is for (kLabs index)
    std::optional<PendingLectureEdit> pending;
};

struct LectureUi {
    std::optional<Lecture> lecture;   // the open lecture; none: ←/→ do nothing
    std::string lecture_file;
    int slide = 0;                    // index into lecture->slides of the slide on screen
    int slide_lab = -1;               // the lab the slide opened (kLabs index)
    std::vector<SlideBox> boxes;      // what the slide on screen drew (presenter view)
    std::set<std::string> large_figures;   // text figures drawn in Fonts::large (they fit)
    std::string slide_error;          // why the slide on screen could not be opened
    std::string warning;              // what opening the lecture found: unknown keys
    std::vector<SlideHead> heads;     // per slide
    ImVec2 fit_size;                  // the window size fit_problems are for
    std::vector<std::string> fit_problems;   // per slide: "" or why it would clip at fit_size (UI language)
    LectureWriter writer;

    bool fullscreen = false;          // what the window is (set by apply_window_mode)
    bool want_fullscreen = false;     // what the user asked for (F11, View ▸ Full screen)
    int windowed[4] = {0, 0, 0, 0};   // x, y, width, height to restore

    bool pointer = false;             // the pointer highlight (F6)
    std::optional<ImVec2> pointer_at; // scripted runs: draw it here instead of at the mouse
};


// What the shell's functions take. `io` and `lecture` are null in tools without scenes.
struct AppContext : LabContext {
    LabUis& uis;
    SessionIo* io = nullptr;
    LectureUi* lecture = nullptr;
};

}  // namespace normlab::ui
