// Panels and where items go: a lab's scrolling panels, rows that wrap, colour keys, button widths.
#pragma once

#include "theme_fonts.hpp"   // to_u32, Color

#include <imgui.h>

#include <initializer_list>
#include <string_view>

namespace normlab::ui {

// A filled square of `color`, a text line high, then SameLine: a colour key before a label.
void swatch(Color color);

// Call before an item `width` pixels wide: keeps it on the current line (SameLine(0, spacing);
// spacing < 0: the style's) when it still ends left of the screen x `right`, else lets it start
// the next line. For rows of checkboxes, buttons or list entries that wrap between items.
void same_line_if_fits(float width, float right, float spacing = -1.0f);

// Two items side by side in the rest of the row: whether every one of `shown` (what the items
// show: a slider's value with its words, a combo's choice) fits in half of it, padding included.
// Where one does not (a long translation, a narrow panel), put each on a line of its own, the
// whole row wide, rather than cut its text off.
bool pair_fits(std::initializer_list<std::string_view> shown);

// The width of a radio button or checkbox labelled `label` (its circle or box, the gap, the label).
float radio_width(const char* label);

// A lab's panel (a child window `size` big, 0: the rest of the space; `border`): it scrolls
// down and sideways, so that what does not fit can be scrolled to instead of being cut off
// (app/kit/layout_check.hpp reports what is cut); the keyboard focus moves through it as
// through its window (NavFlattened). Ends with ImGui::EndChild().
bool begin_panel(const char* id, ImVec2 size = ImVec2(0.0f, 0.0f), bool border = false);

// A lab's control panel, at the left: `share` of the width, kept between min_em and max_em text
// heights, bordered (a begin_panel). End it with end_controls_panel(); what follows goes beside it.
void begin_controls_panel(float share, float min_em, float max_em);
void end_controls_panel();

// The width of a button labelled `label`, padding included (to fit a row beside it).
float button_width(const char* label);

}  // namespace normlab::ui
