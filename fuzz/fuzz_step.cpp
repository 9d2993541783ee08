// NormLab fuzzing: the worked example's step parser (normlab/norm/explain.hpp, check_step: a claimed
// intermediate step "lhs = rhs" of the Worked example lab and `normlab-cli explain --step`).
//
// Input: any bytes, taken as one step's text (up to -max_len, 4096 in scripts/fuzz.sh).
// Expected: check_step returns a verdict or throws std::invalid_argument (no form "lhs = rhs", a
// syntax error, nesting deeper than kMaxExpressionDepth); never a crash or a stack overflow
// (20,000 parentheses once ran the stack out). A verdict's message is non-empty, and one that
// holds has a finite value that prints as the claim's right side allows.
#include "fuzz_target.hpp"

#include "normlab/norm/explain.hpp"

#include <cmath>
#include <stdexcept>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using normlab::fuzz::expect;
    static const normlab::Explanation e = normlab::explain((normlab::Vec(4) << 2, 4, 6, 8).finished());
    const std::string_view text = normlab::fuzz::as_text(data, size);
    normlab::StepVerdict v;
    try {
        v = normlab::check_step(e, text);
    } catch (const std::invalid_argument& err) {
        expect(std::string_view(err.what()).size() < 1000, "a refusal quotes more than a short part of the step");
        return 0;
    }
    expect(!v.message.empty(), "a verdict without a message");
    if (v.holds) expect(std::isfinite(v.actual), "a step that holds has a non-finite value");
    try {
        (void)normlab::evaluate_expression(text.substr(0, text.rfind('=')));
    } catch (const std::invalid_argument&) {
    }
    return 0;
}
