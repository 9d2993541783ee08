// NormLab core: the Worked example lab — its state (a write-up's claims as the user typed them)
// and the verdicts on them, built on explain.hpp (every step of LayerNorm and RMSNorm with its
// numbers, and which formula reproduces claimed outputs at their printed precision).
//
// The vector is the Explorer's x (session.explorer.x), so that both labs show the same one.
#pragma once

#include "normlab/norm/explain.hpp"
#include "normlab/base/number_rule.hpp"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace normlab {

// What the write-up calls its formula; nullopt: it does not say.
// (Formula::LayerNormPopulation stands for "LayerNorm": that is how LayerNorm is defined.)
using ClaimedName = std::optional<Formula>;

// ε ∈ [0, 1]: 0 is the textbook formula (the explainer names a division by zero itself).
inline constexpr NumberRule kWorkedEpsRule{0.0, 1.0};

struct WorkedState {
    double eps = 1e-5;                  // ε ∈ [0, 1] (kWorkedEpsRule), inside the square roots (PyTorch's default)
    // The default is the common misconception (see explain.hpp): for x = [2, 4, 6, 8],
    // "(x − mean)/std with n − 1" called RMSNorm.
    ClaimedName claimed_name = Formula::RMSNorm;
    std::string claimed_outputs = "−1.16, −0.39, 0.39, 1.16";   // one per entry of x, as printed
    std::string claimed_steps = "mean = 5\nstd = 2.58";          // "lhs = rhs", one per line (or ';')
};

class SceneReader;   // state_json.hpp

// Scene file (scene.hpp, state_json.hpp): every field by name; missing keys keep `state`'s values.
// claimed_name: "layernorm", "layernorm_sample", "rmsnorm", "l2norm", or null (the write-up names none).
nlohmann::json state_to_json(const WorkedState& state);
void state_from_json(SceneReader& in, WorkedState& state);

// One-click examples of write-ups. Each sets x (through the Explorer) and the claim.
struct WorkedPreset {
    const char* label;       // button text
    const char* help;        // one sentence for the tooltip
    double x[4];             // the vector the write-up works on
    ClaimedName name;
    const char* outputs;
    const char* steps;
};
inline constexpr int kWorkedPresetCount = 3;
extern const WorkedPreset kWorkedPresets[kWorkedPresetCount];

// Sets the claim of a preset (x is the caller's: it belongs to the Explorer).
void apply_preset(WorkedState& state, const WorkedPreset& preset);
Vec preset_x(const WorkedPreset& preset);   // 4 entries

// The claimed outputs split into their printed numbers: commas, semicolons or white space
// between them, optional enclosing brackets ("[−1.16, −0.39, 0.39, 1.16]"). Empty for blank text.
std::vector<std::string> split_claimed_outputs(std::string_view text);

// The claimed steps, one per line or ';'-separated item; blank ones dropped, spaces trimmed.
std::vector<std::string> split_claimed_steps(std::string_view text);

enum class ClaimStatus {
    Empty,     // no outputs claimed: nothing to judge
    Invalid,   // the claim cannot be read (error says why)
    Correct,   // the named formula reproduces the numbers (or, unnamed: some formula does)
    Wrong,     // it does not
};

struct StepCheck {
    std::string text;                  // the claimed step as typed (trimmed)
    std::optional<StepVerdict> verdict;   // set when the step could be read
    std::string error;                 // why it could not, e.g. "a step needs the form "lhs = rhs""
};

struct WorkedResults {
    Explanation explanation;           // every step of both norms for x with the state's ε
    ClaimStatus status = ClaimStatus::Empty;
    std::optional<ClaimVerdict> verdict;   // set for Correct and Wrong: every formula's fit
    std::string headline;              // a few words a lecture hall can read: "Not RMSNorm" (the details: verdict->summary)
    std::string error;                 // Invalid: what is wrong with the claim, in plain words
    std::vector<StepCheck> steps;      // one per claimed step
};

// x: the vector (n ≥ 1 entries, finite). Throws std::invalid_argument when x is empty.
WorkedResults compute_worked(const WorkedState& state, const Vec& x);

}  // namespace normlab
