// normlab: what the session files share (private to session_io.cpp, session_autosave.cpp,
// session_undo.cpp and session_dialogs.cpp).
#pragma once

#include "session_io.hpp"

#include <normlab/base/file_io.hpp>

#include <string>

namespace normlab::ui::session_detail {

// "~/x" → "$HOME/x"; surrounding spaces dropped.
std::string expand_path(std::string path);

std::string absolute_path(const std::string& path);

// "s.json" of "/a/b/s.json".
std::string file_name(const std::string& path);

// Creates the folder that will hold `file`; "" or why not.
std::string make_parent_dir(const std::string& file);

// Display state that holds text the session no longer has.
void forget_rejected_text(AppContext& ctx);

// Replaces what is on screen by the scene (nothing may fail from here on). Returns a warning
// when the scene's lab is not one of this NormLab's (the lab on screen then stays).
std::string show_scene(AppContext& ctx, Scene scene, const std::string& caption_override);

// Saves the scene on screen to `path`; "" or why not (also said on the status line).
std::string save_to(AppContext& ctx, const std::string& path, IfExists if_exists);

// Whether `path` is one of NormLab's shipped files (under assets/, wherever links lead).
bool shipped_file(const SessionIo& io, const std::string& path);

// A modal pop-up in the middle of the window, width_em font sizes wide (at most the window).
bool begin_centered_modal(const char* name, float width_em);

// "x₂ = 5 (Explorer)": a step's name with its lab's tab.
std::string step_text(const StepName& name);

}  // namespace normlab::ui::session_detail
