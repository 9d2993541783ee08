// Tests of core/src/models/transformer.cpp: the whole model's backward against central finite
// differences (every placement, both norms, NormFormer's residual scale), causality, the masked
// loss, sampling, and the configuration checks.
#include "normlab/models/transformer.hpp"

#include "normlab/base/random.hpp"
#include "fd_check.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace normlab {
namespace {

using Eigen::Index;

Tokens random_tokens(Index rows, Index cols, int vocab, Rng& rng) {
    Tokens t(rows, cols);
    for (Index i = 0; i < t.size(); ++i) t.data()[i] = static_cast<int>(rng.below(static_cast<std::uint64_t>(vocab)));
    return t;
}

TransformerConfig small_config(NormPlacement placement, Norm norm) {
    TransformerConfig c;
    c.vocab = 5;
    c.context = 6;
    c.layers = 2;
    c.width = 8;
    c.heads = 2;
    c.placement = placement;
    c.norm.norm = norm;
    c.norm.eps = 1e-5;
    return c;
}

// [SECTION] Finite differences ----------------------------------------------------------------

double loss_of(Transformer& model, const Tokens& x, const Tokens& y) {
    return sequence_cross_entropy(model.forward(x), y, nullptr).loss;
}

// Every parameter's analytic gradient against (L(θ + h) − L(θ − h)) / 2h, tensor by tensor:
// ‖fd − analytic‖ / max(‖fd‖, ‖analytic‖) < 1e-6 (or both below 1e-9 in absolute terms).
void check_gradients(const TransformerConfig& config, std::uint64_t seed) {
    SCOPED_TRACE(std::string(to_string(config.placement)) + "/" + std::string(to_string(config.norm.norm)) +
                 (config.residual_scale ? "/λ" : "") + "/" + std::string(to_string(config.init)));
    Transformer model(config, seed);
    Rng rng(seed + 100);
    // Gains, biases, head scales and λ away from 1 and 0, so that their gradients and effect are checked too.
    for (Param* p : model.params()) {
        const std::string& n = p->name;
        const bool norm_param = n.size() > 2 && (n.compare(n.size() - 2, 2, ".g") == 0 || n.compare(n.size() - 2, 2, ".b") == 0);
        if (norm_param || n.find("head_scale") != std::string::npos || n.find("resid_scale") != std::string::npos)
            for (Index i = 0; i < p->value.size(); ++i) p->value.data()[i] += 0.3 * rng.normal();
    }
    const Index B = 3, T = 5;
    const Tokens x = random_tokens(B, T, config.vocab, rng);
    Tokens y = random_tokens(B, T, config.vocab, rng);
    y(0, 0) = -1;  // unscored positions
    y(2, 3) = -1;

    Mat dlogits;
    sequence_cross_entropy(model.forward(x), y, &dlogits);
    model.backward(dlogits);

    int checked = 0;
    for (Param* p : model.params()) {
        expect_gradient_matches_fd(*p, [&] { return loss_of(model, x, y); }, 1e-9);
        ++checked;
    }
    EXPECT_GT(checked, 10);
}

TEST(Transformer, BackwardMatchesFiniteDifferencesForEveryPlacementAndNorm) {
    std::uint64_t seed = 3;
    for (NormPlacement placement : kAllNormPlacements)
        for (Norm norm : {Norm::LayerNorm, Norm::RMSNorm}) check_gradients(small_config(placement, norm), seed++);
}

TEST(Transformer, BackwardMatchesFiniteDifferencesWithNormFormersResidualScale) {
    for (Norm norm : {Norm::LayerNorm, Norm::RMSNorm}) {
        TransformerConfig c = small_config(NormPlacement::NormFormer, norm);
        c.residual_scale = true;
        c.heads = 4;  // d_h = 2
        check_gradients(c, 21);
    }
}

// NormFormer's ablation: each of its additions alone (and none) through the backward.
TEST(Transformer, BackwardMatchesFiniteDifferencesForEachNormFormerPart) {
    std::uint64_t seed = 41;
    for (const NormFormerParts parts : {NormFormerParts{true, false, false}, NormFormerParts{false, true, false},
                                        NormFormerParts{false, false, true}, NormFormerParts{false, false, false}}) {
        SCOPED_TRACE(to_string(parts));
        TransformerConfig c = small_config(NormPlacement::NormFormer, Norm::LayerNorm);
        c.normformer = parts;
        check_gradients(c, seed++);
    }
}

// Xavier's larger weights (for the FFN, √(6/5d) against 1/√d) through every placement.
TEST(Transformer, BackwardMatchesFiniteDifferencesWithXavierInit) {
    std::uint64_t seed = 31;
    for (NormPlacement placement : kAllNormPlacements) {
        TransformerConfig c = small_config(placement, Norm::LayerNorm);
        c.init = TransformerInit::Xavier;
        check_gradients(c, seed++);
    }
}

// [SECTION] Structure ---------------------------------------------------------------------------

std::vector<std::string> names(Transformer& model) {
    std::vector<std::string> out;
    for (const Param* p : model.params()) out.push_back(p->name);
    return out;
}

bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }

