// The rules of the numbers a user types (number_rule.hpp): the one message per refusal, and the
// lab fields' rules as scene files meet them (the GUI shows the same messages under its fields).
#include "normlab/base/number_rule.hpp"
#include "normlab/base/i18n.hpp"
#include "normlab/scene/scene.hpp"
#include "normlab/scene/session.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

namespace normlab {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

TEST(NumberRule, AcceptsTheRangeAndItsClosedEnds) {
    const NumberRule delta{1e-3, 1e3};
    for (double v : {1e-3, 1.0, 1e3}) EXPECT_EQ(number_problem("δ", v, delta), "") << v;
    EXPECT_EQ(number_problem("x", -1e300, kAnyFinite), "");
    EXPECT_EQ(number_problem("p", 1.0, kFractionRule), "");
    EXPECT_EQ(number_problem("steps", 200, NumberRule{1, 200, false, true}), "");
    EXPECT_TRUE(rule_accepts(kFractionRule, 1.0));
    EXPECT_FALSE(rule_accepts(kFractionRule, 0.0));
    EXPECT_FALSE(rule_accepts(kAnyFinite, HUGE_VAL));
}

TEST(NumberRule, NamesTheFieldTheValueAndTheRange) {
    EXPECT_EQ(number_problem("δ", 0.0, NumberRule{1e-3, 1e3}), "δ = 0 is out of range [0.001, 1000]");
    EXPECT_EQ(number_problem("δ", 5000, NumberRule{1e-3, 1e3}), "δ = 5000 is out of range [0.001, 1000]");
    EXPECT_EQ(number_problem("p", 0.0, kFractionRule), "p = 0 is out of range (0, 1]");
    EXPECT_EQ(number_problem("p", 1.5, kFractionRule), "p = 1.5 is out of range (0, 1]");
    EXPECT_EQ(number_problem("ε", 0.0, kLabEpsRule), "ε = 0 is out of range (0, 1]");
    EXPECT_EQ(number_problem("ε", -1e-5, kLabEpsRule), "ε = -1e-05 is out of range (0, 1]");
    EXPECT_EQ(number_problem("η", -1, NumberRule{0.0, kNoBound, true}), "η = -1 must be > 0");
    EXPECT_EQ(number_problem("ε", -1, NumberRule{0.0, kNoBound}), "ε = -1 must be ≥ 0");
    EXPECT_EQ(number_problem("width", -3, NumberRule{2, 256, false, true}), "width = -3 is out of range [2, 256]");
    EXPECT_EQ(number_problem("width", 1e9, NumberRule{2, 256, false, true}),
              "width = 1000000000 is out of range [2, 256]");
    EXPECT_EQ(number_problem("steps", 2.5, NumberRule{1, 200, false, true}), "steps = 2.5 is not a whole number");
}

TEST(NumberRule, RefusesNaNAndInfinityWhateverTheRange) {
    for (const NumberRule& rule : {kAnyFinite, NumberRule{0.0, kNoBound}, kFractionRule}) {
        EXPECT_EQ(number_problem("ε", kNaN, rule), "ε is NaN");
        EXPECT_EQ(number_problem("ε", HUGE_VAL, rule), "ε = inf is not finite");
        EXPECT_EQ(number_problem("ε", -HUGE_VAL, rule), "ε = -inf is not finite");
    }
}

TEST(NumberRule, WritesNumbersAsShortAsTheyReadBack) {
    EXPECT_EQ(rule_number(0.001), "0.001");
    EXPECT_EQ(rule_number(1000), "1000");
    EXPECT_EQ(rule_number(1e-5), "1e-05");
    EXPECT_EQ(rule_number(1e300), "1e+300");
    EXPECT_EQ(rule_number(0.1 + 0.2), "0.30000000000000004");
    EXPECT_EQ(rule_number(kNaN), "NaN");
}

TEST(NumberRule, EveryLabDefaultPassesItsRule) {
    // A default outside its rule would make a fresh session's autosave unreadable.
    const Session s;
    const struct {
        const char* name;
        double value;
        NumberRule rule;
    } fields[] = {{"explorer.delta", s.explorer.delta, kExplorerDeltaRule},
                  {"explorer.eps", s.explorer.eps, kLabEpsRule},
                  {"invariance.delta", s.invariance.delta, kInvarianceDeltaRule},
                  {"invariance.shift", s.invariance.shift, kInvarianceShiftRule},
                  {"invariance.tolerance", s.invariance.tolerance, kInvarianceToleranceRule},
                  {"invariance.eps", s.invariance.spec.eps, kLabEpsRule},
                  {"invariance.p", s.invariance.spec.p, kFractionRule},
                  {"worked.eps", s.worked.eps, kWorkedEpsRule},
                  {"gradients.eps", s.gradients.eps, kLabEpsRule},
                  {"gradients.p", s.gradients.p, kFractionRule},
                  {"gradients.sgd_delta", s.gradients.sgd_delta, kSgdDeltaRule},
                  {"gradients.learning_rate", s.gradients.learning_rate, kSgdLearningRateRule},
                  {"geometry.eps", s.geometry.eps, kGeometryEpsRule},
                  {"geometry.shrink", s.geometry.shrink, kGeometryShrinkRule},
                  {"training.lr", s.training.train.optimizer.lr, kTrainingLrRule},
                  {"training.noise", s.training.data.noise, kTrainingNoiseRule},
                  {"training.train_ratio", s.training.data.train_ratio, kTrainingRatioRule},
                  {"training.p", s.training.train.model.norm.p, kFractionRule},
                  {"training.steps_per_second", s.training.steps_per_second, kTrainingSpeedRule},
                  {"training.stress_factor", s.training.stress_factor, kStressFactorRule},
                  {"depth.lr", s.depth.lr, kDepthLrRule},
                  {"depth.sweep_lr_min", s.depth.sweep_lr_min, kDepthLrRule},
                  {"depth.sweep_lr_max", s.depth.sweep_lr_max, kDepthLrRule},
                  {"depth.temperature", s.depth.temperature, kDepthTemperatureRule}};
    for (const auto& f : fields) EXPECT_EQ(number_problem(f.name, f.value, f.rule), "");
}

TEST(NumberList, RefusesEntriesOutsideTheRule) {
    EXPECT_EQ(parse_number_list("1, 1e300", 2, 64, kExplorerEntryRule).error,
              "entry 2 = 1e+300 is out of range [-1000000, 1000000]");
    EXPECT_TRUE(parse_number_list("1, 1e300", 2, 64).values) << "no rule: any finite number";
}

// The messages are the GUI's: in the UI's language (the shipped catalogs), English when none is
// chosen, as in the CLI.
TEST(NumberRule, MessagesFollowTheLanguage) {
    struct EnglishAfter {
        ~EnglishAfter() { set_language(Language::En, Catalog{}); }
    } restore;
    const NumberRule delta{1e-3, 1e3};
    ASSERT_TRUE(set_language(Language::Ko, NORMLAB_ASSETS_DIR "/i18n").empty());
    EXPECT_EQ(number_problem("δ", 5000, delta), "δ = 5000은(는) [0.001, 1000] 범위를 벗어납니다");
    EXPECT_EQ(number_problem("η", -1, NumberRule{0, kNoBound, true}), "η = -1: 0보다 커야 합니다");
    EXPECT_EQ(parse_number_list("1, 1e300", 2, 64, kExplorerEntryRule).error,
              "2번째 원소 = 1e+300은(는) [-1000000, 1000000] 범위를 벗어납니다");
    EXPECT_EQ(parse_number_list("1,,2", 2, 64).error, "2번째 원소가 비어 있습니다 (구분 기호를 연달아 두 번 썼나요?)");
    ASSERT_TRUE(set_language(Language::Zh, NORMLAB_ASSETS_DIR "/i18n").empty());
    EXPECT_EQ(number_problem("steps", 2.5, NumberRule{1, 1e6, false, true}), "steps = 2.5 不是整数");
    EXPECT_EQ(parse_number_list("1, x", 2, 64).error, "第 2 个元素（\"x\"）不是数字");
    EXPECT_EQ(parse_number_list("1", 2, 64).error, "需要 2 到 64 个数，实际为 1 个");
    set_language(Language::En, Catalog{});
    EXPECT_EQ(number_problem("δ", 5000, delta), "δ = 5000 is out of range [0.001, 1000]");
    EXPECT_EQ(parse_number_list("1, x", 2, 64).error, "entry 2 (\"x\") is not a number");
}

// [SECTION] Scene files: the lab fields' rules, with the key's path ------------------------

std::string scene_with_labs(const std::string& labs) {
    return R"({"format": "normlab-scene", "version": 1, "labs": )" + labs + "}";
}

struct RuleCase {
    const char* name;
    const char* labs;
    const char* message;
};

class SceneFieldRule : public ::testing::TestWithParam<RuleCase> {};

TEST_P(SceneFieldRule, RefusesTheValueWithTheFieldsMessage) {
    const RuleCase& c = GetParam();
    try {
        parse_scene(scene_with_labs(c.labs));
        FAIL() << "accepted: " << c.labs;
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()), c.message);
    }
}

