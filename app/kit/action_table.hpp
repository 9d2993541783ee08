// One action table for every lab: each row is a button, a key and a line of Help ▸ Keyboard
// shortcuts, so that the three cannot disagree. The keys come from the input queue
// (input_queue.hpp): a tap shorter than a frame acts once; holding the key does not repeat it
// (a held Space would toggle Play at the system's repeat rate).
//
//     const Action kActions[] = {
//         {"Reset", {'R'}, nullptr, "Back to step 0, paused.", [](LabContext& ctx) { ... }},
//     };
//     action_button(ctx, kActions[0]);          // the button, its tooltip "… (key R)"
//     Actions my_lab_actions() { return all_actions(kActions); }   // Lab::actions (labs.hpp)
//
// The lab host (labs.cpp) handles the keys of the lab on screen before drawing it, while no
// pop-up or menu is open and no text field has the keyboard.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace normlab::ui {

struct LabContext;   // lab.hpp

inline constexpr int kShift = 0x0001;   // GLFW_MOD_SHIFT
inline constexpr int kCtrl = 0x0002;    // GLFW_MOD_CONTROL
inline constexpr int kAlt = 0x0004;     // GLFW_MOD_ALT

// A key and the modifiers held with it. Letters are 'A'..'Z' (GLFW's codes for them), the space
// bar ' '; other keys by their GLFW code.
struct Key {
    int code = 0;
    int mods = 0;
};

// "E", "Shift+R", "Space", "Ctrl+Z": as tooltips and Help ▸ Keyboard shortcuts show it.
std::string key_label(Key key);

// Help ▸ Keyboard shortcuts: one key ("E", "Shift+R", "Space") and what it does.
struct KeyHelp {
    std::string keys;
    std::string action;
};

struct Action {
    const char* label;    // the button's text; also the Help line when `what` is null
    Key key;
    const char* what;     // what it does, for the Help line and the start of the tooltip; may be null
    const char* help;     // the tooltip after `what` (without the key); null: a key without a button
    void (*apply)(LabContext& ctx);
    bool (*enabled)(LabContext& ctx) = nullptr;   // null: always; otherwise the button is greyed, the key ignored
};

using Actions = std::vector<const Action*>;

template <std::size_t N>
Actions all_actions(const Action (&table)[N]) {
    Actions out;
    for (const Action& a : table) out.push_back(&a);
    return out;
}

// The button's tooltip: "what. help (key E)".
std::string action_tooltip(const Action& a);

// The action's button, labelled `label` (when the label follows the state, e.g. "Pause"; an ImGui
// "###id" keeps its ID) or the action's own, with its tooltip; greyed when not enabled. Returns
// whether it applied the action.
bool action_button(LabContext& ctx, const Action& a, const char* label = nullptr);

// The width of action_button(a) (to fit a row).
float action_button_width(const Action& a);

// Applies each action once per press of its key this frame, unless
// a pop-up or menu is open, a text field has the keyboard, or the action is not enabled.
void handle_action_keys(LabContext& ctx, const Actions& actions);

// No pop-up or menu is open (the menu bar keeps the keyboard after a menu was used): keys act.
bool keys_free();

// Help ▸ Keyboard shortcuts: the table's keys and what they do.
std::vector<KeyHelp> action_key_help(const Actions& actions);

}  // namespace normlab::ui
