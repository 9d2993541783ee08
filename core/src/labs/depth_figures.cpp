// NormLab core: the Depth lab's figures: loss, per-layer gradients, their evolution, the
// learning-rate sweep.
#include "normlab/labs/depth_lab.hpp"
#include "normlab/base/i18n.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace normlab {

// [SECTION] Plots ---------------------------------------------------------------------------

Color depth_placement_color(int p) {
    static_assert(kDepthPlacementCount == 3, "one colour per placement");
    return palette_color(2 + std::clamp(p, 0, 2));   // bluish green, reddish purple, orange
}

namespace {

constexpr double kLineWidth = 2.25;   // thicker than the default: read from the back of a room
constexpr int kSmoothSteps = 10;      // the evolution plot's trailing mean

std::vector<double> step_axis(std::size_t n) {
    std::vector<double> x(n);
    for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<double>(i + 1);
    return x;
}

// The steps axis of every per-step figure: 1 to the longest run's target, fixed while training.
Axis steps_axis(const DepthLabSnapshot& s) {
    int last = std::max(s.state.steps, 2);
    for (const DepthRunView& r : s.runs) last = std::max({last, r.target_steps, r.run.step});
    return {tr("step"), Scale::Linear, 1.0, static_cast<double>(last)};
}

Series run_line(int p, std::vector<double> x, std::vector<double> y) {
    Series line;
    line.label = std::string(display_name(kAllNormPlacements[p]));
    line.x = std::move(x);
    line.y = std::move(y);
    line.color = depth_placement_color(p);
    line.width = kLineWidth;
    return line;
}

// Viridis from dark purple (t = 0) to green (t = 0.8): ordered, and never as light as yellow on white.
Color layer_color(int l, int layers) {
    static constexpr double kAnchors[5][3] = {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
    const double t = layers > 1 ? 0.8 * l / (layers - 1) : 0.0;
    const double u = 4.0 * t;
    const int i = std::min(static_cast<int>(u), 3);
    const double f = u - i;
    const auto mix = [&](int c) {
        return static_cast<std::uint8_t>(std::lround(kAnchors[i][c] + f * (kAnchors[i + 1][c] - kAnchors[i][c])));
    };
    return {mix(0), mix(1), mix(2)};
}

RefLine measure_line(const DepthLabSnapshot& s) {
    return {RefLine::Orientation::Vertical, static_cast<double>(s.state.measure_steps),
            tr("measured: 1–{0}", s.state.measure_steps), colors::kGrey, LineStyle::Dashed, 1.5};
}

}  // namespace

Plot depth_loss_plot(const DepthLabSnapshot& s) {
    Plot plot;
    plot.name = "depth_loss";
    plot.title = tr("Training loss");
    plot.caption = "Cross-entropy of each step's batch, per placement; " + depth_conditions(s);
    plot.x = steps_axis(s);
    plot.y = {tr("cross-entropy (batch)"), Scale::Log10, std::nullopt, std::nullopt};
    for (const DepthRunView& r : s.runs)
        plot.series.push_back(run_line(r.placement, step_axis(r.run.history.train_loss.size()), r.run.history.train_loss));
    return plot;
}

Plot depth_layer_grad_plot(const DepthLabSnapshot& s) {
    Plot plot;
    plot.name = "depth_layer_grads";
    const int want = std::max(s.state.measure_steps, 1);
    int have = want;
    for (const DepthRunView& r : s.runs) have = std::min(have, r.run.step);
    plot.title = have < want && !s.runs.empty() ? tr("Mean |∂L/∂W₂| per layer, steps 1–{0} ({1} so far)", want, have)
                                                : tr("Mean |∂L/∂W₂| per layer, steps 1–{0}", want);
    plot.caption = "NormFormer's measure (Shleifer et al. 2021, Fig. 2): per layer, the mean absolute gradient of the FFN "
                   "output weights W₂, averaged over the first steps, seed " + std::to_string(s.state.seed) +
                   " (the claims give the spread over seeds); " + depth_conditions(s);
    plot.x = {tr("layer (1 = next to the input)"), Scale::Linear, 0.5, std::max(s.state.layers, 1) + 0.5};
    plot.y = {tr("mean |∂L/∂W₂|"), Scale::Linear, std::nullopt, std::nullopt};
    double top = 0.0, left = 0.0, right = 0.0;   // the tallest bar; the bars' sums in each half
    for (const DepthRunView& r : s.runs) {
        std::vector<double> means = mean_layer_grads(r.run.history, want);
        if (r.run.step < 1) means.assign(means.size(), 0.0);
        for (std::size_t l = 0; l < means.size(); ++l) {
            if (!std::isfinite(means[l])) continue;
            top = std::max(top, means[l]);
            if (2 * l + 1 < means.size()) left += means[l];        // the middle layer of an odd L: neither
            if (2 * l + 1 > means.size()) right += means[l];
        }
        std::vector<double> layer = step_axis(means.size());
        Series bars = run_line(r.placement, std::move(layer), std::move(means));
        bars.kind = SeriesKind::Bars;
        plot.series.push_back(std::move(bars));
    }
    // The legend above the lower half of the bars, with head room so that it hides none; the top
    // rounded up to a 1-2-5 multiple of its decade, so that a short figure still gets two ticks.
    if (top > 0.0) {
        const double room = 1.8 * top, decade = std::pow(10.0, std::floor(std::log10(room)));
        plot.y.max = std::ceil(room / decade) * decade;
    }
    plot.legend_corner = left >= right ? LegendCorner::TopRight : LegendCorner::TopLeft;
    return plot;
}

Plot depth_evolution_plot(const DepthLabSnapshot& s) {
    Plot plot;
    plot.name = "depth_layer_grads_over_steps";
    plot.x = steps_axis(s);
    plot.ref_lines.push_back(measure_line(s));
    const int view = std::clamp(s.state.evolution, 0, kDepthEvolutionRatio);
    if (view == kDepthEvolutionRatio) {
        plot.title = "First ÷ last layer, running means";
        plot.caption = "mean |∂L/∂W₂| of layer 1 over steps 1..s divided by that of the last layer, per placement; " +
                       depth_conditions(s);
        plot.y = {"first ÷ last", Scale::Log10, std::nullopt, std::nullopt};
        plot.ref_lines.push_back({RefLine::Orientation::Horizontal, 1.0, "even", colors::kGrey, LineStyle::Dotted, 1.5});
        for (const DepthRunView& r : s.runs) {
            const std::vector<std::vector<double>>& g = r.run.history.ffn_grad;
            std::vector<double> ratio;
            double first = 0.0, last = 0.0;
            for (std::size_t t = 0; !g.empty() && t < g.front().size(); ++t) {
                first += g.front()[t];
                last += g.back()[t];
                ratio.push_back(last > 0.0 ? first / last : std::nan(""));
            }
            std::vector<double> steps = step_axis(ratio.size());
            plot.series.push_back(run_line(r.placement, std::move(steps), std::move(ratio)));
        }
        return plot;
    }
    const std::string name(display_name(kAllNormPlacements[view]));
    const DepthRunView* r = find_run(s, view);
    plot.title = r ? tr("{0}: each layer, {1}-step means", name, static_cast<int>(kSmoothSteps)) : tr("{0} is not ticked", name);
    plot.caption = "Per layer, mean |∂L/∂W₂| of each step, trailing mean over " + std::to_string(kSmoothSteps) +
                   " steps; " + depth_conditions(s);
    plot.y = {tr("mean |∂L/∂W₂|"), Scale::Log10, std::nullopt, std::nullopt};
    if (r == nullptr) return plot;
    const std::vector<std::vector<double>>& g = r->run.history.ffn_grad;
    const int layers = static_cast<int>(g.size());
    for (int l = 0; l < layers; ++l) {
        const std::vector<double>& v = g[static_cast<std::size_t>(l)];
        std::vector<double> smooth(v.size());
        double sum = 0.0;
        for (std::size_t t = 0; t < v.size(); ++t) {
            sum += v[t];
            if (t >= kSmoothSteps) sum -= v[t - kSmoothSteps];
            smooth[t] = sum / static_cast<double>(std::min<std::size_t>(t + 1, kSmoothSteps));
        }
        Series line;   // the first and the last layer in the legend; the shades between tell the rest
        if (l == 0 || l == layers - 1) line.label = tr("layer {0}", l + 1);
        line.data_name = "layer " + std::to_string(l + 1);
        line.x = step_axis(smooth.size());
        line.y = std::move(smooth);
        line.color = layer_color(l, layers);
        line.width = l == 0 || l == layers - 1 ? kLineWidth + 0.75 : kLineWidth;
        plot.series.push_back(std::move(line));
    }
    return plot;
}

Plot depth_sweep_plot(const DepthLabSnapshot& s) {
    const DepthLabState& st = s.state;
    Plot plot;
    plot.name = "depth_lr_sweep";
    plot.title = tr("Final loss after {0} steps, by learning rate", st.sweep_steps);
    plot.caption = "Mean training loss of the last " + std::to_string(kDepthSweepTail) +
                   " steps; diverged: it ended no better than its first step (or the loss was not finite); " +
                   depth_conditions(s);
    plot.x = {tr("learning rate (Adam)"), Scale::Log10, st.sweep_lr_min / 1.5, st.sweep_lr_max * 1.5};
    plot.y = {tr("final training loss"), Scale::Linear, 0.0, std::nullopt};
    // A loss that was not finite sits at the top, above every finite one and ln V (the loss of a
    // uniform guess), labelled so.
    const double guess = s.vocab > 1 ? std::log(static_cast<double>(s.vocab)) : 1.0;
    double top = guess;
    for (const DepthSweepPoint& q : s.sweep)
        if (q.outcome == SweepOutcome::Trained || q.outcome == SweepOutcome::Diverged) top = std::max(top, q.final_loss);
    top *= 1.15;
    if (s.vocab > 1)
        plot.ref_lines.push_back({RefLine::Orientation::Horizontal, guess, tr("guessing: ln {0}", s.vocab),
                                  colors::kGrey, LineStyle::Dotted, 1.5});
    for (int p = 0; p < kDepthPlacementCount; ++p) {
        Series line = run_line(p, {}, {});
        line.marker = palette_marker(p);
        line.marker_size = 9.0;
        for (const DepthSweepPoint& q : s.sweep) {
            if (q.placement != p || q.outcome == SweepOutcome::Pending) continue;
            const bool finite = q.outcome != SweepOutcome::NotFinite;
            line.x.push_back(q.lr);
            line.y.push_back(finite ? q.final_loss : top);
            if (!finite) plot.annotations.push_back({q.lr, top, tr("✗ not finite")});
        }
        if (!line.x.empty()) plot.series.push_back(std::move(line));
        // Unlabelled (labels of nearby rates would collide): the legend's key below says what it means.
        if (const std::optional<double> lr = divergence_lr(s, p))
            plot.ref_lines.push_back({RefLine::Orientation::Vertical, *lr, "", depth_placement_color(p), LineStyle::Dashed,
                                      2.0});
    }
    Series key;   // a legend entry only: no points
    key.label = tr("diverges from here");
    key.color = colors::kGrey;
    key.line = LineStyle::Dashed;
    key.width = 2.0;
    plot.series.push_back(std::move(key));
    return plot;
}

std::vector<Plot> depth_lab_plots(const DepthLabSnapshot& s) {
    return {depth_loss_plot(s), depth_layer_grad_plot(s), depth_evolution_plot(s), depth_sweep_plot(s)};
}

}  // namespace normlab
