// The Gradient lab's core: slopes from the Explorer's data, the finite-difference check (and that
// it catches a wrong gradient), the cache key, the implicit learning-rate runs and the plots.
#include "normlab/labs/gradients_lab.hpp"

#include "normlab/base/random.hpp"
#include "normlab/scene/session.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace normlab {
namespace {

GradientLabState default_state() { return GradientLabState{}; }

TEST(GradientLab, SlopesFromTheExplorersDefaultDataMatchThePaper) {
    for (const GradientLoss loss : {GradientLoss::SquaredError, GradientLoss::RandomUpstream}) {
        GradientLabState state = default_state();
        state.loss = loss;
        const GradientLabResults r = compute_gradient_lab(state, gradient_lab_probe(state, ExplorerState{}));
        for (const Scaling scaling : {Scaling::Input, Scaling::Weight}) {
            const GradNorms want = expected_slopes(scaling);
            for (int k = 0; k < kGradientLabNormCount; ++k) {
                const GradientSweep& s = sweeps(r, scaling)[k];
                const std::string where = std::string(display_name(kGradientLabNorms[k])) + " " +
                                          std::string(to_string(scaling)) +
                                          (loss == GradientLoss::SquaredError ? " ½‖y − t‖²" : " random dy");
                ASSERT_EQ(s.delta.size(), static_cast<std::size_t>(kGradientLabPoints)) << where;
                EXPECT_NEAR(s.slope.dW, want.dW, kSlopeTolerance) << where;
                EXPECT_NEAR(s.slope.dx, want.dx, kSlopeTolerance) << where;
                EXPECT_NEAR(s.slope.dg, want.dg, kSlopeTolerance) << where;
                EXPECT_NEAR(s.slope.db, want.db, kSlopeTolerance) << where;
                EXPECT_TRUE(slopes_ideal(r, scaling, k)) << where;
            }
        }
    }
}

TEST(GradientLab, LargeEpsBendsTheSlopesAndTheBendIsLocated) {
    GradientLabState state = default_state();
    state.eps = 1.0;
    const GradientProbe probe = gradient_lab_probe(state, ExplorerState{});
    const GradientLabResults r = compute_gradient_lab(state, probe);
    for (int k = 0; k < kGradientLabNormCount; ++k) {
        EXPECT_FALSE(slopes_ideal(r, Scaling::Weight, k)) << k;
        // (δσ₀)² = ε: σ₀ of a = [2, 4, 6, 8] is 2.236 (LayerNorm), 5.477 (RMSNorm), 2 (pRMSNorm, k = 1).
        EXPECT_GT(r.bend_delta[k], 0.1);
        EXPECT_LT(r.bend_delta[k], 1.0);
    }
    EXPECT_NEAR(r.bend_delta[1], 1.0 / std::sqrt(30.0), 1e-12);
    // The default ε (10⁻⁵) puts the bend below the plotted range.
    EXPECT_LT(eps_bend_delta(gradient_lab_spec(default_state(), 1), probe), kGradientLabMinDelta);
    // The plot marks the bend.
    const Plot p = gradient_sweep_plot(r, Scaling::Weight);
    ASSERT_EQ(p.ref_lines.size(), 1u);
    EXPECT_NEAR(p.ref_lines[0].value, r.bend_delta[2], 1e-12);   // the largest: pRMSNorm's
}

TEST(GradientLab, FiniteDifferencesAgreeOnRandomShapes) {
    Rng rng(11);
    for (int trial = 0; trial < 12; ++trial) {
        ExplorerState explorer;
        const Eigen::Index m = 2 + static_cast<Eigen::Index>(rng.below(7));
        const Eigen::Index n = 2 + static_cast<Eigen::Index>(rng.below(7));
        explorer_resize(explorer, m, n);
        explorer.seed = 100 + static_cast<std::uint64_t>(trial);
        explorer_random_x(explorer);
        explorer_random_W(explorer);
        for (Eigen::Index i = 0; i < n; ++i) explorer.g(i) = rng.normal(1.0, 0.3), explorer.b(i) = rng.normal();
        GradientLabState state;
        state.loss = trial % 2 == 0 ? GradientLoss::SquaredError : GradientLoss::RandomUpstream;
        state.seed = static_cast<std::uint64_t>(trial);
        state.eps = trial % 3 == 0 ? 1e-5 : 1e-12;
        const GradientProbe probe = gradient_lab_probe(state, explorer);
        for (int k = 0; k < kGradientLabNormCount; ++k) {
            const NormSpec spec = gradient_lab_spec(state, k);
            const LayerGrads gr = probe_gradients(spec, probe.x, LayerParams{probe.W, probe.g, probe.b}, probe);
            const FdCheck fd = finite_difference_check(spec, probe, gr);
            EXPECT_EQ(fd.total, n * m + m + 2 * n);
            EXPECT_EQ(fd.stride, 1);
            ASSERT_EQ(static_cast<Eigen::Index>(fd.entries.size()), fd.total);
            EXPECT_LT(fd.worst_rel_error, kFdTolerance)
                << display_name(kGradientLabNorms[k]) << " m = " << m << " n = " << n << " worst at "
                << fd_entry_name(fd.entries[fd.worst]);
        }
    }
}

TEST(GradientLab, FiniteDifferencesCatchAWrongGradient) {
    GradientLabState state = default_state();
    const GradientProbe probe = gradient_lab_probe(state, ExplorerState{});
    const NormSpec spec = gradient_lab_spec(state, 1);
    const LayerGrads right = probe_gradients(spec, probe.x, LayerParams{probe.W, probe.g, probe.b}, probe);
    EXPECT_LT(finite_difference_check(spec, probe, right).worst_rel_error, kFdTolerance);

    // Each mistake on a copy of the right gradients.
    const auto check_with = [&](void (*spoil)(LayerGrads&)) {
        LayerGrads wrong{right.dx, right.dg, right.db, Mat(*right.dW)};
        spoil(wrong);
        return finite_difference_check(spec, probe, wrong);
    };
    const FdCheck one_off = check_with([](LayerGrads& g) { (*g.dW)(1, 2) += 0.1 * (1.0 + std::abs((*g.dW)(1, 2))); });
    EXPECT_GT(one_off.worst_rel_error, 0.01);
    EXPECT_EQ(fd_entry_name(one_off.entries[one_off.worst]), "W₂,₃");

    const FdCheck sign = check_with([](LayerGrads& g) { g.dx *= -1.0; });
    EXPECT_GT(sign.worst_rel_error, 1.0);
    EXPECT_EQ(sign.entries[sign.worst].param, GradParam::x);

    const FdCheck swapped = check_with([](LayerGrads& g) { g.dg = g.db; });   // the bias's gradient for the gain's
    EXPECT_GT(swapped.worst_rel_error, 0.01);
}

TEST(GradientLab, FiniteDifferencesSampleLargeLayers) {
    ExplorerState explorer;
    explorer_resize(explorer, 40, 40);
    explorer_random_x(explorer);
    explorer_random_W(explorer);
    const GradientLabState state;
    const GradientProbe probe = gradient_lab_probe(state, explorer);
    const NormSpec spec = gradient_lab_spec(state, 0);
    const FdCheck fd = finite_difference_check(spec, probe, probe_gradients(spec, probe.x, {probe.W, probe.g, probe.b}, probe));
    EXPECT_EQ(fd.total, 40 * 40 + 40 + 80);
    EXPECT_GT(fd.stride, 1);
    EXPECT_LE(static_cast<Eigen::Index>(fd.entries.size()), kFdMaxEntries);
    EXPECT_LT(fd.worst_rel_error, kFdTolerance);
}

TEST(GradientLab, ProbeTakesTheExplorersLayer) {
    ExplorerState explorer;
    GradientLabState state;   // target still empty: fitted inside
    GradientProbe probe = gradient_lab_probe(state, explorer);
    EXPECT_EQ(probe.x.rows(), 1);
    EXPECT_TRUE(probe.x.row(0).transpose().isApprox(explorer.x));
    EXPECT_TRUE(probe.W.isApprox(explorer.W));
    ASSERT_TRUE(probe.target.has_value());
    EXPECT_EQ(probe.target->cols(), 4);
    EXPECT_EQ((*probe.target)(0, 1), -1.0);

    explorer_set_use_W(explorer, false);   // a = x: W is the identity here
    probe = gradient_lab_probe(state, explorer);
    EXPECT_TRUE(probe.W.isIdentity());

    state.loss = GradientLoss::RandomUpstream;
    probe = gradient_lab_probe(state, explorer);
    EXPECT_FALSE(probe.target.has_value());
    EXPECT_TRUE(probe.dy == gradient_lab_probe(state, explorer).dy);   // the same seed, the same dy
    state.seed = 2;
    EXPECT_FALSE(probe.dy == gradient_lab_probe(state, explorer).dy);
}

TEST(GradientLab, TheTargetKeepsTheUsersEntriesWhateverN) {
    GradientLabState state;
    EXPECT_EQ(gradient_lab_target(state, 3), (Vec(3) << 1, -1, 1).finished());
    state.target = (Vec(3) << 0.5, 2, 3).finished();
    const Vec five = gradient_lab_target(state, 5);
    ASSERT_EQ(five.size(), 5);
    EXPECT_EQ(five(0), 0.5);
    EXPECT_EQ(five(2), 3.0);
    EXPECT_EQ(five(3), -1.0);
    EXPECT_EQ(five(4), 1.0);
    EXPECT_EQ(gradient_lab_target(state, 2), (Vec(2) << 0.5, 2).finished());
    EXPECT_EQ(state.target.size(), 3) << "n going 3 → 2 → 5 loses none of the user's entries";
}

TEST(GradientLab, InputsCompareForTheCache) {
    GradientLabState state = default_state();
    ExplorerState explorer;
    const GradientLabInputs a{state, gradient_lab_probe(state, explorer)};
    EXPECT_TRUE(a == (GradientLabInputs{state, gradient_lab_probe(state, explorer)}));
    explorer.x(2) = 6.5;
    EXPECT_FALSE(a == (GradientLabInputs{state, gradient_lab_probe(state, explorer)}));
    explorer_resize(explorer, 5, 5);   // shapes differ: no Eigen assertion, just "changed"
    EXPECT_FALSE(a == (GradientLabInputs{state, gradient_lab_probe(state, explorer)}));
    GradientLabState other = state;
    other.eps = 1e-3;
    EXPECT_TRUE(state != other);
    other = state;
    other.show[2] = false;
    EXPECT_TRUE(state != other);
}

// The labels a plot's curves carry at their ends (Series::end_label), in series order.
std::vector<std::string> end_labels(const Plot& p) {
    std::vector<std::string> out;
    for (const Series& s : p.series)
        if (!s.end_label.empty()) out.push_back(s.end_label);
    return out;
}

TEST(GradientLab, LargerWeightsTakeSmallerRelativeSteps) {
    GradientLabState state = default_state();
    state.sgd_delta = 10.0;
    const GradientLabResults r = compute_gradient_lab(state, gradient_lab_probe(state, ExplorerState{}));
    ASSERT_TRUE(r.sgd_error.empty());
    ASSERT_EQ(r.sgd_from_W.relative_step.size(), static_cast<std::size_t>(state.sgd_steps));
    // Same output at step 0, 1/δ² the relative step (eq. 8: ∂L/∂W ∝ 1/δ, ‖W‖ ∝ δ).
    // (Up to ε = 10⁻⁵ against (δσ₀)² ≈ 30: a relative 10⁻⁷.)
    EXPECT_TRUE(r.sgd_from_W.output.front().isApprox(r.sgd_from_dW.output.front(), 1e-6));
    EXPECT_NEAR(r.sgd_from_dW.relative_step.front() / r.sgd_from_W.relative_step.front(), 0.01, 1e-8);
    EXPECT_NEAR(r.sgd_from_dW.weight_norm.front() / r.sgd_from_W.weight_norm.front(), 10.0, 1e-12);
    // From W the loss falls visibly; from 10·W it barely moves.
    const double fall_W = r.sgd_from_W.loss.front() - r.sgd_from_W.loss.back();
    const double fall_dW = r.sgd_from_dW.loss.front() - r.sgd_from_dW.loss.back();
    EXPECT_GT(fall_W, 0.2 * r.sgd_from_W.loss.front());
    EXPECT_LT(fall_dW, 0.1 * fall_W);
    // The outputs' plot names the δW run's curves y₁… at their ends, right of the data (never
    // over a curve, as a label inside the data area was), not the W run's.
    const Plot outputs = sgd_output_plot(r);
    EXPECT_TRUE(outputs.annotations.empty());
    ASSERT_GE(outputs.series.size(), 2u);
    EXPECT_EQ(outputs.series[0].end_label, "");
    EXPECT_EQ(outputs.series[1].end_label, "y₁");
    EXPECT_EQ(end_labels(outputs).size(), std::min<std::size_t>(outputs.series.size() / 2, kSgdPlotOutputs));
    // The plot prints the measured ratio.
    const Plot p = sgd_relative_step_plot(r);
    ASSERT_EQ(p.annotations.size(), 1u);
    EXPECT_NE(p.annotations[0].text.find("÷ 100"), std::string::npos) << p.annotations[0].text;
}

TEST(GradientLab, SweepPlotsCarryASlopeOnEveryCurve) {
    GradientLabState state = default_state();
    const GradientLabResults r = compute_gradient_lab(state, gradient_lab_probe(state, ExplorerState{}));
    const Plot p = gradient_sweep_plot(r, Scaling::Weight);
    EXPECT_EQ(p.name, "gradients_weight_scaling");
    EXPECT_EQ(p.x.scale, Scale::Log10);
    EXPECT_EQ(p.y.scale, Scale::Log10);
    const std::vector<std::string> labels = end_labels(p);
    ASSERT_EQ(labels.size(), 12u);   // 3 norms × 4 gradients, one label per curve
    EXPECT_EQ(labels[0], "W −1.00");
    EXPECT_EQ(labels[1], "x 0.00");
    EXPECT_TRUE(p.annotations.empty());   // none over the data
    EXPECT_TRUE(p.ref_lines.empty());     // ε = 10⁻⁵: no bend in range
    EXPECT_EQ(p.series.size(), 12u + 3u);   // 4 curves and a legend key per norm
    // Laid out at the size of a projector slide's figure: each label right of the data area, in
    // its curve's colour (or, shared by curves of several norms, the text colour), none over another.
    const PlotLayout L = layout_plot(p, {0, 0, 470, 330});
    ASSERT_FALSE(L.end_labels.empty());
    for (std::size_t i = 0; i < L.end_labels.size(); ++i) {
        const EndLabel& e = L.end_labels[i];
        EXPECT_GT(e.label.at.x, L.view.px.x1);
        EXPECT_EQ(e.label.text, p.series[e.series].end_label);
        if (i > 0) {
            EXPECT_GE(e.label.at.y - L.end_labels[i - 1].label.at.y, 1.2 * e.label.font_px - 1e-9);
        }
    }
    state.show = {false, true, false};
    const GradientLabResults only_rms = compute_gradient_lab(state, gradient_lab_probe(state, ExplorerState{}));
    const Plot q = gradient_sweep_plot(only_rms, Scaling::Input);
    ASSERT_EQ(end_labels(q).size(), 4u);
    EXPECT_EQ(end_labels(q)[1], "x −1.00");
    EXPECT_EQ(q.series.front().color.r, 213);   // RMSNorm's vermillion
    EXPECT_TRUE(end_labels(gradient_sweep_plot(only_rms, Scaling::Input, {"RMSNorm"})).empty());   // legend-hidden
    state.show_gradient = {true, false, false, false};
    const GradientLabResults only_dW = compute_gradient_lab(state, gradient_lab_probe(state, ExplorerState{}));
    const Plot w = gradient_sweep_plot(only_dW, Scaling::Weight);
    ASSERT_EQ(end_labels(w).size(), 1u);
    EXPECT_EQ(end_labels(w)[0], "W −1.00");
    EXPECT_NE(to_svg(w).find("class=\"end-label\""), std::string::npos);
    EXPECT_FALSE(to_svg(q).empty());
    EXPECT_NE(to_csv(q).find("0.01"), std::string::npos);
}

TEST(GradientLab, BadStatesAreRefusedWithAMessage) {
    GradientLabState state = default_state();
    const GradientProbe probe = gradient_lab_probe(state, ExplorerState{});
    state.learning_rate = 0.0;
    EXPECT_THROW(compute_gradient_lab(state, probe), std::invalid_argument);
    state = default_state();
    state.eps = -1.0;
    EXPECT_THROW(compute_gradient_lab(state, probe), std::invalid_argument);
    state = default_state();
    state.sgd_steps = 0;
    EXPECT_THROW(compute_gradient_lab(state, probe), std::invalid_argument);
}

TEST(GradientLab, ZeroInputGivesNoSlopeRatherThanNaNOnScreen) {
    ExplorerState explorer;
    explorer.x.setZero();
    GradientLabState state = default_state();
    const GradientLabResults r = compute_gradient_lab(state, gradient_lab_probe(state, explorer));
    EXPECT_FALSE(slopes_ideal(r, Scaling::Weight, 0));
    EXPECT_EQ(slope_text(r.weight_sweep[0].slope.dW), "n/a");   // ∂L/∂W = ∂L/∂a xᵀ = 0
    for (const Annotation& a : gradient_sweep_plot(r, Scaling::Weight).annotations)
        EXPECT_EQ(a.text.find("nan"), std::string::npos);

    // With ε = 0 too the norm divides by zero: the SGD runs stop with a reason, no NaN reaches a plot.
    state.eps = 0.0;
    const GradientLabResults z = compute_gradient_lab(state, gradient_lab_probe(state, explorer));
    EXPECT_NE(z.sgd_error.find("raise ε"), std::string::npos) << z.sgd_error;
    EXPECT_TRUE(z.sgd_from_W.loss.empty());
    EXPECT_TRUE(std::isinf(z.fd.worst_rel_error));
}

TEST(GradientLab, SlopeText) {
    EXPECT_EQ(slope_text(-1.0), "−1.00");
    EXPECT_EQ(slope_text(-0.001), "0.00");
    EXPECT_EQ(slope_text(0.004), "0.00");
    EXPECT_EQ(slope_text(-0.996), "−1.00");
    EXPECT_EQ(slope_text(std::nan("")), "n/a");
}

}  // namespace
}  // namespace normlab
