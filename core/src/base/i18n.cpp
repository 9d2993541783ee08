// The PO loader, placeholder checks and the active language behind tr() (base/i18n.hpp).
#include "normlab/base/i18n.hpp"

#include "normlab/base/text.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>

namespace normlab {

// [SECTION] Languages -----------------------------------------------------------------------

const char* language_code(Language lang) {
    switch (lang) {
        case Language::Ko: return "ko";
        case Language::Zh: return "zh";
        case Language::Pseudo: return "pseudo";
        case Language::En: break;
    }
    return "en";
}

const char* language_name(Language lang) {
    switch (lang) {
        case Language::Ko: return "한국어";
        case Language::Zh: return "简体中文";
        case Language::Pseudo: return "Pseudo (+40 %)";
        case Language::En: break;
    }
    return "English";
}

const char* catalog_file(Language lang) {
    switch (lang) {
        case Language::Ko: return "ko.po";
        case Language::Zh: return "zh_CN.po";
        case Language::Pseudo:
        case Language::En: break;
    }
    return "";
}

std::optional<Language> parse_language(std::string_view code) {
    // The language part of "ll_CC.charset@modifier" or "ll-Script", lower-cased.
    std::string ll;
    for (const char c : code) {
        if (c == '_' || c == '-' || c == '.' || c == '@') break;
        ll += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    }
    if (ll == "en") return Language::En;
    if (ll == "ko") return Language::Ko;
    if (ll == "zh") return Language::Zh;
    if (ll == "pseudo") return Language::Pseudo;
    return std::nullopt;
}

Language language_from_locale(const char* lc_all, const char* lc_messages, const char* lang) {
    for (const char* value : {lc_all, lc_messages, lang}) {
        if (value == nullptr || *value == '\0') continue;
        const std::optional<Language> named = parse_language(value);   // the first set one decides
        return named && *named != Language::Pseudo ? *named : Language::En;
    }
    return Language::En;
}

// [SECTION] Catalogs ------------------------------------------------------------------------

namespace {

// A PO string's body (between its quotes) with its C escapes decoded; false with `why` if bad.
bool unescape_po(std::string_view body, std::string& out, std::string& why) {
    for (std::size_t i = 0; i < body.size(); ++i) {
        const char c = body[i];
        if (c == '"') {
            why = "a quote inside a string must be written \\\"";
            return false;
        }
        if (c != '\\') {
            out += c;
            continue;
        }
        if (++i == body.size()) {
            why = "a string ends in a lone backslash";
            return false;
        }
        switch (body[i]) {
            case 'n': out += '\n'; break;
            case 't': out += '\t'; break;
            case 'r': out += '\r'; break;
            case '"': out += '"'; break;
            case '\\': out += '\\'; break;
            default:
                why = std::string("unknown escape \\") + body[i];
                return false;
        }
    }
    return true;
}

bool valid_utf8(std::string_view s) {
    std::size_t i = 0;
    char32_t cp = 0;
    while (i < s.size())
        if (!next_utf8(s, i, cp) || cp == 0) return false;
    return true;
}

// One entry as it is read: which keyword a continued string belongs to, and the texts so far.
struct PoReader {
    PoReader(std::string_view file_name, Catalog& out) : name(file_name), catalog(out) {}
    std::string_view name;
    Catalog& catalog;
    enum class Field { None, Context, Id, Str } field = Field::None;
    std::string context, id, str;
    bool has_context = false, has_id = false, has_str = false, fuzzy = false, bad = false;
    int entry_line = 0;

    void problem(int line, const std::string& what) {
        std::ostringstream s;
        s << name << ':' << line << ": " << what;
        catalog.problems.push_back(s.str());
    }

    // Ends the entry read so far: adds it, or says why not.
    void finish() {
        if (!bad && (has_id || has_context || has_str)) add();
        field = Field::None;
        context.clear(), id.clear(), str.clear();
        has_context = has_id = has_str = fuzzy = bad = false;
    }

    void add() {
        if (!has_id || !has_str) return problem(entry_line, "an entry needs both msgid and msgstr");
        if (!valid_utf8(context) || !valid_utf8(id) || !valid_utf8(str))
            return problem(entry_line, "not UTF-8 text (or a NUL character)");
        if (id.empty() && !has_context) return check_header();
        const std::string key = has_context ? context + '\x04' + id : id;
        if (fuzzy || str.empty()) return catalog.untranslated.push_back(key);   // the English shows
        if (const std::string why = placeholder_mismatch(id, str); !why.empty())
            return problem(entry_line, "msgstr for \"" + id + "\": " + why + "; entry left out");
        if (!catalog.texts.emplace(key, str).second)
            problem(entry_line, "a second entry for msgid \"" + id + "\"; the first is kept");
    }

    void check_header() {
        const std::size_t at = str.find("charset=");
        if (at == std::string::npos) return;
        std::string charset = str.substr(at + 8, str.find('\n', at) - at - 8);
        std::transform(charset.begin(), charset.end(), charset.begin(), [](char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c; });
        if (trim_spaces(charset) != "UTF-8") problem(entry_line, "the header names charset " + charset + "; NormLab reads UTF-8 only");
    }

