// NormLab core: the norms in a number format, op by op (see number_format.hpp).
// Built with -ffp-contract=off (core/CMakeLists.txt): every a·b + c below is two roundings, as
// the emulated format would do it, never one fused multiply-add.
//
// [SECTION] Formats    — limits, names, rounding, ulps
// [SECTION] Emulator   — one rounded operation at a time, and the events it saw
// [SECTION] The norms  — one case in the textbook order
// [SECTION] Forward    — storage, the cases, the two float64 references
#include "normlab/norm/number_format.hpp"

#include "normlab/base/i18n.hpp"
#include "normlab/base/text.hpp"

#include <cfloat>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <tuple>

namespace normlab {

// [SECTION] Formats -------------------------------------------------------------------------

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
const FormatInfo kFormats[] = {
    {"float16", 11, -14, 65504.0, 0x1p-24},
    {"bfloat16", 8, -126, 0x1.FEp127, 0x1p-133},
    {"float32", 24, -126, static_cast<double>(FLT_MAX), 0x1p-149},
    {"float64", 53, -1022, DBL_MAX, 0x1p-1074},
};
constexpr std::string_view kArithmeticNames[] = {"same", "float32"};
}  // namespace

const FormatInfo& format_info(NumberFormat format) { return kFormats[static_cast<int>(format)]; }

std::string_view to_string(NumberFormat format) { return format_info(format).name; }

std::optional<NumberFormat> parse_number_format(std::string_view name) {
    for (NumberFormat f : kAllFormats)
        if (to_string(f) == name) return f;
    return std::nullopt;
}

std::string_view to_string(Arithmetic arithmetic) { return kArithmeticNames[static_cast<int>(arithmetic)]; }

std::optional<Arithmetic> parse_arithmetic(std::string_view name) {
    for (Arithmetic a : {Arithmetic::Same, Arithmetic::Float32})
        if (to_string(a) == name) return a;
    return std::nullopt;
}

NumberFormat compute_format(NumberFormat format, Arithmetic arithmetic) {
    const bool narrow = format == NumberFormat::Float16 || format == NumberFormat::BFloat16;
    return arithmetic == Arithmetic::Float32 && narrow ? NumberFormat::Float32 : format;
}

double round_to(NumberFormat format, double v) {
    if (format == NumberFormat::Float64 || !std::isfinite(v) || v == 0.0) return v;
    if (format == NumberFormat::Float32) return static_cast<double>(static_cast<float>(v));   // IEEE: RNE
    const FormatInfo& info = format_info(format);
    // The quantum of v's binade (of the subnormals below 2^min_exponent); v / quantum is exact.
    const int lead = std::max(std::ilogb(v), info.min_exponent);
    const double quantum = std::ldexp(1.0, lead - info.precision + 1);
    const double r = std::nearbyint(v / quantum) * quantum;   // the default mode: ties to even
    return std::fabs(r) > info.max_finite ? std::copysign(kInf, v) : r;
}

double ulp(NumberFormat format, double v) {
    const FormatInfo& info = format_info(format);
    if (v == 0.0 || !std::isfinite(v)) return info.min_subnormal;
    return std::ldexp(1.0, std::max(std::ilogb(v), info.min_exponent) - info.precision + 1);
}

std::optional<double> ulp_error(NumberFormat format, double value, double reference) {
    if (!std::isfinite(value) || !std::isfinite(reference)) return std::nullopt;
    return (value - reference) / ulp(format, reference);
}

std::string_view to_string(EventKind kind) {
    switch (kind) {
        case EventKind::Overflow: return "overflow";
        case EventKind::Underflow: return "underflow";
        case EventKind::DivideByZero: return "divide_by_zero";
        case EventKind::NaN: return "nan";
        case EventKind::EpsDominated: return "eps_dominated";
    }
    return "";
}

bool format_norm_supported(Norm norm) {
    return norm == Norm::LayerNorm || norm == Norm::RMSNorm || norm == Norm::PRMSNorm || norm == Norm::L2Norm;
}

