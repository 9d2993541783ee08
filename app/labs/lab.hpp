// What every lab is given to draw with, and what it tells the Help menu about itself.
#pragma once

#include "action_table.hpp"
#include "app_state.hpp"
#include "theme_fonts.hpp"

#include <normlab/scene/session.hpp>

#include <imgui.h>

#include <string>
#include <vector>

namespace normlab::ui {

struct LabUis;     // every lab's display-only state (labs.hpp)
struct SessionIo;  // the open scene, undo, autosave (session_io.hpp)
struct LectureUi;  // lecture mode (lecture.hpp)

// Help ▸ "This lab": the equations a lab demonstrates and the core code that computes them.
struct LabInfo {
    const char* title;         // the lab's full title
    const char* equations;     // one per line
    const char* computed_by;   // core functions and their files
};

// A lab's draw function reads and edits the session (the numbers) and its own display state;
// it draws into the current window, below the lab tabs.
struct LabContext {
    Session& session;
    LabUis& uis;
    AppUi& app;
    const AppInfo& info;
    const Fonts& fonts;
    SessionIo* io = nullptr;         // null in tools without scenes (the GUI test programs)
    LectureUi* lecture = nullptr;    // null there too
};

// A presenter slide (slide.hpp) shows one or two of its lab's figures and only the controls
// its lecture file names. Each lab lists what a slide may name and draws it on request.
struct SlidePart {
    const char* id;       // the name in a lecture file: "invariance_table", "delta"
    float aspect = 1.6f;  // figures: the width ÷ height they read best at (the layout's guide)
    bool text = false;    // figures of words (a verdict): drawn in larger fonts where they fit
};

struct SlideParts {
    std::vector<SlidePart> figures;   // the first `defaults` of them: a slide that names none
    int defaults = 1;
    std::vector<SlidePart> controls;
    // Once per frame, before the figures: what the lab's draw function does besides drawing
    // (workers kept in step, the latest snapshot taken). Null: nothing.
    void (*update)(LabContext& ctx) = nullptr;
    // Draws figure `id` filling the current child window (`size`), no editing widgets.
    void (*draw_figure)(LabContext& ctx, const std::string& id, ImVec2 size) = nullptr;
    // Draws control `id` on the current line (a few em wide).
    void (*draw_control)(LabContext& ctx, const std::string& id) = nullptr;
    // Labs with a run (Training, Depth): start it or hold it at step 0 as a slide opens.
    void (*set_playing)(LabContext& ctx, bool playing) = nullptr;
};

}  // namespace normlab::ui
