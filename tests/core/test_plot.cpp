// Tests of the plot description's maths (core/src/plot/plot.cpp), its SVG and CSV writers, and the
// atomic file writer (core/src/base/file_io.cpp).
//
// [SECTION] Helpers     — temporary directories, a crude XML well-formedness check
// [SECTION] Ticks       — 1-2-5 linear ticks, log decades, number labels
// [SECTION] Axis maths  — auto range, mapping round trip, pan/zoom
// [SECTION] Geometry    — broken/clipped polylines, markers, bars, dashes, hit testing, layout
// [SECTION] Annotations — overlapping labels moved apart or dropped, the Gradients lab's figures
// [SECTION] Faded       — series hidden by the viewer: listed in the legend, data left out
// [SECTION] SVG / CSV
// [SECTION] Tables      — CSV, Markdown, LaTeX (booktabs) and SVG of a hand-made table
// [SECTION] File I/O
#include "normlab/base/file_io.hpp"
#include "normlab/labs/gradients_lab.hpp"
#include "normlab/plot/plot.hpp"
#include "normlab/plot/table.hpp"
#include "normlab/scene/session.hpp"
#include "temp_dir.hpp"

#include <gtest/gtest.h>

#include <set>

#include <algorithm>
#include <cmath>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

namespace normlab {
namespace {

namespace fs = std::filesystem;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// [SECTION] Helpers -------------------------------------------------------------------------

std::size_t count(const std::string& hay, const std::string& needle) {
    std::size_t n = 0;
    for (std::size_t p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + needle.size())) ++n;
    return n;
}

// Crude well-formedness: every tag closes in order, attributes are quoted, text holds no raw
// '<' or '>' and only known entities after '&'. Returns "" when fine, else what is wrong.
std::string xml_problem(const std::string& s) {
    std::vector<std::string> stack;
    std::size_t i = 0;
    auto check_text = [&](std::size_t from, std::size_t to) -> std::string {
        for (std::size_t k = from; k < to; ++k) {
            if (s[k] == '>') return "raw '>' in text at " + std::to_string(k);
            if (s[k] == '&') {
                static const char* const ents[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"};
                bool ok = false;
                for (const char* e : ents) ok = ok || s.compare(k, std::strlen(e), e) == 0;
                if (!ok) return "bad entity at " + std::to_string(k);
            }
        }
        return "";
    };
    while (i < s.size()) {
        const std::size_t lt = s.find('<', i);
        if (auto p = check_text(i, lt == std::string::npos ? s.size() : lt); !p.empty()) return p;
        if (lt == std::string::npos) break;
        // The tag ends at the first '>' outside quotes.
        std::size_t k = lt + 1;
        char quote = 0;
        for (; k < s.size(); ++k) {
            if (quote) {
                if (s[k] == quote) quote = 0;
                else if (s[k] == '<') return "raw '<' in attribute at " + std::to_string(k);
            } else if (s[k] == '"' || s[k] == '\'') {
                quote = s[k];
            } else if (s[k] == '>') {
                break;
            } else if (s[k] == '<') {
                return "'<' inside tag at " + std::to_string(k);
            }
        }
        if (k >= s.size()) return "unterminated tag at " + std::to_string(lt);
        const std::string tag = s.substr(lt + 1, k - lt - 1);
        i = k + 1;
        if (tag.empty()) return "empty tag";
        if (tag[0] == '?' || tag[0] == '!') continue;
        if (tag[0] == '/') {
            const std::string name = tag.substr(1);
            if (stack.empty() || stack.back() != name) return "unbalanced </" + name + ">";
            stack.pop_back();
            continue;
        }
        if (tag.back() == '/') continue;
        stack.push_back(tag.substr(0, tag.find_first_of(" \t\n")));
    }
    if (!stack.empty()) return "unclosed <" + stack.back() + ">";
    return "";
}

std::vector<std::string> labels_of(const std::vector<Tick>& ticks, bool majors_only = true) {
    std::vector<std::string> out;
    for (const Tick& t : ticks)
        if (!majors_only || t.major) out.push_back(t.label);
    return out;
}

std::vector<double> values_of(const std::vector<Tick>& ticks, bool majors_only = true) {
    std::vector<double> out;
    for (const Tick& t : ticks)
        if (!majors_only || t.major) out.push_back(t.value);
    return out;
}

// A log-log plot like the gradient lab's: ‖∂L/∂W‖ ∝ 1/δ and ‖∂L/∂g‖ constant.
Plot gradient_plot() {
    Plot p;
    p.name = "grad_vs_delta";
    p.title = "Gradient norms under W' = δW";
    p.x = {"weight scale δ", Scale::Log10, std::nullopt, std::nullopt};
    p.y = {"‖∂L/∂W‖", Scale::Log10, std::nullopt, std::nullopt};
    std::vector<double> d, gw, gg;
    for (int i = 0; i <= 20; ++i) {
        const double delta = std::pow(10.0, -2.0 + 0.2 * i);
        d.push_back(delta);
        gw.push_back(0.5 / delta);
        gg.push_back(1.3);
    }
    p.series.push_back(palette_series(0, "‖∂L/∂W‖ (RMSNorm)", d, gw));
    p.series.push_back(palette_series(1, "‖∂L/∂g‖", d, gg));
    p.annotations.push_back({1.0, 0.5, "slope −1.00"});
    p.ref_lines.push_back({RefLine::Orientation::Horizontal, 1e-2, "tolerance", {90, 90, 90}, LineStyle::Dashed, 1.0});
    return p;
}

// [SECTION] Ticks ---------------------------------------------------------------------------

TEST(PlotTicks, LinearUnitInterval) {
    const auto t = linear_ticks(0.0, 1.0, 6);
    EXPECT_EQ(values_of(t), (std::vector<double>{0.0, 0.2, 0.4, 0.6, 0.8, 1.0}));   // exact decimals
    EXPECT_EQ(labels_of(t), (std::vector<std::string>{"0", "0.2", "0.4", "0.6", "0.8", "1"}));
    EXPECT_FALSE(std::signbit(t.front().value));
}

TEST(PlotTicks, LinearNegativeToPositive) {
    // About 6 ticks over 8.5 units: step 2 (0, 2, 4, 6); about 9: step 1 (−1 … 7).
    const auto t6 = linear_ticks(-1.3, 7.2, 6);
    EXPECT_EQ(values_of(t6), (std::vector<double>{0, 2, 4, 6}));
    const auto t9 = linear_ticks(-1.3, 7.2, 9);
    EXPECT_EQ(values_of(t9), (std::vector<double>{-1, 0, 1, 2, 3, 4, 5, 6, 7}));
    EXPECT_EQ(t9.front().label, "\xE2\x88\x92" "1");   // U+2212 minus
    for (const auto* ts : {&t6, &t9})
        for (const Tick& k : *ts) {
            EXPECT_GE(k.value, -1.3);
            EXPECT_LE(k.value, 7.2);
        }
}

TEST(PlotTicks, LinearStepsAreOneTwoFive) {
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> u(-5.0, 5.0);
    for (int trial = 0; trial < 200; ++trial) {
        const double a = u(rng) * std::pow(10.0, std::floor(u(rng))), b = a + std::pow(10.0, u(rng));
        const auto t = linear_ticks(a, b, 6);
        ASSERT_GE(t.size(), 2u) << a << " " << b;
        ASSERT_LE(t.size(), 12u) << a << " " << b;
        const double step = t[1].value - t[0].value;
        const double mant = step / std::pow(10.0, std::floor(std::log10(step) + 1e-6));
        EXPECT_TRUE(std::fabs(mant - 1) < 1e-6 || std::fabs(mant - 2) < 1e-6 || std::fabs(mant - 5) < 1e-6 ||
                    std::fabs(mant - 10) < 1e-5)
            << "step " << step;
        for (const Tick& k : t) {
            EXPECT_GE(k.value, a - 1e-9 * std::fabs(step));
            EXPECT_LE(k.value, b + 1e-9 * std::fabs(step));
            EXPECT_EQ(k.label.find("e"), std::string::npos) << k.label;   // no "1e-05"-style labels
        }
    }
}

TEST(PlotTicks, LinearLabelsAreExactDecimals) {
    const auto t = linear_ticks(0.1, 0.35, 6);   // step 0.05
    EXPECT_EQ(labels_of(t), (std::vector<std::string>{"0.1", "0.15", "0.2", "0.25", "0.3", "0.35"}));
    const auto big = linear_ticks(0.0, 5e6, 6);
    EXPECT_EQ(big[1].label, "10\xE2\x81\xB6");   // 10⁶
    EXPECT_EQ(big[2].label, "2\xC3\x97" "10\xE2\x81\xB6");   // 2×10⁶
    const auto tiny = linear_ticks(0.0, 5e-5, 6);
    EXPECT_EQ(tiny[1].label, "10\xE2\x81\xBB\xE2\x81\xB5");   // 10⁻⁵
    // Categories: no step below 1.
    EXPECT_EQ(values_of(linear_ticks(-0.6, 3.6, 9, 1.0)), (std::vector<double>{0, 1, 2, 3}));
    EXPECT_TRUE(linear_ticks(1.0, 1.0).empty());
    EXPECT_TRUE(linear_ticks(kNaN, 1.0).empty());
    EXPECT_TRUE(linear_ticks(0.0, kInf).empty());
}

TEST(PlotTicks, LogSevenDecades) {
    const auto t = log_ticks(1e-3, 1e3, 6);
    EXPECT_EQ(values_of(t), (std::vector<double>{1e-3, 1e-2, 1e-1, 1, 10, 100, 1000}));
    EXPECT_EQ(labels_of(t), (std::vector<std::string>{"10⁻³", "10⁻²", "10⁻¹", "10⁰", "10¹", "10²", "10³"}));
    // Minor ticks 2…9 × 10^k between them, unlabelled, sorted.
    std::size_t minors = 0;
    for (const Tick& k : t)
        if (!k.major) {
            ++minors;
            EXPECT_TRUE(k.label.empty());
        }
    EXPECT_EQ(minors, 6u * 8u);
    EXPECT_TRUE(std::is_sorted(t.begin(), t.end(), [](const Tick& a, const Tick& b) { return a.value < b.value; }));
}

TEST(PlotTicks, LogManyDecadesAreThinned) {
    const auto t = log_ticks(1e-12, 1e12, 6);
    const auto majors = values_of(t);
    EXPECT_GE(majors.size(), 3u);
    EXPECT_LE(majors.size(), 8u);
    for (double v : majors) EXPECT_DOUBLE_EQ(std::log10(v), std::round(std::log10(v)));
    EXPECT_EQ(t.size(), 25u);   // every decade keeps a (minor) mark
}

TEST(PlotTicks, LogWithinADecade) {
    EXPECT_EQ(labels_of(log_ticks(2.0, 30.0, 6)), (std::vector<std::string>{"2", "5", "10", "20"}));
    EXPECT_EQ(labels_of(log_ticks(0.0015, 0.006, 6)), (std::vector<std::string>{"0.002", "0.005"}));
    const auto narrow = log_ticks(3.0, 4.0, 6);   // no 1-2-5 value twice: linear ticks
    ASSERT_GE(narrow.size(), 2u);
    for (const Tick& k : narrow) EXPECT_GT(k.value, 0.0);
    EXPECT_TRUE(log_ticks(-1.0, 10.0).empty());
}

TEST(PlotTicks, NumberLabels) {
    EXPECT_EQ(superscript(-3), "⁻³");
    EXPECT_EQ(superscript(10), "¹⁰");
    EXPECT_EQ(decade_label(0), "10⁰");
    EXPECT_EQ(format_number(0.25), "0.25");
    EXPECT_EQ(format_number(-0.25), "−0.25");
    EXPECT_EQ(format_number(1.5e-7), "1.5×10⁻⁷");
    EXPECT_EQ(format_number(1e9), "10⁹");
    EXPECT_EQ(format_number(123.456, 4), "123.5");
    EXPECT_EQ(format_number(0.0), "0");
    EXPECT_EQ(format_number(-0.0), "0");
    EXPECT_EQ(format_number(kNaN), "");
    EXPECT_EQ(format_number(-kInf), "");
}

// [SECTION] Axis maths ----------------------------------------------------------------------

TEST(PlotAxis, MappingRoundTrip) {
    Viewport v{{Scale::Linear, -2.0, 6.0}, {Scale::Log10, 1e-3, 1e3}, {100, 50, 700, 400}};
    const Point2 lo = v.to_px({-2.0, 1e-3}), hi = v.to_px({6.0, 1e3});
    EXPECT_DOUBLE_EQ(lo.x, 100);
    EXPECT_DOUBLE_EQ(lo.y, 400);   // y grows downward on screen
    EXPECT_DOUBLE_EQ(hi.x, 700);
    EXPECT_DOUBLE_EQ(hi.y, 50);
    EXPECT_NEAR(v.to_px({2.0, 1.0}).x, 400, 1e-9);   // centre of both
    EXPECT_NEAR(v.to_px({2.0, 1.0}).y, 225, 1e-9);   // 10⁰ is half-way between 10⁻³ and 10³
    EXPECT_NEAR(v.to_px({0.0, 10.0}).y, 400 - 350.0 * 4 / 6, 1e-9);
    for (double x : {-2.0, -0.5, 0.0, 3.25, 6.0, 11.0})
        for (double y : {1e-5, 1e-3, 0.02, 1.0, 7.5, 1e3, 1e4}) {
            const Point2 d = v.to_data(v.to_px({x, y}));
            EXPECT_NEAR(d.x, x, 1e-12 * 8);
            EXPECT_NEAR(d.y / y, 1.0, 1e-12);
        }
    EXPECT_TRUE(std::isnan(v.to_px({0.0, 0.0}).y));    // 0 has no place on a log axis
    EXPECT_TRUE(std::isnan(v.to_px({0.0, -1.0}).y));
    EXPECT_TRUE(std::isnan(v.to_px({kNaN, 1.0}).x));
}

TEST(PlotAxis, AutoRangeLinearPadsFivePercent) {
    Plot p;
    p.series.push_back(palette_series(0, "a", {0, 5, 10}, {-1, 3, 1}));
    Series hidden = palette_series(1, "hidden", {1000}, {1000});
    hidden.visible = false;
    p.series.push_back(hidden);
    const AxisRange x = auto_range(p, AxisId::X), y = auto_range(p, AxisId::Y);
    EXPECT_DOUBLE_EQ(x.lo, -0.5);
    EXPECT_DOUBLE_EQ(x.hi, 10.5);
    EXPECT_DOUBLE_EQ(y.lo, -1.2);
    EXPECT_DOUBLE_EQ(y.hi, 3.2);
    p.x.min = 2.0;   // explicit bounds win
    p.y.max = 10.0;
    EXPECT_DOUBLE_EQ(auto_range(p, AxisId::X).lo, 2.0);
    EXPECT_DOUBLE_EQ(auto_range(p, AxisId::X).hi, 10.5);
    EXPECT_DOUBLE_EQ(auto_range(p, AxisId::Y).hi, 10.0);
}

TEST(PlotAxis, AutoRangeLogIgnoresNonPositiveAndNonFinite) {
    Plot p;
    p.x.scale = Scale::Log10;
    p.y.scale = Scale::Log10;
    p.series.push_back(palette_series(0, "g", {1e-2, 1e-1, 1, 10, 100, -5, 1e5},
                                      {0.0, -3.0, 1e-3, 10.0, kNaN, 4.0, kInf}));
    const AxisRange x = auto_range(p, AxisId::X), y = auto_range(p, AxisId::Y);
    // Only (1, 1e-3) and (10, 10) can be drawn: x ∈ [1, 10], y ∈ [1e-3, 10], padded in decades.
    EXPECT_NEAR(std::log10(x.lo), -0.05, 1e-12);
    EXPECT_NEAR(std::log10(x.hi), 1.05, 1e-12);
    EXPECT_NEAR(std::log10(y.lo), -3.2, 1e-12);
    EXPECT_NEAR(std::log10(y.hi), 1.2, 1e-12);
    EXPECT_GT(y.lo, 0.0);
    p.y.min = -1.0;   // unusable on a log axis: ignored
    EXPECT_GT(auto_range(p, AxisId::Y).lo, 0.0);
}

TEST(PlotAxis, AutoRangeDegenerateAndEmpty) {
    Plot p;
    EXPECT_DOUBLE_EQ(auto_range(p, AxisId::X).lo, 0.0);
    EXPECT_DOUBLE_EQ(auto_range(p, AxisId::X).hi, 1.0);
    p.y.scale = Scale::Log10;
    EXPECT_DOUBLE_EQ(auto_range(p, AxisId::Y).lo, 1.0);
    EXPECT_DOUBLE_EQ(auto_range(p, AxisId::Y).hi, 10.0);
    p.y.scale = Scale::Linear;
    p.series.push_back(palette_series(0, "c", {3, 3}, {0, kNaN}));
    const AxisRange x = auto_range(p, AxisId::X);
    EXPECT_LT(x.lo, 3.0);
    EXPECT_GT(x.hi, 3.0);
    p.x.min = 5.0;
    p.x.max = 5.0;   // min == max: widened around it
    EXPECT_LT(auto_range(p, AxisId::X).lo, 5.0);
    EXPECT_GT(auto_range(p, AxisId::X).hi, 5.0);
    p.x.min = 8.0;
    p.x.max = 2.0;   // reversed: swapped
    EXPECT_DOUBLE_EQ(auto_range(p, AxisId::X).lo, 2.0);
    EXPECT_DOUBLE_EQ(auto_range(p, AxisId::X).hi, 8.0);
}

TEST(PlotAxis, AutoRangeBarsStartAtZero) {
    Plot p;
    p.series.push_back(palette_series(0, "bars", {1, 2, 3}, {2, 4, 3}, SeriesKind::Bars));
    const AxisRange y = auto_range(p, AxisId::Y), x = auto_range(p, AxisId::X);
    EXPECT_DOUBLE_EQ(y.lo, 0.0);
    EXPECT_DOUBLE_EQ(y.hi, 4.2);
    EXPECT_LT(x.lo, 0.5);   // half a slot each side, then padding
    EXPECT_GT(x.hi, 3.5);
}

TEST(PlotAxis, AutoRangeIncludesReferenceLinesAndAnnotations) {
    Plot p;
    p.series.push_back(palette_series(0, "a", {0, 1}, {5, 6}));
    p.ref_lines.push_back({RefLine::Orientation::Horizontal, 1.0, "tol", {}, LineStyle::Dashed, 1.0});
    p.annotations.push_back({3.0, 5.5, "note"});
    EXPECT_LT(auto_range(p, AxisId::Y).lo, 1.0);
    EXPECT_GT(auto_range(p, AxisId::X).hi, 3.0);
}

TEST(PlotAxis, ZoomAndPan) {
    const AxisRange lin{Scale::Linear, 0.0, 10.0};
    const AxisRange z = zoomed(lin, 2.0, 0.5);   // about x = 2: it keeps its place
    EXPECT_NEAR(z.lo, 1.0, 1e-12);
    EXPECT_NEAR(z.hi, 6.0, 1e-12);
    EXPECT_NEAR(z.to_unit(2.0), lin.to_unit(2.0), 1e-12);
    const AxisRange lg{Scale::Log10, 1e-2, 1e2};
    const AxisRange pl = panned(lg, 0.25);   // a quarter of four decades
    EXPECT_NEAR(pl.lo, 1e-1, 1e-13);
    EXPECT_NEAR(pl.hi, 1e3, 1e-9);
    const AxisRange zl = zoomed(lg, 1.0, 2.0);
    EXPECT_NEAR(zl.lo, 1e-4, 1e-17);
    EXPECT_NEAR(zl.hi, 1e4, 1e-8);
    EXPECT_DOUBLE_EQ(zoomed(lin, 2.0, kNaN).hi, 10.0);   // bad input leaves the range alone
    EXPECT_DOUBLE_EQ(panned(lin, kInf).lo, 0.0);
}

// [SECTION] Geometry ------------------------------------------------------------------------

Viewport unit_view() { return {{Scale::Linear, 0.0, 10.0}, {Scale::Linear, 0.0, 10.0}, {0, 0, 100, 100}}; }

TEST(PlotGeometry, PolylinesBreakAtNonFinite) {
    Series s = palette_series(0, "s", {1, 2, 3, 4, 5, 6, 7}, {1, 2, kNaN, 3, 4, kInf, 5});
    const auto lines = series_polylines(s, unit_view());
    ASSERT_EQ(lines.size(), 2u);   // {1,2} and {3,4}; the lone point 7 draws no line
    EXPECT_EQ(lines[0].size(), 2u);
    EXPECT_EQ(lines[1].size(), 2u);
    EXPECT_DOUBLE_EQ(lines[0][0].x, 10.0);
    EXPECT_DOUBLE_EQ(lines[0][0].y, 90.0);
}

TEST(PlotGeometry, PolylinesBreakAtNonPositiveOnLogAxis) {
    Viewport v = unit_view();
    v.y = {Scale::Log10, 0.1, 100.0};
    Series s = palette_series(0, "s", {1, 2, 3, 4, 5}, {1, 2, 0, 3, 4});
    EXPECT_EQ(series_polylines(s, v).size(), 2u);
    s.y[2] = -1.0;
    EXPECT_EQ(series_polylines(s, v).size(), 2u);
    s.y[2] = 2.5;
    EXPECT_EQ(series_polylines(s, v).size(), 1u);
}

TEST(PlotGeometry, PolylinesAreClippedToTheDataArea) {
    Series s = palette_series(0, "s", {5, 5, 6, 1e300}, {5, 1e200, 5, 5});
    const auto lines = series_polylines(s, unit_view(), 4.0);
    for (const auto& l : lines)
        for (const Point2& p : l) {
            EXPECT_GE(p.x, -4.0 - 1e-9);
            EXPECT_LE(p.x, 104.0 + 1e-9);
            EXPECT_GE(p.y, -4.0 - 1e-9);
            EXPECT_LE(p.y, 104.0 + 1e-9);
        }
    // The segment up to (5, 1e200) leaves at the top edge; the next one comes back from there.
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_NEAR(lines[0].back().y, -4.0, 1e-9);
    EXPECT_NEAR(lines[1].front().y, -4.0, 1e-9);
}

TEST(PlotGeometry, MarkersAndBars) {
    std::vector<double> x, y;
    for (int i = 0; i <= 100; ++i) {
        x.push_back(0.1 * i);
        y.push_back(0.05 * i);
    }
    Series line = palette_series(0, "dense", x, y);
    EXPECT_EQ(series_markers(line, unit_view()).size(), static_cast<std::size_t>(kMaxLineMarkers));
    line.marker = Marker::None;
    EXPECT_TRUE(series_markers(line, unit_view()).empty());
    Series sc = palette_series(1, "scatter", {1, 2, 30}, {1, kNaN, 3}, SeriesKind::Scatter);
    sc.marker = Marker::None;
    EXPECT_EQ(effective_marker(sc), Marker::Circle);
    EXPECT_EQ(series_markers(sc, unit_view()).size(), 1u);   // NaN and off-area points dropped

    Plot p;
    p.series.push_back(palette_series(0, "a", {2, 4, 6}, {1, 5, 3}, SeriesKind::Bars));
    p.series.push_back(palette_series(1, "b", {2, 4, 6}, {2, 2, 2}, SeriesKind::Bars));
    const auto a = series_bars(p, 0, unit_view()), b = series_bars(p, 1, unit_view());
    ASSERT_EQ(a.size(), 3u);
    ASSERT_EQ(b.size(), 3u);
    EXPECT_NEAR(a[0].x1, b[0].x0, 1e-9);   // side by side in one slot of 0.8 × 20 px
    EXPECT_NEAR(b[0].x1 - a[0].x0, 16.0, 1e-9);
    EXPECT_DOUBLE_EQ(a[1].y1, 100.0);      // from y = 0 …
    EXPECT_DOUBLE_EQ(a[1].y0, 50.0);       // … to y = 5
    EXPECT_TRUE(series_bars(p, 5, unit_view()).empty());
}

TEST(PlotGeometry, DashesKeepTheirPhase) {
    const std::vector<Point2> l{{0, 0}, {10, 0}, {10, 10}};
    const auto dashes = apply_dashes(l, {4.0, 2.0});
    // On at lengths 0–4, 6–10 (ending at the corner), 12–16 and 18–20 of the 20 px.
    ASSERT_EQ(dashes.size(), 4u);
    EXPECT_DOUBLE_EQ(dashes[1].front().x, 6.0);
    EXPECT_EQ(dashes[1].size(), 2u);
    EXPECT_DOUBLE_EQ(dashes[2].front().y, 2.0);
    double on = 0.0;
    for (const auto& d : dashes)
        for (std::size_t i = 1; i < d.size(); ++i) on += std::hypot(d[i].x - d[i - 1].x, d[i].y - d[i - 1].y);
    EXPECT_NEAR(on, 4 + 4 + 4 + 2, 1e-9);   // 0–4, 6–10, 12–16, 18–20
    EXPECT_EQ(apply_dashes(l, {}).size(), 1u);
    EXPECT_TRUE(dash_pattern(LineStyle::Solid, 2.0).empty());
    EXPECT_EQ(dash_pattern(LineStyle::Dashed, 1.5).size(), 2u);
}

TEST(PlotGeometry, NearestPoint) {
    Plot p;
    p.series.push_back(palette_series(0, "a", {1, 5}, {1, 5}));
    p.series.push_back(palette_series(1, "b", {5.2}, {5.1}));
    const auto hit = nearest_point(p, unit_view(), {52, 49}, 8.0);
    ASSERT_TRUE(hit.has_value());
    EXPECT_EQ(hit->series, 1u);
    EXPECT_EQ(hit->index, 0u);
    EXPECT_FALSE(nearest_point(p, unit_view(), {90, 10}, 8.0).has_value());
}

TEST(PlotGeometry, PaletteIsOkabeItoAndDistinctInGreyscale) {
    EXPECT_EQ(to_hex(palette_color(0)), "#0072b2");
    EXPECT_EQ(to_hex(palette_color(1)), "#d55e00");
    EXPECT_EQ(to_hex(palette_color(8)), "#0072b2");
    EXPECT_EQ(to_hex(palette_color(-3)), "#0072b2");
    for (int i = 0; i < kPaletteSize; ++i)
        for (int j = 0; j < i; ++j) {
            EXPECT_NE(to_hex(palette_color(i)), to_hex(palette_color(j)));
            EXPECT_TRUE(palette_dash(i) != palette_dash(j) || palette_marker(i) != palette_marker(j)) << i << " " << j;
        }
}

// Equal aspect: a unit is as many pixels across as up, whatever the figure's shape; the data stay inside.
// A short log y axis (a small figure under its legend): even its fewest decade labels would
// touch, so fewer decades are labelled; labelled y ticks stay 1.4 text heights apart.
TEST(PlotLayout, ShortLogAxisThinsItsDecadeLabels) {
    Plot p;
    p.y.scale = Scale::Log10;
    p.series.push_back(palette_series(0, "", {0, 1, 2}, {1e-4, 1e-2, 1e-1}));
    for (double h : {100.0, 130.0, 400.0}) {
        const PlotLayout L = layout_plot(p, {0, 0, 400, h});
        SCOPED_TRACE(h);
        double prev = std::numeric_limits<double>::infinity();
        int labelled = 0;
        for (const PlacedTick& t : L.y_ticks) {
            if (t.tick.label.empty()) continue;
            EXPECT_GE(std::fabs(prev - t.pos), 1.4 * PlotStyle{}.tick_font_px);
            prev = t.pos;
            ++labelled;
        }
        EXPECT_GE(labelled, 2);
    }
}

TEST(PlotLayout, EqualAspectWidensTheShortRange) {
    Plot p;
    p.series.push_back(palette_series(0, "circle", {-1.0, 1.0, 0.0, 0.0}, {0.0, 0.0, -1.0, 1.0}, SeriesKind::Scatter));
    p.legend = false;
    p.equal_aspect = true;
    for (const Rect outer : {Rect{0, 0, 720, 450}, Rect{0, 0, 300, 600}}) {
        const PlotLayout L = layout_plot(p, outer);
        const double x_per_px = (L.view.x.hi - L.view.x.lo) / L.view.px.width();
        const double y_per_px = (L.view.y.hi - L.view.y.lo) / L.view.px.height();
        EXPECT_NEAR(x_per_px / y_per_px, 1.0, 0.02) << outer.width() << "×" << outer.height();
        EXPECT_LE(L.view.x.lo, -1.0);
        EXPECT_GE(L.view.y.hi, 1.0);
    }
    p.equal_aspect = false;   // without it, the wide figure stretches x
    const PlotLayout L = layout_plot(p, Rect{0, 0, 720, 450});
    EXPECT_GT((L.view.y.hi - L.view.y.lo) / L.view.px.height() / ((L.view.x.hi - L.view.x.lo) / L.view.px.width()), 1.2);
}

TEST(PlotLayout, BarsAtIntegersGetWholeTicks) {
    Plot p;
    p.series.push_back(palette_series(0, "LayerNorm", {0, 1, 2, 3}, {-1.342, -0.447, 0.447, 1.342}, SeriesKind::Bars));
    p.series.push_back(palette_series(1, "RMSNorm", {0, 1, 2, 3}, {0.365, 0.730, 1.095, 1.461}, SeriesKind::Bars));
    const PlotLayout L = layout_plot(p, {0, 0, 720, 450});
    ASSERT_EQ(L.x_ticks.size(), 4u);
    for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(L.x_ticks[i].tick.value, static_cast<double>(i));
}

TEST(PlotLayout, TicksInsideAndLegendAvoidsData) {
    const Plot p = gradient_plot();
    const PlotLayout L = layout_plot(p, {0, 0, 720, 450});
    const Rect& d = L.view.px;
    EXPECT_GT(d.x0, 20.0);
    EXPECT_LT(d.x1, 720.0);
    EXPECT_GT(d.y0, 16.0);   // below the title
    EXPECT_LT(d.y1, 420.0);
    ASSERT_FALSE(L.x_ticks.empty());
    for (const PlacedTick& t : L.x_ticks) {
        EXPECT_GE(t.pos, d.x0 - 1e-9);
        EXPECT_LE(t.pos, d.x1 + 1e-9);
    }
    for (const PlacedTick& t : L.y_ticks) {
        EXPECT_GE(t.pos, d.y0 - 1e-9);
        EXPECT_LE(t.pos, d.y1 + 1e-9);
    }
    EXPECT_EQ(L.x_tick_labels.size(), 5u);   // 10⁻² … 10²
    ASSERT_EQ(L.y_label.size(), 1u);
    EXPECT_EQ(L.y_label[0].rotate_deg, -90.0);
    ASSERT_TRUE(L.has_legend);
    EXPECT_EQ(L.legend.size(), 2u);
    // ‖∂L/∂W‖ falls from top-left to bottom-right: the legend goes top-right or bottom-left.
    const bool right = L.legend_box.x1 > 0.5 * (d.x0 + d.x1), top = L.legend_box.y0 < 0.5 * (d.y0 + d.y1);
    EXPECT_EQ(right, top);
    EXPECT_EQ(L.annotations.size(), 1u);
    // At 3× (the PNG export) everything lands at 3× the pixel position.
    const PlotLayout L3 = layout_plot(p, {0, 0, 3 * 720, 3 * 450}, scaled(PlotStyle{}, 3.0));
    EXPECT_NEAR(L3.view.px.x0, 3 * d.x0, 1e-6);
    EXPECT_NEAR(L3.view.px.y1, 3 * d.y1, 1e-6);
    ASSERT_EQ(L3.x_ticks.size(), L.x_ticks.size());
    EXPECT_NEAR(L3.x_ticks[1].pos, 3 * L.x_ticks[1].pos, 1e-6);
    EXPECT_NEAR(L3.legend_box.x0, 3 * L.legend_box.x0, 1e-6);
    // A measured text width changes the left margin (the ImGui view passes CalcTextSize).
    PlotStyle wide;
    wide.text_width = [](std::string_view t, double f) { return 2.0 * estimate_text_width(t, f); };
    EXPECT_GT(layout_plot(p, {0, 0, 720, 450}, wide).view.px.x0, d.x0);
}

// Auto legends make room at a free end of y when every corner of the data area is crowded.

// Whether segment a→b meets rectangle r (sampled every ≤ 0.1 px: independent of clip_segment).
bool segment_meets(Point2 a, Point2 b, const Rect& r) {
    const int n = 1 + static_cast<int>(10.0 * std::hypot(b.x - a.x, b.y - a.y));
    for (int i = 0; i <= n; ++i) {
        const double t = static_cast<double>(i) / n;
        if (r.contains({a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)})) return true;
    }
    return false;
}

// How many drawn line segments and markers (as discs) of the drawn() series meet the legend box.
int legend_hits(const Plot& p, const PlotLayout& L) {
    int hits = 0;
    for (const Series& s : p.series) {
        if (!drawn(s)) continue;
        for (const auto& line : series_polylines(s, L.view))
            for (std::size_t i = 1; i < line.size(); ++i) hits += segment_meets(line[i - 1], line[i], L.legend_box);
        const double r = 0.5 * s.marker_size;
        const Rect& b = L.legend_box;
        for (const Point2& m : series_markers(s, L.view))
            hits += m.x > b.x0 - r && m.x < b.x1 + r && m.y > b.y0 - r && m.y < b.y1 + r;
    }
    return hits;
}

// The GPU lab's "Forward GB/s": a flat copy curve along the top, three norms low, y from 0.
Plot gpu_like_plot() {
    Plot p;
    p.x = {"width C (floats per row)", Scale::Log10, std::nullopt, std::nullopt};
    p.y = {"GB/s", Scale::Linear, 0.0, std::nullopt};
    const std::vector<double> c = {256, 512, 1024, 2048, 4096, 8192};
    const char* labels[] = {"GPU copy", "GPU LayerNorm", "GPU RMSNorm", "GPU pRMSNorm"};
    const std::vector<double> ys[] = {{11.8, 12.0, 12.1, 12.2, 12.3, 12.4},
                                      {2.0, 2.2, 2.5, 2.8, 3.0, 3.2},
                                      {2.9, 3.1, 3.4, 3.8, 4.0, 4.2},
                                      {3.5, 3.8, 4.1, 4.5, 4.8, 5.0}};
    for (int i = 0; i < 4; ++i) {
        Series s = palette_series(i, labels[i], c, ys[i]);
        s.line = LineStyle::Solid;
        s.marker = Marker::Circle;
        p.series.push_back(std::move(s));
    }
    p.legend_corner = LegendCorner::Auto;
    return p;
}

// Whether v lies on the grid of L's labelled y ticks continued (a whole number of major steps).
bool on_tick_grid(const PlotLayout& L, double v) {
    std::vector<double> major;
    for (const PlacedTick& t : L.y_ticks)
        if (!t.tick.label.empty()) major.push_back(t.tick.value);
    if (major.size() < 2) return false;
    const double steps = v / (major[1] - major[0]);
    return std::fabs(steps - std::round(steps)) < 1e-9;
}

// A y label longer than the height under a wrapped title (a short, narrow figure: the GPU lab's
// "time saved" at 1024 × 768) is set smaller to fit beside the data area, inside the figure.
// An x label wider than its figure (a long translation) is set smaller, to 70% at least, and
// stays inside the figure; one that fits keeps its size and its place under the data.
TEST(PlotLayout, LongXLabelShrinksToTheFiguresWidth) {
    Plot p;
    p.x.label = "width C (floats per row), the number of features each norm normalizes over";
    p.series.push_back(palette_series(0, "fwd", {1, 2, 3}, {10, 20, 15}));
    const Rect outer{0, 0, 400, 200};
    const PlotLayout L = layout_plot(p, outer);
    const double length = estimate_text_width(p.x.label, L.x_label.font_px);
    EXPECT_LT(L.x_label.font_px, PlotStyle{}.label_font_px);
    EXPECT_GE(L.x_label.font_px, 0.7 * PlotStyle{}.label_font_px - 1e-9);
    EXPECT_GE(L.x_label.at.x - 0.5 * length, outer.x0 - 1e-9);
    EXPECT_LE(L.x_label.at.x + 0.5 * length, outer.x1 + 1e-9);
    p.x.label = "width C";
    const PlotLayout fits = layout_plot(p, outer);
    EXPECT_DOUBLE_EQ(fits.x_label.font_px, PlotStyle{}.label_font_px);
    EXPECT_DOUBLE_EQ(fits.x_label.at.x, 0.5 * (fits.view.px.x0 + fits.view.px.x1));
}

TEST(PlotLayout, LongYLabelShrinksToTheHeightUnderTheTitle) {
    Plot p;
    p.title = "Time saved";
    p.y.label = "time saved vs LayerNorm (%)";
    p.series.push_back(palette_series(0, "fwd", {1, 2, 3}, {10, 20, 15}));
    const Rect outer{0, 0, 400, 200};
    const PlotLayout L = layout_plot(p, outer);
    ASSERT_EQ(L.y_label.size(), 1u);
    const PlacedText& y = L.y_label[0];
    const double length = estimate_text_width(p.y.label, y.font_px);
    EXPECT_LT(y.font_px, PlotStyle{}.label_font_px);            // it had to shrink
    EXPECT_GE(y.font_px, 0.7 * PlotStyle{}.label_font_px - 1e-9);
    EXPECT_GE(y.at.y - 0.5 * length, outer.y0 - 1e-9);           // wholly inside the figure
    EXPECT_LE(y.at.y + 0.5 * length, outer.y1 + 1e-9);
    EXPECT_GE(y.at.y - 0.5 * length, L.view.px.y0 - 1e-6);      // and beside the data, under the title
    // A tall figure keeps the label's size.
    const PlotLayout tall = layout_plot(p, {0, 0, 720, 450});
    ASSERT_EQ(tall.y_label.size(), 1u);
    EXPECT_DOUBLE_EQ(tall.y_label[0].font_px, PlotStyle{}.label_font_px);
}

// Where even 70% is too long (a title wrapped over four lines, a translation 40% longer), the y
// label goes onto two lines, each beside the data under the title, inside the figure, clear of
// the y tick labels; where two lines cannot hold it, the second ends in "…".
TEST(PlotLayout, YLabelTooLongEvenSmallerTakesTwoLinesUnderTheTitle) {
    Plot p;
    p.title = "Time saved by RMSNorm over LayerNorm, per row width, forward and backward";
    p.y.label = "[tímé sávéd vs LáýérNórm (%) ~~~~~~~~]";
    p.series.push_back(palette_series(0, "fwd", {1, 2, 3}, {10, 20, 15}));
    for (const double h : {300.0, 150.0}) {
        SCOPED_TRACE(h);
        const Rect outer{0, 0, 240, h};
        const PlotLayout L = layout_plot(p, outer);
        ASSERT_EQ(L.y_label.size(), 2u);
        std::string joined;
        double right = 0.0;   // the right edge of the last line's glyphs (rotated: its descent side)
        for (const PlacedText& t : L.y_label) {
            const double length = estimate_text_width(t.text, t.font_px);
            EXPECT_EQ(t.rotate_deg, -90.0);
            EXPECT_GE(t.at.y - 0.5 * length, L.view.px.y0 - 1e-6);   // under the title
            EXPECT_LE(t.at.y + 0.5 * length, outer.y1 + 1e-9);
            EXPECT_GE(t.font_px, 0.7 * PlotStyle{}.label_font_px - 1e-9);
            joined += t.text;
            right = t.at.x + 0.3 * t.font_px;
        }
        EXPECT_LT(L.y_label[0].at.x, L.y_label[1].at.x);   // the first line leftmost
        for (const PlacedText& t : L.y_tick_labels)
            EXPECT_LE(right, t.at.x - estimate_text_width(t.text, t.font_px) + 1e-6);
        if (h == 300.0) {
            EXPECT_EQ(L.y_label[0].text + " " + L.y_label[1].text, p.y.label);   // whole, broken at a space
        } else {
            EXPECT_NE(joined.find("…"), std::string::npos);
        }
    }
    // Chinese breaks between characters.
    p.y.label = "与层归一化相比节省的时间（%），按每行宽度计算";
    const PlotLayout zh = layout_plot(p, {0, 0, 240, 300});
    ASSERT_EQ(zh.y_label.size(), 2u);
    EXPECT_EQ(zh.y_label[0].text + zh.y_label[1].text, p.y.label);
}

// Legend labels longer than the figure is wide (a device name in a 40% longer translation) are
// set smaller, then shortened with "…": the legend stays inside the figure, none of it cut.
TEST(PlotLayout, LegendWiderThanItsFigureIsShortenedToFit) {
    Plot p;
    p.title = "Step time";
    p.series.push_back(palette_series(0, "[Nóñé ]", {1, 2, 3}, {1, 2, 3}));
    p.series.push_back(palette_series(1, "[llvmpípé (ÇPÚ) LayerNorm ×2 láýérs ~~~~~~~~]", {1, 2, 3}, {3, 2, 1}));
    p.series.push_back(palette_series(2, "[llvmpípé (ÇPÚ) RMSNorm ×2 láýérs ~~~~~~~~ and a good deal more text]", {1, 2, 3},
                                      {2, 2, 2}));
    const Rect outer{0, 0, 300, 320};
    const PlotLayout L = layout_plot(p, outer);
    ASSERT_TRUE(L.has_legend);
    ASSERT_EQ(L.legend.size(), 3u);
    EXPECT_GE(L.legend_box.x0, outer.x0 - 1e-9);
    EXPECT_LE(L.legend_box.x1, outer.x1 + 1e-9);
    for (const LegendEntry& e : L.legend) {
        EXPECT_GE(e.label.font_px, 0.7 * PlotStyle{}.tick_font_px - 1e-9);
        EXPECT_LE(e.label.at.x + estimate_text_width(e.label.text, e.label.font_px), L.legend_box.x1 + 1e-6);
    }
    EXPECT_EQ(L.legend[0].label.text, "[Nóñé ]");
    EXPECT_NE(L.legend[2].label.text.find("…"), std::string::npos);
    // A legend that fits keeps its labels and size.
    const PlotLayout wide = layout_plot(p, {0, 0, 2000, 600});
    EXPECT_EQ(wide.legend[2].label.text, p.series[2].label);
    EXPECT_DOUBLE_EQ(wide.legend[2].label.font_px, PlotStyle{}.tick_font_px);
}

// Data in every corner and fixed y ends (no room can be grown): the legend goes right of the
// data area in a wide figure, under it in a narrow tall one, never over a curve or a tick label.
Plot crowded_plot() {
    Plot p;
    p.y.min = 0.0;
    p.y.max = 1.0;
    for (int i = 0; i < 4; ++i) {
        const double level = 0.05 + 0.3 * i;
        p.series.push_back(palette_series(i, "level " + std::to_string(i), {0, 1}, {level, level}));
    }
    p.series.push_back(palette_series(4, "rising", {0, 1}, {0, 1}));
    return p;
}

TEST(PlotLegendPlace, EveryCornerCrowdedPutsTheLegendRightOfTheData) {
    const Rect outer{0, 0, 900, 400};
    const PlotLayout L = layout_plot(crowded_plot(), outer);
    ASSERT_TRUE(L.has_legend);
    EXPECT_TRUE(L.legend_outside);
    EXPECT_GE(L.legend_box.x0, L.view.px.x1);                   // right of the data area
    EXPECT_LE(L.legend_box.x1, outer.x1 + 1e-9);                // inside the figure
    EXPECT_DOUBLE_EQ(L.legend_box.y0, L.view.px.y0);            // level with the data's top
    Plot without = crowded_plot();
    without.legend = false;
    EXPECT_GE(L.view.px.width(), 0.6 * layout_plot(without, outer).view.px.width() - 1e-9);
    EXPECT_LT(L.view.px.width(), layout_plot(without, outer).view.px.width());
    EXPECT_DOUBLE_EQ(L.outer.x1, outer.x1);
    for (const PlacedText& t : L.x_tick_labels) EXPECT_LT(t.at.x, L.legend_box.x0);
}

TEST(PlotLegendPlace, NarrowFigurePutsItUnderTheData) {
    const Rect outer{0, 0, 260, 520};
    const PlotLayout L = layout_plot(crowded_plot(), outer);
    ASSERT_TRUE(L.has_legend);
    EXPECT_TRUE(L.legend_outside);
    for (const PlacedText& t : L.x_tick_labels) EXPECT_LT(t.at.y, L.legend_box.y0);   // under the tick labels
    EXPECT_LE(L.legend_box.y1, outer.y1 + 1e-9);
    EXPECT_GE(L.legend_box.x0, outer.x0);
}

// A small figure (the Training lab's charts at 1280×720): right of the data would leave them too
// narrow, so the legend goes under the x label (the data keep at least half their height) with
// its entries side by side, two to a row,
// each entry clear of the others and inside the figure.
TEST(PlotLegendPlace, UnderTheDataTheEntriesShareRows) {
    Plot p = crowded_plot();
    const char* names[] = {"None", "LayerNorm", "RMSNorm", "pRMSNorm", "rising"};
    for (std::size_t i = 0; i < p.series.size(); ++i) p.series[i].label = names[i];
    const Rect outer{0, 0, 330, 300};
    const PlotLayout L = layout_plot(p, outer);
    ASSERT_TRUE(L.has_legend);
    ASSERT_TRUE(L.legend_outside);
    for (const PlacedText& t : L.x_tick_labels) EXPECT_LT(t.at.y, L.legend_box.y0);
    EXPECT_LE(L.legend_box.y1, outer.y1 + 1e-9);
    EXPECT_GE(L.legend_box.x0, outer.x0);
    EXPECT_LE(L.legend_box.x1, outer.x1 + 1e-9);
    ASSERT_EQ(L.legend.size(), 5u);
    std::set<double> columns, rows;
    for (const LegendEntry& e : L.legend) {
        columns.insert(e.swatch_from.x);
        rows.insert(e.swatch_from.y);
        EXPECT_GE(e.swatch_from.x, L.legend_box.x0);
        EXPECT_LE(e.swatch_from.y, L.legend_box.y1);
    }
    EXPECT_GE(columns.size(), 2u);
    EXPECT_LT(rows.size(), 5u);   // fewer rows than entries: the box is shorter than a column would be
    // Reading order: left to right, then down.
    EXPECT_LT(L.legend[0].swatch_from.x, L.legend[1].swatch_from.x);
    EXPECT_DOUBLE_EQ(L.legend[0].swatch_from.y, L.legend[1].swatch_from.y);
    Plot without = p;
    without.legend = false;
    EXPECT_GE(L.view.px.height(), 0.5 * layout_plot(without, outer).view.px.height() - 1e-9);
}

// The Training slide's loss figure at 1280×720 in the projector theme (612 × 425 px, tick text
// 24 px): four noisy curves over three decades, every corner crowded, a two-line title. Under
// the data in two rows the legend left them 110 px (4.6 text heights); it must leave them at
// least kBelowMinEm (6) text heights, here by a one-row legend in a smaller font, never over data.
TEST(PlotLegendPlace, UnderTheDataTheDataKeepAMinimumHeight) {
    Plot p;
    p.title = "Loss: test (solid) and training (dashed)";
    p.x.label = "step";
    p.y.label = "cross-entropy loss";
    p.y.scale = Scale::Log10;
    const char* names[] = {"None", "LayerNorm", "RMSNorm", "pRMSNorm"};
    for (int i = 0; i < 4; ++i)
        for (const bool test : {true, false}) {
            std::vector<double> x, y;
            for (int t = 0; t <= 2000; t += 20) {
                x.push_back(t);
                const double noise = ((t / 20 + 3 * i + (test ? 0 : 7)) % 5) * 0.6;   // a sawtooth over the curve
                y.push_back(std::max(8e-4, 0.7 * std::exp(-t / (300.0 + 60 * i)) + 5e-3 * (1.0 + noise)));
            }
            Series s = palette_series(i, test ? names[i] : "", x, y);
            s.line = test ? LineStyle::Solid : LineStyle::Dashed;
            s.data_name = names[i];
            p.series.push_back(std::move(s));
        }
    PlotStyle style = scaled(PlotStyle{}, 2.0);
    style.title_font_px = 34.0;
    style.label_font_px = 28.0;
    const double tf = style.tick_font_px;
    for (const Rect outer : {Rect{0, 0, 611.5, 425}, Rect{0, 0, 483.5, 473}}) {
        SCOPED_TRACE(outer.width());
        const PlotLayout L = layout_plot(p, outer, style);
        ASSERT_TRUE(L.has_legend);
        EXPECT_EQ(legend_hits(p, L), 0);
        EXPECT_GE(L.view.px.height(), 6.0 * tf) << "the data squeezed by the legend";
        EXPECT_LE(L.legend_box.y1, outer.y1 + 1e-9);
        EXPECT_LE(L.legend_box.x1, outer.x1 + 1e-9);
        ASSERT_EQ(L.legend.size(), 4u);
        for (const LegendEntry& e : L.legend) EXPECT_GE(e.label.font_px, 0.8 * tf - 1e-9);   // still legible
        for (std::size_t i = 1; i < L.legend.size(); ++i)   // entries clear of each other
            if (L.legend[i].swatch_from.y == L.legend[i - 1].swatch_from.y) {
                const PlacedText& before = L.legend[i - 1].label;
                EXPECT_GE(L.legend[i].swatch_from.x, before.at.x + estimate_text_width(before.text, before.font_px));
            }
    }
}

// A heat map fills its data area (a decision map): an Auto legend in any corner would hide
// cells, so it goes outside; a corner the caller fixed is kept.
TEST(PlotLegendPlace, HeatMapKeepsItsCellsClearOfAnAutoLegend) {
    Plot p;
    p.heat = HeatMap{};
    p.heat->rows = 2;
    p.heat->cols = 2;
    p.heat->x0 = 0.0, p.heat->x1 = 1.0, p.heat->y0 = 0.0, p.heat->y1 = 1.0;
    p.heat->colors.assign(4, Color{200, 180, 220});
    p.series.push_back(palette_series(0, "class 0", {0.5}, {0.5}));
    const PlotLayout L = layout_plot(p, {0, 0, 720, 450});
    ASSERT_TRUE(L.has_legend);
    EXPECT_TRUE(L.legend_outside);
    const Rect& d = L.view.px;
    const Rect& b = L.legend_box;
    EXPECT_TRUE(b.x0 >= d.x1 || b.y0 >= d.y1);   // right of the cells or under them
    p.legend_corner = LegendCorner::TopRight;
    const PlotLayout fixed = layout_plot(p, {0, 0, 720, 450});
    EXPECT_FALSE(fixed.legend_outside);
}

// A legend taller than the data area (a short figure, fixed corner) would cover the x tick
// labels inside a corner: it goes outside; with a free corner it stays inside.
TEST(PlotLegendPlace, BoxTallerThanTheDataGoesOutsideEvenInAFixedCorner) {
    Plot p = crowded_plot();
    p.legend_corner = LegendCorner::TopRight;
    const PlotLayout shortfig = layout_plot(p, {0, 0, 900, 130});
    EXPECT_TRUE(shortfig.legend_outside);
    EXPECT_GE(shortfig.legend_box.x0, shortfig.view.px.x1);
    const PlotLayout tall = layout_plot(p, {0, 0, 900, 600});
    EXPECT_FALSE(tall.legend_outside);
}

TEST(PlotLegendRoom, CrowdedCornersGrowTheFreeTopUntilTheLegendIsClear) {
    const Plot p = gpu_like_plot();
    const AxisRange plain = auto_range(p, AxisId::Y);   // 0 … data max + 5%
    for (const Rect outer : {Rect{0, 0, 720, 450}, Rect{0, 0, 500, 360}, Rect{0, 0, 3 * 720, 3 * 450}}) {
        const PlotStyle style = scaled(PlotStyle{}, outer.width() > 1000 ? 3.0 : 1.0);
        const PlotLayout L = layout_plot(p, outer, style);
        Plot fixed = p;
        fixed.legend_corner = LegendCorner::TopRight;
        const PlotLayout before = layout_plot(fixed, outer, style);   // the ranges as they were
        SCOPED_TRACE(outer.width());
        ASSERT_TRUE(L.has_legend);
        EXPECT_EQ(legend_hits(p, L), 0);
        EXPECT_EQ(L.view.y.lo, 0.0);
        EXPECT_GT(L.view.y.hi, plain.hi);
        EXPECT_LE(L.view.y.hi - L.view.y.lo, 2.0 * (plain.hi - plain.lo));   // capped: no sliver
        EXPECT_TRUE(on_tick_grid(before, L.view.y.hi)) << L.view.y.hi;   // a nice value
        EXPECT_LT(L.legend_box.y1, 0.5 * (L.view.px.y0 + L.view.px.y1));   // a top corner
        // The copy curve now runs below the legend, at its end on the legend's side.
        const bool right = L.legend_box.x1 > 0.5 * (L.view.px.x0 + L.view.px.x1);
        EXPECT_GT(L.view.to_px(right ? Point2{8192, 12.4} : Point2{256, 11.8}).y, L.legend_box.y1);
    }
    // The same at 1× and 3× (the PNG export): the legend lands at 3× the pixel position.
    const PlotLayout L1 = layout_plot(p, {0, 0, 720, 450});
    const PlotLayout L3 = layout_plot(p, {0, 0, 3 * 720, 3 * 450}, scaled(PlotStyle{}, 3.0));
    EXPECT_EQ(L3.view.y.hi, L1.view.y.hi);
    EXPECT_NEAR(L3.legend_box.x0, 3 * L1.legend_box.x0, 1e-6);
}

// The GPU lab's figures at 1024×768 in the projector theme (~470 × 450 px at 1.5×): every corner
// crowded, and right of the data or under them leaves less than the shares legend_outside
// prefers. The legend still goes outside, where the data keep more of their area, rather than
// over the curves (a figure of this size has the room).
TEST(PlotLegendPlace, SmallCrowdedFigureNeverPutsTheLegendOverData) {
    Plot p = crowded_plot();
    const char* names[] = {"GPU copy", "GPU LayerNorm", "GPU RMSNorm", "GPU pRMSNorm", "GPU rising curve"};
    for (std::size_t i = 0; i < p.series.size(); ++i) p.series[i].label = names[i];
    p.x.label = "width C (floats per row)";
    p.y.label = "GB/s";
    for (const double w : {300.0, 360.0, 420.0})
        for (const double h : {220.0, 300.0}) {
            SCOPED_TRACE(std::to_string(w) + " x " + std::to_string(h));
            const PlotLayout L = layout_plot(p, {0, 0, w, h});
            ASSERT_TRUE(L.has_legend);
            EXPECT_EQ(legend_hits(p, L), 0);
        }
}

// Crowded end labels (the Gradients slide's 12 slopes at 1024×768): where the data area's height
// cannot hold them 1.2 text heights apart in the tick font, they are set at 0.8 of it rather than
// the last ones left out; fewer are left out only where even that is too tall.
TEST(PlotEndLabels, CrowdedLabelsShrinkBeforeAnyIsLeftOut) {
    Plot p;
    for (int i = 0; i < 8; ++i) {
        Series s = palette_series(i, "", {0, 1}, {0.0, 1.0 + 0.01 * i});   // ends 0.01 apart: pushed apart
        s.end_label = "s " + std::to_string(i);
        p.series.push_back(std::move(s));
    }
    const double tf = PlotStyle{}.tick_font_px;
    bool shrunk = false;
    for (double h = 100; h <= 240; h += 4) {
        SCOPED_TRACE(h);
        const PlotLayout L = layout_plot(p, {0, 0, 400, h});
        const double room = L.view.px.height() - 0.2 * tf;
        const auto rows = [&](double f) { return static_cast<std::size_t>(std::floor(room / (1.2 * f))) + 1; };
        if (rows(tf) >= 8) {
            EXPECT_EQ(L.end_labels.size(), 8u);
            for (const EndLabel& e : L.end_labels) EXPECT_DOUBLE_EQ(e.label.font_px, tf);
        } else if (rows(0.8 * tf) >= 8) {
            EXPECT_EQ(L.end_labels.size(), 8u) << "none left out where the smaller font holds them";
            for (const EndLabel& e : L.end_labels) EXPECT_DOUBLE_EQ(e.label.font_px, 0.8 * tf);
            shrunk = true;
        }
    }
    EXPECT_TRUE(shrunk);
}

// Vertical reference lines close together (the Number formats δ-sweep at 1024×768): a label
// in the way at the top and at the foot goes a row down its line rather than being left out.
TEST(PlotRefLabels, CrowdedVerticalLabelsStackDownTheirLines) {
    Plot p;
    p.series.push_back(palette_series(0, "", {0, 10}, {0, 1}));
    p.legend = false;
    for (const double x : {3.0, 3.5, 4.0, 4.5}) {
        RefLine r;
        r.orientation = RefLine::Orientation::Vertical;
        r.value = x;
        r.label = "line at " + std::to_string(x).substr(0, 3);
        p.ref_lines.push_back(r);
    }
    const PlotLayout L = layout_plot(p, {0, 0, 400, 300});
    ASSERT_EQ(L.ref_labels.size(), 4u);
    const double tf = PlotStyle{}.tick_font_px;
    for (std::size_t i = 0; i < L.ref_labels.size(); ++i) {
        const PlacedText& a = L.ref_labels[i];
        EXPECT_LE(a.at.y, L.view.px.y1 + 1e-9);
        for (std::size_t j = i + 1; j < L.ref_labels.size(); ++j) {
            const PlacedText& b = L.ref_labels[j];
            const double wa = estimate_text_width(a.text, tf), wb = estimate_text_width(b.text, tf);
            const double ax = a.anchor == TextAnchor::End ? a.at.x - wa : a.at.x, bx = b.anchor == TextAnchor::End ? b.at.x - wb : b.at.x;
            const bool meet = ax < bx + wb && bx < ax + wa && std::fabs(a.at.y - b.at.y) < tf;
            EXPECT_FALSE(meet) << a.text << " / " << b.text;
        }
    }
}

// Series::end_label: right of the data area, level with the line's end, one label for the same
// text at nearly the same end (in the text colour where the curves differ in colour), pushed
// apart where ends are close, the last series' labels left out where the height cannot hold them.
TEST(PlotEndLabels, RightOfTheDataLevelWithTheirEndsAndApart) {
    Plot p;
    const auto line = [&](int i, double end, const char* label) {
        Series s = palette_series(i, "", {0, 1}, {0.5 * end, end});
        s.end_label = label;
        p.series.push_back(std::move(s));
    };
    line(0, 1.0, "a");
    line(1, 1.0, "a");
    line(2, 1.03, "b");
    line(3, 5.0, "c");
    Plot bare = p;
    for (Series& s : bare.series) s.end_label.clear();
    const Rect outer{0, 0, 400, 300};
    const PlotLayout L = layout_plot(p, outer);
    EXPECT_LT(L.view.px.x1, layout_plot(bare, outer).view.px.x1);   // room made on the right
    ASSERT_EQ(L.end_labels.size(), 3u);   // "a" once
    const double tf = PlotStyle{}.tick_font_px;
    for (std::size_t i = 0; i < L.end_labels.size(); ++i) {
        const EndLabel& e = L.end_labels[i];
        EXPECT_GT(e.label.at.x, L.view.px.x1);
        EXPECT_LE(e.label.at.x + estimate_text_width(e.label.text, tf), outer.x1);
        EXPECT_GE(e.label.at.y - tf, L.view.px.y0 - tf);
        EXPECT_LE(e.label.at.y, L.view.px.y1);
        if (i > 0) {
            EXPECT_GE(e.label.at.y - L.end_labels[i - 1].label.at.y, 1.2 * tf - 1e-9);
        }
    }
    EXPECT_EQ(L.end_labels[0].label.text, "c");   // top first
    EXPECT_TRUE(L.end_labels[0].leader);          // level with its end, a leader as its column's others
    EXPECT_NEAR(L.end_labels[0].label.at.y - 0.36 * tf, L.view.to_px({1, 5.0}).y, 1e-9);
    EXPECT_EQ(L.end_labels[2].label.text, "a");
    EXPECT_TRUE(L.end_labels[2].shared);          // blue and vermillion curves
    EXPECT_EQ(L.end_labels[2].series, 0u);
    EXPECT_FALSE(L.end_labels[1].shared);
    EXPECT_TRUE(L.end_labels[1].leader || L.end_labels[2].leader);   // "a" and "b" pushed apart
    // A short figure holds fewer: the later series' labels go.
    Plot many;
    for (int i = 0; i < 12; ++i) {
        Series s = palette_series(i, "", {0, 1}, {1, 1});
        s.end_label = "curve " + std::to_string(i);
        many.series.push_back(std::move(s));
    }
    const PlotLayout S = layout_plot(many, {0, 0, 400, 120});
    ASSERT_GT(S.end_labels.size(), 0u);
    ASSERT_LT(S.end_labels.size(), 12u);
    for (const EndLabel& e : S.end_labels) EXPECT_LT(e.series, S.end_labels.size());
    EXPECT_NE(to_svg(p).find(">c</text>"), std::string::npos);
}

// Crowded end labels as in the Gradients lab (ten slopes, most ending in two bundles; in Chinese
// at 1024×768 they were stacked with no gap and their leaders ran along each other in a strip a
// quarter of a text height wide): at every height, each label clear of the next by a fifth of a
// text height, right of the data area, and, once any had to move, every label with a straight
// leader that fans out over at least 0.9 text heights, crosses no other leader and meets no label.
TEST(PlotEndLabels, CrowdedLabelsKeepAGapAndTheirLeadersNeverCross) {
    Plot p;
    const double ends[10] = {200, 20, 9, 5, 4, 3.5, 3.2, 3, 0.01, 0.004};
    for (int i = 0; i < 10; ++i) {
        Series s = palette_series(i % 3, "", {0.01, 1, 100}, {ends[i] * 2, ends[i] * 1.5, ends[i]});
        s.end_label = std::string(1, "Wxgb"[i % 4]) + (i % 2 ? " 0.00" : " −1.00");
        p.series.push_back(std::move(s));
    }
    p.x.scale = p.y.scale = Scale::Log10;
    // Where a, b: the leader's ends; whether segments ab and cd cross (touching at an end: no).
    const auto cross = [](Point2 a, Point2 b, Point2 c, Point2 d) {
        const auto side = [](Point2 o, Point2 u, Point2 v) { return (u.x - o.x) * (v.y - o.y) - (u.y - o.y) * (v.x - o.x); };
        return side(a, b, c) * side(a, b, d) < 0.0 && side(c, d, a) * side(c, d, b) < 0.0;
    };
    bool moved_seen = false;
    for (double h = 140; h <= 420; h += 20) {
        SCOPED_TRACE(h);
        const PlotLayout L = layout_plot(p, {0, 0, 420, h});
        ASSERT_GE(L.end_labels.size(), 2u);
        struct Box { double x0, y0, x1, y1; };
        std::vector<Box> boxes;
        std::vector<std::pair<Point2, Point2>> leaders;
        for (const EndLabel& e : L.end_labels) {
            const double f = e.label.font_px, x = e.label.at.x, y = e.label.at.y;
            boxes.push_back({x, y - 0.76 * f, x + estimate_text_width(e.label.text, f), y + 0.24 * f});
            EXPECT_GT(boxes.back().x0, L.view.px.x1);   // never over a curve
            EXPECT_EQ(e.leader, L.end_labels.front().leader);   // all or none
            if (e.leader) {
                leaders.push_back({e.from, {x - 0.15 * f, y - 0.36 * f}});
                EXPECT_GE(leaders.back().second.x - e.from.x, 0.9 * f);   // fans out
            }
        }
        moved_seen = moved_seen || !leaders.empty();
        for (std::size_t i = 1; i < boxes.size(); ++i)
            EXPECT_GE(boxes[i].y0 - boxes[i - 1].y1, 0.2 * L.end_labels[i].label.font_px - 1e-9) << L.end_labels[i].label.text;
        for (std::size_t i = 0; i < leaders.size(); ++i) {
            for (std::size_t j = i + 1; j < leaders.size(); ++j)
                EXPECT_FALSE(cross(leaders[i].first, leaders[i].second, leaders[j].first, leaders[j].second)) << i << " " << j;
            for (const Box& b : boxes)   // a leader ends left of every label: the column's left edge
                EXPECT_LT(leaders[i].second.x, b.x0);
        }
    }
    EXPECT_TRUE(moved_seen);
}

TEST(PlotLegendRoom, FixedCornerIsLaidOutAsBefore) {
    Plot p = gpu_like_plot();
    p.legend_corner = LegendCorner::TopRight;
    const PlotLayout L = layout_plot(p, {0, 0, 720, 450});
    const AxisRange plain = auto_range(p, AxisId::Y);
    EXPECT_EQ(L.view.y.lo, plain.lo);
    EXPECT_EQ(L.view.y.hi, plain.hi);   // 0 … 12.4 + 5% of the span
    EXPECT_NEAR(L.view.y.hi, 12.92, 1e-12);
    // The pixels as the layout placed them before Auto legends could grow the range.
    const Rect& d = L.view.px;
    EXPECT_NEAR(d.x0, 52.36, 1e-9);
    EXPECT_NEAR(d.y0, 16.0, 1e-9);
    EXPECT_NEAR(d.x1, 710.0, 1e-9);
    EXPECT_NEAR(d.y1, 401.0, 1e-9);
    EXPECT_NEAR(L.legend_box.x0, 558.52, 1e-9);
    EXPECT_NEAR(L.legend_box.y0, 24.04, 1e-9);
    EXPECT_NEAR(L.legend_box.x1, 701.96, 1e-9);
    EXPECT_NEAR(L.legend_box.y1, 102.94, 1e-9);
    EXPECT_EQ(L.y_ticks.size(), 7u);   // 0, 2, …, 12
    EXPECT_GT(legend_hits(p, L), 0);   // today's behaviour: it hides the copy curve's end
    // A view that passes its ranges (pan/zoom) keeps them exactly, Auto or not.
    p.legend_corner = LegendCorner::Auto;
    const AxisRange zoomed_y{Scale::Linear, 1.0, 12.7};
    const PlotLayout Z = layout_plot(p, {0, 0, 720, 450}, {}, RangeOverride{std::nullopt, zoomed_y});
    EXPECT_EQ(Z.view.y.lo, 1.0);
    EXPECT_EQ(Z.view.y.hi, 12.7);
}

TEST(PlotLegendRoom, CallersMaximumIsKept) {
    Plot p = gpu_like_plot();
    p.y.max = 13.0;
    const PlotLayout L = layout_plot(p, {0, 0, 720, 450});
    EXPECT_EQ(L.view.y.lo, 0.0);
    EXPECT_EQ(L.view.y.hi, 13.0);
    EXPECT_TRUE(L.has_legend);
}

// A reference line's label sits at its end, in a corner as often as not: an Auto legend keeps
// off it (the depth lab's "measured: 1–10" at the top of a vertical line, its sweep's "diverged"
// line at the right end). Here the data leave the top corners free, and the label is top left.
TEST(PlotLegendRoom, AutoLegendKeepsOffReferenceLineLabels) {
    Plot p;
    p.x = {"step", Scale::Linear, std::nullopt, std::nullopt};
    p.y = {"ratio", Scale::Linear, 0.0, 5.0};
    Series a;
    a.label = "Post-LN";
    a.x = {1, 10, 20, 30, 40, 50};
    a.y = {1.0, 0.6, 0.8, 0.9, 1.0, 1.1};
    p.series.push_back(a);
    p.ref_lines.push_back({RefLine::Orientation::Vertical, 45.0, "measured: 1–45", {90, 90, 90}, LineStyle::Dashed, 1.0});
    const PlotLayout L = layout_plot(p, {0, 0, 720, 450});
    ASSERT_TRUE(L.has_legend);
    ASSERT_EQ(L.ref_labels.size(), 1u);
    const PlacedText& t = L.ref_labels[0];
    const double w = estimate_text_width(t.text, t.font_px);
    const double x0 = t.anchor == TextAnchor::End ? t.at.x - w : t.at.x;
    const Rect label{x0, t.at.y - t.font_px, x0 + w, t.at.y + 0.3 * t.font_px};
    const Rect& b = L.legend_box;
    EXPECT_FALSE(b.x0 < label.x1 && label.x0 < b.x1 && b.y0 < label.y1 && label.y0 < b.y1)
        << "legend [" << b.x0 << ", " << b.x1 << "] × [" << b.y0 << ", " << b.y1 << "], label [" << label.x0 << ", "
        << label.x1 << "] × [" << label.y0 << ", " << label.y1 << "]";
    EXPECT_EQ(legend_hits(p, L), 0);
}

TEST(PlotLegendRoom, LogAxisGrowsToANiceValueWithinADecade) {
    Plot p;
    p.x = {"step", Scale::Linear, std::nullopt, std::nullopt};
    p.y = {"loss", Scale::Log10, std::nullopt, std::nullopt};
    std::vector<double> x, top, a, b;
    for (int i = 0; i <= 10; ++i) {
        x.push_back(i);
        top.push_back(40.0);
        a.push_back(2.0 + 0.1 * i);
        b.push_back(6.0 - 0.2 * i);
    }
    p.series.push_back(palette_series(0, "plain", x, top));
    p.series.push_back(palette_series(1, "LayerNorm", x, a));
    p.series.push_back(palette_series(2, "RMSNorm", x, b));
    const AxisRange plain = auto_range(p, AxisId::Y);
    const PlotLayout L = layout_plot(p, {0, 0, 720, 450});
    EXPECT_EQ(legend_hits(p, L), 0);
    EXPECT_EQ(L.view.y.lo, plain.lo);
    EXPECT_GT(L.view.y.hi, plain.hi);
    EXPECT_LE(std::log10(L.view.y.hi) - std::log10(plain.hi), 1.0 + 1e-12);
    // Less than two decades shown: the end is 1, 2 or 5 × 10^k, as log_ticks labels them.
    const double e = std::floor(std::log10(L.view.y.hi) + 1e-9), m = L.view.y.hi / std::pow(10.0, e);
    EXPECT_TRUE(std::fabs(m - 1.0) < 1e-12 || std::fabs(m - 2.0) < 1e-12 || std::fabs(m - 5.0) < 1e-12) << L.view.y.hi;
}

TEST(PlotLegendRoom, FreeCornerNeedsNoGrowth) {
    Plot p;
    p.series.push_back(palette_series(0, "rising", {0, 1, 2, 3, 4, 5}, {0, 1, 2, 3, 4, 5}));
    p.series.push_back(palette_series(1, "also rising", {0, 1, 2, 3, 4, 5}, {0.5, 1.2, 2.4, 3.1, 4.6, 5.2}));
    const AxisRange plain = auto_range(p, AxisId::Y);
    const PlotLayout L = layout_plot(p, {0, 0, 720, 450});
    EXPECT_EQ(L.view.y.lo, plain.lo);
    EXPECT_EQ(L.view.y.hi, plain.hi);
    EXPECT_EQ(legend_hits(p, L), 0);
    EXPECT_LT(L.legend_box.x1, 0.5 * (L.view.px.x0 + L.view.px.x1));   // top left: the empty corner
    EXPECT_LT(L.legend_box.y1, 0.5 * (L.view.px.y0 + L.view.px.y1));
}

TEST(PlotLegendRoom, ALineThroughTheBoxCountsNotOnlyItsVertices) {
    // Two long flat lines whose vertices all lie outside the data area (x fixed to 2 … 9):
    // every corner's box is crossed by a segment with no vertex inside it.
    Plot p;
    p.x = {"x", Scale::Linear, 2.0, 9.0};
    p.series.push_back(palette_series(0, "high", {0, 11}, {10, 10}));
    p.series.push_back(palette_series(1, "low", {0, 11}, {1, 1}));
    for (Series& s : p.series) s.marker = Marker::None;
    const AxisRange plain = auto_range(p, AxisId::Y);
    const PlotLayout L = layout_plot(p, {0, 0, 720, 450});
    EXPECT_GT(L.view.y.hi, plain.hi);
    EXPECT_EQ(legend_hits(p, L), 0);
}

TEST(PlotLegendRoom, BottomGrowsWhenOnlyTheMinimumIsFree) {
    Plot p;
    p.y = {"y", Scale::Linear, std::nullopt, 1.2};
    std::vector<double> x, hi, mid, lo;
    for (int i = 0; i <= 20; ++i) {
        x.push_back(i);
        hi.push_back(1.0);
        mid.push_back(0.0);
        lo.push_back(-1.0);
    }
    p.series.push_back(palette_series(0, "a", x, hi));
    p.series.push_back(palette_series(1, "b", x, mid));
    p.series.push_back(palette_series(2, "c", x, lo));
    const AxisRange plain = auto_range(p, AxisId::Y);
    const PlotLayout L = layout_plot(p, {0, 0, 720, 450});
    EXPECT_EQ(L.view.y.hi, 1.2);
    EXPECT_LT(L.view.y.lo, plain.lo);
    EXPECT_GE(L.view.y.lo, plain.lo - (plain.hi - plain.lo));
    EXPECT_EQ(legend_hits(p, L), 0);
    EXPECT_GT(L.legend_box.y0, 0.5 * (L.view.px.y0 + L.view.px.y1));   // a bottom corner
}

TEST(PlotLegendRoom, BeyondTheCapTheRangeStays) {
    // Twelve flat lines filling the height: the legend would need more than double the span.
    Plot p;
    std::vector<double> x = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    for (int i = 0; i < 12; ++i) p.series.push_back(palette_series(i, "series " + std::to_string(i), x,
                                                                   std::vector<double>(x.size(), i)));
    const AxisRange plain = auto_range(p, AxisId::Y);
    const PlotLayout L = layout_plot(p, {0, 0, 480, 300});
    EXPECT_EQ(L.view.y.lo, plain.lo);
    EXPECT_EQ(L.view.y.hi, plain.hi);
    EXPECT_TRUE(L.has_legend);
}

// [SECTION] Annotations ---------------------------------------------------------------------

// The box an annotation's text covers (the estimate layout_plot measures with by default):
// 0.76 em above the baseline, 0.24 em below, as wide as estimate_text_width says.
Rect ink_box(const PlacedText& t) {
    const double w = estimate_text_width(t.text, t.font_px);
    const double x0 = t.anchor == TextAnchor::Start ? t.at.x : t.anchor == TextAnchor::End ? t.at.x - w : t.at.x - 0.5 * w;
    return {x0, t.at.y - 0.76 * t.font_px, x0 + w, t.at.y + 0.24 * t.font_px};
}

bool boxes_intersect(const Rect& a, const Rect& b) {
    return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

// Pairs of annotations of L whose text boxes intersect, as " 'a'×'b'" (empty: none).
std::string overlapping_pairs(const PlotLayout& L) {
    std::string out;
    for (std::size_t i = 0; i < L.annotations.size(); ++i)
        for (std::size_t j = i + 1; j < L.annotations.size(); ++j)
            if (boxes_intersect(ink_box(L.annotations[i]), ink_box(L.annotations[j])))
                out += " '" + L.annotations[i].text + "'×'" + L.annotations[j].text + "'";
    return out;
}

// Every kept annotation: inside the data area, clear of the legend and of the others.
void expect_readable(const PlotLayout& L) {
    EXPECT_EQ(overlapping_pairs(L), "");
    const Rect& d = L.view.px;
    for (const PlacedText& t : L.annotations) {
        const Rect b = ink_box(t);
        EXPECT_GE(b.x0, d.x0 - 1e-9) << t.text;
        EXPECT_LE(b.x1, d.x1 + 1e-9) << t.text;
        EXPECT_GE(b.y0, d.y0 - 1e-9) << t.text;
        EXPECT_LE(b.y1, d.y1 + 1e-9) << t.text;
        if (L.has_legend) {
            EXPECT_FALSE(boxes_intersect(b, L.legend_box)) << t.text;
        }
    }
}

// A plain linear plot: a rising line from (0, 0) to (10, 10), legend off unless asked.
Plot label_plot(bool legend = false) {
    Plot p;
    p.x = {"x", Scale::Linear, 0.0, 10.0};
    p.y = {"y", Scale::Linear, 0.0, 10.0};
    p.series.push_back(palette_series(0, "line", {0, 10}, {0, 10}));
    p.legend = legend;
    return p;
}

// Where an annotation goes when nothing is in its way: 0.4 em right of and above its point.
Point2 usual_spot(const PlotLayout& L, const Annotation& a, double font_px) {
    const Point2 p = L.view.to_px({a.x, a.y});
    return {p.x + 0.4 * font_px, p.y - 0.4 * font_px};
}

TEST(PlotAnnotations, LabelsAtOnePointAreMovedApartNearTheirAnchor) {
    Plot p = label_plot(true);
    p.legend_corner = LegendCorner::TopRight;
    // Four labels on one point and nearby, as the Gradients lab's flat curves produce them.
    p.annotations = {{5.0, 5.0, "W 0.00"}, {5.0, 5.0, "x −1.00"}, {5.1, 5.05, "g 0.00"}, {4.9, 4.95, "b 0.00"}};
    // One just under the legend (top right): drawn above its point, its top would cover the
    // box's lowest 0.3 text heights.
    const PlotLayout bare = layout_plot(p, {0, 0, 720, 450});
    const double f1 = PlotStyle{}.tick_font_px;
    const Point2 under = bare.view.to_data({bare.legend_box.x0 - 0.5 * f1, bare.legend_box.y1 + (0.4 + 0.76 - 0.3) * f1});
    p.annotations.push_back({under.x, under.y, "slope −1.00"});
    for (const double k : {1.0, 3.0}) {   // the screen, and a PNG at 3×
        SCOPED_TRACE(k);
        const PlotStyle style = scaled(PlotStyle{}, k);
        const double f = style.tick_font_px;
        const PlotLayout L = layout_plot(p, {0, 0, 720 * k, 450 * k}, style);
        ASSERT_TRUE(L.has_legend);
        ASSERT_EQ(L.annotations.size(), p.annotations.size());   // all fit within 3 text heights
        expect_readable(L);
        for (std::size_t i = 0; i < p.annotations.size(); ++i) {
            const Point2 usual = usual_spot(L, p.annotations[i], f);
            EXPECT_EQ(L.annotations[i].text, p.annotations[i].text);
            EXPECT_NEAR(L.annotations[i].at.x, usual.x, 1e-9) << i;   // only moved vertically
            EXPECT_LE(std::fabs(L.annotations[i].at.y - usual.y), kAnnotationMaxShiftEm * f + 1e-9) << i;
        }
        // The first keeps its spot (the order decides who moves); the second goes up.
        EXPECT_NEAR(L.annotations[0].at.y, usual_spot(L, p.annotations[0], f).y, 1e-9);
        EXPECT_LT(L.annotations[1].at.y, L.annotations[0].at.y);
        // The one under the legend went down, by less than a text height.
        const double down = L.annotations[4].at.y - usual_spot(L, p.annotations[4], f).y;
        EXPECT_GT(down, 0.0);
        EXPECT_LT(down, f);
    }
    // The PNG at 3× shows the same labels at 3× the pixels.
    const PlotLayout L1 = layout_plot(p, {0, 0, 720, 450});
    const PlotLayout L3 = layout_plot(p, {0, 0, 3 * 720, 3 * 450}, scaled(PlotStyle{}, 3.0));
    ASSERT_EQ(L1.annotations.size(), L3.annotations.size());
    for (std::size_t i = 0; i < L1.annotations.size(); ++i) {
        EXPECT_NEAR(L3.annotations[i].at.x, 3 * L1.annotations[i].at.x, 1e-6);
        EXPECT_NEAR(L3.annotations[i].at.y, 3 * L1.annotations[i].at.y, 1e-6);
    }
}

TEST(PlotAnnotations, LabelsThatMeetNothingKeepTheirSpot) {
    Plot p = label_plot(true);
    p.legend_corner = LegendCorner::BottomRight;
    p.annotations = {{1.0, 2.0, "first"}, {3.0, 6.0, "second"}, {5.0, 2.0, "third"}, {9.9, 5.0, "flipped"},
                     {2.0, 9.99, "at the top"}};
    const PlotStyle style;
    const double f = style.tick_font_px;
    const PlotLayout L = layout_plot(p, {0, 0, 720, 450}, style);
    ASSERT_EQ(L.annotations.size(), p.annotations.size());
    for (std::size_t i = 0; i < 3; ++i) {   // right of and above the point, exactly as before
        const Point2 usual = usual_spot(L, p.annotations[i], f);
        EXPECT_EQ(L.annotations[i].anchor, TextAnchor::Start);
        EXPECT_EQ(L.annotations[i].at.x, usual.x) << i;
        EXPECT_EQ(L.annotations[i].at.y, usual.y) << i;
    }
    // Near the right edge: left of the point; at the top: its text just inside the frame.
    const Point2 q = L.view.to_px({9.9, 5.0});
    EXPECT_EQ(L.annotations[3].anchor, TextAnchor::End);
    EXPECT_EQ(L.annotations[3].at.x, q.x - 0.4 * f);
    EXPECT_EQ(L.annotations[3].at.y, q.y - 0.4 * f);
    EXPECT_EQ(L.annotations[4].at.y, L.view.px.y0 + 0.76 * f);
    expect_readable(L);
    // The legend's own test plot, with its one annotation, is laid out as it was.
    const PlotLayout G = layout_plot(gradient_plot(), {0, 0, 720, 450});
    ASSERT_EQ(G.annotations.size(), 1u);
    const Point2 g = G.view.to_px({1.0, 0.5});
    EXPECT_EQ(G.annotations[0].at.x, g.x + 0.4 * f);
    EXPECT_EQ(G.annotations[0].at.y, g.y - 0.4 * f);
}

TEST(PlotAnnotations, TooManyLabelsAtOneSpotAreDroppedNotPiled) {
    Plot p = label_plot();
    for (int i = 0; i < 9; ++i) p.annotations.push_back({5.0, 5.0, "label " + std::to_string(i)});
    const PlotStyle style;
    const double f = style.tick_font_px;
    const PlotLayout L = layout_plot(p, {0, 0, 720, 450}, style);
    // One text height and a bit apart, within 3 text heights up or down: five of them.
    EXPECT_LT(L.annotations.size(), p.annotations.size());
    EXPECT_EQ(L.annotations.size(), 5u);
    expect_readable(L);
    // Earlier labels win: the first ones are kept, in order, the last ones dropped.
    for (std::size_t i = 0; i < L.annotations.size(); ++i) {
        EXPECT_EQ(L.annotations[i].text, "label " + std::to_string(i));
        EXPECT_LE(std::fabs(L.annotations[i].at.y - usual_spot(L, p.annotations[i], f).y),
                  kAnnotationMaxShiftEm * f + 1e-9);
    }
    // The same crowd against the top edge cannot go up: the labels fan out downwards, fewer fit.
    for (Annotation& a : p.annotations) a.y = 9.95;
    const PlotLayout T = layout_plot(p, {0, 0, 720, 450}, style);
    EXPECT_GE(T.annotations.size(), 2u);
    EXPECT_LT(T.annotations.size(), L.annotations.size());
    expect_readable(T);
}

TEST(PlotAnnotations, LabelsKeepClearOfReferenceLineLabels) {
    Plot p = label_plot();
    p.ref_lines.push_back({RefLine::Orientation::Horizontal, 5.0, "tolerance of the fit", {90, 90, 90}, LineStyle::Dashed, 1.0});
    p.annotations.push_back({8.0, 5.0, "note"});   // its text would sit on the line's label
    const double f = PlotStyle{}.tick_font_px;
    const PlotLayout L = layout_plot(p, {0, 0, 720, 450});
    ASSERT_EQ(L.ref_labels.size(), 1u);
    ASSERT_EQ(L.annotations.size(), 1u);
    const Point2 usual = usual_spot(L, p.annotations[0], f);
    EXPECT_TRUE(boxes_intersect(ink_box(L.ref_labels[0]), ink_box({"note", usual, TextAnchor::Start, f, 0.0})));
    EXPECT_FALSE(boxes_intersect(ink_box(L.ref_labels[0]), ink_box(L.annotations[0])));
    EXPECT_NE(L.annotations[0].at.y, usual.y);
    expect_readable(L);
}

// The Gradients lab's two sweep figures (12 slope labels each, many on flat curves at similar
// heights) at the sizes they are seen: the app's default figure, a small panel, a 3× PNG.
TEST(PlotAnnotations, GradientLabSweepLabelsDoNotOverlap) {
    GradientLabState state;
    const GradientLabResults r = compute_gradient_lab(state, gradient_lab_probe(state, ExplorerState{}));
    for (const Scaling scaling : {Scaling::Input, Scaling::Weight}) {
        const Plot p = gradient_sweep_plot(r, scaling);
        for (const double k : {1.0, 4.0 / 3.0, 3.0}) {
            for (const Rect outer : {Rect{0, 0, 720, 450}, Rect{0, 0, 540, 420}, Rect{0, 0, 470, 330}}) {
                SCOPED_TRACE(std::string(to_string(scaling)) + " k=" + std::to_string(k) + " w=" +
                             std::to_string(outer.width()));
                const PlotLayout L = layout_plot(p, {0, 0, k * outer.x1, k * outer.y1}, scaled(PlotStyle{}, k));
                // Every curve's slope stays on screen, right of the data, no two labels meeting.
                std::set<std::string> shown;
                for (std::size_t i = 0; i < L.end_labels.size(); ++i) {
                    const PlacedText& t = L.end_labels[i].label;
                    shown.insert(t.text);
                    EXPECT_GT(ink_box(t).x0, L.view.px.x1) << t.text;
                    EXPECT_LE(ink_box(t).x1, k * outer.x1) << t.text;
                    for (std::size_t j = 0; j < i; ++j)
                        EXPECT_FALSE(boxes_intersect(ink_box(t), ink_box(L.end_labels[j].label))) << t.text;
                }
                for (const Series& s : p.series) {
                    if (!s.end_label.empty()) {
                        EXPECT_EQ(shown.count(s.end_label), 1u) << s.end_label;
                    }
                }
            }
        }
    }
}

// [SECTION] Faded -------------------------------------------------------------------------
//
// A series the viewer switched off (Series::faded) keeps a dimmed legend entry; one layout sizes,
// places and makes room for that legend with all its rows, while the data, the ranges and what the
// legend avoids are those of the drawn series only.

// p with series i faded, and p without series i.
Plot faded_copy(Plot p, std::size_t i) {
    p.series[i].faded = true;
    return p;
}
Plot without(Plot p, std::size_t i) {
    p.series.erase(p.series.begin() + static_cast<std::ptrdiff_t>(i));
    return p;
}

TEST(PlotFaded, AutoLegendListsAllEntriesAndKeepsClearOfTheDrawnData) {
    // The GPU figure with its top curve (the copy) switched off: the norms alone set the range.
    Plot p = faded_copy(gpu_like_plot(), 0);
    p.annotations.push_back({4096, 4.8, "pRMSNorm 4.8 GB/s"});   // near the norms' top-right end
    const Plot minus = without(p, 0);
    for (const double k : {1.0, 3.0}) {
        SCOPED_TRACE(k);
        const Rect outer{0, 0, k * 720, k * 450};
        const PlotStyle style = scaled(PlotStyle{}, k);
        const PlotLayout L = layout_plot(p, outer, style);
        ASSERT_TRUE(L.has_legend);
        ASSERT_EQ(L.legend.size(), 4u);   // the faded entry too, in its place, marked
        for (std::size_t i = 0; i < 4; ++i) {
            EXPECT_EQ(L.legend[i].series, i);
            EXPECT_EQ(L.legend[i].faded, i == 0);
            EXPECT_EQ(L.legend[i].label.text, p.series[i].label);
        }
        // The box is the one of all four rows (as with nothing faded), and it hides no drawn data.
        EXPECT_NEAR(L.legend_box.height(), layout_plot(gpu_like_plot(), outer, style).legend_box.height(), 1e-9);
        EXPECT_GT(L.legend_box.height(), layout_plot(minus, outer, style).legend_box.height());
        EXPECT_EQ(legend_hits(p, L), 0);
        expect_readable(L);   // the annotation kept off this (four-row) box
        // The range is the drawn norms' (grown at most for the legend), far below the copy's 12 GB/s.
        EXPECT_EQ(L.view.y.lo, 0.0);
        EXPECT_LT(L.view.y.hi, 11.0);
        EXPECT_GE(L.view.y.hi, auto_range(minus, AxisId::Y).hi);
    }
    // The faded series is not in the ranges: exactly those of the plot without it.
    for (const AxisId a : {AxisId::X, AxisId::Y}) {
        EXPECT_EQ(auto_range(p, a).lo, auto_range(minus, a).lo);
        EXPECT_EQ(auto_range(p, a).hi, auto_range(minus, a).hi);
    }
    Plot fixed = p, fixed_minus = minus;
    fixed.legend_corner = fixed_minus.legend_corner = LegendCorner::TopRight;   // no room grown
    const PlotLayout F = layout_plot(fixed, {0, 0, 720, 450}), G = layout_plot(fixed_minus, {0, 0, 720, 450});
    EXPECT_EQ(F.view.y.lo, G.view.y.lo);
    EXPECT_EQ(F.view.y.hi, G.view.y.hi);
    EXPECT_EQ(F.view.x.hi, G.view.x.hi);
}

TEST(PlotFaded, TheLegendMaySitOnFadedData) {
    // Drawn data along the left and bottom edges (three corners taken), a faded series in the
    // top-right corner: the legend goes there, over nothing drawn, and the range stays.
    Plot p;
    p.series.push_back(palette_series(0, "drawn", {0, 0, 10}, {10, 0, 0}));
    p.series.push_back(palette_series(1, "switched off", {6, 8, 10}, {9.5, 9.8, 10}));
    p.series[1].faded = true;
    const PlotLayout L = layout_plot(p, {0, 0, 720, 450});
    ASSERT_TRUE(L.has_legend);
    EXPECT_EQ(legend_hits(p, L), 0);
    EXPECT_EQ(L.view.y.hi, auto_range(p, AxisId::Y).hi);   // no room grown: a free corner
    EXPECT_GT(L.legend_box.x0, 0.5 * (L.view.px.x0 + L.view.px.x1));   // top right
    EXPECT_LT(L.legend_box.y1, 0.5 * (L.view.px.y0 + L.view.px.y1));
    Plot shown = p;
    shown.series[1].faded = false;   // shown, that corner is taken too: the top grows
    EXPECT_GT(layout_plot(shown, {0, 0, 720, 450}).view.y.hi, auto_range(shown, AxisId::Y).hi);
}

TEST(PlotFaded, GradientSweepLabelsKeepOffTheWholeLegend) {
    // The Gradients lab's sweep with each labelled series switched off in turn: the slope labels
    // keep clear of the legend box as drawn, faded rows included.
    GradientLabState state;
    const GradientLabResults r = compute_gradient_lab(state, gradient_lab_probe(state, ExplorerState{}));
    const Plot base = gradient_sweep_plot(r, Scaling::Weight);
    int faded_entries = 0;
    for (std::size_t i = 0; i < base.series.size(); ++i) {
        if (base.series[i].label.empty()) continue;
        SCOPED_TRACE(base.series[i].label);
        const Plot p = faded_copy(base, i);
        const PlotLayout L = layout_plot(p, {0, 0, 720, 450});
        const PlotLayout all = layout_plot(base, {0, 0, 720, 450});
        ASSERT_EQ(L.legend.size(), all.legend.size());
        EXPECT_NEAR(L.legend_box.height(), all.legend_box.height(), 1e-9);
        for (const LegendEntry& e : L.legend) faded_entries += e.faded;
        expect_readable(L);
    }
    EXPECT_GT(faded_entries, 0);
}

TEST(PlotFaded, NothingOfItsDataIsDrawnHoveredOrExported) {
    Plot p;
    p.series.push_back(palette_series(0, "a", {2, 4, 6}, {1, 5, 3}, SeriesKind::Bars));
    p.series.push_back(palette_series(1, "b", {2, 4, 6}, {2, 2, 2}, SeriesKind::Bars));
    p.series.push_back(palette_series(2, "c", {1, 5}, {9, 9}, SeriesKind::Scatter));
    // A faded bar series leaves the slot to the others, as if it were not there.
    const Plot faded_b = faded_copy(p, 1), minus_b = without(p, 1);
    EXPECT_TRUE(series_bars(faded_b, 1, unit_view()).empty());
    const auto a = series_bars(faded_b, 0, unit_view()), a_alone = series_bars(minus_b, 0, unit_view());
    ASSERT_EQ(a.size(), a_alone.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].x0, a_alone[i].x0);
        EXPECT_EQ(a[i].x1, a_alone[i].x1);
    }
    // No hover on its points; no CSV rows.
    const Plot faded_c = faded_copy(p, 2);
    ASSERT_TRUE(nearest_point(p, unit_view(), {10, 10}, 8.0).has_value());   // (1, 9)
    const std::optional<PointHit> hit_c = nearest_point(faded_c, unit_view(), {10, 10}, 8.0);
    EXPECT_TRUE(!hit_c || hit_c->series != 2);   // a bar's column may still be hovered
    EXPECT_EQ(to_csv(faded_c), to_csv(without(p, 2)));
    EXPECT_EQ(to_csv(faded_b), to_csv(minus_b));
}

