// Tests of the float32 path (mlp.hpp, Precision) against the float64 reference: the same
// training, 50 steps, in both precisions — loss curves, per-layer gradient measures, gradients of
// one batch — on both paths of the float32 products (portable and, where the CPU has it, AVX2 +
// FMA). The float64 gradients are themselves checked by finite differences (test_mlp.cpp,
// test_transformer.cpp). No test measures wall-clock time.
//
// Tolerances, stated: over 50 steps a float32 loss stays within 1e-4 of float64's, relatively,
// and each layer's gradient measure within 1e-3 (measured at the Depth lab's defaults with the
// float kernels of model_kernels.hpp: at most 2.2e-6 and 2e-6, NormFormer's; float32's own
// rounding, 6e-8, grown through the steps).
#include "normlab/models/depth.hpp"
#include "normlab/models/training.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace normlab {
namespace {

constexpr double kLossTolerance = 1e-4;      // relative, per step
constexpr double kMeasureTolerance = 1e-3;   // relative, per layer

// Every float32 test runs on each path this CPU has: the portable products, then AVX2 + FMA.
std::vector<fast::KernelPath> paths() {
    std::vector<fast::KernelPath> out{fast::KernelPath::Scalar};
    set_model_kernel_path(fast::KernelPath::Auto);
    if (model_kernel_path() == fast::KernelPath::Avx2) out.push_back(fast::KernelPath::Avx2);
    return out;
}

void expect_close(const std::vector<double>& f64, const std::vector<double>& f32, double tolerance, const char* what) {
    ASSERT_EQ(f64.size(), f32.size()) << what;
    for (std::size_t i = 0; i < f64.size(); ++i)
        EXPECT_LE(std::abs(f32[i] - f64[i]), tolerance * std::abs(f64[i])) << what << " [" << i << "]";
}

// [SECTION] The MLP: 50 steps of the Training lab's defaults -------------------------------------

std::vector<double> train_losses(Norm norm, DatasetKind kind, Precision precision) {
    TrainConfig c = default_train_config(kind, norm);
    c.steps = 50;
    c.precision = precision;
    return train(make_dataset(default_data_spec(kind)), c).history.train_loss;
}

TEST(Precision, MlpLossCurvesOfFloat32FollowFloat64) {
    for (const fast::KernelPath path : paths()) {
        set_model_kernel_path(path);
        for (const Norm norm : {Norm::None, Norm::LayerNorm, Norm::RMSNorm, Norm::PRMSNorm, Norm::BatchNorm}) {
            SCOPED_TRACE(std::string(to_string(norm)) + " on " + std::string(fast::to_string(path)));
            expect_close(train_losses(norm, DatasetKind::Spiral, Precision::F64),
                         train_losses(norm, DatasetKind::Spiral, Precision::F32), kLossTolerance, "spiral loss");
        }
        expect_close(train_losses(Norm::RMSNorm, DatasetKind::Digits, Precision::F64),
                     train_losses(Norm::RMSNorm, DatasetKind::Digits, Precision::F32), kLossTolerance, "digits loss");
    }
    set_model_kernel_path(fast::KernelPath::Auto);
}

// One batch through the same weights (float32's are float64's, rounded): every parameter's
// gradient agrees to float32's precision, relative to the largest entry of that parameter's.
TEST(Precision, MlpGradientsOfOneBatchAgree) {
    MlpConfig c;
    c.inputs = 5;
    c.classes = 3;
    c.width = 16;
    c.activation = Activation::GELU;
    c.norm = NormSpec{Norm::LayerNorm, 1e-5};
    Mlp m64(c, 7);
    BasicMlp<float> m32(c, 7);
    Rng rng(3);
    Mat x(12, 5);
    for (Eigen::Index i = 0; i < x.size(); ++i) x.data()[i] = rng.normal();
    Labels y(12);
    for (Eigen::Index i = 0; i < 12; ++i) y(i) = static_cast<int>(i % 3);
    Mat p64, d64;
    MatOf<float> p32, d32;
    const MatOf<float> x32 = x.cast<float>();
    const double l64 = softmax_cross_entropy(m64.forward(x, Mode::Train), y, p64, &d64);
    const double l32 = softmax_cross_entropy(m32.forward(x32, Mode::Train), y, p32, &d32);
    EXPECT_NEAR(l32, l64, 1e-6 * l64);
    m64.backward(x, d64);
    m32.backward(x32, d32);
    const std::vector<Param*> g64 = m64.params();
    const std::vector<BasicParam<float>*> g32 = m32.params();
    ASSERT_EQ(g64.size(), g32.size());
    for (std::size_t i = 0; i < g64.size(); ++i) {
        SCOPED_TRACE(g64[i]->name);
        const double scale = g64[i]->grad.cwiseAbs().maxCoeff();
        EXPECT_LE((g32[i]->grad.cast<double>() - g64[i]->grad).cwiseAbs().maxCoeff(), 1e-5 * scale);
    }
}

// [SECTION] The transformer: 50 steps of the Depth lab's model, each placement ------------------

// The Depth lab's model at a smaller size (4 layers × 32, batch 16), its default 50 steps.
DepthResult depth_run(NormPlacement placement, Precision precision) {
    DepthConfig c = default_depth_config(TaskKind::Sort, placement);
    c.model.layers = 4;
    c.model.width = 32;
    c.batch_size = 16;
    c.eval_cases = 16;
    c.precision = precision;
    return run_depth(c);
}

TEST(Precision, TransformerLossCurvesAndLayerMeasuresOfFloat32FollowFloat64) {
    for (const NormPlacement placement : kAllNormPlacements) {
        const DepthResult f64 = depth_run(placement, Precision::F64);
        for (const fast::KernelPath path : paths()) {
            SCOPED_TRACE(std::string(to_string(placement)) + " on " + std::string(fast::to_string(path)));
            set_model_kernel_path(path);
            const DepthResult f32 = depth_run(placement, Precision::F32);
            expect_close(f64.history.train_loss, f32.history.train_loss, kLossTolerance, "loss");
            expect_close(f64.layer_grad_means, f32.layer_grad_means, kMeasureTolerance, "layer measure");
            EXPECT_NEAR(f32.first_last_ratio, f64.first_last_ratio, kMeasureTolerance * f64.first_last_ratio);
        }
    }
    set_model_kernel_path(fast::KernelPath::Auto);
}

// The two float32 paths are two roundings of the same sums: close, and each the same run to run.
TEST(Precision, Float32RunsRepeatBitForBitOnOnePath) {
    for (const fast::KernelPath path : paths()) {
        set_model_kernel_path(path);
        EXPECT_EQ(depth_run(NormPlacement::NormFormer, Precision::F32).history.train_loss,
                  depth_run(NormPlacement::NormFormer, Precision::F32).history.train_loss)
            << fast::to_string(path);
    }
    set_model_kernel_path(fast::KernelPath::Auto);
}

TEST(Precision, NamesRoundTrip) {
    for (const Precision p : {Precision::F64, Precision::F32}) EXPECT_EQ(parse_precision(to_string(p)), p);
    EXPECT_FALSE(parse_precision("f16"));
}

}  // namespace
}  // namespace normlab
