// base/i18n.hpp: the PO loader refuses bad entries with their line, placeholders are checked,
// tr() falls back to English, the locale picks the language, and the shipped catalogs load clean.
#include <normlab/base/i18n.hpp>

#include <gtest/gtest.h>

#include <string>
#include <thread>

using namespace normlab;

namespace {

bool has_problem(const Catalog& c, const std::string& part) {
    for (const std::string& p : c.problems)
        if (p.find(part) != std::string::npos) return true;
    return false;
}

// Restores English after a test that switches the language.
struct EnglishAfter {
    ~EnglishAfter() { set_language(Language::En, Catalog{}); }
};

}  // namespace

TEST(I18n, ParsesEntriesEscapesContinuationsAndContext) {
    const Catalog c = parse_po(
        "# a comment\n"
        "msgid \"\"\nmsgstr \"Content-Type: text/plain; charset=UTF-8\\n\"\n\n"
        "#: app/shell/main_menu.cpp\n"
        "msgid \"Open\"\nmsgstr \"열기\"\n\n"
        "msgid \"\"\n\"Two \"\n\"lines\\n\"\nmsgstr \"두 \"\n\"줄\\n\"\n\n"
        "msgid \"say \\\"hi\\\"\\t\\\\\"\nmsgstr \"\\\"안녕\\\"\\t\\\\\"\n\n"
        "msgctxt \"menu\"\nmsgid \"View\"\nmsgstr \"보기\"\n"
        "msgid \"Close\"\nmsgstr \"닫기\"\n",   // no blank line before it
        "ko.po");
    EXPECT_TRUE(c.problems.empty()) << c.problems.front();
    EXPECT_EQ(c.texts.at("Open"), "열기");
    EXPECT_EQ(c.texts.at("Two lines\n"), "두 줄\n");
    EXPECT_EQ(c.texts.at("say \"hi\"\t\\"), "\"안녕\"\t\\");
    EXPECT_EQ(c.texts.at(std::string("menu\x04View")), "보기");
    EXPECT_EQ(c.texts.at("Close"), "닫기");
    EXPECT_EQ(c.texts.count(""), 0u);   // the header is not a text
    EXPECT_EQ(c.texts.size(), 5u);
}

TEST(I18n, UntranslatedAndFuzzyEntriesKeepTheEnglish) {
    const Catalog c = parse_po("msgid \"A\"\nmsgstr \"\"\n\n#, fuzzy\nmsgid \"B\"\nmsgstr \"비\"\n\nmsgid \"C\"\nmsgstr \"씨\"\n", "ko.po");
    EXPECT_TRUE(c.problems.empty());
    EXPECT_EQ(c.texts.count("A"), 0u);
    EXPECT_EQ(c.texts.count("B"), 0u);
    EXPECT_EQ(c.texts.at("C"), "씨");
}

TEST(I18n, RefusesBadEntriesWithTheirLineAndKeepsTheGoodOnes) {
    const Catalog c = parse_po(
        "msgid \"Rows: {0}\"\nmsgstr \"행: {1}\"\n\n"           // 1: wrong placeholder
        "msgid \"x = %d\"\nmsgstr \"x = %s\"\n\n"               // 4: printf conversion changed
        "msgid \"Keep\"\nmsgstr \"유지\"\n\n"                    // 7: good
        "msgid \"Bad \\q\"\nmsgstr \"나쁨\"\n\n"                  // 10: unknown escape
        "msgid \"One\"\nmsgid_plural \"Many\"\nmsgstr[0] \"하나\"\n\n"   // 13, 14: plural
        "msgid \"Keep\"\nmsgstr \"또\"\n\n"                      // 17: duplicate
        "msgid \"Open\nmsgstr \"열기\"\n\n"                      // 20: unterminated string
        "garbage\n\n"                                           // 23
        "msgid \"\\xff\"\nmsgstr \"\\xff\"\n\n"                  // 25: unknown escape \x
        "msgid \"100%\"\nmsgstr \"100%%\"\n",                   // 28: '%' became "%%"
        "ko.po");
    EXPECT_EQ(c.texts.size(), 1u);
    EXPECT_EQ(c.texts.at("Keep"), "유지");
    EXPECT_TRUE(has_problem(c, "ko.po:1: msgstr for \"Rows: {0}\": placeholders {1} differ from the msgid's {0}"));
    EXPECT_TRUE(has_problem(c, "ko.po:4: msgstr for \"x = %d\": placeholders %s differ from the msgid's %d"));
    EXPECT_TRUE(has_problem(c, "ko.po:10: unknown escape \\q"));
    EXPECT_TRUE(has_problem(c, "ko.po:14: plural forms"));
    EXPECT_TRUE(has_problem(c, "ko.po:17: a second entry for msgid \"Keep\""));
    EXPECT_TRUE(has_problem(c, "ko.po:20: expected a quoted string"));
    EXPECT_TRUE(has_problem(c, "ko.po:23: expected msgctxt, msgid"));
    EXPECT_TRUE(has_problem(c, "ko.po:25: unknown escape \\x"));
    EXPECT_TRUE(has_problem(c, "ko.po:28: msgstr for \"100%\""));
}

