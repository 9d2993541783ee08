// NormLab core: the Invariance lab's figures (see invariance_figures.hpp).
#include "normlab/labs/invariance_figures.hpp"

#include "normlab/labs/explorer_figures.hpp"
#include "normlab/plot/plot_parts.hpp"

#include <string>
#include <utility>

namespace normlab {

std::vector<Plot> invariance_matrix_plots(const InvarianceLabState& state) {
    const Mat& x = state.data.x;   // B×m
    const Mat& W = state.data.W;   // n×m
    const auto dims = [](const Mat& M) { return std::to_string(M.rows()) + " × " + std::to_string(M.cols()); };
    return {matrix_plot("invariance_x", "The batch x (" + dims(x) + "), one case per row", x, "x", "input j", "case b"),
            matrix_plot("invariance_weights", "Weights W (" + dims(W) + "),  a = W x", W, "W", "input j", "output i")};
}

std::vector<Plot> invariance_explorer_plots(const ExplorerResults* now, const ExplorerTransformResult* before,
                                            bool value_labels) {
    const Vec none;
    const Vec ln = now != nullptr ? Vec(now->layernorm.y.row(0).transpose()) : none;   // n
    const Vec rms = now != nullptr ? Vec(now->rmsnorm.y.row(0).transpose()) : none;
    Plot l = norm_bar_plot("invariance_explorer_layernorm", Norm::LayerNorm, ln, before ? &before->layernorm_before : nullptr,
                           "before", value_labels);
    Plot m = norm_bar_plot("invariance_explorer_rmsnorm", Norm::RMSNorm, rms, before ? &before->rmsnorm_before : nullptr,
                           "before", value_labels);
    if (now == nullptr)
        for (Plot* p : {&l, &m}) p->title += " (the Explorer's state cannot be computed)";
    share_y_range({&l, &m});
    return {std::move(l), std::move(m)};
}

}  // namespace normlab
