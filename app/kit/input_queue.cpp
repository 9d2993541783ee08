// The input queue: GLFW's events in order, drained once per frame (see input_queue.hpp).
#include "input_queue.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_internal.h>   // GImGui: show or hide the keyboard focus

#include <cfloat>

namespace normlab::ui {

namespace {

InputQueue* g_queue = nullptr;   // the installed one; GLFW callbacks carry no user pointer of ours

constexpr int kModMask = GLFW_MOD_CONTROL | GLFW_MOD_SHIFT | GLFW_MOD_ALT | GLFW_MOD_SUPER;

void push(const InputEvent& e) {
    if (g_queue != nullptr) g_queue->push(e);
}

using T = InputEvent::Type;

void on_key(GLFWwindow*, int key, int, int action, int mods) {
    if (key >= 0) push({T::Key, key, action, mods & kModMask});   // not GLFW_KEY_UNKNOWN
}
void on_char(GLFWwindow*, unsigned codepoint) { push({T::Char, 0, 0, 0, codepoint}); }
void on_button(GLFWwindow*, int button, int action, int) { push({T::Button, button, action}); }
void on_move(GLFWwindow*, double x, double y) { push({T::Move, 0, 0, 0, 0, x, y}); }
void on_scroll(GLFWwindow*, double dx, double dy) { push({T::Scroll, 0, 0, 0, 0, dx, dy}); }

// What this frame changed so far, for the trickling rules (ImGui 1.87's UpdateInputEvents).
struct FrameChanges {
    bool key_changed[512] = {};
    bool key_pressed = false;   // some key went down
    bool other_pressed = false; // some key other than Shift, Ctrl, Alt, Super went down
    bool any_key = false;
    int buttons = 0;            // bit b: button b changed
    bool moved = false, wheeled = false, text = false;
    bool alt_released = false;  // may have moved the focus to the menu bar: who takes the next keys changed
};

void set_modifiers(ImGuiIO& io) {
    io.KeyCtrl = io.KeysDown[GLFW_KEY_LEFT_CONTROL] || io.KeysDown[GLFW_KEY_RIGHT_CONTROL];
    io.KeyShift = io.KeysDown[GLFW_KEY_LEFT_SHIFT] || io.KeysDown[GLFW_KEY_RIGHT_SHIFT];
    io.KeyAlt = io.KeysDown[GLFW_KEY_LEFT_ALT] || io.KeysDown[GLFW_KEY_RIGHT_ALT];
    io.KeySuper = io.KeysDown[GLFW_KEY_LEFT_SUPER] || io.KeysDown[GLFW_KEY_RIGHT_SUPER];
}

// A letter, digit or punctuation key pressed without Ctrl, Alt or Super (or released while
// ImGui does not hold it down): typing. Its text comes as Char events; Dear ImGui 1.86 reads such
// keys' state only with Ctrl (a text field's Ctrl+A, C, V, X, Z, Y), and the app's shortcuts read
// this frame's presses. So its state is not fed to ImGui and it does not end the frame's events:
// a typed word goes in within a frame or two, not two frames per character.
bool modifier_key(int code) {
    return code == GLFW_KEY_LEFT_SHIFT || code == GLFW_KEY_RIGHT_SHIFT || code == GLFW_KEY_LEFT_CONTROL ||
           code == GLFW_KEY_RIGHT_CONTROL || code == GLFW_KEY_LEFT_ALT || code == GLFW_KEY_RIGHT_ALT ||
           code == GLFW_KEY_LEFT_SUPER || code == GLFW_KEY_RIGHT_SUPER;
}

bool typing_key(const InputEvent& e, bool held_in_imgui) {
    if (e.code < GLFW_KEY_SPACE || e.code > GLFW_KEY_GRAVE_ACCENT) return false;
    if (e.action == GLFW_RELEASE) return !held_in_imgui;
    return (e.mods & (GLFW_MOD_CONTROL | GLFW_MOD_ALT | GLFW_MOD_SUPER)) == 0;
}

// Space, the arrows, Page Up/Down, Home and End: keys that both the app (Play, the slides) and
// Dear ImGui's keyboard navigation (move the focus, press the focused widget) would take.
bool nav_key(int code) { return code == GLFW_KEY_SPACE || (code >= GLFW_KEY_RIGHT && code <= GLFW_KEY_END); }

// Who takes the nav keys this frame, from what the last frame showed.
enum class NavKeys {
    App,     // nothing has the keyboard: the app's presses only, ImGui never sees them
    Both,    // a text field, a dragged widget or an open menu: ImGui gets them; the app's
             // shortcuts see them and stand aside themselves (keys_free, WantTextInput)
    ImGui,   // a widget shows the keyboard focus (Tab put it there): ImGui's alone, and Esc
             // hides the focus (not also leaving presenter view)
};

NavKeys nav_keys_owner(const ImGuiIO& io) {
    const bool menu_open = ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel);
    if (io.WantTextInput || ImGui::IsAnyItemActive() || menu_open) return NavKeys::Both;
    const bool in_menu_bar = GImGui->NavWindow != nullptr && GImGui->NavLayer == ImGuiNavLayer_Menu;   // Alt put it there
    return io.NavVisible || in_menu_bar ? NavKeys::ImGui : NavKeys::App;
}

// ImGui's alone: the nav keys while a focus shows, Space in an open menu (it chooses the item,
// which closes the menu: the app's Play must not see it after that).
bool imgui_alone(const InputEvent& e, NavKeys owner, const ImGuiIO& io) {
    return (owner == NavKeys::ImGui && nav_key(e.code)) || (owner == NavKeys::Both && !io.WantTextInput && e.code == GLFW_KEY_SPACE);
}

// Dear ImGui 1.86 has no call that shows or hides its keyboard focus; its context's flags do
// (as its own arrow keys and mouse clicks set them).
void show_focus(bool on) {
    GImGui->NavDisableHighlight = !on;
    if (on) GImGui->NavDisableMouseHover = true;   // until the mouse moves
    if (!on) GImGui->NavLayer = ImGuiNavLayer_Main;   // out of the menu bar (EndMainMenuBar gives the focus back)
}

// Alt tapped alone: Dear ImGui 1.86 then toggles the menu layer of the focused window, and a lab's
// window has none (the main menu bar is a window of its own), so Alt showed a focus in the lab
// rather than reaching the menus. The main menu bar takes the focus first; ImGui's toggle then
// enters its menus, and Alt again leaves them (EndMainMenuBar gives the focus back).
void alt_to_menu_bar(const ImGuiIO& io) {
    ImGuiContext& g = *GImGui;
    const bool alt_released = (io.KeyModsPrev & ImGuiKeyModFlags_Alt) != 0 && !io.KeyAlt;   // as NavUpdateWindowing reads it
    if (!alt_released || !g.NavWindowingToggleLayer || io.KeyCtrl || io.KeyShift || io.KeySuper ||
        io.InputQueueCharacters.Size > 0 || g.OpenPopupStack.Size > 0 || (g.ActiveId != 0 && !g.ActiveIdAllowOverlap))
        return;
    ImGuiWindow* bar = ImGui::FindWindowByName("##MainMenuBar");
    if (bar != nullptr && bar->Active && g.NavWindow != bar) ImGui::FocusWindow(bar);   // Active: drawn last frame (not presenter view)
}

}  // namespace