TEST(PlotFaded, SvgListsTheEntryDimmedButDrawsNoData) {
    Plot p = gradient_plot();
    p.series.push_back(palette_series(2, "switched off", {0.1, 1, 10}, {1, 2, 3}));
    p.series.push_back(palette_series(3, "bars off", {0.1, 1}, {1, 2}, SeriesKind::Bars));
    p.series[2].faded = true;
    p.series[3].faded = true;
    const std::string svg = to_svg(p);
    EXPECT_EQ(xml_problem(svg), "") << svg;
    // The entries are there, grey, each in a <g class="faded">.
    EXPECT_EQ(count(svg, "<g class=\"faded\">"), 2u);
    EXPECT_NE(svg.find("fill=\"#b0b0b0\">switched off</text>"), std::string::npos) << svg;
    EXPECT_NE(svg.find("fill=\"#b0b0b0\">bars off</text>"), std::string::npos);
    EXPECT_NE(svg.find("<g stroke=\"#b0b0b0\" stroke-width=\"1.75\""), std::string::npos);   // its swatch
    EXPECT_NE(svg.find("fill=\"#000000\">‖∂L/∂g‖</text>"), std::string::npos);              // others black
    // Their data are not: two line paths (the drawn ones), nothing tagged with series 2 or 3.
    EXPECT_EQ(count(svg, "class=\"series-line\""), 2u);
    EXPECT_EQ(svg.find("data-series=\"2\""), std::string::npos);
    EXPECT_EQ(svg.find("data-series=\"3\""), std::string::npos);
    EXPECT_EQ(svg.find("series-bars"), std::string::npos);
    EXPECT_EQ(svg.find(to_hex(palette_color(2))), std::string::npos);   // its colour nowhere
}

