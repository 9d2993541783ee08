// One action table for every lab: each row is a button, a key and a line of Help ▸ Keyboard
// shortcuts, so that the three cannot disagree. The keys come from the input queue
// (input_queue.hpp): a tap shorter than a frame acts once; holding the key does not repeat it
// (a held Space would toggle Play at the system's repeat rate).
//
// The table is written for the context the lab's functions take (`Context`: labs/lab.hpp's
// LabContextOf<ItsUi>), so an action reaches that lab's own display state and no other's; the
// kit knows nothing of labs (docs/ARCHITECTURE.md, Layers).
//
//     const Action<TrainingContext> kActions[] = {
//         {"Reset", {'R'}, nullptr, "Back to step 0, paused.", [](TrainingContext& ctx) { ... }},
//     };
//     action_button(ctx, kActions[0]);          // the button, its tooltip "… (key R)"
//     auto my_lab_actions() { return all_actions(kActions); }   // the lab's row (labs.cpp)
//
// The lab host (labs.cpp) handles the keys of the lab on screen before drawing it, while no
// pop-up or menu is open and no text field has the keyboard.
#pragma once

#include "input_queue.hpp"

#include <normlab/base/i18n.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace normlab::ui {

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

template <class Context>
struct Action {
    const char* label;    // the button's text; also the Help line when `what` is null
    Key key;
    const char* what;     // what it does, for the Help line and the start of the tooltip; may be null
    const char* help;     // the tooltip after `what` (without the key); null: a key without a button
    void (*apply)(Context& ctx);
    bool (*enabled)(Context& ctx) = nullptr;   // null: always; otherwise the button is greyed, the key ignored
};

template <class Context>
using Actions = std::vector<const Action<Context>*>;

template <class Context, std::size_t N>
Actions<Context> all_actions(const Action<Context> (&table)[N]) {
    Actions<Context> out;
    for (const Action<Context>& a : table) out.push_back(&a);
    return out;
}

// The button's tooltip: "what. help (key E)".
std::string action_tooltip(const char* what, const char* help, Key key);
template <class Context>
std::string action_tooltip(const Action<Context>& a) { return action_tooltip(a.what, a.help, a.key); }

// A button labelled `label`, greyed unless `enabled`, with its tooltip; whether it was pressed.
bool action_button(const char* label, bool enabled, const std::string& tooltip);

// The action's button, labelled `label` (when the label follows the state, e.g. "Pause"; an ImGui
// "###id" keeps its ID) or the action's own, with its tooltip; greyed when not enabled. Returns
// whether it applied the action.
template <class Context>
bool action_button(Context& ctx, const Action<Context>& a, const char* label = nullptr) {
    const bool pressed = action_button(tr(label != nullptr ? label : a.label), a.enabled == nullptr || a.enabled(ctx),
                                       action_tooltip(a));
    if (pressed) a.apply(ctx);
    return pressed;
}

// The width of action_button(a) (to fit a row).
float action_button_width(const char* label);
template <class Context>
float action_button_width(const Action<Context>& a) { return action_button_width(tr(a.label)); }

// No pop-up or menu is open (the menu bar keeps the keyboard after a menu was used): keys act.
bool keys_free();

// keys_free() and no text field has the keyboard: a lab's keys act.
bool action_keys_free();

// Applies each action once per press of its key this frame, unless
// a pop-up or menu is open, a text field has the keyboard, or the action is not enabled.
template <class Context>
void handle_action_keys(Context& ctx, const Actions<Context>& actions) {
    if (!action_keys_free()) return;
    for (const Action<Context>* a : actions) {
        for (int n = key_presses(a->key.code, a->key.mods); n > 0; --n)
            if (a->enabled == nullptr || a->enabled(ctx)) a->apply(ctx);
    }
}

// Help ▸ Keyboard shortcuts: the table's keys and what they do.
template <class Context>
std::vector<KeyHelp> action_key_help(const Actions<Context>& actions) {
    std::vector<KeyHelp> out;
    for (const Action<Context>* a : actions) out.push_back({key_label(a->key), tr(a->what != nullptr ? a->what : a->label)});
    return out;
}

}  // namespace normlab::ui
