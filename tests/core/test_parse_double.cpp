// parse_double's fallback (from_chars_strtod, the web build's: docs/ARCHITECTURE.md, "The web
// build") against std::from_chars for double, on the texts NormLab's parsers meet and the edge
// cases of from_chars' grammar: the same pointer, error and value.
#include <normlab/base/parse_double.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace {

TEST(ParseDouble, FallbackAgreesWithFromChars) {
#if !defined(__cpp_lib_to_chars)
    GTEST_SKIP() << "this standard library has no from_chars for double to compare with";
#else
    const std::vector<std::string> texts = {
        "0", "-0", "1", "2.5", "-3.25e-7", "1e308", "1e309", "-1e309", "1e-320", "1e-400", "-1e-400",
        "4.9e-324", "123abc", "1.5.5", ".5", "5.", "-.5e2", "1e", "1e+", "1e+5", "+1", " 1", "\t2", "",
        "-", "abc", "inf", "-inf", "infinity", "nan", "NaN", "0x1p3", "-0x10", "0X5", "1,5", "1 2",
        "0.1000000000000000055511151231257827", "179769313486231570000000000000000000000000000000000000000000"
        "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
        "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
        "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"};
    for (const std::string& t : texts) {
        const char* first = t.data();
        const char* last = t.data() + t.size();
        double expected = 42.0, got = 42.0;
        const auto want = std::from_chars(first, last, expected);
        const auto have = normlab::from_chars_strtod(first, last, got);
        EXPECT_EQ(have.ptr - first, want.ptr - first) << "\"" << t << "\"";
        EXPECT_EQ(have.ec, want.ec) << "\"" << t << "\"";
        if (std::isnan(expected)) {
            EXPECT_TRUE(std::isnan(got)) << "\"" << t << "\"";
        } else {
            EXPECT_EQ(std::memcmp(&got, &expected, sizeof got), 0) << "\"" << t << "\": " << got << " vs " << expected;
        }
    }
#endif
}

}  // namespace