TEST(PlotFaded, WithoutFadedSeriesNothingChanges) {
    // No faded series: no entry is marked, the SVG has no faded group, and the figure is the
    // same as before faded series existed (PlotLegendRoom.FixedCornerIsLaidOutAsBefore has the
    // pixels). A faded flag on an invisible series changes nothing either.
    const Plot p = gpu_like_plot();
    const PlotLayout L = layout_plot(p, {0, 0, 720, 450});
    for (const LegendEntry& e : L.legend) EXPECT_FALSE(e.faded);
    EXPECT_EQ(to_svg(p).find("faded"), std::string::npos);
    Plot hidden = p, hidden_faded = p;
    hidden.series[1].visible = hidden_faded.series[1].visible = false;
    hidden_faded.series[1].faded = true;
    EXPECT_EQ(to_svg(hidden_faded), to_svg(hidden));
    EXPECT_EQ(to_csv(hidden_faded), to_csv(hidden));
    const PlotLayout H = layout_plot(hidden, {0, 0, 720, 450}), HF = layout_plot(hidden_faded, {0, 0, 720, 450});
    EXPECT_EQ(HF.legend.size(), 3u);
    EXPECT_EQ(HF.legend_box.y1, H.legend_box.y1);
    EXPECT_EQ(HF.view.y.hi, H.view.y.hi);
}

