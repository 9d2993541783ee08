// The libraries' norms in a number format (norm/conventions.hpp): where their methods part ways,
// worked by hand, and every convention near float64 where nothing goes wrong.
#include "normlab/norm/conventions.hpp"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>

namespace normlab {
namespace {

Vec vec(std::initializer_list<double> v) { return Eigen::Map<const Vec>(v.begin(), static_cast<Eigen::Index>(v.size())); }

TEST(Conventions, EveryRowNamesItsSourceAndVersion) {
    for (Convention c : kAllConventions) {
        const ConventionInfo& i = convention_info(c);
        EXPECT_NE(std::string(i.source).find(" @ "), std::string::npos) << i.name;   // a commit read
        EXPECT_GT(std::string(i.formula).size(), 5u) << i.name;
    }
}

TEST(Conventions, DefaultEpsilons) {
    // PyTorch's RMSNorm code takes the op-math type's epsilon: float32's for float16 input.
    EXPECT_EQ(default_eps(Convention::TorchRMSNorm, NumberFormat::Float16), FLT_EPSILON);
    EXPECT_EQ(default_eps(Convention::TorchRMSNorm, NumberFormat::Float64), DBL_EPSILON);
    EXPECT_EQ(default_eps(Convention::HfLlamaRMSNorm, NumberFormat::BFloat16), 1e-6);
    EXPECT_EQ(default_eps(Convention::PaperTorch, NumberFormat::Float16), 1e-8);
}

TEST(Conventions, PaperTensorFlowSquaresOverflowFloat16ButPyTorchNormDoesNot) {
    const Vec x = vec({300, 400, 500, 600});
    // x ** 2 in float16 is ∞ from 256 on: the mean is ∞, rsqrt 0, y = 0.
    const ConventionResult tf = apply_convention(Convention::PaperTensorFlow, x, NumberFormat::Float16);
    for (Eigen::Index i = 0; i < 4; ++i) EXPECT_EQ(tf.y(i), 0.0);
    // torch.norm reduces in float32: ‖x‖ = 927.36 → 927.5 in float16, RMS 463.75, y₁ = 300 / 463.75.
    const ConventionResult pt = apply_convention(Convention::PaperTorch, x, NumberFormat::Float16);
    EXPECT_EQ(pt.y(0), round_to(NumberFormat::Float16, 300.0 / 463.75));
    EXPECT_LE(pt.max_ulps, 2.0);
    // The upcasting conventions are within an ulp or two of float64.
    for (Convention c : {Convention::TorchRMSNorm, Convention::HfLlamaRMSNorm, Convention::HfT5LayerNorm,
                         Convention::ApexRMSNorm, Convention::FlaxRMSNorm}) {
        const ConventionResult r = apply_convention(c, x, NumberFormat::Float16);
        EXPECT_LE(r.max_ulps, 2.0) << convention_info(c).name;
    }
}

TEST(Conventions, PaperEpsilonIsZeroInFloat16) {
    // ε = 1e-8 added to an RMS of 0 rounds to 0 in float16: 0 / 0. In float32 it stays 1e-8: y = 0.
    const Vec zeros = Vec::Zero(4);
    EXPECT_TRUE(std::isnan(apply_convention(Convention::PaperTorch, zeros, NumberFormat::Float16).y(0)));
    EXPECT_EQ(apply_convention(Convention::PaperTorch, zeros, NumberFormat::Float32).y(0), 0.0);
    EXPECT_TRUE(std::isnan(apply_convention(Convention::PaperTorch, zeros, NumberFormat::Float16).max_ulps));
}

TEST(Conventions, FastVarianceLosesTheSpreadUnderAnOffset) {
    // x = 4096 + [0, 1, 2, 3] in bfloat16 is stored as 4096 (ulp 32 there): every method sees 0
    // spread. In float32 the entries survive, and E[x²] − E[x]² in float32 cancels (x² ≈ 1.7e7,
    // ulp 2) where Welford does not.
    const Vec x = vec({4096, 4097, 4098, 4099});
    const ConventionResult flax = apply_convention(Convention::FlaxLayerNorm, x, NumberFormat::Float32);
    const ConventionResult torch = apply_convention(Convention::TorchLayerNorm, x, NumberFormat::Float32);
    EXPECT_EQ(flax.output, NumberFormat::Float32);
    EXPECT_LE(torch.max_ulps, 64.0);
    EXPECT_GT(flax.max_ulps, 1000.0);
}

TEST(Conventions, GainAfterTheCastRoundsTwice) {
    // Apex casts the normalized value to the format before the gain; PyTorch's LayerNorm applies
    // the gain in float32 and casts once. With g = 1 both round once: equal outputs.
    const Vec x = vec({0.1, -0.7, 2.3, 1.9, -3.3});
    const ConventionResult apex = apply_convention(Convention::ApexLayerNorm, x, NumberFormat::BFloat16);
    const ConventionResult torch = apply_convention(Convention::TorchLayerNorm, x, NumberFormat::BFloat16);
    for (Eigen::Index i = 0; i < x.size(); ++i) EXPECT_NEAR(apex.y(i), torch.y(i), ulp(NumberFormat::BFloat16, torch.y(i)));
    EXPECT_LE(apex.max_ulps, 1.0);
}

}  // namespace
}  // namespace normlab
