// base/line_break.hpp: where English, Korean and Chinese texts break into lines, by hand-made
// examples (an ASCII character 1 unit wide, a CJK one 2), and the figures' titles and text
// widths that use it (plot/plot_layout.cpp, estimate_text_width).
#include <normlab/base/line_break.hpp>
#include <normlab/base/text.hpp>
#include <normlab/plot/plot.hpp>
#include <normlab/plot/table.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace normlab;

namespace {

double advance(char32_t c) { return is_wide_char(c) ? 2.0 : 1.0; }

std::vector<std::string> lines(std::string_view text, double width) {
    std::vector<std::string> out;
    for (const TextLine& l : break_lines(text, width, advance)) out.emplace_back(text.substr(l.begin, l.end - l.begin));
    return out;
}

using Lines = std::vector<std::string>;

}  // namespace

TEST(LineBreak, EnglishBreaksAtSpacesOnly) {
    EXPECT_EQ(lines("the quick brown fox", 10.0), (Lines{"the quick", "brown fox"}));
    EXPECT_EQ(lines("the quick brown fox", 100.0), (Lines{"the quick brown fox"}));
    EXPECT_EQ(lines("a\nb c", 100.0), (Lines{"a", "b c"}));      // its own line breaks
    EXPECT_EQ(lines("a\n\nb", 100.0), (Lines{"a", "", "b"}));
    EXPECT_EQ(lines("a\n", 100.0), (Lines{"a"}));
    EXPECT_TRUE(lines("", 10.0).empty());
    EXPECT_EQ(lines("one   two", 5.0), (Lines{"one", "two"}));    // the spaces vanish at the break
    // A word wider than the line breaks where it must, the rest of it on the next line.
    EXPECT_EQ(lines("normalisation", 6.0), (Lines{"normal", "isatio", "n"}));
}

TEST(LineBreak, ChineseBreaksBetweenAnyTwoHanCharacters) {
    // 4 Han characters (8 units) per line.
    EXPECT_EQ(lines("层归一化的输出不变", 8.0), (Lines{"层归一化", "的输出不", "变"}));
    // Never before closing punctuation: "。" takes the character before it along.
    EXPECT_EQ(lines("层归一化。输出", 8.0), (Lines{"层归一", "化。输出"}));
    EXPECT_EQ(lines("重新缩放、重新居中", 8.0), (Lines{"重新缩", "放、重新", "居中"}));
    // Never after opening punctuation: "（" goes to the next line with what it opens.
    EXPECT_EQ(lines("见图中的（梯度）", 10.0), (Lines{"见图中的", "（梯度）"}));
    // A Latin word inside Chinese stays whole; the break falls next to the Han characters.
    EXPECT_EQ(lines("均方根层归一化RMSNorm更快", 16.0), (Lines{"均方根层归一化", "RMSNorm更快"}));
}

TEST(LineBreak, NeverInsideANumber) {
    // 均值为 (6) 2.236 (5) ， (2): the break goes before the number, never at its point.
    EXPECT_EQ(lines("均值为2.236，方差为0.5", 12.0), (Lines{"均值为", "2.236，方差", "为0.5"}));
    // A number wider than the line stays whole (the line is too wide), and what follows it breaks off.
    const Lines long_number = lines("比3.162e−03小", 4.0);
    EXPECT_EQ(long_number, (Lines{"比", "3.162e−03", "小"}));
    // Sign, exponent, ×10ⁿ, a unit written onto it: each one number.
    for (const char* number : {"−1.5e−03", "+2.5E+7", "1.5×10⁻⁷", "±0.25", "1,024", "64GB", "12.5%"}) {
        const std::string text = std::string("xx") + number + "yy";
        for (double w = 1.0; w < 12.0; w += 1.0) {
            const Lines got = lines(text, w);
            bool whole = false;
            for (const std::string& l : got) whole = whole || l.find(number) != std::string::npos;
            EXPECT_TRUE(whole) << number << " at width " << w << ": " << ::testing::PrintToString(got);
        }
    }
    // Korean: a particle written onto a number; the long word breaks after the number, never in it.
    EXPECT_EQ(lines("값은 3.162e−03보다", 10.0), (Lines{"값은", "3.162e−03", "보다"}));
}

