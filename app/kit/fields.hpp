// Fields the user types into: checked number fields (a refused value never reaches the session),
// the labs' sliders, and text fields over a session value.
#pragma once

#include <normlab/base/number_rule.hpp>

#include <imgui.h>

#include <string>
#include <string_view>

namespace normlab::ui {

// [SECTION] Checked numbers -----------------------------------------------------------------
//
// A number the user types can be anything: Dear ImGui 1.86 lets a slider be Ctrl+clicked and a
// drag double-clicked, and reads "-3", "0", "1e999" (inf) or "/0" (divide the old value: NaN
// from 0); ImGuiSliderFlags_AlwaysClamp clamps silently and lets NaN through. So every double
// field goes through its rule (core's number_rule.hpp, the same one scene files are read with):
// a refused value never reaches the session, the field keeps its last valid value, and a red line
// under it says why, e.g. "✗ δ = 0 is out of range [0.001, 1000]; kept 1.000", until the field
// takes a valid value. Int sliders need no rule: ImGuiSliderFlags_AlwaysClamp keeps them in range.

// The message slot of a field: the ImGui ID of `id` in the current ID stack. A grid of entries
// shares one slot (its message names the entry).
inline ImGuiID field_slot(const char* id) { return ImGui::GetID(id); }

// After a widget edited a copy of v into `edited` (changed: it reported a change): when `rule`
// accepts the value, v takes it and the slot's message goes; otherwise v stays and the slot
// keeps number_problem's message for `name`. Returns whether v changed.
bool accept_number(ImGuiID slot, std::string_view name, bool changed, double edited, double& v, const NumberRule& rule);

// The slot's message, if it has one, in red on its own line(s), wrapped at `width` pixels (0: the
// available width).
void field_message(ImGuiID slot, float width = 0.0f);
// The slot's message as text ("" when it has none), for tests.
std::string field_message_text(ImGuiID slot);

// A log-scale slider of a double over its rule's range, whose format carries its name ("lr
// %.3g"): a checked_number, so a value typed in (Ctrl+click) that the rule refuses is not taken,
// and the message under it calls it `name`. `width` in pixels, `help` its tooltip.
void log_slider(const char* id, const char* name, double& v, const NumberRule& rule, const char* format, float width,
                const char* help);

// The labs' ε: a log-scale slider from 10⁻¹² to 1 labelled "ε", checked against kLabEpsRule.
void eps_slider(double& eps, const char* help);

// "precision: (•) float32 ( ) float64" on one line, for a lab that trains models (mlp.hpp's
// Precision): f32 true when float32 is chosen. `then` ends both tooltips ("The runs start again.").
void precision_radios(bool& f32, const char* then);

// An int slider over [lo, hi] (log scale when `log`) whose format carries its name ("%d layers");
// a typed value is clamped to [lo, hi].
void int_slider(const char* id, int& v, int lo, int hi, const char* format, bool log, float width, const char* help);

// pRMSNorm's p, a fraction, on a log-scale slider in percent, 1% to 100% (`format` "%.2f %%");
// `help` is its tooltip. Returns whether it changed *p (use with checked_number and kFractionRule:
// a typed 0% or 150% is refused there).
bool percent_slider(const char* label, double* p, const char* format, const char* help);

// One checked field: edit(double* value) draws the widget (and its tooltip) on a copy of v and
// returns whether it changed it; then accept_number, and the message under the field, as wide as
// the field: the two are one group, so an item put on the same line goes beside the field.
//     checked_number("δ", s.delta, kExplorerDeltaRule, [&](double* v) {
//         const bool changed = ImGui::SliderScalar("δ", ImGuiDataType_Double, v, &lo, &hi, "%.4g");
//         tooltip("…");
//         return changed;
//     });
template <class Edit>
bool checked_number(const char* name, double& v, const NumberRule& rule, Edit&& edit) {
    const ImGuiID slot = field_slot(name);
    ImGui::BeginGroup();
    double value = v;
    const bool changed = edit(&value);
    const bool accepted = accept_number(slot, name, changed, value, v, rule);
    field_message(slot, ImGui::GetItemRectSize().x);
    ImGui::EndGroup();
    return accepted;
}

// A text field over a value the session holds (a list of numbers, a path, a prompt): it shows
// the value's text unless the user is typing, or their last entry was refused (`error`, set by
// the caller) and the value has not changed since.
struct TextField {
    std::string text;        // what the field holds
    std::string error;       // why the last entry was refused; empty when it was taken
    std::string shown_for;   // the value's text when the last entry was made (EnterOnly: last shown)
    bool editing = false;    // the field has the keyboard
};

// When what the user typed becomes an entry.
enum class TextEntry {
    EnterOrLeave,   // Enter, or the focus leaving after an edit
    // Enter only; what was typed stays in the field (a draft) until Enter, the value changes,
    // or the caller applies f.text itself (a Load button beside it).
    EnterOnly,
};

// Draws the field (its width from SetNextItemWidth; hint may be null) for the value whose text
// is `shown`. True when the user made an entry (`entry`): the caller reads f.text, applies it
// or sets f.error.
bool text_field(const char* id, const char* hint, TextField& f, const std::string& shown,
                TextEntry entry = TextEntry::EnterOrLeave);

}  // namespace normlab::ui
