// Table 1 of the RMSNorm paper, measured: it must come out equal to the paper's for random data,
// and must change when the experiment does (δ = 1), which a hard-coded table could not.
#include "normlab/norm/invariance.hpp"

#include <gtest/gtest.h>

#include <string>

namespace normlab {
namespace {

NormSpec table_spec() {
    NormSpec spec;
    spec.eps = 1e-12;
    return spec;
}

TEST(Invariance, MeasuredTableEqualsPaperTable1) {
    for (unsigned seed : {1u, 2u, 42u, 2019u}) {
        const InvarianceData data = random_invariance_data(seed);
        for (double delta : {0.01, 7.5, 1000.0}) {
            const InvarianceTable t = invariance_table(table_spec(), data, delta);
            for (int r = 0; r < kNumTableNorms; ++r)
                for (int c = 0; c < kNumTransforms; ++c) {
                    const bool paper = paper_table1(kTableNorms[r], kAllTransforms[c]);
                    EXPECT_EQ(t.invariant(r, c), paper)
                        << display_name(kTableNorms[r]) << " / " << to_string(kAllTransforms[c]) << " seed " << seed
                        << " δ = " << delta << " residual " << t.residual[r][c];
                    // A ✗ is not a rounding accident: the output clearly moves.
                    if (!paper) {
                        EXPECT_GT(t.residual[r][c], 1e-3);
                    }
                }
        }
    }
}

TEST(Invariance, DeltaOneMakesEveryRescalingInvariant) {
    const InvarianceTable t = invariance_table(table_spec(), random_invariance_data(5), 1.0);
    for (int r = 0; r < kNumTableNorms; ++r)
        for (Transform tr : {Transform::WeightMatrixRescaling, Transform::WeightVectorRescaling,
                             Transform::DatasetRescaling, Transform::SingleCaseRescaling}) {
            EXPECT_TRUE(t.invariant(r, static_cast<int>(tr))) << display_name(kTableNorms[r]) << " " << to_string(tr);
            EXPECT_EQ(t.residual[r][static_cast<int>(tr)], 0.0);
        }
    // Re-centering does not depend on δ: LayerNorm ignores a weight re-centering, RMSNorm does not.
    EXPECT_TRUE(t.invariant(2, static_cast<int>(Transform::WeightMatrixRecentering)));
    EXPECT_FALSE(t.invariant(3, static_cast<int>(Transform::WeightMatrixRecentering)));
}

TEST(Invariance, EpsBreaksExactInvarianceAtTinyDelta) {
    // With a visible ε, scaling W by δ = 1e-3 pushes σ toward √ε and the output moves.
    NormSpec spec;
    spec.eps = 1e-3;
    spec.norm = Norm::RMSNorm;
    const InvarianceData data = random_invariance_data(3);
    EXPECT_GT(invariance_residual(spec, Transform::WeightMatrixRescaling, data, 1e-3), 0.1);
    // Scaling up only shrinks ε's share: the output barely moves.
    EXPECT_LT(invariance_residual(spec, Transform::WeightMatrixRescaling, data, 1e3), 1e-3);
}

TEST(Invariance, TransformsDoWhatTheySay) {
    const InvarianceData d = random_invariance_data(9);
    const InvarianceData w = apply_transform(Transform::WeightVectorRescaling, d, 8.0);
    const double n = static_cast<double>(d.W.rows());
    for (Eigen::Index i = 0; i < d.W.rows(); ++i)
        EXPECT_NEAR(w.W.row(i).norm() / d.W.row(i).norm(), std::pow(8.0, static_cast<double>(i + 1) / n), 1e-12);
    const InvarianceData s = apply_transform(Transform::SingleCaseRescaling, d, 3.0);
    EXPECT_LT((s.x.row(0) - 3.0 * d.x.row(0)).norm(), 1e-15);
    EXPECT_LT((s.x.bottomRows(d.x.rows() - 1) - d.x.bottomRows(d.x.rows() - 1)).norm(), 1e-15);
    const InvarianceData c = apply_transform(Transform::WeightMatrixRecentering, d, 3.0);
    EXPECT_LT(((c.W - d.W).rowwise() - d.gamma_W.transpose()).norm(), 1e-14);
}

TEST(Invariance, NamesRoundTrip) {
    for (Transform t : kAllTransforms) EXPECT_EQ(*parse_transform(to_string(t)), t);
    EXPECT_FALSE(parse_transform("dataset_scaling").has_value());
}

}  // namespace
}  // namespace normlab
