// normlab-cli: the option parser the subcommands share. Options are `--name value`,
// `--name=value` or bare flags (`--json`); anything unknown or malformed is an InputError
// naming the option, so every subcommand reports bad arguments the same way.
#pragma once

#include "commands.hpp"

#include "normlab/base/input_error.hpp"   // InputError, quote_for_message

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace normlab::cli {

struct OptionSpec {
    std::string_view name;  // without the leading "--"
    bool takes_value;
};

class Options {
public:
    // Throws InputError on an unknown option, a missing value or a stray argument.
    Options(std::string_view command, const Args& args, std::vector<OptionSpec> known);

    bool flag(std::string_view name) const;
    std::optional<std::string> value(std::string_view name) const;

    // A finite number; `fallback` when absent. Throws InputError naming the option.
    double number(std::string_view name, double fallback) const;
    // A whole number in [lo, hi]; `fallback` when absent.
    long integer(std::string_view name, long fallback, long lo, long hi) const;
    // A comma-separated list of finite numbers ("2,4,6,8"), empty when absent.
    std::vector<double> numbers(std::string_view name) const;
    // The raw comma-separated items, empty when absent.
    std::vector<std::string> items(std::string_view name) const;
    // A name that `parse` (text → std::optional<T>) knows; `fallback` when absent. Throws
    // InputError: unknown --name "x" (expected one of: `expected`).
    template <class T, class Parse>
    T choice(std::string_view name, Parse parse, const char* expected, T fallback) const {
        const std::optional<std::string> text = value(name);
        if (!text) return fallback;
        const auto v = parse(*text);
        if (!v)
            throw InputError("unknown --" + std::string(name) + " " + quote_for_message(*text) +
                             " (expected one of: " + expected + ")");
        return *v;
    }

private:
    std::string command_;
    std::map<std::string, std::string, std::less<>> values_;
};

}  // namespace normlab::cli
