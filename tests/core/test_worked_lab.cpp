// The Worked example lab's core: reading a write-up's claims and judging them, with the
// misconception of explain.hpp as the default.
#include "normlab/labs/worked_lab.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace normlab {
namespace {

const Vec kExample = (Vec(4) << 2, 4, 6, 8).finished();
const Vec kLarge = (Vec(4) << 200, 300, 150, 250).finished();

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(WorkedLab, DefaultIsTheMisconceptionAndIsRejected) {
    const WorkedResults r = compute_worked(WorkedState{}, kExample);
    EXPECT_EQ(r.status, ClaimStatus::Wrong);
    EXPECT_EQ(r.headline, "Not RMSNorm");
    ASSERT_TRUE(r.verdict.has_value());
    EXPECT_TRUE(contains(claim_summary(r.explanation, *r.verdict), "LayerNorm with the sample std")) << claim_summary(r.explanation, *r.verdict);
    EXPECT_TRUE(contains(claim_summary(r.explanation, *r.verdict), "0.365")) << claim_summary(r.explanation, *r.verdict);
    // Its steps are right arithmetic: the mean, and the sample std √(20/3) ≈ 2.58.
    ASSERT_EQ(r.steps.size(), 2u);
    ASSERT_TRUE(r.steps[0].verdict.has_value());
    EXPECT_TRUE(r.steps[0].verdict->holds);
    ASSERT_TRUE(r.steps[1].verdict.has_value());
    EXPECT_TRUE(r.steps[1].verdict->holds);
    EXPECT_TRUE(contains(r.steps[1].verdict->message, "sample std")) << r.steps[1].verdict->message;
    EXPECT_DOUBLE_EQ(r.explanation.eps, 1e-5);
    EXPECT_NEAR(r.explanation.rmsnorm[0], 0.365, 5e-4);
}

TEST(WorkedLab, PresetsGiveTheirVerdicts) {
    const auto run = [](int i) {
        WorkedState s;
        apply_preset(s, kWorkedPresets[i]);
        return compute_worked(s, preset_x(kWorkedPresets[i]));
    };
    EXPECT_EQ(preset_x(kWorkedPresets[1]), kLarge);

    const WorkedResults misconception = run(0);
    EXPECT_EQ(misconception.status, ClaimStatus::Wrong);

    const WorkedResults slip = run(1);
    EXPECT_EQ(slip.status, ClaimStatus::Correct) << slip.headline;
    EXPECT_EQ(slip.headline, "Yes, this is LayerNorm");
    ASSERT_EQ(slip.steps.size(), 2u);
    EXPECT_TRUE(slip.steps[0].verdict->holds);          // mean = 225
    EXPECT_FALSE(slip.steps[1].verdict->holds);         // (300 − 225)² = 2025
    EXPECT_TRUE(contains(slip.steps[1].verdict->message, "5625, not 2025")) << slip.steps[1].verdict->message;

    const WorkedResults right = run(2);
    EXPECT_EQ(right.status, ClaimStatus::Correct);
    for (const StepCheck& step : right.steps) {
        ASSERT_TRUE(step.verdict.has_value()) << step.error;
        EXPECT_TRUE(step.verdict->holds) << step.verdict->message;
    }
}

TEST(WorkedLab, UnnamedClaimsNameTheirFormula) {
    WorkedState s;
    s.claimed_name = std::nullopt;
    s.claimed_outputs = "[0.365, 0.730, 1.095, 1.461]";
    WorkedResults r = compute_worked(s, kExample);
    EXPECT_EQ(r.status, ClaimStatus::Correct);
    EXPECT_EQ(r.headline, "This is RMSNorm");
    s.claimed_outputs = "-1, -0.5, 0.5, 1";
    r = compute_worked(s, kExample);
    EXPECT_EQ(r.status, ClaimStatus::Wrong);
    EXPECT_EQ(r.headline, "No formula reproduces these numbers");
}

TEST(WorkedLab, NamedClaimThatNothingReproduces) {
    WorkedState s;
    s.claimed_name = Formula::LayerNormPopulation;
    s.claimed_outputs = "-1.34, -0.45, 0.45, 1.35";   // one digit off
    const WorkedResults r = compute_worked(s, kExample);
    EXPECT_EQ(r.status, ClaimStatus::Wrong);
    EXPECT_EQ(r.headline, "Not LayerNorm");
    EXPECT_TRUE(contains(claim_summary(r.explanation, *r.verdict), "No formula")) << claim_summary(r.explanation, *r.verdict);
}

TEST(WorkedLab, UnreadableClaimsSayWhy) {
    WorkedState s;
    s.claimed_outputs = "1, 2, 3";
    WorkedResults r = compute_worked(s, kExample);
    EXPECT_EQ(r.status, ClaimStatus::Invalid);
    EXPECT_TRUE(contains(r.error, "3 outputs but x has 4 entries")) << r.error;
    EXPECT_FALSE(r.verdict.has_value());

    s.claimed_outputs = "1, 2, three, 4";
    r = compute_worked(s, kExample);
    EXPECT_EQ(r.status, ClaimStatus::Invalid);
    EXPECT_TRUE(contains(r.error, "\"three\" is not a number")) << r.error;

    s.claimed_outputs = "  ";
    s.claimed_steps = "mean is 5\n\n ; (1 + = 2";
    r = compute_worked(s, kExample);
    EXPECT_EQ(r.status, ClaimStatus::Empty);
    ASSERT_EQ(r.steps.size(), 2u);
    EXPECT_FALSE(r.steps[0].verdict.has_value());
    EXPECT_TRUE(contains(r.steps[0].error, "lhs = rhs")) << r.steps[0].error;
    EXPECT_FALSE(r.steps[1].error.empty());
}

// A scene's claimed steps nested 20,000 deep: that step says why, the others are checked.
TEST(WorkedLab, ADeeplyNestedStepIsRefusedOnItsOwn) {
    WorkedState s;
    s.claimed_steps = std::string(20000, '(') + "5" + std::string(20000, ')') + " = 5\nmean = 5";
    const WorkedResults r = compute_worked(s, kExample);
    ASSERT_EQ(r.steps.size(), 2u);
    EXPECT_TRUE(contains(r.steps[0].error, "nested deeper than 100 levels")) << r.steps[0].error;
    ASSERT_TRUE(r.steps[1].verdict.has_value());
    EXPECT_TRUE(r.steps[1].verdict->holds);
}

TEST(WorkedLab, SplittingClaims) {
    EXPECT_EQ(split_claimed_outputs("[−1.16, −0.39;0.39  1.16]"),
              (std::vector<std::string>{"−1.16", "−0.39", "0.39", "1.16"}));
    EXPECT_TRUE(split_claimed_outputs(" [ ] ").empty());
    EXPECT_EQ(split_claimed_steps(" mean = 5 \r\n\n std = 2.58; rms = 5.477 "),
              (std::vector<std::string>{"mean = 5", "std = 2.58", "rms = 5.477"}));
}

TEST(WorkedLab, EpsEntersTheSquareRoots) {
    WorkedState s;
    s.eps = 1.0;
    const WorkedResults r = compute_worked(s, kExample);
    EXPECT_DOUBLE_EQ(r.explanation.sigma, std::sqrt(6.0));   // √(5 + 1)
    EXPECT_DOUBLE_EQ(r.explanation.rms, std::sqrt(31.0));    // √(30 + 1)
    EXPECT_THROW(compute_worked(s, Vec()), std::invalid_argument);
}

}  // namespace
}  // namespace normlab
