// `normlab-cli explain`: the worked example as text, and the claim checker (core's explain.hpp).
#include "commands.hpp"
#include "options.hpp"

#include "normlab/base/input_error.hpp"
#include "normlab/norm/explain.hpp"

#include <iostream>
#include <optional>

namespace normlab::cli {

const char kExplainHelp[] = R"(Usage: normlab-cli explain --x 2,4,6,8 [--claim v1,v2,...] [--step "EXPR = V; ..."] [--eps E]

Prints every step of LayerNorm and RMSNorm for the vector x, with its numbers: mean, deviations,
squares, variance (population, and the sample n−1 variance labelled as such), σ, RMS, outputs.

Options:
  --x LIST       the vector, comma-separated (required)
  --eps E        ε ≥ 0 (default 0: the textbook formulas)
  --claim LIST   claimed outputs as printed (e.g. -1.16,-0.39,0.39,1.16): says which formula
                 (LayerNorm with population or sample std, RMSNorm, L2-Norm, or none) reproduces
                 them to their printed precision
  --step TEXT    claimed intermediate steps, "EXPR = V", separated by ';' (e.g.
                 "(300-225)^2 = 2025; mean = 225; var = 3125"): says whether each one holds
)";

int run_explain(const Args& args) {
    const Options opt("explain", args, {{"x", true}, {"eps", true}, {"claim", true}, {"step", true}});
    if (!opt.value("x")) throw InputError("explain needs --x, e.g. --x 2,4,6,8");
    const std::vector<double> values = opt.numbers("x");
    const double eps = opt.number("eps", 0.0);
    if (eps < 0.0) throw InputError("--eps must be ≥ 0");
    const Explanation e = explain(Eigen::Map<const Vec>(values.data(), static_cast<Eigen::Index>(values.size())), eps);

    // Every claim is checked before anything is printed, so bad input prints only its error.
    std::optional<ClaimVerdict> verdict;
    if (opt.value("claim")) {
        const std::vector<std::string> claim = opt.items("claim");
        if (static_cast<Eigen::Index>(claim.size()) != e.x.size())
            throw InputError("--claim has " + std::to_string(claim.size()) + " values, --x has " +
                             std::to_string(e.x.size()));
        try {
            verdict = check_claim(e, claim);
        } catch (const std::invalid_argument& err) {
            throw InputError(std::string("--claim: ") + err.what());
        }
    }
    std::vector<StepVerdict> steps;
    if (const auto text = opt.value("step")) {
        for (size_t start = 0;;) {
            const size_t semi = text->find(';', start);
            try {
                steps.push_back(check_step(e, text->substr(start, semi == std::string::npos ? semi : semi - start)));
            } catch (const std::invalid_argument& err) {
                throw InputError(std::string("--step: ") + err.what());
            }
            if (semi == std::string::npos) break;
            start = semi + 1;
        }
    }

    std::cout << explain_text(e);
    if (verdict) {
        std::cout << "\nClaim checked: " << claim_summary(e, *verdict) << '\n';
        for (const FormulaFit& fit : verdict->fits)
            std::cout << "  " << (fit.reproduces ? "✓ " : "✗ ") << display_name(fit.formula) << ": worst difference "
                      << fit.worst << '\n';
    }
    if (!steps.empty()) std::cout << "\nClaimed steps:\n";
    for (const StepVerdict& v : steps) std::cout << "  " << (v.holds ? "✓ " : "✗ ") << v.message << '\n';
    return 0;
}

}  // namespace normlab::cli
