// NormLab core: parts several labs' figures share: a matrix as a heat map, a bar's value label,
// one y range for plots that compare.
#pragma once

#include "normlab/plot/plot.hpp"

#include <Eigen/Core>

#include <string>
#include <vector>

namespace normlab {

// A matrix M (n×m) as a heat map named `name`: cell (i, j) at column j = 1..m, row i = 1..n from
// the top (a reversed y axis), coloured by diverging_color(Mᵢⱼ / max|M|), its value (rounded to
// 0.01) in the cell where it fits, a colour bar from +max|M| to −max|M|; in the CSV the cells'
// series is `symbol` ("W") and their values' column symbol + "ᵢⱼ". The matrix editors and their
// exports (the Explorer's W, the Invariance lab's x and W) are drawn from it.
Plot matrix_plot(std::string name, std::string title, const Eigen::MatrixXd& M, const std::string& symbol, std::string x_label,
                 std::string y_label);

// Gives the plots one explicit y range: 0 and every value of theirs, 12% more at each end that
// holds bars (room for value labels), widened to whole steps of 1, 2 or 5 × 10^k (about five),
// so that their bars compare.
void share_y_range(const std::vector<Plot*>& plots);

// The text of a bar's value: 3 decimals from 0.01 to 10⁴ ("−1.342"), else 4 significant digits
// ("1.2×10⁻⁵"), after at_display_precision(v, largest, 4) (round-off beside the largest reads 0).
std::string bar_value_label(double v, double largest);

}  // namespace normlab
