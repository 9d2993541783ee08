// NormLab core: the user interface's languages — gettext PO catalogs and tr(), the one marker of
// a translatable text (docs/i18n/TRANSLATING.md).
//
// [SECTION] Languages  — en, ko, zh: codes, names, from a locale
// [SECTION] Catalogs   — a PO file's text → msgid → msgstr, bad entries refused with their line
// [SECTION] Marker     — tr("…"), tr("… {0} …", args…), tr_later("…"); the active language
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <vector>

namespace normlab {

// [SECTION] Languages -----------------------------------------------------------------------

enum class Language { En, Ko, Zh };
inline constexpr Language kLanguages[] = {Language::En, Language::Ko, Language::Zh};

// "en", "ko", "zh".
const char* language_code(Language lang);
// The language's own name, as a menu lists it: "English", "한국어", "简体中文".
const char* language_name(Language lang);
// The catalog's file name under assets/i18n/: "ko.po", "zh_CN.po" ("" for English).
const char* catalog_file(Language lang);

// "en", "ko", "zh" (and "ko_KR.UTF-8", "zh_CN", "zh-Hans", "EN"): the language; else nullopt.
std::optional<Language> parse_language(std::string_view code);

// The language POSIX's locale variables name for messages: the first set and non-empty of
// LC_ALL, LC_MESSAGES, LANG (pass null for unset). "C", "POSIX" and languages without a catalog
// are English.
Language language_from_locale(const char* lc_all, const char* lc_messages, const char* lang);

// [SECTION] Catalogs ------------------------------------------------------------------------

// A translator's file is input like any other: each entry is checked when it loads, and a bad
// one is left out (its English shows) with a line in `problems`, "ko.po:12: …".
struct Catalog {
    std::unordered_map<std::string, std::string> texts;   // msgid (msgctxt + '\x04' + msgid) → msgstr
    std::vector<std::string> untranslated;   // msgids whose msgstr is empty or "#, fuzzy"
    std::vector<std::string> problems;
};

// The entries of a PO file (UTF-8; msgctxt, msgid, msgstr, continued strings, C escapes,
// comments; "#, fuzzy" entries and empty msgstr are untranslated). Refused with a problem: a
// syntax error (until the next entry), an unknown escape, invalid UTF-8, plural forms, a
// duplicate msgid, a header naming a charset other than UTF-8, and placeholders that differ from
// the msgid's (same_placeholders). `name` opens each problem. Never throws on any input.
Catalog parse_po(std::string_view text, std::string_view name);

// A text's placeholders: each "{N}" (N = 0…9) once, in ascending order, then its printf
// conversions ("%d", "%.3f", "%%"…) in order of appearance.
std::vector<std::string> placeholders(std::string_view text);
// Whether a translation may stand for its msgid: the same {N} and the same printf conversions in
// the same order (a text that is a printf format stays one), and the same ImGui ID after "##".
// Empty when they agree, else why.
std::string placeholder_mismatch(std::string_view msgid, std::string_view msgstr);

// text with each {N} replaced by args[N] (a {N} without an argument stays as it is).
std::string fill_placeholders(std::string_view text, const std::vector<std::string>& args);

// [SECTION] Marker --------------------------------------------------------------------------

// Loads (once) and makes active the catalog of `lang` from `i18n_dir` (assets/i18n). Returns
// the catalog's problems (a missing or unreadable file: one), empty when it loaded clean; the
// language is active either way, with English wherever its catalog has no text. Call it from
// the UI thread between frames; tr() may run on any thread.
std::vector<std::string> set_language(Language lang, const std::string& i18n_dir);
// The same with a catalog already parsed (tests, the page).
void set_language(Language lang, Catalog catalog);
Language current_language();
// The active catalog (null for English): the fonts build its characters. Never freed.
const Catalog* active_catalog();

// The active language's text for an English msgid, or the msgid itself. The pointer stays valid
// for the program's life (catalogs are never unloaded). tr() is also the mark that
// scripts/i18n_check.py finds: its argument must be a string literal.
const char* tr(const char* msgid);

// A text with placeholders: tr("Loaded {0} rows from {1}", rows, name). Arguments are text or
// integers; format other numbers first (format_number) so that they read the same in every language.
template <class... Args, class = std::enable_if_t<(sizeof...(Args) > 0)>>
std::string tr(const char* msgid, const Args&... args) {
    const auto text = [](const auto& a) {
        using T = std::decay_t<decltype(a)>;
        if constexpr (std::is_integral_v<T>) {
            return std::to_string(a);
        } else {
            static_assert(std::is_convertible_v<T, std::string_view>, "tr(): format numbers first (format_number)");
            return std::string(std::string_view(a));
        }
    };
    return fill_placeholders(tr(msgid), {text(args)...});
}

// Marks a literal stored now and translated where it is drawn (tr(label)): a table's labels.
constexpr const char* tr_later(const char* msgid) { return msgid; }

}  // namespace normlab
