// The transformer's initialization choice (transformer.hpp's TransformerInit) and its wiring into
// the depth lab (depth.hpp, depth_lab.hpp): the range and variance of every linear weight under
// each init, that the default stays today's uniform ±1/√n_in draw bit for bit, names and parsing,
// and the lab's run configs and claims. The finite-difference check with Xavier is in
// test_transformer.cpp (BackwardMatchesFiniteDifferencesWithXavierInit).
//
// [SECTION] Helpers
// [SECTION] Ranges and variances  — every "*.W" within ±a, sample variance a²/3 within 10%
// [SECTION] The default           — Uniform is the draw of before, bit for bit
// [SECTION] Names
// [SECTION] The depth lab         — run configs, claims and conditions name the init
#include "normlab/models/depth.hpp"
#include "normlab/labs/depth_lab.hpp"
#include "normlab/base/random.hpp"
#include "normlab/models/transformer.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace normlab {
namespace {

using Eigen::Index;

// [SECTION] Helpers -------------------------------------------------------------------------

bool is_weight_matrix(const std::string& name) {
    return name.size() > 2 && name.compare(name.size() - 2, 2, ".W") == 0;
}

// Wide enough that every weight matrix has thousands of entries (the output head, V×d, the fewest:
// 11 × 256), so that a sample variance lies within 10% of the true one by a wide margin.
TransformerConfig wide_config(TransformerInit init) {
    TransformerConfig c;
    c.vocab = 11;
    c.context = 12;
    c.layers = 2;
    c.width = 256;
    c.heads = 4;
    c.placement = NormPlacement::PostLN;
    c.init = init;
    return c;
}

double sample_variance(const Mat& m) {
    const double mean = m.mean();
    return (m.array() - mean).square().sum() / static_cast<double>(m.size() - 1);
}

// [SECTION] Ranges and variances ------------------------------------------------------------

// W is n_out×n_in (rows × columns); `limit` and `variance` are the formulas written out here, not
// init_limit, so that the test states the contract independently.
void check_every_weight_matrix(TransformerInit init, double (*limit)(double n_in, double n_out),
                               double (*variance)(double n_in, double n_out)) {
    Transformer model(wide_config(init), 5);
    int matrices = 0;
    for (const Param* p : model.params()) {
        if (!is_weight_matrix(p->name)) continue;
        SCOPED_TRACE(p->name);
        ++matrices;
        const double n_in = static_cast<double>(p->value.cols()), n_out = static_cast<double>(p->value.rows());
        const double a = limit(n_in, n_out);
        EXPECT_LE(p->value.cwiseAbs().maxCoeff(), a);
        EXPECT_GT(p->value.cwiseAbs().maxCoeff(), 0.99 * a);   // the whole range is used, not a narrower one
        EXPECT_NEAR(sample_variance(p->value), variance(n_in, n_out), 0.1 * variance(n_in, n_out));
    }
    // Per block W_qkv, W_O, W₁, W₂, and the output head.
    EXPECT_EQ(matrices, 4 * 2 + 1);
}

TEST(TransformerInit, XavierDrawsEveryWeightWithinGlorotsRangeAndVariance) {
    check_every_weight_matrix(
        TransformerInit::Xavier, [](double n_in, double n_out) { return std::sqrt(6.0 / (n_in + n_out)); },
        [](double n_in, double n_out) { return 2.0 / (n_in + n_out); });
}

TEST(TransformerInit, UniformDrawsEveryWeightWithinOneOverRootFanIn) {
    check_every_weight_matrix(
        TransformerInit::Uniform, [](double n_in, double) { return 1.0 / std::sqrt(n_in); },
        [](double n_in, double) { return 1.0 / (3.0 * n_in); });
}

TEST(TransformerInit, OnlyTheLinearWeightsDependOnIt) {
    Transformer uniform(wide_config(TransformerInit::Uniform), 9), xavier(wide_config(TransformerInit::Xavier), 9);
    const std::vector<Param*> a = uniform.params(), b = xavier.params();
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        SCOPED_TRACE(a[i]->name);
        ASSERT_EQ(a[i]->name, b[i]->name);
        if (is_weight_matrix(a[i]->name))
            EXPECT_FALSE(a[i]->value == b[i]->value);
        else
            EXPECT_TRUE(a[i]->value == b[i]->value);   // embeddings, biases, gains: the same draw or constant
    }
}

TEST(TransformerInit, InitLimitFormulas) {
    EXPECT_DOUBLE_EQ(init_limit(TransformerInit::Uniform, 64, 256), 0.125);
    EXPECT_DOUBLE_EQ(init_limit(TransformerInit::Xavier, 64, 256), std::sqrt(6.0 / 320.0));
    EXPECT_DOUBLE_EQ(init_limit(TransformerInit::Xavier, 3, 3), 1.0);
}

// [SECTION] The default ---------------------------------------------------------------------

