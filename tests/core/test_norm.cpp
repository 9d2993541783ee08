// Tests of core/src/norm/norm.cpp against independent truth: hand-worked closed forms, identities
// between norms, central finite differences for every backward pass, extreme magnitudes.
#include "normlab/norm/norm.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>

namespace normlab {
namespace {

Mat random_mat(Eigen::Index rows, Eigen::Index cols, std::mt19937& rng, double lo = -2.0, double hi = 2.0) {
    std::uniform_real_distribution<double> u(lo, hi);
    Mat m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = u(rng);
    return m;
}

LayerParams unit_params(Eigen::Index n) { return {std::nullopt, Vec::Ones(n), Vec::Zero(n)}; }

Vec row_output(const NormSpec& spec, const Vec& x) {
    return layer_forward(spec, x.transpose(), unit_params(x.size())).y.row(0).transpose();
}

// ---- Closed forms ------------------------------------------------------------------------

TEST(Norm, SeedExampleLayerNormAndRmsNorm) {
    // [2,4,6,8]: μ = 5, biased var = 5, σ = √5; mean(a²) = 30, RMS = √30.
    const Vec x = (Vec(4) << 2, 4, 6, 8).finished();
    NormSpec ln{Norm::LayerNorm, 0.0};
    NormSpec rms{Norm::RMSNorm, 0.0};
    const Vec yl = row_output(ln, x), yr = row_output(rms, x);
    const double expect_ln[] = {-1.342, -0.447, 0.447, 1.342};
    const double expect_rms[] = {0.365, 0.730, 1.095, 1.461};
    for (int i = 0; i < 4; ++i) {
        EXPECT_NEAR(yl[i], expect_ln[i], 5e-4) << i;
        EXPECT_NEAR(yr[i], expect_rms[i], 5e-4) << i;
        EXPECT_NEAR(yl[i], (x[i] - 5.0) / std::sqrt(5.0), 1e-15) << i;
        EXPECT_NEAR(yr[i], x[i] / std::sqrt(30.0), 1e-15) << i;
    }
    const auto st = case_stats(x.transpose());
    EXPECT_DOUBLE_EQ(st[0].mean, 5.0);
    EXPECT_EQ(st[0].var, 5.0);  // exact for small integers
    EXPECT_NEAR(st[0].rms, std::sqrt(30.0), 1e-14);
}

TEST(Norm, EpsPlacement) {
    const Vec x = (Vec(4) << 2, 4, 6, 8).finished();
    const double eps = 0.5;
    const Vec inside = row_output({Norm::RMSNorm, eps, EpsMode::InsideSqrt}, x);
    const Vec added = row_output({Norm::RMSNorm, eps, EpsMode::AddToRms}, x);
    for (int i = 0; i < 4; ++i) {
        EXPECT_NEAR(inside[i], x[i] / std::sqrt(30.0 + eps), 1e-15);
        EXPECT_NEAR(added[i], x[i] / (std::sqrt(30.0) + eps), 1e-15);
    }
}

TEST(Norm, RmsNormEqualsLayerNormWhenMeanIsZero) {
    std::mt19937 rng(7);
    Mat a = random_mat(5, 9, rng);
    a = a.colwise() - a.rowwise().mean();  // every case has mean 0
    NormCache c1, c2;
    const Mat ln = norm_forward({Norm::LayerNorm, 1e-8}, a, c1);
    const Mat rms = norm_forward({Norm::RMSNorm, 1e-8}, a, c2);
    EXPECT_LT((ln - rms).cwiseAbs().maxCoeff(), 1e-13);
    // ...and differ when it is not.
    a.array() += 1.0;
    EXPECT_GT((norm_forward({Norm::LayerNorm, 1e-8}, a, c1) - norm_forward({Norm::RMSNorm, 1e-8}, a, c2))
                  .cwiseAbs()
                  .maxCoeff(),
              0.1);
}

TEST(Norm, PartialK) {
    EXPECT_EQ(partial_k(10, 0.25, PartialRounding::Ceil), 3);
    EXPECT_EQ(partial_k(10, 0.25, PartialRounding::Floor), 2);
    EXPECT_EQ(partial_k(10, 0.3, PartialRounding::Ceil), 3);  // 10·0.3 = 3.0000000000000004
    EXPECT_EQ(partial_k(64, 0.0625, PartialRounding::Ceil), 4);
    EXPECT_EQ(partial_k(8, 0.0625, PartialRounding::Floor), 1);  // ⌊0.5⌋ = 0, clamped to 1
    EXPECT_EQ(partial_k(8, 1.0, PartialRounding::Ceil), 8);
    // The snapping tolerance is relative, as the header says: 1e-9·max(1, n·p).
    EXPECT_EQ(partial_k(10, 0.1 + 5e-11, PartialRounding::Ceil), 1);        // n·p = 1 + 5e-10: snaps
    EXPECT_EQ(partial_k(10, 0.1 + 5e-10, PartialRounding::Ceil), 2);        // 1 + 5e-9: does not
    EXPECT_EQ(partial_k(1000000, 0.3 + 5e-16, PartialRounding::Ceil), 300000);   // 3e5 + 5e-10 ≤ 3e-4
    EXPECT_EQ(partial_k(1000000, 0.3 + 1e-12, PartialRounding::Ceil), 300000);   // 3e5 + 1e-6 ≤ 3e-4: relative
    EXPECT_EQ(partial_k(1000000, 0.3 + 1e-9, PartialRounding::Ceil), 300001);    // 3e5 + 1e-3 > 3e-4
}

TEST(Norm, PartialRmsUsesFirstKEntries) {
    const Vec x = (Vec(10) << 1, 2, 3, 40, 50, 60, 70, 80, 90, 100).finished();
    NormSpec spec{Norm::PRMSNorm, 0.0};
    spec.p = 0.25;  // k = 3: RMS from [1, 2, 3] = √(14/3)
    const Vec y = row_output(spec, x);
    for (int i = 0; i < 10; ++i) EXPECT_NEAR(y[i], x[i] / std::sqrt(14.0 / 3.0), 1e-13);
    spec.rounding = PartialRounding::Floor;  // k = 2: RMS from [1, 2] = √(5/2)
    const Vec yf = row_output(spec, x);
    EXPECT_NEAR(yf[9], 100.0 / std::sqrt(2.5), 1e-12);
    // p = 1 is plain RMSNorm.
    spec.p = 1.0;
    EXPECT_LT((row_output(spec, x) - row_output({Norm::RMSNorm, 0.0}, x)).norm(), 1e-14);
}

TEST(Norm, L2NormHasUnitLength) {
    const Vec x = (Vec(4) << 2, 4, 6, 8).finished();
    const Vec y = row_output({Norm::L2Norm, 0.0}, x);
    EXPECT_NEAR(y.norm(), 1.0, 1e-15);
    // RMSNorm's output has length √n: L2-Norm shrinks by √n compared with it.
    EXPECT_NEAR(row_output({Norm::RMSNorm, 0.0}, x).norm(), 2.0, 1e-14);
}

TEST(Norm, BatchNormNormalizesEachFeatureOverCases) {
    std::mt19937 rng(3);
    const Mat x = random_mat(6, 4, rng, 0.0, 5.0);
    const LayerForward f = layer_forward({Norm::BatchNorm, 0.0}, x, unit_params(4));
    for (Eigen::Index j = 0; j < 4; ++j) {
        EXPECT_NEAR(f.y.col(j).mean(), 0.0, 1e-14);
        EXPECT_NEAR(f.y.col(j).squaredNorm() / 6.0, 1.0, 1e-13);
    }
}

TEST(Norm, WeightNormDividesByRowNorms) {
    const Mat W = (Mat(2, 2) << 3, 4, 0, 2).finished();
    const Mat x = (Mat(1, 2) << 1, 1).finished();
    const LayerForward f = layer_forward({Norm::WeightNorm, 0.0}, x, {W, Vec::Ones(2), Vec::Zero(2)});
    EXPECT_NEAR(f.a(0, 0), 7.0, 1e-15);
    EXPECT_NEAR(f.y(0, 0), 7.0 / 5.0, 1e-15);
    EXPECT_NEAR(f.y(0, 1), 1.0, 1e-15);
}

TEST(Norm, GainAndBias) {
    const Vec x = (Vec(4) << 2, 4, 6, 8).finished();
    const Vec g = (Vec(4) << 1, 2, 3, 4).finished(), b = (Vec(4) << 0, 1, 0, -1).finished();
    const LayerForward f = layer_forward({Norm::RMSNorm, 0.0}, x.transpose(), {std::nullopt, g, b});
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(f.y(0, i), x[i] / std::sqrt(30.0) * g[i] + b[i], 1e-14);
}

TEST(Norm, ShapeMismatchThrows) {
    const Mat x = Mat::Ones(2, 3);
    EXPECT_THROW(layer_forward({}, x, {Mat::Ones(4, 2), Vec::Ones(4), Vec::Zero(4)}), std::invalid_argument);
    EXPECT_THROW(layer_forward({}, x, {std::nullopt, Vec::Ones(2), Vec::Zero(3)}), std::invalid_argument);
}

TEST(Norm, NamesRoundTrip) {
    for (Norm n : kAllNorms) {
        ASSERT_TRUE(parse_norm(to_string(n)).has_value());
        EXPECT_EQ(*parse_norm(to_string(n)), n);
    }
    EXPECT_FALSE(parse_norm("rmsnrom").has_value());
    EXPECT_EQ(*parse_eps_mode("add_to_rms"), EpsMode::AddToRms);
}

// ---- Degenerate and extreme inputs -----------------------------------------------------------

bool all_finite(const Mat& m) { return m.allFinite(); }

TEST(Norm, ZeroVectorUnderRmsNormIsEpsLimited) {
    const Mat x = Mat::Zero(1, 5);
    const Vec b = Vec::LinSpaced(5, -1, 1);
    const LayerParams params{std::nullopt, Vec::Ones(5), b};
    for (EpsMode mode : {EpsMode::InsideSqrt, EpsMode::AddToRms}) {
        const NormSpec spec{Norm::RMSNorm, 1e-6, mode};
        const LayerForward f = layer_forward(spec, x, params);
        ASSERT_TRUE(all_finite(f.y));
        EXPECT_LT((f.y.row(0).transpose() - b).norm(), 1e-15);  // ā = 0, y = b
        const LayerGrads g = layer_backward(spec, x, params, f, Mat::Ones(1, 5));
        ASSERT_TRUE(all_finite(g.dx));
        // At a = 0: ∂ā/∂a = I / D with D = √ε (or ε).
        const double D = mode == EpsMode::InsideSqrt ? std::sqrt(1e-6) : 1e-6;
        EXPECT_NEAR(g.dx(0, 2), 1.0 / D, 1e-9 / D);
    }
}

TEST(Norm, ConstantVectorUnderLayerNormIsEpsLimited) {
    const Mat x = Mat::Constant(2, 4, 3.7);
    const LayerParams params = unit_params(4);
    const NormSpec spec{Norm::LayerNorm, 1e-5};
    const LayerForward f = layer_forward(spec, x, params);
    ASSERT_TRUE(all_finite(f.y));
    EXPECT_LT(f.y.cwiseAbs().maxCoeff(), 1e-15);
    const LayerGrads g = layer_backward(spec, x, params, f, Mat::Ones(2, 4));
    ASSERT_TRUE(all_finite(g.dx));
    EXPECT_LT(g.dx.cwiseAbs().maxCoeff(), 1e-9);  // a uniform upstream gradient is centred away
}

TEST(Norm, ZeroSpreadWithZeroEpsGivesTheEpsLimitNotNaN) {
    const Mat x = Mat::Constant(1, 4, 2.5);
    EXPECT_TRUE(layer_forward({Norm::LayerNorm, 0.0}, x, unit_params(4)).y.isZero(0.0));
    EXPECT_TRUE(layer_forward({Norm::RMSNorm, 0.0}, Mat::Zero(1, 4), unit_params(4)).y.isZero(0.0));
}

// The training step's forms (outputs and NormScratch owned by the caller, reused from call to
// call and across shapes) give exactly what the allocating forms give, the backward with the
// forward's ā in place of the one it recomputes.
TEST(Norm, ScratchFormsMatchTheAllocatingFormsBitForBit) {
    std::mt19937 rng(11);
    NormScratch scratch;
    Mat abar, da;  // reused, as a NormLayer reuses its own
    for (Norm norm : {Norm::None, Norm::LayerNorm, Norm::RMSNorm, Norm::PRMSNorm, Norm::L2Norm, Norm::BatchNorm})
        for (EpsMode mode : {EpsMode::InsideSqrt, EpsMode::AddToRms})
            for (auto [B, n] : {std::pair<Eigen::Index, Eigen::Index>{5, 7}, {3, 12}, {5, 7}, {1, 1}}) {
                const NormSpec spec{norm, 1e-5, mode, 0.25};
                Mat a = random_mat(B, n, rng);
                if (B > 2) a.row(1).setZero(), a.row(2).setConstant(0.75);  // s = 0; no spread
                const Mat dabar = random_mat(B, n, rng);
                NormCache ref_cache, cache;
                const Mat ref_abar = norm_forward(spec, a, ref_cache);
                const Mat ref_da = norm_backward(spec, a, ref_cache, dabar);
                norm_forward(spec, a, cache, abar, scratch);
                norm_backward(spec, a, cache, abar, dabar, da, scratch);
                const std::string where = std::string(to_string(norm)) + " " + std::string(to_string(mode)) + " " +
                                          std::to_string(B) + "×" + std::to_string(n);
                ASSERT_EQ(abar.rows(), B) << where;
                ASSERT_EQ(da.cols(), n) << where;
                EXPECT_TRUE((abar.array() == ref_abar.array()).all()) << where;
                EXPECT_TRUE((da.array() == ref_da.array()).all()) << where;
                EXPECT_EQ(cache.k, ref_cache.k) << where;
                ASSERT_EQ(cache.groups.size(), ref_cache.groups.size()) << where;
                for (std::size_t i = 0; i < cache.groups.size(); ++i)
                    EXPECT_EQ(cache.groups[i].denom, ref_cache.groups[i].denom) << where << " group " << i;
            }
}

TEST(Norm, HugeAndTinyMagnitudesDoNotOverflow) {
    const Vec x = (Vec(4) << 2, 4, 6, 8).finished();
    for (Norm norm : {Norm::LayerNorm, Norm::RMSNorm, Norm::L2Norm}) {
        const NormSpec spec{norm, 0.0};
        const Vec ref = row_output(spec, x);
        for (double s : {1e200, 1e300, 1e-200, 1e-300}) {
            const Vec y = row_output(spec, x * s);
            ASSERT_TRUE(y.allFinite()) << to_string(norm) << " at scale " << s;
            EXPECT_LT((y - ref).cwiseAbs().maxCoeff(), 1e-13) << to_string(norm) << " at scale " << s;
        }
        // Subnormals keep only a few digits themselves; the output must still be right to those.
        const Vec y = row_output(spec, x * 1e-320);
        ASSERT_TRUE(y.allFinite());
        EXPECT_LT((y - ref).cwiseAbs().maxCoeff(), 2e-3) << to_string(norm);
    }
    const auto st = case_stats((x * 1e200).transpose());
    EXPECT_NEAR(st[0].std / 1e200, std::sqrt(5.0), 1e-14);
    EXPECT_TRUE(std::isinf(st[0].var));  // 5e400 is beyond double: reported, not hidden
    // With ε > 0, tiny inputs go to the ε-limit: ā ≈ a/√ε ≈ 0, never NaN.
    const Vec yt = row_output({Norm::RMSNorm, 1e-5}, x * 1e-320);
    EXPECT_TRUE(yt.allFinite());
    EXPECT_LT(yt.cwiseAbs().maxCoeff(), 1e-300);
}

// ---- A large common offset loses no digits -------------------------------------------------

// 10¹² + [0, 1, 2, 3]: μ = 10¹² + 1.5, σ₀² = 1.25 exactly, ā = ±3/√5, ±1/√5 (hand-worked; the
// references in long double). Dividing by max|v| = 10¹² + 3 before centring gave σ₀² = 1.250028.
TEST(Norm, LargeCommonOffsetGivesExactStatistics) {
    const Vec x = (Vec(4) << 1e12, 1e12 + 1, 1e12 + 2, 1e12 + 3).finished();
    NormCache cache;
    const Vec y = norm_forward({Norm::LayerNorm, 0.0}, x.transpose(), cache).row(0).transpose();
    EXPECT_EQ(cache.groups[0].mean, 1e12 + 1.5);
    EXPECT_EQ(cache.groups[0].sigma0, std::sqrt(1.25));   // the correctly rounded √ of the exact 1.25
    const long double r5 = std::sqrt(5.0L);
    const long double expect[] = {-3 / r5, -1 / r5, 1 / r5, 3 / r5};
    for (int i = 0; i < 4; ++i)
        EXPECT_LE(std::abs(static_cast<long double>(y[i]) - expect[i]), 0x1p-52L * std::abs(expect[i])) << i;
    const auto st = case_stats(x.transpose());
    EXPECT_EQ(st[0].mean, 1e12 + 1.5);
    EXPECT_EQ(st[0].var, 1.25);
}

// Any offset c a double holds exactly, with c + d_i exact: the engine's statistics and outputs of
// c + d are those of d (in exact arithmetic they are equal), for LayerNorm and BatchNorm. With n
// a power of two (≤ 32) the mean c + Σd/n is a double too (|c| < 2⁴⁶), the deviations are exact,
// and they agree bit for bit.
TEST(Norm, ExactOffsetsLeaveLayerNormUnchanged) {
    std::mt19937_64 rng(11);
    std::uniform_int_distribution<int> small(-1000, 1000), sizes(2, 40), bits(0, 36);
    for (int trial = 0; trial < 300; ++trial) {
        const Eigen::Index n = trial % 2 ? Eigen::Index{1} << (1 + trial % 5) : sizes(rng);
        const double c = std::ldexp(static_cast<double>(small(rng)), bits(rng));  // an integer, |c| < 2⁴⁶
        Vec d(n);
        for (Eigen::Index i = 0; i < n; ++i) d[i] = small(rng);
        const Vec x = d.array() + c;
        for (Norm norm : {Norm::LayerNorm, Norm::BatchNorm}) {
            NormCache cx, cd;
            const Mat ax = norm == Norm::BatchNorm ? Mat(x) : Mat(x.transpose());
            const Mat ad = norm == Norm::BatchNorm ? Mat(d) : Mat(d.transpose());
            const Mat yx = norm_forward({norm, 0.0}, ax, cx), yd = norm_forward({norm, 0.0}, ad, cd);
            const double tol = (n & (n - 1)) == 0 ? 0.0 : 1e-15;  // deviations correctly rounded either way
            EXPECT_LE((yx - yd).cwiseAbs().maxCoeff(), tol) << "n = " << n << ", c = " << c;
            EXPECT_NEAR(cx.groups[0].sigma0, cd.groups[0].sigma0, tol * cd.groups[0].sigma0) << "n = " << n;
            if ((n & (n - 1)) == 0) {
                EXPECT_EQ(cx.groups[0].mean, c + cd.groups[0].mean) << "n = " << n;
            }
        }
    }
}

// The Explorer's x = 1, −2, 3, 10: μ = 3 exactly, so LayerNorm's third output is exactly 0 (it
// was −1.257e−16 from μ = 3.0000000000000004).
TEST(Norm, ExactMeanGivesAnExactZeroOutput) {
    const Vec y = row_output({Norm::LayerNorm, 1e-5}, (Vec(4) << 1, -2, 3, 10).finished());
    EXPECT_EQ(y[2], 0.0);
}

// pRMSNorm's RMS of the first k entries at their own scale: a head of 1 beside a tail of 1e300
// squared in units of 1e300 underflowed to 0, and the outputs came out ~1e306 instead of v/|v₀|.
TEST(Norm, PartialRmsOfASmallHeadBesideAHugeTailIsRight) {
    NormSpec spec{Norm::PRMSNorm, 1e-12};
    spec.p = 0.25;   // k = 1 of 4
    const Vec x = (Vec(4) << 2.0, 1e100, -3e200, 1e300).finished();
    const Vec y = row_output(spec, x);
    const double rms = std::sqrt(4.0 + 1e-12);   // hand-worked: RMS over the first entry, ε inside
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(y[i] / (x[i] / rms), 1.0, 1e-15) << i;
}

TEST(Norm, AccurateMeanIsExactWhereTheMeanIsADouble) {
    // 1, −2, 3, 10: Σ = 12, μ = 3; the naive mean of [0.1, −0.2, 0.3, 1]·10 gave 3.0000000000000004.
    EXPECT_EQ(accurate_mean((Vec(4) << 1, -2, 3, 10).finished()), 3.0);
    // 1e16 + [1, 1, −1e16 ...]: the naive sum loses the ones, the compensated one keeps them.
    EXPECT_EQ(accurate_mean((Vec(4) << 1e16, 1, 1, -1e16).finished()), 0.5);
    EXPECT_EQ(pow2_scale(10.0), 8.0);
    EXPECT_EQ(pow2_scale(1e-320), std::ldexp(1.0, std::ilogb(1e-320)));
    EXPECT_EQ(pow2_scale(0.0), 0.0);
    EXPECT_EQ(pow2_scale(std::numeric_limits<double>::max()), 0x1p1023);
}

// ---- Backward against central finite differences ------------------------------------------

// L(θ) = Σ dy ⊙ y. Returns the relative error ‖analytic − numeric‖ / ‖numeric‖.
template <class Setter>
double fd_relative_error(const Mat& analytic, Mat& param, Setter&& loss) {
    Mat numeric(param.rows(), param.cols());
    for (Eigen::Index i = 0; i < param.size(); ++i) {
        const double saved = param.data()[i];
        const double h = 1e-6 * std::max(1.0, std::abs(saved));
        param.data()[i] = saved + h;
        const double up = loss();
        param.data()[i] = saved - h;
        const double down = loss();
        param.data()[i] = saved;
        numeric.data()[i] = (up - down) / (2.0 * h);
    }
    const double scale = std::max(numeric.norm(), 1e-12);
    return (analytic - numeric).norm() / scale;
}

struct FdCase {
    Norm norm;
    EpsMode mode;
    bool with_W;
    PartialRounding rounding;
};

std::string case_name(const FdCase& c) {
    return std::string(to_string(c.norm)) + "_" + std::string(to_string(c.mode)) + (c.with_W ? "_W" : "_noW") +
           (c.rounding == PartialRounding::Ceil ? "_ceil" : "_floor");
}

void PrintTo(const FdCase& c, std::ostream* os) { *os << case_name(c); }

class BackwardFd : public ::testing::TestWithParam<FdCase> {};

TEST_P(BackwardFd, MatchesCentralDifferences) {
    const FdCase c = GetParam();
    std::mt19937 rng(1234u + static_cast<unsigned>(c.norm) * 17u + static_cast<unsigned>(c.mode));
    std::uniform_int_distribution<int> dim(2, 9);
    for (int trial = 0; trial < 4; ++trial) {
        const Eigen::Index B = dim(rng), m = dim(rng);
        const Eigen::Index n = c.with_W ? dim(rng) : m;
        NormSpec spec{c.norm, 1e-3, c.mode};
        spec.p = 0.4;
        spec.rounding = c.rounding;
        Mat x = random_mat(B, m, rng);
        LayerParams params{std::nullopt, random_mat(n, 1, rng, 0.5, 1.5), random_mat(n, 1, rng)};
        if (c.with_W) params.W = random_mat(n, m, rng);
        const Mat dy = random_mat(B, n, rng);

        const LayerForward f = layer_forward(spec, x, params);
        const LayerGrads g = layer_backward(spec, x, params, f, dy);
        auto loss = [&] { return (layer_forward(spec, x, params).y.array() * dy.array()).sum(); };

        const std::string where = case_name(c) + " trial " + std::to_string(trial);
        EXPECT_LT(fd_relative_error(g.dx, x, loss), 1e-6) << "dx " << where;
        Mat gm = params.g;
        auto loss_g = [&] {
            LayerParams p2 = params;
            p2.g = gm;
            return (layer_forward(spec, x, p2).y.array() * dy.array()).sum();
        };
        EXPECT_LT(fd_relative_error(g.dg, gm, loss_g), 1e-6) << "dg " << where;
        Mat bm = params.b;
        auto loss_b = [&] {
            LayerParams p2 = params;
            p2.b = bm;
            return (layer_forward(spec, x, p2).y.array() * dy.array()).sum();
        };
        EXPECT_LT(fd_relative_error(g.db, bm, loss_b), 1e-6) << "db " << where;
        if (c.with_W) {
            ASSERT_TRUE(g.dW.has_value());
            EXPECT_LT(fd_relative_error(*g.dW, *params.W, loss), 1e-6) << "dW " << where;
        } else {
            EXPECT_FALSE(g.dW.has_value());
        }
    }
}

std::vector<FdCase> all_fd_cases() {
    std::vector<FdCase> cases;
    for (Norm norm : kAllNorms)
        for (EpsMode mode : {EpsMode::InsideSqrt, EpsMode::AddToRms})
            for (bool with_W : {false, true}) {
                cases.push_back({norm, mode, with_W, PartialRounding::Ceil});
                if (norm == Norm::PRMSNorm) cases.push_back({norm, mode, with_W, PartialRounding::Floor});
            }
    return cases;
}

INSTANTIATE_TEST_SUITE_P(AllNorms, BackwardFd, ::testing::ValuesIn(all_fd_cases()),
                         [](const ::testing::TestParamInfo<FdCase>& param_info) { return case_name(param_info.param); });

// ---- Gradient scaling (paper eq. 8–10) ----------------------------------------------------

TEST(Norm, RmsNormWeightGradientScalesInverselyWithW) {
    std::mt19937 rng(11);
    const Mat x = random_mat(3, 6, rng);
    const Mat W = random_mat(5, 6, rng);
    const Mat dy = random_mat(3, 5, rng);
    const NormSpec spec{Norm::RMSNorm, 1e-12};
    const LayerParams p1{W, Vec::Ones(5), Vec::Zero(5)};
    const LayerParams p2{W * 10.0, Vec::Ones(5), Vec::Zero(5)};
    const LayerGrads g1 = layer_backward(spec, x, p1, layer_forward(spec, x, p1), dy);
    const LayerGrads g2 = layer_backward(spec, x, p2, layer_forward(spec, x, p2), dy);
    EXPECT_NEAR(g2.dW->norm() * 10.0 / g1.dW->norm(), 1.0, 1e-9);  // eq. 8: ∂L/∂W ∝ 1/δ
    EXPECT_NEAR(g2.dg.norm() / g1.dg.norm(), 1.0, 1e-9);           // eq. 9
    EXPECT_NEAR(g2.db.norm() / g1.db.norm(), 1.0, 1e-12);          // eq. 10
    EXPECT_NEAR(g2.dx.norm() / g1.dx.norm(), 1.0, 1e-9);           // ∂L/∂x does not change
}

}  // namespace
}  // namespace normlab