void InputQueue::install(GLFWwindow* window) {
    window_ = window;
    g_queue = this;
    glfwSetKeyCallback(window, on_key);
    glfwSetCharCallback(window, on_char);
    glfwSetMouseButtonCallback(window, on_button);
    glfwSetCursorPosCallback(window, on_move);
    glfwSetScrollCallback(window, on_scroll);
    // State, not events: the backend keeps them (focus lost clears ImGui's keys; the mouse is
    // reported outside the window once it left an unfocused window).
    glfwSetWindowFocusCallback(window, ImGui_ImplGlfw_WindowFocusCallback);
    glfwSetCursorEnterCallback(window, ImGui_ImplGlfw_CursorEnterCallback);
}

void InputQueue::uninstall() {
    if (window_ != nullptr) {
        glfwSetKeyCallback(window_, nullptr);
        glfwSetCharCallback(window_, nullptr);
        glfwSetMouseButtonCallback(window_, nullptr);
        glfwSetCursorPosCallback(window_, nullptr);
        glfwSetScrollCallback(window_, nullptr);
        glfwSetWindowFocusCallback(window_, nullptr);
        glfwSetCursorEnterCallback(window_, nullptr);
    }
    if (g_queue == this) g_queue = nullptr;
    window_ = nullptr;
}

