// NormLab core: the Number formats lab (see precision_lab.hpp).
//
// [SECTION] Scene file
// [SECTION] Results   — the outputs now, in plain words; the two sweeps; the marks
// [SECTION] Figures
#include "normlab/labs/precision_lab.hpp"

#include "normlab/labs/state_json.hpp"
#include "normlab/norm/conventions.hpp"
#include "normlab/base/i18n.hpp"
#include "normlab/base/text.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace normlab {

// [SECTION] Scene file ----------------------------------------------------------------------

namespace {
constexpr std::array<std::string_view, 4> kNormNames{"layernorm", "rmsnorm", "prmsnorm", "l2norm"};
constexpr std::array<std::string_view, 4> kFormatNames{"float16", "bfloat16", "float32", "float64"};
constexpr std::array<NumberFormat, 4> kFormats{NumberFormat::Float16, NumberFormat::BFloat16, NumberFormat::Float32,
                                               NumberFormat::Float64};
constexpr std::array<std::string_view, 2> kArithmeticNames{"same", "float32"};
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

nlohmann::json state_to_json(const PrecisionLabState& state) {
    return {{"x", std::vector<double>(state.x.data(), state.x.data() + state.x.size())},
            {"norm", to_string(state.norm)},
            {"format", to_string(state.format)},
            {"arithmetic", to_string(state.arithmetic)},
            {"eps", state.eps}};
}

void state_from_json(SceneReader& in, PrecisionLabState& state) {
    if (in.read("x", state.x)) {
        if (state.x.size() > kPrecisionMaxEntries)
            in.fail("x", "has " + std::to_string(state.x.size()) + " entries, at most " +
                             std::to_string(kPrecisionMaxEntries));
        in.check_entries("x", state.x, kPrecisionEntryRule);
    }
    in.read_choice("norm", state.norm, kNormNames, kPrecisionNorms);
    in.read_choice("format", state.format, kFormatNames, kFormats);
    in.read_choice("arithmetic", state.arithmetic, kArithmeticNames, kPrecisionArithmetics);
    in.read("eps", state.eps, kPrecisionEpsRule);
}

// [SECTION] Results -------------------------------------------------------------------------

namespace {

NormSpec spec_of(Norm norm, double eps) {
    NormSpec s;
    s.norm = norm;
    s.eps = eps;
    return s;
}

FormatResult run(const PrecisionLabState& s, Norm norm, Arithmetic a, const Vec& x) {
    const Eigen::Index n = x.size();
    return format_forward(spec_of(norm, s.eps), x.transpose(), Vec::Ones(n), Vec::Zero(n), s.format, a);
}

// ‖y − ref‖ / ‖ref‖ (‖y − ref‖ where ref is 0); NaN where y is not finite.
double relative_error(const Mat& y, const Mat& ref) {
    if (!y.allFinite()) return kNaN;
    const double d = (y - ref).norm(), r = ref.norm();
    return r > 0.0 ? d / r : d;
}

std::string format_name(const PrecisionLabState& s) {
    std::string name(to_string(s.format));
    if (compute_format(s.format, Arithmetic::Float32) != s.format)
        name += std::string(" (") + (s.arithmetic == Arithmetic::Same ? tr("every step") : tr("computed in float32")) + ")";
    return name;
}

// The headline and what the events did to y, from the outputs and their float64 references.
void describe(const PrecisionLabState& s, PrecisionLabResults& r) {
    const FormatResult& f = r.now;
    const std::string who = format_name(s) + " " + std::string(display_name(s.norm));
    const bool all_zero = (f.y.array() == 0.0).all() && f.ref_original.norm() > 0.0;
    const bool any_nan = f.y.array().isNaN().any();
    const bool any_inf = f.y.array().isInf().any();
    double worst = 0.0;
    for (Eigen::Index i = 0; i < f.y.size(); ++i)
        if (std::isfinite(f.ulps_original(i))) worst = std::max(worst, std::fabs(f.ulps_original(i)));
    if (all_zero)
        r.headline = tr("{0} returns zeros here", who);
    else if (any_nan)
        r.headline = tr("{0} returns NaN here", who);
    else if (any_inf)
        r.headline = tr("{0} returns ∞ here", who);
    else
        r.headline = tr("{0}: within {1} ulp of float64", who, format_number(std::ceil(worst), 3));
    for (const FormatEvent& e : f.events) {
        if (e.kind == EventKind::Overflow && f.stats[0].denom == std::numeric_limits<double>::infinity())
            r.consequences.push_back(tr("An overflow made the denominator ∞, so every āᵢ = xᵢ / ∞ is 0: the output "
                                        "is zeros with no error raised."));
        if (e.kind == EventKind::Underflow && e.where == "ε")
            r.consequences.push_back(tr("ε is 0 in this format: nothing keeps a zero statistic from dividing 0 by 0."));
        if (e.kind == EventKind::EpsDominated)
            r.consequences.push_back(tr("ε is larger than the statistic it is added to: the output is shrunk toward 0 "
                                        "(float64 with the same ε shrinks it too)."));
        if (e.kind == EventKind::NaN)
            r.consequences.push_back(tr("A NaN spreads to every output it touches."));
    }
    if (s.norm == Norm::LayerNorm && f.ref_original.norm() > 0.0 && std::fabs(f.stats[0].mean) > 0.0) {
        const double spread = std::sqrt(std::max(f.stats[0].stat, 0.0));
        if (std::isfinite(spread) && std::fabs(f.stats[0].mean) > 64.0 * spread)
            r.consequences.push_back(tr("The mean is far larger than the spread: subtracting it cancels most digits "
                                        "(RMSNorm does not subtract it)."));
    }
}

// δ = 10^(−8 + k/8), k = 0..128; c = 10^(−2 + k/8), k = 0..64.
std::vector<double> decades(double lo_exp, int points) {
    std::vector<double> t;
    for (int k = 0; k < points; ++k) t.push_back(std::pow(10.0, lo_exp + k / 8.0));
    return t;
}

PrecisionSweep delta_sweep(const PrecisionLabState& s) {
    PrecisionSweep out;
    out.t = decades(-8.0, 129);
    for (std::size_t k = 0; k < kPrecisionNorms.size(); ++k) {
        const Mat ref = run(s, kPrecisionNorms[k], Arithmetic::Same, s.x).ref_original;   // float64 y(x)
        for (std::size_t a = 0; a < 2; ++a)
            for (double d : out.t) {
                const FormatResult f = run(s, kPrecisionNorms[k], kPrecisionArithmetics[a], d * s.x);
                out.error[k][a].push_back(relative_error(f.y, ref));
                out.finite[k][a].push_back(f.y.allFinite());
            }
    }
    return out;
}

PrecisionSweep offset_sweep(const PrecisionLabState& s) {
    PrecisionSweep out;
    out.t = decades(-2.0, 65);
    for (std::size_t k = 0; k < kPrecisionNorms.size(); ++k)
        for (std::size_t a = 0; a < 2; ++a)
            for (double c : out.t) {
                const FormatResult f = run(s, kPrecisionNorms[k], kPrecisionArithmetics[a], s.x.array() + c);
                out.error[k][a].push_back(relative_error(f.y, f.ref_original));
                out.finite[k][a].push_back(f.y.allFinite());
            }
    return out;
}

std::size_t norm_index(Norm norm) {
    for (std::size_t k = 0; k < kPrecisionNorms.size(); ++k)
        if (kPrecisionNorms[k] == norm) return k;
    return 1;
}

PrecisionMarks find_marks(const PrecisionLabState& s, const PrecisionSweep& sweep) {
    PrecisionMarks m;
    const std::size_t k = norm_index(s.norm), a = s.arithmetic == Arithmetic::Same ? 0 : 1;
    for (double d : sweep.t) {
        const FormatResult f = run(s, s.norm, s.arithmetic, d * s.x);
        for (const FormatEvent& e : f.events) {
            if (e.kind == EventKind::Overflow && !m.overflow_from) m.overflow_from = d;
            if (e.kind == EventKind::Underflow && e.case_index >= 0) m.underflow_below = d;
            if (e.kind == EventKind::EpsDominated) m.eps_below = d;
        }
    }
    // The longest run of δ whose error is within tolerance (the first such run on a tie).
    const double tolerance = 8.0 * std::ldexp(1.0, 1 - format_info(s.format).precision);
    const std::vector<double>& err = sweep.error[k][a];
    std::size_t best_lo = 0, best_len = 0;
    for (std::size_t i = 0; i < err.size();) {
        if (!(err[i] <= tolerance)) {
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j < err.size() && err[j] <= tolerance) ++j;
        if (j - i > best_len) best_lo = i, best_len = j - i;
        i = j;
    }
    if (best_len == 0) return m;
    m.invariant_lo = sweep.t[best_lo];
    m.invariant_hi = sweep.t[best_lo + best_len - 1];
    return m;
}

}  // namespace

PrecisionLabResults compute_precision_lab(const PrecisionLabState& state) {
    if (state.x.size() == 0) throw std::invalid_argument("x is empty");
    if (!state.x.allFinite()) throw std::invalid_argument("x has an entry that is not finite");
    PrecisionLabResults r;
    r.now = run(state, state.norm, state.arithmetic, state.x);
    describe(state, r);
    r.delta = delta_sweep(state);
    r.offset = offset_sweep(state);
    r.marks = find_marks(state, r.delta);
    return r;
}

// [SECTION] Figures -------------------------------------------------------------------------

namespace {

// Exact results (error 0) drawn at the floor, a sixteenth of the unit roundoff: a log axis has no 0.
double floor_of(NumberFormat f) { return std::ldexp(1.0, -format_info(f).precision - 4); }

void add_sweep_series(Plot& p, const PrecisionSweep& sweep, std::size_t k, std::size_t a, NumberFormat f) {
    const Norm norm = kPrecisionNorms[k];
    Series s;
    // The legend names the norms once (solid) and the dashes once (sweep_plot's key entry).
    s.label = a == 0 ? std::string(display_name(norm)) : "";
    s.data_name = std::string(display_name(norm)) + (a == 0 ? ", every step" : ", float32 steps");
    s.color = norm_color(norm);
    s.line = a == 0 ? LineStyle::Solid : LineStyle::Dashed;
    s.x = sweep.t;
    Series bad;
    bad.data_name = s.data_name + ": y not finite";
    bad.kind = SeriesKind::Scatter;
    bad.marker = Marker::Ring;
    bad.color = s.color;
    for (std::size_t i = 0; i < sweep.t.size(); ++i) {
        const double e = sweep.error[k][a][i];
        s.y.push_back(std::isnan(e) ? kNaN : std::max(e, floor_of(f)));
        if (!sweep.finite[k][a][i]) {
            bad.x.push_back(sweep.t[i]);
            bad.y.push_back(10.0);
        }
    }
    p.series.push_back(std::move(s));
    if (!bad.x.empty()) p.series.push_back(std::move(bad));
}

RefLine vertical(double at, std::string label) {
    RefLine l;
    l.orientation = RefLine::Orientation::Vertical;
    l.value = at;
    l.label = std::move(label);
    return l;
}

Plot sweep_plot(const PrecisionLabState& s, const PrecisionSweep& sweep, const std::vector<std::size_t>& norms) {
    Plot p;
    p.x.scale = Scale::Log10;
    p.y.scale = Scale::Log10;
    p.y.label = tr("relative error ‖y − y₆₄‖ / ‖y₆₄‖");
    p.y.min = floor_of(s.format) / 2.0;
    p.y.max = 20.0;
    for (std::size_t a = 0; a < 2; ++a)
        for (std::size_t k : norms) add_sweep_series(p, sweep, k, a, s.format);
    if (compute_format(s.format, Arithmetic::Float32) != s.format) {
        Series key;   // no data: the legend's entry for the dashed curves
        key.label = "float32";   // beside a dashed swatch: the curves computed in float32 steps
        key.color = Color{90, 90, 90};
        key.line = LineStyle::Dashed;
        p.series.push_back(std::move(key));
    }
    RefLine u;
    u.value = std::ldexp(1.0, -format_info(s.format).precision);
    u.label = tr("unit roundoff 2{0}", superscript(-format_info(s.format).precision));
    p.ref_lines.push_back(u);
    return p;
}

}  // namespace

Plot precision_delta_plot(const PrecisionLabState& s, const PrecisionLabResults& r) {
    Plot p = sweep_plot(s, r.delta, {0, 1, 2, 3});
    p.name = "precision_delta_sweep";
    p.title = tr("{0}: x′ = δx against float64's y(x)", to_string(s.format));
    p.caption = "Relative error of each norm in " + std::string(to_string(s.format)) +
                " (solid: every step rounded; dashed: float32 steps) for x′ = δx against float64's y(x), which "
                "the paper's re-scaling invariance says it equals. Rings at the top: y not finite. Errors of 0 are "
                "drawn at 2" + superscript(-format_info(s.format).precision - 4) + ".";
    p.x.label = "δ";
    const PrecisionMarks& m = r.marks;
    if (m.overflow_from) p.ref_lines.push_back(vertical(*m.overflow_from, tr("overflow from here")));
    if (m.underflow_below) p.ref_lines.push_back(vertical(*m.underflow_below, tr("underflow below")));
    if (m.eps_below) p.ref_lines.push_back(vertical(*m.eps_below, tr("ε dominates below")));
    // The invariant range's ends, where they lie inside the sweep.
    if (m.invariant_lo && *m.invariant_lo > r.delta.t.front())
        p.ref_lines.push_back(vertical(*m.invariant_lo, tr("invariance breaks")));
    if (m.invariant_hi && *m.invariant_hi < r.delta.t.back())
        p.ref_lines.push_back(vertical(*m.invariant_hi, tr("invariance breaks")));
    return p;
}

Plot precision_offset_plot(const PrecisionLabState& s, const PrecisionLabResults& r) {
    Plot p = sweep_plot(s, r.offset, {0, 1});
    p.name = "precision_offset_sweep";
    p.title = tr("{0}: x′ = x + c, LayerNorm against RMSNorm", to_string(s.format));
    p.caption = "Relative error of LayerNorm and RMSNorm in " + std::string(to_string(s.format)) +
                " for x′ = x + c against float64's y(x + c): LayerNorm subtracts a mean that grows with c and "
                "loses the digits of the spread; RMSNorm does not subtract it.";
    p.x.label = tr("offset c");
    return p;
}

Table precision_outputs_table(const PrecisionLabState& s, const PrecisionLabResults& r) {
    const FormatResult& f = r.now;
    Table t;
    t.name = "precision_outputs";
    t.title = r.headline;
    t.caption = std::string(display_name(s.norm)) + " of x in " + format_name(s) + ", ε = " + format_number(s.eps) +
                " (held as " + format_number(f.eps_used, 6) + "), beside float64.";
    const std::string fmt(to_string(s.format));
    t.columns = {"i", "x", tr("x in {0}", fmt), tr("y in {0}", fmt), tr("y float64 (stored x)"), "ulps", tr("y float64 (x)"),
                 tr("ulps (x)")};
    const auto cell = [](double v) { return std::isfinite(v) ? format_number(v, 6) : std::isnan(v) ? "NaN" : v > 0 ? "∞" : "−∞"; };
    for (Eigen::Index i = 0; i < f.y.cols(); ++i) {
        const bool off = !std::isfinite(f.ulps_original(0, i)) || std::fabs(f.ulps_original(0, i)) > 2.0;
        t.rows.push_back({{std::to_string(i + 1)},
                          {cell(s.x(i))},
                          {cell(f.x_stored(0, i))},
                          {cell(f.y(0, i)), off ? CellTone::Fail : CellTone::Pass},
                          {cell(f.ref_stored(0, i))},
                          {std::isfinite(f.ulps_stored(0, i)) ? format_number(f.ulps_stored(0, i), 3) : "—"},
                          {cell(f.ref_original(0, i))},
                          {std::isfinite(f.ulps_original(0, i)) ? format_number(f.ulps_original(0, i), 3) : "—"}});
    }
    for (const FormatEvent& e : f.events) t.note += (t.note.empty() ? "" : " ") + tr("{0}.", event_text(e));
    return t;
}

Table precision_conventions_table(const PrecisionLabState& s) {
    Table t;
    t.name = "precision_conventions";
    const std::string fmt(to_string(s.format));
    t.title = "The libraries' norms of x in " + fmt;
    t.caption = "Each library's method emulated step by step with its default ε (docs/CONVENTIONS.md): y as it "
                "returns it, and its largest error in ulps of that output against float64 of the same formula.";
    t.columns = {"library norm", "formula", "ε used", "accumulates in", "cast back", "y", "max ulps", "source read"};
    for (Convention c : kAllConventions) {
        const ConventionInfo& info = convention_info(c);
        const ConventionResult r = apply_convention(c, s.x, s.format);
        std::string y;
        for (Eigen::Index i = 0; i < r.y.size() && i < 4; ++i)
            y += (i ? ", " : "") + (std::isfinite(r.y(i)) ? format_number(r.y(i), 5) : std::string(std::isnan(r.y(i)) ? "NaN" : "∞"));
        if (r.y.size() > 4) y += ", …";
        if (r.output != s.format) y += " (" + std::string(to_string(r.output)) + ")";
        const bool bad = !(r.max_ulps <= 2.0);
        t.rows.push_back({{info.name},
                          {info.formula},
                          {format_number(r.eps, 3) + ", " + info.eps_place},
                          {info.accumulate},
                          {info.cast_back},
                          {y},
                          {std::isnan(r.max_ulps) ? "—" : format_number(r.max_ulps, 3), bad ? CellTone::Fail : CellTone::Pass},
                          {info.source}});
    }
    t.note = "Not modelled: the libraries' parallel reduction orders and GPU rsqrt's last bits; each row's caveat "
             "is in docs/CONVENTIONS.md.";
    return t;
}

std::vector<Plot> precision_lab_plots(const PrecisionLabState& s, const PrecisionLabResults& r) {
    return {precision_delta_plot(s, r), precision_offset_plot(s, r)};
}

}  // namespace normlab
