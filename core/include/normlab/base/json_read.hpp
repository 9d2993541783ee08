// NormLab core: reading JSON from users and scripts: parse_json with limits, and readers of text,
// numbers, vectors and matrices, each naming the entry it refuses (throws InputError).
#pragma once

#include "normlab/base/input_error.hpp"

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace normlab {

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

// A non-empty list of finite numbers → a vector of its length.
Eigen::VectorXd read_vector(const nlohmann::json& value, const std::string& path);

// A non-empty list of R non-empty lists of C finite numbers each → R×C.
Eigen::MatrixXd read_matrix(const nlohmann::json& value, const std::string& path);

// As read_matrix, and a flat list of C numbers is one row (1×C): cases such as x and dy.
Eigen::MatrixXd read_rows(const nlohmann::json& value, const std::string& path);

// For messages: "1 entry", "3 entries" (count_text(n, "entry", "entries")).
std::string count_text(Eigen::Index n, std::string_view one, std::string_view many);

// For messages: the path of element i of the list at `path`, "x[1]".
std::string element_path(const std::string& path, std::size_t i);

}  // namespace normlab
