// normlab-cli subcommands: one run_xxx per subcommand, each in its own file, listed in main.cpp.
// A subcommand gets the arguments after its name, writes its result on stdout and returns the
// exit code; bad input or usage throws normlab::InputError (one line; main prints it, exits 2).
#pragma once

#include <string_view>
#include <vector>

namespace normlab::cli {

using Args = std::vector<std::string_view>;

// `normlab-cli eval`: one JSON request on stdin, one JSON result on stdout (eval_command.cpp).
extern const char kEvalHelp[];
int run_eval(const Args& args);

}  // namespace normlab::cli
