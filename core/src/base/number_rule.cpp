// NormLab core: number_problem and rule_number (number_rule.hpp).
#include "normlab/base/number_rule.hpp"

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

std::string number_problem(std::string_view name, double v, const NumberRule& rule) {
    if (rule_accepts(rule, v)) return {};
    const std::string id(name);
    if (std::isnan(v)) return id + " is NaN";
    const std::string is = id + " = " + rule_number(v);
    if (std::isinf(v)) return is + " is not finite";
    if (rule.whole && v != std::floor(v)) return is + " is not a whole number";
    if (rule.hi == kNoBound) return is + (rule.lo_open ? " must be > " : " must be ≥ ") + rule_number(rule.lo);
    return is + " is out of range " + (rule.lo_open ? "(" : "[") + rule_number(rule.lo) + ", " + rule_number(rule.hi) +
           "]";
}

double at_display_precision(double v, double largest, int digits) {
    return std::abs(v) < 0.5 * std::pow(10.0, -digits) * std::abs(largest) ? 0.0 : v;
}

}  // namespace normlab
