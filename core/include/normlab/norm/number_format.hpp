// NormLab core: the norms in a number format — float16, bfloat16, float32, float64 — op by op
// (docs/ARCHITECTURE.md, "The science: number formats"). Not the models' float32 path
// ("Precision", the same section), which is about speed; this is about what the formats do.
//
// [SECTION] Formats     — names, limits, rounding an exact result, ulps
// [SECTION] Events      — overflow, underflow to 0, NaN, ε: what happened where
// [SECTION] Forward     — LayerNorm, RMSNorm, pRMSNorm, L2-Norm in a format, beside float64
//
// Shapes: x B×n (one case per row, a = x: no W), g and b n, y B×n.
#pragma once

#include "normlab/norm/norm.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace normlab {

// [SECTION] Formats -------------------------------------------------------------------------

enum class NumberFormat { Float16, BFloat16, Float32, Float64 };

// How the operations are carried out:
//   Same    — every operation's result rounded to the format (round to nearest, ties to even),
//             ε rounded to the format too;
//   Float32 — x, g, b stored in the format, the whole computation in float32 (ε a float32) in
//             the same order, y rounded back to the format (the upcasting kernels' convention).
//             For float32 and float64 this is the same as Same (float64 is not narrowed).
enum class Arithmetic { Same, Float32 };

inline constexpr NumberFormat kAllFormats[] = {NumberFormat::Float16, NumberFormat::BFloat16, NumberFormat::Float32,
                                               NumberFormat::Float64};

// precision: significand bits with the implicit one (11, 8, 24, 53); min_exponent: that of the
// smallest normal number, 2^min_exponent (−14, −126, −126, −1022).
struct FormatInfo {
    std::string_view name;     // "float16", "bfloat16", "float32", "float64" (the CLI's dtype)
    int precision;
    int min_exponent;
    double max_finite;         // 65504, ≈3.39e38, ≈3.40e38, ≈1.80e308
    double min_subnormal;      // 2^(min_exponent − precision + 1)
};
const FormatInfo& format_info(NumberFormat format);
std::string_view to_string(NumberFormat format);
std::optional<NumberFormat> parse_number_format(std::string_view name);
std::string_view to_string(Arithmetic arithmetic);   // "same" | "float32" (the CLI's accumulate)
std::optional<Arithmetic> parse_arithmetic(std::string_view name);

// The format that carries out the operations: the format itself, or float32 under Float32
// arithmetic for the formats narrower than float32.
NumberFormat compute_format(NumberFormat format, Arithmetic arithmetic);

// v rounded to the format: round to nearest, ties to even, subnormals as IEEE 754, a result
// beyond max_finite (after rounding) is ±inf, NaN stays NaN. Float64 returns v.
// Operations whose exact result is a double op on two format values and then rounded here are
// correctly rounded: double has 53 ≥ 2p + 2 bits for p ≤ 24 (Figueroa 1995), so rounding twice
// is harmless for +, −, ×, ÷ and √ (with no FMA contraction: number_format.cpp is built with
// -ffp-contract=off).
double round_to(NumberFormat format, double v);

// The spacing of the format's numbers at |v| (its binade's ulp; min_subnormal below the normals).
double ulp(NumberFormat format, double v);

// (value − reference) / ulp(format, reference); nullopt when either is NaN or infinite.
std::optional<double> ulp_error(NumberFormat format, double value, double reference);

// [SECTION] Events --------------------------------------------------------------------------

//   Overflow     — a finite exact result beyond the format's range became ±inf
//   Underflow    — a non-zero exact result, stored input or ε became 0 (1e-8 → 0 in float16)
//   DivideByZero — a finite non-zero number divided by 0 became ±inf
//   NaN          — an operation on numbers made NaN (0/0, inf − inf, 0·inf, inf/inf)
//   EpsDominated — the statistic under ε is smaller than ε: the denominator says more about ε
//                  than about the data
enum class EventKind { Overflow, Underflow, DivideByZero, NaN, EpsDominated };
// "overflow", "underflow", "divide_by_zero", "nan", "eps_dominated"
std::string_view to_string(EventKind kind);

