// NormLab fuzzing: the translation catalog loader (normlab/base/i18n.hpp, parse_po: a PO file's
// text → msgid → msgstr, bad entries refused with their line).
//
// Input: any bytes, taken as the file's text (up to -max_len, 8192 in scripts/fuzz.sh).
// Expected: parse_po never throws; every entry it keeps is UTF-8 and has its msgid's
// placeholders (the same {N}, the same printf conversions in order, the same ## ID), so that a
// translator's file cannot turn a text into a different printf format; every problem names the file.
#include "fuzz_target.hpp"

#include "normlab/base/i18n.hpp"
#include "normlab/base/text.hpp"

namespace {
bool utf8(std::string_view s) {
    std::size_t i = 0;
    char32_t cp = 0;
    while (i < s.size())
        if (!normlab::next_utf8(s, i, cp)) return false;
    return true;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using normlab::fuzz::expect;
    const normlab::Catalog catalog = normlab::parse_po(normlab::fuzz::as_text(data, size), "f.po");
    for (const auto& [id, str] : catalog.texts) {
        expect(!str.empty(), "an empty msgstr was kept for \"" + id + "\"");
        expect(utf8(id) && utf8(str), "an entry that is not UTF-8 was kept");
        expect(normlab::placeholder_mismatch(id.substr(id.find('\x04') + 1), str).empty(),
               "an entry whose placeholders differ was kept: \"" + id + "\"");
    }
    for (const std::string& p : catalog.problems) expect(p.rfind("f.po:", 0) == 0, "a problem without the file's name: " + p);
    return 0;
}