// [SECTION] Emulator ------------------------------------------------------------------------

namespace {

// The steps of a case, each with its sentence for "…, as do 3 more squares" (indexed by Step;
// null: once per case).
enum class Step { Store, Count, Eps, Sum, Mean, Deviation, Square, SumSquares, Stat, EpsAdd, Root, Divide, Gain, Bias, CastBack };
constexpr const char* kPartialSums = tr_later("{0}, as do {1} more partial sums");
constexpr const char* kOutputs = tr_later("{0}, as do {1} more outputs y");
constexpr const char* kStepMore[] = {tr_later("{0}, as do {1} more stored inputs"),
                                     tr_later("{0}, as do {1} more counts"),
                                     nullptr,
                                     kPartialSums,
                                     nullptr,
                                     tr_later("{0}, as do {1} more deviations x − μ"),
                                     tr_later("{0}, as do {1} more squares"),
                                     kPartialSums,
                                     nullptr,
                                     nullptr,
                                     nullptr,
                                     tr_later("{0}, as do {1} more quotients ā"),
                                     tr_later("{0}, as do {1} more products ā·g"),
                                     kOutputs,
                                     kOutputs};

// The event's sentence, each text looked up by `lookup` (tr, or the English msgid as it is).
template <class Lookup>
std::string compose(const FormatEvent& e, const Lookup& lookup) {
    std::string s = fill_placeholders(lookup(e.text), e.args);
    if (e.more > 0 && e.more_text) s = fill_placeholders(lookup(e.more_text), {s, std::to_string(e.more)});
    if (e.case_index >= 0) s = fill_placeholders(lookup(tr_later("{0} (case {1})")), {s, std::to_string(e.case_index)});
    return s;
}

std::string num(double v) { return format_number(v, 6); }
std::string idx(Eigen::Index i) { return subscript(static_cast<long long>(i) + 1); }   // 1-based, as the paper

// Rounds each operation's double result to the computing format (and stored values to the
// storage format) and records what went wrong, once per (case, step, kind) with a count.
class Emulator {
public:
    Emulator(NumberFormat storage, NumberFormat compute) : storage_(storage), compute_(compute) {}

    int case_index = -1;

    // `label` builds the place's name ("x₃²") only when an event needs it.
    template <class Label>
    double store(double v, Step step, const Label& label) {
        return finish(storage_, v, std::isfinite(v), step, label, false);
    }
    template <class Label>
    double cast_back(double v, Step step, const Label& label) {
        return finish(storage_, v, std::isfinite(v), step, label, true);
    }
    template <class Label>
    double add(double a, double b, Step step, const Label& label) {
        const double r = finish(compute_, a + b, finite(a, b), step, label, false);
        if (std::isnan(r) && !nan_in(a, b)) nan_event(step, label, "∞ − ∞");
        return r;
    }
    template <class Label>
    double sub(double a, double b, Step step, const Label& label) {
        return add(a, -b, step, label);
    }
    template <class Label>
    double mul(double a, double b, Step step, const Label& label) {
        const double exact = a * b;
        const double r = finish(compute_, exact, finite(a, b), step, label, false);
        if (std::isnan(r) && !nan_in(a, b)) nan_event(step, label, "0 × ∞");
        if (r == 0.0 && a != 0.0 && b != 0.0 && finite(a, b)) underflow(step, label, exact, compute_);
        return r;
    }
    template <class Label>
    double div(double a, double b, Step step, const Label& label) {
        const double exact = a / b;
        const double r = finish(compute_, exact, finite(a, b) && b != 0.0, step, label, false);
        if (std::isnan(r) && !nan_in(a, b)) nan_event(step, label, b == 0.0 ? "0 / 0" : "∞ / ∞");
        if (b == 0.0 && a != 0.0 && finite(a, b))
            record(EventKind::DivideByZero, step, label, std::nullopt, tr_later("{0} = {1} / 0 is infinite"), {num(a)});
        if (r == 0.0 && a != 0.0 && finite(a, b) && b != 0.0) underflow(step, label, exact, compute_);
        return r;
    }
    template <class Label>
    double sqrt(double a, Step step, const Label& label) {
        return finish(compute_, std::sqrt(a), false, step, label, false);   // √ of a finite number ≥ 0 stays in range
    }