TEST(TransformerInit, TheDefaultIsUniform) {
    EXPECT_EQ(TransformerConfig{}.init, TransformerInit::Uniform);
    EXPECT_EQ(default_depth_config(TaskKind::Sort, NormPlacement::PostLN).model.init, TransformerInit::Uniform);
    EXPECT_EQ(DepthLabState{}.init, TransformerInit::Uniform);
}

// The draw of before TransformerInit existed, written out: one Rng(seed), the parameters in
// params() order, embeddings N(0, 1) entry by entry, every "*.W" U(−1/√n_in, 1/√n_in) — and the
// default config gives exactly that, bit for bit.
TEST(TransformerInit, UniformIsTheDrawOfBeforeBitForBit) {
    TransformerConfig config;   // vocab 11, context 12, 2 layers, width 32, 4 heads, Pre-LN
    config.placement = NormPlacement::PostLN;
    Transformer model(config, 42);
    Transformer fresh(config, 42);   // an independent recipe below fills this one
    Rng rng(42);
    for (Param* p : fresh.params()) {
        if (p->name == "wte" || p->name == "wpe") {
            for (Index i = 0; i < p->value.size(); ++i) p->value.data()[i] = rng.normal();
        } else if (is_weight_matrix(p->name)) {
            const double a = 1.0 / std::sqrt(static_cast<double>(p->value.cols()));
            for (Index i = 0; i < p->value.size(); ++i) p->value.data()[i] = rng.uniform(-a, a);
        }
    }
    const std::vector<Param*> a = model.params(), b = fresh.params();
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        SCOPED_TRACE(a[i]->name);
        EXPECT_TRUE(a[i]->value == b[i]->value);
    }
}

// Hard facts, printed with %.17g by the code before TransformerInit (git HEAD at the time) and
// again now: a default model's first entries of three weight matrices. Any change of the default
// draw (scale, order, generator) fails here.
TEST(TransformerInit, DefaultWeightsAreTheNumbersOfBefore) {
    Transformer model(TransformerConfig{}, 1);
    int found = 0;
    for (const Param* p : model.params()) {
        const auto expect = [&](const char* name, Index r, Index c, double value) {
            if (p->name != name) return;
            EXPECT_EQ(p->value(r, c), value) << name;
            ++found;
        };
        expect("wte", 0, 0, 0.35099249780849107);
        expect("block1.attn.qkv.W", 0, 0, 0.17622459893422171);
        expect("block2.ffn.fc2.W", 3, 7, -0.081507147129212656);
        expect("head.W", 10, 31, -0.073835289051003422);
    }
    EXPECT_EQ(found, 4);
}

// [SECTION] Names ---------------------------------------------------------------------------

TEST(TransformerInit, NamesParseBack) {
    for (TransformerInit init : kAllTransformerInits) EXPECT_EQ(parse_transformer_init(to_string(init)), init);
    EXPECT_EQ(to_string(TransformerInit::Uniform), "uniform");
    EXPECT_EQ(to_string(TransformerInit::Xavier), "xavier");
    EXPECT_EQ(display_name(TransformerInit::Xavier), "Xavier");
    EXPECT_FALSE(parse_transformer_init("Xavier"));   // names are lower case, as the placements'
    EXPECT_FALSE(parse_transformer_init("glorot"));
    EXPECT_FALSE(parse_transformer_init(""));
}

// [SECTION] The depth lab -------------------------------------------------------------------

TEST(TransformerInit, TheDepthLabsRunsUseTheStatesInit) {
    DepthLabState state;
    state.init = TransformerInit::Xavier;
    for (int p = 0; p < kDepthPlacementCount; ++p) {
        EXPECT_EQ(depth_run_config(state, p).model.init, TransformerInit::Xavier);
        EXPECT_EQ(depth_sweep_config(state, p, 0.01).model.init, TransformerInit::Xavier);
    }
    EXPECT_FALSE(state == DepthLabState{});
}

TEST(TransformerInit, ThePostLnClaimAndTheConditionsNameTheInit) {
    DepthLabSnapshot s;
    s.state.layers = 2;
    EXPECT_NE(depth_claims(s)[0].source.find("Xavier init (mean-field theory); here: uniform ±1/√n init"),
              std::string::npos)
        << depth_claims(s)[0].source;
    EXPECT_EQ(depth_conditions(s).find("init"), std::string::npos);   // the default is not named
    s.state.init = TransformerInit::Xavier;
    EXPECT_NE(depth_claims(s)[0].source.find("Xavier init (mean-field theory); here: Xavier init too"),
              std::string::npos)
        << depth_claims(s)[0].source;
    EXPECT_EQ(depth_claims(s)[1].source.find("init"), std::string::npos);   // Pre-LN's source is Shleifer et al.'s
    const std::string conditions = depth_conditions(s);
    const std::string tail = " · Xavier init";
    ASSERT_GT(conditions.size(), tail.size());
    EXPECT_EQ(conditions.substr(conditions.size() - tail.size()), tail) << conditions;
}

}  // namespace
}  // namespace normlab
