// The worked example and the claim checker, against hand-worked numbers.
#include "normlab/norm/explain.hpp"
#include "normlab/base/i18n.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace normlab {
namespace {

Vec v(std::initializer_list<double> values) {
    Vec out(static_cast<Eigen::Index>(values.size()));
    std::copy(values.begin(), values.end(), out.data());
    return out;
}

TEST(Explain, SeedExampleSteps) {
    const Explanation e = explain(v({2, 4, 6, 8}));
    EXPECT_DOUBLE_EQ(e.mean, 5.0);
    EXPECT_EQ(e.deviation, v({-3, -1, 1, 3}));
    EXPECT_EQ(e.deviation_sq, v({9, 1, 1, 9}));
    EXPECT_DOUBLE_EQ(e.var_population, 5.0);
    EXPECT_DOUBLE_EQ(e.var_sample, 20.0 / 3.0);
    EXPECT_DOUBLE_EQ(e.mean_square, 30.0);
    EXPECT_NEAR(e.layernorm[0], -1.342, 5e-4);
    EXPECT_NEAR(e.rmsnorm[3], 1.461, 5e-4);
    EXPECT_NEAR(e.layernorm_sample[0], -1.16, 5e-3);
    const std::string text = explain_text(e);
    EXPECT_NE(text.find("\u22121.34164"), std::string::npos) << text;
    EXPECT_NE(text.find("0.365148"), std::string::npos) << text;
    EXPECT_NE(text.find("6.66667"), std::string::npos) << text;  // the sample variance, labelled
}

// 10¹² + [0, 1, 2, 3]: the steps (μ = 10¹² + 1.5, σ = √1.25 = 1.11803) and the outputs
// (±3/√5, ±1/√5 = ±1.34164, ±0.447214) agree, and the right claim is accepted.
TEST(Explain, LargeOffsetStepsAgreeWithOutputs) {
    const Explanation e = explain(v({1e12, 1e12 + 1, 1e12 + 2, 1e12 + 3}));
    EXPECT_EQ(e.exp2, 0);
    EXPECT_EQ(e.mean, 1e12 + 1.5);
    EXPECT_EQ(e.deviation, v({-1.5, -0.5, 0.5, 1.5}));
    EXPECT_EQ(e.var_population, 1.25);
    for (Eigen::Index i = 0; i < 4; ++i)
        EXPECT_NEAR(e.layernorm[i], e.deviation[i] / e.sigma, 4e-16) << i;   // the steps give the outputs
    const std::string text = explain_text(e);
    EXPECT_NE(text.find("1000000000001.5"), std::string::npos) << text;   // μ in full, not "1e+12"
    EXPECT_NE(text.find("[\u22121.34164, \u22120.447214, 0.447214, 1.34164]"), std::string::npos) << text;
    const ClaimVerdict c = check_claim(e, {"-1.3416", "-0.4472", "0.4472", "1.3416"});
    EXPECT_EQ(c.matches, std::vector<Formula>{Formula::LayerNormPopulation}) << claim_summary(e, c);
}

// x = [1, 3, 5]·10²⁰⁰: x² ~ 10⁴⁰⁰ is beyond double, yet every step is finite and right (in units
// of 2^exp2), shown scaled: σ = √(8/3)·10²⁰⁰ = 1.63299 × 10²⁰⁰, Σx² = 35 × 10⁴⁰⁰; the sample-std
// row is [−1, 0, 1] and the claim −1, 0, 1 is exactly it. References: the exact rationals of
// python3's fractions over the doubles 1e200, 3e200, 5e200 (σ = 1.6329931618554521e200, the middle
// deviation −1.133e184: 0 at six digits beside ±2 × 10²⁰⁰).
TEST(Explain, HugeMagnitudesGiveFiniteScaledSteps) {
    const Explanation e = explain(v({1e200, 3e200, 5e200}));
    EXPECT_NE(e.exp2, 0);
    for (double step : {e.mean, e.sum_deviation_sq, e.var_population, e.var_sample, e.sigma, e.sum_square,
                        e.mean_square, e.rms})
        EXPECT_TRUE(std::isfinite(step)) << step;
    EXPECT_TRUE(e.square.allFinite() && e.deviation_sq.allFinite());
    EXPECT_NEAR(std::ldexp(e.sigma, e.exp2) / 1.6329931618554521e200, 1.0, 1e-15);
    EXPECT_NEAR(std::ldexp(e.deviation[1], e.exp2) / -1.1330943846757697e184, 1.0, 1e-6);
    EXPECT_NEAR(e.layernorm_sample[0], -1.0, 1e-15);
    EXPECT_NEAR(e.layernorm_sample[2], 1.0, 1e-15);
    const std::string text = explain_text(e);
    EXPECT_EQ(text.find("inf"), std::string::npos) << text;
    EXPECT_NE(text.find("= 1.63299 \u00d7 10\u00b2\u2070\u2070"), std::string::npos) << text;   // σ
    EXPECT_NE(text.find("sum 3.5 \u00d7 10\u2074\u2070\u00b9"), std::string::npos) << text;     // Σx²
    EXPECT_NE(text.find("sample std = [\u22121, 0, 1]"), std::string::npos) << text;
    const ClaimVerdict c = check_claim(e, {"-1", "0", "1"});
    EXPECT_LT(c.fits[1].worst, 1e-15);   // LayerNorm with the sample std: exactly −1, 0, 1
    EXPECT_TRUE(check_step(e, "std = 1.633e200").holds);
    EXPECT_TRUE(check_step(e, "std = 2e200").holds);     // the sample std, √(8/2)·10²⁰⁰
    // Tiny inputs scale the other way: x² ~ 10⁻⁴⁰⁰.
    const Explanation t = explain(v({1e-200, 3e-200, 5e-200}));
    EXPECT_NEAR(std::ldexp(t.sigma, t.exp2) / 1.6329931618554521e-200, 1.0, 1e-12);
    EXPECT_NE(explain_text(t).find("1.63299 \u00d7 10\u207b\u00b2\u2070\u2070"), std::string::npos) << explain_text(t);
}

TEST(Explain, StepNumbers) {
    EXPECT_EQ(step_number(1.25, 0), "1.25");
    EXPECT_EQ(step_number(-0.5, 0), "\u22120.5");
    EXPECT_EQ(step_number(0.0, 700), "0");
    EXPECT_EQ(step_number(1.0, 1000), "1.07151 \u00d7 10\u00b3\u2070\u00b9");   // 2¹⁰⁰⁰ = 1.0715086e301
    EXPECT_EQ(step_number(1.0, 3000), "1.23023 \u00d7 10\u2079\u2070\u00b3");   // 2³⁰⁰⁰ = 1.2302319e903
    EXPECT_EQ(exact_number(1000000000001.5), "1000000000001.5");
    EXPECT_EQ(exact_number(1.0 / 3.0), "0.333333");
}

TEST(Explain, PrintedPrecision) {
    EXPECT_DOUBLE_EQ(parse_printed_number("-1.16").half_ulp, 0.005);
    EXPECT_DOUBLE_EQ(parse_printed_number("\u22121.16").value, -1.16);
    EXPECT_DOUBLE_EQ(parse_printed_number("2025").half_ulp, 0.5);
    EXPECT_NEAR(parse_printed_number("1.5e-3").half_ulp, 0.5e-4, 1e-18);
    EXPECT_THROW(parse_printed_number("abc"), std::invalid_argument);
    EXPECT_THROW(parse_printed_number(""), std::invalid_argument);
}

TEST(Explain, SampleStdClaimIsLayerNormNotRmsNorm) {
    const Explanation e = explain(v({2, 4, 6, 8}));
    const ClaimVerdict c = check_claim(e, {"-1.16", "-0.39", "0.39", "1.16"});
    ASSERT_EQ(c.matches.size(), 1u);
    EXPECT_EQ(c.matches[0], Formula::LayerNormSample);
    EXPECT_NE(claim_summary(e, c).find("not RMSNorm"), std::string::npos) << claim_summary(e, c);
    EXPECT_NE(claim_summary(e, c).find("0.365"), std::string::npos) << claim_summary(e, c);
}

// The verdict's and the steps' words are the UI's: English as the CLI prints them, Korean and
// Chinese from the catalogs, the numbers the same in every language.
TEST(Explain, ClaimSummaryAndStepsFollowTheLanguage) {
    struct EnglishAfter {
        ~EnglishAfter() { set_language(Language::En, Catalog{}); }
    } restore;
    const Explanation e = explain(v({2, 4, 6, 8}));
    const ClaimVerdict c = check_claim(e, {"-1.16", "-0.39", "0.39", "1.16"});
    EXPECT_EQ(claim_summary(e, c),
              "These are the outputs of LayerNorm with the sample std (/(n−1)). They are not RMSNorm, which gives "
              "[0.365, 0.730, 1.095, 1.461]. (x − mean)/std with the n−1 std is LayerNorm with Bessel's correction, "
              "not RMSNorm: RMSNorm subtracts no mean and divides by √(mean(x²) + ε).");
    EXPECT_EQ(check_step(e, "std = 2.58").message, "std = 2.58 holds (the sample std)");
    ASSERT_TRUE(set_language(Language::Ko, NORMLAB_ASSETS_DIR "/i18n").empty());
    EXPECT_EQ(check_step(e, "std = 2.58").message, "std = 2.58 맞음 (표본 표준편차)");
    EXPECT_EQ(check_step(e, "mean = 4").message, "mean은(는) 5 (평균)이며 4이(가) 아님");
    const std::string ko = claim_summary(e, c);
    EXPECT_EQ(ko.rfind("이 값들은 표본 표준편차를 쓴 LayerNorm (/(n−1))의 출력입니다. RMSNorm의 출력이 아닙니다. "
                       "RMSNorm의 결과는 [0.365, 0.730, 1.095, 1.461]입니다.", 0), 0u) << ko;
    ASSERT_TRUE(set_language(Language::Zh, NORMLAB_ASSETS_DIR "/i18n").empty());
    const std::string none = claim_summary(e, check_claim(e, {"-1.0", "-0.5", "0.5", "1.0"}));
    EXPECT_EQ(none.rfind("没有公式能在打印的精度下复现这些数字。最接近的是 ", 0), 0u) << none;
}

TEST(Explain, CorrectClaimsAreRecognised) {
    const Explanation e = explain(v({2, 4, 6, 8}));
    EXPECT_EQ(check_claim(e, {"0.365", "0.730", "1.095", "1.461"}).matches, std::vector<Formula>{Formula::RMSNorm});
    EXPECT_EQ(check_claim(e, {"-1.342", "-0.447", "0.447", "1.342"}).matches,
              std::vector<Formula>{Formula::LayerNormPopulation});
    EXPECT_EQ(check_claim(e, {"0.183", "0.365", "0.548", "0.730"}).matches, std::vector<Formula>{Formula::L2Norm});
}

TEST(Explain, RefusesToGuessWhenNothingFits) {
    const Explanation e = explain(v({2, 4, 6, 8}));
    const ClaimVerdict c = check_claim(e, {"-1.0", "-0.5", "0.5", "1.0"});
    EXPECT_TRUE(c.matches.empty());
    EXPECT_NE(claim_summary(e, c).find("No formula"), std::string::npos);
    // One digit off in the last place is not a match: 1.35 is not 1.342 printed to 2 decimals.
    EXPECT_TRUE(check_claim(e, {"-1.34", "-0.45", "0.45", "1.35"}).matches.empty());
    // Coarse claims match coarsely: to one decimal, the sample-std LayerNorm gives −1.2, −0.4, ….
    EXPECT_EQ(check_claim(e, {"-1.2", "-0.4", "0.4", "1.2"}).matches, std::vector<Formula>{Formula::LayerNormSample});
    EXPECT_THROW(check_claim(e, {"1", "2"}), std::invalid_argument);
}

TEST(Explain, IntermediateSteps) {
    const Explanation e = explain(v({200, 300, 150, 250}));
    EXPECT_DOUBLE_EQ(e.mean, 225.0);
    const StepVerdict bad = check_step(e, "(300 \u2212 225)\u00b2 = 2025");
    EXPECT_FALSE(bad.holds);
    EXPECT_DOUBLE_EQ(bad.actual, 5625.0);
    EXPECT_NE(bad.message.find("5625, not 2025"), std::string::npos) << bad.message;
    EXPECT_TRUE(check_step(e, "(300 - 225)^2 = 5625").holds);
    EXPECT_TRUE(check_step(e, "mean = 225").holds);
    EXPECT_TRUE(check_step(e, "var = 3125").holds);     // population: 12500/4
    EXPECT_TRUE(check_step(e, "var = 4166.67").holds);  // sample: 12500/3
    EXPECT_FALSE(check_step(e, "std = 50").holds);
    EXPECT_TRUE(check_step(e, "\u221a(3125) = 55.90").holds);
    EXPECT_THROW(check_step(e, "no equals sign"), std::invalid_argument);
    EXPECT_THROW(check_step(e, "(1 + = 2"), std::invalid_argument);
}

TEST(Explain, ExpressionEvaluator) {
    EXPECT_DOUBLE_EQ(evaluate_expression("1 + 2 * 3"), 7.0);
    EXPECT_DOUBLE_EQ(evaluate_expression("-2^2"), -4.0);
    EXPECT_DOUBLE_EQ(evaluate_expression("2^3^2"), 512.0);
    EXPECT_DOUBLE_EQ(evaluate_expression("(9 + 1 + 1 + 9) / 4"), 5.0);
    EXPECT_DOUBLE_EQ(evaluate_expression("sqrt(16) \u00d7 2"), 8.0);
    EXPECT_THROW(evaluate_expression("2 +"), std::invalid_argument);
    EXPECT_THROW(evaluate_expression("2 ) 3"), std::invalid_argument);
}

// Deep nesting is refused with a message, never a stack overflow (15,000 levels crashed).
TEST(Explain, DeepNestingIsRefusedNotACrash) {
    const auto nested = [](const std::string& open, const std::string& close, int depth) {
        std::string s;
        for (int i = 0; i < depth; ++i) s += open;
        s += "1";
        for (int i = 0; i < depth; ++i) s += close;
        return s;
    };
    EXPECT_DOUBLE_EQ(evaluate_expression(nested("(", ")", kMaxExpressionDepth)), 1.0);
    for (const std::string& text : {nested("(", ")", 20000), nested("-", "", 200000), nested("sqrt ", "", 50000),
                                    nested("(", "", 50000), nested("2^", "", 50000), nested("-(", ")", 30000)}) {
        try {
            evaluate_expression(text);
            ADD_FAILURE() << "accepted " << text.size() << " bytes of nesting";
        } catch (const std::invalid_argument& e) {
            const std::string m = e.what();
            EXPECT_NE(m.find("nested deeper than 100 levels"), std::string::npos) << m;
            EXPECT_LT(m.size(), 200u) << "the message quotes the start of the text, not all of it";
        }
    }
    const Explanation e = explain(v({2, 4, 6, 8}));
    EXPECT_THROW(check_step(e, nested("(", ")", 15000) + " = 1"), std::invalid_argument);
}

// A refusal quotes the start of a long step, not all of it (found by fuzz_step: 4096 "(" without
// "=" were echoed whole), whichever part is refused.
TEST(Explain, RefusalsOfLongStepsQuoteTheirStart) {
    const Explanation e = explain(v({2, 4, 6, 8}));
    for (const std::string& step : {std::string(4096, '('), "mean = " + std::string(4096, 'x')}) {
        try {
            check_step(e, step);
            ADD_FAILURE() << "accepted " << step.substr(0, 20);
        } catch (const std::invalid_argument& err) {
            EXPECT_LT(std::string(err.what()).size(), 200u) << err.what();
        }
    }
}

TEST(Explain, ConstantVectorIsExplainedNotNaN) {
    const Explanation e = explain(v({3, 3, 3}));
    EXPECT_TRUE(e.layernorm.allFinite());
    EXPECT_NE(explain_text(e).find("\u03c3 = 0"), std::string::npos);
}

// One list of steps for both readers: its table cells for [2, 4, 6, 8] as worked by hand
// (Σx = 20, μ = 5, Σ(x − μ)² = 20, σ₀² = 5, sample variance 20/3, Σx² = 120, mean square 30,
// RMS = √30 = 5.477), each norm numbered 1, 2, … in order, and the CLI's text made of its lines.
TEST(Explain, StepsListServesTableAndText) {
    const Explanation e = explain(v({2, 4, 6, 8}));
    const std::vector<WorkedStep> steps = worked_steps(e, 4);
    ASSERT_EQ(steps.size(), 13u);   // LayerNorm 6 + the sample variance, RMSNorm 4, 2 comparisons
    EXPECT_EQ(steps[0].value, "20 / 4 = 5");
    EXPECT_EQ(steps[3].value, "20 / 4 = 5   (population)");
    EXPECT_EQ(steps[4].value, "20 / 3 = 6.667   (not LayerNorm)");
    EXPECT_EQ(steps[4].role, StepRole::Aside);
    EXPECT_EQ(steps[5].value, "\u221a5 = 2.236");   // ε = 0: no "+ ε"
    EXPECT_EQ(steps[7].value, "[4, 16, 36, 64],  sum 120");
    EXPECT_EQ(steps[8].value, "120 / 4 = 30");
    EXPECT_EQ(steps[9].value, "\u221a30 = 5.477");
    EXPECT_EQ(steps[10].value, "[0.3651, 0.7303, 1.095, 1.461]");
    int expected = 1;
    StepPart part = StepPart::LayerNorm;
    std::string lines;
    for (const WorkedStep& s : steps) {
        if (s.part != part) expected = 1, part = s.part;
        if (s.role == StepRole::Step || s.role == StepRole::Outputs) {
            EXPECT_EQ(s.step.substr(0, 1), std::to_string(expected)) << s.step;
            EXPECT_NE(s.line.find(std::to_string(expected++) + ". "), std::string::npos) << s.line;
        }
        EXPECT_NE(explain_text(e).find(s.line + "\n"), std::string::npos) << s.line;
    }
    // n = 1: no sample variance; a list past kStepListMax entries is cut short in the table only.
    EXPECT_EQ(worked_steps(explain(v({3})))[4].value, "undefined for n = 1   (not LayerNorm)");
    const Explanation wide = explain(Vec::LinSpaced(10, 1.0, 10.0));
    EXPECT_EQ(worked_steps(wide)[1].value, "[\u22124.5, \u22123.5, \u22122.5, \u22121.5, \u22120.5, 0.5, 1.5, 2.5, \u2026]  (10 values)");
    EXPECT_NE(worked_steps(wide)[1].line.find("4.5]"), std::string::npos);
}

// σ = 0 and RMS = 0 (x = 0): a remark under each norm, in both media.
TEST(Explain, ZeroVectorStepsCarryRemarks) {
    const std::vector<WorkedStep> steps = worked_steps(explain(v({0, 0, 0})));
    int remarks = 0;
    for (const WorkedStep& s : steps)
        if (s.role == StepRole::Remark) {
            ++remarks;
            EXPECT_NE(s.value.find("each output is 0"), std::string::npos) << s.value;
            EXPECT_NE(s.line.find("each output tends to 0"), std::string::npos) << s.line;
        }
    EXPECT_EQ(remarks, 2);
}

}  // namespace
}  // namespace normlab
