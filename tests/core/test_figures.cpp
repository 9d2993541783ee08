// Figure kinds beyond lines (docs/ARCHITECTURE.md, Data flow): bar charts with reference
// outlines and value labels, and the Explorer's bar charts built from its results.
#include "normlab/plot/plot.hpp"
#include "normlab/labs/explorer_figures.hpp"
#include "normlab/plot/plot_parts.hpp"
#include "normlab/scene/session.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace normlab {
namespace {

Plot two_bar_series() {
    Plot p;
    p.name = "bars";
    Series now = palette_series(0, "now", {1, 2, 3}, {1.0, -2.0, 3.0}, SeriesKind::Bars);
    now.bar_labels = {"1.000", "−2.000", "3.000"};
    Series before = palette_series(1, "before", {1, 2, 3}, {2.0, -1.0, 3.0}, SeriesKind::Bars);
    before.overlay = true;
    p.series = {now, before};
    return p;
}

TEST(BarFigures, AnOverlayTakesTheSlotOfTheBarsBeforeIt) {
    const Plot p = two_bar_series();
    const PlotLayout L = layout_plot(p, Rect{0, 0, 600, 400});
    const std::vector<Rect> now = series_bars(p, 0, L.view), before = series_bars(p, 1, L.view);
    ASSERT_EQ(now.size(), 3u);
    ASSERT_EQ(before.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_DOUBLE_EQ(now[i].x0, before[i].x0) << "same slot, not side by side";
        EXPECT_DOUBLE_EQ(now[i].x1, before[i].x1);
    }
    // The whole slot (80% of the spacing) belongs to the one non-overlay series.
    const double spacing = L.view.to_px({2, 0}).x - L.view.to_px({1, 0}).x;
    EXPECT_NEAR(now[0].width(), 0.8 * spacing, 1e-9);
    // Heights follow the data: bar 1 of `before` is twice as tall as that of `now`.
    const double zero = L.view.to_px({0, 0}).y;
    EXPECT_NEAR(zero - before[0].y0, 2.0 * (zero - now[0].y0), 1e-9);
}

TEST(BarFigures, ValueLabelsSitAtTheBarEnds) {
    const Plot p = two_bar_series();
    const PlotLayout L = layout_plot(p, Rect{0, 0, 600, 400});
    ASSERT_EQ(L.bar_labels.size(), 3u);
    const std::vector<Rect> bars = series_bars(p, 0, L.view);
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(L.bar_labels[i].text, p.series[0].bar_labels[i]);
        EXPECT_NEAR(L.bar_labels[i].at.x, 0.5 * (bars[i].x0 + bars[i].x1), 1e-9);
    }
    EXPECT_LT(L.bar_labels[0].at.y, bars[0].y0) << "above a positive bar";
    EXPECT_GT(L.bar_labels[1].at.y, bars[1].y1) << "below a negative bar";
    // Wider than their bars (a figure 120 px wide): set smaller before any is left out; at 90 px,
    // kept only where they stay inside the data area.
    const PlotLayout smaller = layout_plot(p, Rect{0, 0, 120, 400});
    ASSERT_EQ(smaller.bar_labels.size(), 3u);
    EXPECT_LT(smaller.bar_labels[0].font_px, L.bar_labels[0].font_px) << "1.000, at the left edge";
    const PlotLayout narrow = layout_plot(p, Rect{0, 0, 90, 400});
    EXPECT_LT(narrow.bar_labels.size(), 3u);
    for (const PlacedText& t : narrow.bar_labels) {
        const double w = estimate_text_width(t.text, t.font_px);
        EXPECT_GE(t.at.x - 0.5 * w, narrow.view.px.x0 - 1e-9) << t.text;
        EXPECT_LE(t.at.x + 0.5 * w, narrow.view.px.x1 + 1e-9) << t.text;
    }
    // The SVG carries them, with a halo, and the outlines as unfilled rectangles.
    const std::string svg = to_svg(p);
    EXPECT_NE(svg.find("class=\"bar-label\""), std::string::npos);
    EXPECT_NE(svg.find(">−2.000</text>"), std::string::npos);
    EXPECT_NE(svg.find("fill=\"none\" stroke=\"" + to_hex(p.series[1].color) + "\""), std::string::npos);
}

