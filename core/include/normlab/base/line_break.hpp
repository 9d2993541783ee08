// NormLab core: where a text may break into lines, in English, Korean and Chinese, and greedy
// line filling with it (docs/i18n/TRANSLATING.md, Line breaks). Used by the app's wrapped texts
// (every text Dear ImGui wraps, and flow_text) and by the figures' titles (plot/plot_layout.cpp).
//
// The rules:
// - a line breaks at a space (the spaces vanish at the break) and at '\n' (always);
// - next to a Han or Kana character, or CJK punctuation, it may break without a space (Chinese
//   and Japanese text has none); Hangul, like Latin, breaks at spaces;
// - never before closing punctuation (、。，」）!?.,;:% …) nor after opening punctuation (「（( …);
// - never inside a number: digits, its decimal point or comma, a sign before it (+ - − ±), an
//   exponent ("e−03", "×10⁻⁷"), and the unit letters written onto it ("64GB");
// - a no-break space (U+00A0) or word joiner (U+2060) keeps its neighbours on one line;
// - a word wider than the line (a long Hangul word, a long identifier) breaks between any two
//   characters where the rules above allow; a number wider than the line stays whole.
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>
#include <vector>

namespace normlab {

// Whether c is drawn about 1 em wide: Hangul, Han, Kana, CJK punctuation and full-width forms.
bool is_wide_char(char32_t c);

// One line of a broken text: bytes [begin, end) of it (no trailing spaces, no '\n'), and its width.
struct TextLine {
    std::size_t begin = 0, end = 0;
    double width = 0.0;
};

// `text` (UTF-8) broken into lines no wider than `width` where the rules allow;
// advance(c) is the width of one character (the same unit as `width`). An empty text gives no
// line; "a\n" gives one. A text's own '\n' keeps the spaces after it.
std::vector<TextLine> break_lines(std::string_view text, double width, const std::function<double(char32_t)>& advance);

}  // namespace normlab