// [SECTION] SVG / CSV -----------------------------------------------------------------------

TEST(PlotSvg, WellFormedWithTextAndOnePathPerVisibleLine) {
    Plot p = gradient_plot();
    Series hidden = palette_series(2, "hidden series", {0.1, 1}, {1, 2});
    hidden.visible = false;
    p.series.push_back(hidden);
    p.series.push_back(palette_series(3, "points", {0.1, 1}, {1, 2}, SeriesKind::Scatter));
    p.caption = "Caption & notes";
    const std::string svg = to_svg(p);
    EXPECT_EQ(xml_problem(svg), "") << svg;
    EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
    EXPECT_NE(svg.find("<title>Gradient norms under W&apos; = δW</title>"), std::string::npos);
    EXPECT_NE(svg.find("<desc>Caption &amp; notes</desc>"), std::string::npos);
    EXPECT_NE(svg.find(">weight scale δ</text>"), std::string::npos);
    EXPECT_NE(svg.find(">‖∂L/∂W‖</text>"), std::string::npos);
    EXPECT_NE(svg.find(">‖∂L/∂W‖ (RMSNorm)</text>"), std::string::npos);   // legend
    EXPECT_NE(svg.find(">slope −1.00</text>"), std::string::npos);
    EXPECT_NE(svg.find(">tolerance</text>"), std::string::npos);
    EXPECT_NE(svg.find(">10⁻²</text>"), std::string::npos);
    EXPECT_NE(svg.find(">10²</text>"), std::string::npos);
    EXPECT_NE(svg.find("font-family=\"DejaVu Sans, sans-serif\""), std::string::npos);
    EXPECT_NE(svg.find("clip-path=\"url(#normlab-grad_vs_delta-data)\""), std::string::npos);
    EXPECT_EQ(count(svg, "<path"), 2u);               // the two visible lines; scatter has none
    EXPECT_EQ(count(svg, "class=\"series-line\""), 2u);
    EXPECT_EQ(svg.find("hidden series"), std::string::npos);
    EXPECT_EQ(count(svg, "<polyline"), 0u);
    EXPECT_GT(count(svg, "<circle"), 0u);
    EXPECT_NE(svg.find("stroke-dasharray"), std::string::npos);   // series 1 is dashed
}