// LayerNorm's negative bars carry their values as its positive ones do: "−1.342" is wider than
// "1.342" by its minus sign, and in a figure about the Explorer slide's at 1024×768 wider than its
// bar; it is kept below the bar, clear of the other bars and labels.
TEST(BarFigures, NegativeBarsCarryTheirLabels) {
    ExplorerState s;   // x = [2, 4, 6, 8]: LayerNorm −1.342, −0.447, 0.447, 1.342
    Plot ln = explorer_plots(s, compute_explorer(s))[1];
    ln.title.clear();   // a slide shows its figure's title in its own header
    const PlotStyle style = scaled(PlotStyle{}, 1.5);
    for (const double width : {420.0, 400.0, 380.0}) {   // bars 59, 56, 52 px; "−1.342" 63 px, "1.342" 51 px
        SCOPED_TRACE(width);
        const PlotLayout L = layout_plot(ln, Rect{0, 0, width, 260}, style);
        ASSERT_EQ(L.bar_labels.size(), 4u);
        std::vector<Rect> boxes;
        for (const PlacedText& t : L.bar_labels) {
            const double w = estimate_text_width(t.text, t.font_px);
            boxes.push_back({t.at.x - 0.5 * w, t.at.y - 0.76 * t.font_px, t.at.x + 0.5 * w, t.at.y + 0.24 * t.font_px});
            EXPECT_GE(boxes.back().x0, L.view.px.x0 - 1e-9);
            EXPECT_LE(boxes.back().x1, L.view.px.x1 + 1e-9);
        }
        const std::vector<Rect> bars = series_bars(ln, 0, L.view);
        for (std::size_t i = 0; i < boxes.size(); ++i) {
            for (std::size_t j = 0; j < bars.size(); ++j) {
                const Rect& a = boxes[i];
                const Rect& b = bars[j];
                EXPECT_FALSE(a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1) << "label " << i << " over bar " << j;
            }
            for (std::size_t j = i + 1; j < boxes.size(); ++j) {
                const Rect& a = boxes[i];
                const Rect& b = boxes[j];
                EXPECT_FALSE(a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1) << "labels " << i << ", " << j;
            }
        }
    }
}

TEST(BarFigures, HoveringAnywhereAboveABarHitsIt) {
    const Plot p = two_bar_series();
    const PlotLayout L = layout_plot(p, Rect{0, 0, 600, 400});
    const Rect bar = series_bars(p, 0, L.view)[2];
    const std::optional<PointHit> hit = nearest_point(p, L.view, {0.5 * (bar.x0 + bar.x1), L.view.px.y1 - 1.0});
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->series, 0u) << "the filled bars, not the outlines";
    EXPECT_EQ(hit->index, 2u);
    EXPECT_EQ(hit->distance_px, 0.0);
    const double between = 0.5 * (series_bars(p, 0, L.view)[0].x1 + series_bars(p, 0, L.view)[1].x0);
    EXPECT_FALSE(nearest_point(p, L.view, {between, L.view.px.y1 - 1.0}, 1.0)) << "the gap between bars is no bar";
}

TEST(BarFigures, TicksNeverStopAtOne) {
    // [−2, 2] with a target of 2: step 2 (−2, 0, 2) rather than 5 (0 alone).
    const std::vector<Tick> t = linear_ticks(-2.0, 2.0, 2);
    EXPECT_GE(t.size(), 2u);
}

