// The ways the app ends without its window's close button, each after the final autosave
// (session_io.hpp: final_autosave) instead of losing the last edit. docs/ARCHITECTURE.md, File safety.
//
// Signals: SIGINT, SIGTERM, SIGHUP (the terminal closed) and SIGQUIT end the app through its frame
// loop. The handler only records the signal and posts a semaphore (both async-signal-safe); a
// watcher thread then wakes the frame loop with glfwPostEmptyEvent (GLFW allows it from any
// thread), so an idle loop waiting for events notices at once. A second signal of the same kind
// while the app saves ends it at once (SA_RESETHAND): Ctrl+C twice always works, and a second
// SIGQUIT dumps core of a hung app. A SIGHUP or SIGQUIT ignored when the app started (nohup, a
// shell's background job without job control) stays ignored. After the save, SIGQUIT is raised again with its default
// action (die_of_quit_signal), so the process dumps core as the user asked.
//
// A lost X connection (the X server ended): Xlib calls its I/O error handler on the thread whose
// call found the connection gone and exits the process when the handler returns, so the save
// happens inside the handler. On the frame loop's thread it is the final autosave itself; on
// another thread (a worker's wake-up) the session text the frame loop last published is written
// with the same safe writer. Then one line on stderr and _exit(1).
#pragma once

#include <functional>
#include <string>

namespace normlab::ui {

// Installs the handlers and starts the watcher; call after glfwInit, on the frame loop's thread.
void install_quit_signals();

// 0, or the first SIGINT / SIGTERM / SIGHUP / SIGQUIT received.
int quit_signal();

// Stops the watcher (handlers stay: a late signal still only sets the flag); call before glfwTerminate.
void stop_quit_signals();

// "SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT".
const char* signal_name(int signal);

// When the signal received was SIGQUIT: raises it again with the default action (a core dump);
// does not return then. Call after the final autosave.
void die_of_quit_signal();

// What a lost X connection saves. `final_save` runs on the frame loop's thread and returns the
// line for stderr (final_autosave's); null: nothing to save (before the first frame, after the
// last). Install before the frame loop, clear after it.
void on_display_lost(std::function<std::string()> final_save);

// The frame loop's session after a frame: its autosave file, its text, and whether the file's
// previous session is still to be kept (keep_previous_autosave). What a lost X connection found
// on another thread writes.
void publish_session(const std::string& autosave_file, const std::string& text, bool keep_previous);

}  // namespace normlab::ui
