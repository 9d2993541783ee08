// NormLab core: the worked example and the claim checker.
//
// [SECTION] Worked example
// [SECTION] Text rendering
// [SECTION] Printed numbers
// [SECTION] Claim checker
// [SECTION] Arithmetic expressions and intermediate steps
#include "normlab/norm/explain.hpp"

#include "normlab/base/i18n.hpp"
#include "normlab/base/number_rule.hpp"
#include "normlab/base/parse_double.hpp"
#include "normlab/base/input_error.hpp"   // quote_for_message
#include "normlab/base/text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <system_error>

namespace normlab {

// [SECTION] Worked example ------------------------------------------------------------------

namespace {
Vec normalized_by(Norm norm, const Vec& x, double eps) {
    const NormSpec spec{norm, eps};
    const LayerParams unit{std::nullopt, Vec::Ones(x.size()), Vec::Zero(x.size())};
    return layer_forward(spec, x.transpose(), unit).y.row(0).transpose();
}

// The steps' power of two: 0 while x² and ε stay far inside the double range, else that of
// max(max|x|, √ε) (ε alone sets the scale of σ when x is tiny).
constexpr int kUnscaledExp2 = 240;
int steps_exp2(const Vec& x, double eps) {
    const double m = std::max(x.cwiseAbs().maxCoeff(), std::sqrt(eps));
    if (!(m > 0.0) || !std::isfinite(m)) return 0;
    const int e = std::ilogb(m);
    return std::abs(e) > kUnscaledExp2 ? e : 0;
}
}  // namespace

Explanation explain(const Vec& x, double eps) {
    if (x.size() == 0) throw std::invalid_argument("x is empty");
    Explanation e;
    const double n = static_cast<double>(x.size());
    e.x = x;
    e.eps = eps;
    e.exp2 = steps_exp2(x, eps);
    const Vec u = x.unaryExpr([&](double v) { return std::ldexp(v, -e.exp2); });  // n, x/s (exact)
    const double eps_u = std::ldexp(eps, -2 * e.exp2);                             // ε/s²
    const TwoDouble mean = precise_mean(u);
    e.sum = compensated_sum(u).hi;
    e.mean = mean.hi;
    e.deviation = (u.array() - mean.hi) - mean.lo;
    e.deviation_sq = e.deviation.array().square();
    e.sum_deviation_sq = centred_sum_squares(u, mean, true);
    e.var_population = e.sum_deviation_sq / n;
    e.var_sample = x.size() > 1 ? e.sum_deviation_sq / (n - 1.0) : std::numeric_limits<double>::quiet_NaN();
    e.sigma = std::sqrt(e.var_population + eps_u);
    e.square = u.array().square();
    e.sum_square = u.squaredNorm();
    e.mean_square = e.sum_square / n;
    e.rms = std::sqrt(e.mean_square + eps_u);
    // The outputs come from the engine itself, so the explainer cannot drift from it.
    e.layernorm = normalized_by(Norm::LayerNorm, x, eps);
    e.rmsnorm = normalized_by(Norm::RMSNorm, x, eps);
    e.l2norm = normalized_by(Norm::L2Norm, x, eps);
    const double sample_sigma = std::sqrt(e.var_sample + eps_u);
    e.layernorm_sample = sample_sigma > 0.0 ? Vec(e.deviation / sample_sigma) : Vec::Zero(x.size());
    return e;
}

std::string step_number(double u, int exp2, int digits) {
    if (std::isnan(u)) return "undefined";
    if (u == 0.0) return "0";
    const std::string sign = u < 0.0 ? "\u2212" : "";
    char buf[64];
    const double v = std::ldexp(std::abs(u), exp2);
    if (exp2 == 0 || (std::isnormal(v) && v >= 1e-4 && v < 1e6)) {
        std::snprintf(buf, sizeof buf, "%.*g", digits, v);
        return sign + buf;
    }
    // m × 10^k from log₁₀|u| + exp2·log₁₀ 2 (|exp2| ≤ 2200: ~1e-13 of error in m, far below 6 digits).
    const double l = std::log10(std::abs(u)) + exp2 * std::log10(2.0);
    int k = static_cast<int>(std::floor(l));
    std::snprintf(buf, sizeof buf, "%.*g", digits, std::pow(10.0, l - k));
    std::string m = buf;
    if (m == "10") m = "1", ++k;  // 9.9999996 rounds up to the next decade
    return sign + (m == "1" ? "" : m + " \u00d7 ") + "10" + superscript(k);
}

std::string exact_number(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.15g", v);
    if (std::strtod(buf, nullptr) != v) std::snprintf(buf, sizeof buf, "%.6g", v);
    std::string s = buf;
    if (s == "-0") s = "0";
    if (!s.empty() && s[0] == '-') s = "\u2212" + s.substr(1);
    return s;
}

// [SECTION] Text rendering ------------------------------------------------------------------

namespace {
std::string num(double v, int digits = 4) {
    if (std::isnan(v)) return "undefined";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", digits + 2, v);
    std::string s = buf;
    // Print −0 as 0 and use a real minus sign.
    if (s == "-0") s = "0";
    if (!s.empty() && s[0] == '-') s = kMinusSign + s.substr(1);   // the exponent keeps '-'
    return s;
}

// A computed list at 6 significant digits, in units 2^exp2, entries below half a unit in the
// last digit of the largest shown as 0 (round-off: 1.2e−16 beside 1.34164 is 0 at this precision).
std::string list(const Vec& v, int exp2 = 0, int digits = 6) {
    const double largest = v.size() ? v.cwiseAbs().maxCoeff() : 0.0;
    std::string s = "[";
    for (Eigen::Index i = 0; i < v.size(); ++i)
        s += (i ? ", " : "") + step_number(at_display_precision(v[i], largest, digits), exp2, digits);
    return s + "]";
}

std::string exact_list(const Vec& v) {
    std::string s = "[";
    for (Eigen::Index i = 0; i < v.size(); ++i) s += (i ? ", " : "") + exact_number(v[i]);
    return s + "]";
}

// [0.365, 0.730, …]: fixed decimals, as a write-up would print them.
std::string fixed_list(const Vec& v, int decimals) {
    std::string s = "[";
    for (Eigen::Index i = 0; i < v.size(); ++i) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.*f", decimals, v[i]);
        s += (i ? ", " : "") + unicode_minus(buf);
    }
    return s + "]";
}

std::string eps_term(double eps) { return eps > 0.0 ? " + \u03b5" : ""; }

// "20 / 4 = 5": a quotient worked out (both in units 2^exp2).
std::string cell_quotient(double num, Eigen::Index den, double value, int digits, int exp2) {
    return cell_number(num, digits, exp2) + " / " + std::to_string(den) + " = " + cell_number(value, digits, exp2);
}

// "√(5 + 1×10⁻⁵) = 2.236" when ε > 0, "√5 = 2.236" when ε = 0: ε's value where it enters.
// v in units 2^(2·exp2), root in 2^exp2 (the explanation's scaling).
std::string cell_root(double v, double eps, double root, int digits, int exp2) {
    const std::string arg = eps > 0.0 ? "(" + cell_number(v, digits, 2 * exp2) + " + " + cell_number(eps, 2) + ")"
                                      : cell_number(v, digits, 2 * exp2);
    return "√" + arg + " = " + cell_number(root, digits, exp2);
}

// LayerNorm's rows (paper eq. 3). x-like values in units 2^p1, squares in 2^p2.
void layernorm_steps(const Explanation& e, int d, std::vector<WorkedStep>& out) {
    const Eigen::Index n = e.x.size();
    const int p1 = e.exp2, p2 = 2 * e.exp2;
    const auto x1 = [&](double u) { return step_number(u, p1); };
    const auto x2 = [&](double u) { return step_number(u, p2); };
    // Σx and μ in full where they are short decimals (10¹² + 1.5 must not read "1e+12").
    const auto mean_term = [&](double u) { return p1 == 0 ? exact_number(u) : x1(u); };
    const std::string sample = n > 1 ? cell_quotient(e.sum_deviation_sq, n - 1, e.var_sample, d, p2) : std::string(tr("undefined for n = 1"));
    const StepPart ln = StepPart::LayerNorm;
    out.push_back({ln, StepRole::Step, "  1. mean          μ = Σx/n = " + mean_term(e.sum) + "/" + std::to_string(n) +
                                           " = " + mean_term(e.mean),
                   std::string("1  ") + tr("mean μ"), "Σx / n", cell_quotient(e.sum, n, e.mean, d, p1)});
    out.push_back({ln, StepRole::Step, "  2. deviations    x − μ = " + list(e.deviation, p1), std::string("2  ") + tr("deviations"), "x − μ",
                   cell_list(e.deviation, d, p1)});
    out.push_back({ln, StepRole::Step,
                   "  3. squares       (x − μ)² = " + list(e.deviation_sq, p2) + ", sum " + x2(e.sum_deviation_sq),
                   std::string("3  ") + tr("squares"), "(x − μ)²",
                   cell_list(e.deviation_sq, d, p2) + ",  " + tr("sum {0}", cell_number(e.sum_deviation_sq, d, p2))});
    out.push_back({ln, StepRole::Step,
                   "  4. variance      Σ(x − μ)²/n = " + x2(e.var_population) + "   (population: what LayerNorm uses)",
                   std::string("4  ") + tr("variance σ₀²"), "Σ(x − μ)² / n",
                   cell_quotient(e.sum_deviation_sq, n, e.var_population, d, p2) + "   " + tr("(population)")});
    out.push_back({ln, StepRole::Aside,
                   "                   Σ(x − μ)²/(n−1) = " + x2(e.var_sample) + "   (sample, Bessel's correction: NOT LayerNorm)",
                   std::string("    ") + tr("sample variance"), "Σ(x − μ)² / (n − 1)", sample + "   " + tr("(not LayerNorm)")});
    out.push_back({ln, StepRole::Step, "  5. std           σ = √(" + x2(e.var_population) + eps_term(e.eps) + ") = " + x1(e.sigma),
                   "5  σ", e.eps > 0.0 ? "√(σ₀² + ε)" : "√σ₀²", cell_root(e.var_population, e.eps, e.sigma, d, p1)});
    out.push_back({ln, StepRole::Outputs, "  6. outputs       (x − μ)/σ = " + list(e.layernorm), std::string("6  ") + tr("outputs ā"),
                   "(x − μ) / σ", cell_list(e.layernorm, d)});
    if (e.sigma == 0.0)
        out.push_back({ln, StepRole::Remark, "     (σ = 0: every deviation is 0; with ε → 0⁺ each output tends to 0)", "", "",
                       tr("σ = 0: every deviation is 0, and each output is 0 (the limit ε → 0⁺).")});
}

// RMSNorm's rows (paper eq. 4), then the two formulas it is set beside.
void rmsnorm_steps(const Explanation& e, int d, std::vector<WorkedStep>& out) {
    const Eigen::Index n = e.x.size();
    const int p1 = e.exp2, p2 = 2 * e.exp2;
    const auto x2 = [&](double u) { return step_number(u, p2); };
    const StepPart rms = StepPart::RMSNorm, cmp = StepPart::Comparison;
    out.push_back({rms, StepRole::Step, "  1. squares       x² = " + list(e.square, p2) + ", sum " + x2(e.sum_square),
                   std::string("1  ") + tr("squares"), "x²",
                   cell_list(e.square, d, p2) + ",  " + tr("sum {0}", cell_number(e.sum_square, d, p2))});
    out.push_back({rms, StepRole::Step, "  2. mean square   Σx²/n = " + x2(e.mean_square), std::string("2  ") + tr("mean square"), "Σx² / n",
                   cell_quotient(e.sum_square, n, e.mean_square, d, p2)});
    out.push_back({rms, StepRole::Step,
                   "  3. RMS           √(" + x2(e.mean_square) + eps_term(e.eps) + ") = " + step_number(e.rms, p1), "3  RMS",
                   e.eps > 0.0 ? "√(mean(x²) + ε)" : "√mean(x²)", cell_root(e.mean_square, e.eps, e.rms, d, p1)});
    out.push_back({rms, StepRole::Outputs, "  4. outputs       x/RMS = " + list(e.rmsnorm), std::string("4  ") + tr("outputs ā"), "x / RMS",
                   cell_list(e.rmsnorm, d)});
    if (e.rms == 0.0)
        out.push_back({rms, StepRole::Remark, "     (RMS = 0: x is all zeros; with ε → 0⁺ each output tends to 0)", "", "",
                       tr("RMS = 0: x is all zeros, and each output is 0 (the limit ε → 0⁺).")});
    out.push_back({cmp, StepRole::Aside,
                   "  (x − μ)/sample std = " + (n > 1 ? list(e.layernorm_sample) : "undefined for n = 1") +
                       "   (LayerNorm with n−1: not RMSNorm)",
                   "    LayerNorm, n − 1", tr("(x − μ) / sample std"),
                   n > 1 ? cell_list(e.layernorm_sample, d) : "undefined for n = 1"});
    // ‖x‖ = √n · RMS when ε = 0
    out.push_back({cmp, StepRole::Aside,
                   "  L2-Norm x/‖x‖      = " + list(e.l2norm) + "   (√n = " + num(std::sqrt(double(n))) +
                       " times smaller than RMSNorm)",
                   "    L2-Norm", "x / ‖x‖ = ā / √" + std::to_string(n), cell_list(e.l2norm, d)});
}
}  // namespace