TEST(PlotSvg, LogAxisPlacesDecadesEvenly) {
    const PlotLayout L = layout_plot(gradient_plot(), {0, 0, 720, 450});
    std::vector<double> pos;
    for (const PlacedTick& t : L.x_ticks)
        if (t.tick.major) pos.push_back(t.pos);
    ASSERT_EQ(pos.size(), 5u);
    for (std::size_t i = 2; i < pos.size(); ++i) EXPECT_NEAR(pos[i] - pos[i - 1], pos[1] - pos[0], 1e-9);
    // And the SVG writes them there: a text "10⁰" centred on the middle decade.
    const std::string svg = to_svg(gradient_plot());
    char buf[64];
    std::snprintf(buf, sizeof buf, "x=\"%.2f", pos[2]);
    std::string want = buf;
    while (want.back() == '0') want.pop_back();
    if (want.back() == '.') want.pop_back();
    const std::size_t at = svg.find(">10⁰</text>");
    ASSERT_NE(at, std::string::npos);
    EXPECT_NE(svg.substr(svg.rfind("<text", at), at - svg.rfind("<text", at)).find(want), std::string::npos);
}

TEST(PlotSvg, EscapesMarkupInLabels) {
    Plot p;
    p.name = "esc<ape>";
    p.title = "a < b && c > \"d\"";
    p.x.label = "<script>alert(1)</script>";
    p.y.label = "it's";
    p.series.push_back(palette_series(0, "x<y", {0, 1}, {0, 1}));
    p.annotations.push_back({0.5, 0.5, "1 < 2"});
    const std::string svg = to_svg(p);
    EXPECT_EQ(xml_problem(svg), "") << svg;
    EXPECT_EQ(svg.find("<script"), std::string::npos);
    EXPECT_NE(svg.find("a &lt; b &amp;&amp; c &gt; &quot;d&quot;"), std::string::npos);
    EXPECT_NE(svg.find("&lt;script&gt;"), std::string::npos);
    EXPECT_NE(svg.find("it&apos;s"), std::string::npos);
    EXPECT_NE(svg.find(">x&lt;y</text>"), std::string::npos);
    EXPECT_NE(svg.find(">1 &lt; 2</text>"), std::string::npos);
    EXPECT_NE(svg.find("id=\"normlab-esc_ape_-data\""), std::string::npos);
}