TEST(LineBreak, KoreanBreaksAtSpacesAndALongWordAnywhere) {
    EXPECT_EQ(lines("레이어 정규화는 입력을 재스케일링한다", 14.0),
              (Lines{"레이어", "정규화는", "입력을", "재스케일링한다"}));
    EXPECT_EQ(lines("레이어 정규화", 14.0), (Lines{"레이어 정규화"}));
    // Hangul never breaks inside a word while a space will do.
    EXPECT_EQ(lines("정규화는 입력을", 12.0), (Lines{"정규화는", "입력을"}));
    // A word wider than the line breaks between its syllables.
    EXPECT_EQ(lines("재스케일링한다", 8.0), (Lines{"재스케일", "링한다"}));
}

TEST(LineBreak, WidthsAreTheLinesOwn) {
    const std::vector<TextLine> got = break_lines("ab 层归 c", 5.0, advance);
    ASSERT_EQ(got.size(), 2u);
    EXPECT_DOUBLE_EQ(got[0].width, 5.0);   // "ab 层": Han breaks between its characters
    EXPECT_DOUBLE_EQ(got[1].width, 4.0);   // "归 c"
    const std::vector<TextLine> spaced = break_lines("ab cd", 3.0, advance);
    ASSERT_EQ(spaced.size(), 2u);
    EXPECT_DOUBLE_EQ(spaced[0].width, 2.0);   // "ab": the space at the break does not count
    for (const TextLine& l : break_lines("中文和English混排的一行文字，有数字3.14和空格 以及更多", 9.0, advance))
        EXPECT_LE(l.width, 9.0);
}

TEST(LineBreak, CjkCharactersAreOneEmInFigures) {
    EXPECT_DOUBLE_EQ(estimate_text_width("层归一化", 10.0), 40.0);
    EXPECT_DOUBLE_EQ(estimate_text_width("정규화", 10.0), 30.0);
    EXPECT_NEAR(estimate_text_width("ab", 10.0), 12.4, 1e-9);   // Latin as before
    EXPECT_FALSE(is_wide_char(U'a'));
    EXPECT_FALSE(is_wide_char(U'α'));
    EXPECT_TRUE(is_wide_char(U'。'));
}

TEST(LineBreak, AChineseFigureTitleWrapsBetweenCharacters) {
    Plot p;
    p.title = "均方根层归一化与层归一化的梯度范数随缩放因子的变化，缩放因子从0.001到1000";
    p.series.push_back(palette_series(0, "", {0, 1}, {0, 1}));
    const Rect outer{0, 0, 320, 240};
    const PlotLayout L = layout_plot(p, outer);
    ASSERT_GE(L.title.size(), 2u);   // English's rule (spaces only) would leave one line 600 px wide
    std::string joined;
    for (const PlacedText& t : L.title) {
        EXPECT_LE(estimate_text_width(t.text, t.font_px), outer.width());
        joined += t.text;
    }
    EXPECT_EQ(joined, p.title);   // nothing lost: no spaces to drop
    EXPECT_NE(joined.find("0.001"), std::string::npos);
}

// SVG names Noto Sans CJK after DejaVu where a figure has CJK text (Korean forms first where it
// has Hangul); an English figure's SVG is as before.
TEST(LineBreak, SvgNamesTheCjkFontWhereTheTextNeedsIt) {
    Plot p;
    p.series.push_back(palette_series(0, "", {0, 1}, {0, 1}));
    p.title = "Training loss";
    const std::string english = to_svg(p, 400, 300);
    EXPECT_EQ(english.find("Noto"), std::string::npos);
    EXPECT_NE(english.find("font-family=\"DejaVu Sans, sans-serif\""), std::string::npos);
    p.title = "训练损失";
    EXPECT_NE(to_svg(p, 400, 300).find("DejaVu Sans, Noto Sans CJK SC, Noto Sans CJK KR, sans-serif"), std::string::npos);
    Table t;
    t.title = "학습 손실";
    t.columns = {"a"};
    t.rows.push_back({{"1"}});
    const std::string svg = table_to_svg(t);
    EXPECT_NE(svg.find("DejaVu Sans, Noto Sans CJK KR, Noto Sans CJK SC, sans-serif"), std::string::npos);
    EXPECT_EQ(svg.find("\"DejaVu Sans, sans-serif\""), std::string::npos);
}
