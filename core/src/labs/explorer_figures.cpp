// NormLab core: the Explorer's figures (see explorer_figures.hpp).
#include "normlab/labs/explorer_figures.hpp"

#include "normlab/plot/plot_parts.hpp"

#include <cstdint>
#include <utility>

namespace normlab {

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