TEST(PlotSvg, InvalidUtf8AndControlCharactersAreRepaired) {
    Plot p;
    p.title = std::string("bad \xFF\xC0 byte\x01 end");
    p.series.push_back(palette_series(0, "s", {0, 1}, {0, 1}));
    const std::string svg = to_svg(p);
    EXPECT_NE(svg.find("bad \xEF\xBF\xBD\xEF\xBF\xBD byte end"), std::string::npos);
    EXPECT_EQ(svg.find('\x01'), std::string::npos);
    EXPECT_EQ(svg.find('\xFF'), std::string::npos);
}

TEST(PlotSvg, BreaksLinesAtNaNAndNeverWritesNaNOrInf) {
    Plot p;
    p.name = "gap_test";
    p.x.label = "x";
    p.y.label = "y";
    p.series.push_back(palette_series(0, "broken", {0, 1, 2, 3, 4, 5, kInf, 7}, {0, 1, kNaN, 3, 4, kInf, 6, 7}));
    p.series.push_back(palette_series(1, "all missing", {kNaN, kNaN}, {kNaN, kNaN}));
    p.series.push_back(palette_series(2, "scatter", {1, kNaN}, {kInf, 2}, SeriesKind::Scatter));
    p.series.push_back(palette_series(3, "bars", {1, 2}, {kNaN, 2}, SeriesKind::Bars));
    p.annotations.push_back({kNaN, 1.0, "lost"});
    p.ref_lines.push_back({RefLine::Orientation::Vertical, kInf, "far line", {}, LineStyle::Dotted, 1.0});
    const std::string svg = to_svg(p);
    EXPECT_EQ(xml_problem(svg), "");
    std::string lower = svg;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    EXPECT_EQ(lower.find("nan"), std::string::npos) << svg;
    EXPECT_EQ(lower.find("inf"), std::string::npos) << svg;
    // One path for "broken", with two sub-paths (0–1 and 3–4); "all missing" has nothing to draw.
    ASSERT_EQ(count(svg, "<path"), 1u);
    const std::size_t at = svg.find("<path");
    const std::size_t d0 = svg.find(" d=\"", at) + 4, d1 = svg.find('"', d0);
    const std::string d = svg.substr(d0, d1 - d0);
    EXPECT_EQ(count(d, "M"), 2u) << d;
    EXPECT_EQ(count(d, "L"), 2u) << d;
    EXPECT_EQ(svg.find(">lost</text>"), std::string::npos);
}