void InputQueue::push(const InputEvent& e) {
    // Moves between other events are kept (a click lands where it happened); a run of moves
    // needs only its last.
    if (e.type == InputEvent::Type::Move && !events_.empty() && events_.back().type == InputEvent::Type::Move) {
        events_.back() = e;
        return;
    }
    events_.push_back(e);
}

bool InputQueue::feed_imgui() {
    ImGuiIO& io = ImGui::GetIO();
    presses_.clear();
    FrameChanges c;
    const NavKeys nav_owner = nav_keys_owner(io);
    const std::size_t queued = events_.size();
    while (!events_.empty() && !c.alt_released) {
        const InputEvent& e = events_.front();
        if (e.type == T::Move) {
            if (c.buttons != 0 || c.wheeled || c.any_key || c.text) break;
            mouse_x_ = static_cast<float>(e.x);
            mouse_y_ = static_cast<float>(e.y);
            has_pos_ = true;
            c.moved = true;
        } else if (e.type == T::Button) {
            if (e.code < 0 || e.code >= 5) {
                events_.pop_front();
                continue;
            }
            if ((c.buttons & (1 << e.code)) != 0 || c.wheeled) break;
            mouse_down_[e.code] = e.action == GLFW_PRESS;
            c.buttons |= 1 << e.code;
        } else if (e.type == T::Scroll) {
            if (c.moved || c.buttons != 0) break;
            io.MouseWheelH += static_cast<float>(e.x);
            io.MouseWheel += static_cast<float>(e.y);
            c.wheeled = true;
        } else if (e.type == T::Char) {
            // After a key went down (Backspace, then a letter: ImGui 1.86 reads the text before
            // the keys), or with the mouse: next frame.
            if (c.key_pressed || c.buttons != 0 || c.moved || c.wheeled) break;
            io.AddInputCharacter(e.codepoint);
            c.text = true;
        } else {   // Key
            // Tab outside a text field: Dear ImGui 1.86's Tab stops only at text fields, so the
            // first Tab shows the focus ImGui keeps (or, with none, feeds ↓, which puts one on
            // the first control) and the next ones are fed as ↓ (Shift+Tab as ↑), which move it
            // over every control. The release lets go of the arrow the press was fed as.
            if (e.code == GLFW_KEY_TAB && e.action != GLFW_REPEAT && (e.mods & (GLFW_MOD_CONTROL | GLFW_MOD_ALT)) == 0 &&
                (nav_owner != NavKeys::Both || tab_as_ != 0)) {
                if (e.action == GLFW_PRESS && tab_as_ == 0) {
                    if (nav_owner == NavKeys::App && GImGui->NavId != 0) {
                        show_focus(true);
                    } else {
                        tab_as_ = (e.mods & GLFW_MOD_SHIFT) != 0 ? GLFW_KEY_UP : GLFW_KEY_DOWN;
                    }
                }
                if (tab_as_ != 0) {
                    if (c.key_changed[tab_as_]) break;
                    io.KeysDown[tab_as_] = e.action == GLFW_PRESS;
                    c.key_changed[tab_as_] = true;
                    if (e.action == GLFW_RELEASE) tab_as_ = 0;
                }
                if (e.action == GLFW_PRESS) presses_.push_back({e.code, e.mods, false});
                c.any_key = true;
                events_.pop_front();
                continue;
            }
            if (e.code == GLFW_KEY_ESCAPE && e.action == GLFW_PRESS && nav_owner == NavKeys::ImGui) {
                show_focus(false);   // and nothing else: the next Esc is the app's
                events_.pop_front();
                continue;
            }
            const bool in_range = e.code < IM_ARRAYSIZE(io.KeysDown), held = in_range && io.KeysDown[e.code];
            const bool to_imgui_only = imgui_alone(e, nav_owner, io);
            // The app's alone: a press recorded, its state not fed (a release only to let go of a
            // key ImGui holds down).
            const bool to_app_only = !to_imgui_only && (typing_key(e, held) || (nav_owner == NavKeys::App &&
                                                                               nav_key(e.code) && (e.action != GLFW_RELEASE || !held)));
            if (e.action == GLFW_REPEAT) {
                if (!to_imgui_only) presses_.push_back({e.code, e.mods, true});   // ImGui repeats held keys itself
            } else if (to_app_only) {
                if (e.action == GLFW_PRESS) presses_.push_back({e.code, e.mods, false});
            } else {
                const bool down = e.action == GLFW_PRESS;
                if (in_range && c.key_changed[e.code]) break;
                if ((down && c.text) || c.buttons != 0) break;
                // A modifier that changes after a key went down waits: a 10 ms Ctrl+A tap comes as
                // Ctrl down, A down, Ctrl up, A up, and ImGui must see A with Ctrl held.
                if (modifier_key(e.code) && c.other_pressed) break;
                if (in_range) {
                    io.KeysDown[e.code] = down;
                    c.key_changed[e.code] = true;
                }
                if (down && !to_imgui_only) presses_.push_back({e.code, e.mods, false});
                c.key_pressed |= down;
                c.other_pressed |= down && !modifier_key(e.code);
                c.alt_released |= !down && (e.code == GLFW_KEY_LEFT_ALT || e.code == GLFW_KEY_RIGHT_ALT);
                c.any_key = true;
                set_modifiers(io);
            }
        }
        events_.pop_front();
    }
    set_mouse(io);
    alt_to_menu_bar(io);
    return events_.size() != queued;
}

