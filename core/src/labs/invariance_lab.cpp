// NormLab core: the Invariance lab (see invariance_lab.hpp).
//
// [SECTION] State
// [SECTION] Table against the paper
// [SECTION] Relative change against δ
// [SECTION] Transforms on the Explorer
#include "normlab/labs/invariance_lab.hpp"
#include "normlab/base/i18n.hpp"

#include "normlab/base/random.hpp"
#include "normlab/labs/state_json.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <utility>

namespace normlab {

namespace {

using Index = Eigen::Index;

bool is_rescaling(Transform t) {
    return t == Transform::WeightMatrixRescaling || t == Transform::WeightVectorRescaling ||
           t == Transform::DatasetRescaling || t == Transform::SingleCaseRescaling;
}

bool acts_on_W(Transform t) {
    return t == Transform::WeightMatrixRescaling || t == Transform::WeightMatrixRecentering ||
           t == Transform::WeightVectorRescaling;
}

// "1.5×10⁻⁷", "0.25": numbers inside sentences.
std::string num(double v) { return format_number(v, 2); }

// "[−0.91, 1.68, 0.14]": a short vector inside a sentence, 3 significant digits.
std::string list(const Vec& v) {
    std::string s = "[";
    for (Index i = 0; i < v.size(); ++i) s += (i ? ", " : "") + format_number(v(i) + 0.0, 3);
    return s + "]";
}

std::string name_of(Transform t) { return std::string(formula(t)); }

bool same_matrix(const Mat& a, const Mat& b) {
    return a.rows() == b.rows() && a.cols() == b.cols() && a == b;
}

}  // namespace

// [SECTION] State ---------------------------------------------------------------------------

void invariance_lab_new_batch(InvarianceLabState& state, std::uint64_t seed, Index B, Index m, Index n) {
    B = std::clamp(B, kInvarianceMinCases, kInvarianceMaxCases);
    m = std::clamp(m, kInvarianceMinSize, kInvarianceMaxSize);
    n = std::clamp(n, kInvarianceMinSize, kInvarianceMaxSize);
    state.seed = seed;
    state.data = random_invariance_data(static_cast<unsigned>(seed), B, m, n);
}

namespace {

std::array<std::string_view, kNumTableNorms> table_norm_names() {
    std::array<std::string_view, kNumTableNorms> names{};
    for (int i = 0; i < kNumTableNorms; ++i) names[static_cast<size_t>(i)] = to_string(kTableNorms[i]);
    return names;
}

std::array<std::string_view, kNumTransforms> transform_names() {
    std::array<std::string_view, kNumTransforms> names{};
    for (int i = 0; i < kNumTransforms; ++i) names[static_cast<size_t>(i)] = to_string(kAllTransforms[i]);
    return names;
}

}  // namespace

nlohmann::json state_to_json(const InvarianceLabState& state) {
    const InvarianceData& d = state.data;
    return {{"seed", state.seed},
            {"x", mat_to_json(d.x)},
            {"W", mat_to_json(d.W)},
            {"g", vec_to_json(d.g)},
            {"b", vec_to_json(d.b)},
            {"gamma_W", vec_to_json(d.gamma_W)},
            {"gamma_x", vec_to_json(d.gamma_x)},
            {"shift", state.shift},
            {"delta", state.delta},
            {"tolerance", state.tolerance},
            {"eps", state.spec.eps},
            {"eps_mode", std::string(to_string(state.spec.eps_mode))},
            {"p", state.spec.p},
            {"k_rounding", std::string(to_string(state.spec.rounding))},
            {"curve_norms", flags_to_json(state.curve_norms, table_norm_names())},
            {"curve_transforms", flags_to_json(state.curve_transforms, transform_names())}};
}

// The batch: x, W, g, b, γ_W, γ_x as the file has them; with none of them but a seed, a new
// batch of the current sizes from that seed (as the lab's "New batch" draws it).
void state_from_json(SceneReader& in, InvarianceLabState& state) {
    const bool has_seed = in.read("seed", state.seed);
    InvarianceData& d = state.data;
    bool has_data = false;
    for (const char* key : {"x", "W"})
        if (in.read(key, key[0] == 'x' ? d.x : d.W)) has_data = true;
    for (const auto& [key, v] : {std::pair{"g", &d.g}, std::pair{"b", &d.b}, std::pair{"gamma_W", &d.gamma_W},
                                 std::pair{"gamma_x", &d.gamma_x}})
        if (in.read(key, *v)) has_data = true;
    if (has_seed && !has_data) invariance_lab_new_batch(state, state.seed, d.x.rows(), d.x.cols(), d.W.rows());

    const auto range = [&](const char* key, Index k, const char* what, Index lo, Index hi) {
        if (k < lo || k > hi)
            in.fail(key, "has " + std::to_string(k) + " " + what + ", expected " + std::to_string(lo) + " to " +
                             std::to_string(hi));
    };
    range("x", d.x.rows(), "cases (rows)", kInvarianceMinCases, kInvarianceMaxCases);
    range("x", d.x.cols(), "inputs (columns)", kInvarianceMinSize, kInvarianceMaxSize);
    range("W", d.W.rows(), "rows", kInvarianceMinSize, kInvarianceMaxSize);
    const Index m = d.x.cols(), n = d.W.rows();
    if (d.W.cols() != m)
        in.fail("W", "has " + std::to_string(d.W.cols()) + " columns, " + in.path_of("x") + " has " + std::to_string(m));
    for (const auto& [key, v, size, what] :
         {std::tuple{"g", &d.g, n, "n, the rows of W"}, std::tuple{"b", &d.b, n, "n, the rows of W"},
          std::tuple{"gamma_W", &d.gamma_W, m, "m, the columns of x"},
          std::tuple{"gamma_x", &d.gamma_x, m, "m, the columns of x"}})
        if (v->size() != size)
            in.fail(key, "has " + std::to_string(v->size()) + " entries, expected " + std::to_string(size) + " (" + what + ")");

    in.read("shift", state.shift, kInvarianceShiftRule);
    in.read("delta", state.delta, kInvarianceDeltaRule);
    in.read("tolerance", state.tolerance, kInvarianceToleranceRule);
    in.read("eps", state.spec.eps, kLabEpsRule);
    in.read("eps_mode", state.spec.eps_mode);
    in.read("p", state.spec.p, kFractionRule);
    in.read_choice("k_rounding", state.spec.rounding,
                   std::array<std::string_view, 2>{to_string(PartialRounding::Ceil), to_string(PartialRounding::Floor)},
                   std::array<PartialRounding, 2>{PartialRounding::Ceil, PartialRounding::Floor});
    in.read_flags("curve_norms", state.curve_norms, table_norm_names());
    in.read_flags("curve_transforms", state.curve_transforms, transform_names());
}

InvarianceData invariance_lab_data(const InvarianceLabState& state) {
    InvarianceData d = state.data;
    d.gamma_W *= state.shift;
    d.gamma_x *= state.shift;
    return d;
}

InvarianceTable invariance_lab_table(const InvarianceLabState& state) {
    return invariance_table(state.spec, invariance_lab_data(state), state.delta, state.tolerance);
}

// [SECTION] Table against the paper ---------------------------------------------------------

std::string_view to_string(CellNote note) {
    switch (note) {
        case CellNote::Agrees: return "agrees";
        case CellNote::TrivialDelta: return "trivial_delta";
        case CellNote::ZeroShift: return "zero_shift";
        case CellNote::WithinTolerance: return "within_tolerance";
        case CellNote::NegativeDelta: return "negative_delta";
        case CellNote::EpsBreaks: return "eps_breaks";
        case CellNote::Rounding: return "rounding";
        case CellNote::DataSpecific: return "data_specific";
    }
    return "unknown";
}

CellCheck check_cell(const InvarianceLabState& state, const InvarianceTable& table, int row, int col) {
    CellCheck c;
    const Norm norm = kTableNorms[row];
    const Transform t = kAllTransforms[col];
    c.residual = table.residual[row][col];
    c.measured = table.invariant(row, col);
    c.paper = paper_table1(norm, t);
    if (c.measured == c.paper) return c;

    const std::string tolerance = num(table.tolerance);
    if (c.measured) {   // ✓ where the paper says ✗
        const Vec& gamma = t == Transform::WeightMatrixRecentering ? state.data.gamma_W : state.data.gamma_x;
        if (is_rescaling(t) && table.delta == 1.0) {
            c.note = CellNote::TrivialDelta;
            c.why = "δ = 1 leaves x and W as they are, so every norm is trivially invariant to a re-scaling. "
                    "Move δ away from 1 to test the claim.";
        } else if (!is_rescaling(t) && (state.shift == 0.0 || gamma.isZero(0.0))) {
            c.note = CellNote::ZeroShift;
            c.why = "γ = 0 adds nothing, so every norm is trivially invariant to a re-centering. Make γ non-zero.";
        } else if (is_rescaling(t)) {
            c.note = CellNote::WithinTolerance;
            c.why = "The output moves, but by less than the tolerance " + tolerance + ": δ = " + num(table.delta) +
                    " is close to 1. The paper's ✗ means it moves for some δ: tighten the tolerance or move δ "
                    "further from 1.";
        } else {
            c.note = CellNote::WithinTolerance;
            c.why = "The output moves, but by less than the tolerance " + tolerance + ": γ (× " + num(state.shift) +
                    ") is small. The paper's ✗ means it moves for some γ: tighten the tolerance or enlarge γ.";
        }
        return c;
    }
    // ✗ where the paper says ✓
    NormSpec spec = state.spec;
    spec.norm = norm;
    if (is_rescaling(t) && table.delta < 0.0 &&
        invariance_residual(spec, t, invariance_lab_data(state), -table.delta) <= table.tolerance) {
        c.note = CellNote::NegativeDelta;
        c.why = "δ < 0: the paper's re-scaling invariances are for δ > 0. A negative δ flips the sign of the "
                "summed inputs it scales and so of their normalized outputs (ā′ = −ā); with |δ| the cell is ✓.";
        return c;
    }
    NormSpec exact = spec;
    exact.eps = 0.0;
    c.residual_without_eps = invariance_residual(exact, t, invariance_lab_data(state), table.delta);
    if (state.spec.eps > 0.0 && c.residual_without_eps <= table.tolerance) {
        c.note = CellNote::EpsBreaks;
        const bool inside = state.spec.eps_mode == EpsMode::InsideSqrt;
        c.why = "ε = " + num(state.spec.eps) + " is not negligible next to the " +
                (inside ? "variance" : "spread (σ or RMS)") + " of the transformed summed inputs, so the denominator " +
                (inside ? "√(σ² + ε)" : "σ + ε") +
                " no longer scales with them; with ε = 0 these cells are ✓. Exact invariance holds only as ε → 0.";
    } else if (c.residual < 1e-12) {
        c.note = CellNote::Rounding;
        c.why = "The change is double-precision rounding (below 10⁻¹²), not a real change: the tolerance " + tolerance +
                " is tighter than the arithmetic can be.";
    } else {
        c.note = CellNote::DataSpecific;
        c.why = "On this batch the output moves by more than the tolerance " + tolerance +
                " even with ε = 0. Try a new batch.";
    }
    return c;
}

CheckedTable check_table(const InvarianceLabState& state, const InvarianceTable& table) {
    CheckedTable t;
    for (int r = 0; r < kNumTableNorms; ++r)
        for (int c = 0; c < kNumTransforms; ++c) {
            t.cells[r][c] = check_cell(state, table, r, c);
            const CellCheck& check = t.cells[r][c];
            if (check.note == CellNote::Agrees) continue;
            const auto same =
                std::find_if(t.notes.begin(), t.notes.end(), [&](const TableNote& n) { return n.why == check.why; });
            const std::string name =
                std::string(display_name(kTableNorms[r])) + " · " + std::string(formula(kAllTransforms[c]));
            if (same == t.notes.end()) {
                t.notes.push_back({check.why, {name}});
                t.badge[r][c] = static_cast<int>(t.notes.size());
            } else {
                same->cells.push_back(name);
                t.badge[r][c] = static_cast<int>(same - t.notes.begin()) + 1;
            }
        }
    return t;
}

std::string invariance_residual_text(double residual) {
    if (!std::isfinite(residual)) return "—";
    return residual == 0.0 ? "0" : format_number(residual, 2);
}

namespace {

std::vector<std::string> table_columns() {
    std::vector<std::string> columns = {"Norm"};
    for (Transform t : kAllTransforms) columns.emplace_back(display_name(t));
    return columns;
}

}  // namespace

Table invariance_measured_table(const InvarianceLabState& state) {
    const InvarianceTable table = invariance_lab_table(state);
    Table t;
    t.name = "invariance_table_measured";
    t.title = tr("Table 1, measured: ‖y′ − y‖ / ‖y‖");
    t.caption = "✓ where the relative change is at most the tolerance " + format_number(state.tolerance, 2) + "; δ = " +
                format_number(state.delta) + ", ε = " + format_number(state.spec.eps);
    t.columns = table_columns();
    bool flags = false;
    for (int r = 0; r < kNumTableNorms; ++r) {
        std::vector<TableCell> row = {{std::string(display_name(kTableNorms[r]))}};
        for (int c = 0; c < kNumTransforms; ++c) {
            const CellCheck check = check_cell(state, table, r, c);
            TableCell cell;
            if (std::isfinite(check.residual)) {
                cell.text = std::string(check.measured ? "✓ " : "✗ ") + invariance_residual_text(check.residual);
                cell.tone = check.measured ? CellTone::Pass : CellTone::Fail;
            } else {
                cell.text = "cannot compute";
            }
            cell.flagged = check.note != CellNote::Agrees;
            flags = flags || cell.flagged;
            row.push_back(std::move(cell));
        }
        t.rows.push_back(std::move(row));
    }
    if (flags) t.note = "Outlined: the measurement differs from the paper's Table 1 (the Invariance lab says why).";
    return t;
}

Table invariance_paper_table() {
    Table t;
    t.name = "invariance_table_paper";
    t.title = "Table 1 of the RMSNorm paper (Zhang & Sennrich 2019)";
    t.caption = "✓: the paper states the output is invariant under the transform";
    t.columns = table_columns();
    for (Norm n : kTableNorms) {
        std::vector<TableCell> row = {{std::string(display_name(n))}};
        for (Transform tr : kAllTransforms) {
            const bool yes = paper_table1(n, tr);
            row.push_back({yes ? "✓" : "✗", yes ? CellTone::Pass : CellTone::Fail});
        }
        t.rows.push_back(std::move(row));
    }
    return t;
}

// [SECTION] Relative change against δ -------------------------------------------------------

std::vector<double> curve_deltas() {
    std::vector<double> deltas;
    deltas.reserve(kCurvePoints);
    for (int k = -30; k <= 30; ++k) deltas.push_back(std::pow(10.0, static_cast<double>(k) / 10.0));  // k = 0: δ = 1
    return deltas;
}

Plot invariance_curve_plot(const InvarianceLabState& state) {
    Plot plot;
    plot.name = "invariance_vs_delta";
    plot.title = tr("Relative change ‖y′ − y‖ / ‖y‖ against δ");
    plot.caption = "Relative change of the layer output under each transform, for δ from 10⁻³ to 10³; ε = " +
                   num(state.spec.eps) + (state.spec.eps_mode == EpsMode::InsideSqrt ? " inside the √" : " added to σ") +
                   ", batch of " + std::to_string(state.data.x.rows()) + " cases (seed " + std::to_string(state.seed) +
                   "); changes below 10⁻¹⁶ are drawn at 10⁻¹⁶.";
    plot.x = {"δ", Scale::Log10, kInvarianceMinDelta, kInvarianceMaxDelta};
    plot.y = {"‖y′ − y‖ / ‖y‖", Scale::Log10, std::nullopt, std::nullopt};

    const InvarianceData data = invariance_lab_data(state);
    const std::vector<double> deltas = curve_deltas();
    // A legend entry names what varies: with one transform ticked it moves to the title and the
    // entries are the norms (a short legend finds a corner free of curves), and likewise for one norm.
    const auto ticked = [](const auto& flags) { return std::count(flags.begin(), flags.end(), true); };
    const bool one_transform = ticked(state.curve_transforms) == 1;
    const bool one_norm = !one_transform && ticked(state.curve_norms) == 1;
    for (int r = 0; r < kNumTableNorms; ++r) {
        if (!state.curve_norms[static_cast<size_t>(r)]) continue;
        NormSpec spec = state.spec;
        spec.norm = kTableNorms[r];
        for (int c = 0; c < kNumTransforms; ++c) {
            if (!state.curve_transforms[static_cast<size_t>(c)]) continue;
            std::vector<double> residuals;   // one per δ of the grid
            residuals.reserve(deltas.size());
            for (double delta : deltas)
                residuals.push_back(std::max(invariance_residual(spec, kAllTransforms[c], data, delta), kResidualFloor));
            Series s;
            const std::string norm_name(display_name(spec.norm)), transform = name_of(kAllTransforms[c]);
            s.label = one_transform ? norm_name : one_norm ? transform : norm_name + " · " + transform;
            if (one_transform) plot.title = tr("Relative change ‖y′ − y‖ / ‖y‖ under {0}", transform);
            if (one_norm) plot.title = "Relative change ‖y′ − y‖ / ‖y‖ of " + norm_name;
            s.x = deltas;
            s.y = std::move(residuals);
            s.color = norm_color(spec.norm);
            s.line = palette_dash(c);
            s.marker = palette_marker(c);
            s.width = 2.5;
            plot.series.push_back(std::move(s));
        }
    }
    mark_delta_and_tolerance(plot, state);
    return plot;
}

bool same_curve_inputs(const InvarianceLabState& a, const InvarianceLabState& b) {
    return a.seed == b.seed && a.shift == b.shift && same_matrix(a.data.x, b.data.x) &&
           same_matrix(a.data.W, b.data.W) && same_matrix(a.data.g, b.data.g) && same_matrix(a.data.b, b.data.b) &&
           same_matrix(a.data.gamma_W, b.data.gamma_W) && same_matrix(a.data.gamma_x, b.data.gamma_x) &&
           a.spec.eps == b.spec.eps && a.spec.eps_mode == b.spec.eps_mode && a.spec.p == b.spec.p &&
           a.spec.rounding == b.spec.rounding && a.curve_norms == b.curve_norms &&
           a.curve_transforms == b.curve_transforms;
}

void mark_delta_and_tolerance(Plot& plot, const InvarianceLabState& state) {
    RefLine tolerance;
    tolerance.orientation = RefLine::Orientation::Horizontal;
    tolerance.value = state.tolerance;
    tolerance.label = tr("tolerance {0}", num(state.tolerance));
    tolerance.color = {200, 30, 30};
    RefLine delta;
    delta.orientation = RefLine::Orientation::Vertical;
    delta.value = state.delta;
    delta.label = "δ = " + num(state.delta);
    plot.ref_lines = {tolerance, delta};
}

// [SECTION] Transforms on the Explorer ------------------------------------------------------

Vec explorer_shift(const InvarianceLabState& state, Index size, int stream) {
    Rng rng(derive_seed(state.seed, static_cast<std::uint64_t>(stream)));
    Vec gamma(size);
    for (Index j = 0; j < size; ++j) gamma(j) = std::round(rng.normal() * 100.0) / 100.0 * state.shift + 0.0;
    return gamma;
}

ExplorerTransformResult apply_to_explorer(ExplorerState& explorer, Transform t, const InvarianceLabState& state) {
    ExplorerTransformResult r;
    if (acts_on_W(t) && !explorer.use_W) {
        r.what = "The Explorer has no W (a = x): switch W on there to transform it.";
        return r;
    }
    // The Explorer's one case as a batch of one: x 1×m, W n×m.
    const Index m = explorer.x.size();
    InvarianceData d;
    d.x = explorer.x.transpose();
    d.W = explorer.W;
    d.g = explorer.g;
    d.b = explorer.b;
    d.gamma_x = explorer_shift(state, m, 0);
    d.gamma_W = explorer_shift(state, m, 1);
    const Transform applied = t == Transform::SingleCaseRescaling ? Transform::DatasetRescaling : t;
    const InvarianceData out = apply_transform(applied, d, state.delta);
    const double largest = std::max(out.x.cwiseAbs().maxCoeff(), out.W.cwiseAbs().maxCoeff());
    const double smallest_nonzero = std::min(d.x.isZero(0.0) ? 1.0 : out.x.cwiseAbs().maxCoeff(),
                                             d.W.isZero(0.0) ? 1.0 : out.W.cwiseAbs().maxCoeff());
    if (!(largest <= 1e100) || smallest_nonzero < 1e-100) {
        r.what = "Not applied: the Explorer's numbers would leave the range a double can hold well "
                 "(|value| between 10⁻¹⁰⁰ and 10¹⁰⁰). Reset x or W there first.";
        return r;
    }

    const ExplorerResults before = compute_explorer(explorer);
    explorer.x = out.x.row(0).transpose();
    explorer.W = out.W;
    const ExplorerResults after = compute_explorer(explorer);
    r.applied = true;
    r.layernorm_before = before.layernorm.y.row(0).transpose();
    r.layernorm_after = after.layernorm.y.row(0).transpose();
    r.rmsnorm_before = before.rmsnorm.y.row(0).transpose();
    r.rmsnorm_after = after.rmsnorm.y.row(0).transpose();
    const auto relative = [](const Vec& was, const Vec& now) {
        const double base = was.norm();
        return base > 0.0 ? (now - was).norm() / base : (now - was).norm();
    };
    r.layernorm_change = relative(r.layernorm_before, r.layernorm_after);
    r.rmsnorm_change = relative(r.rmsnorm_before, r.rmsnorm_after);

    const std::string delta = "δ = " + num(state.delta);
    switch (applied) {
        case Transform::WeightMatrixRescaling: r.what = "W′ = δW with " + delta + ": every entry of the Explorer's W scaled."; break;
        case Transform::WeightMatrixRecentering:
            r.what = "W′ = W + 1γᵀ: γ = " + list(d.gamma_W) + " added to every row of the Explorer's W.";
            break;
        case Transform::WeightVectorRescaling: {
            Vec factors(out.W.rows());   // n: δᵢ = δ^(i/n)
            for (Index i = 0; i < factors.size(); ++i)
                factors(i) = std::pow(state.delta, static_cast<double>(i + 1) / static_cast<double>(factors.size()));
            r.what = "w′ᵢ = δᵢwᵢ: row i of the Explorer's W scaled by δᵢ = δ^(i/n) = " + list(factors) +
                     " (" + delta + ").";
            break;
        }
        case Transform::DatasetRescaling: r.what = "x′ = δx with " + delta + ": the Explorer's x scaled."; break;
        case Transform::DatasetRecentering:
            r.what = "x′ = x + γ: γ = " + list(d.gamma_x) + " added to the Explorer's x.";
            break;
        case Transform::SingleCaseRescaling: break;   // applied as DatasetRescaling above
    }
    return r;
}

}  // namespace normlab