TEST(PlotSvg, HugeValuesStayBounded) {
    Plot p;
    p.x.min = 0.0;
    p.x.max = 1.0;
    p.y.min = 0.0;
    p.y.max = 1.0;
    p.series.push_back(palette_series(0, "wild", {0, 0.5, 1e300, 1}, {0, 1e300, -1e300, 1}));
    const std::string svg = to_svg(p);
    const std::regex number(R"(-?\d+(\.\d+)?)");
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), number); it != std::sregex_iterator(); ++it)
        EXPECT_LT(std::fabs(std::stod(it->str())), 1e4) << it->str();
    EXPECT_EQ(xml_problem(svg), "");
}

TEST(PlotSvg, RandomOddDataNeverBreaksTheFigure) {
    std::mt19937 rng(11);
    std::uniform_int_distribution<int> pick(0, 9);
    std::uniform_real_distribution<double> u(-3.0, 3.0);
    auto odd_value = [&]() {
        switch (pick(rng)) {
        case 0: return kNaN;
        case 1: return kInf;
        case 2: return -kInf;
        case 3: return 0.0;
        case 4: return std::pow(10.0, 30.0 * u(rng));
        case 5: return -std::pow(10.0, 10.0 * u(rng));
        default: return std::pow(10.0, u(rng));
        }
    };
    for (int trial = 0; trial < 150; ++trial) {
        Plot p;
        p.name = "fuzz";
        p.x.scale = pick(rng) < 5 ? Scale::Log10 : Scale::Linear;
        p.y.scale = pick(rng) < 5 ? Scale::Log10 : Scale::Linear;
        if (pick(rng) == 0) p.x.min = odd_value();
        if (pick(rng) == 0) p.y.max = odd_value();
        const int ns = pick(rng) % 4;
        for (int k = 0; k < ns; ++k) {
            std::vector<double> x, y;
            const int n = pick(rng) * 3;
            for (int i = 0; i < n; ++i) {
                x.push_back(odd_value());
                y.push_back(odd_value());
            }
            p.series.push_back(palette_series(k, "s" + std::to_string(k), x, y, static_cast<SeriesKind>(pick(rng) % 3)));
        }
        if (pick(rng) < 3) p.annotations.push_back({odd_value(), odd_value(), "a"});
        if (pick(rng) < 3) p.ref_lines.push_back({RefLine::Orientation::Vertical, odd_value(), "r", {}, LineStyle::Dotted, 1.0});
        const std::string svg = to_svg(p);
        ASSERT_EQ(xml_problem(svg), "") << "trial " << trial;
        std::string lower = svg;
        std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
        ASSERT_EQ(lower.find("nan"), std::string::npos) << "trial " << trial;
        ASSERT_EQ(lower.find("inf"), std::string::npos) << "trial " << trial;
        // Every coordinate stays near the 720×450 figure: the numbers in attributes after the
        // <svg> header, less colours.
        std::string body = svg.substr(svg.find("<defs>"));
        body = std::regex_replace(body, std::regex(">[^<]*<"), "><");
        body = std::regex_replace(body, std::regex("#[0-9a-f]{6}"), "");
        const std::regex number(R"(-?\d+(\.\d+)?)");
        for (auto it = std::sregex_iterator(body.begin(), body.end(), number); it != std::sregex_iterator(); ++it)
            ASSERT_LT(std::fabs(std::stod(it->str())), 2000.0) << "trial " << trial << ": " << it->str();
        const std::string csv = to_csv(p);
        ASSERT_EQ(csv.find("inf"), std::string::npos);
        ASSERT_EQ(csv.find("nan"), std::string::npos);
    }
}

