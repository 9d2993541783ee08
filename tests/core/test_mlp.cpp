// Tests of core/src/models/mlp.cpp: the whole model's backward against central finite differences
// (every norm, both placements, every activation), the loss, the optimizers, BatchNorm's
// inference mode, the layer structure and the configuration checks.
#include "normlab/models/mlp.hpp"

#include "normlab/base/random.hpp"
#include "fd_check.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace normlab {
namespace {

using Eigen::Index;

Mat random_mat(Index rows, Index cols, Rng& rng) {
    Mat m(rows, cols);
    for (Index i = 0; i < m.size(); ++i) m.data()[i] = rng.normal();
    return m;
}

Labels random_labels(Index n, int classes, Rng& rng) {
    Labels y(n);
    for (Index i = 0; i < n; ++i) y(i) = static_cast<int>(rng.below(static_cast<std::uint64_t>(classes)));
    return y;
}

// [SECTION] Finite differences ----------------------------------------------------------------

struct FdCase {
    Norm norm;
    Placement placement;
    Activation activation;
    EpsMode eps_mode = EpsMode::InsideSqrt;
};

std::string name_of(const FdCase& c) {
    return std::string(to_string(c.norm)) + "/" + std::string(to_string(c.placement)) + "/" +
           std::string(to_string(c.activation)) + "/" + std::string(to_string(c.eps_mode));
}

// The smallest |input| of any ReLU in the last forward: the FD step must not cross the kink.
double min_relu_input(const Mlp& mlp, const Mat& x) {
    double smallest = INFINITY;
    const auto& layers = mlp.layers();
    for (std::size_t l = 0; l < layers.size(); ++l) {
        if (layers[l]->kind() != "relu") continue;
        const Mat& in = l == 0 ? x : layers[l - 1]->output();
        smallest = std::min(smallest, in.cwiseAbs().minCoeff());
    }
    return smallest;
}

// L(θ) in training mode (BatchNorm with the batch's statistics).
double loss_of(Mlp& mlp, const Mat& x, const Labels& y) {
    Mat probs;
    return softmax_cross_entropy(mlp.forward(x, Mode::Train), y, probs, nullptr);
}

// Checks every parameter's analytic gradient against (L(θ + h) − L(θ − h)) / 2h, tensor by
// tensor: ‖fd − analytic‖ / max(‖fd‖, ‖analytic‖) < 1e-6, or both below 1e-8 in absolute terms
// (gradients that vanish identically, e.g. a dense bias in front of BatchNorm).
void check_gradients(const FdCase& c, std::uint64_t seed) {
    SCOPED_TRACE(name_of(c));
    MlpConfig config;
    config.inputs = 3;
    config.classes = 3;
    config.hidden_layers = 2;
    config.width = 6;
    config.activation = c.activation;
    config.norm.norm = c.norm;
    config.norm.eps = 1e-5;
    config.norm.eps_mode = c.eps_mode;
    config.norm.p = 0.5;  // pRMSNorm: k = 3 of 6, so the partial path is exercised
    config.placement = c.placement;
    Mlp mlp(config, seed);
    Rng rng(seed + 100);
    // Non-trivial gains and biases, so that their gradients and their effect are checked too.
    for (Param* p : mlp.params())
        if (p->name.find(".norm.") != std::string::npos)
            for (Index i = 0; i < p->value.size(); ++i) p->value.data()[i] += 0.3 * rng.normal();
    const Index B = 7;
    const Mat x = random_mat(B, config.inputs, rng);
    const Labels y = random_labels(B, config.classes, rng);

    Mat probs, dlogits;
    softmax_cross_entropy(mlp.forward(x, Mode::Train), y, probs, &dlogits);
    if (c.activation == Activation::ReLU) {
        ASSERT_GT(min_relu_input(mlp, x), 1e-4) << "pick another seed";
    }
    mlp.backward(x, dlogits);

    for (Param* p : mlp.params()) expect_gradient_matches_fd(*p, [&] { return loss_of(mlp, x, y); }, 1e-8);
}

TEST(Mlp, BackwardMatchesFiniteDifferencesForEveryNormPlacementAndActivation) {
    std::uint64_t seed = 11;
    for (Norm norm : {Norm::None, Norm::LayerNorm, Norm::RMSNorm, Norm::PRMSNorm, Norm::L2Norm, Norm::BatchNorm})
        for (Placement placement : {Placement::BeforeActivation, Placement::AfterActivation})
            for (Activation activation : {Activation::ReLU, Activation::Tanh, Activation::GELU})
                check_gradients({norm, placement, activation}, seed++);
}

TEST(Mlp, BackwardMatchesFiniteDifferencesWithEpsAddedToTheRms) {
    for (Norm norm : {Norm::LayerNorm, Norm::RMSNorm, Norm::PRMSNorm, Norm::L2Norm, Norm::BatchNorm})
        check_gradients({norm, Placement::BeforeActivation, Activation::Tanh, EpsMode::AddToRms}, 7);
}

// [SECTION] Loss --------------------------------------------------------------------------------

TEST(Mlp, SoftmaxCrossEntropyClosedForms) {
    // Equal logits: p = 1/K, L = log K; ∂L/∂z = (1/K − [k = y]) / B.
    const Mat z = Mat::Constant(2, 4, 3.0);
    const Labels y = (Labels(2) << 1, 3).finished();
    Mat p, dz;
    EXPECT_NEAR(softmax_cross_entropy(z, y, p, &dz), std::log(4.0), 1e-15);
    EXPECT_NEAR(p(0, 0), 0.25, 1e-15);
    EXPECT_NEAR(dz(0, 1), (0.25 - 1.0) / 2.0, 1e-15);
    EXPECT_NEAR(dz(1, 0), 0.25 / 2.0, 1e-15);
    // Huge logits do not overflow: L = log(1 + e^{-1000}) ≈ 0 for the right class.
    const Mat big = (Mat(1, 2) << 1000.0, 0.0).finished();
    EXPECT_NEAR(softmax_cross_entropy(big, (Labels(1) << 0).finished(), p, nullptr), 0.0, 1e-300);
    EXPECT_NEAR(softmax_cross_entropy(big, (Labels(1) << 1).finished(), p, nullptr), 1000.0, 1e-12);
    EXPECT_EQ(count_correct((Mat(2, 3) << 0, 2, 1, 5, 0, 0).finished(), (Labels(2) << 1, 2).finished()), 1);
}

// [SECTION] Optimizers -------------------------------------------------------------------------

TEST(Mlp, OptimizerUpdates) {
    Param p;
    p.value = (Mat(2, 1) << 1.0, -1.0).finished();
    p.grad = (Mat(2, 1) << 0.5, -2.0).finished();
    // SGD with momentum μ: v₁ = g, θ₁ = θ₀ − lr g; v₂ = μ g + g, θ₂ = θ₁ − lr (1 + μ) g.
    OptimizerSpec sgd;
    sgd.kind = OptimizerKind::SGD;
    sgd.lr = 0.1;
    sgd.momentum = 0.9;
    Optimizer o(sgd);
    Param q = p;
    o.begin_step();
    o.update(q);
    EXPECT_NEAR(q.value(0), 1.0 - 0.05, 1e-15);
    o.begin_step();
    o.update(q);
    EXPECT_NEAR(q.value(0), 1.0 - 0.05 - 0.1 * 1.9 * 0.5, 1e-15);
    // Adam's first step moves every entry by lr · sign(g) (up to ε).
    OptimizerSpec adam;
    adam.lr = 0.01;
    Optimizer a(adam);
    Param r = p;
    a.begin_step();
    a.update(r);
    EXPECT_NEAR(r.value(0), 1.0 - 0.01, 1e-9);
    EXPECT_NEAR(r.value(1), -1.0 + 0.01, 1e-9);
    // Untrainable parameters stay.
    Param fixed = p;
    fixed.trainable = false;
    a.update(fixed);
    EXPECT_EQ(fixed.value, p.value);
}

// [SECTION] Structure and modes ----------------------------------------------------------------

std::vector<std::string> kinds(const Mlp& mlp) {
    std::vector<std::string> out;
    for (const auto& l : mlp.layers()) out.emplace_back(l->kind());
    return out;
}

TEST(Mlp, LayerOrderFollowsPlacement) {
    MlpConfig c;
    c.hidden_layers = 2;
    c.width = 4;
    c.norm.norm = Norm::RMSNorm;
    c.activation = Activation::GELU;
    c.placement = Placement::BeforeActivation;
    EXPECT_EQ(kinds(Mlp(c, 1)), (std::vector<std::string>{"dense", "rmsnorm", "gelu", "dense", "rmsnorm", "gelu", "dense"}));
    c.placement = Placement::AfterActivation;
    EXPECT_EQ(kinds(Mlp(c, 1)), (std::vector<std::string>{"dense", "gelu", "rmsnorm", "dense", "gelu", "rmsnorm", "dense"}));
    c.norm.norm = Norm::None;
    const Mlp plain(c, 1);
    EXPECT_EQ(kinds(plain), (std::vector<std::string>{"dense", "gelu", "dense", "gelu", "dense"}));
    EXPECT_EQ(plain.dense_layer_names(), (std::vector<std::string>{"hidden1", "hidden2", "output"}));
}

TEST(Mlp, SameSeedSameWeights) {
    MlpConfig c;
    c.norm.norm = Norm::LayerNorm;
    Mlp a(c, 42), b(c, 42), d(c, 43);
    const auto pa = a.params(), pb = b.params(), pd = d.params();
    ASSERT_EQ(pa.size(), pb.size());
    bool differs = false;
    for (std::size_t i = 0; i < pa.size(); ++i) {
        EXPECT_EQ(pa[i]->value, pb[i]->value) << pa[i]->name;
        differs = differs || pa[i]->value != pd[i]->value;
    }
    EXPECT_TRUE(differs);
}

TEST(Mlp, BatchNormEvalUsesRunningStatistics) {
    MlpConfig c;
    c.inputs = 3;
    c.classes = 2;
    c.hidden_layers = 1;
    c.width = 5;
    c.norm.norm = Norm::BatchNorm;
    Mlp mlp(c, 3);
    Rng rng(4);
    const Mat x = random_mat(16, 3, rng);
    // The first training batch sets the running statistics to its own: Eval then equals Train.
    const Mat train = mlp.forward(x, Mode::Train);
    const Mat eval = mlp.forward(x, Mode::Eval);
    EXPECT_LT((train - eval).cwiseAbs().maxCoeff(), 1e-12);
    // Eval mode normalizes each case alone: the output of one case does not depend on the batch.
    const Mat one = mlp.forward(x.topRows(1), Mode::Eval);
    EXPECT_LT((one.row(0) - eval.row(0)).cwiseAbs().maxCoeff(), 1e-12);
    // A second batch moves the running mean by momentum 0.1 towards its own mean.
    const auto* norm = dynamic_cast<const NormLayer*>(mlp.layers()[1].get());
    ASSERT_NE(norm, nullptr);
    const Vec before = norm->running_mean();
    const Mat x2 = random_mat(16, 3, rng);
    mlp.forward(x2, Mode::Train);
    const Mat a2 = mlp.layers()[0]->output();
    const Vec batch_mean = a2.colwise().mean().transpose();
    EXPECT_LT((norm->running_mean() - (0.9 * before + 0.1 * batch_mean)).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(Mlp, FixedGainAndBiasStay) {
    MlpConfig c;
    c.norm.norm = Norm::RMSNorm;
    c.learn_gain = false;
    c.learn_bias = false;
    Mlp mlp(c, 5);
    Rng rng(6);
    const Mat x = random_mat(8, 2, rng);
    const Labels y = random_labels(8, 2, rng);
    Mat probs, dlogits;
    softmax_cross_entropy(mlp.forward(x, Mode::Train), y, probs, &dlogits);
    mlp.backward(x, dlogits);
    Optimizer opt(OptimizerSpec{});
    mlp.update(opt);
    int fixed = 0;
    for (Param* p : mlp.params()) {
        const std::string tail = p->name.size() > 7 ? p->name.substr(p->name.size() - 7) : "";
        if (tail == ".norm.g") {
            EXPECT_TRUE((p->value.array() == 1.0).all());
            ++fixed;
        }
        if (tail == ".norm.b") {
            EXPECT_TRUE((p->value.array() == 0.0).all());
            ++fixed;
        }
    }
    EXPECT_EQ(fixed, 4);
}

TEST(Mlp, GradNormsAndNormTimings) {
    MlpConfig c;
    c.norm.norm = Norm::LayerNorm;
    Mlp mlp(c, 8);
    Rng rng(9);
    const Mat x = random_mat(8, 2, rng);
    const Labels y = random_labels(8, 2, rng);
    Mat probs, dlogits;
    mlp.reset_norm_seconds();
    softmax_cross_entropy(mlp.forward(x, Mode::Train), y, probs, &dlogits);
    mlp.backward(x, dlogits);
    std::vector<double> norms;
    mlp.weight_grad_norms(norms);
    ASSERT_EQ(norms.size(), 3u);
    for (double n : norms) EXPECT_GT(n, 0.0);
    EXPECT_GE(mlp.norm_seconds(), 0.0);
}

TEST(Mlp, ValidateNamesTheProblem) {
    MlpConfig c;
    EXPECT_EQ(validate(c), "");
    c.width = 300;
    EXPECT_EQ(validate(c), "width 300 is out of range [2, 256]");
    c.width = 32;
    c.hidden_layers = 7;
    EXPECT_EQ(validate(c), "hidden layers 7 is out of range [1, 6]");
    c.hidden_layers = 2;
    c.norm.norm = Norm::WeightNorm;
    EXPECT_EQ(validate(c), "weightnorm is not a norm layer of the MLP");
    EXPECT_THROW(Mlp(c, 1), std::invalid_argument);
    c.norm.norm = Norm::PRMSNorm;
    c.norm.p = 0.0;
    EXPECT_EQ(validate(c), "p must lie in (0, 1]");
}

TEST(Mlp, Names) {
    for (Activation a : {Activation::ReLU, Activation::Tanh, Activation::GELU}) EXPECT_EQ(parse_activation(to_string(a)), a);
    for (Placement p : {Placement::BeforeActivation, Placement::AfterActivation}) EXPECT_EQ(parse_placement(to_string(p)), p);
    for (OptimizerKind o : {OptimizerKind::SGD, OptimizerKind::Adam}) EXPECT_EQ(parse_optimizer(to_string(o)), o);
    EXPECT_FALSE(parse_activation("sigmoid"));
}

}  // namespace
}  // namespace normlab
