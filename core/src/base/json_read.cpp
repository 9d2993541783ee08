// NormLab core: parse_json and the JSON readers (see json_read.hpp).
#include "normlab/base/json_read.hpp"

#include "normlab/base/text.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cmath>
#include <unordered_set>
#include <vector>

namespace normlab {

using nlohmann::json;
using Mat = Eigen::MatrixXd;
using Vec = Eigen::VectorXd;

std::string count_text(Eigen::Index n, std::string_view one, std::string_view many) {
    return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

std::string element_path(const std::string& path, std::size_t i) { return path + "[" + std::to_string(i) + "]"; }

namespace {

// Where the parser is, one frame per open list or object, so that a number the parser
// rejects (1e999, NaN) can be named by its path: x[0][1]. It also refuses a key that an object
// already has (nlohmann would keep the last value silently): `labs.explorer.x is given twice`.
// It also enforces parse_json's limits: depth and the number of values.
class ParsePath {
public:
    explicit ParsePath(std::string_view what) : what_(what) {}

    void on_event(json::parse_event_t event, const json& parsed) {
        if (event != json::parse_event_t::key && event != json::parse_event_t::object_end &&
            event != json::parse_event_t::array_end && ++values_ > kMaxJsonValues)
            throw InputError(what_ + " holds more than " + std::to_string(kMaxJsonValues) + " values (the limit)");
        switch (event) {
            case json::parse_event_t::object_start: open(false); break;
            case json::parse_event_t::array_start: open(true); break;
            case json::parse_event_t::key: {
                Frame& f = frames_.back();
                f.key = parsed.get<std::string>();
                if (!f.keys.insert(f.key).second)
                    throw InputError(path() + " is given twice (each key may appear once in an object)");
                break;
            }
            case json::parse_event_t::value: next(); break;
            case json::parse_event_t::object_end:
            case json::parse_event_t::array_end:
                frames_.pop_back();
                next();
                break;
        }
    }

    // "x[0][1]"; a key that is not a plain name is quoted: x["a b"][0]. Empty at the top level.
    std::string path() const {
        std::string out;
        for (const Frame& f : frames_) {
            if (f.list)
                out = element_path(out, f.index);
            else if (plain_name(f.key))
                out += (out.empty() ? "" : ".") + f.key;
            else
                out += "[" + quote_for_message(f.key) + "]";
        }
        return out;
    }

private:
    struct Frame {
        bool list;
        std::size_t index;                     // lists: the element being parsed
        std::string key;                       // objects: the member being parsed
        std::unordered_set<std::string> keys;  // objects: the keys so far
    };

    void open(bool list) {
        if (frames_.size() >= static_cast<std::size_t>(kMaxJsonDepth)) {
            std::string where = path();
            if (where.size() > 60) where = where.substr(0, 48) + "…";   // x[0][0][0]… 64 deep says little more
            throw InputError((where.empty() ? what_ : where) + " is nested deeper than " +
                             std::to_string(kMaxJsonDepth) + " levels (the limit)");
        }
        frames_.push_back({list, 0, {}, {}});
    }

    // A value is complete: the enclosing list moves on to its next element.
    void next() {
        if (!frames_.empty() && frames_.back().list) ++frames_.back().index;
    }

    static bool plain_name(const std::string& key) {
        if (key.empty()) return false;
        for (char c : key)
            if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
        return true;
    }

    std::vector<Frame> frames_;
    std::string what_;
    std::size_t values_ = 0;
};

// NaN, Infinity, -inf, …: a non-finite number spelled as JavaScript or C print it, which JSON
// has no syntax for, when the word the parser stopped at (its last byte read is text[last]) is
// one; "" otherwise.
std::string non_finite_word(std::string_view text, std::size_t last) {
    const auto in_word = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '+' || c == '-'; };
    if (last >= text.size() || !in_word(text[last])) return "";
    std::size_t begin = last, end = last;
    while (begin > 0 && in_word(text[begin - 1])) --begin;
    while (end < text.size() && (in_word(text[end]) || std::isdigit(static_cast<unsigned char>(text[end])))) ++end;
    const std::string_view word = text.substr(begin, end - begin);
    std::string bare(word.substr(word.front() == '+' || word.front() == '-' ? 1 : 0));
    for (char& c : bare) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return bare == "nan" || bare == "inf" || bare == "infinity" ? std::string(word) : "";
}

}  // namespace

// [SECTION] JSON readers --------------------------------------------------------------------

std::string quote_for_message(std::string_view s) {
    constexpr std::size_t kMax = 40;
    std::size_t cut = s.size();
    if (s.size() > kMax) {
        cut = utf8_floor(s, kMax);
    }
    const std::string dumped =
        json(std::string(s.substr(0, cut))).dump(-1, ' ', false, json::error_handler_t::replace);
    // dump escapes C0 controls; DEL and the C1 controls (U+0080–U+009F) are escaped here too.
    std::string literal;
    for (std::size_t i = 0; i < dumped.size(); ++i) {
        const auto c = static_cast<unsigned char>(dumped[i]);
        const auto next = i + 1 < dumped.size() ? static_cast<unsigned char>(dumped[i + 1]) : 0u;
        if (c == 0x7F || (c == 0xC2 && next >= 0x80 && next <= 0x9F)) {
            char esc[8];
            std::snprintf(esc, sizeof esc, "\\u%04x", c == 0x7F ? 0x7Fu : next);
            literal += esc;
            if (c == 0xC2) ++i;
        } else {
            literal += dumped[i];
        }
    }
    return cut == s.size() ? literal : literal.substr(0, literal.size() - 1) + "...\"";
}

std::string describe_json(const json& value) {
    switch (value.type()) {
        case json::value_t::null: return "null";
        case json::value_t::boolean: return value.get<bool>() ? "boolean true" : "boolean false";
        case json::value_t::string: return "string " + quote_for_message(value.get_ref<const std::string&>());
        case json::value_t::number_integer:
        case json::value_t::number_unsigned:
        case json::value_t::number_float: return "number " + value.dump();
        case json::value_t::array: return "a list";
        case json::value_t::object: return "an object";
        case json::value_t::binary:
        case json::value_t::discarded: break;
    }
    return "an invalid value";
}

json parse_json(std::string_view text, std::string_view what) {
    // nlohmann's lexer takes a NUL byte for the end of the text and would ignore what follows.
    if (const std::size_t nul = text.find('\0'); nul != std::string_view::npos) {
        const std::size_t line_start = text.rfind('\n', nul);
        const std::size_t column = nul - (line_start == std::string_view::npos ? 0 : line_start + 1) + 1;
        const auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(nul), '\n');
        throw InputError(std::string(what) + " is not valid JSON: a NUL byte at line " + std::to_string(line) +
                         ", column " + std::to_string(column) + " (byte " + std::to_string(nul + 1) + " of " +
                         std::to_string(text.size()) + ")");
    }
    ParsePath where(what);
    const json::parser_callback_t track = [&where](int, json::parse_event_t event, json& parsed) {
        where.on_event(event, parsed);
        return true;
    };
    try {
        return json::parse(text.begin(), text.end(), track);
    } catch (const json::out_of_range&) {
        // nlohmann's only out_of_range while parsing: a number that overflows a double (406).
        const std::string path = where.path();
        throw InputError((path.empty() ? std::string(what) : path) + " is not finite (it overflows the double range)");
    } catch (const json::parse_error& e) {
        // e.what() = "[json.exception.parse_error.101] parse error at line 1, column 7: ...";
        // the lexer escapes control characters, so the message is one line.
        const std::string message = e.what();
        const std::string word =
            message.find("while parsing value") == std::string::npos || e.byte == 0 ? "" : non_finite_word(text, e.byte - 1);
        if (!word.empty()) {
            const std::string path = where.path();
            throw InputError((path.empty() ? std::string(what) : path) + " is not finite (got " + word +
                             ", which is not valid JSON)");
        }
        const std::size_t tag_end = message.find("] ");
        throw InputError(std::string(what) + " is not valid JSON: " +
                         (tag_end == std::string::npos ? message : message.substr(tag_end + 2)));
    }
}

