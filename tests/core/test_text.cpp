// base/text.hpp: the one UTF-8 decoder (strict, and lenient with U+FFFD), the minus sign both
// ways, subscripts; format_number is checked with the plot tests (test_plot.cpp).
#include <normlab/base/text.hpp>
#include <normlab/base/step_worker.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace normlab;

namespace {
std::vector<char32_t> lenient(std::string_view s) {
    std::vector<char32_t> out;
    for (std::size_t i = 0; i < s.size();) out.push_back(next_code_point(s, i));
    return out;
}
}  // namespace

TEST(Text, DecodesEveryLengthAndRoundTrips) {
    const std::vector<char32_t> cps{U'a', U'é', U'−', U'😀'};
    std::string s;
    for (char32_t c : cps) append_utf8(s, c);
    EXPECT_EQ(s, "a\xC3\xA9\xE2\x88\x92\xF0\x9F\x98\x80");
    EXPECT_EQ(lenient(s), cps);
    EXPECT_EQ(encode_utf8(U'₁'), "\xE2\x82\x81");
}

TEST(Text, MalformedSequencesFailOneByteAtATime) {
    // A stray continuation byte, an overlong '/', a surrogate, a truncated 3-byte sequence.
    for (const std::string bad : {"\x80", "\xC0\xAF", "\xED\xA0\x80", "\xE2\x88"}) {
        std::size_t i = 0;
        char32_t cp = 0;
        EXPECT_FALSE(next_utf8(bad, i, cp)) << bad.size();
        EXPECT_EQ(i, 1u);
    }
    EXPECT_EQ(lenient("a\xC0\xAF" "b"), (std::vector<char32_t>{U'a', 0xFFFD, 0xFFFD, U'b'}));
}

TEST(Text, CutsAtCharacterBoundaries) {
    const std::string s = "ab\xE2\x88\x92" "c";   // "ab−c"
    EXPECT_EQ(utf8_floor(s, 3), 2u);
    EXPECT_EQ(utf8_floor(s, 4), 2u);
    EXPECT_EQ(utf8_floor(s, 5), 5u);
    EXPECT_EQ(utf8_floor(s, 99), s.size());
}

TEST(Text, MinusSignBothWaysAndSubscripts) {
    EXPECT_EQ(unicode_minus("-1.5e-03"), "−1.5e−03");
    EXPECT_EQ(ascii_minus("−1.5, −2"), "-1.5, -2");
    EXPECT_EQ(ascii_minus(unicode_minus("a-b-c")), "a-b-c");
    EXPECT_EQ(subscript(12), "₁₂");
    EXPECT_EQ(subscript(0), "₀");
    EXPECT_EQ(strip_zeros("1.2500"), "1.25");
    EXPECT_EQ(strip_zeros("300"), "300");
}

// [SECTION] StepWorker: commands before units, advance's cap, rest when nothing is left --------

namespace {
struct Counter {
    std::uint64_t done = 0, last = 0;
    std::vector<int> log;   // commands applied, in order
    bool work(bool train) {
        if (!train || done >= last) return false;
        ++done;
        return true;
    }
    std::uint64_t units() const { return done; }
    bool finished() const { return done >= last; }
    std::vector<int> snapshot() const {
        std::vector<int> s = log;
        s.push_back(static_cast<int>(done));
        return s;
    }
};
}  // namespace

TEST(StepWorker, AppliesCommandsInOrderAndAdvancesExactly) {
    StepWorker<Counter> w([](Counter& c) { c.last = 10; });
    ASSERT_TRUE(w.wait_for(0));
    EXPECT_EQ(*w.latest(), (std::vector<int>{0}));
    w.post([](Counter& c) { c.log.push_back(1); });
    w.post([](Counter& c) { c.log.push_back(2); });
    EXPECT_EQ(w.advance(3), 3u);
    EXPECT_EQ(w.advance(2, 4), 4u);   // capped
    ASSERT_TRUE(w.wait_for(4));
    EXPECT_EQ(*w.latest(), (std::vector<int>{1, 2, 4}));
    EXPECT_FALSE(w.wait_for(5));      // paused at 4: returns rather than block
    EXPECT_FALSE(w.playing());
    w.play();
    EXPECT_FALSE(w.wait_for(11));     // plays to the end (10), then rests
    EXPECT_EQ(w.latest()->back(), 10);
    EXPECT_FALSE(w.playing());        // finished
}

// [SECTION] Fitting a line: O(n log n) measuring (docs/RELIABILITY.md, Long texts) ----------

#include "normlab/base/text_fit.hpp"

TEST(FitToWidth, CutsAtACharacterWithEllipsisAndMeasuresLogarithmicallyOften) {
    std::size_t calls = 0, bytes = 0;
    const auto measure = [&](std::string_view s) {   // 1 px per byte, "…" counted as 1
        ++calls;
        bytes += s.size();
        return static_cast<float>(s.size()) - 2.0f * static_cast<float>(s.find("…") != std::string_view::npos);
    };
    EXPECT_EQ(fit_to_width("short", 10.0f, measure), "short");
    EXPECT_EQ(fit_to_width("abcdefghij", 5.0f, measure), "abcd…");
    EXPECT_EQ(fit_to_width("ééééé", 5.0f, measure), "éé…");   // 2 bytes each: never half a character
    EXPECT_EQ(fit_to_width("abc", 0.5f, measure), "…");
    // 15 MB (a lecture title): about log₂(4096) measurements of at most 4 KB, not 15 million.
    const std::string huge(15u << 20, 'x');
    calls = bytes = 0;
    EXPECT_EQ(fit_to_width(huge, 100.0f, measure), std::string(99, 'x') + "…");
    EXPECT_LE(calls, 15u);
    EXPECT_LE(bytes, 15u * (kMaxShownBytes + 3));
    EXPECT_EQ(cap_shown(huge).size(), kMaxShownBytes + std::string("…").size());
}