std::string cell_number(double u, int digits, int exp2) {
    if (std::isnan(u)) return "undefined";
    return exp2 == 0 ? format_number(u + 0.0, digits) : step_number(u, exp2, digits);
}

std::string cell_list(const Vec& v, int digits, int exp2) {
    const double largest = v.size() ? v.cwiseAbs().maxCoeff() : 0.0;
    std::string s = "[";
    for (Eigen::Index i = 0; i < v.size() && i < kStepListMax; ++i)
        s += (i ? ", " : "") + cell_number(at_display_precision(v(i), largest, digits), digits, exp2);
    if (v.size() > kStepListMax) return s + ", …]  (" + std::to_string(v.size()) + " values)";
    return s + "]";
}

std::vector<WorkedStep> worked_steps(const Explanation& e, int digits) {
    std::vector<WorkedStep> out;
    layernorm_steps(e, digits, out);
    rmsnorm_steps(e, digits, out);
    return out;
}

std::string explain_text(const Explanation& e) {
    const char* const headings[] = {"LayerNorm  (paper eq. 3: ā = (a − μ)/σ)",
                                    "RMSNorm  (paper eq. 4: ā = a / RMS(a), no mean subtracted)", "For comparison"};
    std::ostringstream out;
    out << "Worked example: x = " << exact_list(e.x) << "  (n = " << e.x.size() << ", ε = " << num(e.eps) << ")\n";
    std::optional<StepPart> part;
    for (const WorkedStep& step : worked_steps(e)) {
        if (step.part != part) out << '\n' << headings[static_cast<int>(step.part)] << '\n';
        part = step.part;
        out << step.line << '\n';
    }
    return out.str();
}

