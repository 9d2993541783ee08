// Numbers and text on screen: number formats, tooltips, headings, text colours with a meaning,
// and text wrapped where English, Korean and Chinese allow.
#pragma once

#include <normlab/base/line_break.hpp>
#include <normlab/base/text.hpp>

#include <imgui.h>

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace normlab::ui {

// A number for captions and tooltips: 3 decimals between 0.01 and 10⁴ ("5.000"), otherwise
// 4 significant digits in scientific form ("2.236e−03"); minus signs are U+2212.
std::string fmt_value(double v);

// What a slider or field shows: its printf `format` (tr()'d) with `value` ("temperature 0.70"),
// to measure before drawing it.
template <class T>
std::string printf_text(const char* format, T value) {
    char text[160];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

// A tick label: up to 6 significant digits, no trailing zeros ("0.5", "200", "1e−05").
std::string fmt_tick(double v);

// One-sentence explanation (with its formula) for the last item, shown while it is hovered.
void tooltip(const char* text);

// Text colours with a meaning, legible on the light and the dark theme.
inline const ImVec4 kErrorText(0.75f, 0.05f, 0.05f, 1.0f);   // something went wrong, or a check failed
inline const ImVec4 kGoodText(0.05f, 0.50f, 0.15f, 1.0f);    // a check passed
inline const ImVec4 kWarnText(0.80f, 0.30f, 0.0f, 1.0f);     // ⚠: works, but read this

// A section heading: a little space, the text in `font` (Fonts::heading), wrapped (flow_text) where
// it is wider than the panel, a separator.
void heading(ImFont* font, const char* text);

// The height heading(font, text) takes beyond a one-line heading in the available width (0 where
// it fits on one line), for a panel that shares its height out before drawing its sections.
float heading_extra_height(ImFont* font, const char* text);

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

// ImGui::PushTextWrapPos at the right edge of what the window shows (a table cell's, in a
// table). Dear ImGui 1.86's PushTextWrapPos(0.0f) wraps at the window's work rect, which in a
// window with a horizontal scroll bar (begin_panel) is as wide as its widest content so far: text
// wrapped there keeps the window wider than its view, under its vertical scroll bar.
void push_wrap_at_edge();

// A run's worker stopped for good (out of memory: base/step_worker.hpp): why, wrapped, in red.
// Nothing when `failure` is empty.
void worker_failure_line(const std::string& failure);

}  // namespace normlab::ui
