// The page (docs/ARCHITECTURE.md, "The web build"): what the browser build does where the
// desktop has a process, a command line, a home folder and a window of its own. Compiled into
// the page only (web_page.cpp); the desktop includes this header for nothing.
//
// - Arguments: the page's URL becomes the command line (web_index.html): ?lab=NAME → --lab NAME,
//   a scene in the URL's fragment → --scene FILE, ?lecture=NAME&presenter → --lecture … --presenter.
// - Storage: ~/.local/share/normlab (the autosave) and ~/.config/normlab live in IndexedDB
//   (emscripten's IDBFS, mounted and loaded before main, written back after every change).
// - Frames: the browser calls one per animation frame, drawn only when due (input, a run, a
//   worker's results; frame_pacer.hpp); the canvas follows the browser window.
// - Signals: a page gets none (quit_signals.hpp answers 0).
// - Test hook: normlab_explorer_json() (JavaScript: Module.ccall) returns the Explorer's state
//   and numbers as the page computes them, for tests/web to hold against normlab-cli eval.
#pragma once

#ifdef __EMSCRIPTEN__
#include "shell_state.hpp"

#include <functional>

struct GLFWwindow;

namespace normlab::ui {

// Before anything else in main: where the page keeps its files.
void prepare_page();

// The app's frames as the page drives them.
struct PageFrames {
    std::function<bool()> frame;    // one frame; false when the app has ended
    std::function<bool()> due;      // whether this animation frame should draw (frame_pacer.hpp)
    std::function<long()> skipped;  // animation frames not drawn so far
};

// Hands the frame loop to the browser: at each animation frame where `due` (or the canvas was
// resized), `frame` runs, until it returns false (then the page says that NormLab has ended); an
// idle page draws nothing and the canvas keeps its picture. Returns at once.
void run_page_frames(GLFWwindow* window, AppContext& ctx, PageFrames frames);

// File ▸ items of the page: open a scene from the user's disk, download the scene, copy a link
// that holds it, download the files exported this session.
void draw_page_file_items(AppContext& ctx);

}  // namespace normlab::ui
#endif