const RuleCase kRuleCases[] = {
    {"explorer_delta_zero", R"({"explorer": {"delta": 0}})", "labs.explorer.delta = 0 is out of range [0.001, 1000]"},
    {"explorer_eps_zero", R"({"explorer": {"eps": 0}})", "labs.explorer.eps = 0 is out of range (0, 1]"},
    {"explorer_x_huge", R"({"explorer": {"x": [1, 1e9, 3]}})",
     "labs.explorer.x[1] = 1000000000 is out of range [-1000000, 1000000]"},
    {"explorer_W_huge", R"({"explorer": {"x": [1, 2], "W": [[1, 0], [0, -1e7]]}})",
     "labs.explorer.W[1][1] = -10000000 is out of range [-1000000, 1000000]"},
    {"invariance_p_above_one", R"({"invariance": {"p": 1.5}})", "labs.invariance.p = 1.5 is out of range (0, 1]"},
    {"invariance_shift", R"({"invariance": {"shift": -2}})", "labs.invariance.shift = -2 is out of range [0, 10]"},
    {"invariance_tolerance", R"({"invariance": {"tolerance": 5}})",
     "labs.invariance.tolerance = 5 is out of range [0, 1]"},
    {"worked_eps_negative", R"({"worked": {"eps": -1}})", "labs.worked.eps = -1 is out of range [0, 1]"},
    {"gradients_delta_zero", R"({"gradients": {"sgd_delta": 0}})",
     "labs.gradients.sgd_delta = 0 is out of range [0.1, 100]"},
    {"gradients_lr_huge", R"({"gradients": {"learning_rate": 1e6}})",
     "labs.gradients.learning_rate = 1000000 is out of range [0.001, 1]"},
    {"gradients_target_huge", R"({"gradients": {"target": [1, -1e300]}})",
     "labs.gradients.target[1] = -1e+300 is out of range [-1000000, 1000000]"},
    {"geometry_gain_zero", R"({"geometry": {"g": [1, 0, 1]}})", "labs.geometry.g[1] = 0 is out of range [0.25, 2]"},
    {"geometry_eps_zero", R"({"geometry": {"eps": 0}})", "labs.geometry.eps = 0 is out of range [1e-08, 1]"},
    {"training_width_negative", R"({"training": {"width": -3}})", "labs.training.width = -3 is out of range [2, 256]"},
    {"training_width_huge", R"({"training": {"width": 1e9}})",
     "labs.training.width = 1000000000 is out of range [2, 256]"},
    {"training_ratio_one", R"({"training": {"train_ratio": 1}})",
     "labs.training.train_ratio = 1 is out of range [0.1, 0.9]"},
    {"training_p_zero", R"({"training": {"p": 0}})", "labs.training.p = 0 is out of range (0, 1]"},
    {"training_lr_zero", R"({"training": {"learning_rate": 0}})",
     "labs.training.learning_rate = 0 is out of range [0.0001, 1]"},
};

