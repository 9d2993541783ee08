// The Number formats lab (labs/precision_lab.hpp): its headline, the marks along the δ sweep,
// LayerNorm's cancellation in the offset sweep, the outputs table and the scene file.
#include "normlab/labs/precision_lab.hpp"

#include "normlab/labs/state_json.hpp"
#include "normlab/scene/scene.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>

namespace normlab {
namespace {

TEST(PrecisionLab, DefaultsShowFloat16RmsNormReturningZeros) {
    const PrecisionLabState s;
    const PrecisionLabResults r = compute_precision_lab(s);
    EXPECT_EQ(r.headline, "float16 (every step) RMSNorm returns zeros here");
    ASSERT_FALSE(r.consequences.empty());
    EXPECT_NE(r.consequences[0].find("every āᵢ = xᵢ / ∞ is 0"), std::string::npos) << r.consequences[0];
    // The sum of squares δ²·860000 passes 65504 at δ ≈ 0.276: the grid's first point past it
    // is 10^(−0.5) = 0.316 (no single square overflows before δ = 0.43).
    ASSERT_TRUE(r.marks.overflow_from.has_value());
    EXPECT_DOUBLE_EQ(*r.marks.overflow_from, std::pow(10.0, -0.5));
    // Invariance holds only below the overflow (and above the underflow).
    ASSERT_TRUE(r.marks.invariant_hi.has_value());
    EXPECT_LT(*r.marks.invariant_hi, 0.28);
    EXPECT_GT(*r.marks.invariant_hi, 0.1);
    ASSERT_TRUE(r.marks.invariant_lo.has_value());
    EXPECT_LT(*r.marks.invariant_lo, 1e-2);
    // Small δ: x² underflows, and ε (1e-5, 168·2⁻²⁴ in float16) takes over the denominator.
    ASSERT_TRUE(r.marks.underflow_below.has_value());
    ASSERT_TRUE(r.marks.eps_below.has_value());
    EXPECT_LT(*r.marks.underflow_below, *r.marks.eps_below);
}

TEST(PrecisionLab, Float32StepsKeepTheSameXInRange) {
    PrecisionLabState s;
    s.arithmetic = Arithmetic::Float32;
    const PrecisionLabResults r = compute_precision_lab(s);
    EXPECT_EQ(r.headline, "float16 (computed in float32) RMSNorm: within 1 ulp of float64");
    EXPECT_TRUE(r.now.events.empty());
    // float32 squares overflow only past 3.4e38; what overflows is x itself, stored in float16:
    // 600·δ > 65504 from δ ≈ 109, the grid's 10^2.125.
    ASSERT_TRUE(r.marks.overflow_from.has_value());
    EXPECT_DOUBLE_EQ(*r.marks.overflow_from, std::pow(10.0, 2.125));
    ASSERT_TRUE(r.marks.invariant_hi.has_value());
    EXPECT_DOUBLE_EQ(*r.marks.invariant_hi, 100.0);
}

TEST(PrecisionLab, OffsetSweepShowsLayerNormCancelling) {
    // bfloat16 (float32's range: no overflow) with 8 significant bits: at c = 1000 its spacing is
    // 4, wider than x's spread; LayerNorm subtracts the mean and keeps only that rounding.
    PrecisionLabState s;
    s.x = (Vec(4) << 1.0, 2.0, 3.0, 4.0).finished();
    s.format = NumberFormat::BFloat16;
    const PrecisionLabResults r = compute_precision_lab(s);
    const std::vector<double>& t = r.offset.t;
    std::size_t at = 0;
    while (t[at] < 1000.0) ++at;
    const double layernorm = r.offset.error[0][0][at], rmsnorm = r.offset.error[1][0][at];
    EXPECT_GT(layernorm, 0.1) << "c = " << t[at];
    EXPECT_LT(rmsnorm, 1e-2) << "c = " << t[at];
    // At c = 0.01 both are at bfloat16's own error (a few units of 2⁻⁸).
    EXPECT_LT(r.offset.error[0][0][0], 3e-2);
    EXPECT_LT(r.offset.error[1][0][0], 3e-2);
}

TEST(PrecisionLab, OutputsTableAndFigures) {
    const PrecisionLabState s;
    const PrecisionLabResults r = compute_precision_lab(s);
    const Table t = precision_outputs_table(s, r);
    EXPECT_EQ(t.name, "precision_outputs");
    ASSERT_EQ(t.rows.size(), 4u);
    EXPECT_EQ(t.columns.size(), 8u);
    EXPECT_EQ(t.rows[0][1].text, "300");
    EXPECT_EQ(t.rows[0][3].text, "0");
    EXPECT_EQ(t.rows[0][3].tone, CellTone::Fail);
    EXPECT_NE(t.note.find("x₁² = 90000 overflows float16"), std::string::npos) << t.note;
    const std::vector<Plot> plots = precision_lab_plots(s, r);
    ASSERT_EQ(plots.size(), 2u);
    EXPECT_EQ(plots[0].name, "precision_delta_sweep");
    EXPECT_EQ(plots[1].name, "precision_offset_sweep");
    bool overflow_line = false;
    for (const RefLine& l : plots[0].ref_lines) overflow_line |= l.label == "overflow from here" && l.value == *r.marks.overflow_from;
    EXPECT_TRUE(overflow_line);
}

TEST(PrecisionLab, ConventionsTableHasEveryLibrary) {
    const Table t = precision_conventions_table(PrecisionLabState{});
    ASSERT_EQ(t.rows.size(), 10u);
    for (const std::vector<TableCell>& row : t.rows) {
        ASSERT_EQ(row.size(), 8u);
        EXPECT_NE(row[7].text.find(" @ "), std::string::npos) << row[0].text;   // its source and version
        if (row[0].text == "RMSNorm paper, TensorFlow") {   // x ** 2 in float16: ∞ from 256 on
            EXPECT_EQ(row[5].text, "0, 0, 0, 0");
            EXPECT_EQ(row[6].tone, CellTone::Fail);
        }
        if (row[0].text == "Hugging Face LlamaRMSNorm") {
            EXPECT_EQ(row[6].tone, CellTone::Pass);
        }
        if (row[0].text == "Flax linen.RMSNorm") {
            EXPECT_NE(row[5].text.find("(float32)"), std::string::npos);
        }
    }
}

TEST(PrecisionLab, SceneRoundTripAndRefusals) {
    PrecisionLabState s;
    s.x = (Vec(3) << 1.5, -2.0, 1e-3).finished();
    s.norm = Norm::L2Norm;
    s.format = NumberFormat::BFloat16;
    s.arithmetic = Arithmetic::Float32;
    s.eps = 1e-6;
    const nlohmann::json j = state_to_json(s);
    PrecisionLabState back;
    SceneReader in(j, "labs.precision");
    state_from_json(in, back);
    EXPECT_TRUE(back == s);

    const nlohmann::json bad = {{"format", "float8"}};
    SceneReader bad_in(bad, "labs.precision");
    try {
        state_from_json(bad_in, back);
        FAIL() << "float8 was taken";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("labs.precision.format"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace normlab