    // ε above the statistic it is added to.
    void eps_dominated(double stat, double eps, const std::string& stat_name, const std::string& denom) {
        record(EventKind::EpsDominated, Step::EpsAdd, [&] { return denom; }, stat,
               tr_later("{0}: {1} = {2} is below ε = {3}, so ε sets the denominator"), {stat_name, num(stat), num(eps)});
    }

    std::vector<FormatEvent> take_events() {
        for (FormatEvent& e : events_) e.message = compose(e, [](const char* english) { return english; });
        return std::move(events_);
    }

private:
    static bool nan_in(double a, double b) { return std::isnan(a) || std::isnan(b); }
    static bool finite(double a, double b) { return std::isfinite(a) && std::isfinite(b); }

    // Rounds `exact` to `format`. An overflow: an infinite result from finite operands (and no
    // division by 0); an underflow: a non-zero stored value (or ε, or a cast-back y) turned 0
    // (the operations' underflows are found by mul and div).
    template <class Label>
    double finish(NumberFormat format, double exact, bool operands_finite, Step step, const Label& label,
                  bool cast_back) {
        const double r = round_to(format, exact);
        if (std::isinf(r) && operands_finite) {
            const std::string name(to_string(format)), max = num(format_info(format).max_finite);
            if (std::isinf(exact))   // beyond double's range too: no value to name
                record(EventKind::Overflow, step, label, std::nullopt,
                       cast_back ? tr_later("{0} overflows {1} when cast back (max {2})")
                                 : tr_later("{0} overflows {1} (max {2})"),
                       {name, max});
            else
                record(EventKind::Overflow, step, label, exact,
                       cast_back ? tr_later("{0} = {1} overflows {2} when cast back (max {3})")
                                 : tr_later("{0} = {1} overflows {2} (max {3})"),
                       {num(exact), name, max});
        }
        if (r == 0.0 && exact != 0.0 && (step == Step::Store || step == Step::Eps || step == Step::CastBack))
            underflow(step, label, exact, format);
        return r;
    }
    // `exact` is 0 only where double itself underflowed (float64).
    template <class Label>
    void underflow(Step step, const Label& label, double exact, NumberFormat format) {
        const std::string name(to_string(format)), smallest = num(format_info(format).min_subnormal);
        if (exact == 0.0)
            record(EventKind::Underflow, step, label, std::nullopt,
                   tr_later("{0} underflows to 0 in {1} (smallest {2})"), {name, smallest});
        else
            record(EventKind::Underflow, step, label, exact, tr_later("{0} = {1} underflows to 0 in {2} (smallest {3})"),
                   {num(exact), name, smallest});
    }
    template <class Label>
    void nan_event(Step step, const Label& label, const char* why) {
        record(EventKind::NaN, step, label, std::nullopt, tr_later("{0} is NaN ({1})"), {why});
    }
    template <class Label>
    // `text`: the sentence's msgid, {0} the place, `args` the rest ({1}, {2}, …).
    void record(EventKind kind, Step step, const Label& label, std::optional<double> value, const char* text,
                std::vector<std::string> args) {
        const auto key = std::make_tuple(case_index, static_cast<int>(step), static_cast<int>(kind));
        const auto [it, fresh] = first_.emplace(key, events_.size());
        if (!fresh) {
            ++events_[it->second].more;
            return;
        }
        FormatEvent e;
        e.kind = kind;
        e.case_index = case_index;
        e.where = label();
        e.value = value;
        e.text = text;
        e.args = std::move(args);
        e.args.insert(e.args.begin(), e.where);
        e.more_text = kStepMore[static_cast<int>(step)];
        events_.push_back(std::move(e));
    }