// [SECTION] Printed numbers -----------------------------------------------------------------

namespace {
// Unicode minus (U+2212) and friends to ASCII; trims spaces.
std::string ascii_math(std::string_view text) {
    std::string s(text);
    const std::pair<std::string_view, std::string_view> subs[] = {
        {"\u2212", "-"}, {"\u00d7", "*"}, {"\u00b7", "*"}, {"\u00b2", "^2"}, {"\u221a", "sqrt"}, {"\u2013", "-"}};
    for (const auto& [from, to] : subs)
        for (size_t pos; (pos = s.find(from)) != std::string::npos;) s.replace(pos, from.size(), to);
    const auto first = s.find_first_not_of(" \t");
    const auto last = s.find_last_not_of(" \t");
    return first == std::string::npos ? std::string() : s.substr(first, last - first + 1);
}
}  // namespace

PrintedNumber parse_printed_number(std::string_view text) {
    const std::string s = ascii_math(text);
    if (s.empty()) throw std::invalid_argument("empty number");
    // Decimal only (no hex, as everywhere in NormLab); one leading '+' is allowed.
    const char* first = s.c_str() + (s[0] == '+' && s.size() > 1 && s[1] != '-' ? 1 : 0);
    double value = 0.0;
    const auto [end, ec] = parse_double(first, s.c_str() + s.size(), value);
    if (ec != std::errc() || end != s.c_str() + s.size() || !std::isfinite(value))
        throw std::invalid_argument(quote_for_message(text) + " is not a number");
    // Precision: the place of the last printed digit, shifted by any exponent.
    const size_t e_pos = s.find_first_of("eE");
    const std::string mantissa = s.substr(0, e_pos);
    const int exponent = e_pos == std::string::npos ? 0 : std::atoi(s.c_str() + e_pos + 1);
    const size_t dot = mantissa.find('.');
    const int decimals = dot == std::string::npos ? 0 : static_cast<int>(mantissa.size() - dot - 1);
    return {value, 0.5 * std::pow(10.0, exponent - decimals)};
}

