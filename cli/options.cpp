// normlab-cli: the shared option parser (see options.hpp).
#include "options.hpp"

#include "normlab/base/input_error.hpp"

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>

namespace normlab::cli {

namespace {
std::string known_list(const std::vector<OptionSpec>& known) {
    std::string out;
    for (const OptionSpec& o : known) out += (out.empty() ? "--" : ", --") + std::string(o.name);
    return out;
}

// Decimal numbers only: from_chars takes no hex ("0x10" is not 16), no leading spaces, no
// "inf" or "nan" spelled as numbers. A leading '+' is allowed.
double parse_finite(std::string_view text, const std::string& what) {
    std::string_view digits = text.substr(0, 1) == "+" ? text.substr(1) : text;
    const std::string_view word = digits.substr(digits.substr(0, 1) == "-" ? 1 : 0);
    const auto is = [&](std::string_view w) {
        if (word.size() != w.size()) return false;
        for (std::size_t i = 0; i < w.size(); ++i)
            if (std::tolower(static_cast<unsigned char>(word[i])) != w[i]) return false;
        return true;
    };
    if (is("inf") || is("infinity") || is("nan"))
        throw InputError(what + " is not finite (got " + quote_for_message(text) + ")");
    double v = 0.0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
    if (digits.empty() || digits.substr(0, 1) == "+" || end != digits.data() + digits.size() ||
        ec == std::errc::invalid_argument)
        throw InputError(what + " is not a number (got " + quote_for_message(text) + ")");
    if (ec == std::errc::result_out_of_range) {
        const auto e = word.find_first_of("eE");
        const bool tiny = e != std::string_view::npos && word.substr(e + 1, 1) == "-";
        if (!tiny) throw InputError(what + " is not finite (got " + quote_for_message(text) + ")");
        return 0.0;   // below the smallest double: zero, as strtod gives
    }
    return v;
}
}  // namespace

Options::Options(std::string_view command, const Args& args, std::vector<OptionSpec> known)
    : command_(command) {
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string_view arg = args[i];
        if (arg.substr(0, 2) != "--")
            throw InputError("unexpected argument " + quote_for_message(arg) + " for " + command_ + " (options: " +
                             known_list(known) + ")");
        std::string_view name = arg.substr(2);
        std::optional<std::string_view> inline_value;
        if (const size_t eq = name.find('='); eq != std::string_view::npos) {
            inline_value = name.substr(eq + 1);
            name = name.substr(0, eq);
        }
        const OptionSpec* spec = nullptr;
        for (const OptionSpec& o : known)
            if (o.name == name) spec = &o;
        if (!spec)
            throw InputError("unknown option " + quote_for_message(arg) + " for " + command_ + " (options: " +
                             known_list(known) + ")");
        std::string value;
        if (spec->takes_value) {
            if (inline_value) value = *inline_value;
            else if (i + 1 < args.size()) value = args[++i];
            else throw InputError("--" + std::string(name) + " needs a value");
        } else if (inline_value) {
            throw InputError("--" + std::string(name) + " takes no value");
        }
        values_[std::string(name)] = value;
    }
}

bool Options::flag(std::string_view name) const { return values_.find(name) != values_.end(); }

std::optional<std::string> Options::value(std::string_view name) const {
    const auto it = values_.find(name);
    if (it == values_.end()) return std::nullopt;
    return it->second;
}

double Options::number(std::string_view name, double fallback) const {
    const auto v = value(name);
    return v ? parse_finite(*v, "--" + std::string(name)) : fallback;
}

long Options::integer(std::string_view name, long fallback, long lo, long hi) const {
    const auto v = value(name);
    if (!v) return fallback;
    const double d = parse_finite(*v, "--" + std::string(name));
    if (d != std::floor(d) || d < static_cast<double>(lo) || d > static_cast<double>(hi))
        throw InputError("--" + std::string(name) + " = " + *v + " must be a whole number in [" + std::to_string(lo) +
                         ", " + std::to_string(hi) + "]");
    return static_cast<long>(d);
}

std::vector<std::string> Options::items(std::string_view name) const {
    std::vector<std::string> out;
    const auto v = value(name);
    if (!v) return out;
    size_t start = 0;
    for (;;) {
        const size_t comma = v->find(',', start);
        out.push_back(v->substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return out;
}

std::vector<double> Options::numbers(std::string_view name) const {
    std::vector<double> out;
    const std::vector<std::string> parts = items(name);
    for (size_t i = 0; i < parts.size(); ++i)
        out.push_back(parse_finite(parts[i], "--" + std::string(name) + " entry " + std::to_string(i)));
    return out;
}

}  // namespace normlab::cli
