// Gradient magnitudes against δ (paper eq. 8–10): the fitted log-log slopes must match theory.
#include "normlab/norm/gradients.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace normlab {
namespace {

struct Expected {
    Scaling scaling;
    GradNorms slope;
};
// Input scaling: ∂L/∂W, ∂L/∂x, ∂L/∂g, ∂L/∂b go as δ^0, δ^−1, δ^0, δ^0; weight scaling: δ^−1, δ^0, δ^0, δ^0.
constexpr Expected kExpected[] = {{Scaling::Input, {0.0, -1.0, 0.0, 0.0}}, {Scaling::Weight, {-1.0, 0.0, 0.0, 0.0}}};

TEST(Gradients, SlopesMatchPaperForEveryNorm) {
    NormSpec spec;
    spec.eps = 1e-12;
    spec.p = 0.25;
    for (unsigned seed : {1u, 7u}) {
        GradientProbe probe = random_gradient_probe(seed);
        for (Norm norm : {Norm::LayerNorm, Norm::RMSNorm, Norm::PRMSNorm}) {
            spec.norm = norm;
            for (const Expected& e : kExpected) {
                const GradientSweep s = gradient_sweep(spec, probe, e.scaling);
                ASSERT_EQ(s.delta.size(), 41u);
                EXPECT_NEAR(s.delta.front(), 1e-2, 1e-15);
                EXPECT_NEAR(s.delta.back(), 1e2, 1e-10);
                const std::string where = std::string(to_string(norm)) + " " + std::string(to_string(e.scaling));
                EXPECT_NEAR(s.slope.dW, e.slope.dW, 0.02) << where;
                EXPECT_NEAR(s.slope.dx, e.slope.dx, 0.02) << where;
                EXPECT_NEAR(s.slope.dg, e.slope.dg, 0.02) << where;
                EXPECT_NEAR(s.slope.db, e.slope.db, 0.02) << where;
            }
        }
    }
}

TEST(Gradients, SlopesAlsoHoldForSquaredErrorLoss) {
    NormSpec spec;
    spec.eps = 1e-12;
    spec.norm = Norm::RMSNorm;
    GradientProbe probe = random_gradient_probe(3);
    probe.target = Mat::Ones(probe.dy.rows(), probe.dy.cols());
    const GradientSweep s = gradient_sweep(spec, probe, Scaling::Weight);
    EXPECT_NEAR(s.slope.dW, -1.0, 0.02);
    EXPECT_NEAR(s.slope.dx, 0.0, 0.02);
}

TEST(Gradients, LargeEpsBendsTheSlopeAtSmallDelta) {
    // When δ·σ is comparable to √ε the normalization stops cancelling δ: the slope departs from −1.
    NormSpec spec;
    spec.eps = 1.0;
    spec.norm = Norm::RMSNorm;
    const GradientSweep s = gradient_sweep(spec, random_gradient_probe(1), Scaling::Weight);
    EXPECT_GT(std::abs(s.slope.dW + 1.0), 0.2);
}

TEST(Gradients, LogLogSlopeOfPowerLaw) {
    std::vector<double> x, y;
    for (int i = 1; i <= 10; ++i) {
        x.push_back(i);
        y.push_back(3.0 * std::pow(i, -1.5));
    }
    EXPECT_NEAR(loglog_slope(x, y), -1.5, 1e-12);
    x.push_back(-1.0);  // skipped, not NaN
    y.push_back(2.0);
    EXPECT_NEAR(loglog_slope(x, y), -1.5, 1e-12);
    EXPECT_TRUE(std::isnan(loglog_slope({1.0}, {1.0})));
}

TEST(Gradients, LargerWeightsTakeSmallerRelativeSteps) {
    NormSpec spec;
    spec.norm = Norm::RMSNorm;
    spec.eps = 1e-12;
    GradientProbe probe = random_gradient_probe(4);
    probe.target = probe.dy;  // some reachable-ish target
    const SgdTrace t1 = sgd_trace(spec, probe, 1.0, 0.05, 5);
    const SgdTrace t10 = sgd_trace(spec, probe, 10.0, 0.05, 5);
    ASSERT_EQ(t1.relative_step.size(), 5u);
    // First step: ‖ΔW‖/‖W‖ is 1/δ² = 1/100 as large from 10·W (same normalized output).
    EXPECT_NEAR(t10.relative_step[0] / t1.relative_step[0], 0.01, 1e-9);
    EXPECT_NEAR(t10.loss[0], t1.loss[0], 1e-9);
    EXPECT_LT(t1.loss.back(), t1.loss.front());
}

}  // namespace
}  // namespace normlab
