// What every lab is given to draw with, and what it tells the Help menu about itself.
#pragma once

#include "app_state.hpp"
#include "theme_fonts.hpp"

#include <normlab/scene/session.hpp>

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

// Help ▸ Keyboard shortcuts: one of a lab's keys ("E", "Shift+R", "Space") and what it does.
// Each lab builds its list from the same table its key handler reads (Lab::keys, labs.hpp).
struct KeyHelp {
    std::string keys;
    std::string action;
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

}  // namespace normlab::ui
