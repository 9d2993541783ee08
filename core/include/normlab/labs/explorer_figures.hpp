// NormLab core: the Explorer's figures — its bar charts of a = W x and of the LayerNorm and
// RMSNorm outputs, and its weights W as a heat map (docs/ARCHITECTURE.md, Data flow): the app
// draws them, `normlab-cli export` writes them, from this one builder.
#pragma once

#include "normlab/labs/explorer_lab.hpp"
#include "normlab/plot/plot.hpp"

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

// One norm's outputs y (n) as bars at x = 1..n in the norm's colour (norm_color), titled
// "<Norm> outputs y = ā ⊙ g + b", with `reference` (n, or null) as outlines in a darker shade,
// named reference_label in the legend (shown only with a reference). The Invariance lab uses it
// for the Explorer's outputs before and after a transform.
Plot norm_bar_plot(std::string name, Norm norm, const Vec& y, const Vec* reference, const std::string& reference_label,
                   bool value_labels);

}  // namespace normlab
