// normlab_i18n_check: every text marked with tr("…") or tr_later("…") in the sources has a
// translation in each catalog, no catalog entry is stale, and placeholders agree
// (docs/i18n/TRANSLATING.md).
//
//   normlab_i18n_check CATALOG_DIR SOURCE_DIR...            check; exit 1 with one line per problem
//   normlab_i18n_check --update CATALOG_DIR SOURCE_DIR...   rewrite the catalogs: every marked text
//       (sorted, with the files that mark it), translations kept, new ones empty, stale ones dropped
//   normlab_i18n_check --english-share LOG MAX              at most MAX % of each page's worded texts
//       in a `normlab --check-layout --text-log LOG` log English (english_share.cpp)
#include <normlab/base/i18n.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>

namespace fs = std::filesystem;
using namespace normlab;

namespace {

std::string read(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Source text with comments blanked (string and character literals kept), so that a tr("…")
// in a comment is not a marked text.
std::string without_comments(const std::string& src) {
    std::string out = src;
    for (std::size_t i = 0; i < out.size(); ++i) {
        const char c = out[i];
        if (c == '"' || c == '\'') {
            for (++i; i < out.size() && out[i] != c && out[i] != '\n'; ++i)
                if (out[i] == '\\') ++i;
        } else if (c == '/' && i + 1 < out.size() && out[i + 1] == '/') {
            for (; i < out.size() && out[i] != '\n'; ++i) out[i] = ' ';
        } else if (c == '/' && i + 1 < out.size() && out[i + 1] == '*') {
            for (; i + 1 < out.size() && !(out[i] == '*' && out[i + 1] == '/'); ++i)
                if (out[i] != '\n') out[i] = ' ';
            if (i + 1 < out.size()) out[i] = out[i + 1] = ' ';
        }
    }
    return out;
}

// One C++ string literal's body decoded (simple, octal and \x escapes); i at its opening quote,
// left after the closing one. False if the literal is malformed.
bool literal(const std::string& s, std::size_t& i, std::string& out) {
    for (++i; i < s.size() && s[i] != '"'; ++i) {
        if (s[i] == '\n') return false;
        if (s[i] != '\\') {
            out += s[i];
            continue;
        }
        const char e = s[++i];
        const std::string simple = "n\nt\tr\r\"\"\\\\''??a\ab\bf\fv\v";
        if (const std::size_t at = simple.find(e); at != std::string::npos && at % 2 == 0) {
            out += simple[at + 1];
        } else if (e == 'x' || (e >= '0' && e <= '7')) {
            const bool hex = e == 'x';
            std::size_t j = hex ? i + 1 : i, n = 0;
            unsigned value = 0;
            while (j < s.size() && n < (hex ? 2u : 3u) && std::isxdigit(static_cast<unsigned char>(s[j])) && (hex || s[j] <= '7')) {
                value = value * (hex ? 16 : 8) + static_cast<unsigned>(std::stoi(std::string(1, s[j]), nullptr, 16));
                ++j, ++n;
            }
            out += static_cast<char>(value);
            i = j - 1;
        } else {
            return false;
        }
    }
    ++i;
    return true;
}

struct Marked {
    std::map<std::string, std::set<std::string>> files;   // text → the files that mark it
    std::vector<std::string> problems;
};

// Each tr("…") / tr_later("…") whose first argument is a literal (adjacent literals joined).
void extract(const fs::path& file, const std::string& shown, Marked& marked) {
    const std::string src = without_comments(read(file));
    for (const std::string marker : {"tr(", "tr_later("}) {
        for (std::size_t at = src.find(marker); at != std::string::npos; at = src.find(marker, at + 1)) {
            if (at > 0 && (std::isalnum(static_cast<unsigned char>(src[at - 1])) || src[at - 1] == '_')) continue;
            std::size_t i = at + marker.size();
            std::string text;
            bool any = false;
            for (;;) {
                while (i < src.size() && std::isspace(static_cast<unsigned char>(src[i]))) ++i;
                if (src.compare(i, 3, "u8\"") == 0) i += 2;
                if (i >= src.size() || src[i] != '"') break;
                if (!literal(src, i, text)) {
                    marked.problems.push_back(shown + ": a marked literal that cannot be read");
                    break;
                }
                any = true;
            }
            if (any && !text.empty()) marked.files[text].insert(shown);
        }
    }
}

std::string po_quote(const std::string& text) {
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"' || c == '\\') out += '\\', out += c;
        else if (c == '\n') out += "\\n";
        else if (c == '\t') out += "\\t";
        else if (c == '\r') out += "\\r";
        else out += c;
    }
    return out + "\"";
}

// A PO field, split after each \n as gettext writes it.
std::string po_field(const char* keyword, const std::string& text) {
    const std::size_t nl = text.find('\n');
    if (nl == std::string::npos || nl + 1 == text.size()) return std::string(keyword) + " " + po_quote(text) + "\n";
    std::string out = std::string(keyword) + " \"\"\n";
    for (std::size_t start = 0; start < text.size();) {
        const std::size_t end = std::min(text.find('\n', start), text.size() - 1) + 1;
        out += po_quote(text.substr(start, end - start)) + "\n";
        start = end;
    }
    return out;
}

std::string header(Language lang) {
    return "# NormLab's user interface in " + std::string(language_name(lang)) +
           " (docs/i18n/TRANSLATING.md, docs/i18n/GLOSSARY.md).\n"
           "# Written by normlab_i18n_check --update: keep the order; fill in msgstr.\n"
           "msgid \"\"\nmsgstr \"\"\n\"Project-Id-Version: NormLab\\n\"\n\"Language: " +
           (lang == Language::Ko ? std::string("ko") : std::string("zh_CN")) +
           "\\n\"\n\"MIME-Version: 1.0\\n\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n"
           "\"Content-Transfer-Encoding: 8bit\\n\"\n";
}

int check_or_update(const fs::path& catalogs, const Marked& marked, bool update) {
    int problems = 0;
    const auto say = [&](const std::string& line) {
        std::cout << line << "\n";
        ++problems;
    };
    for (const std::string& p : marked.problems) say(p);
    for (const Language lang : {Language::Ko, Language::Zh}) {
        const fs::path path = catalogs / catalog_file(lang);
        const Catalog catalog = parse_po(read(path), path.filename().string());
        if (!fs::exists(path)) say(path.string() + ": missing");
        for (const std::string& p : catalog.problems) say(p);
        const std::set<std::string> untranslated(catalog.untranslated.begin(), catalog.untranslated.end());
        if (update) {
            if (!catalog.problems.empty()) continue;   // fix those first: a rewrite would drop the entries
            std::string po = header(lang);
            for (const auto& [text, files] : marked.files) {
                po += "\n#:";
                for (const std::string& f : files) po += " " + f;
                const auto it = catalog.texts.find(text);
                po += "\n" + po_field("msgid", text) + po_field("msgstr", it == catalog.texts.end() ? "" : it->second);
            }
            std::ofstream(path, std::ios::binary) << po;
            continue;
        }
        for (const auto& [text, files] : marked.files) {
            if (catalog.texts.count(text) != 0) continue;
            say(path.filename().string() + ": " + (untranslated.count(text) != 0 ? "untranslated" : "no entry for") + " " +
                po_quote(text) + " (" + *files.begin() + ")");
        }
        std::set<std::string> entries(untranslated);
        for (const auto& kv : catalog.texts) entries.insert(kv.first);
        for (const std::string& text : entries)
            if (marked.files.count(text) == 0) say(path.filename().string() + ": stale entry " + po_quote(text) + " (no source marks it)");
    }
    if (!update) std::cout << marked.files.size() << " marked texts, " << problems << " problems\n";
    return problems == 0 ? 0 : 1;
}

}  // namespace

namespace normlab {
int english_share(const std::string& log_path, double max_percent);
}

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.size() == 3 && args[0] == "--english-share") return english_share(args[1], std::stod(args[2]));
    const bool update = !args.empty() && args[0] == "--update";
    if (update) args.erase(args.begin());
    if (args.size() < 2) {
        std::cerr << "usage: normlab_i18n_check [--update] CATALOG_DIR SOURCE_DIR...\n";
        return 2;
    }
    const fs::path root = fs::weakly_canonical(args[1]).parent_path();
    Marked marked;
    std::vector<fs::path> files;
    for (std::size_t a = 1; a < args.size(); ++a)
        for (const auto& e : fs::recursive_directory_iterator(args[a]))
            if (e.is_regular_file() && (e.path().extension() == ".cpp" || e.path().extension() == ".hpp")) files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) extract(f, fs::relative(fs::weakly_canonical(f), root).generic_string(), marked);
    return check_or_update(args[0], marked, update);
}