// One event, with the first place it happened and how many more places the same step had:
// "x₁² = 90000 overflows float16 (max 65504), as do 3 more squares (case 0)".
struct FormatEvent {
    EventKind kind = EventKind::Overflow;
    int case_index = -1;          // −1: not about one case (ε)
    std::string where;            // "x₁²", "σ² + ε", "y₂"
    std::optional<double> value;  // the exact result that was rounded (none for NaN)
    int more = 0;                 // further places at the same step of the same case
    std::string message;          // one English sentence (the CLI's JSON): event_text in English
    // The sentence as a translatable text (docs/i18n/TRANSLATING.md): a whole-sentence msgid with
    // {0} = where and the numbers as text; `more_text` wraps it: "{0}, as do {1} more squares".
    const char* text = "";
    std::vector<std::string> args;
    const char* more_text = nullptr;   // null: the step happens once per case
};

// The event's sentence in the interface's language (tr); `message` is the same in English.
std::string event_text(const FormatEvent& e);

// [SECTION] Forward -------------------------------------------------------------------------

// Per case, as the computing format holds them: LayerNorm's μ and σ², RMSNorm's mean(x²),
// L2-Norm's Σx² (pRMSNorm: over the first k), and the denominator D.
struct FormatCaseStats {
    double mean = 0.0;        // 0 for the norms that do not centre
    double stat = 0.0;        // σ², mean(x²) or Σx²
    double denom = 0.0;
};

struct FormatResult {
    NumberFormat format = NumberFormat::Float64;
    Arithmetic arithmetic = Arithmetic::Same;
    double eps_used = 0.0;         // ε as the computing format holds it
    Eigen::Index k = 0;            // entries the statistic runs over (n, or pRMSNorm's k)
    Mat x_stored;                  // B×n: x as the format stores it
    Mat y;                         // B×n: y as the format holds it (may hold ±inf and NaN)
    Mat ref_stored;                // B×n: float64 from the stored x, g, b and eps_used (the arithmetic's error)
    Mat ref_original;              // B×n: float64 from the original x, g, b, ε (adds the storage's error)
    Mat ulps_stored;               // B×n: ulp_error(y, ref_stored); NaN where undefined
    Mat ulps_original;             // B×n: ulp_error(y, ref_original); NaN where undefined
    std::vector<FormatCaseStats> stats;   // B
    std::vector<FormatEvent> events;      // in the order they happened
};

// The forward pass y = ā ⊙ g + b of spec.norm (LayerNorm, RMSNorm, pRMSNorm or L2-Norm; spec's
// ε, eps_mode, p and k rounding) in the format and arithmetic, op by op in the textbook order
// (docs/ARCHITECTURE.md, "The science: number formats"):
//   LayerNorm  μ = (((a₁ + a₂) + a₃) + …) / n, σ² = (((d₁² + d₂²) + …) / n with d_i = a_i − μ,
//              ā_i = d_i / √(σ² + ε)
//   RMSNorm    ms = (((a₁·a₁ + a₂·a₂) + …) / n, ā_i = a_i / √(ms + ε)   (pRMSNorm: first k, / k)
//   L2-Norm    ā_i = a_i / √(Σ a_i·a_i + ε)
//   then y_i = ā_i·g_i + b_i, each operation rounded (n and k are rounded to the format too).
// x: B×n, finite; g, b: n. Requires one of the four norms (throws std::invalid_argument).
FormatResult format_forward(const NormSpec& spec, const Mat& x, const Vec& g, const Vec& b, NumberFormat format,
                            Arithmetic arithmetic);

// Whether format_forward computes this norm.
bool format_norm_supported(Norm norm);

}  // namespace normlab
