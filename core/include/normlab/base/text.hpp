// NormLab core: text shared by every layer — UTF-8, the minus sign, sub- and superscripts, and
// numbers as figures and steps print them (docs/ARCHITECTURE.md, Conventions).
//
// [SECTION] UTF-8          — one decoder (strict, with a lenient wrapper), one encoder, boundaries
// [SECTION] Signs, scripts — U+2212 both ways, ₁₂ and ⁻³
// [SECTION] Numbers        — format_number
// [SECTION] Spaces         — ASCII white space, trimmed
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace normlab {

// [SECTION] UTF-8 ---------------------------------------------------------------------------

// Decodes the code point at byte i into cp and advances i past it. A malformed sequence (a stray
// continuation byte, a truncated, overlong or surrogate sequence, a value above U+10FFFF) returns
// false and advances i by one byte.
bool next_utf8(std::string_view s, std::size_t& i, char32_t& cp);

// next_utf8 with U+FFFD for each malformed byte.
char32_t next_code_point(std::string_view s, std::size_t& i);

// One code point as UTF-8 (1 to 4 bytes), appended or returned.
void append_utf8(std::string& out, char32_t cp);
std::string encode_utf8(char32_t cp);

// Whether byte c continues a multi-byte sequence (10xxxxxx).
inline bool is_utf8_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// The largest cut ≤ `cut` that does not split a character of s.
std::size_t utf8_floor(std::string_view s, std::size_t cut);

// [SECTION] Signs, scripts ------------------------------------------------------------------

inline constexpr const char* kMinusSign = "\xE2\x88\x92";   // U+2212 MINUS SIGN
inline constexpr const char* kTimesSign = "\xC3\x97";       // U+00D7 MULTIPLICATION SIGN

// printf's text with each '-' as U+2212 (as wide as '+', reads as a minus): "-1.5" → "−1.5".
std::string unicode_minus(std::string_view text);
// The reverse, for text pasted from slides: "−1.5" → "-1.5".
std::string ascii_minus(std::string_view text);

// Subscript digits for indices ≥ 0: subscript(12) == "₁₂".
std::string subscript(long long i);
// Superscript digits and sign: superscript(−3) == "⁻³".
std::string superscript(int n);

// [SECTION] Numbers -------------------------------------------------------------------------

// A decimal without trailing zeros: "1.2500" → "1.25", "3.000" → "3" (integers unchanged).
std::string strip_zeros(std::string s);

// "10⁻³".
std::string decade_label(int exponent);

// Compact, up to `significant` digits, no trailing zeros, U+2212 as the minus sign, "m×10ⁿ"
// outside [1e-4, 1e6): 0.25 → "0.25", 1.5e-7 → "1.5×10⁻⁷"; "" for NaN and inf.
std::string format_number(double v, int significant = 4);

// [SECTION] Spaces --------------------------------------------------------------------------

// Space, tab, CR or LF.
inline bool is_ascii_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// `s` without the ASCII white space at its ends.
inline std::string_view trim_spaces(std::string_view s) {
    while (!s.empty() && is_ascii_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_ascii_space(s.back())) s.remove_suffix(1);
    return s;
}

}  // namespace normlab