    // A quoted string at the start of `rest`, appended to the current field.
    void string_part(int line, std::string_view rest) {
        rest = trim_spaces(rest);
        if (rest.size() < 2 || rest.front() != '"' || rest.back() != '"') {
            problem(line, "expected a quoted string");
            bad = true;
            return;
        }
        std::string* target = field == Field::Context ? &context : field == Field::Id ? &id : field == Field::Str ? &str : nullptr;
        if (target == nullptr) {
            problem(line, "a string outside msgctxt, msgid or msgstr");
            bad = true;
            return;
        }
        std::string why;
        if (!unescape_po(rest.substr(1, rest.size() - 2), *target, why)) {
            problem(line, why);
            bad = true;
        }
    }

    void keyword(int line, std::string_view word, std::string_view rest) {
        const bool pending = has_id || has_str || bad;
        if ((word == "msgctxt" && (pending || has_context)) || (word == "msgid" && pending)) finish();
        if (!has_context && !has_id) entry_line = line;
        if (bad) return;   // skip the rest of a bad entry
        const bool twice = (word == "msgctxt" && has_context) || (word == "msgid" && has_id) || (word == "msgstr" && has_str);
        if (twice || (word == "msgstr" && !has_id)) {
            problem(line, std::string(word) + " out of place");
            bad = true;
            return;
        }
        if (word == "msgctxt") field = Field::Context, has_context = true;
        if (word == "msgid") field = Field::Id, has_id = true;
        if (word == "msgstr") field = Field::Str, has_str = true;
        string_part(line, rest);
    }

    void line(int number, std::string_view text) {
        text = trim_spaces(text);
        if (text.empty()) return finish();
        if (text.front() == '#') {
            if (text.size() > 1 && text[1] == ',' && text.find("fuzzy") != std::string_view::npos) {
                finish();
                fuzzy = true;
            }
            return;
        }
        if (text.front() == '"') {
            if (!bad) string_part(number, text);
            return;
        }
        const std::size_t space = text.find_first_of(" \t");
        const std::string_view word = text.substr(0, space);
        const std::string_view rest = space == std::string_view::npos ? std::string_view() : text.substr(space);
        if (word == "msgctxt" || word == "msgid" || word == "msgstr") return keyword(number, word, rest);
        if (word == "msgid_plural" || word.substr(0, 7) == "msgstr[") {
            problem(number, "plural forms are not used by NormLab; entry left out");
        } else {
            problem(number, "expected msgctxt, msgid, msgstr, a quoted string or a # comment");
        }
        bad = true;
        if (!has_id) entry_line = number;
    }
};

}  // namespace

Catalog parse_po(std::string_view text, std::string_view name) {
    Catalog catalog;
    PoReader reader(name, catalog);
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);   // a BOM some editors write
    int number = 0;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        reader.line(++number, text.substr(start, end - start));
        start = end + 1;
    }
    reader.finish();
    return catalog;
}

namespace {

bool brace_at(std::string_view text, std::size_t i) {
    return text[i] == '{' && i + 2 < text.size() && text[i + 1] >= '0' && text[i + 1] <= '9' && text[i + 2] == '}';
}

// The length of the printf conversion at text[i] == '%' (flags, width, precision, length,
// conversion: "%-8.3lf"; not the space flag: "50 % of"); 1 for a lone '%'.
std::size_t conversion_length(std::string_view text, std::size_t i) {
    std::size_t j = i + 1;
    while (j < text.size() && std::string_view("-+#0123456789.*hlLzjt").find(text[j]) != std::string_view::npos) ++j;
    const bool conversion = j < text.size() && std::string_view("%diouxXeEfFgGaAcsp").find(text[j]) != std::string_view::npos;
    return conversion ? j - i + 1 : 1;
}

}  // namespace

std::vector<std::string> placeholders(std::string_view text) {
    std::vector<std::string> braces, conversions;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (brace_at(text, i)) {
            braces.emplace_back(text.substr(i, 3));
            i += 2;
        } else if (text[i] == '%') {
            const std::size_t n = conversion_length(text, i);   // a lone '%' must stay one too
            conversions.emplace_back(text.substr(i, n));
            i += n - 1;
        }
    }
    std::sort(braces.begin(), braces.end());
    braces.erase(std::unique(braces.begin(), braces.end()), braces.end());
    braces.insert(braces.end(), conversions.begin(), conversions.end());
    return braces;
}

std::string placeholder_mismatch(std::string_view msgid, std::string_view msgstr) {
    const auto id_of = [](std::string_view t) { const std::size_t at = t.find("##"); return at == std::string_view::npos ? std::string_view() : t.substr(at); };
    if (id_of(msgid) != id_of(msgstr)) return "the widget ID after ## differs from the msgid's \"" + std::string(id_of(msgid)) + "\"";
    const std::vector<std::string> want = placeholders(msgid), got = placeholders(msgstr);
    if (want == got) return "";
    const auto list = [](const std::vector<std::string>& p) {
        std::string s;
        for (const std::string& x : p) s += (s.empty() ? "" : " ") + x;
        return s.empty() ? std::string("none") : s;
    };
    return "placeholders " + list(got) + " differ from the msgid's " + list(want);
}

