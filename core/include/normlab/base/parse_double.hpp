// A double from text with std::from_chars' rules (no leading space, no '+', decimal or
// "inf"/"nan", result_out_of_range leaving the value alone). libc++ before LLVM 17 — the one of
// emscripten 3.1.6, the web build's (docs/ARCHITECTURE.md, "The web build") — has no
// floating-point from_chars; there strtod does the work, held to from_chars' grammar.
#pragma once

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>
#include <system_error>

namespace normlab {

// strtod with from_chars' contract: reads the longest prefix of [first, last) that from_chars
// would read; ptr == first and errc::invalid_argument when there is none. Used where the
// standard library lacks from_chars for double (and by the test that holds the two equal).
inline std::from_chars_result from_chars_strtod(const char* first, const char* last, double& value) {
    const char* p = first;
    if (p != last && *p == '-') ++p;
    if (p == last || *p == '+' || *p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' || *p == '\v')
        return {first, std::errc::invalid_argument};
    if (last - p >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {   // from_chars reads "0", not hex
        value = first != p ? -0.0 : 0.0;
        return {p + 1, std::errc()};
    }
    const std::string copy(first, last);   // strtod needs a terminated string
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(copy.c_str(), &end);
    const char* ptr = first + (end - copy.c_str());
    if (ptr == first) return {first, std::errc::invalid_argument};
    // from_chars: overflow, and underflow to zero, are out of range with the value untouched (a
    // subnormal result is a value).
    if (errno == ERANGE && (std::isinf(v) || v == 0.0)) return {ptr, std::errc::result_out_of_range};
    value = v;
    return {ptr, std::errc()};
}

inline std::from_chars_result parse_double(const char* first, const char* last, double& value) {
#if defined(__cpp_lib_to_chars)
    return std::from_chars(first, last, value);
#else
    return from_chars_strtod(first, last, value);
#endif
}

}  // namespace normlab
