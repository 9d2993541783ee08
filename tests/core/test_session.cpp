// The Explorer lab's model (core/src/labs/explorer_lab.cpp): defaults, resizing, presets, the numbers
// it shows, and the paste field's parser. No window needed.
#include <normlab/scene/session.hpp>

#include <gtest/gtest.h>

#include <stdexcept>

namespace normlab {
namespace {

Vec vec(std::initializer_list<double> values) {
    Vec v(static_cast<Eigen::Index>(values.size()));
    Eigen::Index i = 0;
    for (double x : values) v(i++) = x;
    return v;
}

void expect_near(const Mat& row, const Vec& want, double tol) {
    ASSERT_EQ(row.size(), want.size());
    for (Eigen::Index i = 0; i < want.size(); ++i) EXPECT_NEAR(row(0, i), want(i), tol) << "entry " << i;
}

TEST(ExplorerSession, DefaultsAreThePaperExplainerExample) {
    const ExplorerState s;
    EXPECT_EQ(s.x, vec({2, 4, 6, 8}));
    EXPECT_EQ(s.W, Mat::Identity(4, 4));
    EXPECT_TRUE(s.use_W);
    EXPECT_EQ(s.g, Vec::Ones(4));
    EXPECT_EQ(s.b, Vec::Zero(4));
    EXPECT_EQ(s.delta, 1.0);
    EXPECT_EQ(s.eps, 1e-5);
    EXPECT_EQ(s.eps_mode, EpsMode::InsideSqrt);
}

TEST(ExplorerSession, ComputesBothNormsOfTheExample) {
    const ExplorerResults r = compute_explorer(ExplorerState{});
    expect_near(r.layernorm.a, vec({2, 4, 6, 8}), 0.0);
    expect_near(r.layernorm.y, vec({-1.342, -0.447, 0.447, 1.342}), 5e-4);
    expect_near(r.rmsnorm.y, vec({0.365, 0.730, 1.095, 1.461}), 5e-4);
    EXPECT_DOUBLE_EQ(r.stats.mean, 5.0);
    EXPECT_NEAR(r.stats.std, 2.2360680, 1e-6);
    EXPECT_NEAR(r.stats.rms, 5.4772256, 1e-6);
    EXPECT_NEAR(r.layernorm.cache.groups.front().denom, 2.2360680, 1e-5);   // σ shown in the caption
    EXPECT_EQ(r.layernorm_shift, 0.0);
    EXPECT_EQ(r.rmsnorm_shift, 0.0);
}

TEST(ExplorerSession, DeltaScalesXOrWAndBothNormsIgnoreIt) {
    for (const ScaleTarget target : {ScaleTarget::X, ScaleTarget::W}) {
        ExplorerState s;
        explorer_random_W(s);
        s.delta = 1000.0;
        s.target = target;
        const ExplorerResults r = compute_explorer(s);
        expect_near(r.layernorm.a, 1000.0 * r.layernorm_ref.a.row(0).transpose(), 1e-9);
        EXPECT_LT(r.layernorm_shift, 1e-6);
        EXPECT_LT(r.rmsnorm_shift, 1e-6);
    }
}

TEST(ExplorerSession, LargeEpsilonAtSmallDeltaBreaksTheInvariance) {
    ExplorerState s;
    s.delta = 1e-3;
    s.eps = 1e-2;
    const ExplorerResults r = compute_explorer(s);
    EXPECT_GT(r.layernorm_shift, 0.5);
    EXPECT_GT(r.rmsnorm_shift, 0.5);
}

TEST(ExplorerSession, ResizeKeepsEntriesAndFillsNewOnes) {
    ExplorerState s;
    s.W(0, 1) = 0.5;
    s.g(3) = 2.0;
    explorer_resize(s, 6, 6);
    EXPECT_EQ(s.x, vec({2, 4, 6, 8, 0, 0}));
    Mat want = Mat::Identity(6, 6);
    want(0, 1) = 0.5;
    EXPECT_EQ(s.W, want);
    EXPECT_EQ(s.g, vec({1, 1, 1, 2, 1, 1}));
    EXPECT_EQ(s.b, Vec::Zero(6));

    explorer_resize(s, 3, 5);   // n ≠ m: g and b follow n
    EXPECT_EQ(s.x, vec({2, 4, 6}));
    EXPECT_EQ(s.W.rows(), 5);
    EXPECT_EQ(s.W.cols(), 3);
    EXPECT_EQ(s.W(0, 1), 0.5);
    EXPECT_EQ(s.g.size(), 5);
    EXPECT_NO_THROW(compute_explorer(s));

    explorer_resize(s, 1, 100);   // clamped to [2, 64]
    EXPECT_EQ(s.x.size(), 2);
    EXPECT_EQ(s.W.rows(), 64);
}

TEST(ExplorerSession, WithoutWTheOutputsFollowM) {
    ExplorerState s;
    explorer_resize(s, 4, 3);
    explorer_set_use_W(s, false);
    EXPECT_EQ(explorer_outputs(s), 4);
    EXPECT_EQ(s.g.size(), 4);
    const ExplorerResults r = compute_explorer(s);
    expect_near(r.layernorm.a, s.x, 0.0);
    explorer_set_use_W(s, true);
    EXPECT_EQ(s.g.size(), 3);
}

TEST(ExplorerSession, SetXResizesW) {
    ExplorerState s;
    explorer_set_x(s, explorer_large_x().head(3));   // square_W: n follows m
    EXPECT_EQ(s.x, vec({200, 300, 150}));
    EXPECT_EQ(s.W, Mat::Identity(3, 3));
    explorer_set_square_W(s, false);
    explorer_set_x(s, vec({1, 2, 3, 4, 5}));   // n stays 3
    EXPECT_EQ(s.W.rows(), 3);
    EXPECT_EQ(s.W.cols(), 5);
    explorer_set_m(s, 2);
    EXPECT_EQ(s.W.rows(), 3);
    EXPECT_EQ(s.W.cols(), 2);
    explorer_set_square_W(s, true);   // square at once
    EXPECT_EQ(s.W, Mat::Identity(2, 2));
    explorer_set_m(s, 6);
    EXPECT_EQ(s.W.rows(), 6);
    EXPECT_THROW(explorer_set_x(s, vec({1})), std::invalid_argument);
}

TEST(ExplorerSession, RandomPresetsAreSeededRoundedAndAdvanceTheSeed) {
    ExplorerState a, b;
    explorer_random_x(a);
    explorer_random_x(b);
    EXPECT_EQ(a.x, b.x);
    EXPECT_EQ(a.seed, 2u);
    explorer_random_x(a);
    EXPECT_NE(a.x, b.x);
    explorer_resize(a, 64, 64);
    explorer_random_W(a);
    for (Eigen::Index i = 0; i < a.W.size(); ++i) {
        const double v = a.W.data()[i];
        EXPECT_NEAR(v * 100.0, std::round(v * 100.0), 1e-9);
        EXPECT_FALSE(v == 0.0 && std::signbit(v)) << "−0 at " << i;
    }
    explorer_identity_W(a);
    EXPECT_EQ(a.W, Mat::Identity(64, 64));
}

TEST(ExplorerSession, RejectsInconsistentShapes) {
    ExplorerState s;
    s.g = Vec::Ones(3);
    EXPECT_THROW(compute_explorer(s), std::invalid_argument);
}

TEST(NumberList, ParsesCommonForms) {
    for (const char* text : {"2, 4, 6, 8", "[2, 4, 6, 8]", " 2 4;6,8 ", "+2,4,6e0,8"}) {
        const ParsedList p = parse_number_list(text, 2, 64);
        ASSERT_TRUE(p.values) << text << ": " << p.error;
        EXPECT_EQ(*p.values, vec({2, 4, 6, 8})) << text;
    }
    const ParsedList minus = parse_number_list("\xE2\x88\x92" "1.5, 2", 2, 64);   // U+2212 from slides
    ASSERT_TRUE(minus.values) << minus.error;
    EXPECT_EQ(*minus.values, vec({-1.5, 2}));
}

TEST(NumberList, SaysWhatIsWrong) {
    const auto error = [](const char* text) { return parse_number_list(text, 2, 64).error; };
    EXPECT_EQ(error("2, abc, 6"), "entry 2 (\"abc\") is not a number");
    EXPECT_EQ(error("2, 4x"), "entry 2 (\"4x\") is not a number");
    EXPECT_EQ(error("2,,4"), "entry 2 is empty (two separators in a row?)");
    EXPECT_EQ(error("2, 4,"), "entry 3 is empty (two separators in a row?)");
    EXPECT_EQ(error("1, nan"), "entry 2 (\"nan\") is not finite");
    EXPECT_EQ(error("1e999, 2"), "entry 1 (\"1e999\") is out of the double range");
    EXPECT_EQ(error("7"), "need 2 to 64 numbers, got 1");
    EXPECT_EQ(error("   "), "no numbers given");
    EXPECT_FALSE(parse_number_list("2, abc", 2, 64).values);
}

TEST(NumberList, FormatsForThePasteField) {
    EXPECT_EQ(format_number_list(vec({2, 4, 6, 8})), "2, 4, 6, 8");
    EXPECT_EQ(format_number_list(vec({-0.5, 1e-7, 123456789})), "-0.5, 1e-07, 1.23457e+08");
}

}  // namespace
}  // namespace normlab