std::string pseudo_text(std::string_view text) {
    static const std::string_view plain = "aeiouAEIOUcnyC", accented[] = {"á", "é", "í", "ó", "ú", "Á", "É", "Í", "Ó", "Ú", "ç", "ñ", "ý", "Ç"};
    const std::size_t id = text.find("##");
    const std::string_view shown = text.substr(0, id);
    std::string out = "[";
    std::size_t chars = 0;
    for (std::size_t i = 0; i < shown.size(); ++chars) {
        const std::size_t n = brace_at(shown, i) ? 3 : shown[i] == '%' ? conversion_length(shown, i) : 1;
        const std::size_t at = n == 1 ? plain.find(shown[i]) : std::string_view::npos;
        if (at != std::string_view::npos) {
            out += accented[at];
            ++i;
            continue;
        }
        std::size_t end = i + n;
        while (n == 1 && end < shown.size() && is_utf8_continuation(shown[end])) ++end;   // a whole character
        out.append(shown.substr(i, end - i));
        i = end;
    }
    const std::size_t pad = (4 * chars + 9) / 10;   // 40 %, the brackets and space included
    out += " " + std::string(pad > 3 ? pad - 3 : 0, '~') + "]";
    return out + std::string(id == std::string_view::npos ? std::string_view() : text.substr(id));
}

std::string fill_placeholders(std::string_view text, const std::vector<std::string>& args) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (brace_at(text, i)) {
            const auto n = static_cast<std::size_t>(text[i + 1] - '0');
            if (n < args.size()) {
                out += args[n];
                i += 2;
                continue;
            }
        }
        out += text[i];
    }
    return out;
}

// [SECTION] Marker --------------------------------------------------------------------------

namespace {

// Catalogs once loaded stay (tr's pointers into them stay valid); the active one is an atomic
// pointer, so tr() on a worker thread reads either the old catalog or the new, never a torn one.
std::mutex g_catalogs_mutex;
std::map<std::string, std::unique_ptr<const Catalog>> g_catalogs;   // by file path (or code, set directly)
std::vector<std::unique_ptr<const Catalog>> g_replaced;
std::atomic<const Catalog*> g_active{nullptr};
std::atomic<Language> g_language{Language::En};

const Catalog* keep(const std::string& key, Catalog catalog) {
    auto& slot = g_catalogs[key];
    if (slot) g_replaced.push_back(std::move(slot));
    slot = std::make_unique<const Catalog>(std::move(catalog));
    return slot.get();
}

}  // namespace

std::vector<std::string> set_language(Language lang, const std::string& i18n_dir) {
    std::lock_guard<std::mutex> lock(g_catalogs_mutex);
    const Catalog* catalog = nullptr;
    if (lang == Language::Ko || lang == Language::Zh) {
        const std::string path = i18n_dir + "/" + catalog_file(lang);
        if (const auto it = g_catalogs.find(path); it != g_catalogs.end()) {
            catalog = it->second.get();
        } else {
            std::ifstream in(path, std::ios::binary);
            std::ostringstream text;
            text << in.rdbuf();
            Catalog loaded = parse_po(in ? text.str() : "", path);
            if (!in) loaded.problems.insert(loaded.problems.begin(), path + ": cannot be read; the texts stay in English");
            catalog = keep(path, std::move(loaded));
        }
    }
    g_active.store(catalog);
    g_language.store(lang);
    return catalog != nullptr ? catalog->problems : std::vector<std::string>{};
}

void set_language(Language lang, Catalog catalog) {
    std::lock_guard<std::mutex> lock(g_catalogs_mutex);
    const Catalog* kept = lang == Language::En ? nullptr : keep(language_code(lang), std::move(catalog));
    g_active.store(kept);
    g_language.store(lang);
}

Language current_language() { return g_language.load(); }

const Catalog* active_catalog() { return g_active.load(); }

const char* tr(const char* msgid) {
    if (g_language.load() == Language::Pseudo && msgid != nullptr && *msgid != '\0') {
        static std::mutex mutex;                                      // process-wide: guards texts
        static std::unordered_map<std::string, std::string> texts;   // process-wide: values stay put, valid for ever
        std::lock_guard<std::mutex> lock(mutex);
        auto it = texts.find(msgid);
        if (it == texts.end()) it = texts.emplace(msgid, pseudo_text(msgid)).first;
        return it->second.c_str();
    }
    const Catalog* catalog = g_active.load();
    if (catalog == nullptr || msgid == nullptr || *msgid == '\0') return msgid;
    const auto it = catalog->texts.find(msgid);
    return it == catalog->texts.end() ? msgid : it->second.c_str();
}

}  // namespace normlab
