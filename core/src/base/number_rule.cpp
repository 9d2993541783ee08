// NormLab core: number_problem and rule_number (number_rule.hpp).
#include "normlab/base/number_rule.hpp"

#include "normlab/base/i18n.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <string>

namespace normlab {

std::string rule_number(double v) {
    if (std::isnan(v)) return "NaN";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    std::string s = nlohmann::json(v).dump();   // the shortest text that reads back as v
    if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
    return s;
}

bool rule_accepts(const NumberRule& rule, double v) {
    if (!std::isfinite(v) || (rule.whole && v != std::floor(v))) return false;
    return (rule.lo_open ? v > rule.lo : v >= rule.lo) && v <= rule.hi;
}

// In the UI's language (tr): English in the CLI, which never chooses another.
std::string number_problem(std::string_view name, double v, const NumberRule& rule) {
    if (rule_accepts(rule, v)) return {};
    if (std::isnan(v)) return tr("{0} is NaN", name);
    const std::string value = rule_number(v);
    if (std::isinf(v)) return tr("{0} = {1} is not finite", name, value);
    if (rule.whole && v != std::floor(v)) return tr("{0} = {1} is not a whole number", name, value);
    const std::string lo = rule_number(rule.lo);
    if (rule.hi == kNoBound)
        return rule.lo_open ? tr("{0} = {1} must be > {2}", name, value, lo) : tr("{0} = {1} must be ≥ {2}", name, value, lo);
    const std::string range = (rule.lo_open ? "(" : "[") + lo + ", " + rule_number(rule.hi) + "]";
    return tr("{0} = {1} is out of range {2}", name, value, range);
}

double at_display_precision(double v, double largest, int digits) {
    return std::abs(v) < 0.5 * std::pow(10.0, -digits) * std::abs(largest) ? 0.0 : v;
}

}  // namespace normlab