TEST(ExplorerFigures, TheBarsAreTheComputedOutputs) {
    ExplorerState s;   // x = [2, 4, 6, 8], W = I
    s.delta = 10.0;
    const ExplorerResults r = compute_explorer(s);
    const std::vector<Plot> plots = explorer_plots(s, r);
    ASSERT_EQ(plots.size(), 4u);
    EXPECT_EQ(plots[0].name, "explorer_summed_inputs");
    EXPECT_EQ(plots[1].name, "explorer_layernorm");
    EXPECT_EQ(plots[2].name, "explorer_rmsnorm");
    // a = δ·x at δ = 10 (scaling x): 20, 40, 60, 80 at outputs 1..4.
    EXPECT_EQ(plots[0].series[0].x, (std::vector<double>{1, 2, 3, 4}));
    EXPECT_EQ(plots[0].series[0].y, (std::vector<double>{20, 40, 60, 80}));
    // LayerNorm of [2, 4, 6, 8] ≈ [−1.342, −0.447, 0.447, 1.342] (docs/ARCHITECTURE.md, The science).
    const Series& ln = plots[1].series[0];
    EXPECT_NEAR(ln.y[0], -1.3416, 1e-3);
    EXPECT_NEAR(ln.y[3], 1.3416, 1e-3);
    EXPECT_EQ(ln.bar_labels[0], "−1.342");
    EXPECT_EQ(ln.bar_labels[3], "1.342");
    // δ ≠ 1: the outputs at δ = 1 as outlines, named in the data.
    ASSERT_EQ(plots[1].series.size(), 2u);
    EXPECT_TRUE(plots[1].series[1].overlay);
    EXPECT_EQ(series_name(plots[1].series[1]), "LayerNorm y at δ = 1");
    // LayerNorm and RMSNorm share one y range that holds every bar.
    ASSERT_TRUE(plots[1].y.min && plots[2].y.min);
    EXPECT_EQ(*plots[1].y.min, *plots[2].y.min);
    EXPECT_EQ(*plots[1].y.max, *plots[2].y.max);
    EXPECT_LE(*plots[1].y.min, -1.342);
    EXPECT_GE(*plots[2].y.max, 1.461);
    // At δ = 1, or with outlines off, no outlines.
    EXPECT_EQ(explorer_plots(s, r, {true, false})[1].series.size(), 1u);
    s.delta = 1.0;
    EXPECT_EQ(explorer_plots(s, compute_explorer(s))[2].series.size(), 1u);
}

TEST(ExplorerFigures, EveryCsvRowNamesItsSeries) {
    ExplorerState s;
    s.delta = 0.5;
    const std::vector<Plot> plots = explorer_plots(s, compute_explorer(s));
    for (const Plot& p : std::vector<Plot>(plots.begin(), plots.begin() + 3)) {
        const std::string csv = to_csv(p);
        EXPECT_EQ(csv.rfind("series,x: output i,y: ", 0), 0u) << csv;
        std::size_t rows = 0;
        for (std::size_t at = csv.find('\n'); at + 1 < csv.size(); at = csv.find('\n', at + 1)) {
            EXPECT_NE(csv[at + 1], ',') << p.name << ": a row without a series";
            ++rows;
        }
        EXPECT_EQ(rows, p.series.size() * 4) << p.name;
    }
}

TEST(ExplorerFigures, BarValueLabels) {
    EXPECT_EQ(bar_value_label(1.3416, 1.3416), "1.342");
    EXPECT_EQ(bar_value_label(-1.257e-16, 1.342), "0.000") << "round-off beside the largest reads 0";
    EXPECT_EQ(bar_value_label(0.0, 1.0), "0.000");
    EXPECT_EQ(bar_value_label(1.5e-5, 1.5e-5), "1.5×10⁻⁵");
    EXPECT_EQ(bar_value_label(25000.0, 25000.0), "25000");
    EXPECT_EQ(bar_value_label(2.5e6, 2.5e6), "2.5×10⁶");
}