// [SECTION] Claim checker -------------------------------------------------------------------

std::string_view display_name(Formula f) {
    switch (f) {
        case Formula::LayerNormPopulation: return tr_later("LayerNorm (population std, /n)");
        case Formula::LayerNormSample: return tr_later("LayerNorm with the sample std (/(n−1))");
        case Formula::RMSNorm: return "RMSNorm";
        case Formula::L2Norm: return "L2-Norm";
    }
    return "";
}

const Vec& formula_output(const Explanation& e, Formula f) {
    switch (f) {
        case Formula::LayerNormPopulation: return e.layernorm;
        case Formula::LayerNormSample: return e.layernorm_sample;
        case Formula::RMSNorm: return e.rmsnorm;
        case Formula::L2Norm: break;
    }
    return e.l2norm;
}

ClaimVerdict check_claim(const Explanation& e, const std::vector<std::string>& claimed) {
    if (static_cast<Eigen::Index>(claimed.size()) != e.x.size())
        throw std::invalid_argument("the claim has " + std::to_string(claimed.size()) + " values, x has " +
                                    std::to_string(e.x.size()));
    std::vector<PrintedNumber> numbers;
    for (const std::string& c : claimed) numbers.push_back(parse_printed_number(c));

    ClaimVerdict v;
    for (Formula f : kAllFormulas) {
        const Vec& out = formula_output(e, f);
        FormulaFit fit{f, true, 0.0};
        for (size_t i = 0; i < numbers.size(); ++i) {
            const double diff = std::abs(out[static_cast<Eigen::Index>(i)] - numbers[i].value);
            fit.worst = std::max(fit.worst, diff);
            // 1e-9 of slack for the decimal → binary conversion of the claim itself.
            if (!(diff <= numbers[i].half_ulp * (1.0 + 1e-9))) fit.reproduces = false;
        }
        if (fit.reproduces) v.matches.push_back(f);
        v.fits.push_back(fit);
    }
    return v;
}

