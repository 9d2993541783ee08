// NormLab core: the Worked example lab (see worked_lab.hpp).
//
// [SECTION] Scene file
// [SECTION] Presets
// [SECTION] Reading a claim
// [SECTION] Verdicts
#include "normlab/labs/worked_lab.hpp"

#include "normlab/labs/state_json.hpp"
#include "normlab/base/i18n.hpp"
#include "normlab/base/text.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace normlab {

// [SECTION] Scene file ----------------------------------------------------------------------

namespace {
constexpr std::array<std::string_view, 4> kFormulaNames{"layernorm", "layernorm_sample", "rmsnorm", "l2norm"};
constexpr std::array<Formula, 4> kFormulas{Formula::LayerNormPopulation, Formula::LayerNormSample, Formula::RMSNorm,
                                           Formula::L2Norm};
}  // namespace

nlohmann::json state_to_json(const WorkedState& state) {
    nlohmann::json name = nullptr;
    for (std::size_t i = 0; i < kFormulas.size(); ++i)
        if (state.claimed_name == kFormulas[i]) name = std::string(kFormulaNames[i]);
    return {{"eps", state.eps},
            {"claimed_name", name},
            {"claimed_outputs", state.claimed_outputs},
            {"claimed_steps", state.claimed_steps}};
}

void state_from_json(SceneReader& in, WorkedState& state) {
    in.read("eps", state.eps, kWorkedEpsRule);
    if (const nlohmann::json* name = in.get("claimed_name"); name != nullptr && name->is_null()) {
        state.claimed_name.reset();
    } else if (name != nullptr) {
        Formula f = Formula::RMSNorm;
        in.read_choice("claimed_name", f, kFormulaNames, kFormulas);
        state.claimed_name = f;
    }
    in.read("claimed_outputs", state.claimed_outputs);
    in.read("claimed_steps", state.claimed_steps);
}

// [SECTION] Presets -------------------------------------------------------------------------

const WorkedPreset kWorkedPresets[kWorkedPresetCount] = {
    {tr_later("Misconception: n−1 std called RMSNorm"),
     tr_later("A write-up computes (x − mean)/std with the n−1 std for [2, 4, 6, 8] and calls it RMSNorm: it is "
              "LayerNorm with the sample std; RMSNorm gives [0.365, 0.730, 1.095, 1.461]."),
     {2, 4, 6, 8}, Formula::RMSNorm, "−1.16, −0.39, 0.39, 1.16", "mean = 5\nstd = 2.58"},
    {tr_later("Arithmetic slip"),
     tr_later("LayerNorm of [200, 300, 150, 250] with the right outputs, but one intermediate step, "
              "(300 − 225)² = 2025, is wrong (it is 5625)."),
     {200, 300, 150, 250}, Formula::LayerNormPopulation, "−0.447, 1.342, −1.342, 0.447",
     "mean = 225\n(300 − 225)² = 2025"},
    {tr_later("Correct RMSNorm"),
     tr_later("RMSNorm of [2, 4, 6, 8] done right: mean of the squares 30, RMS √30 ≈ 5.477."),
     {2, 4, 6, 8}, Formula::RMSNorm, "0.365, 0.730, 1.095, 1.461", "(4 + 16 + 36 + 64)/4 = 30\nrms = 5.477"},
};

void apply_preset(WorkedState& state, const WorkedPreset& preset) {
    state.claimed_name = preset.name;
    state.claimed_outputs = preset.outputs;
    state.claimed_steps = preset.steps;
}

Vec preset_x(const WorkedPreset& preset) { return Eigen::Map<const Vec>(preset.x, 4); }

// [SECTION] Reading a claim -----------------------------------------------------------------

namespace {

// Pieces of text between any of the separators, trimmed, blank ones dropped.
std::vector<std::string> split(std::string_view text, std::string_view separators) {
    std::vector<std::string> out;
    size_t start = 0;
    for (size_t i = 0; i <= text.size(); ++i) {
        if (i < text.size() && separators.find(text[i]) == std::string_view::npos) continue;
        const std::string_view piece = trim_spaces(text.substr(start, i - start));
        if (!piece.empty()) out.emplace_back(piece);
        start = i + 1;
    }
    return out;
}

// The short name a write-up would use: "LayerNorm", "RMSNorm", …
std::string short_name(Formula f) {
    switch (f) {
        case Formula::LayerNormPopulation: return "LayerNorm";
        case Formula::LayerNormSample: return "LayerNorm with the sample std";
        case Formula::RMSNorm: return "RMSNorm";
        case Formula::L2Norm: return "L2-Norm";
    }
    return "";
}

// "RMSNorm", "LayerNorm or L2-Norm": every formula that reproduces the claim.
std::string names_of(const std::vector<Formula>& matches) {
    std::string s = short_name(matches.front());
    for (size_t i = 1; i < matches.size(); ++i) s += " or " + short_name(matches[i]);
    return s;
}

}  // namespace

std::vector<std::string> split_claimed_outputs(std::string_view text) {
    text = trim_spaces(text);
    if (!text.empty() && text.front() == '[') text.remove_prefix(1);
    if (!text.empty() && text.back() == ']') text.remove_suffix(1);
    return split(text, ",; \t\r\n");
}

std::vector<std::string> split_claimed_steps(std::string_view text) { return split(text, "\n;"); }

// [SECTION] Verdicts ------------------------------------------------------------------------

WorkedResults compute_worked(const WorkedState& state, const Vec& x) {
    WorkedResults r;
    r.explanation = explain(x, state.eps);
    const Explanation& e = r.explanation;

    for (const std::string& step : split_claimed_steps(state.claimed_steps)) {
        StepCheck check;
        check.text = step;
        try {
            check.verdict = check_step(e, step);
        } catch (const std::invalid_argument& err) {
            check.error = err.what();
        }
        r.steps.push_back(std::move(check));
    }

    const std::vector<std::string> outputs = split_claimed_outputs(state.claimed_outputs);
    if (outputs.empty()) return r;
    if (static_cast<Eigen::Index>(outputs.size()) != x.size()) {
        r.status = ClaimStatus::Invalid;
        r.error = "The claim lists " + std::to_string(outputs.size()) + " output" + (outputs.size() == 1 ? "" : "s") +
                  " but x has " + std::to_string(x.size()) + " entries: type one claimed output per entry of x.";
        return r;
    }
    try {
        r.verdict = check_claim(e, outputs);
    } catch (const std::invalid_argument& err) {
        r.status = ClaimStatus::Invalid;
        r.error = std::string("Cannot read the claimed outputs: ") + err.what() + ".";
        return r;
    }
    const std::vector<Formula>& matches = r.verdict->matches;
    const bool any = !matches.empty();
    if (state.claimed_name) {
        const Formula named = *state.claimed_name;
        const bool holds = std::find(matches.begin(), matches.end(), named) != matches.end();
        r.status = holds ? ClaimStatus::Correct : ClaimStatus::Wrong;
        r.headline = holds ? tr("Yes, this is {0}", short_name(named)) : tr("Not {0}", short_name(named));
    } else {
        r.status = any ? ClaimStatus::Correct : ClaimStatus::Wrong;
        r.headline = any ? "This is " + names_of(matches) : "No formula reproduces these numbers";
    }
    return r;
}

}  // namespace normlab
