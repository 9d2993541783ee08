// NormLab core: the Invariance lab's figures: its batch x and weights W as heat maps, and its
// Explorer panel's outputs before and after a transform.
#pragma once

#include "normlab/labs/explorer_lab.hpp"
#include "normlab/labs/invariance_lab.hpp"
#include "normlab/plot/plot.hpp"

#include <vector>

namespace normlab {

// The Invariance lab's batch and weights as its editors show them: invariance_x (x, B×m, a case
// per row) and invariance_weights (W, n×m), matrix_plot each.
std::vector<Plot> invariance_matrix_plots(const InvarianceLabState& state);

// The Invariance lab's Explorer panel: the Explorer's LayerNorm and RMSNorm outputs y now
// (invariance_explorer_layernorm, invariance_explorer_rmsnorm: n bars each on one y range), with
// the outputs before the panel's last transform (`before`; null: none) as outlines. `now` null
// (the Explorer's state cannot be computed): both figures without bars, titled so.
std::vector<Plot> invariance_explorer_plots(const ExplorerResults* now, const ExplorerTransformResult* before,
                                            bool value_labels);

}  // namespace normlab
