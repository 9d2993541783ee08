// NormLab core: line breaks for English, Korean and Chinese (base/line_break.hpp).
#include "normlab/base/line_break.hpp"

#include "normlab/base/text.hpp"

#include <algorithm>

namespace normlab {

namespace {

bool in(char32_t c, char32_t lo, char32_t hi) { return c >= lo && c <= hi; }

bool is_space(char32_t c) { return c == U' ' || c == U'\t' || c == 0x3000; }   // U+3000 ideographic space

// Han (unified, extension A, compatibility), Kana, CJK punctuation and full-width forms: a line may
// break before or after them without a space.
bool breaks_anywhere(char32_t c) {
    return in(c, 0x2E80, 0x2FDF) || in(c, 0x3001, 0x303F) || in(c, 0x3040, 0x30FF) || in(c, 0x31F0, 0x31FF) ||
           in(c, 0x3400, 0x4DBF) || in(c, 0x4E00, 0x9FFF) || in(c, 0xF900, 0xFAFF) || in(c, 0xFE30, 0xFE4F) ||
           in(c, 0xFF01, 0xFF60);
}

// No line starts with one of these.
bool is_closing(char32_t c) {
    static constexpr std::u32string_view kClosing =
        U"、。，．：；！？」』）】〉》〕〗〙〛｝］〞’”ー々ゝゞヽヾ〜・…‥ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ"
        U"),.;:!?%]}\u00B0\u2030\u00BB";
    return kClosing.find(c) != std::u32string_view::npos;
}

// No line ends with one of these.
bool is_opening(char32_t c) {
    static constexpr std::u32string_view kOpening = U"「『（【〈《〔〖〘〚｛［〝‘“([{\u00AB";
    return kOpening.find(c) != std::u32string_view::npos;
}

bool is_digit(char32_t c) { return c >= U'0' && c <= U'9'; }
bool is_ascii_letter(char32_t c) { return (c >= U'a' && c <= U'z') || (c >= U'A' && c <= U'Z'); }
bool is_sign(char32_t c) { return c == U'+' || c == U'-' || c == 0x2212 || c == 0xB1; }   // − U+2212, ± U+00B1
bool is_superscript(char32_t c) {
    return c == 0xB9 || c == 0xB2 || c == 0xB3 || c == 0x2070 || in(c, 0x2074, 0x207B);   // ¹²³⁰⁴…⁹⁺⁻
}
bool is_combining(char32_t c) { return in(c, 0x0300, 0x036F) || in(c, 0x20D0, 0x20FF); }
// A no-break space (U+00A0, U+202F), a word joiner (U+2060), a non-breaking hyphen (U+2011): the
// characters on both sides stay on one line.
bool is_no_break(char32_t c) { return c == 0xA0 || c == 0x202F || c == 0x2060 || c == 0x2011; }

// For each character, whether a line may not break before it because it continues a number
// begun before it ("−1.5e−03", "2.236", "1.5×10⁻⁷", "64GB").
std::vector<bool> number_continues(const std::vector<char32_t>& cp) {
    const std::size_t n = cp.size();
    std::vector<bool> cont(n, false);
    const auto at = [&](std::size_t k) { return k < n ? cp[k] : U'\0'; };
    for (std::size_t k = 0; k < n;) {
        const bool starts = is_digit(cp[k]) ||
                            (is_sign(cp[k]) && (is_digit(at(k + 1)) || (at(k + 1) == U'.' && is_digit(at(k + 2))))) ||
                            (cp[k] == U'.' && is_digit(at(k + 1)));
        if (!starts) {
            ++k;
            continue;
        }
        std::size_t j = k + 1;
        while (j < n) {
            const char32_t c = cp[j];
            const bool after_digit = is_digit(cp[j - 1]);
            if (is_digit(c) || is_superscript(c)) {
                ++j;
            } else if ((c == U'.' || c == U',') && is_digit(at(j + 1))) {
                ++j;
            } else if ((c == U'e' || c == U'E') && after_digit &&
                       (is_digit(at(j + 1)) || (is_sign(at(j + 1)) && is_digit(at(j + 2))))) {
                j += is_digit(at(j + 1)) ? 1 : 2;
            } else if (c == 0xD7 && at(j + 1) == U'1' && at(j + 2) == U'0') {   // ×10ⁿ
                j += 3;
            } else if (c == U'%' && after_digit) {
                ++j;
            } else if (is_ascii_letter(c) && after_digit) {   // a unit written onto the number
                while (j < n && is_ascii_letter(cp[j])) ++j;
                break;
            } else {
                break;
            }
        }
        for (std::size_t m = k + 1; m < j; ++m) cont[m] = true;
        k = j;
    }
    return cont;
}

}  // namespace

bool is_wide_char(char32_t c) {
    return in(c, 0x1100, 0x115F) || in(c, 0x2E80, 0x303E) || in(c, 0x3041, 0x33FF) || in(c, 0x3400, 0x4DBF) ||
           in(c, 0x4E00, 0x9FFF) || in(c, 0xA960, 0xA97F) || in(c, 0xAC00, 0xD7A3) || in(c, 0xF900, 0xFAFF) ||
           in(c, 0xFE30, 0xFE4F) || in(c, 0xFF00, 0xFF60) || in(c, 0xFFE0, 0xFFE6);
}

std::vector<TextLine> break_lines(std::string_view text, double width, const std::function<double(char32_t)>& advance) {
    std::vector<char32_t> cp;       // the characters
    std::vector<std::size_t> off;   // their byte offsets, and text.size() at the end
    for (std::size_t i = 0; i < text.size();) {
        off.push_back(i);
        cp.push_back(next_code_point(text, i));
    }
    const std::size_t n = cp.size();
    off.push_back(text.size());
    const std::vector<bool> in_number = number_continues(cp);

    // Whether a line may end before character k (0 < k < n), not counting spaces and the
    // emergency breaks of a word wider than the line.
    const auto glued = [&](std::size_t k) {
        return in_number[k] || is_closing(cp[k]) || is_opening(cp[k - 1]) || is_combining(cp[k]) || is_no_break(cp[k]) ||
               is_no_break(cp[k - 1]);
    };
    const auto opportunity = [&](std::size_t k) {
        if (is_space(cp[k])) return !is_space(cp[k - 1]);
        if (is_space(cp[k - 1])) return false;   // the break was before the spaces
        return (breaks_anywhere(cp[k - 1]) || breaks_anywhere(cp[k])) && !glued(k);
    };
    const auto emergency = [&](std::size_t k) { return !is_space(cp[k]) && !is_space(cp[k - 1]) && !glued(k); };

    std::vector<TextLine> lines;
    std::size_t begin = 0;   // the current line's first character
    double w = 0.0;          // its width so far, spaces included
    std::size_t best = 0;    // its last break opportunity (0: none yet)
    double best_w = 0.0;     // its width up to there
    const auto emit = [&](std::size_t end, double end_w) {
        std::size_t e = end;
        while (e > begin && is_space(cp[e - 1])) {
            --e;
            end_w -= advance(cp[e]);
        }
        lines.push_back({off[begin], off[e], std::max(0.0, end_w)});
    };
    const auto restart = [&](std::size_t k) {   // a wrapped line starts at k, after its spaces
        while (k < n && is_space(cp[k])) ++k;
        begin = k;
        w = 0.0;
        best = 0;
    };
    for (std::size_t k = 0; k < n;) {
        const char32_t c = cp[k];
        if (c == U'\n') {
            emit(k, w);
            begin = k + 1;
            w = 0.0;
            best = 0;
            k = begin;
            continue;
        }
        if (k > begin && opportunity(k)) {
            best = k;
            best_w = w;
        }
        const double a = advance(c);
        if (!is_space(c) && k > begin && w + a > width) {
            if (best > begin) {
                emit(best, best_w);
                restart(best);
                k = begin;
                continue;
            }
            std::size_t j = k;   // a word wider than the line: its last place that may break
            double jw = w;
            while (j > begin + 1 && !emergency(j)) jw -= advance(cp[--j]);
            if (j > begin && emergency(j)) {
                emit(j, jw);
                restart(j);
                k = begin;
                continue;
            }
        }
        w += a;
        ++k;
    }
    if (begin < n) emit(n, w);
    return lines;
}

}  // namespace normlab