void InputQueue::set_mouse(ImGuiIO& io) const {
    // The backend's NewFrame read the buttons and the cursor as they are now; ours are as of the
    // events fed. A mouse outside an unfocused window stays "nowhere" (-FLT_MAX).
    for (int b = 0; b < 5; ++b) io.MouseDown[b] = mouse_down_[b];
    if (has_pos_ && io.MousePos.x != -FLT_MAX) io.MousePos = ImVec2(mouse_x_, mouse_y_);
}

bool input_queued() { return g_queue != nullptr && g_queue->pending(); }

int key_presses(int key, int mods, bool repeats) {
    if (g_queue == nullptr) {
        const ImGuiIO& io = ImGui::GetIO();
        const int held = (io.KeyCtrl ? GLFW_MOD_CONTROL : 0) | (io.KeyShift ? GLFW_MOD_SHIFT : 0) |
                         (io.KeyAlt ? GLFW_MOD_ALT : 0) | (io.KeySuper ? GLFW_MOD_SUPER : 0);
        return held == mods && ImGui::IsKeyPressed(key, repeats) ? 1 : 0;
    }
    int n = 0;
    for (const KeyPress& p : g_queue->presses())
        if (p.key == key && p.mods == mods && (repeats || !p.repeat)) ++n;
    return n;
}

}  // namespace normlab::ui