std::string claim_summary(const Explanation& e, const ClaimVerdict& v) {
    const auto name = [](Formula f) { return std::string(tr(std::string(display_name(f)).c_str())); };
    if (v.matches.empty()) {
        const auto best = std::min_element(v.fits.begin(), v.fits.end(),
                                           [](const FormulaFit& a, const FormulaFit& b) { return a.worst < b.worst; });
        return tr("No formula reproduces these numbers at their printed precision. Closest: {0} (off by up to {1}).",
                  name(best->formula), num(best->worst));
    }
    std::string names = name(v.matches.front());
    for (size_t i = 1; i < v.matches.size(); ++i) names = tr("{0} and of {1}", names, name(v.matches[i]));
    std::string s = tr("These are the outputs of {0}.", names);
    if (std::find(v.matches.begin(), v.matches.end(), Formula::RMSNorm) == v.matches.end())
        s += tr(" They are not RMSNorm, which gives {0}.", fixed_list(e.rmsnorm, 3));
    if (v.matches.front() == Formula::LayerNormSample)
        s += tr(" (x − mean)/std with the n−1 std is LayerNorm with Bessel's correction, not RMSNorm: RMSNorm "
                "subtracts no mean and divides by √(mean(x²) + ε).");
    return s;
}

// [SECTION] Arithmetic expressions and intermediate steps -----------------------------------

