// NormLab core: the range of a number a user gives — a lab's field in the GUI, a key of a scene
// file — and the one message that says why a value is refused. The GUI shows it under the field
// ("δ = 0 is out of range [0.001, 1000]"), a scene file names the key
// ("labs.invariance.p = 0 is out of range (0, 1]"): one rule, one wording, wherever the number
// comes from. Each lab's rules sit next to its state (explorer_lab.hpp, invariance_lab.hpp, …).
#pragma once

#include <limits>
#include <string>
#include <string_view>

namespace normlab {

inline constexpr double kNoBound = std::numeric_limits<double>::infinity();

// The values accepted: finite, from lo to hi (hi = kNoBound: no upper bound), lo itself
// excluded when lo_open, whole numbers only when whole. NaN and ±inf are always refused.
struct NumberRule {
    double lo = -kNoBound;
    double hi = kNoBound;
    bool lo_open = false;   // (lo, hi] instead of [lo, hi]
    bool whole = false;     // 2.5 refused
};

// Whether `rule` accepts v.
bool rule_accepts(const NumberRule& rule, double v);

// Empty when `rule` accepts v; otherwise one line naming `name` and the value, in the UI's
// language (tr; the CLI's stays English):
//   "ε is NaN", "x₃ = inf is not finite", "steps = 2.5 is not a whole number",
//   "δ = 5000 is out of range [0.001, 1000]", "p = 0 is out of range (0, 1]",
//   "η = -1 must be > 0", "ε = -1 must be ≥ 0" (the last two: no upper bound).
std::string number_problem(std::string_view name, double v, const NumberRule& rule);

// A value as the messages write it: as short as it reads back ("0.001", "1000", "1e-05", "inf").
std::string rule_number(double v);


// v as a list printed at `digits` significant digits shows it beside its largest entry (by
// magnitude) `largest`: 0 when |v| < ½·10^−digits·largest, which those digits cannot tell from 0
// (round-off such as −1.257e−16 beside 1.342), else v itself.
double at_display_precision(double v, double largest, int digits);

// Rules several labs share.
inline constexpr NumberRule kAnyFinite{};                       // every finite number
inline constexpr NumberRule kLabEpsRule{0.0, 1.0, true};        // ε ∈ (0, 1]: at ε = 0 the backward of a constant input is not finite
inline constexpr NumberRule kFractionRule{0.0, 1.0, true};      // pRMSNorm's p ∈ (0, 1]

}  // namespace normlab
