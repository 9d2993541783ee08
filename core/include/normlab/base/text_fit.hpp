// NormLab core: a line of text cut with "…" to fit a width, in O(n log n) measuring whatever its
// length (a 15 MB lecture title, a scene's 100 KB unknown key). docs/RELIABILITY.md, Long texts.
#pragma once

#include "normlab/base/text.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace normlab {

// At most this many bytes of a text are ever shown on one line or in a tooltip (cut at a UTF-8
// character, "…" added): no window is wider, and measuring more only costs time.
inline constexpr std::size_t kMaxShownBytes = 4096;

// `text` cut at a UTF-8 character to at most `max_bytes`, with "…" when cut.
inline std::string cap_shown(std::string_view text, std::size_t max_bytes = kMaxShownBytes) {
    if (text.size() <= max_bytes) return std::string(text);
    return std::string(text.substr(0, utf8_floor(text, max_bytes))) + "…";
}

// The longest UTF-8 prefix of `text` that, with "…" added, is at most `width` wide (text whole
// when it fits). measure(std::string_view) → width, increasing with the prefix. A binary search
// over the prefix lengths: about log₂(n) measurements of at most kMaxShownBytes each.
template <class Measure>
std::string fit_to_width(std::string_view text, float width, const Measure& measure) {
    const std::string capped = cap_shown(text);
    if (capped.size() == text.size() && measure(std::string_view(capped)) <= width) return capped;
    const std::string_view head(capped.data(), text.size() <= kMaxShownBytes ? capped.size() : utf8_floor(text, kMaxShownBytes));
    std::vector<std::size_t> ends;   // the byte length of each prefix of whole characters
    for (std::size_t i = 1; i <= head.size(); ++i)
        if (i == head.size() || !is_utf8_continuation(head[i])) ends.push_back(i);
    std::string cut;
    const auto fits = [&](std::size_t chars) {
        cut.assign(head.substr(0, chars == 0 ? 0 : ends[chars - 1])).append("…");
        return measure(std::string_view(cut)) <= width;
    };
    std::size_t lo = 0, hi = ends.size();   // lo characters fit (none always counts); hi + 1 do not
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo + 1) / 2;
        if (fits(mid)) lo = mid;
        else hi = mid - 1;
    }
    return std::string(head.substr(0, lo == 0 ? 0 : ends[lo - 1])) + "…";
}

}  // namespace normlab