TEST(Transformer, EachPlacementHasItsNorms) {
    Transformer post(small_config(NormPlacement::PostLN, Norm::LayerNorm), 1);
    Transformer pre(small_config(NormPlacement::PreLN, Norm::LayerNorm), 1);
    TransformerConfig nf_config = small_config(NormPlacement::NormFormer, Norm::RMSNorm);
    nf_config.residual_scale = true;
    Transformer nf(nf_config, 1);
    const auto a = names(post), b = names(pre), c = names(nf);
    EXPECT_TRUE(has(a, "block1.ln1.g") && has(a, "block2.ln2.b"));
    EXPECT_FALSE(has(a, "final_norm.g"));  // Post-LN ends in a norm already
    EXPECT_TRUE(has(b, "final_norm.g"));
    EXPECT_FALSE(has(b, "block1.attn_norm.g") || has(b, "block1.attn.head_scale"));
    EXPECT_TRUE(has(c, "block1.attn_norm.g") && has(c, "block1.ffn.norm.g") && has(c, "block2.attn.head_scale") &&
                has(c, "block2.resid_scale") && has(c, "final_norm.b"));
    // Sizes: the FFN norm acts on the 4d hidden activations; one head scale per head, init 1.
    for (Param* p : nf.params()) {
        if (p->name == "block1.ffn.norm.g") {
            EXPECT_EQ(p->value.rows(), 4 * nf_config.width);
        } else if (p->name == "block1.attn.head_scale") {
            EXPECT_EQ(p->value, Mat::Ones(nf_config.heads, 1));
        } else if (p->name == "block1.resid_scale") {
            EXPECT_EQ(p->value, Mat::Ones(nf_config.width, 1));
        }
    }
    EXPECT_EQ(nf.block(0).ffn_output().W().value.rows(), nf_config.width);
    EXPECT_EQ(nf.block(0).ffn_output().W().value.cols(), 4 * nf_config.width);
}

// Each part toggled adds exactly its parameters, and with every part off NormFormer is Pre-LN:
// the same parameters, the same initial values, the same logits, bit for bit.
TEST(Transformer, EachNormFormerPartAddsItsLayerAndNoneIsPreLN) {
    const TransformerConfig pre_config = small_config(NormPlacement::PreLN, Norm::LayerNorm);
    Transformer pre(pre_config, 5);
    const auto base = names(pre);
    const struct {
        NormFormerParts parts;
        std::vector<std::string> added;
    } cases[] = {{{true, false, false}, {"block1.attn_norm.g", "block1.attn_norm.b"}},
                 {{false, true, false}, {"block1.ffn.norm.g", "block1.ffn.norm.b"}},
                 {{false, false, true}, {"block1.attn.head_scale"}},
                 {{false, false, false}, {}}};
    const Tokens x = (Tokens(2, 4) << 0, 1, 2, 3, 4, 3, 2, 1).finished();
    const Mat pre_logits = pre.forward(x);
    for (const auto& c : cases) {
        SCOPED_TRACE(to_string(c.parts));
        TransformerConfig config = small_config(NormPlacement::NormFormer, Norm::LayerNorm);
        config.normformer = c.parts;
        Transformer nf(config, 5);
        const auto n = names(nf);
        EXPECT_EQ(n.size(), base.size() + c.added.size() * static_cast<std::size_t>(config.layers));
        for (const std::string& name : c.added) EXPECT_TRUE(has(n, name));
        for (const std::string& name : base) EXPECT_TRUE(has(n, name));
        // A part changes the function (its norm rescales; γ = 1 at init leaves it) ...
        const Mat logits = nf.forward(x);
        if (c.parts.attn_norm || c.parts.ffn_norm)
            EXPECT_GT((logits - pre_logits).cwiseAbs().maxCoeff(), 1e-3);
        else
            EXPECT_EQ(logits, pre_logits);   // ... none, or γ alone at its init, is Pre-LN exactly
    }
}