    NumberFormat storage_, compute_;
    std::vector<FormatEvent> events_;
    std::map<std::tuple<int, int, int>, std::size_t> first_;
};

// [SECTION] The norms -----------------------------------------------------------------------

// What one case needs, all in the computing format: a (n, stored), g, b, n and k as numbers, ε.
struct CaseInputs {
    Vec a, g, b;
    double n = 0.0, k = 0.0, eps = 0.0;
    Eigen::Index k_count = 0;
};

// Σ v_i·v_i over i < count, left to right, each product and partial sum rounded. `name(i)`
// names v_i ("x₃" or "(x₃ − μ)").
template <class Name>
double sum_of_squares(Emulator& em, const Vec& v, Eigen::Index count, const Name& name) {
    double acc = 0.0;
    for (Eigen::Index i = 0; i < count; ++i) {
        const double sq = em.mul(v(i), v(i), Step::Square, [&] { return name(i) + "²"; });
        acc = i == 0 ? sq : em.add(acc, sq, Step::SumSquares, [&] {
            return name(0) + "² + " + (i > 1 ? "… + " : "") + name(i) + "²";
        });
    }
    return acc;
}

// D = √(stat + ε) or √stat + ε (eps_mode), with the ε-dominance check.
double denominator(Emulator& em, const NormSpec& spec, double stat, double eps, const std::string& stat_name) {
    const bool inside = spec.eps_mode == EpsMode::InsideSqrt;
    const std::string under = inside ? stat_name : "√" + stat_name;
    if (eps > 0.0 && std::isfinite(stat) && stat < eps)
        em.eps_dominated(stat, eps, stat_name, inside ? "√(" + stat_name + " + ε)" : "√" + stat_name + " + ε");
    if (inside) {
        const double t = em.add(stat, eps, Step::EpsAdd, [&] { return stat_name + " + ε"; });
        return em.sqrt(t, Step::Root, [&] { return "√(" + stat_name + " + ε)"; });
    }
    const double r = em.sqrt(stat, Step::Root, [&] { return under; });
    return em.add(r, eps, Step::EpsAdd, [&] { return under + " + ε"; });
}

// One case: ā and y (n, in the computing format), and its statistics.
FormatCaseStats norm_case(Emulator& em, const NormSpec& spec, const CaseInputs& in, Vec& y) {
    const Eigen::Index n = in.a.size();
    FormatCaseStats st;
    Vec top = in.a;   // what ā divides: a, or d = a − μ
    std::string stat_name;
    if (spec.norm == Norm::LayerNorm) {
        double s = in.a(0);
        for (Eigen::Index i = 1; i < n; ++i)
            s = em.add(s, in.a(i), Step::Sum, [&] { return "x₁ + " + std::string(i > 1 ? "… + " : "") + "x" + idx(i); });
        st.mean = em.div(s, in.n, Step::Mean, [] { return std::string("μ = Σx / n"); });
        for (Eigen::Index i = 0; i < n; ++i)
            top(i) = em.sub(in.a(i), st.mean, Step::Deviation, [&] { return "x" + idx(i) + " − μ"; });
        const double ss = sum_of_squares(em, top, n, [](Eigen::Index i) { return "(x" + idx(i) + " − μ)"; });
        st.stat = em.div(ss, in.n, Step::Stat, [] { return std::string("σ² = Σ(x − μ)² / n"); });
        stat_name = "σ²";
    } else {
        const double ss = sum_of_squares(em, in.a, in.k_count, [](Eigen::Index i) { return "x" + idx(i); });
        if (spec.norm == Norm::L2Norm) {
            st.stat = ss;
            stat_name = "Σx²";
        } else {
            const bool partial = spec.norm == Norm::PRMSNorm;
            st.stat = em.div(ss, in.k, Step::Stat, [&] { return partial ? "mean(x²) = Σx² / k" : "mean(x²) = Σx² / n"; });
            stat_name = "mean(x²)";
        }
    }
    st.denom = denominator(em, spec, st.stat, in.eps, stat_name);
    y.resize(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        const double ybar = em.div(top(i), st.denom, Step::Divide, [&] { return "ā" + idx(i); });
        const double scaled = em.mul(ybar, in.g(i), Step::Gain, [&] { return "ā" + idx(i) + "·g" + idx(i); });
        y(i) = em.add(scaled, in.b(i), Step::Bias, [&] { return "y" + idx(i); });
    }
    return st;
}

// y_i/ulp error against a reference, NaN where undefined.
Mat ulp_errors(NumberFormat format, const Mat& y, const Mat& ref) {
    Mat out(y.rows(), y.cols());
    for (Eigen::Index i = 0; i < y.rows(); ++i)
        for (Eigen::Index j = 0; j < y.cols(); ++j)
            out(i, j) = ulp_error(format, y(i, j), ref(i, j)).value_or(std::numeric_limits<double>::quiet_NaN());
    return out;
}

Mat reference(NormSpec spec, double eps, const Mat& x, const Vec& g, const Vec& b) {
    spec.eps = eps;
    return layer_forward(spec, x, LayerParams{std::nullopt, g, b}).y;
}

}  // namespace