TEST(PlotSvg, SizesAndEmptyPlot) {
    const std::string empty = to_svg(Plot{});
    EXPECT_EQ(xml_problem(empty), "");
    EXPECT_EQ(count(empty, "<path"), 0u);
    EXPECT_EQ(empty.find("class=\"legend\""), std::string::npos);
    const std::string big = to_svg(gradient_plot(), 1600, 900);
    EXPECT_NE(big.find("width=\"1600\" height=\"900\" viewBox=\"0 0 1600 900\""), std::string::npos);
    const std::string bad = to_svg(gradient_plot(), kNaN, -5);
    EXPECT_NE(bad.find("viewBox=\"0 0 720 450\""), std::string::npos);
}

TEST(PlotCsv, LongFormWithQuotingAndFullPrecision) {
    Plot p;
    p.series.push_back(palette_series(0, "plain", {0.1, 2}, {1.0 / 3.0, -4e-300}));
    p.series.push_back(palette_series(1, "a, \"quoted\" label", {1, 2, 3}, {kNaN, kInf, 5}));
    Series hidden = palette_series(2, "hidden", {1}, {1});
    hidden.visible = false;
    p.series.push_back(hidden);
    p.series.push_back(palette_series(3, "ragged", {1, 2, 3}, {7}));
    const std::string csv = to_csv(p);
    EXPECT_EQ(csv.rfind("series,x,y\n", 0), 0u);
    EXPECT_EQ(count(csv, "\n"), 1u + 2u + 3u + 1u);
    EXPECT_NE(csv.find("plain,0.10000000000000001,0.33333333333333331\n"), std::string::npos);
    EXPECT_NE(csv.find("plain,2,-4.0000000000000001e-300\n"), std::string::npos);
    EXPECT_NE(csv.find("\"a, \"\"quoted\"\" label\",1,\n"), std::string::npos);
    EXPECT_NE(csv.find("\"a, \"\"quoted\"\" label\",2,\n"), std::string::npos);
    EXPECT_NE(csv.find("\"a, \"\"quoted\"\" label\",3,5\n"), std::string::npos);
    EXPECT_NE(csv.find("ragged,1,7\n"), std::string::npos);
    EXPECT_EQ(csv.find("hidden"), std::string::npos);
    EXPECT_EQ(std::strtod("0.33333333333333331", nullptr), 1.0 / 3.0);
    EXPECT_EQ(to_csv(Plot{}), "series,x,y\n");
}

TEST(PlotCsv, HeaderNamesTheAxesAndRowsTheirSeries) {
    Plot p;
    p.x.label = "time (ms)";
    p.y.label = "‖∂L/∂θ‖,  θ = W, x";
    Series curve = palette_series(0, "", {1, 2}, {3, 4});
    curve.data_name = "LayerNorm ‖∂L/∂W‖";
    p.series.push_back(curve);
    p.series.push_back(palette_series(1, "legend only", {}, {}));
    EXPECT_EQ(to_csv(p), "series,x: time (ms),\"y: ‖∂L/∂θ‖,  θ = W, x\"\n"
                         "LayerNorm ‖∂L/∂W‖,1,3\nLayerNorm ‖∂L/∂W‖,2,4\n");
    curve.label = "shown";
    EXPECT_EQ(series_name(curve), "LayerNorm ‖∂L/∂W‖");
    curve.data_name.clear();
    EXPECT_EQ(series_name(curve), "shown");
}

// [SECTION] Tables --------------------------------------------------------------------------

Table small_table() {
    Table t;
    t.name = "check_table";
    t.title = "Checks: a & b";
    t.columns = {"Norm", "δx", "x|y"};
    t.rows = {{{"LayerNorm"}, {"✓ 0", CellTone::Pass}, {"✗ 0.41", CellTone::Fail, true}},
              {{"50% \\ _1_"}, {"a, \"b\""}}};   // short row: padded
    t.note = "Outlined: differs";
    return t;
}

TEST(Tables, CsvHasTheHeaderAndEveryCell) {
    EXPECT_EQ(table_to_csv(small_table()),
              "Norm,δx,x|y\nLayerNorm,✓ 0,✗ 0.41 (!)\n50% \\ _1_,\"a, \"\"b\"\"\",\n");
}

TEST(Tables, MarkdownEscapesPipesAndBoldsFlags) {
    EXPECT_EQ(table_to_markdown(small_table()),
              "**Checks: a & b**\n\n"
              "| Norm | δx | x\\|y |\n| :--- | :---: | :---: |\n"
              "| LayerNorm | ✓ 0 | **✗ 0.41** |\n| 50% \\\\ _1_ | a, \"b\" |  |\n\nOutlined: differs\n");
}

TEST(Tables, LatexUsesBooktabsAndEscapes) {
    const std::string tex = table_to_latex(small_table());
    EXPECT_NE(tex.find("\\begin{tabular}{lcc}\n\\toprule\nNorm & δx & x|y \\\\\n\\midrule\n"), std::string::npos) << tex;
    EXPECT_NE(tex.find("LayerNorm & \\cellcolor[RGB]{214,240,220} \\checkmark{} 0 & "
                       "\\cellcolor[RGB]{252,222,218} \\textbf{\\texttimes{} 0.41} \\\\\n"), std::string::npos) << tex;
    EXPECT_NE(tex.find("50\\% \\textbackslash{} \\_1\\_ & a, \"b\" &  \\\\\n\\bottomrule\n\\end{tabular}\n"),
              std::string::npos) << tex;
    EXPECT_NE(tex.find("\\caption{Checks: a \\& b}\n\\label{tab:check\\_table}"), std::string::npos) << tex;
    EXPECT_EQ(count(tex, "\\begin{"), count(tex, "\\end{"));
}

TEST(Tables, SvgIsWellFormedWithToneFillsAndFlags) {
    const std::string svg = table_to_svg(small_table());
    EXPECT_EQ(xml_problem(svg), "") << svg;
    EXPECT_NE(svg.find(">Checks: a &amp; b</text>"), std::string::npos);
    EXPECT_EQ(count(svg, "<rect class=\"cell\""), 2u);   // the ✓ and the ✗ cell; plain cells have none
    EXPECT_NE(svg.find("fill=\"" + to_hex(tone_fill(CellTone::Pass)) + "\""), std::string::npos);
    EXPECT_NE(svg.find("stroke=\"" + to_hex(kFlagOutline) + "\""), std::string::npos);
    EXPECT_EQ(xml_problem(table_to_svg(Table{})), "");
}

// [SECTION] File I/O ------------------------------------------------------------------------

TEST(FileIo, WritesExactBytesAndReplaces) {
    TempDir dir;
    const std::string path = (dir.path / "figure.svg").string();
    const std::string bytes = std::string("line 1\n\0binary\xFF\n", 16) + std::string(200000, 'x');
    write_file_atomically(path, bytes, IfExists::Replace);
    EXPECT_EQ(read_file(path), bytes);
    write_file_atomically(path, "short", IfExists::Replace);
    EXPECT_EQ(read_file(path), "short");
    write_file_atomically(path, "", IfExists::Replace);
    EXPECT_EQ(read_file(path), "");
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"figure.svg"});   // no temp file left
}

TEST(FileIo, KeepsPermissionsOfAnExistingFile) {
    TempDir dir;
    const std::string path = (dir.path / "keep.csv").string();
    write_file_atomically(path, "a", IfExists::Replace);
    ASSERT_EQ(::chmod(path.c_str(), 0640), 0);
    write_file_atomically(path, "b", IfExists::Replace);
    struct stat st {};
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0640u);
}

TEST(FileIo, MissingDirectoryThrowsWithPathAndLeavesNothing) {
    TempDir dir;
    const std::string path = (dir.path / "no_such_dir" / "out.svg").string();
    try {
        write_file_atomically(path, "data", IfExists::Replace);
        FAIL() << "no exception";
    } catch (const std::runtime_error& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find(path), std::string::npos) << msg;
        EXPECT_NE(msg.find("No such file or directory"), std::string::npos) << msg;
        EXPECT_EQ(msg.find('\n'), std::string::npos);
    }
    EXPECT_TRUE(dir.entries().empty());
    EXPECT_THROW(write_file_atomically("", "x", IfExists::Replace), std::runtime_error);
}

TEST(FileIo, ADirectoryTargetIsRefusedAndNothingIsLeft) {
    // The target is a non-empty directory: refused before a temp file is made (even for root).
    TempDir dir;
    const fs::path target = dir.path / "target";
    fs::create_directory(target);
    { std::ofstream(target / "inside") << "x"; }
    try {
        write_file_atomically(target.string(), "data", IfExists::Replace);
        FAIL() << "no exception";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find(target.string()), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("it is a directory, not a regular file"), std::string::npos) << e.what();
    }
    EXPECT_EQ(dir.entries(), std::vector<std::string>{"target"});
    EXPECT_TRUE(fs::is_directory(target));
}

TEST(FileIo, UnwritablePlaceThrows) {
    // /proc refuses new files even for root.
    EXPECT_THROW(write_file_atomically("/proc/normlab_test_cannot_exist.svg", "x", IfExists::Replace), std::runtime_error);
    EXPECT_FALSE(fs::exists("/proc/normlab_test_cannot_exist.svg"));
}

TEST(FileIo, ReadOnlyDirectoryThrowsAndLeavesNoTempFile) {
    if (::geteuid() == 0) GTEST_SKIP() << "root ignores directory permissions (covered by /proc and rename tests)";
    TempDir dir;
    const fs::path ro = dir.path / "ro";
    fs::create_directory(ro);
    { std::ofstream(ro / "old.svg") << "old"; }
    ASSERT_EQ(::chmod(ro.c_str(), 0555), 0);
    const std::string path = (ro / "old.svg").string();
    try {
        write_file_atomically(path, "new", IfExists::Replace);
        FAIL() << "no exception";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("Permission denied"), std::string::npos) << e.what();
    }
    ::chmod(ro.c_str(), 0755);
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(ro)) names.push_back(e.path().filename().string());
    EXPECT_EQ(names, std::vector<std::string>{"old.svg"});
    EXPECT_EQ(read_file(path), "old");   // the old file is untouched
}

TEST(FileIo, ReadFileErrorsNameThePath) {
    TempDir dir;
    const std::string missing = (dir.path / "missing.json").string();
    try {
        (void)read_file(missing);
        FAIL() << "no exception";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find(missing), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("No such file or directory"), std::string::npos) << e.what();
    }
    EXPECT_THROW((void)read_file(dir.path.string()), std::runtime_error);
}

}  // namespace
}  // namespace normlab