TEST(Transformer, NormFormerPartsParseAndPrint) {
    EXPECT_EQ(to_string(NormFormerParts{}), "attn_norm,ffn_norm,head_scale");
    EXPECT_EQ(to_string(NormFormerParts{false, false, false}), "none");
    EXPECT_EQ(parse_normformer_parts("ffn_norm"), (NormFormerParts{false, true, false}));
    EXPECT_EQ(parse_normformer_parts("head_scale,attn_norm"), (NormFormerParts{true, false, true}));
    EXPECT_EQ(parse_normformer_parts("all"), NormFormerParts{});
    EXPECT_EQ(parse_normformer_parts("none"), (NormFormerParts{false, false, false}));
    for (const char* bad : {"", "ffn", "ffn_norm,", ",ffn_norm", "ffn_norm,ffn_norm", "none,ffn_norm"})
        EXPECT_FALSE(parse_normformer_parts(bad)) << bad;
    TransformerConfig c = small_config(NormPlacement::PreLN, Norm::LayerNorm);
    c.normformer.ffn_norm = false;
    EXPECT_EQ(validate(c), "NormFormer's parts (attn_norm,head_scale) apply to NormFormer only");
}

TEST(Transformer, IsCausal) {
    // Changing token t changes no logits at positions before t.
    for (NormPlacement placement : kAllNormPlacements) {
        Transformer model(small_config(placement, Norm::LayerNorm), 5);
        Rng rng(9);
        Tokens x = random_tokens(2, 6, 5, rng);
        const Mat before = model.forward(x);
        x(1, 4) = (x(1, 4) + 1) % 5;
        const Mat after = model.forward(x);
        EXPECT_EQ(before.topRows(6), after.topRows(6));            // case 0 untouched
        EXPECT_EQ(before.middleRows(6, 4), after.middleRows(6, 4)); // case 1, positions 0..3
        EXPECT_GT((before.row(10) - after.row(10)).norm(), 0.0);
        // Attention weights: rows sum to 1, nothing above the diagonal.
        const Mat& P = model.block(0).attention().weights(1, 1);
        for (Index t = 0; t < P.rows(); ++t) {
            EXPECT_NEAR(P.row(t).sum(), 1.0, 1e-12);
            for (Index j = t + 1; j < P.cols(); ++j) EXPECT_EQ(P(t, j), 0.0);
        }
    }
}

TEST(Transformer, FfnOutputGradMeansReadW2) {
    Transformer model(small_config(NormPlacement::PreLN, Norm::RMSNorm), 2);
    Rng rng(1);
    const Tokens x = random_tokens(2, 4, 5, rng), y = random_tokens(2, 4, 5, rng);
    Mat d;
    sequence_cross_entropy(model.forward(x), y, &d);
    model.backward(d);
    std::vector<double> g;
    model.ffn_output_grad_means(g);
    ASSERT_EQ(g.size(), 2u);
    EXPECT_DOUBLE_EQ(g[1], model.block(1).ffn_output().W().grad.cwiseAbs().mean());
    EXPECT_GT(g[0], 0.0);
}

// [SECTION] Loss and sampling -------------------------------------------------------------------

