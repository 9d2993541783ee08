// NormLab core: the Explorer's figures — its bar charts of a = W x and of the LayerNorm and
// RMSNorm outputs, and its weights W as a heat map, as Plot descriptions (docs/ARCHITECTURE.md, Data flow): the app draws them,
// `normlab-cli export` writes them, from this one builder.
#pragma once

#include "normlab/labs/invariance_lab.hpp"
#include "normlab/plot/plot.hpp"
#include "normlab/scene/session.hpp"

#include <string>
#include <vector>

namespace normlab {

// What the viewer chose to show (display state in the app; both on in exports).
struct ExplorerFigureOptions {
    bool value_labels = true;   // each bar's value at its end ("1.342", at 4 digits beside the largest)
    bool reference = true;      // outlines of the outputs at δ = 1 (only while δ ≠ 1)
};

// The Explorer's figures, in this order: explorer_summed_inputs (a, n bars), explorer_layernorm
// and explorer_rmsnorm (y, n bars each, on one shared y range so that they compare, with the
// outputs at δ = 1 as outlines when δ ≠ 1 and options.reference), explorer_weights
// (explorer_weights_plot). Bars sit at x = 1..n (output i).
std::vector<Plot> explorer_plots(const ExplorerState& state, const ExplorerResults& results,
                                 const ExplorerFigureOptions& options = {});

// The weights W (n×m) as a heat map, explorer_weights: cell (i, j) at column j = 1..m, row
// i = 1..n from the top (a reversed y axis), coloured by diverging_color(Wᵢⱼ / max|W|), its value
// (rounded to 0.01) in the cell where it fits, a colour bar from +max|W| to −max|W|. Without W
// (a = x) the identity (m×m) it amounts to, titled so.
Plot explorer_weights_plot(const ExplorerState& state);

// A matrix M (n×m) as a heat map named `name`: cell (i, j) at column j = 1..m, row i = 1..n from
// the top (a reversed y axis), coloured by diverging_color(Mᵢⱼ / max|M|), its value (rounded to
// 0.01) in the cell where it fits, a colour bar from +max|M| to −max|M|; in the CSV the cells'
// series is `symbol` ("W") and their values' column symbol + "ᵢⱼ". The matrix editors and their
// exports (the Explorer's W, the Invariance lab's x and W) are drawn from it.
Plot matrix_plot(std::string name, std::string title, const Mat& M, const std::string& symbol, std::string x_label,
                 std::string y_label);

// The Invariance lab's batch and weights as its editors show them: invariance_x (x, B×m, a case
// per row) and invariance_weights (W, n×m), matrix_plot each.
std::vector<Plot> invariance_matrix_plots(const InvarianceLabState& state);

// The Invariance lab's Explorer panel: the Explorer's LayerNorm and RMSNorm outputs y now
// (invariance_explorer_layernorm, invariance_explorer_rmsnorm: n bars each on one y range), with
// the outputs before the panel's last transform (`before`; null: none) as outlines. `now` null
// (the Explorer's state cannot be computed): both figures without bars, titled so.
std::vector<Plot> invariance_explorer_plots(const ExplorerResults* now, const ExplorerTransformResult* before,
                                            bool value_labels);

// One norm's outputs y (n) as bars at x = 1..n in the norm's colour (norm_color), titled
// "<Norm> outputs y = ā ⊙ g + b", with `reference` (n, or null) as outlines in a darker shade,
// named reference_label in the legend (shown only with a reference). The Invariance lab uses it
// for the Explorer's outputs before and after a transform.
Plot norm_bar_plot(std::string name, Norm norm, const Vec& y, const Vec* reference, const std::string& reference_label,
                   bool value_labels);

// Gives the plots one explicit y range: 0 and every value of theirs, 12% more at each end that
// holds bars (room for value labels), widened to whole steps of 1, 2 or 5 × 10^k (about five),
// so that their bars compare.
void share_y_range(const std::vector<Plot*>& plots);

// The text of a bar's value: 3 decimals from 0.01 to 10⁴ ("−1.342"), else 4 significant digits
// ("1.2×10⁻⁵"), after at_display_precision(v, largest, 4) (round-off beside the largest reads 0).
std::string bar_value_label(double v, double largest);

}  // namespace normlab
