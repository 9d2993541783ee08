// Small helpers shared by the labs and widgets: colours, numbers on screen, tooltips, keys.
#pragma once

#include "palette.hpp"

#include <imgui.h>

#include <string>

namespace normlab::ui {

inline ImU32 to_u32(palette::Rgb c, int alpha = 255) { return IM_COL32(c.r, c.g, c.b, alpha); }

// A number for captions and tooltips: 3 decimals between 0.01 and 10⁴ ("5.000"), otherwise
// 4 significant digits in scientific form ("2.236e−03"); minus signs are U+2212.
std::string fmt_value(double v);

// A tick label: up to 6 significant digits, no trailing zeros ("0.5", "200", "1e−05").
std::string fmt_tick(double v);

// Subscript digits for 1-based indices: subscript(12) == "₁₂".
std::string subscript(long i);

// One-sentence explanation (with its formula) for the last item, shown while it is hovered.
void tooltip(const char* text);

// True when the letter key (A–Z) was pressed this frame, no text field has the keyboard and
// no Ctrl/Alt is held; shift says whether Shift must be held (true) or must not be (false).
bool letter_pressed(char letter, bool shift = false);

// Text colours with a meaning, legible on the light and the dark theme.
inline const ImVec4 kErrorText(0.75f, 0.05f, 0.05f, 1.0f);   // something went wrong, or a check failed
inline const ImVec4 kGoodText(0.05f, 0.50f, 0.15f, 1.0f);    // a check passed

// A section heading: a little space, the text in `font` (Fonts::heading), a separator.
void heading(ImFont* font, const char* text);

// A filled square of `color`, a text line high, then SameLine: a colour key before a label.
void swatch(palette::Rgb color);

// Call before an item `width` pixels wide: keeps it on the current line (SameLine(0, spacing);
// spacing < 0: the style's) when it still ends left of the screen x `right`, else lets it start
// the next line. For rows of checkboxes, buttons or list entries that wrap between items.
void same_line_if_fits(float width, float right, float spacing = -1.0f);

// Text in `color`, wrapped at the available width only where it has spaces, never inside a
// number (ImGui's own wrapping also breaks after '.', which splits "0.365" into "0." and "365").
void flow_text(const std::string& text, const ImVec4& color);

}  // namespace normlab::ui
