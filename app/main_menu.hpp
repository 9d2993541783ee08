// The main menu bar (File, View, Help), its pop-ups, and the app-wide keyboard shortcuts.
// Per frame: draw_main_menu() first, then the labs, then draw_popups() (modal pop-ups come last
// so that no window appears behind a modal opened in the same frame).
#pragma once

#include "explorer_lab.hpp"

#include <string>

namespace normlab::ui {

// What the app learned at start-up and shows in the menu bar.
struct AppInfo {
    std::string gl_version;       // GL_VERSION
    std::string renderer;         // GL_RENDERER
    bool has_gl43 = false;        // compute shaders and timer queries (the GPU lab)
    std::string font_warning;     // empty when DejaVu Sans loaded
};

// App-wide display state; the main loop acts on the requests.
struct AppUi {
    int font_px = kDefaultFontPx;   // fonts are rebuilt between frames when it changes
    bool dark = false;
    bool quit = false;              // File ▸ Quit, Ctrl+Q
    bool save_screenshot = false;   // File ▸ Save screenshot, F12: capture after this frame renders
    bool relayout = true;           // place the lab windows to fill the window (start, resize, View ▸ Reset)
    bool open_about = false;        // pop-up requests, honoured outside the menu's ID stack
    bool open_lab_help = false;
    bool open_shortcuts = false;
    std::string status;             // last message shown at the right of the menu bar
};

void draw_main_menu(AppUi& ui, ExplorerUi& explorer, const AppInfo& info);

// About, This lab, Keyboard shortcuts: opened on the requests in ui.
void draw_popups(AppUi& ui);

}  // namespace normlab::ui
