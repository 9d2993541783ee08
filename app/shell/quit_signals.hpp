// SIGINT and SIGTERM end the app through its frame loop, so that the last edit is autosaved
// (session_io.hpp: final_autosave) instead of lost. docs/ARCHITECTURE.md, File safety.
//
// The handler only records the signal and posts a semaphore (both async-signal-safe); a watcher
// thread then wakes the frame loop with glfwPostEmptyEvent (GLFW allows it from any thread), so
// an idle loop waiting for events notices at once. A second signal of the same kind while the
// app saves ends it at once (SA_RESETHAND): Ctrl+C twice always works.
#pragma once

namespace normlab::ui {

// Installs the handlers and starts the watcher; call after glfwInit.
void install_quit_signals();

// 0, or the first SIGINT / SIGTERM received.
int quit_signal();

// Stops the watcher (handlers stay: a late signal still only sets the flag); call before glfwTerminate.
void stop_quit_signals();

// "SIGINT", "SIGTERM".
const char* signal_name(int signal);

}  // namespace normlab::ui
