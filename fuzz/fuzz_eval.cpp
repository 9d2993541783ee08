// NormLab fuzzing: `normlab-cli eval`'s request parser and evaluation (normlab/norm/eval.hpp).
//
// Input: any bytes, taken as the request text (up to -max_len, 4096 in scripts/fuzz.sh).
// Expected: evaluate_request returns a result or throws InputError. On success:
//   - a and y are B×n (B ≥ 1 rows of the same n ≥ 1 entries), stats has B entries;
//   - every number in the result is finite (docs/ARCHITECTURE.md: "never a silent NaN");
//   - the result survives the CLI's dump() and reads back equal.
#include "fuzz_target.hpp"

#include "normlab/norm/eval.hpp"

#include <cmath>
#include <string>

namespace {

using nlohmann::json;
using normlab::fuzz::expect;

// Every number under `value` is finite; `path` names the first one that is not.
void expect_finite(const json& value, const std::string& path) {
    if (value.is_number_float()) expect(std::isfinite(value.get<double>()), path + " is not finite");
    if (value.is_array())
        for (std::size_t i = 0; i < value.size(); ++i) expect_finite(value[i], path + "[" + std::to_string(i) + "]");
    if (value.is_object())
        for (const auto& item : value.items()) expect_finite(item.value(), path + "." + item.key());
}

// `value` is a list of `rows` (0: any number ≥ 1) lists of one common length ≥ 1.
void expect_matrix(const json& value, const std::string& name, std::size_t rows = 0) {
    expect(value.is_array() && !value.empty(), name + " is not a non-empty list");
    expect(rows == 0 || value.size() == rows, name + " has " + std::to_string(value.size()) + " rows, expected " +
                                                  std::to_string(rows));
    for (const json& row : value)
        expect(row.is_array() && !row.empty() && row.size() == value[0].size(), name + " is ragged");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    json result;
    try {
        result = normlab::evaluate_request(normlab::fuzz::as_text(data, size));
    } catch (const normlab::InputError&) {
        return 0;   // a bad request, reported as the contract says
    }
    expect_matrix(result["a"], "a");
    expect_matrix(result["y"], "y", result["a"].size());
    expect(result["stats"].is_array() && result["stats"].size() == result["a"].size(), "stats is not one entry per case");
    expect_finite(result, "result");
    expect(json::parse(result.dump()) == result, "result does not read back equal after dump()");
    return 0;
}
