// NormLab core: text shared by every layer (see text.hpp).
//
// [SECTION] UTF-8
// [SECTION] Signs, scripts
// [SECTION] Numbers
#include "normlab/base/text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace normlab {

// [SECTION] UTF-8 ---------------------------------------------------------------------------

bool next_utf8(std::string_view s, std::size_t& i, char32_t& cp) {
    const auto b0 = static_cast<unsigned char>(s[i]);
    if (b0 < 0x80) {
        ++i;
        cp = b0;
        return true;
    }
    // Lead byte: 110xxxxx (2), 1110xxxx (3), 11110xxx (4 bytes)
    const int len = (b0 >> 5) == 0x6 ? 2 : (b0 >> 4) == 0xE ? 3 : (b0 >> 3) == 0x1E ? 4 : 0;
    if (len == 0 || i + static_cast<std::size_t>(len) > s.size()) {
        ++i;
        return false;
    }
    char32_t c = b0 & (0x7F >> len);
    for (int k = 1; k < len; ++k) {
        const char b = s[i + static_cast<std::size_t>(k)];
        if (!is_utf8_continuation(b)) {
            ++i;
            return false;
        }
        c = (c << 6) | (static_cast<unsigned char>(b) & 0x3F);
    }
    static constexpr char32_t kMin[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (c < kMin[len] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) {
        ++i;
        return false;
    }
    i += static_cast<std::size_t>(len);
    cp = c;
    return true;
}

char32_t next_code_point(std::string_view s, std::size_t& i) {
    char32_t cp = 0;
    return next_utf8(s, i, cp) ? cp : 0xFFFD;
}

void append_utf8(std::string& out, char32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

std::string encode_utf8(char32_t cp) {
    std::string s;
    append_utf8(s, cp);
    return s;
}

std::size_t utf8_floor(std::string_view s, std::size_t cut) {
    if (cut >= s.size()) return s.size();
    while (cut > 0 && is_utf8_continuation(s[cut])) --cut;
    return cut;
}

// [SECTION] Signs, scripts ------------------------------------------------------------------

std::string unicode_minus(std::string_view text) {
    std::string out;
    for (char c : text) {
        if (c == '-') {
            out += kMinusSign;
        } else {
            out += c;
        }
    }
    return out;
}

std::string ascii_minus(std::string_view text) {
    const std::string_view minus(kMinusSign);
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text.compare(i, minus.size(), minus) == 0) {
            out += '-';
            i += minus.size() - 1;
        } else {
            out += text[i];
        }
    }
    return out;
}

std::string subscript(long long i) {
    std::string out;
    for (char d : std::to_string(i)) {
        out += "\xE2\x82";                               // U+2080..U+2089 SUBSCRIPT ZERO..NINE
        out += static_cast<char>(0x80 + (d - '0'));
    }
    return out;
}

std::string superscript(int n) {
    static const char* const kDigits[10] = {"\xE2\x81\xB0", "\xC2\xB9",     "\xC2\xB2",     "\xC2\xB3",
                                            "\xE2\x81\xB4", "\xE2\x81\xB5", "\xE2\x81\xB6", "\xE2\x81\xB7",
                                            "\xE2\x81\xB8", "\xE2\x81\xB9"};
    const std::string digits = std::to_string(n < 0 ? -static_cast<long long>(n) : static_cast<long long>(n));
    std::string out = n < 0 ? "\xE2\x81\xBB" : "";   // U+207B SUPERSCRIPT MINUS
    for (char c : digits) out += kDigits[c - '0'];
    return out;
}

// [SECTION] Numbers -------------------------------------------------------------------------

std::string decade_label(int exponent) { return "10" + superscript(exponent); }

std::string strip_zeros(std::string s) {
    if (s.find('.') == std::string::npos) return s;
    while (!s.empty() && s.back() == '0') s.pop_back();
    if (!s.empty() && s.back() == '.') s.pop_back();
    return s;
}

namespace {

// The mantissa m (1 ≤ |m| < 10) and exponent of |v| rounded to `sig` significant digits.
void split_sci(double a, int sig, std::string& mantissa, int& exponent) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*e", std::max(0, sig - 1), a);   // "1.2345e-07"
    std::string s = buf;
    const auto epos = s.find('e');
    exponent = std::atoi(s.c_str() + epos + 1);
    mantissa = strip_zeros(s.substr(0, epos));
}

}  // namespace

std::string format_number(double v, int significant) {
    if (!std::isfinite(v)) return "";
    if (v == 0.0) return "0";
    const int sig = std::clamp(significant, 1, 17);
    const double a = std::fabs(v);
    const std::string sign = v < 0.0 ? kMinusSign : "";
    if (a >= 1e-4 && a < 1e6) {
        const int mag = static_cast<int>(std::floor(std::log10(a)));
        const int decimals = std::max(0, sig - 1 - mag);
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.*f", decimals, a);
        const std::string s = strip_zeros(buf);
        if (s == "0") return "0";
        // Rounding can carry into the next decade (999999.7 → "1000000"): still compact.
        return sign + s;
    }
    std::string m;
    int e = 0;
    split_sci(a, sig, m, e);
    if (m == "1") return sign + decade_label(e);
    return sign + m + kTimesSign + decade_label(e);
}

}  // namespace normlab
