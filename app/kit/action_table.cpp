// The action tables' buttons, keys and help lines (see action_table.hpp).
#include "action_table.hpp"

#include "ui_util.hpp"

#define GLFW_INCLUDE_NONE   // key codes only
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <normlab/base/i18n.hpp>

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

std::string action_tooltip(const char* what, const char* help, Key key) {
    std::string out = what != nullptr ? std::string(tr(what)) + tr(". ") : "";
    if (help != nullptr) out += tr(help);
    return out + tr(" (key {0})", key_label(key));
}

bool action_button(const char* label, bool enabled, const std::string& tooltip_text) {
    ImGui::BeginDisabled(!enabled);
    const bool pressed = ImGui::Button(label);
    ImGui::EndDisabled();
    tooltip(tooltip_text.c_str());
    return pressed;
}

float action_button_width(const char* label) { return button_width(label); }

bool keys_free() { return !ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel); }

bool action_keys_free() { return keys_free() && !ImGui::GetIO().WantTextInput; }

}  // namespace normlab::ui
