// NormLab core: the Explorer's figures (see explorer_figures.hpp).
#include "normlab/scene/explorer_figures.hpp"

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

namespace {

// v (n) as bars at x = 1..n.
Series bars_of(const Vec& v, std::string label, Color color, bool value_labels) {
    Series s;
    s.label = std::move(label);
    s.kind = SeriesKind::Bars;
    s.color = color;
    const double largest = v.size() > 0 ? v.cwiseAbs().maxCoeff() : 0.0;
    for (Eigen::Index i = 0; i < v.size(); ++i) {
        s.x.push_back(static_cast<double>(i + 1));
        s.y.push_back(v(i));
        if (value_labels) s.bar_labels.push_back(bar_value_label(v(i), largest));
    }
    return s;
}

// A bar chart over outputs i = 1..n with a solid zero line.
Plot bar_plot(std::string name, std::string title, std::string y_label) {
    Plot p;
    p.name = std::move(name);
    p.title = std::move(title);
    p.x.label = "output i";
    p.y.label = std::move(y_label);
    RefLine zero;
    zero.color = {40, 40, 40};
    zero.line = LineStyle::Solid;
    zero.width = 1.5;
    p.ref_lines.push_back(zero);
    return p;
}

Color darker(Color c) {
    return {static_cast<std::uint8_t>(c.r * 3 / 5), static_cast<std::uint8_t>(c.g * 3 / 5),
            static_cast<std::uint8_t>(c.b * 3 / 5)};
}

}  // namespace

Plot norm_bar_plot(std::string name, Norm norm, const Vec& y, const Vec* reference, const std::string& reference_label,
                   bool value_labels) {
    const std::string norm_name(display_name(norm));
    Plot p = bar_plot(std::move(name), norm_name + " outputs y = ā ⊙ g + b", "yᵢ");
    p.series.push_back(bars_of(y, norm_name + " y", norm_color(norm), value_labels));
    if (reference != nullptr) {
        Series ref = bars_of(*reference, reference_label, darker(norm_color(norm)), false);
        ref.data_name = norm_name + " y " + reference_label;
        ref.overlay = true;
        p.series.push_back(std::move(ref));
    }
    p.legend = reference != nullptr;
    return p;
}

Plot matrix_plot(std::string name, std::string title, const Mat& M, const std::string& symbol, std::string x_label,
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

Plot explorer_weights_plot(const ExplorerState& state) {
    const Mat W = state.use_W ? state.W : Mat::Identity(state.x.size(), state.x.size());   // n×m
    const std::string size = std::to_string(W.rows()) + " × " + std::to_string(W.cols());
    return matrix_plot("explorer_weights",
                       state.use_W ? "Weights W (" + size + "),  a = W x" : "No W: a = x, as with W = I (" + size + ")", W, "W",
                       "input j", "output i");
}

std::vector<Plot> explorer_plots(const ExplorerState& state, const ExplorerResults& r, const ExplorerFigureOptions& options) {
    const bool scaled = state.delta != 1.0;
    const std::string at = scaled ? " at δ = " + format_number(state.delta, 4) : "";
    Plot a = bar_plot("explorer_summed_inputs", std::string("Summed inputs ") + (state.use_W ? "a = W x" : "a = x") + at, "aᵢ");
    a.series.push_back(bars_of(r.layernorm.a.row(0).transpose(), "a", colors::kSummedInput, options.value_labels));
    a.legend = false;
    share_y_range({&a});

    const bool outline = options.reference && scaled;
    const Vec ln = r.layernorm.y.row(0).transpose(), rms = r.rmsnorm.y.row(0).transpose();
    const Vec ln_ref = r.layernorm_ref.y.row(0).transpose(), rms_ref = r.rmsnorm_ref.y.row(0).transpose();
    Plot l = norm_bar_plot("explorer_layernorm", Norm::LayerNorm, ln, outline ? &ln_ref : nullptr, "at δ = 1",
                           options.value_labels);
    Plot m = norm_bar_plot("explorer_rmsnorm", Norm::RMSNorm, rms, outline ? &rms_ref : nullptr, "at δ = 1",
                           options.value_labels);
    for (Plot* p : {&l, &m}) {
        p->title += at;
        p->series.front().label += at;
    }
    share_y_range({&l, &m});
    return {std::move(a), std::move(l), std::move(m), explorer_weights_plot(state)};
}

}  // namespace normlab