std::string read_string(const json& value, const std::string& path) {
    if (!value.is_string()) throw InputError(path + " is not a string (got " + describe_json(value) + ")");
    return value.get<std::string>();
}

double read_number(const json& value, const std::string& path) {
    if (!value.is_number()) throw InputError(path + " is not a number (got " + describe_json(value) + ")");
    const double v = value.get<double>();
    if (!std::isfinite(v)) throw InputError(path + " is not finite");
    return v;
}

Vec read_vector(const json& value, const std::string& path) {
    if (!value.is_array()) throw InputError(path + " is not a list of numbers (got " + describe_json(value) + ")");
    if (value.empty()) throw InputError(path + " is empty");
    Vec v(static_cast<Eigen::Index>(value.size()));
    for (std::size_t i = 0; i < value.size(); ++i)
        v(static_cast<Eigen::Index>(i)) = read_number(value[i], element_path(path, i));
    return v;
}

namespace {
enum class FlatList { OneRow, Error };  // what a flat list of numbers means

// R lists of C numbers → R×C; rows are checked in order, so the first bad entry is named.
Mat read_lists(const json& value, const std::string& path, FlatList flat) {
    if (!value.is_array()) throw InputError(path + " is not a list (got " + describe_json(value) + ")");
    if (value.empty()) throw InputError(path + " is empty");
    if (flat == FlatList::OneRow && !value[0].is_array()) return read_vector(value, path).transpose();

    const std::string first = element_path(path, 0);
    Mat out;  // R×C, sized from the first row
    for (std::size_t i = 0; i < value.size(); ++i) {
        const std::string row = element_path(path, i);
        const Vec v = read_vector(value[i], row);
        if (i == 0)
            out.resize(static_cast<Eigen::Index>(value.size()), v.size());
        else if (v.size() != out.cols())
            throw InputError(row + " has " + count_text(v.size(), "entry", "entries") + ", " + first + " has " + std::to_string(out.cols()));
        out.row(static_cast<Eigen::Index>(i)) = v.transpose();
    }
    return out;
}
}  // namespace

Mat read_matrix(const json& value, const std::string& path) { return read_lists(value, path, FlatList::Error); }

Mat read_rows(const json& value, const std::string& path) { return read_lists(value, path, FlatList::OneRow); }

}  // namespace normlab