namespace {
// Recursive descent over: expr = term {(+|-) term}; term = unary {(*|/) unary};
// unary = [-|+] unary | power; power = primary [^ unary]; primary = number | (expr) | sqrt primary.
// Each recursion (a parenthesis, a sign, sqrt, ^) counts one level; past kMaxExpressionDepth the
// step is refused, so that no text can run the stack out (docs/ARCHITECTURE.md, File safety).
class ExpressionParser {
public:
    explicit ExpressionParser(std::string text) : s_(std::move(text)) {}

    double parse() {
        const double v = expr();
        skip();
        if (pos_ != s_.size()) fail("unexpected '" + character_here() + "'");
        return v;
    }

private:
    // The UTF-8 character at pos_, whole (never a lone lead byte), control characters escaped.
    std::string character_here() const {
        const auto lead = static_cast<unsigned char>(s_[pos_]);
        const std::size_t len = lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
        const std::string quoted = quote_for_message(s_.substr(pos_, std::min(len, s_.size() - pos_)));
        return quoted.substr(1, quoted.size() - 2);
    }
    [[noreturn]] void fail(const std::string& what) const {
        throw std::invalid_argument(what + " at position " + std::to_string(pos_ + 1) + " of " + quote_for_message(s_));
    }
    // One level deeper for the life of the guard.
    struct Level {
        explicit Level(ExpressionParser& p) : p_(p) {
            if (++p_.depth_ > kMaxExpressionDepth)
                p_.fail("nested deeper than " + std::to_string(kMaxExpressionDepth) + " levels (parentheses, signs, sqrt or ^)");
        }
        ~Level() { --p_.depth_; }
        Level(const Level&) = delete;
        Level& operator=(const Level&) = delete;
        ExpressionParser& p_;
    };
    void skip() {
        while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t')) ++pos_;
    }
    bool eat(char c) {
        skip();
        if (pos_ < s_.size() && s_[pos_] == c) return ++pos_, true;
        return false;
    }
    double expr() {
        double v = term();
        for (;;) {
            if (eat('+')) v += term();
            else if (eat('-')) v -= term();
            else return v;
        }
    }
    double term() {
        double v = unary();
        for (;;) {
            if (eat('*')) v *= unary();
            else if (eat('/')) v /= unary();
            else return v;
        }
    }
    double unary() {  // −2^2 = −(2^2), as in written mathematics
        if (eat('-')) {
            const Level level(*this);
            return -unary();
        }
        if (eat('+')) {
            const Level level(*this);
            return unary();
        }
        return power();
    }
    double power() {
        const double base = primary();
        if (!eat('^')) return base;
        const Level level(*this);
        return std::pow(base, unary());
    }
    double primary() {
        skip();
        if (eat('(')) {
            const Level level(*this);
            const double v = expr();
            if (!eat(')')) fail("missing ')'");
            return v;
        }
        if (s_.compare(pos_, 4, "sqrt") == 0) {
            pos_ += 4;
            const Level level(*this);
            return std::sqrt(primary());
        }
        // Decimal numbers only: "0x1p4" reads 0, then stops at the 'x'.
        const char* begin = s_.c_str() + pos_;
        double v = 0.0;
        const auto [end, ec] = parse_double(begin, s_.c_str() + s_.size(), v);
        if (end == begin || ec == std::errc::invalid_argument)
            fail(pos_ < s_.size() ? "unexpected '" + character_here() + "'" : "missing a number");
        pos_ += static_cast<size_t>(end - begin);
        if (ec == std::errc::result_out_of_range) v = std::strtod(std::string(begin, end).c_str(), nullptr);
        if (pos_ < s_.size() && (s_[pos_] == 'x' || s_[pos_] == 'X')) fail("numbers are decimal: unexpected '" + character_here() + "'");
        return v;
    }

