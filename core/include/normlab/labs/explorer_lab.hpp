// NormLab core: the Explorer lab — x, W, g, b, ε and δ of one layer, the edits that keep their
// shapes consistent, and LayerNorm and RMSNorm of a = W x side by side.
//
// [SECTION] Explorer state   — x, W, g, b, ε and δ of the Explorer lab
// [SECTION] Explorer edits   — resizing and presets that keep the shapes consistent
// [SECTION] Explorer results — LayerNorm and RMSNorm of a = W x, side by side
// [SECTION] Number lists     — "2, 4, 6, 8" ⇄ Vec, with errors a user can act on
//
// Data flows one way (docs/ARCHITECTURE.md, Data flow): the app edits the state through these
// functions, calls compute_explorer() and draws the results; nothing here knows about windows.
#pragma once

#include "normlab/base/number_rule.hpp"
#include "normlab/norm/norm.hpp"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace normlab {

class SceneReader;   // state_json.hpp

// [SECTION] Explorer state ------------------------------------------------------------------

inline constexpr Eigen::Index kExplorerMinSize = 2;    // smallest m and n
inline constexpr Eigen::Index kExplorerMaxSize = 64;   // largest m and n
inline constexpr double kExplorerMinDelta = 1e-3;
inline constexpr double kExplorerMaxDelta = 1e3;
// What the Explorer's fields accept (the GUI and scene files alike; ε: kLabEpsRule).
inline constexpr NumberRule kExplorerDeltaRule{kExplorerMinDelta, kExplorerMaxDelta};
inline constexpr NumberRule kExplorerEntryRule{-1e6, 1e6};   // each entry of x, W, g, b: a = Wx stays finite

// What the Explorer's δ re-scales (paper Table 1): the input, x' = δx, or the weight matrix,
// W' = δW. Without W (a = x) both mean a' = δx.
enum class ScaleTarget { X, W };

// Invariants (kept by the edits below, checked by compute_explorer):
//   x has m ∈ [2, 64] entries, W is n×m with n ∈ [2, 64] (kept while use_W is off),
//   g and b have explorer_outputs() entries: n with W, m without.
struct ExplorerState {
    Vec x = (Vec(4) << 2, 4, 6, 8).finished();   // m: the paper explainer's example
    Mat W = Mat::Identity(4, 4);                  // n×m
    bool use_W = true;                            // false: a = x
    bool square_W = true;                         // n follows m: W stays m×m (the "n = m" box)
    Vec g = Vec::Ones(4);                         // gain, one per output
    Vec b = Vec::Zero(4);                         // bias, one per output
    double delta = 1.0;                           // δ ∈ [1e-3, 1e3]
    ScaleTarget target = ScaleTarget::X;
    double eps = 1e-5;                            // ε ∈ (0, 1] (kLabEpsRule)
    EpsMode eps_mode = EpsMode::InsideSqrt;
    std::uint64_t seed = 1;                       // seed of the next Random preset; each use advances it
};

// Number of outputs: n = W.rows() with W, m = x.size() without.
Eigen::Index explorer_outputs(const ExplorerState& state);

// Scene file (scene.hpp, state_json.hpp): every field by name; missing keys keep `state`'s values.
nlohmann::json state_to_json(const ExplorerState& state);
void state_from_json(SceneReader& in, ExplorerState& state);

// [SECTION] Explorer edits ------------------------------------------------------------------

// Resizes to m inputs and n weight rows (each clamped to [2, 64]), keeping every existing
// entry. New entries: x 0, W 1 on the diagonal and 0 elsewhere (so an identity stays one),
// g 1, b 0. g and b follow explorer_outputs().
void explorer_resize(ExplorerState& state, Eigen::Index m, Eigen::Index n);

// Turns W on or off; g and b follow the new number of outputs.
void explorer_set_use_W(ExplorerState& state, bool use_W);

// Resizes x to m entries (clamped to [2, 64]); W follows: m×m when square_W, else n×m.
void explorer_set_m(ExplorerState& state, Eigen::Index m);

// Turns "n follows m" on or off; on makes W square at once (m×m).
void explorer_set_square_W(ExplorerState& state, bool square_W);

// Replaces x (2..64 entries; throws std::invalid_argument otherwise); W becomes n×m with
// n = m when state.square_W, else keeps its n rows.
void explorer_set_x(ExplorerState& state, const Vec& x);

Vec explorer_example_x();   // [2, 4, 6, 8]: the paper explainer's example
Vec explorer_large_x();     // [200, 300, 150, 250]: large, far from zero mean

// x_i ~ N(1, 2²) (normlab::Rng, the same everywhere), rounded to 0.01: readable, and not
// centred, so that LayerNorm and RMSNorm differ.
// Uses state.seed and advances it.
void explorer_random_x(ExplorerState& state);

// W = I (n×m: ones on the diagonal, zeros elsewhere).
void explorer_identity_W(ExplorerState& state);

// W_ij ~ N(0, 1/m) (Xavier-like), rounded to 0.01. Uses state.seed and advances it.
void explorer_random_W(ExplorerState& state);

// [SECTION] Explorer results ----------------------------------------------------------------

struct ExplorerResults {
    LayerForward layernorm;       // a, ā, y: 1×n, LayerNorm (paper eq. 2–3) at the chosen δ
    LayerForward rmsnorm;         // a, ā, y: 1×n, RMSNorm (paper eq. 4) at the chosen δ
    CaseStats stats;              // μ, σ₀, RMS of a at the chosen δ (no ε)
    LayerForward layernorm_ref;   // the same at δ = 1
    LayerForward rmsnorm_ref;
    double layernorm_shift = 0;   // max_i |y_i − y_i(δ = 1)|: 0 where the norm is invariant
    double rmsnorm_shift = 0;
};

// a = x' W'ᵀ with x' = δx or W' = δW, then both norms through core's layer_forward with the
// state's ε and ε placement. Throws std::invalid_argument when the invariants above are broken.
ExplorerResults compute_explorer(const ExplorerState& state);

// [SECTION] Number lists --------------------------------------------------------------------

struct ParsedList {
    std::optional<Vec> values;   // set on success
    std::string error;           // set on failure, e.g. `entry 3 ("4,,") is not a number`
};

// Parses numbers separated by commas, semicolons or white space; one pair of enclosing
// brackets ("[2, 4, 6, 8]", as Python prints) is allowed. Rejects NaN, ±inf, empty entries,
// entries `rule` refuses ("entry 2 = 1e+300 is out of range [-1000000, 1000000]") and counts
// outside [min_count, max_count].
ParsedList parse_number_list(std::string_view text, Eigen::Index min_count, Eigen::Index max_count,
                             const NumberRule& rule = kAnyFinite);

// "2, 4, 6, 8": each entry with up to 6 significant digits.
std::string format_number_list(const Vec& values);

}  // namespace normlab
