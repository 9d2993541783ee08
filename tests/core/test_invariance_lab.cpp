// The Invariance lab's core: its default table agrees with the paper, each kind of disagreement
// is recognised and explained, the residual-vs-δ curves bend where ε says, and the transforms
// applied to the Explorer move (or do not move) its outputs as Table 1 predicts.
#include "normlab/labs/invariance_lab.hpp"
#include "normlab/scene/session.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace normlab {
namespace {

constexpr int kLayerRow = 2, kRmsRow = 3;   // kTableNorms indices

int col(Transform t) { return static_cast<int>(t); }

CellCheck cell(const InvarianceLabState& s, int row, Transform t) {
    return check_cell(s, invariance_lab_table(s), row, col(t));
}

TEST(InvarianceLab, DefaultTableAgreesWithThePaperEverywhere) {
    const InvarianceLabState s;
    const InvarianceTable t = invariance_lab_table(s);
    EXPECT_EQ(t.delta, 10.0);
    for (int r = 0; r < kNumTableNorms; ++r)
        for (int c = 0; c < kNumTransforms; ++c) {
            const CellCheck check = check_cell(s, t, r, c);
            EXPECT_EQ(check.note, CellNote::Agrees) << r << "," << c << ": " << check.why;
            EXPECT_TRUE(check.why.empty());
            EXPECT_EQ(check.residual, t.residual[r][c]);
        }
}

TEST(InvarianceLab, DeltaOneIsExplainedAsTrivial) {
    InvarianceLabState s;
    s.delta = 1.0;
    const CellCheck c = cell(s, kLayerRow, Transform::WeightVectorRescaling);
    EXPECT_TRUE(c.measured);
    EXPECT_FALSE(c.paper);
    EXPECT_EQ(c.note, CellNote::TrivialDelta);
    EXPECT_NE(c.why.find("δ = 1"), std::string::npos) << c.why;
    // Every cell with the same reason has the same words, so that the lab can list the reason once.
    EXPECT_EQ(cell(s, kRmsRow, Transform::WeightVectorRescaling).why, c.why);
    // Re-centerings do not depend on δ: still as the paper says.
    EXPECT_EQ(cell(s, kRmsRow, Transform::WeightMatrixRecentering).note, CellNote::Agrees);
}

// δ < 0 flips the sign of the normalized outputs it scales: the cells the paper marks ✓ turn ✗
// (a change of 2‖y‖ with b = 0 when every case flips), and each says that the paper's
// invariances are for δ > 0.
TEST(InvarianceLab, NegativeDeltaIsExplained) {
    InvarianceLabState s;
    s.delta = -10.0;
    s.data.b.setZero();
    const InvarianceTable t = invariance_lab_table(s);
    const CheckedTable checked = check_table(s, t);
    int negative = 0;
    for (int r = 0; r < kNumTableNorms; ++r)
        for (int c = 0; c < kNumTransforms; ++c) {
            const CellCheck& check = checked.cells[r][c];
            if (check.note != CellNote::NegativeDelta) continue;
            ++negative;
            // Every case flipped: ‖−2y‖/‖y‖ = 2 (ε = 1e-5 moves it a little); one case: less.
            if (kAllTransforms[c] != Transform::SingleCaseRescaling) {
                EXPECT_NEAR(check.residual, 2.0, 1e-4);
            }
            EXPECT_GT(check.residual, 0.1);
            EXPECT_NE(check.why.find("δ > 0"), std::string::npos) << check.why;
        }
    EXPECT_GT(negative, 0);
    // Every disagreement has a reason, listed once.
    for (int r = 0; r < kNumTableNorms; ++r)
        for (int c = 0; c < kNumTransforms; ++c)
            if (checked.cells[r][c].note != CellNote::Agrees) {
                ASSERT_GT(checked.badge[r][c], 0);
                EXPECT_EQ(checked.notes[checked.badge[r][c] - 1].why, checked.cells[r][c].why);
            }
}

// The ε reason names the denominator in force: √(σ² + ε) inside, σ + ε added.
TEST(InvarianceLab, EpsReasonNamesThePlacementInForce) {
    for (EpsMode mode : {EpsMode::InsideSqrt, EpsMode::AddToRms}) {
        InvarianceLabState s;
        s.delta = 1e-3;
        s.spec.eps = 1e-1;
        s.spec.eps_mode = mode;
        const CellCheck c = cell(s, kRmsRow, Transform::WeightMatrixRescaling);
        ASSERT_EQ(c.note, CellNote::EpsBreaks) << c.why;
        const bool inside = mode == EpsMode::InsideSqrt;
        EXPECT_EQ(c.why.find("√(σ² + ε)") != std::string::npos, inside) << c.why;
        EXPECT_EQ(c.why.find("σ + ε") != std::string::npos, !inside) << c.why;
    }
}

TEST(InvarianceLab, ZeroShiftIsExplainedAsTrivial) {
    InvarianceLabState s;
    s.shift = 0.0;
    const CellCheck c = cell(s, kRmsRow, Transform::WeightMatrixRecentering);
    EXPECT_TRUE(c.measured);
    EXPECT_EQ(c.note, CellNote::ZeroShift);
    EXPECT_NE(c.why.find("γ = 0"), std::string::npos) << c.why;
}

TEST(InvarianceLab, DeltaNearOneIsWithinTolerance) {
    InvarianceLabState s;
    s.delta = 1.0 + 1e-7;
    const CellCheck c = cell(s, kLayerRow, Transform::WeightVectorRescaling);
    EXPECT_EQ(c.note, CellNote::WithinTolerance);
    EXPECT_GT(c.residual, 0.0);
    EXPECT_NE(c.why.find("close to 1"), std::string::npos) << c.why;
}

TEST(InvarianceLab, LargeEpsBreaksExactInvarianceAtSmallDelta) {
    InvarianceLabState s;
    s.spec.eps = 1e-3;
    s.delta = 1e-3;
    const CellCheck c = cell(s, kRmsRow, Transform::WeightMatrixRescaling);
    EXPECT_FALSE(c.measured);
    EXPECT_TRUE(c.paper);
    EXPECT_EQ(c.note, CellNote::EpsBreaks);
    EXPECT_GT(c.residual, 0.1);
    EXPECT_NE(c.why.find("ε = 0"), std::string::npos) << c.why;
    EXPECT_LT(c.residual_without_eps, 1e-12);
    // Scaling up only shrinks ε's share: what is left is ε's effect at δ = 1, ε/(2σ²) or so.
    s.delta = 1e3;
    EXPECT_LT(cell(s, kRmsRow, Transform::WeightMatrixRescaling).residual, 1e-3);
}

TEST(InvarianceLab, ToleranceBelowRoundingIsExplained) {
    InvarianceLabState s;
    s.spec.eps = 0.0;
    s.tolerance = 1e-30;
    s.delta = 3.0;   // not a power of two: the rescaled products round
    const CellCheck c = cell(s, kLayerRow, Transform::WeightMatrixRescaling);
    ASSERT_FALSE(c.measured) << c.residual;
    EXPECT_EQ(c.note, CellNote::Rounding);
    EXPECT_NE(c.why.find("rounding"), std::string::npos) << c.why;
}

TEST(InvarianceLab, NewBatchClampsItsSizes) {
    InvarianceLabState s;
    invariance_lab_new_batch(s, 7, 1, 100, 3);
    EXPECT_EQ(s.seed, 7u);
    EXPECT_EQ(s.data.x.rows(), kInvarianceMinCases);
    EXPECT_EQ(s.data.x.cols(), kInvarianceMaxSize);
    EXPECT_EQ(s.data.W.rows(), 3);
    EXPECT_EQ(s.data.W.cols(), kInvarianceMaxSize);
    EXPECT_EQ(s.data.gamma_x.size(), kInvarianceMaxSize);
    EXPECT_EQ(s.data.g.size(), 3);
}

TEST(InvarianceLab, ShiftScalesTheRecenterings) {
    InvarianceLabState s;
    s.shift = 2.5;
    const InvarianceData d = invariance_lab_data(s);
    EXPECT_LT((d.gamma_x - 2.5 * s.data.gamma_x).norm(), 1e-15);
    EXPECT_LT((d.gamma_W - 2.5 * s.data.gamma_W).norm(), 1e-15);
    EXPECT_EQ(d.x, s.data.x);
}

TEST(InvarianceLab, CurveGridIsLogSpacedThroughOne) {
    const std::vector<double> d = curve_deltas();
    ASSERT_EQ(static_cast<int>(d.size()), kCurvePoints);
    EXPECT_DOUBLE_EQ(d.front(), 1e-3);
    EXPECT_DOUBLE_EQ(d.back(), 1e3);
    EXPECT_EQ(d[30], 1.0);   // exactly: the re-scalings are the identity there
    for (size_t i = 1; i < d.size(); ++i) EXPECT_NEAR(std::log10(d[i] / d[i - 1]), 0.1, 1e-12);
}

// The re-scaling curves dip to 0 at δ = 1 itself (drawn at the floor), not ~1e-6 at δ = 1.26.
TEST(InvarianceLab, RescalingCurvesReachZeroAtDeltaOne) {
    InvarianceLabState s;
    s.curve_norms.fill(true);
    s.curve_transforms = {true, false, true, true, false, true};   // the four re-scalings
    const Plot p = invariance_curve_plot(s);
    ASSERT_EQ(p.series.size(), 20u);
    for (const Series& series : p.series) {
        ASSERT_EQ(series.x[30], 1.0);
        EXPECT_EQ(series.y[30], kResidualFloor) << series.label;
    }
}

TEST(InvarianceLab, DefaultCurves) {
    const InvarianceLabState s;
    const Plot p = invariance_curve_plot(s);
    EXPECT_EQ(p.name, "invariance_vs_delta");
    EXPECT_EQ(p.x.scale, Scale::Log10);
    EXPECT_EQ(p.y.scale, Scale::Log10);
    ASSERT_EQ(p.series.size(), 3u);   // {LayerNorm, RMSNorm, pRMSNorm} × {W′ = δW}
    EXPECT_EQ(p.title, "Relative change ‖y′ − y‖ / ‖y‖ under W′ = δW");   // the one transform
    EXPECT_EQ(p.series[0].label, "LayerNorm");
    EXPECT_EQ(p.series[2].label, "pRMSNorm");
    EXPECT_EQ(to_hex(p.series[0].color), "#0072b2");   // the Explorer's LayerNorm blue
    EXPECT_EQ(to_hex(p.series[1].color), "#d55e00");   // the Explorer's RMSNorm vermillion
    EXPECT_EQ(to_hex(p.series[2].color), "#e69f00");   // orange
    for (const Series& series : p.series) {
        ASSERT_EQ(series.y.size(), static_cast<size_t>(kCurvePoints));
        for (double v : series.y) {
            EXPECT_TRUE(std::isfinite(v));
            EXPECT_GE(v, kResidualFloor);
        }
    }
    // ε = 1e-5 ends the invariance at small δ, not at large δ.
    EXPECT_GT(p.series[0].y.front(), 1e-2);
    EXPECT_LT(p.series[0].y.back(), s.tolerance);
    // Reference lines: the tolerance and δ.
    ASSERT_EQ(p.ref_lines.size(), 2u);
    EXPECT_EQ(p.ref_lines[0].orientation, RefLine::Orientation::Horizontal);
    EXPECT_EQ(p.ref_lines[0].value, s.tolerance);
    EXPECT_EQ(p.ref_lines[1].value, s.delta);
    EXPECT_EQ(to_svg(p).find("nan"), std::string::npos);
}

TEST(InvarianceLab, DifferentTransformsDifferInDashAndMarker) {
    InvarianceLabState s;
    s.curve_norms = {false, false, false, true, false};   // RMSNorm
    s.curve_transforms.fill(true);
    const Plot p = invariance_curve_plot(s);
    ASSERT_EQ(p.series.size(), static_cast<size_t>(kNumTransforms));
    EXPECT_EQ(p.title, "Relative change ‖y′ − y‖ / ‖y‖ of RMSNorm");   // the one norm
    EXPECT_EQ(p.series[0].label, "W′ = δW");
    for (size_t i = 0; i < p.series.size(); ++i)
        for (size_t j = i + 1; j < p.series.size(); ++j)
            EXPECT_TRUE(p.series[i].line != p.series[j].line || p.series[i].marker != p.series[j].marker) << i << " " << j;
    // Weight-vector re-scaling moves the output far from δ = 1; a re-centering does not depend on δ.
    EXPECT_GT(p.series[2].y.back(), 1e-2);
    EXPECT_DOUBLE_EQ(p.series[4].y.front(), p.series[4].y.back());
}

TEST(InvarianceLab, SeveralNormsAndTransformsNameBothInTheLegend) {
    InvarianceLabState s;
    s.curve_norms = {false, false, true, true, false};               // LayerNorm, RMSNorm
    s.curve_transforms = {true, false, false, true, false, false};   // W′ = δW, x′ = δx
    const Plot p = invariance_curve_plot(s);
    ASSERT_EQ(p.series.size(), 4u);
    EXPECT_EQ(p.title, "Relative change ‖y′ − y‖ / ‖y‖ against δ");
    EXPECT_EQ(p.series[0].label, "LayerNorm · W′ = δW");
    EXPECT_EQ(p.series[3].label, "RMSNorm · x′ = δx (all cases)");
}

TEST(InvarianceLab, RaisingEpsBendsTheCurveAtSmallDelta) {
    InvarianceLabState s;
    s.curve_norms = {false, false, false, true, false};        // RMSNorm
    s.curve_transforms = {true, false, false, false, false, false};   // W′ = δW
    s.spec.eps = 1e-12;
    const Plot flat = invariance_curve_plot(s);
    s.spec.eps = 1e-3;
    const Plot bent = invariance_curve_plot(s);
    ASSERT_EQ(flat.series.size(), 1u);
    EXPECT_LT(flat.series[0].y.front(), 1e-4);   // δ = 1e-3, ε = 1e-12: still invariant
    EXPECT_GT(bent.series[0].y.front(), 0.1);    // δ = 1e-3, ε = 1e-3: ε dominates
    EXPECT_LT(bent.series[0].y.back(), 1e-3);    // δ = 1e3: only ε's share at δ = 1 is left
}

TEST(InvarianceLab, SameCurveInputsIgnoresDeltaAndTolerance) {
    const InvarianceLabState a;
    InvarianceLabState b;
    b.delta = 0.01;
    b.tolerance = 1e-9;
    EXPECT_TRUE(same_curve_inputs(a, b));
    b.spec.eps = 1e-3;
    EXPECT_FALSE(same_curve_inputs(a, b));
    InvarianceLabState c;
    invariance_lab_new_batch(c, a.seed, 3, 4, 5);   // same seed, other shapes
    EXPECT_FALSE(same_curve_inputs(a, c));
    InvarianceLabState d;
    d.curve_transforms[4] = true;
    EXPECT_FALSE(same_curve_inputs(a, d));
    InvarianceLabState e;
    e.data.W(0, 0) += 1.0;
    EXPECT_FALSE(same_curve_inputs(a, e));
}

TEST(InvarianceLab, MarkingMovesOnlyTheReferenceLines) {
    InvarianceLabState s;
    Plot p = invariance_curve_plot(s);
    const std::vector<double> y = p.series[0].y;
    s.delta = 0.5;
    s.tolerance = 1e-2;
    mark_delta_and_tolerance(p, s);
    EXPECT_EQ(p.ref_lines[0].value, 1e-2);
    EXPECT_EQ(p.ref_lines[1].value, 0.5);
    EXPECT_EQ(p.ref_lines.size(), 2u);
    EXPECT_EQ(p.series[0].y, y);
}

TEST(InvarianceLab, ExplorerShiftIsSeededScaledAndRounded) {
    InvarianceLabState s;
    const Vec a = explorer_shift(s, 5, 0);
    EXPECT_EQ(a, explorer_shift(s, 5, 0));
    EXPECT_NE(a, explorer_shift(s, 5, 1));
    for (Eigen::Index i = 0; i < a.size(); ++i) EXPECT_NEAR(a(i) * 100.0, std::round(a(i) * 100.0), 1e-9);
    s.shift = 0.0;
    EXPECT_TRUE(explorer_shift(s, 5, 0).isZero(0.0));
}

TEST(InvarianceLab, TransformsOnTheExplorerMoveItsOutputsAsTable1Says) {
    const InvarianceLabState s;   // δ = 10
    ExplorerState e;              // x = [2, 4, 6, 8], W = I
    const Vec x0 = e.x;

    ExplorerTransformResult r = apply_to_explorer(e, Transform::WeightMatrixRescaling, s);
    ASSERT_TRUE(r.applied) << r.what;
    EXPECT_EQ(e.W, Mat(10.0 * Mat::Identity(4, 4)));
    EXPECT_LT(r.layernorm_change, 1e-6);
    EXPECT_LT(r.rmsnorm_change, 1e-6);
    EXPECT_NE(r.what.find("δ = 10"), std::string::npos) << r.what;

    r = apply_to_explorer(e, Transform::DatasetRescaling, s);
    ASSERT_TRUE(r.applied);
    EXPECT_EQ(e.x, Vec(10.0 * x0));
    EXPECT_LT(r.rmsnorm_change, 1e-6);

    // x′ = x + γ moves both (W mixes nothing here, but γ is not constant).
    r = apply_to_explorer(e, Transform::DatasetRecentering, s);
    ASSERT_TRUE(r.applied);
    EXPECT_EQ(e.x, Vec(10.0 * x0 + explorer_shift(s, 4, 0)));
    EXPECT_GT(r.layernorm_change, 1e-3);
    EXPECT_GT(r.rmsnorm_change, 1e-3);

    // W′ = W + 1γᵀ adds the same γᵀx to every a_i: LayerNorm removes it, RMSNorm cannot.
    r = apply_to_explorer(e, Transform::WeightMatrixRecentering, s);
    ASSERT_TRUE(r.applied);
    EXPECT_LT(r.layernorm_change, 1e-9);
    EXPECT_GT(r.rmsnorm_change, 1e-3);

    // Different factors per row move both.
    r = apply_to_explorer(e, Transform::WeightVectorRescaling, s);
    ASSERT_TRUE(r.applied);
    EXPECT_GT(r.layernorm_change, 1e-3);
    EXPECT_GT(r.rmsnorm_change, 1e-3);
    EXPECT_EQ(r.layernorm_before.size(), 4);
    EXPECT_EQ(r.rmsnorm_after.size(), 4);
}

TEST(InvarianceLab, ExplorerWithoutWRefusesWeightTransforms) {
    const InvarianceLabState s;
    ExplorerState e;
    explorer_set_use_W(e, false);
    const Mat W0 = e.W;
    const ExplorerTransformResult r = apply_to_explorer(e, Transform::WeightMatrixRescaling, s);
    EXPECT_FALSE(r.applied);
    EXPECT_NE(r.what.find("no W"), std::string::npos) << r.what;
    EXPECT_EQ(e.W, W0);
    // The case itself can still be re-scaled; single-case re-scaling is the same for one case.
    EXPECT_TRUE(apply_to_explorer(e, Transform::SingleCaseRescaling, s).applied);
    EXPECT_EQ(e.x, Vec(10.0 * explorer_example_x()));
}

TEST(InvarianceLab, ExplorerNumbersStayInRange) {
    InvarianceLabState s;
    s.delta = 1e3;
    ExplorerState e;
    int applied = 0;
    for (int i = 0; i < 60; ++i) applied += apply_to_explorer(e, Transform::DatasetRescaling, s).applied ? 1 : 0;
    EXPECT_LT(applied, 60);
    EXPECT_TRUE(e.x.allFinite());
    EXPECT_LE(e.x.cwiseAbs().maxCoeff(), 1e100);
    const ExplorerTransformResult refused = apply_to_explorer(e, Transform::DatasetRescaling, s);
    EXPECT_FALSE(refused.applied);
    EXPECT_NE(refused.what.find("Not applied"), std::string::npos);
}

// The lab's tables as figures: the paper's is Table 1 cell for cell; the measured one says ✓/✗ by
// the tolerance, coloured so, and flags exactly the cells that check_cell finds differ.
TEST(InvarianceTables, PaperAndMeasuredAgreeWithTheChecks) {
    const Table paper = invariance_paper_table();
    ASSERT_EQ(paper.rows.size(), static_cast<std::size_t>(kNumTableNorms));
    ASSERT_EQ(paper.columns.size(), static_cast<std::size_t>(kNumTransforms + 1));
    for (int r = 0; r < kNumTableNorms; ++r)
        for (int c = 0; c < kNumTransforms; ++c) {
            const bool yes = paper_table1(kTableNorms[r], kAllTransforms[c]);
            EXPECT_EQ(paper.rows[r][c + 1].text, yes ? "✓" : "✗");
        }
    for (double delta : {10.0, 1.0}) {
        InvarianceLabState state;
        state.delta = delta;   // δ = 1: re-scalings change nothing, cells differ from the paper
        const InvarianceTable table = invariance_lab_table(state);
        const Table measured = invariance_measured_table(state);
        bool any_flag = false;
        for (int r = 0; r < kNumTableNorms; ++r)
            for (int c = 0; c < kNumTransforms; ++c) {
                const CellCheck check = check_cell(state, table, r, c);
                const TableCell& cell = measured.rows[r][c + 1];
                EXPECT_EQ(cell.text.rfind(check.measured ? "✓ " : "✗ ", 0), 0u) << cell.text;
                EXPECT_EQ(cell.tone, check.measured ? CellTone::Pass : CellTone::Fail);
                EXPECT_EQ(cell.flagged, check.note != CellNote::Agrees);
                any_flag = any_flag || cell.flagged;
            }
        EXPECT_EQ(any_flag, delta == 1.0) << "δ = " << delta;
        EXPECT_EQ(measured.note.empty(), !any_flag);
    }
}

}  // namespace
}  // namespace normlab
