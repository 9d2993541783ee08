// Input that is never lost: GLFW's key, character, mouse-button, cursor and scroll callbacks
// append events to a queue that the frame loop drains once per frame.
//
// Dear ImGui 1.86 reads key and mouse *state* once per frame, so a key pressed and released
// between two frames (a 10 ms tap, a 250 ms software-rendered frame) never shows as down, and a
// click whose mouse moved before the next frame lands where the mouse is now. The queue feeds
// ImGui the way ImGui 1.87's own input queue does ("trickling"): events are applied in order until
// one would change something this frame already changed (a key's second change, a button pressed
// then released, a move after a click); that one and the rest wait for the next frame. So a press
// and its release land in different frames, and a click lands where it happened.
//
// The app's own shortcuts (action_table.hpp, the session and lecture keys) read this frame's key
// presses from the queue rather than ImGui's state: each press, and each GLFW_REPEAT of a held key
// (the system's repeat rate), acts once.
//
// Space, the arrows, Page Up/Down, Home and End belong to the app (Play, the slides) until Tab
// shows a keyboard focus on a widget; then they move and press that focus, and a click or Esc
// hides it (docs/USER_GUIDE.md, "Keys"). Tab outside a text field reaches ImGui as ↓ (Shift+Tab
// as ↑): Dear ImGui 1.86's own Tab stops only at text fields.
//
// [SECTION] Queue
// [SECTION] This frame's keys
#pragma once

#include <cstddef>
#include <deque>
#include <vector>

struct GLFWwindow;
struct ImGuiIO;

namespace normlab::ui {

// [SECTION] Queue ---------------------------------------------------------------------------

struct InputEvent {
    enum class Type { Key, Char, Button, Move, Scroll } type = Type::Key;
    int code = 0;            // Key: GLFW key; Button: GLFW mouse button
    int action = 0;          // Key, Button: GLFW_PRESS, GLFW_RELEASE or GLFW_REPEAT
    int mods = 0;            // Key: GLFW_MOD_* held (Ctrl, Shift, Alt, Super only)
    unsigned codepoint = 0;  // Char
    double x = 0.0, y = 0.0; // Move: window pixels; Scroll: the offsets
};

// A key press as the shortcuts see it: the GLFW key, the modifiers held, and whether it is a
// repeat of a held key.
struct KeyPress {
    int key = 0;
    int mods = 0;
    bool repeat = false;
};

class InputQueue {
public:
    // Takes the window's key, char, mouse-button, cursor-position and scroll callbacks (Dear
    // ImGui's GLFW backend was initialised with install_callbacks = false) and forwards focus and
    // cursor-enter to the backend. One queue per process: the callbacks find it through a global.
    void install(GLFWwindow* window);
    void uninstall();

    // Events not yet fed to ImGui: the loop draws again at once rather than waiting.
    bool pending() const { return !events_.empty(); }

    // Call between ImGui_ImplGlfw_NewFrame() and ImGui::NewFrame(): applies the events this frame
    // can take (see the header comment) to ImGui's io, and records this frame's key presses.
    // Returns whether it fed any event.
    bool feed_imgui();

    const std::vector<KeyPress>& presses() const { return presses_; }

    // For the callbacks (and tests): appends an event.
    void push(const InputEvent& e);

private:
    void set_mouse(ImGuiIO& io) const;   // the buttons and the cursor as of the events fed

    GLFWwindow* window_ = nullptr;
    std::deque<InputEvent> events_;
    std::vector<KeyPress> presses_;       // this frame's
    bool mouse_down_[5] = {};             // as fed so far
    int tab_as_ = 0;                      // the arrow a Tab held down was fed as (0: none)
    bool has_pos_ = false;                // a Move was fed: mouse_x_/mouse_y_ hold it
    float mouse_x_ = 0.0f, mouse_y_ = 0.0f;
};

// Whether the installed queue holds events not yet fed (false without one): the frame pacer's
// test for input while it waits out a paced frame.
bool input_queued();

// [SECTION] This frame's keys ---------------------------------------------------------------

// How often `key` was pressed this frame with exactly `mods` (GLFW_MOD_CONTROL | _SHIFT | _ALT;
// Caps Lock and Num Lock do not count), counting each repeat of a held key when `repeats`.
// Without an installed queue (test programs that drive ImGui's io directly), ImGui's own state:
// 1 when ImGui::IsKeyPressed(key) with those modifiers held.
int key_presses(int key, int mods, bool repeats = false);

}  // namespace normlab::ui
