// The main menu bar (File, View, Help), its pop-ups, and the app-wide keyboard shortcuts.
// Per frame: draw_main_menu() first, then the labs, then draw_popups() (modal pop-ups come last
// so that no window appears behind a modal opened in the same frame).
#pragma once

#include "shell_state.hpp"

namespace normlab::ui {

void draw_main_menu(AppContext& ctx);

// About, This lab, Keyboard shortcuts: opened on the requests in ui.
void draw_popups(AppContext& ctx);

}  // namespace normlab::ui