TEST(Transformer, SequenceLossScoresOnlyTargetedPositions) {
    // Two positions scored out of four: L is their mean; the others get zero gradient.
    const Mat z = (Mat(4, 3) << 0, 0, 0, 1, 2, 3, 5, 5, 5, 0, 9, 0).finished();
    const Tokens y = (Tokens(2, 2) << -1, 2, -1, 1).finished();  // rows 1 and 3 scored
    Mat d;
    const SequenceLoss l = sequence_cross_entropy(z, y, &d);
    const double l1 = -(3.0 - std::log(std::exp(1.0) + std::exp(2.0) + std::exp(3.0)));
    const double l3 = -(9.0 - std::log(2.0 + std::exp(9.0)));
    EXPECT_NEAR(l.loss, 0.5 * (l1 + l3), 1e-14);
    EXPECT_EQ(l.scored, 2);
    EXPECT_EQ(l.correct, 2);
    EXPECT_EQ(d.row(0).norm(), 0.0);
    EXPECT_EQ(d.row(2).norm(), 0.0);
    EXPECT_NEAR(d.row(1).sum(), 0.0, 1e-15);
    EXPECT_THROW(sequence_cross_entropy(z, Tokens::Constant(2, 2, -1), nullptr), std::invalid_argument);
}

TEST(Transformer, SamplingIsSeededAndGreedyAtZeroTemperature) {
    Transformer model(small_config(NormPlacement::NormFormer, Norm::LayerNorm), 4);
    Rng a(7), b(7), c(8);
    const std::vector<int> prompt = {1, 2};
    const auto sa = sample_tokens(model, prompt, 12, 1.0, a);  // runs past the context of 6: crops
    EXPECT_EQ(sa, sample_tokens(model, prompt, 12, 1.0, b));
    EXPECT_EQ(sa.size(), 12u);
    EXPECT_NE(sa, sample_tokens(model, prompt, 12, 1.0, c));
    // Greedy: the same with any generator, and the batched version agrees with one at a time.
    Rng r1(1), r2(2);
    const auto g = sample_tokens(model, prompt, 4, 0.0, r1);
    EXPECT_EQ(g, sample_tokens(model, prompt, 4, 0.0, r2));
    Tokens prompts(2, 2);
    prompts << 1, 2, 3, 0;
    const Tokens batched = greedy_continue(model, prompts, 4);
    for (int k = 0; k < 4; ++k) EXPECT_EQ(batched(0, k), g[static_cast<std::size_t>(k)]);
    const auto g2 = sample_tokens(model, {3, 0}, 4, 0.0, r1);
    for (int k = 0; k < 4; ++k) EXPECT_EQ(batched(1, k), g2[static_cast<std::size_t>(k)]);
}

// [SECTION] Configuration -----------------------------------------------------------------------

TEST(Transformer, ValidateSaysWhatIsWrong) {
    TransformerConfig c = small_config(NormPlacement::PreLN, Norm::LayerNorm);
    EXPECT_EQ(validate(c), "");
    c.layers = 13;
    EXPECT_EQ(validate(c), "layers 13 is out of range [1, 12]");
    c.layers = 2;
    c.width = 10;
    c.heads = 4;
    EXPECT_EQ(validate(c), "width 10 is not a multiple of 4 heads");
    c.width = 8;
    c.norm.norm = Norm::BatchNorm;
    EXPECT_EQ(validate(c), "the transformer's norm must be layernorm or rmsnorm (got batchnorm)");
    c.norm.norm = Norm::RMSNorm;
    c.residual_scale = true;
    EXPECT_EQ(validate(c), "the residual scale λ is part of NormFormer only");
    EXPECT_THROW(Transformer(c, 1), std::invalid_argument);
    EXPECT_EQ(parse_norm_placement("normformer"), NormPlacement::NormFormer);
    EXPECT_FALSE(parse_norm_placement("sandwich"));
    Transformer ok(small_config(NormPlacement::PreLN, Norm::LayerNorm), 1);
    EXPECT_THROW(ok.forward(Tokens::Zero(1, 7)), std::invalid_argument);     // longer than the context
    EXPECT_THROW(ok.forward(Tokens::Constant(1, 3, 5)), std::invalid_argument); // id out of range
}

}  // namespace
}  // namespace normlab