INSTANTIATE_TEST_SUITE_P(Cases, SceneFieldRule, ::testing::ValuesIn(kRuleCases),
                         [](const ::testing::TestParamInfo<RuleCase>& param_info) { return std::string(param_info.param.name); });

TEST(SceneFieldRule, AcceptsTheEndsOfEachRange) {
    const Scene s = parse_scene(scene_with_labs(
        R"({"explorer": {"delta": 1000, "eps": 1}, "worked": {"eps": 0}, "invariance": {"p": 1, "shift": 0},
            "gradients": {"sgd_delta": 0.1, "learning_rate": 1}, "training": {"train_ratio": 0.9}})"));
    EXPECT_EQ(s.session.explorer.delta, 1000.0);
    EXPECT_EQ(s.session.worked.eps, 0.0);
    EXPECT_EQ(s.session.invariance.spec.p, 1.0);
    EXPECT_EQ(s.session.gradients.sgd_delta, 0.1);
    EXPECT_EQ(s.session.training.data.train_ratio, 0.9);
}

// Round-off below a list's printed digits reads as 0; anything those digits can show stays.
TEST(DisplayPrecision, RoundOffBesideTheLargestIsZero) {
    EXPECT_EQ(at_display_precision(-1.257e-16, 1.342, 4), 0.0);
    EXPECT_EQ(at_display_precision(-1.257e-16, 1.342, 17), -1.257e-16);
    EXPECT_EQ(at_display_precision(1e-4, 1.0, 4), 1e-4);        // ½·10⁻⁴ < 10⁻⁴: shown
    EXPECT_EQ(at_display_precision(4e-5, 1.0, 4), 0.0);         // below half the last digit
    EXPECT_EQ(at_display_precision(0.3, -0.5, 6), 0.3);
    EXPECT_EQ(superscript(-205), "\u207b\u00b2\u2070\u2075");
}

}  // namespace
}  // namespace normlab
