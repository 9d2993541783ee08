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

}  // namespace normlab::ui
