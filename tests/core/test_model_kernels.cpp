// Tests of the float32 models' kernels (core/src/models/model_kernels.hpp) on each path this CPU
// has (portable, and AVX2 + FMA), against independent references: the row norms against norm.hpp's
// float64 statistics of the same float inputs and against central differences of its forward,
// GELU's Φ against std::erf in double over a dense range and its derivative against the closed form,
// causal multi-head attention against the same algebra in double.
// The float models built on them are compared with float64 over 50 steps in test_precision.cpp.
//
// Tolerances, stated (measured on this machine, both paths, in brackets):
//   GELU: |Φ32(z) − Φ(z)| ≤ 3e-7 for every z in [−12, 12] step 2⁻¹² (2.5e-7 at step 2⁻¹⁶: the
//        rational erf's error, against 6e-8 for ½(1 + std::erf) in float); y = z Φ(z) within
//        3e-7·max(1, |z|) (2.6e-7); dz within 5e-7·max(1, |dy|) of the closed form (2.8e-7)
//   row norms: |ā32 − ā64| ≤ 4e-6 for rows of 3–257 values up to a common offset of 10³σ
//        (1.4e-6 at n = 256), ∂L/∂a within 1e-5 relative of float64's, row by row
//   attention: P, y and ∂L/∂qkv within 2e-6·max(1, largest entry) of float64's
#include "models/model_kernels.hpp"
#include "normlab/base/random.hpp"
#include "normlab/models/mlp.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace normlab {
namespace {

using Eigen::Index;
using MatF = MatOf<float>;
namespace mk = model_kernels;

// Each test runs on each path this CPU has: the portable copy, then AVX2 + FMA.
std::vector<fast::KernelPath> paths() {
    std::vector<fast::KernelPath> out{fast::KernelPath::Scalar};
    set_model_kernel_path(fast::KernelPath::Auto);
    if (model_kernel_path() == fast::KernelPath::Avx2) out.push_back(fast::KernelPath::Avx2);
    return out;
}

struct PathGuard {
    ~PathGuard() { set_model_kernel_path(fast::KernelPath::Auto); }
};

// [SECTION] Row norms ------------------------------------------------------------------------

// B×n rows of N(offset, σ²) values per row, σ varying by row (0.01 … 100), in float.
MatF random_rows(Index rows, Index cols, double offset_in_sigmas, Rng& rng) {
    MatF a(rows, cols);
    for (Index i = 0; i < rows; ++i) {
        const double sigma = std::pow(10.0, -2.0 + 4.0 * rng.uniform());
        for (Index j = 0; j < cols; ++j) a(i, j) = static_cast<float>(sigma * (offset_in_sigmas + rng.normal()));
    }
    return a;
}

struct RowNormRun {
    MatF y, abar;
    Eigen::VectorXf stats, work;
    mk::RowNormStats st() {
        float* p = stats.data();
        const Index B = stats.size() / 4;
        return {p, p + B, p + 2 * B, p + 3 * B};
    }
};

bool run_forward(RowNormRun& r, const MatF& a, const Eigen::VectorXf& g, const Eigen::VectorXf& b,
                 const mk::RowNormSpec& spec) {
    r.y.resize(a.rows(), a.cols());
    r.abar.resize(a.rows(), a.cols());
    r.stats.resize(4 * a.rows());
    r.work.resize(2 * a.rows());
    return mk::row_norm_forward(r.y.data(), r.abar.data(), r.st(), a.data(), g.data(), b.data(), a.rows(), a.cols(),
                                spec, r.work.data());
}

NormSpec norm_spec(const mk::RowNormSpec& s) {
    return NormSpec{s.center ? Norm::LayerNorm : Norm::RMSNorm, s.eps,
                    s.eps_inside ? EpsMode::InsideSqrt : EpsMode::AddToRms};
}

TEST(ModelKernels, RowNormForwardMatchesFloat64Statistics) {
    PathGuard guard;
    Rng rng(11);
    for (const fast::KernelPath path : paths()) {
        set_model_kernel_path(path);
        for (const bool center : {true, false})
            for (const bool inside : {true, false})
                for (const Index cols : {3, 8, 64, 257})
                    for (const double offset : {0.0, 10.0, 1000.0}) {
                        SCOPED_TRACE(std::string(fast::to_string(path)) + (center ? " layernorm" : " rmsnorm") +
                                     (inside ? " inside" : " add") + " n=" + std::to_string(cols) +
                                     " offset=" + std::to_string(offset));
                        const mk::RowNormSpec spec{center, inside, 1e-5};
                        const MatF a = random_rows(37, cols, offset, rng);
                        Eigen::VectorXf g(cols), b(cols);
                        for (Index j = 0; j < cols; ++j) {
                            g(j) = static_cast<float>(0.5 + rng.uniform());
                            b(j) = static_cast<float>(rng.normal());
                        }
                        RowNormRun r;
                        ASSERT_TRUE(run_forward(r, a, g, b, spec));
                        NormCache cache;
                        const Mat abar64 = norm_forward(norm_spec(spec), a.cast<double>(), cache);
                        EXPECT_LE((r.abar.cast<double>() - abar64).cwiseAbs().maxCoeff(), 4e-6);
                        const Mat y64 = (abar64.array().rowwise() * g.cast<double>().transpose().array()).rowwise() +
                                        b.cast<double>().transpose().array();
                        EXPECT_LE((r.y.cast<double>() - y64).cwiseAbs().maxCoeff(), 1e-5);
                        for (Index i = 0; i < a.rows(); ++i)
                            EXPECT_NEAR(r.st().rstd[i] * cache.groups[static_cast<std::size_t>(i)].denom, 1.0, 1e-5);
                    }
    }
}

// ∂L/∂a for L = Σ w ⊙ y: the float kernel against norm.hpp's float64 backward, and against central
// differences of norm.hpp's float64 forward (independent of either backward formula).
TEST(ModelKernels, RowNormBackwardMatchesFloat64AndFiniteDifferences) {
    PathGuard guard;
    Rng rng(12);
    for (const fast::KernelPath path : paths()) {
        set_model_kernel_path(path);
        for (const bool center : {true, false})
            for (const bool inside : {true, false}) {
                SCOPED_TRACE(std::string(fast::to_string(path)) + (center ? " layernorm" : " rmsnorm") +
                             (inside ? " inside" : " add"));
                const mk::RowNormSpec spec{center, inside, 1e-3};
                const Index B = 13, n = 19;
                const MatF a = random_rows(B, n, 2.0, rng);
                Eigen::VectorXf g(n), b = Eigen::VectorXf::Zero(n);
                for (Index j = 0; j < n; ++j) g(j) = static_cast<float>(0.5 + rng.uniform());
                MatF w(B, n);
                for (Index i = 0; i < w.size(); ++i) w.data()[i] = static_cast<float>(rng.normal());
                RowNormRun r;
                ASSERT_TRUE(run_forward(r, a, g, b, spec));
                MatF da(B, n);
                mk::row_norm_backward(da.data(), w.data(), g.data(), r.abar.data(), r.st(), B, n, center,
                                      r.work.data());
                // float64: ∂L/∂ā = w ⊙ g, then norm_backward
                const NormSpec ns = norm_spec(spec);
                const Mat a64 = a.cast<double>();
                NormCache cache;
                norm_forward(ns, a64, cache);
                const Mat dabar = w.cast<double>().array().rowwise() * g.cast<double>().transpose().array();
                const Mat da64 = norm_backward(ns, a64, cache, dabar);
                // central differences of L(a) = Σ dabar ⊙ ā(a), row by row; each row against its
                // own largest entry (rows differ in σ, so in scale, by 10⁴)
                for (Index i = 0; i < B; ++i) {
                    Eigen::RowVectorXd fd(n);
                    for (Index j = 0; j < n; ++j) {
                        const double h = 1e-6 * std::max(1.0, std::abs(a64(i, j)));
                        Mat up = a64.row(i), down = a64.row(i);
                        up(0, j) += h;
                        down(0, j) -= h;
                        NormCache c;
                        const double lu = (norm_forward(ns, up, c).array() * dabar.row(i).array()).sum();
                        const double ld = (norm_forward(ns, down, c).array() * dabar.row(i).array()).sum();
                        fd(j) = (lu - ld) / (2.0 * h);
                    }
                    const Eigen::RowVectorXd ours = da.row(i).cast<double>();
                    const double scale = da64.row(i).cwiseAbs().maxCoeff();
                    EXPECT_LE((ours - da64.row(i)).cwiseAbs().maxCoeff(), 1e-5 * scale) << "row " << i;
                    EXPECT_LE((ours - fd).cwiseAbs().maxCoeff(), 1e-4 * scale) << "row " << i;
                }
            }
    }
}

// What the float kernel declines (the caller then takes the float64 path): values whose squares
// could leave float's range, values that are not finite, and an ε too small to dwarf float's underflow.
TEST(ModelKernels, RowNormDeclinesWhatFloatCannotHold) {
    PathGuard guard;
    for (const fast::KernelPath path : paths()) {
        set_model_kernel_path(path);
        SCOPED_TRACE(fast::to_string(path));
        MatF a = MatF::Constant(5, 4, 1.0f);
        a(2, 1) = 3.0f;
        const Eigen::VectorXf g = Eigen::VectorXf::Ones(4), b = Eigen::VectorXf::Zero(4);
        RowNormRun r;
        EXPECT_TRUE(run_forward(r, a, g, b, {true, true, 1e-5}));
        EXPECT_FALSE(run_forward(r, a, g, b, {true, true, 0.0}));
        EXPECT_FALSE(run_forward(r, a, g, b, {true, true, 1e-12}));
        a(3, 2) = 2.0f * mk::kRowNormMaxAbs;
        EXPECT_FALSE(run_forward(r, a, g, b, {true, true, 1e-5}));
        a(3, 2) = std::numeric_limits<float>::quiet_NaN();
        EXPECT_FALSE(run_forward(r, a, g, b, {false, true, 1e-5}));
        a(3, 2) = -std::numeric_limits<float>::infinity();
        EXPECT_FALSE(run_forward(r, a, g, b, {false, true, 1e-5}));
    }
}

// A float norm layer whose kernel declines (ε = 0) takes the float64 path: ā is norm.hpp's, rounded.
TEST(ModelKernels, NormLayerFallsBackToFloat64WhereTheKernelDeclines) {
    PathGuard guard;
    Rng rng(13);
    for (const fast::KernelPath path : paths()) {
        set_model_kernel_path(path);
        BasicNormLayer<float> layer("n", NormSpec{Norm::LayerNorm, 0.0}, 6, true, true, 0.1);
        const MatF a = random_rows(9, 6, 1.0, rng);
        layer.forward(a, Mode::Train);
        NormCache cache;
        const MatF expected = norm_forward(NormSpec{Norm::LayerNorm, 0.0}, a.cast<double>(), cache).cast<float>();
        EXPECT_EQ(layer.normalized(), expected) << fast::to_string(path);
    }
}

// [SECTION] GELU -----------------------------------------------------------------------------

TEST(ModelKernels, GeluCdfFollowsStdErfOverADenseRange) {
    PathGuard guard;
    const Index n = 24 * 4096 + 1;   // z = −12 … 12, step 2⁻¹²
    Eigen::VectorXf z(n);
    for (Index i = 0; i < n; ++i) z(i) = static_cast<float>(-12.0 + static_cast<double>(i) / 4096.0);
    for (const fast::KernelPath path : paths()) {
        set_model_kernel_path(path);
        Eigen::VectorXf y(n), cdf(n);
        mk::gelu_forward(y.data(), cdf.data(), z.data(), n);
        double worst_cdf = 0.0, worst_y = 0.0;
        for (Index i = 0; i < n; ++i) {
            const double zi = z(i), phi = 0.5 * (1.0 + std::erf(zi / std::sqrt(2.0)));
            worst_cdf = std::max(worst_cdf, std::abs(cdf(i) - phi));
            worst_y = std::max(worst_y, std::abs(y(i) - zi * phi) / std::max(1.0, std::abs(zi)));
        }
        EXPECT_LE(worst_cdf, 3e-7) << fast::to_string(path);
        EXPECT_LE(worst_y, 3e-7) << fast::to_string(path);
    }
}

// dz = dy (Φ(z) + z φ(z)) against the closed form in double, and against central differences of
// the double forward z Φ(z).
TEST(ModelKernels, GeluBackwardMatchesItsClosedForm) {
    PathGuard guard;
    const Index n = 16 * 256 + 1;   // z = −8 … 8, step 1/256
    Eigen::VectorXf z(n), dy(n);
    Rng rng(14);
    for (Index i = 0; i < n; ++i) {
        z(i) = static_cast<float>(-8.0 + static_cast<double>(i) / 256.0);
        dy(i) = static_cast<float>(rng.normal());
    }
    const auto gelu64 = [](double v) { return v * 0.5 * (1.0 + std::erf(v / std::sqrt(2.0))); };
    for (const fast::KernelPath path : paths()) {
        set_model_kernel_path(path);
        Eigen::VectorXf y(n), cdf(n), dz(n);
        mk::gelu_forward(y.data(), cdf.data(), z.data(), n);
        mk::gelu_backward(dz.data(), dy.data(), z.data(), cdf.data(), n);
        double worst = 0.0, worst_fd = 0.0;
        for (Index i = 0; i < n; ++i) {
            const double v = z(i);
            const double closed = 0.5 * (1.0 + std::erf(v / std::sqrt(2.0))) +
                                  v * std::exp(-0.5 * v * v) / std::sqrt(2.0 * M_PI);
            const double fd = (gelu64(v + 1e-5) - gelu64(v - 1e-5)) / 2e-5;
            const double scale = std::max(1.0, std::abs(static_cast<double>(dy(i))));
            worst = std::max(worst, std::abs(dz(i) - dy(i) * closed) / scale);
            worst_fd = std::max(worst_fd, std::abs(dz(i) - dy(i) * fd) / scale);
        }
        EXPECT_LE(worst, 5e-7) << fast::to_string(path);
        EXPECT_LE(worst_fd, 1e-5) << fast::to_string(path);
    }
}

// A NaN stays NaN through GELU and its derivative (no clamp turns it into a number).
TEST(ModelKernels, GeluKeepsNaN) {
    PathGuard guard;
    for (const fast::KernelPath path : paths()) {
        set_model_kernel_path(path);
        const float z = std::numeric_limits<float>::quiet_NaN(), dy = 1.0f;
        float y = 0.0f, cdf = 0.0f, dz = 0.0f;
        mk::gelu_forward(&y, &cdf, &z, 1);
        mk::gelu_backward(&dz, &dy, &z, &cdf, 1);
        EXPECT_TRUE(std::isnan(y) && std::isnan(dz)) << fast::to_string(path);
    }
}

// [SECTION] Attention ------------------------------------------------------------------------

// Every case and head against the same algebra in double (transformer.cpp's float64 path,
// written out here): P = softmax(Q Kᵀ/√d_h) over j ≤ t, Y = P V; ∂L/∂V = Pᵀ dY,
// ∂L/∂S = P ⊙ (dY Vᵀ − rowdot)/√d_h, ∂L/∂Q = ∂L/∂S K, ∂L/∂K = ∂L/∂Sᵀ Q. Batches that fill the
// vector lanes and that do not (B = 3, 8, 11), and lengths 1 to 13.
TEST(ModelKernels, AttentionMatchesFloat64Algebra) {
    PathGuard guard;
    Rng rng(15);
    for (const fast::KernelPath path : paths()) {
        set_model_kernel_path(path);
        for (const Index B : {3, 8, 11})
            for (const Index T : {1, 5, 12, 13}) {
                SCOPED_TRACE(std::string(fast::to_string(path)) + " B=" + std::to_string(B) + " T=" + std::to_string(T));
                const Index d = 32, H = 2, dh = 16;
                const mk::AttentionShape shape{B, T, d, H};
                MatF qkv(B * T, 3 * d), dy(B * T, d), y(B * T, d), dqkv(B * T, 3 * d);
                for (Index i = 0; i < qkv.size(); ++i) qkv.data()[i] = static_cast<float>(rng.normal());
                for (Index i = 0; i < dy.size(); ++i) dy.data()[i] = static_cast<float>(rng.normal());
                Eigen::VectorXf cache(shape.cache_size()), work(shape.work_size());
                mk::attention_forward(y.data(), cache.data(), qkv.data(), shape, work.data());
                mk::attention_backward(dqkv.data(), dy.data(), cache.data(), shape, work.data());
                const auto close = [](const MatF& ours, const Mat& ref, const char* what) {
                    const double scale_of = std::max(1.0, ref.cwiseAbs().maxCoeff());
                    EXPECT_LE((ours.cast<double>() - ref).cwiseAbs().maxCoeff(), 2e-6 * scale_of) << what;
                };
                for (Index b = 0; b < B; ++b)
                    for (Index i = 0; i < H; ++i) {
                        const auto block = [&](const MatF& m, Index col) { return m.block(b * T, col, T, dh).cast<double>().eval(); };
                        const Mat Q = block(qkv, i * dh), K = block(qkv, d + i * dh), V = block(qkv, 2 * d + i * dh),
                                  dY = block(dy, i * dh);
                        Mat P = Q * K.transpose() / 4.0;
                        for (Index t = 0; t < T; ++t) {
                            auto row = P.row(t).head(t + 1);
                            row.array() = (row.array() - row.maxCoeff()).exp();
                            row /= row.sum();
                            P.row(t).tail(T - t - 1).setZero();
                        }
                        const Mat dP = dY * V.transpose();
                        const Eigen::VectorXd rowdot = (P.array() * dP.array()).rowwise().sum();
                        const Mat dS = (P.array() * (dP.colwise() - rowdot).array()).matrix() / 4.0;
                        MatF weights(T, T);
                        mk::attention_weights(weights.data(), cache.data(), shape, b, i);
                        close(weights, P, "P");
                        close(y.block(b * T, i * dh, T, dh), P * V, "Y");
                        close(dqkv.block(b * T, i * dh, T, dh), dS * K, "dQ");
                        close(dqkv.block(b * T, d + i * dh, T, dh), dS.transpose() * Q, "dK");
                        close(dqkv.block(b * T, 2 * d + i * dh, T, dh), P.transpose() * dY, "dV");
                    }
            }
    }
}

// A NaN in one case's keys makes that case's outputs NaN and leaves the other cases' alone.
TEST(ModelKernels, AttentionKeepsNaNInItsCase) {
    PathGuard guard;
    for (const fast::KernelPath path : paths()) {
        set_model_kernel_path(path);
        const Index B = 2, T = 3, d = 4;
        const mk::AttentionShape shape{B, T, d, 1};
        MatF qkv = MatF::Ones(B * T, 3 * d), y(B * T, d);
        qkv(T, d) = std::numeric_limits<float>::quiet_NaN();   // case 1, position 0, K's first column
        Eigen::VectorXf cache(shape.cache_size()), work(shape.work_size());
        mk::attention_forward(y.data(), cache.data(), qkv.data(), shape, work.data());
        EXPECT_TRUE(y.topRows(T).allFinite()) << fast::to_string(path);
        EXPECT_TRUE(y.bottomRows(T).array().isNaN().all()) << fast::to_string(path);
    }
}

}  // namespace
}  // namespace normlab