// [SECTION] Forward -------------------------------------------------------------------------

std::string event_text(const FormatEvent& e) { return compose(e, [](const char* id) { return tr(id); }); }

FormatResult format_forward(const NormSpec& spec, const Mat& x, const Vec& g, const Vec& b, NumberFormat format,
                            Arithmetic arithmetic) {
    if (!format_norm_supported(spec.norm))
        throw std::invalid_argument("format_forward computes layernorm, rmsnorm, prmsnorm and l2norm only");
    const NumberFormat compute = compute_format(format, arithmetic);
    const Eigen::Index n = x.cols();
    Emulator em(format, compute);
    FormatResult out;
    out.format = format;
    out.arithmetic = arithmetic;
    out.k = spec.norm == Norm::PRMSNorm ? partial_k(n, spec.p, spec.rounding) : n;

    CaseInputs in;
    in.k_count = out.k;
    Vec g_stored(n), b_stored(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        g_stored(i) = em.store(g(i), Step::Store, [&] { return "g" + idx(i); });
        b_stored(i) = em.store(b(i), Step::Store, [&] { return "b" + idx(i); });
    }
    in.g = g_stored;
    in.b = b_stored;
    // ε and the counts are numbers of the computing format (a kernel's float eps, its float n).
    Emulator counts(compute, compute);
    in.eps = counts.store(spec.eps, Step::Eps, [] { return std::string("ε"); });
    in.n = counts.store(static_cast<double>(n), Step::Count, [] { return std::string("n"); });
    in.k = counts.store(static_cast<double>(out.k), Step::Count, [] { return std::string("k"); });
    out.eps_used = in.eps;

    out.x_stored.resize(x.rows(), n);
    out.y.resize(x.rows(), n);
    for (Eigen::Index c = 0; c < x.rows(); ++c) {
        em.case_index = static_cast<int>(c);
        for (Eigen::Index i = 0; i < n; ++i)
            out.x_stored(c, i) = em.store(x(c, i), Step::Store, [&] { return "x" + idx(i); });
        in.a = out.x_stored.row(c).transpose();
        Vec y;
        out.stats.push_back(norm_case(em, spec, in, y));
        for (Eigen::Index i = 0; i < n; ++i)
            out.y(c, i) = compute == format ? y(i) : em.cast_back(y(i), Step::CastBack, [&] { return "y" + idx(i); });
    }
    out.events = counts.take_events();
    for (FormatEvent& e : em.take_events()) out.events.push_back(std::move(e));

    out.ref_stored = reference(spec, in.eps, out.x_stored, g_stored, b_stored);
    out.ref_original = reference(spec, spec.eps, x, g, b);
    out.ulps_stored = ulp_errors(format, out.y, out.ref_stored);
    out.ulps_original = ulp_errors(format, out.y, out.ref_original);
    return out;
}

}  // namespace normlab