    std::string s_;
    size_t pos_ = 0;
    int depth_ = 0;
};

// Named intermediate quantities a claim may state, with the values they may mean.
std::vector<std::pair<std::string, double>> named_values(const Explanation& e, const std::string& name) {
    // The steps are in units of 2^exp2 (squares 2^(2·exp2)); a value beyond double reads as inf.
    const auto x1 = [&](double u) { return std::ldexp(u, e.exp2); };
    const auto x2 = [&](double u) { return std::ldexp(u, 2 * e.exp2); };
    if (name == "mean" || name == "\u03bc" || name == "mu") return {{tr_later("the mean"), x1(e.mean)}};
    if (name == "var" || name == "variance")
        return {{tr_later("the population variance"), x2(e.var_population)},
                {tr_later("the sample variance"), x2(e.var_sample)}};
    if (name == "std" || name == "\u03c3" || name == "sigma")
        return {{tr_later("the population std"), x1(e.sigma)},
                {tr_later("the sample std"), x1(std::sqrt(e.var_sample + std::ldexp(e.eps, -2 * e.exp2)))}};
    if (name == "rms" || name == "RMS") return {{tr_later("the RMS"), x1(e.rms)}};
    return {};
}
}  // namespace

double evaluate_expression(std::string_view text) { return ExpressionParser(ascii_math(text)).parse(); }

StepVerdict check_step(const Explanation& e, std::string_view claim) {
    StepVerdict v;
    v.claim = std::string(claim);
    const size_t eq = claim.rfind('=');
    if (eq == std::string_view::npos) throw std::invalid_argument("a step needs the form \"lhs = rhs\": " + quote_for_message(claim));
    const std::string lhs = ascii_math(claim.substr(0, eq));
    const PrintedNumber rhs = parse_printed_number(claim.substr(eq + 1));
    const auto holds = [&](double actual) { return std::abs(actual - rhs.value) <= rhs.half_ulp * (1.0 + 1e-9); };

    // The messages in the UI's language (tr(): English in the CLI); the labels are tr_later texts.
    const auto named = named_values(e, lhs);
    if (!named.empty()) {
        for (const auto& [label, value] : named)
            if (holds(value)) {
                v.holds = true;
                v.actual = value;
                v.message = tr("{0} = {1} holds ({2})", lhs, num(rhs.value), tr(label.c_str()));
                return v;
            }
        v.actual = named.front().second;
        v.message = named.size() > 1 ? tr("{0} is {1} ({2}) or {3} ({4}), not {5}", lhs, num(v.actual),
                                          tr(named[0].first.c_str()), num(named[1].second), tr(named[1].first.c_str()),
                                          num(rhs.value))
                                     : tr("{0} is {1} ({2}), not {3}", lhs, num(v.actual), tr(named[0].first.c_str()),
                                          num(rhs.value));
        return v;
    }
    v.actual = evaluate_expression(lhs);
    v.holds = holds(v.actual);
    const std::string shown = std::string(claim.substr(0, eq));
    const std::string left = shown.substr(0, shown.find_last_not_of(' ') + 1);
    v.message = v.holds ? tr("{0} = {1} holds", left, num(rhs.value)) : tr("{0} = {1}, not {2}", left, num(v.actual), num(rhs.value));
    return v;
}

}  // namespace normlab
