// NormLab core: `normlab-cli eval` (one JSON request in, one JSON result out; docs/ARCHITECTURE.md,
// "Command-line contract") and the JSON readers that other subcommands share.
//
// [SECTION] Errors        — InputError: one line that says what is wrong and where
// [SECTION] JSON readers  — text, numbers, vectors and matrices, each with a path for messages
// [SECTION] eval          — request text → EvalRequest → result JSON
//
// Shapes as in norm.hpp: x B×m (one case per row), W n×m, a/y/dy B×n, g/b n.
#pragma once

#include "normlab/norm/norm.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace normlab {

// [SECTION] Errors --------------------------------------------------------------------------

// Bad input from a user or a script. what() is one line (no newline) that names the offending
// entry, e.g. `x[1][3] is not a number (got string "abc")`. The CLI prints it and exits with 2.
struct InputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A string as a JSON literal for messages (quotes and escapes, so it stays on one line), cut
// to about 40 bytes at a UTF-8 character boundary: `"foo"`, `"a\nb"`, `"a very long na..."`.
std::string quote_for_message(std::string_view s);

// [SECTION] JSON readers --------------------------------------------------------------------
// `path` names the value in messages: "x", "x[1]", "W[0][2]". Every reader throws InputError.

// A short description of a JSON value for messages: `string "abc"`, `number 3`, `boolean true`,
// `null`, `a list`, `an object` (strings as quote_for_message writes them).
std::string describe_json(const nlohmann::json& value);

// Parses `text` as one JSON value. `what` names the text in messages ("request", "scene file"):
// `request is not valid JSON: parse error at line 1, column 7: ...`. A number beyond the double
// range (1e999) is reported by its path: `x[0][1] is not finite (it overflows the double range)`,
// and so is a non-finite number spelled out (JSON has none): `x[1] is not finite (got NaN, which
// is not valid JSON)`, also for Infinity, -inf, nan, …. A key given twice in one object is an
// error (rather than the last one silently winning): `labs.explorer.x is given twice (each key
// may appear once in an object)`. Limits, checked while parsing (so that no input can exhaust
// the stack or memory): lists and objects nest at most kMaxJsonDepth deep (`labs.worked is
// nested deeper than 64 levels (the limit)`), and the text holds at most kMaxJsonValues values
// (`request holds more than 8000000 values (the limit)`).
inline constexpr int kMaxJsonDepth = 64;
inline constexpr std::size_t kMaxJsonValues = 8000000;   // ~0.4 GB parsed; a million-wide request is 1e6
nlohmann::json parse_json(std::string_view text, std::string_view what);

// A JSON string.
std::string read_string(const nlohmann::json& value, const std::string& path);

// A finite JSON number (integers included; booleans are not numbers).
double read_number(const nlohmann::json& value, const std::string& path);

// A non-empty list of finite numbers → Vec of its length.
Vec read_vector(const nlohmann::json& value, const std::string& path);

// A non-empty list of R non-empty lists of C finite numbers each → R×C.
Mat read_matrix(const nlohmann::json& value, const std::string& path);

// As read_matrix, and a flat list of C numbers is one row (1×C): cases such as x and dy.
Mat read_rows(const nlohmann::json& value, const std::string& path);

// [SECTION] eval ----------------------------------------------------------------------------
//
// Request (a JSON object; any other key is an error, which catches typos such as "esp"):
//   norm        layernorm | rmsnorm | prmsnorm | l2norm | batchnorm | weightnorm | none (required)
//   eps         number ≥ 0 (default 1e-5)
//   eps_mode    inside_sqrt (default) | add_to_rms
//   p           prmsnorm: 0 < p ≤ 1 (default 0.0625)
//   k_rounding  prmsnorm: ceil (default, the paper) | floor (the authors' PyTorch code)
//   x           B lists of m numbers; a flat list of m numbers means B = 1 (required)
//   W           n lists of m numbers (absent: a = x, n = m)
//   g, b        n numbers each (defaults: ones, zeros)
//   dy          B lists of n numbers, or a flat list when B = 1 (optional)
//
// Result: norm, eps, eps_mode (and p, k_rounding, k for prmsnorm), a and y (B×n, always nested),
// stats (per case: mean, var, std, rms, and k for prmsnorm, whose rms is the first k entries'),
// norm_stats (the statistics the norm divided by, per case, feature or weight row), grad when dy is given (x: B×m,
// g: n, b: n, W: n×m when W was given; gradients of L = Σ dy ⊙ y), and notes (sentences) when
// something needs saying: a var beyond the double range (printed as null), an ignored p.
// Any other non-finite result is an InputError naming its first entry and the likely reason,
// e.g. `grad.x[0][1] is not finite: case 0 is all zeros and eps = 0`.

struct EvalRequest {
    NormSpec spec;
    Mat x;                           // B×m
    LayerParams params;              // W (n×m, optional), g (n), b (n)
    std::optional<Mat> dy;           // B×n
    std::vector<std::string> notes;  // about the request itself, e.g. a p that the norm ignores
};

// Validates a parsed request; throws InputError.
EvalRequest parse_eval_request(const nlohmann::json& request);

// Runs core::layer_forward (and layer_backward when dy is given); throws InputError when the
// result is not finite.
nlohmann::json evaluate(const EvalRequest& request);

// The whole of `normlab-cli eval`: request text → result JSON. Any bad request, and any result
// that would not be finite, throws InputError; nothing else is expected (the fuzzer's target).
nlohmann::json evaluate_request(std::string_view text);

}  // namespace normlab
