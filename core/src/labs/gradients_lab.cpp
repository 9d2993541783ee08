// NormLab core: the Gradients lab (see gradients_lab.hpp).
//
// [SECTION] State
// [SECTION] The probe
// [SECTION] Finite differences
// [SECTION] Results
// [SECTION] Plots
#include "normlab/labs/gradients_lab.hpp"
#include "normlab/base/i18n.hpp"

#include "normlab/base/text.hpp"

#include "normlab/labs/invariance_lab.hpp"
#include "normlab/base/random.hpp"
#include "normlab/plot/plot.hpp"
#include "normlab/labs/state_json.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <utility>

namespace normlab {

namespace {

using Index = Eigen::Index;

// Same shape and the same entries (Eigen's == needs equal shapes).
bool same(const Mat& a, const Mat& b) { return a.rows() == b.rows() && a.cols() == b.cols() && a == b; }

}  // namespace

// [SECTION] State ---------------------------------------------------------------------------

bool operator==(const GradientLabState& a, const GradientLabState& b) {
    return a.loss == b.loss && same(a.target, b.target) && a.seed == b.seed && a.eps == b.eps &&
           a.eps_mode == b.eps_mode && a.p == b.p && a.show == b.show && a.show_gradient == b.show_gradient && a.fd_norm == b.fd_norm &&
           a.sgd_norm == b.sgd_norm && a.sgd_delta == b.sgd_delta && a.learning_rate == b.learning_rate &&
           a.sgd_steps == b.sgd_steps;
}

namespace {

std::array<std::string_view, kGradientLabNormCount> lab_norm_names() {
    std::array<std::string_view, kGradientLabNormCount> names{};
    for (int k = 0; k < kGradientLabNormCount; ++k) names[static_cast<std::size_t>(k)] = to_string(kGradientLabNorms[k]);
    return names;
}

constexpr std::array<std::string_view, kGradientCount> kGradientNames{"W", "x", "g", "b"};
constexpr std::array<std::string_view, 2> kLossNames{"squared_error", "random_upstream"};
constexpr std::array<GradientLoss, 2> kLosses{GradientLoss::SquaredError, GradientLoss::RandomUpstream};
constexpr std::array<int, kGradientLabNormCount> kNormIndices{0, 1, 2};

}  // namespace

nlohmann::json state_to_json(const GradientLabState& state) {
    const auto norms = lab_norm_names();
    return {{"loss", std::string(kLossNames[state.loss == GradientLoss::SquaredError ? 0 : 1])},
            {"target", vec_to_json(state.target)},
            {"seed", state.seed},
            {"eps", state.eps},
            {"eps_mode", std::string(to_string(state.eps_mode))},
            {"p", state.p},
            {"show", flags_to_json(state.show, norms)},
            {"show_gradients", flags_to_json(state.show_gradient, kGradientNames)},
            {"fd_norm", std::string(norms[static_cast<std::size_t>(std::clamp(state.fd_norm, 0, 2))])},
            {"sgd_norm", std::string(norms[static_cast<std::size_t>(std::clamp(state.sgd_norm, 0, 2))])},
            {"sgd_delta", state.sgd_delta},
            {"learning_rate", state.learning_rate},
            {"sgd_steps", state.sgd_steps}};
}

void state_from_json(SceneReader& in, GradientLabState& state) {
    const auto norms = lab_norm_names();
    in.read_choice("loss", state.loss, kLossNames, kLosses);
    if (in.read("target", state.target, true) && state.target.size() > kExplorerMaxSize)
        in.fail("target", "has " + std::to_string(state.target.size()) + " entries, expected at most " +
                              std::to_string(kExplorerMaxSize));
    in.check_entries("target", state.target, kExplorerEntryRule);
    in.read("seed", state.seed);
    in.read("eps", state.eps, kLabEpsRule);
    in.read("eps_mode", state.eps_mode);
    in.read("p", state.p, kFractionRule);
    in.read_flags("show", state.show, norms);
    in.read_flags("show_gradients", state.show_gradient, kGradientNames);
    in.read_choice("fd_norm", state.fd_norm, norms, kNormIndices);
    in.read_choice("sgd_norm", state.sgd_norm, norms, kNormIndices);
    in.read("sgd_delta", state.sgd_delta, kSgdDeltaRule);
    in.read("learning_rate", state.learning_rate, kSgdLearningRateRule);
    in.read("sgd_steps", state.sgd_steps, 1, kSgdMaxSteps);
}

Vec gradient_lab_default_target(Index n) {
    Vec t(n);
    for (Index i = 0; i < n; ++i) t(i) = i % 2 == 0 ? 1.0 : -1.0;
    return t;
}

Vec gradient_lab_target(const GradientLabState& state, Index n) {
    Vec t = gradient_lab_default_target(n);
    const Index keep = std::min(n, state.target.size());
    t.head(keep) = state.target.head(keep);
    return t;
}

NormSpec gradient_lab_spec(const GradientLabState& state, int k) {
    NormSpec spec;
    spec.norm = kGradientLabNorms[std::clamp(k, 0, kGradientLabNormCount - 1)];
    spec.eps = state.eps;
    spec.eps_mode = state.eps_mode;
    spec.p = state.p;
    return spec;
}

// [SECTION] The probe -----------------------------------------------------------------------

GradientProbe gradient_lab_probe(const GradientLabState& state, const ExplorerState& explorer) {
    const Index m = explorer.x.size();
    const Index n = explorer_outputs(explorer);
    if (m < 1 || (explorer.use_W && explorer.W.cols() != m) || explorer.g.size() != n || explorer.b.size() != n)
        throw std::invalid_argument("the Explorer's x, W, g and b do not fit together (m = " + std::to_string(m) +
                                    ", n = " + std::to_string(n) + ")");
    GradientProbe probe;
    probe.x = explorer.x.transpose();                              // 1×m
    probe.W = explorer.use_W ? explorer.W : Mat::Identity(m, m);   // n×m
    probe.g = explorer.g;
    probe.b = explorer.b;
    probe.dy.resize(1, n);                                         // 1×n
    Rng rng(state.seed);
    for (Index i = 0; i < n; ++i) probe.dy(0, i) = rng.normal();
    if (state.loss == GradientLoss::SquaredError) probe.target = Mat(gradient_lab_target(state, n).transpose());
    return probe;
}

bool operator==(const GradientProbe& a, const GradientProbe& b) {
    return same(a.x, b.x) && same(a.W, b.W) && same(a.g, b.g) && same(a.b, b.b) && same(a.dy, b.dy) &&
           a.target.has_value() == b.target.has_value() && (!a.target || same(*a.target, *b.target));
}

double eps_bend_delta(const NormSpec& spec, const GradientProbe& probe) {
    const LayerForward f = layer_forward(spec, probe.x.topRows(1), LayerParams{probe.W, probe.g, probe.b});
    const double sigma0 = f.cache.groups.front().sigma0;
    if (spec.eps == 0.0) return 0.0;
    if (sigma0 == 0.0) return std::numeric_limits<double>::infinity();
    return spec.eps_mode == EpsMode::InsideSqrt ? std::sqrt(spec.eps) / sigma0 : spec.eps / sigma0;
}

GradNorms expected_slopes(Scaling scaling) {
    return scaling == Scaling::Input ? GradNorms{0.0, -1.0, 0.0, 0.0} : GradNorms{-1.0, 0.0, 0.0, 0.0};
}

// [SECTION] Finite differences --------------------------------------------------------------

namespace {

// The element of W, x, g or b that flat index i (W row by row, then x, g, b) names.
FdEntry element(Index i, Index n, Index m) {
    FdEntry e;
    if (i < n * m) {
        e.param = GradParam::W, e.row = i / m, e.col = i % m;
    } else if ((i -= n * m) < m) {
        e.param = GradParam::x, e.col = i;
    } else if ((i -= m) < n) {
        e.param = GradParam::g, e.row = i;
    } else {
        e.param = GradParam::b, e.row = i - n;
    }
    return e;
}

double& value_of(const FdEntry& e, Mat& x, LayerParams& params) {
    switch (e.param) {
        case GradParam::W: return (*params.W)(e.row, e.col);
        case GradParam::x: return x(0, e.col);
        case GradParam::g: return params.g(e.row);
        case GradParam::b: return params.b(e.row);
    }
    return x(0, 0);
}

double gradient_of(const FdEntry& e, const LayerGrads& gr) {
    switch (e.param) {
        case GradParam::W: return (*gr.dW)(e.row, e.col);
        case GradParam::x: return gr.dx(0, e.col);
        case GradParam::g: return gr.dg(e.row);
        case GradParam::b: return gr.db(e.row);
    }
    return 0.0;
}

}  // namespace

FdCheck finite_difference_check(const NormSpec& spec, const GradientProbe& probe, const LayerGrads& analytic,
                                Index max_entries) {
    const Index n = probe.W.rows(), m = probe.W.cols();
    if (probe.x.rows() != 1 || probe.x.cols() != m || !analytic.dW || analytic.dW->rows() != n ||
        analytic.dW->cols() != m || analytic.dx.cols() != m || analytic.dg.size() != n || analytic.db.size() != n)
        throw std::invalid_argument("finite_difference_check: one case, and gradients of the probe's shapes");
    FdCheck fd;
    fd.total = n * m + m + 2 * n;
    fd.stride = std::max<Index>(1, (fd.total + std::max<Index>(1, max_entries) - 1) / std::max<Index>(1, max_entries));
    double max_abs = 1.0;
    for (Index i = 0; i < fd.total; i += fd.stride) {
        FdEntry e = element(i, n, m);
        e.analytic = gradient_of(e, analytic);
        fd.entries.push_back(e);
        max_abs = std::max(max_abs, std::abs(e.analytic));
    }
    fd.floor = 1e-5 * max_abs;

    Mat x = probe.x;                                    // 1×m, perturbed in place
    LayerParams params{probe.W, probe.g, probe.b};      // perturbed in place
    const auto loss = [&] { return probe_loss(probe, layer_forward(spec, x, params).y); };
    for (std::size_t k = 0; k < fd.entries.size(); ++k) {
        FdEntry& e = fd.entries[k];
        double& theta = value_of(e, x, params);
        const double saved = theta;
        const double h = kFdStep * std::max(1.0, std::abs(saved));
        theta = saved + h;
        const double up = loss();
        theta = saved - h;
        const double down = loss();
        theta = saved;
        e.numeric = (up - down) / (2.0 * h);
        const double err = std::abs(e.analytic - e.numeric);
        e.rel_error = err / std::max({std::abs(e.analytic), std::abs(e.numeric), fd.floor});
        if (!std::isfinite(e.rel_error)) e.rel_error = std::numeric_limits<double>::infinity();
        if (e.rel_error > fd.worst_rel_error || k == 0) {
            fd.worst_rel_error = e.rel_error;
            fd.worst = k;
        }
    }
    return fd;
}

std::string fd_entry_name(const FdEntry& e) {
    switch (e.param) {
        case GradParam::W: return "W" + subscript(e.row + 1) + "," + subscript(e.col + 1);
        case GradParam::x: return "x" + subscript(e.col + 1);
        case GradParam::g: return "g" + subscript(e.row + 1);
        case GradParam::b: return "b" + subscript(e.row + 1);
    }
    return "?";
}

// [SECTION] Results -------------------------------------------------------------------------

bool operator==(const GradientLabInputs& a, const GradientLabInputs& b) {
    return a.state == b.state && a.probe == b.probe;
}

namespace {

void check_state(const GradientLabState& s) {
    if (!(s.eps >= 0.0) || !std::isfinite(s.eps)) throw std::invalid_argument("ε must be a finite number ≥ 0");
    if (!(s.p > 0.0 && s.p <= 1.0)) throw std::invalid_argument("pRMSNorm's p must lie in (0, 1]");
    if (!(s.sgd_delta > 0.0) || !std::isfinite(s.sgd_delta)) throw std::invalid_argument("the SGD δ must be > 0");
    if (!(s.learning_rate > 0.0) || !std::isfinite(s.learning_rate))
        throw std::invalid_argument("the learning rate η must be > 0");
    if (s.sgd_steps < 1 || s.sgd_steps > kSgdMaxSteps)
        throw std::invalid_argument("the SGD steps must lie in 1.." + std::to_string(kSgdMaxSteps));
    if (s.fd_norm < 0 || s.fd_norm >= kGradientLabNormCount || s.sgd_norm < 0 || s.sgd_norm >= kGradientLabNormCount)
        throw std::invalid_argument("unknown norm index");
}

// The first step at which the trace holds a value that is not finite, or its length.
std::size_t finite_prefix(const SgdTrace& t) {
    for (std::size_t s = 0; s < t.loss.size(); ++s)
        if (!std::isfinite(t.loss[s]) || !std::isfinite(t.weight_norm[s]) || !std::isfinite(t.relative_step[s]) ||
            !t.output[s].allFinite())
            return s;
    return t.loss.size();
}

void truncate(SgdTrace& t, std::size_t steps) {
    t.loss.resize(steps);
    t.weight_norm.resize(steps);
    t.relative_step.resize(steps);
    t.output.resize(steps);
}

}  // namespace

GradientLabResults compute_gradient_lab(const GradientLabState& state, const GradientProbe& probe) {
    check_state(state);
    GradientLabResults r;
    r.inputs = {state, probe};
    for (int k = 0; k < kGradientLabNormCount; ++k) {
        const NormSpec spec = gradient_lab_spec(state, k);
        r.input_sweep[k] = gradient_sweep(spec, probe, Scaling::Input, kGradientLabMinDelta, kGradientLabMaxDelta,
                                          kGradientLabPoints);
        r.weight_sweep[k] = gradient_sweep(spec, probe, Scaling::Weight, kGradientLabMinDelta, kGradientLabMaxDelta,
                                           kGradientLabPoints);
        r.bend_delta[k] = eps_bend_delta(spec, probe);
    }
    const NormSpec fd_spec = gradient_lab_spec(state, state.fd_norm);
    r.fd = finite_difference_check(fd_spec, probe,
                                   probe_gradients(fd_spec, probe.x, LayerParams{probe.W, probe.g, probe.b}, probe));

    // SGD always minimizes ½‖y − t‖² (a linear loss Σ dy ⊙ y has no minimum to walk towards).
    GradientProbe sgd_probe = probe;
    sgd_probe.target = Mat(gradient_lab_target(state, probe.W.rows()).transpose());   // 1×n
    const NormSpec spec = gradient_lab_spec(state, state.sgd_norm);
    r.sgd_from_W = sgd_trace(spec, sgd_probe, 1.0, state.learning_rate, state.sgd_steps);
    r.sgd_from_dW = sgd_trace(spec, sgd_probe, state.sgd_delta, state.learning_rate, state.sgd_steps);
    const std::size_t ok = std::min(finite_prefix(r.sgd_from_W), finite_prefix(r.sgd_from_dW));
    if (ok < r.sgd_from_W.loss.size()) {
        r.sgd_error = ok == 0 ? "∂L/∂W is not finite at the starting W (a = W x without spread, ε = 0): raise ε"
                              : "SGD left the finite range at step " + std::to_string(ok) + ": lower the learning rate η";
        truncate(r.sgd_from_W, ok);
        truncate(r.sgd_from_dW, ok);
    }
    return r;
}

const std::array<GradientSweep, kGradientLabNormCount>& sweeps(const GradientLabResults& r, Scaling scaling) {
    return scaling == Scaling::Input ? r.input_sweep : r.weight_sweep;
}

bool slopes_ideal(const GradientLabResults& r, Scaling scaling, int k) {
    const GradNorms& got = sweeps(r, scaling)[k].slope;
    const GradNorms want = expected_slopes(scaling);
    const auto near = [](double a, double b) { return std::abs(a - b) <= kSlopeTolerance; };   // false for NaN
    return near(got.dW, want.dW) && near(got.dx, want.dx) && near(got.dg, want.dg) && near(got.db, want.db);
}

// [SECTION] Plots ---------------------------------------------------------------------------

std::string slope_text(double slope) {
    if (!std::isfinite(slope)) return "n/a";
    char buf[32];
    const double shown = std::round(slope * 100.0) / 100.0;
    std::snprintf(buf, sizeof buf, "%.2f", shown == 0.0 ? 0.0 : shown);   // no "−0.00"
    return unicode_minus(buf);
}

Color gradient_lab_color(int k) {
    return norm_color(kGradientLabNorms[std::clamp(k, 0, kGradientLabNormCount - 1)]);
}

namespace {

// How each gradient's curves are drawn (index q), and where its value is.
constexpr LineStyle kGradientLines[kGradientCount] = {LineStyle::Solid, LineStyle::Dashed, LineStyle::Dotted,
                                                      LineStyle::Dotted};
constexpr Marker kGradientMarkers[kGradientCount] = {Marker::Circle, Marker::Square, Marker::Triangle, Marker::Diamond};
constexpr double GradNorms::*kGradientFields[kGradientCount] = {&GradNorms::dW, &GradNorms::dx, &GradNorms::dg,
                                                                &GradNorms::db};
constexpr double kLineWidth = 2.25;
// ∂L/∂W and ∂L/∂x carry the slopes of −1 (the lesson); ∂L/∂g and ∂L/∂b, flat under both
// scalings, are drawn lighter so that the bundle of flat lines does not hide them.
constexpr double kGradientWidths[kGradientCount] = {2.5, 2.5, 1.5, 1.5};
constexpr double kGradientMarkerSizes[kGradientCount] = {7.0, 7.0, 5.5, 5.5};

// A legend-only entry: a labelled series without points.
Series key(std::string label, Color color) {
    Series s;
    s.label = std::move(label);
    s.color = color;
    s.width = kLineWidth;
    return s;
}

// How the δW run is named in legends: "from 10·W".
std::string scaled_run_label(double delta) { return "from " + format_number(delta, 3) + "·W"; }
// The same, in the interface's language (the legend; the CSV keeps scaled_run_label).
std::string scaled_run_legend(double delta) { return tr("from {0}·W", format_number(delta, 3)); }

Series run_series(std::string label, const std::vector<double>& steps, std::vector<double> y, Color color,
                  bool scaled) {
    Series s;
    s.label = std::move(label);
    s.x = steps;
    s.y = std::move(y);
    s.color = color;
    s.line = scaled ? LineStyle::Dashed : LineStyle::Solid;
    s.width = kLineWidth;
    return s;
}

std::vector<double> step_axis(std::size_t steps) {
    std::vector<double> x(steps);
    for (std::size_t s = 0; s < steps; ++s) x[s] = static_cast<double>(s);
    return x;
}

Plot sgd_plot(const GradientLabResults& r, std::string name, std::string title, std::string y_label, Scale y_scale) {
    Plot p;
    p.name = std::move(name);
    p.title = std::move(title);
    p.x = {tr("SGD step"), Scale::Linear, std::nullopt, std::nullopt};
    p.y = {std::move(y_label), y_scale, std::nullopt, std::nullopt};
    const GradientLabState& s = r.inputs.state;
    p.caption = std::string(display_name(kGradientLabNorms[s.sgd_norm])) + ", SGD on W with η = " +
                format_number(s.learning_rate) + ", from W and from " + format_number(s.sgd_delta) +
                "·W, minimizing ½‖y − t‖²";
    return p;
}

}  // namespace

Plot gradient_sweep_plot(const GradientLabResults& r, Scaling scaling, const std::vector<std::string>& hidden) {
    const GradientLabState& state = r.inputs.state;
    const bool input = scaling == Scaling::Input;
    Plot p;
    p.name = input ? "gradients_input_scaling" : "gradients_weight_scaling";
    p.title = input ? tr("Scaling the input:  x′ = δx") : tr("Scaling the weights:  W′ = δW");
    const GradNorms want = expected_slopes(scaling);
    p.caption = "Gradient norms against δ (RMSNorm paper, eq. 8–10); expected slopes W " + slope_text(want.dW) +
                ", x " + slope_text(want.dx) + ", g " + slope_text(want.dg) + ", b " + slope_text(want.db) +
                "; ε = " + format_number(state.eps) + (state.eps_mode == EpsMode::InsideSqrt ? " inside √" : " added");
    p.x = {"δ", Scale::Log10, kGradientLabMinDelta, kGradientLabMaxDelta};
    p.y = {"‖∂L/∂θ‖,  θ = W, x, g, b", Scale::Log10, std::nullopt, std::nullopt};

    const auto& sw = sweeps(r, scaling);
    double bend = 0.0;
    int shown = 0;
    for (int k = 0; k < kGradientLabNormCount; ++k) {
        const std::string name(display_name(kGradientLabNorms[k]));
        if (!state.show[k]) continue;
        if (std::find(hidden.begin(), hidden.end(), name) == hidden.end()) {
            for (int q = 0; q < kGradientCount; ++q) {
                if (!state.show_gradient[q]) continue;
                Series s;
                s.data_name = name + " ‖∂L/∂" + kGradientSymbols[q] + "‖";
                s.x = sw[k].delta;
                for (const GradNorms& g : sw[k].norms) s.y.push_back(g.*kGradientFields[q]);
                s.color = gradient_lab_color(k);
                s.line = kGradientLines[q];
                s.marker = kGradientMarkers[q];
                s.width = kGradientWidths[q];
                s.marker_size = kGradientMarkerSizes[q];
                // Its fitted slope at its end, in its colour ("W −1.00"); no slope, no label.
                const double slope = sw[k].slope.*kGradientFields[q];
                if (std::isfinite(slope)) s.end_label = std::string(kGradientSymbols[q]) + " " + slope_text(slope);
                p.series.push_back(std::move(s));
            }
        }
        p.series.push_back(key(name, gradient_lab_color(k)));
        bend = std::max(bend, r.bend_delta[k]);
        ++shown;
    }
    if (shown > 0 && bend > kGradientLabMinDelta && bend < kGradientLabMaxDelta)
        p.ref_lines.push_back({RefLine::Orientation::Vertical, bend, "(δσ₀)² = ε", Color{150, 60, 60}, LineStyle::Dashed, 1.5});
    return p;
}

Plot sgd_output_plot(const GradientLabResults& r) {
    Plot p = sgd_plot(r, "implicit_lr_outputs", tr("Outputs yᵢ per step"), "yᵢ", Scale::Linear);
    const std::string from_W = tr("from W"), from_dW = scaled_run_legend(r.inputs.state.sgd_delta);
    const Color color = gradient_lab_color(r.inputs.state.sgd_norm);
    const std::vector<double> steps = step_axis(r.sgd_from_W.output.size());
    const Index n = r.inputs.probe.W.rows();
    const Index shown = std::min<Index>(n, kSgdPlotOutputs);
    const Vec t = gradient_lab_target(r.inputs.state, n);
    for (Index i = 0; i < shown; ++i) {
        for (const bool scaled : {false, true}) {
            const SgdTrace& tr = scaled ? r.sgd_from_dW : r.sgd_from_W;
            std::vector<double> y;
            for (const Vec& out : tr.output) y.push_back(out(i));
            std::string label = i > 0 ? "" : scaled ? from_dW : from_W;
            Series s = run_series(std::move(label), steps, std::move(y), color, scaled);
            s.data_name = "y" + subscript(i + 1) + (scaled ? " " + scaled_run_label(r.inputs.state.sgd_delta) : " from W");
            p.series.push_back(std::move(s));
        }
        p.ref_lines.push_back({RefLine::Orientation::Horizontal, t(i), "", Color{120, 120, 120}, LineStyle::Dotted, 1.25});
    }
    // The δW run hardly moves, so its curves name the outputs (the runs start together), at their
    // ends right of the data (Series::end_label): never over a curve.
    for (std::size_t k = 1; k < p.series.size(); k += 2) p.series[k].end_label = "y" + subscript(static_cast<Index>(k / 2 + 1));
    return p;
}

// One number per step of both runs (from W, from δW; `trace` names it), on a log scale.
Plot sgd_runs_plot(const GradientLabResults& r, std::string name, std::string title, std::string y_label,
                   std::vector<double> SgdTrace::*trace) {
    Plot p = sgd_plot(r, std::move(name), std::move(title), std::move(y_label), Scale::Log10);
    const Color color = gradient_lab_color(r.inputs.state.sgd_norm);
    const std::vector<double> steps = step_axis((r.sgd_from_W.*trace).size());
    p.series.push_back(run_series(tr("from W"), steps, r.sgd_from_W.*trace, color, false));
    p.series.push_back(run_series(scaled_run_legend(r.inputs.state.sgd_delta), steps, r.sgd_from_dW.*trace, color, true));
    return p;
}

Plot sgd_weight_norm_plot(const GradientLabResults& r) {
    return sgd_runs_plot(r, "implicit_lr_weight_norm", tr("Weight norm ‖W‖"), "‖W‖", &SgdTrace::weight_norm);
}

Plot sgd_relative_step_plot(const GradientLabResults& r) {
    Plot p = sgd_runs_plot(r, "implicit_lr_relative_step", tr("Relative step ‖ΔW‖ / ‖W‖"), "‖ΔW‖ / ‖W‖",
                           &SgdTrace::relative_step);
    if (!r.sgd_from_W.relative_step.empty() && r.sgd_from_W.relative_step.front() > 0.0 &&
        r.sgd_from_dW.relative_step.front() > 0.0) {
        const double delta = r.inputs.state.sgd_delta;
        const double ratio = r.sgd_from_dW.relative_step.front() / r.sgd_from_W.relative_step.front();
        p.annotations.push_back({0.0, r.sgd_from_dW.relative_step.front(),
                                 "÷ " + format_number(1.0 / ratio, 3) + "  (δ² = " + format_number(delta * delta, 3) + ")"});
    }
    return p;
}

}  // namespace normlab
