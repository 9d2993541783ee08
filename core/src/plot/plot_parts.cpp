// NormLab core: parts several labs' figures share (see plot_parts.hpp).
#include "normlab/plot/plot_parts.hpp"

#include "normlab/base/number_rule.hpp"
#include "normlab/base/text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace normlab {

std::string bar_value_label(double v, double largest) {
    v = at_display_precision(v, largest, 4);
    const double mag = std::fabs(v);
    if (mag != 0.0 && (mag < 0.01 || mag >= 1e4)) return format_number(v, 4);
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.3f", v == 0.0 ? 0.0 : v);   // no "−0.000"
    return unicode_minus(buf);
}

void share_y_range(const std::vector<Plot*>& plots) {
    double lo = 0.0, hi = 0.0;
    for (const Plot* p : plots)
        for (const Series& s : p->series)
            for (double v : s.y)
                if (std::isfinite(v)) {
                    lo = std::min(lo, v);
                    hi = std::max(hi, v);
                }
    const double span = hi - lo;
    if (!(span > 0.0)) return;
    if (hi > 0.0) hi += 0.12 * span;
    if (lo < 0.0) lo -= 0.12 * span;
    // Out to whole steps of 1, 2 or 5 × 10^k, about five of them: the ticks end at the range's ends.
    const double raw = (hi - lo) / 5.0, power = std::pow(10.0, std::floor(std::log10(raw))), f = raw / power;
    const double step = power * (f < 1.5 ? 1.0 : f < 3.0 ? 2.0 : f < 7.0 ? 5.0 : 10.0);
    lo = std::floor(lo / step) * step;
    hi = std::ceil(hi / step) * step;
    for (Plot* p : plots) {
        p->y.min = lo;
        p->y.max = hi;
    }
}

Plot matrix_plot(std::string name, std::string title, const Eigen::MatrixXd& M, const std::string& symbol, std::string x_label,
                 std::string y_label) {
    const auto n = static_cast<int>(M.rows()), m = static_cast<int>(M.cols());
    const double scale = std::max(n * m > 0 ? M.cwiseAbs().maxCoeff() : 0.0, 1e-12);
    HeatMap h;
    h.rows = n;
    h.cols = m;
    h.x0 = 0.5;
    h.x1 = m + 0.5;
    h.y0 = 0.5;
    h.y1 = n + 0.5;
    h.name = symbol;
    HeatValues values{symbol + "ᵢⱼ", {}};
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < m; ++j) {
            h.colors.push_back(diverging_color(M(i, j) / scale));
            values.v.push_back(M(i, j));
            h.labels.push_back(format_number(std::round(M(i, j) * 100.0) / 100.0, 6));
        }
    h.values.push_back(std::move(values));
    for (int k = 0; k < 32; ++k) h.bar.push_back(diverging_color(1.0 - 2.0 * (k + 0.5) / 32.0));
    const std::string max = bar_value_label(scale, scale);
    h.bar_top = "+" + max;
    h.bar_middle = "0";
    h.bar_bottom = "−" + max;

    Plot p;
    p.name = std::move(name);
    p.title = std::move(title);
    p.x.label = std::move(x_label);
    p.y.label = std::move(y_label);
    p.x.min = h.x0;
    p.x.max = h.x1;
    p.y.min = h.y0;
    p.y.max = h.y1;
    p.y.reversed = true;   // row 1 at the top, as the matrix is written
    p.legend = false;
    p.heat = std::move(h);
    return p;
}

}  // namespace normlab
