// Small helpers shared by the labs and widgets: colours, numbers on screen, tooltips, keys.
#pragma once

#include "theme_fonts.hpp"   // to_u32

#include <normlab/base/line_break.hpp>
#include <normlab/base/number_rule.hpp>
#include <normlab/base/text.hpp>

#include <imgui.h>

#include <string>
#include <string_view>
#include <vector>

namespace normlab::ui {

// A number for captions and tooltips: 3 decimals between 0.01 and 10⁴ ("5.000"), otherwise
// 4 significant digits in scientific form ("2.236e−03"); minus signs are U+2212.
std::string fmt_value(double v);

// A tick label: up to 6 significant digits, no trailing zeros ("0.5", "200", "1e−05").
std::string fmt_tick(double v);


// One-sentence explanation (with its formula) for the last item, shown while it is hovered.
void tooltip(const char* text);

// Text colours with a meaning, legible on the light and the dark theme.
inline const ImVec4 kErrorText(0.75f, 0.05f, 0.05f, 1.0f);   // something went wrong, or a check failed
inline const ImVec4 kGoodText(0.05f, 0.50f, 0.15f, 1.0f);    // a check passed
inline const ImVec4 kWarnText(0.80f, 0.30f, 0.0f, 1.0f);     // ⚠: works, but read this

// A section heading: a little space, the text in `font` (Fonts::heading), a separator.
void heading(ImFont* font, const char* text);

// A filled square of `color`, a text line high, then SameLine: a colour key before a label.
void swatch(Color color);

// Call before an item `width` pixels wide: keeps it on the current line (SameLine(0, spacing);
// spacing < 0: the style's) when it still ends left of the screen x `right`, else lets it start
// the next line. For rows of checkboxes, buttons or list entries that wrap between items.
void same_line_if_fits(float width, float right, float spacing = -1.0f);

// `text` in `font` at `size` px broken into lines no wider than `width` px where English, Korean
// and Chinese allow: at spaces, between Han characters, never inside a number nor before closing
// punctuation (core's base/line_break.hpp). Every text Dear ImGui wraps is broken here
// (kit/text_record_hook.cpp): its own wrapping breaks only at spaces and after ". , ; ! ?", so it
// splits "0.365" after "0." and cannot break a Chinese sentence at all.
std::vector<TextLine> wrap_lines(const ImFont& font, float size, std::string_view text, float width);

// Text in `color`, wrapped (wrap_lines) at the available width (or at `width` pixels, when > 0),
// each line an item of its own (one text line high, the style's item spacing between lines).
void flow_text(const std::string& text, const ImVec4& color, float width = 0.0f);

// The height flow_text takes for `text` in `width` pixels (in the current font and spacing).
float flow_text_height(const std::string& text, float width);

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

// ImGui::PushTextWrapPos at the right edge of what the window shows (a table cell's, in a
// table). Dear ImGui 1.86's PushTextWrapPos(0.0f) wraps at the window's work rect, which in a
// window with a horizontal scroll bar (begin_panel) is as wide as its widest content so far: text
// wrapped there keeps the window wider than its view, under its vertical scroll bar.
void push_wrap_at_edge();

// A run's worker stopped for good (out of memory: base/step_worker.hpp): why, wrapped, in red.
// Nothing when `failure` is empty.
void worker_failure_line(const std::string& failure);

// A lab's panel (a child window `size` big, 0: the rest of the space; `border`): it scrolls
// down and sideways, so that what does not fit can be scrolled to instead of being cut off
// (app/kit/layout_check.hpp reports what is cut). Ends with ImGui::EndChild().
bool begin_panel(const char* id, ImVec2 size = ImVec2(0.0f, 0.0f), bool border = false);

// A lab's control panel, at the left: `share` of the width, kept between min_em and max_em text
// heights, bordered (a begin_panel). End it with end_controls_panel(); what follows goes beside it.
void begin_controls_panel(float share, float min_em, float max_em);
void end_controls_panel();

// GLFW's description of its last error, "no details" when it gave none (for one-line messages).
std::string glfw_error();

// The width of a button labelled `label`, padding included (to fit a row beside it).
float button_width(const char* label);

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
