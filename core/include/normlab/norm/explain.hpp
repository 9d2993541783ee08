// NormLab core: the worked example (every step of LayerNorm and RMSNorm with its numbers) and
// the claim checker, which says which formula reproduces a write-up's numbers, if any.
//
// A common mistake in write-ups: "(x − mean)/std with the n−1 std" called RMSNorm. For
// [2,4,6,8] that gives [−1.16, −0.39, 0.39, 1.16]: LayerNorm with the sample standard
// deviation. RMSNorm gives [0.365, 0.730, 1.095, 1.461].
#pragma once

#include "normlab/norm/norm.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace normlab {

// Every intermediate number of both norms for one vector x (length n ≥ 1), g = 1, b = 0.
// The steps are held in units of s = 2^exp2 (x-like values) and s² (squares, variances), so that
// x ~ 1e200 or 1e-200 gives finite, exact steps (x² ~ 1e400 is beyond double): exp2 = 0, the
// values themselves, whenever max|x| lies in [2⁻²⁴⁰, 2²⁴⁰]. Show them with step_number.
struct Explanation {
    Vec x;                 // n, as given
    double eps = 0.0;
    int exp2 = 0;          // s = 2^exp2
    // LayerNorm (paper eq. 3): μ, deviations, their squares, variance, σ, outputs.
    double sum = 0.0;              // Σx / s (compensated)
    double mean = 0.0;             // μ / s (exact whenever μ is a double)
    Vec deviation;         // n, (x − μ)/s
    Vec deviation_sq;      // n, (x − μ)²/s²
    double sum_deviation_sq = 0.0; // /s²
    double var_population = 0.0;   // Σ(x − μ)²/n / s²        (what LayerNorm uses)
    double var_sample = 0.0;       // Σ(x − μ)²/(n − 1) / s²  (Bessel; NaN when n = 1)
    double sigma = 0.0;            // √(var_population + ε) / s
    Vec layernorm;                 // n, (x − μ)/σ  — from core's layer_forward
    Vec layernorm_sample;          // n, (x − μ)/√(var_sample + ε): not LayerNorm; for comparison
    // RMSNorm (paper eq. 4): squares, their mean, RMS, outputs.
    Vec square;                    // n, x²/s²
    double sum_square = 0.0;       // Σx²/s²
    double mean_square = 0.0;      // Σx²/n / s²
    double rms = 0.0;              // √(mean_square + ε) / s
    Vec rmsnorm;                   // n, x/RMS — from core's layer_forward
    Vec l2norm;                    // n, x/‖x‖ — from core's layer_forward
};

// A step's value u·2^exp2 (exp2: the explanation's for x-like values, twice it for squares) at
// `digits` significant digits, finite even where the value is beyond double: "1.63299", "−0.5",
// "1.63299 × 10²⁰⁰", "4 × 10⁴⁰⁰"; NaN is "undefined"; no "−0".
std::string step_number(double u, int exp2, int digits = 6);

// The values as given, each with the fewest digits (≤ 15) that read back to it, else 6:
// 1000000000001.5 stays whole where "1e+12" would hide the digits the steps work on.
std::string exact_number(double v);

Explanation explain(const Vec& x, double eps = 0.0);

// ---- The steps, one list for every reader -------------------------------------------------
//
// The worked example as rows (docs/ARCHITECTURE.md, The labs): LayerNorm's steps 1–6 (the
// sample variance beside step 4), RMSNorm's 1–4, then two formulas for comparison, and a remark
// under a norm whose σ or RMS is 0. `normlab-cli explain` prints the rows' lines (explain_text),
// the Worked lab shows their cells as its two tables; one list, one Explanation's numbers, one
// order (but the two comparisons: the lab's table lists L2-Norm, nearest RMSNorm, first). Each
// row holds both media's words side by side, so that a step cannot be in one and not the other:
// a line at six digits (x and μ in full, the CLI's contract) and a table's cells at `digits`
// (cell_number, cell_list).
enum class StepPart { LayerNorm, RMSNorm, Comparison };
enum class StepRole {
    Step,      // a step of the norm
    Aside,     // beside the steps, not one of them (dimmed): the sample variance, the comparisons
    Outputs,   // the norm's outputs (bold, in the norm's colour)
    Remark,    // under the table: why each output is 0 (σ = 0, RMS = 0); the cells: `value` only
};
struct WorkedStep {
    StepPart part;
    StepRole role;
    std::string line;      // "  1. mean          μ = Σx/n = 20/4 = 5" (no newline)
    std::string step;      // "1  mean μ"
    std::string formula;   // "Σx / n"
    std::string value;     // "20 / 4 = 5"
};
std::vector<WorkedStep> worked_steps(const Explanation& e, int digits = 4);

