// NormLab core: the Invariance lab — its state, and what it computes beyond invariance.hpp.
//
// [SECTION] State                    — the lab's own batch, δ, γ, ε, the tolerance, the curves shown
// [SECTION] Table against the paper  — each measured cell, and why it differs from Table 1 where it does
// [SECTION] Relative change against δ — the curves, as a Plot (exportable as SVG / CSV)
// [SECTION] Transforms on the Explorer — one transform applied to the Explorer's x or W
//
// The measurement itself is invariance.hpp's: residual = ‖y′ − y‖ / ‖y‖ for y = norm(x Wᵀ) ⊙ g + b.
#pragma once

#include "normlab/labs/explorer_lab.hpp"
#include "normlab/norm/invariance.hpp"
#include "normlab/base/number_rule.hpp"
#include "normlab/plot/plot.hpp"
#include "normlab/plot/table.hpp"

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace normlab {

class SceneReader;   // state_json.hpp

// [SECTION] State ---------------------------------------------------------------------------

inline constexpr Eigen::Index kInvarianceMinCases = 2;    // B: BatchNorm needs a batch
inline constexpr Eigen::Index kInvarianceMaxCases = 32;
inline constexpr Eigen::Index kInvarianceMinSize = 2;     // m and n
inline constexpr Eigen::Index kInvarianceMaxSize = 32;
inline constexpr double kInvarianceMinDelta = 1e-3;       // δ's range, also the curves' x axis
inline constexpr double kInvarianceMaxDelta = 1e3;
// What the lab's fields accept (the GUI and scene files alike; ε: kLabEpsRule, p: kFractionRule).
inline constexpr NumberRule kInvarianceDeltaRule{kInvarianceMinDelta, kInvarianceMaxDelta};
inline constexpr NumberRule kInvarianceShiftRule{0.0, 10.0};   // the re-centerings' size
inline constexpr NumberRule kInvarianceToleranceRule{0.0, 1.0};  // a cell is ✓ when its residual ≤ tolerance

// Invariants (kept by invariance_lab_new_batch): x is B×m, W n×m, g and b n, γ_W and γ_x m,
// with B, m, n inside the ranges above.
struct InvarianceLabState {
    std::uint64_t seed = 1;        // the batch below is random_invariance_data(seed, B, m, n)
    InvarianceData data = random_invariance_data(1);   // x 8×6, W 5×6, g 1, b 0, γ_W and γ_x 6 (N(0, 1))
    double shift = 1.0;            // the re-centerings add shift·γ_W to every row of W, shift·γ_x to every case
    double delta = 10.0;           // δ ∈ [1e-3, 1e3] of the re-scalings
    double tolerance = 1e-4;       // a cell is ✓ (invariant) when residual ≤ tolerance
    NormSpec spec{Norm::LayerNorm, 1e-5};   // ε (PyTorch's default), its placement, pRMSNorm's p; .norm unused
    // The curves drawn: every chosen norm (kTableNorms order) under every chosen transform
    // (kAllTransforms order). Default: LayerNorm, RMSNorm and pRMSNorm under W′ = δW, where ε
    // alone ends the invariance (first for pRMSNorm, whose RMS runs over k = 1 entry here).
    std::array<bool, kNumTableNorms> curve_norms{false, false, true, true, true};
    std::array<bool, kNumTransforms> curve_transforms{true, false, false, false, false, false};
};

// Scene file (scene.hpp, state_json.hpp): every field by name; missing keys keep `state`'s values.
nlohmann::json state_to_json(const InvarianceLabState& state);
void state_from_json(SceneReader& in, InvarianceLabState& state);

// A new batch of B cases, m inputs and n outputs (each clamped to its range) from `seed`.
void invariance_lab_new_batch(InvarianceLabState& state, std::uint64_t seed, Eigen::Index B, Eigen::Index m,
                              Eigen::Index n);

// The data the transforms act on: state.data with γ_W and γ_x multiplied by state.shift.
InvarianceData invariance_lab_data(const InvarianceLabState& state);

// Every cell of Table 1 for the lab's data, δ, ε and tolerance (invariance.hpp's invariance_table).
InvarianceTable invariance_lab_table(const InvarianceLabState& state);

// [SECTION] Table against the paper ---------------------------------------------------------

// Why a measured cell differs from the paper's Table 1.
enum class CellNote {
    Agrees,            // measured ✓/✗ equals the paper's
    TrivialDelta,      // ✓ where the paper says ✗: δ = 1, the re-scaling changes nothing
    ZeroShift,         // ✓ where the paper says ✗: γ = 0, the re-centering changes nothing
    WithinTolerance,   // ✓ where the paper says ✗: the change is real but smaller than the tolerance
    NegativeDelta,     // ✗ where the paper says ✓: δ < 0 flips the output's sign; the paper's claims are for δ > 0
    EpsBreaks,         // ✗ where the paper says ✓: with ε = 0 the cell would be ✓
    Rounding,          // ✗ where the paper says ✓: a change of rounding size, the tolerance is tighter
    DataSpecific,      // ✗ where the paper says ✓ for another reason on this data
};

std::string_view to_string(CellNote note);   // "agrees", "trivial_delta", …, "negative_delta" (the CLI's JSON)

struct CellCheck {
    double residual = 0.0;   // ‖y′ − y‖ / ‖y‖
    bool measured = false;   // residual ≤ tolerance
    bool paper = false;      // paper_table1
    CellNote note = CellNote::Agrees;
    // Two or three sentences for the class, empty when the cell agrees. They name no cell and
    // no cell's own number, so that every cell with the same reason has the same text.
    std::string why;
    double residual_without_eps = 0.0;   // the residual with ε = 0, for ✗ where the paper says ✓
};

// The cell of `table` (computed by invariance_lab_table(state)) in row `row` (kTableNorms index)
// and column `col` (kAllTransforms index), compared with the paper.
CellCheck check_cell(const InvarianceLabState& state, const InvarianceTable& table, int row, int col);

// Every cell checked, and the distinct reasons: notes[k] holds the cells with badge k + 1, in
// the order met (rows of kTableNorms, columns of kAllTransforms). The GUI's table and the CLI's
// `invariance` print these same reasons.
struct TableNote {
    std::string why;                  // the reason (check_cell's words)
    std::vector<std::string> cells;   // "LayerNorm · w′ᵢ = δᵢwᵢ", …
};
struct CheckedTable {
    CellCheck cells[kNumTableNorms][kNumTransforms];
    int badge[kNumTableNorms][kNumTransforms] = {};   // 0: agrees with the paper
    std::vector<TableNote> notes;
};
CheckedTable check_table(const InvarianceLabState& state, const InvarianceTable& table);

// A residual as the tables show it: "—" when it could not be computed, "0", or 2 significant digits.
std::string invariance_residual_text(double residual);

// The lab's two tables as figures (table.hpp), rows in kTableNorms order, columns the paper's
// transforms (kAllTransforms): "invariance_table_measured" — each cell "✓ 3.1×10⁻¹⁶" or "✗ 0.41",
// Pass/Fail by the tolerance, flagged where it differs from the paper (check_cell); and
// "invariance_table_paper" — the paper's Table 1, ✓ / ✗.
Table invariance_measured_table(const InvarianceLabState& state);
Table invariance_paper_table();

// [SECTION] Relative change against δ -------------------------------------------------------

// δ = 10^(−3 + k/10), k = 0..60, δ = 1 (k = 30) included: there every re-scaling is the
// identity, and each re-scaling curve dips to 0 (drawn at kResidualFloor) exactly at δ = 1.
inline constexpr int kCurvePoints = 61;
inline constexpr double kResidualFloor = 1e-16;     // smaller changes (double rounding, exact 0) are drawn here

// The δ grid of the curves: kCurvePoints values, 10 per decade over [1e-3, 1e3], δ = 1 among them.
std::vector<double> curve_deltas();

// Plot "invariance_vs_delta": for every chosen norm × transform, the relative change against δ
// (both axes log10, y from the data), each value below kResidualFloor drawn at the floor. Colour by norm (LayerNorm
// blue and RMSNorm vermillion as in the Explorer, BatchNorm green, WeightNorm purple, pRMSNorm
// orange), dash and marker by transform. Reference lines: the tolerance (horizontal) and the
// current δ (vertical), set by mark_delta_and_tolerance.
Plot invariance_curve_plot(const InvarianceLabState& state);

// Whether two states give the same curves (everything but δ and the tolerance is equal), so that
// a view can keep a computed plot and only move its reference lines.
bool same_curve_inputs(const InvarianceLabState& a, const InvarianceLabState& b);

// Replaces the plot's reference lines by the state's tolerance and δ.
void mark_delta_and_tolerance(Plot& plot, const InvarianceLabState& state);

// [SECTION] Transforms on the Explorer ------------------------------------------------------

// The shift γ the Explorer's re-centerings add (size entries): state.shift times seeded N(0, 1)
// draws rounded to 0.01, the same for the same seed and size. stream 0: γ_x, 1: γ_W.
Vec explorer_shift(const InvarianceLabState& state, Eigen::Index size, int stream);

struct ExplorerTransformResult {
    bool applied = false;
    std::string what;           // what changed, or why nothing did
    Vec layernorm_before, layernorm_after;   // n: the Explorer's LayerNorm outputs y at its own δ
    Vec rmsnorm_before, rmsnorm_after;       // n: the same for RMSNorm
    double layernorm_change = 0.0;           // max_i |y_after − y_before|
    double rmsnorm_change = 0.0;
};

// Applies t with the lab's δ (and explorer_shift for the re-centerings) to the Explorer's one case
// x (m) and W (n×m), and reports how its LayerNorm and RMSNorm outputs moved. Single-case
// re-scaling is dataset re-scaling there (one case). Refuses the weight transforms while the
// Explorer has no W, and any transform whose result would leave the double range.
ExplorerTransformResult apply_to_explorer(ExplorerState& explorer, Transform t, const InvarianceLabState& state);

}  // namespace normlab
