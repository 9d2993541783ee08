// NormLab core: axis ticks (linear 1-2-5 steps, log decades) and the text width estimate.
#include "normlab/plot/plot.hpp"

#include "normlab/base/line_break.hpp"
#include "normlab/base/text.hpp"
#include "plot/plot_internal.hpp"

#include <cmath>
#include <cstdio>
#include <string>

namespace normlab {

using namespace plot_internal;

// [SECTION] Ticks ---------------------------------------------------------------------------

namespace {

// The label of N·10^k: plain decimals ("0.6", "−1.25", "3000"), or m×10ᵉ when sci.
std::string decimal_label(long long n, int k, bool sci) {
    if (n == 0) return "0";
    const std::string sign = n < 0 ? kMinusSign : "";
    std::string digits = std::to_string(n < 0 ? -n : n);
    if (sci) {
        const int e = k + static_cast<int>(digits.size()) - 1;
        std::string m = digits.substr(0, 1);
        std::string rest = digits.substr(1);
        while (!rest.empty() && rest.back() == '0') rest.pop_back();
        if (!rest.empty()) m += "." + rest;
        return sign + (m == "1" ? decade_label(e) : m + kTimesSign + decade_label(e));
    }
    if (k >= 0) return sign + digits + std::string(static_cast<std::size_t>(k), '0');
    const std::size_t dec = static_cast<std::size_t>(-k);
    if (digits.size() <= dec) digits.insert(0, dec - digits.size() + 1, '0');
    std::string s = digits.substr(0, digits.size() - dec) + "." + digits.substr(digits.size() - dec);
    return sign + strip_zeros(s);
}

// Integer tick indices i with lo ≤ i·step ≤ hi (tolerant to rounding at the ends).
void index_range(double lo, double hi, double step, double& i0, double& i1) {
    const double tol = 1e-9;
    i0 = std::ceil(lo / step - tol);
    i1 = std::floor(hi / step + tol);
}

}  // namespace

std::vector<Tick> linear_ticks(double lo, double hi, int target, double min_step) {
    std::vector<Tick> out;
    if (!std::isfinite(lo) || !std::isfinite(hi) || !(lo < hi) || !std::isfinite(hi - lo)) return out;
    target = std::clamp(target, 2, 50);
    int k0 = static_cast<int>(std::floor(std::log10((hi - lo) / target)));
    const bool has_min_step = std::isfinite(min_step) && min_step > 0.0;
    if (has_min_step) k0 = std::max(k0, static_cast<int>(std::floor(std::log10(min_step))));

    // Step = mult·10^k: the candidate whose tick count is closest to target (ties: larger step).
    int best_mult = 1, best_k = k0;
    double best_err = std::numeric_limits<double>::infinity();
    for (int k = k0 - 1; k <= k0 + 1; ++k) {
        for (int mult : {1, 2, 5}) {
            const double step = mult * pow10i(k);
            if (has_min_step && step < min_step * (1.0 - 1e-12)) continue;
            double i0, i1;
            index_range(lo, hi, step, i0, i1);
            const double count = i1 - i0 + 1.0;
            // A lone tick says nothing about the scale: never chosen while two fit.
            const double err = std::fabs(count - target) + (count < 2.0 ? 1000.0 : 0.0);
            if (err < best_err || (err == best_err && step > best_mult * pow10i(best_k))) {
                best_err = err;
                best_mult = mult;
                best_k = k;
            }
        }
    }
    const double step = best_mult * pow10i(best_k);
    double i0, i1;
    index_range(lo, hi, step, i0, i1);
    if (!(i1 >= i0) || std::fabs(i0) > 1e15 || std::fabs(i1) > 1e15 || i1 - i0 > 1000) return out;

    const double big = std::max(std::fabs(i0), std::fabs(i1)) * step;
    const bool sci = big >= 1e6 || best_k < -4;
    for (double i = i0; i <= i1; i += 1.0) {
        const long long n = static_cast<long long>(i) * best_mult;
        out.push_back({decimal_value(n, best_k), decimal_label(n, best_k, sci), true});
    }
    return out;
}

std::vector<Tick> log_ticks(double lo, double hi, int target, int slack) {
    std::vector<Tick> out;
    if (!std::isfinite(lo) || !std::isfinite(hi) || !(lo > 0.0) || !(lo < hi)) return out;
    target = std::clamp(target, 2, 50);
    const double llo = std::log10(lo), lhi = std::log10(hi);
    const double tol = 1e-9;
    const int e0 = static_cast<int>(std::ceil(llo - tol)), e1 = static_cast<int>(std::floor(lhi + tol));
    const int decades = e1 - e0 + 1;
    auto inside = [&](double v) { return v >= lo * (1.0 - tol) && v <= hi * (1.0 + tol); };

    if (decades >= 2) {
        // Label every stride-th decade; decade labels are short, so allow target + slack of them.
        int stride = 1;
        for (int base = 1;; base *= 10) {
            bool done = false;
            for (int m : {1, 2, 5}) {
                stride = m * base;
                if ((decades + stride - 1) / stride <= target + slack) {
                    done = true;
                    break;
                }
            }
            if (done || base > 100) break;
        }
        for (int e = e0; e <= e1; ++e) {
            const bool major = ((e % stride) + stride) % stride == 0;
            out.push_back({pow10i(e), major ? decade_label(e) : "", major});
        }
        if (stride == 1) {   // minor ticks 2…9 × 10^e, also below the first decade
            for (int e = e0 - 1; e <= e1; ++e)
                for (int m = 2; m <= 9; ++m) {
                    const double v = m * pow10i(e);
                    if (inside(v)) out.push_back({v, "", false});
                }
        }
        std::sort(out.begin(), out.end(), [](const Tick& a, const Tick& b) { return a.value < b.value; });
        return out;
    }

    // Less than two decades: 1, 2, 5 × 10^e labelled as plain numbers, the rest minor.
    std::vector<Tick> majors;
    for (int e = e0 - 1; e <= e1; ++e)
        for (int m = 1; m <= 9; ++m) {
            const double v = decimal_value(m, e);
            if (!inside(v)) continue;
            const bool major = m == 1 || m == 2 || m == 5;
            (major ? majors : out).push_back({v, major ? format_number(v, 3) : "", major});
        }
    if (majors.size() < 2) {
        out.clear();
        for (Tick& t : linear_ticks(lo, hi, target))
            if (t.value > 0.0) out.push_back(std::move(t));
        return out;
    }
    out.insert(out.end(), majors.begin(), majors.end());
    std::sort(out.begin(), out.end(), [](const Tick& a, const Tick& b) { return a.value < b.value; });
    return out;
}

std::vector<Tick> axis_ticks(const AxisRange& r, int target, double min_step, int log_slack) {
    return r.scale == Scale::Log10 ? log_ticks(r.lo, r.hi, target, log_slack) : linear_ticks(r.lo, r.hi, target, min_step);
}

// [SECTION] Text width estimate -------------------------------------------------------------

namespace {

// Advance widths of DejaVu Sans in em, roughly by class; Hangul, Han and Kana (Noto Sans CJK) 1 em.
double em_width(char32_t c) {
    if (is_wide_char(c)) return 1.0;
    if (c == ' ') return 0.32;
    if (c >= '0' && c <= '9') return 0.64;
    if (c == 'i' || c == 'l' || c == 'j' || c == '.' || c == ',' || c == ':' || c == ';' || c == '|' ||
        c == '\'' || c == '!' || c == 'I')
        return 0.3;
    if (c == 'f' || c == 't' || c == 'r' || c == '(' || c == ')' || c == '[' || c == ']' || c == '/')
        return 0.4;
    if (c == 'm' || c == 'w' || c == 'M' || c == 'W') return 0.92;
    if (c >= 'A' && c <= 'Z') return 0.72;
    if (c == 0xB2 || c == 0xB3 || c == 0xB9 || (c >= 0x2070 && c <= 0x209F)) return 0.42;   // super/subscripts
    if (c >= 0x300 && c <= 0x36F) return 0.0;                                             // combining marks
    return 0.62;
}

}  // namespace

double estimate_text_width(std::string_view text, double font_px) {
    double em = 0.0;
    for (std::size_t i = 0; i < text.size();) em += em_width(next_code_point(text, i));
    return em * font_px;
}

}  // namespace normlab