TEST(I18n, RefusesInvalidUtf8AndOtherCharsets) {
    const Catalog bad_bytes = parse_po("msgid \"A\"\nmsgstr \"\xC0\xAF\"\n", "zh_CN.po");
    EXPECT_TRUE(bad_bytes.texts.empty());
    EXPECT_TRUE(has_problem(bad_bytes, "zh_CN.po:1: not UTF-8"));
    const Catalog latin1 = parse_po("msgid \"\"\nmsgstr \"Content-Type: text/plain; charset=ISO-8859-1\\n\"\n", "zh_CN.po");
    EXPECT_TRUE(has_problem(latin1, "charset ISO-8859-1"));
    EXPECT_TRUE(parse_po("\xEF\xBB\xBFmsgid \"A\"\nmsgstr \"甲\"\n", "zh_CN.po").problems.empty());   // a BOM
}

TEST(I18n, PlaceholdersMayMoveButNotChange) {
    EXPECT_EQ(placeholder_mismatch("{0} of {1}", "{1}의 {0}"), "");
    EXPECT_EQ(placeholder_mismatch("{0} of {0}", "{0}"), "");   // each {N} counts once
    EXPECT_NE(placeholder_mismatch("{0} of {1}", "{0}"), "");
    EXPECT_EQ(placeholder_mismatch("%d of %.3f", "%d / %.3f"), "");
    EXPECT_NE(placeholder_mismatch("%d of %.3f", "%.3f / %d"), "");   // printf cannot reorder
    EXPECT_NE(placeholder_mismatch("Saved", "저장 %s"), "");   // a format injected
    EXPECT_EQ(placeholders("{2} {0} %5.1f %% {x}"), (std::vector<std::string>{"{0}", "{2}", "%5.1f", "%%"}));
}

TEST(I18n, FillsPlaceholdersInTheTranslatedOrder) {
    EXPECT_EQ(fill_placeholders("{1}의 {0}", {"a", "b"}), "b의 a");
    EXPECT_EQ(fill_placeholders("{0} {3}", {"a"}), "a {3}");
    EXPECT_EQ(tr("{0} rows from {1}", 12, std::string("data.csv")), "12 rows from data.csv");
}

TEST(I18n, TrFallsBackToEnglishAndSwitchesLive) {
    EnglishAfter restore;
    EXPECT_STREQ(tr("Open"), "Open");
    set_language(Language::Ko, parse_po("msgid \"Open\"\nmsgstr \"열기\"\n\nmsgid \"{0} rows\"\nmsgstr \"{0}행\"\n", "ko.po"));
    const char* open = tr("Open");
    EXPECT_STREQ(open, "열기");
    EXPECT_STREQ(tr("Not in the catalog"), "Not in the catalog");
    EXPECT_EQ(tr("{0} rows", 3), "3행");
    EXPECT_EQ(current_language(), Language::Ko);
    std::string on_worker;
    std::thread([&] { on_worker = tr("Open"); }).join();
    EXPECT_EQ(on_worker, "열기");
    set_language(Language::En, Catalog{});
    EXPECT_STREQ(tr("Open"), "Open");
    EXPECT_STREQ(open, "열기");   // a pointer handed out before stays valid
}

TEST(I18n, LocalePicksTheLanguageInPosixOrder) {
    EXPECT_EQ(language_from_locale(nullptr, nullptr, "ko_KR.UTF-8"), Language::Ko);
    EXPECT_EQ(language_from_locale(nullptr, nullptr, "zh_CN.UTF-8"), Language::Zh);
    EXPECT_EQ(language_from_locale("zh_CN.UTF-8", "en_US.UTF-8", "ko_KR.UTF-8"), Language::Zh);
    EXPECT_EQ(language_from_locale("", "ko_KR.UTF-8", "zh_CN"), Language::Ko);
    EXPECT_EQ(language_from_locale("C", nullptr, "ko_KR.UTF-8"), Language::En);
    EXPECT_EQ(language_from_locale(nullptr, nullptr, "de_DE.UTF-8"), Language::En);
    EXPECT_EQ(language_from_locale(nullptr, nullptr, nullptr), Language::En);
    EXPECT_EQ(parse_language("zh-Hans"), Language::Zh);
    EXPECT_EQ(parse_language("EN"), Language::En);
    EXPECT_FALSE(parse_language("kor").has_value());
    EXPECT_FALSE(parse_language("").has_value());
}

TEST(I18n, MissingCatalogFileIsSaidAndEnglishShows) {
    EnglishAfter restore;
    const std::vector<std::string> problems = set_language(Language::Zh, "/nonexistent-normlab-i18n");
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_NE(problems[0].find("/nonexistent-normlab-i18n/zh_CN.po: cannot be read"), std::string::npos);
    EXPECT_STREQ(tr("Open"), "Open");
}

// The shipped catalogs load without a refused entry (scripts/i18n_check.py checks completeness).
TEST(I18n, ShippedCatalogsLoadClean) {
    EnglishAfter restore;
    for (const Language lang : {Language::Ko, Language::Zh}) {
        const std::vector<std::string> problems = set_language(lang, NORMLAB_ASSETS_DIR "/i18n");
        EXPECT_TRUE(problems.empty()) << problems.front();
        EXPECT_STRNE(tr("Close"), "Close") << language_code(lang);
    }
}
