// `normlab-cli invariance`: the paper's Table 1, measured on seeded random data (core's
// invariance_table), as JSON or as a text table.
#include "commands.hpp"
#include "options.hpp"

#include "normlab/labs/invariance_lab.hpp"
#include "normlab/base/input_error.hpp"
#include "normlab/norm/invariance.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>

namespace normlab::cli {

const char kInvarianceHelp[] = R"(Usage: normlab-cli invariance [--delta D] [--seed S] [--eps E] [--tolerance T] [--json]

Measures which transformations each norm ignores (the RMSNorm paper's Table 1), numerically: for a
seeded random batch x (8 cases × 6), weights W (5 × 6) and shifts γ, each transform is applied and
the relative change ‖y′ − y‖/‖y‖ of the layer's output is measured. A cell is invariant (✓) when
that change is at most the tolerance. Where a cell differs from the paper, a numbered note below
the table says why (the same reasons as the GUI's Invariance lab).

Options:
  --delta D      the scale δ of the re-scaling transforms (default 7.5; not 0). The paper's
                 invariances are for δ > 0: a negative δ flips the sign of every normalized output,
                 and the cells it turns ✗ say so
  --seed S       the random data's seed (default 1)
  --eps E        ε ≥ 0, inside the square root (default 1e-12)
  --tolerance T  the ✓ threshold (default 1e-6)
  --json         {"table": {NORM: {TRANSFORM: bool}}, "residuals": {NORM: {TRANSFORM: number}},
                 "disagrees_with_paper": [{"norm", "transform", "reason", "why"}], ...}

Norms: batchnorm, weightnorm, layernorm, rmsnorm, prmsnorm (p = 6.25%). Transforms:
weight_matrix_rescaling, weight_matrix_recentering, weight_vector_rescaling, dataset_rescaling,
dataset_recentering, single_case_rescaling.
)";

int run_invariance(const Args& args) {
    const Options opt("invariance", args,
                      {{"delta", true}, {"seed", true}, {"eps", true}, {"tolerance", true}, {"json", false}});
    const double delta = opt.number("delta", 7.5);
    if (delta == 0.0) throw InputError("--delta must not be 0 (a re-scaling by 0 is not invertible)");
    // δ < 0 is measured, and its cells say why they differ: the paper's invariances are for δ > 0.
    const auto seed = static_cast<unsigned>(opt.integer("seed", 1, 0, 4294967295L));
    NormSpec spec;
    spec.eps = opt.number("eps", 1e-12);
    if (spec.eps < 0.0) throw InputError("--eps must be ≥ 0");
    const double tolerance = opt.number("tolerance", 1e-6);
    if (!(tolerance > 0.0)) throw InputError("--tolerance must be > 0");

    // The Invariance lab's own state for this batch, so that the reasons are check_table's, as in the GUI.
    InvarianceLabState state;
    state.seed = seed;
    state.data = random_invariance_data(seed);
    state.shift = 1.0;
    state.delta = delta;
    state.tolerance = tolerance;
    state.spec = spec;
    const InvarianceTable t = invariance_lab_table(state);
    const CheckedTable checked = check_table(state, t);
    if (opt.flag("json")) {
        nlohmann::json table, residuals, disagreements = nlohmann::json::array();
        for (int r = 0; r < kNumTableNorms; ++r)
            for (int c = 0; c < kNumTransforms; ++c) {
                const std::string norm(to_string(kTableNorms[r])), tr(to_string(kAllTransforms[c]));
                table[norm][tr] = t.invariant(r, c);
                residuals[norm][tr] = t.residual[r][c];
                if (checked.badge[r][c] > 0)
                    disagreements.push_back({{"norm", norm},
                                             {"transform", tr},
                                             {"reason", to_string(checked.cells[r][c].note)},
                                             {"why", checked.cells[r][c].why}});
            }
        const nlohmann::json out = {{"delta", delta},         {"seed", seed},           {"eps", spec.eps},
                                    {"tolerance", tolerance}, {"table", table},         {"residuals", residuals},
                                    {"disagrees_with_paper", disagreements}};
        std::cout << out.dump() << '\n';
        return 0;
    }
    std::printf("Invariance (paper Table 1), measured: δ = %g, seed %u, ε = %g, ✓ when ‖y′ − y‖/‖y‖ ≤ %g\n\n", delta,
                seed, spec.eps, tolerance);
    std::printf("%-11s", "");
    for (Transform tr : kAllTransforms) std::printf(" %-26s", std::string(display_name(tr)).c_str());
    std::printf("\n");
    for (int r = 0; r < kNumTableNorms; ++r) {
        std::printf("%-11s", std::string(display_name(kTableNorms[r])).c_str());
        for (int c = 0; c < kNumTransforms; ++c) {
            const int badge = checked.badge[r][c];
            const std::string mark = badge > 0 ? " (differs: " + std::to_string(badge) + ")" : "";
            std::printf(" %s %-9.2e%-14s", t.invariant(r, c) ? "✓" : "✗", t.residual[r][c], mark.c_str());
        }
        std::printf("\n");
    }
    if (!checked.notes.empty()) std::printf("\nWhere the measurement differs from the paper's Table 1:\n");
    for (std::size_t k = 0; k < checked.notes.size(); ++k) {
        std::string cells;
        for (const std::string& cell : checked.notes[k].cells) cells += (cells.empty() ? "" : ", ") + cell;
        std::printf("  %zu. %s\n     %s\n", k + 1, cells.c_str(), checked.notes[k].why.c_str());
    }
    return 0;
}

}  // namespace normlab::cli
