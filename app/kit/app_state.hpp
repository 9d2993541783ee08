// App-wide state that is not the session: what the app learned at start-up, and display state.
#pragma once

#include "plot_export.hpp"
#include "theme_fonts.hpp"

#include <memory>
#include <string>

namespace normlab::ui {


// Below this width (in text heights: 1200 px at 20 px text) the labs' areas start without their
// control panels, and a lab whose panel is shown anyway scrolls sideways instead of crushing.
inline constexpr float kControlsMinEm = 60.0f;

// What the app learned at start-up and shows in the menu bar.
struct AppInfo {
    std::string gl_version;       // GL_VERSION
    std::string renderer;         // GL_RENDERER
    bool has_gl43 = false;        // compute shaders and timer queries (the GPU lab)
    std::string font_warning;     // empty when DejaVu Sans loaded
    bool scripted = false;        // --frames N: labs that animate advance per frame, not per second
};

// App-wide display state; the main loop acts on the requests.
struct AppUi {
    int font_px = kDefaultFontPx;   // fonts are rebuilt between frames when it changes
    bool dark = false;
    bool projector = false;         // View ▸ Theme ▸ Projector: light, black on white, thicker lines (dark off)
    bool presenter = false;         // View ▸ Presenter (F5): labs hide their editing panels, keep plots
    bool quit = false;              // File ▸ Quit, Ctrl+Q
    bool save_screenshot = false;   // File ▸ Save screenshot, F12: capture after this frame renders
    bool open_about = false;        // pop-up requests, honoured outside the menu's ID stack
    bool open_lab_help = false;
    bool open_shortcuts = false;
    std::string status;             // last message shown at the right of the menu bar
    // View ▸ Control panel (F9): the labs' editing panels. Auto hides them where the labs' area is
    // narrower than kControlsMinEm text heights (a projector, a small laptop) and shows them
    // elsewhere; the user's choice wins until the window's width class changes.
    enum class Controls { Auto, Shown, Hidden } controls = Controls::Auto;
    bool controls_collapsed = false;   // set by draw_labs each frame: the panels are hidden now
    std::string autosave_warning;   // why the autosave fails; shown until it works again or the reason changes
    int lab = 0;                    // index into kLabs of the lab on screen
    int select_lab = -1;            // ≥ 0: bring that lab's tab forward next frame
    int select_language = -1;       // ≥ 0: View ▸ Language chose this normlab::Language (applied between frames)
    // File ▸ Export all figures in progress: one figure per frame, a progress bar in the menu bar.
    std::shared_ptr<FigureExport> export_job;
    bool animate = false;           // set during a frame by a lab that works on this thread: the
                                    // next frame comes at once (frame_pacer.hpp), not at the next event
};

// Whether a lab draws its editing panel this frame (not in presenter view, not collapsed).
inline bool show_controls(const AppUi& ui) { return !ui.presenter && !ui.controls_collapsed; }

}  // namespace normlab::ui