TEST(HeatFigures, TheWeightsAsAMatrixRowOneOnTop) {
    ExplorerState s;
    s.x = (Vec(3) << 1, 2, 3).finished();
    s.W = (Mat(2, 3) << 1, -2, 0.5, 0, 4, -4).finished();   // n = 2, m = 3
    s.g = Vec::Ones(2);
    s.b = Vec::Zero(2);
    const Plot p = explorer_weights_plot(s);
    ASSERT_TRUE(p.heat);
    EXPECT_EQ(p.heat->rows, 2);
    EXPECT_EQ(p.heat->cols, 3);
    // Colours: W / max|W| on the diverging map; ±max at the ends, 0 near white.
    EXPECT_EQ(to_hex(p.heat->colors[5]), to_hex(colors::kHeatNegative));   // W₂₃ = −4
    EXPECT_EQ(to_hex(p.heat->colors[4]), to_hex(colors::kHeatPositive));   // W₂₂ = +4
    EXPECT_EQ(to_hex(p.heat->colors[3]), to_hex(colors::kHeatZero));       // W₂₁ = 0
    EXPECT_EQ(p.heat->bar_top, "+4.000");
    EXPECT_EQ(p.heat->bar_bottom, "−4.000");
    // Laid out: row 1 above row 2, column 1 left of column 2; whole ticks only.
    const PlotLayout L = layout_plot(p, Rect{0, 0, 600, 400});
    ASSERT_EQ(L.heat_cells.size(), 6u);
    const auto cell = [&](int r, int c) {
        for (const HeatCell& h : L.heat_cells)
            if (h.row == r && h.col == c) return h.rect;
        return Rect{};
    };
    EXPECT_LT(cell(0, 0).y1, cell(1, 0).y0 + 1e-9);
    EXPECT_LT(cell(0, 0).x1, cell(0, 1).x0 + 1e-9);
    for (const auto* ticks : {&L.x_ticks, &L.y_ticks})
        for (const PlacedTick& t : *ticks) EXPECT_EQ(t.tick.value, std::round(t.tick.value)) << t.tick.label;
    EXPECT_GT(L.color_bar.x0, L.view.px.x1) << "the colour bar right of the data";
    for (const PlacedText& t : L.color_bar_labels)
        EXPECT_LE(t.at.x + estimate_text_width(t.text, t.font_px), 600.0 - PlotStyle{}.pad + 1e-9) << "inside the figure";
    // The labels are the values, rounded to 0.01, white on the dark ends.
    EXPECT_EQ(L.heat_cells[1].label.text, "−2");
    // CSV: one row per cell (row, col from 1; the value in full), named; then nothing else.
    const std::string csv = to_csv(p);
    EXPECT_EQ(csv.rfind("series,row,col,x: input j,y: output i,Wᵢⱼ\n", 0), 0u) << csv;
    EXPECT_NE(csv.find("\nW,2,3,3,2,-4\n"), std::string::npos) << csv;
    EXPECT_NE(csv.find("\nW,1,3,3,1,0.5\n"), std::string::npos) << csv;
    std::size_t rows = 0;
    for (char c : csv) rows += c == '\n';
    EXPECT_EQ(rows, 7u);
    // SVG: the cells, their labels and the colour bar.
    const std::string svg = to_svg(p);
    EXPECT_NE(svg.find("class=\"heat-map\""), std::string::npos);
    EXPECT_NE(svg.find("class=\"color-bar\""), std::string::npos);
    EXPECT_NE(svg.find(">+4.000</text>"), std::string::npos);
}

TEST(HeatFigures, AReversedAxisMapsBothWays) {
    AxisRange r{Scale::Linear, 0.0, 10.0, true};
    EXPECT_DOUBLE_EQ(r.to_unit(0.0), 1.0);
    EXPECT_DOUBLE_EQ(r.to_unit(10.0), 0.0);
    EXPECT_DOUBLE_EQ(r.from_unit(r.to_unit(3.0)), 3.0);
    const AxisRange z = zoomed(r, 5.0, 0.5);
    EXPECT_TRUE(z.reversed);
    EXPECT_LT(z.lo, z.hi);
    EXPECT_DOUBLE_EQ(z.lo, 2.5);
    EXPECT_DOUBLE_EQ(z.hi, 7.5);
    const AxisRange p = panned(r, 0.1);
    EXPECT_LT(p.lo, p.hi);
    EXPECT_DOUBLE_EQ(p.hi - p.lo, 10.0);
}

}  // namespace
}  // namespace normlab
