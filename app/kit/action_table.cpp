#include "action_table.hpp"

#include "input_queue.hpp"
#include "ui_util.hpp"

#define GLFW_INCLUDE_NONE   // key codes only
#include <GLFW/glfw3.h>
#include <imgui.h>

namespace normlab::ui {

static_assert(kShift == GLFW_MOD_SHIFT && kCtrl == GLFW_MOD_CONTROL && kAlt == GLFW_MOD_ALT);

std::string key_label(Key key) {
    std::string out;
    if (key.mods & kCtrl) out += "Ctrl+";
    if (key.mods & kAlt) out += "Alt+";
    if (key.mods & kShift) out += "Shift+";
    if (key.code == GLFW_KEY_SPACE) return out + "Space";
    if (key.code >= GLFW_KEY_F1 && key.code <= GLFW_KEY_F25) return out + "F" + std::to_string(key.code - GLFW_KEY_F1 + 1);
    if (key.code == GLFW_KEY_MINUS) return out + "−";
    return out + static_cast<char>(key.code);   // letters, digits, '='
}

std::string action_tooltip(const Action& a) {
    std::string out = a.what != nullptr ? std::string(a.what) + ". " : "";
    if (a.help != nullptr) out += a.help;
    return out + " (key " + key_label(a.key) + ")";
}

bool action_button(LabContext& ctx, const Action& a, const char* label) {
    const bool enabled = a.enabled == nullptr || a.enabled(ctx);
    ImGui::BeginDisabled(!enabled);
    const bool pressed = ImGui::Button(label != nullptr ? label : a.label);
    ImGui::EndDisabled();
    tooltip(action_tooltip(a).c_str());
    if (pressed) a.apply(ctx);
    return pressed;
}

float action_button_width(const Action& a) { return button_width(a.label); }

bool keys_free() { return !ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel); }

void handle_action_keys(LabContext& ctx, const Actions& actions) {
    if (!keys_free() || ImGui::GetIO().WantTextInput) return;
    for (const Action* a : actions) {
        for (int n = key_presses(a->key.code, a->key.mods); n > 0; --n)
            if (a->enabled == nullptr || a->enabled(ctx)) a->apply(ctx);
    }
}

std::vector<KeyHelp> action_key_help(const Actions& actions) {
    std::vector<KeyHelp> out;
    for (const Action* a : actions) out.push_back({key_label(a->key), a->what != nullptr ? a->what : a->label});
    return out;
}

}  // namespace normlab::ui