// A table's numbers: `digits` significant digits (format_number), u·2^exp2 for the scaled steps
// (finite where the value is beyond double: "4 × 10⁴⁰⁰"); NaN is "undefined".
std::string cell_number(double u, int digits, int exp2 = 0);

// A table's lists: "[−3, −1, 1, 3]"; past kStepListMax entries "[…, …, …]  (64 values)". Entries
// below half a unit in the last shown digit of the largest are round-off at this precision: 0.
inline constexpr Eigen::Index kStepListMax = 8;
std::string cell_list(const Vec& v, int digits, int exp2 = 0);

// The worked example as plain text (what `normlab-cli explain` prints): worked_steps' lines
// under their norms' headings.
std::string explain_text(const Explanation& e);

// ---- Claim checker ----------------------------------------------------------------------

enum class Formula { LayerNormPopulation, LayerNormSample, RMSNorm, L2Norm };
inline constexpr Formula kAllFormulas[] = {Formula::LayerNormPopulation, Formula::LayerNormSample,
                                           Formula::RMSNorm, Formula::L2Norm};
std::string_view display_name(Formula f);
const Vec& formula_output(const Explanation& e, Formula f);

// A number as the user typed it, with the precision it was printed to: "−1.16" → value −1.16,
// half_ulp 0.005 (a value v reproduces it when |v − value| ≤ half_ulp).
struct PrintedNumber {
    double value = 0.0;
    double half_ulp = 0.0;
};
// Accepts ASCII '-' and Unicode '−', exponents ("1.5e-3"). Throws std::invalid_argument with a
// message naming the text on anything else.
PrintedNumber parse_printed_number(std::string_view text);

struct FormulaFit {
    Formula formula;
    bool reproduces = false;   // every claimed output within its printed precision
    double worst = 0.0;        // max |computed − claimed|
};

struct ClaimVerdict {
    std::vector<FormulaFit> fits;  // one per formula, in kAllFormulas order
    std::vector<Formula> matches;  // those that reproduce the claim
};

// claimed: the claimed outputs, as printed. Their count must equal x's length.
ClaimVerdict check_claim(const Explanation& e, const std::vector<std::string>& claimed);
// The verdict in one paragraph of plain words, in the UI's language (tr(): English in the CLI);
// the GUI calls it as it draws, so that a language switch shows at once.
std::string claim_summary(const Explanation& e, const ClaimVerdict& v);

// A claimed intermediate step, "lhs = rhs": lhs an arithmetic expression (+ − × * / ^ ², √ or
// sqrt(), parentheses) or one of the named quantities mean, var (population or sample), std,
// rms; rhs a printed number. Example: "(300 − 225)² = 2025" does not hold (it is 5625).
struct StepVerdict {
    std::string claim;
    bool holds = false;
    double actual = 0.0;   // what the left side really is
    std::string message;   // "(300 − 225)² = 5625, not 2025"
};
StepVerdict check_step(const Explanation& e, std::string_view claim);

// How deep an expression may nest: parentheses, sqrt, signs and ^ count one level each.
inline constexpr int kMaxExpressionDepth = 100;

// Evaluates an arithmetic expression as above. Throws std::invalid_argument on a syntax error
// or nesting deeper than kMaxExpressionDepth, naming the position.
double evaluate_expression(std::string_view text);

}  // namespace normlab
