// NormLab core: InputError, bad input from a user or a script, and quoting text for its messages.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace normlab {

// Bad input from a user or a script. what() is one line (no newline) that names the offending
// entry, e.g. `x[1][3] is not a number (got string "abc")`. The CLI prints it and exits with 2.
struct InputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A string as a JSON literal for messages (quotes and escapes, so it stays on one line), cut
// to about 40 bytes at a UTF-8 character boundary: `"foo"`, `"a\nb"`, `"a very long na..."`.
std::string quote_for_message(std::string_view s);

}  // namespace normlab
