// Checked number fields, sliders and text fields (see fields.hpp).
#include "fields.hpp"

#include "screen_text.hpp"

#include <normlab/base/i18n.hpp>

#include <imgui_stdlib.h>

#include <cstring>
#include <unordered_map>

namespace normlab::ui {

namespace {

// The messages of fields whose last typed value was refused, by slot. Display state of the
// widgets, kept the way Dear ImGui keeps its own per-item state (by ID, for the app's life);
// an entry goes when its field takes a valid value, or when the value it kept changed some
// other way (a scene opened, undo, a key or button of the lab): then the message no longer says
// what the field holds. The message is written when it is drawn, so that it follows a change of
// the UI's language.
struct Refused {
    std::string name;                // the field's name in the message ("δ", "x₃")
    double refused = 0.0;            // the value typed, and the rule that refused it
    NumberRule rule;
    const double* value = nullptr;   // the value the message is about, and what it held then
    double kept = 0.0;
};
std::unordered_map<ImGuiID, Refused> g_refused;

std::string message(const Refused& r) {
    const std::string problem = unicode_minus(number_problem(r.name, r.refused, r.rule));
    return "✗ " + normlab::tr("{0}; kept {1}", problem, fmt_value(r.kept));
}

}  // namespace

bool accept_number(ImGuiID slot, std::string_view name, bool changed, double edited, double& v,
                   const NumberRule& rule) {
    if (!changed) {
        const auto it = g_refused.find(slot);
        if (it != g_refused.end() && it->second.value == &v && std::memcmp(&it->second.kept, &v, sizeof v) != 0)
            g_refused.erase(it);
        return false;
    }
    if (!rule_accepts(rule, edited)) {
        g_refused[slot] = {std::string(name), edited, rule, &v, v};
        return false;
    }
    g_refused.erase(slot);
    const bool moved = edited != v;
    v = edited;
    return moved;
}

void field_message(ImGuiID slot, float width) {
    const auto it = g_refused.find(slot);
    if (it != g_refused.end()) flow_text(message(it->second), kErrorText, width);
}

std::string field_message_text(ImGuiID slot) {
    const auto it = g_refused.find(slot);
    return it != g_refused.end() ? message(it->second) : std::string();
}

void log_slider(const char* id, const char* name, double& v, const NumberRule& rule, const char* format, float width,
                const char* help) {
    ImGui::SetNextItemWidth(width);
    checked_number(name, v, rule, [&](double* value) {
        const bool changed = ImGui::SliderScalar(id, ImGuiDataType_Double, value, &rule.lo, &rule.hi, format,
                                                 ImGuiSliderFlags_Logarithmic);
        tooltip(help);
        return changed;
    });
}

void eps_slider(double& eps, const char* help) {
    checked_number("ε", eps, kLabEpsRule, [help](double* v) {
        const double lo = 1e-12, hi = 1.0;
        const bool changed =
            ImGui::SliderScalar("ε", ImGuiDataType_Double, v, &lo, &hi, "%.1e", ImGuiSliderFlags_Logarithmic);
        tooltip(help);
        return changed;
    });
}

void int_slider(const char* id, int& v, int lo, int hi, const char* format, bool log, float width, const char* help) {
    ImGui::SetNextItemWidth(width);
    ImGui::SliderInt(id, &v, lo, hi, format, ImGuiSliderFlags_AlwaysClamp | (log ? ImGuiSliderFlags_Logarithmic : 0));
    tooltip(help);
}

bool percent_slider(const char* label, double* p, const char* format, const char* help) {
    double percent = 100.0 * *p;
    const double lo = 1.0, hi = 100.0;
    const bool changed = ImGui::SliderScalar(label, ImGuiDataType_Double, &percent, &lo, &hi, format,
                                             ImGuiSliderFlags_Logarithmic);
    tooltip(help);
    if (changed) *p = percent / 100.0;
    return changed;
}

void precision_radios(bool& f32, const char* then) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(normlab::tr("precision:"));
    ImGui::SameLine();
    if (ImGui::RadioButton("float32", f32)) f32 = true;
    tooltip((std::string(normlab::tr("float32, the fast path: its matrix products on AVX2 + FMA where the CPU has them, several "
                                     "times faster than float64; its losses agree with float64's to about 5 digits.")) +
             " " + then).c_str());
    ImGui::SameLine();
    if (ImGui::RadioButton("float64", !f32)) f32 = false;
    tooltip((std::string(normlab::tr("float64, the reference: the numbers normlab-cli train and depth print by default, bit for "
                                     "bit.")) +
             " " + then).c_str());

}

bool text_field(const char* id, const char* hint, TextField& f, const std::string& shown, TextEntry entry) {
    if (entry == TextEntry::EnterOnly) {
        if (shown != f.shown_for) {   // the value changed (an entry taken, a scene): show it
            f.text = f.shown_for = shown;
            f.error.clear();
        }
        const bool enter = ImGui::InputTextWithHint(id, hint, &f.text, ImGuiInputTextFlags_EnterReturnsTrue);
        f.editing = ImGui::IsItemActive();
        return enter;
    }
    if (!f.error.empty() && shown != f.shown_for) f.error.clear();   // the value changed elsewhere
    if (!f.editing && f.error.empty()) f.text = shown;
    ImGui::InputTextWithHint(id, hint, &f.text);
    f.editing = ImGui::IsItemActive();
    if (!ImGui::IsItemDeactivatedAfterEdit()) return false;
    f.shown_for = shown;
    return true;
}

}  // namespace normlab::ui
