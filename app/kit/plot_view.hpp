// The interactive view of one core plot description (normlab/plot/plot.hpp), and its exports.
//
// Every lab draws its figures through draw_plot(): the layout, ticks, clipping and legend come
// from core's layout_plot() and series geometry, painted by draw_figure() (plot_painter.hpp), as
// the SVG writer and the offscreen PNG renderer (plot_export.hpp) use them, so what is on screen
// is what gets saved.
//
// Interaction: kPlotGestures below (also listed in Help ▸ Keyboard shortcuts); hovering shows
// the nearest point's series, x and y in a tooltip; series switched off in the legend stay
// there, greyed. Exports show what is on screen: the zoomed ranges, and only the series shown.
#pragma once

#include "plot_painter.hpp"
#include "theme_fonts.hpp"

#include <normlab/base/i18n.hpp>
#include <normlab/plot/plot.hpp>

#include <imgui.h>

#include <optional>
#include <string>
#include <vector>

namespace normlab::ui {

// [SECTION] The widget ------------------------------------------------------------------------

struct PlotGesture {
    const char* input;
    const char* action;
};
inline constexpr PlotGesture kPlotGestures[] = {
    {"Wheel", "zoom about the cursor (over an axis' numbers: that axis only)"},
    {"Drag", "pan"},
    {"Right-drag  /  Ctrl+drag", "zoom into the box"},
    {"Double-click", "back to the automatic range"},
    {"Click a legend entry", "hide or show that series"},
    {"Right-click", "save PNG (1×–4×), SVG or CSV; copy the values"},
};

// Display state of one plot on screen: zoom/pan and legend toggles. The Plot itself is rebuilt
// from the session whenever the lab likes; this survives that.
struct PlotView {
    RangeOverride range;             // empty: auto range from the data
    std::vector<std::string> hidden; // labels of series the user switched off in the legend
    std::string export_dir;          // where Save … writes (default: export_folder(), plot_export.hpp)
    std::string message;             // last export's result, shown under the plot until dismissed
    // Compact (a small chart in a panel that names it): on screen no title and no axis labels,
    // and at least kMinCompact*Em; exports keep them all.
    bool compact = false;
    // Gesture in progress (set and cleared by draw_plot).
    bool box_zooming = false;
    ImVec2 box_from{};               // screen position where the box zoom started
};

// A figure rebuilt only when what it is built from changed: `Key` names that (the legend
// switches, the results' generation, the axis it is drawn against, …). Building a figure places
// its labels: more work than a frame should redo for nothing. `Figure`: a Plot, or what a lab
// builds in one go (the Depth lab's plots, claims and conditions line; the Training lab's maps).
// A figure's texts are in the interface language: one built in another (before View ▸ Language
// switched) is stale too.
template <class Key, class Figure = Plot>
struct CachedFigure {
    Figure value;
    std::optional<Key> built_for;   // empty: stale (reset it when the results change)
    Language built_in = Language::En;

    // The figure for `key`, rebuilt by build() when the last build was for another key or in
    // another language (what needs no rebuild, e.g. a reference line, the caller may move on it).
    template <class Build>
    Figure& get(const Key& key, Build build) {
        if (!built_for || *built_for != key || built_in != current_language()) {
            value = build();
            built_for = key;
            built_in = current_language();
        }
        return value;
    }
};

// The smallest figure on screen, in text heights: 14 × 9 em (280 × 180 px at 20 px text) holds
// a title, ticks, axis labels and a legend of two rows without crushing the data; a compact one
// (no title, no axis labels: a panel's chart of a few bars) 8 × 4.5 em.
inline constexpr float kMinFigureWidthEm = 14.0f, kMinFigureHeightEm = 9.0f;
inline constexpr float kMinCompactWidthEm = 8.0f, kMinCompactHeightEm = 4.5f;

// Draws `plot` in a region of `size` at the cursor (size.x or size.y ≤ 0: the available space;
// never less than kMinFigure*Em),
// with a line for view.message below the figure when there is one. Call it with a PlotView that
// lives as long as the figure is on screen (e.g. a member of the lab's display state).
void draw_plot(PlotView& view, const Plot& plot, const Fonts& fonts, ImVec2 size = ImVec2(0.0f, 0.0f));

// [SECTION] The plot as shown (pure, unit-tested) -----------------------------------------

// The plot as exported from this view: series whose label is in view.hidden become invisible,
// and the view's zoomed ranges become the axes' explicit min/max.
Plot plot_as_shown(const Plot& plot, const PlotView& view);

// The plot as drawn on screen: as plot_as_shown(), but the series whose label is in view.hidden
// become Series::faded instead, so that one layout lists them in the legend (dimmed, to be
// clicked back on) while their data are neither drawn nor ranged nor avoided by the legend.
Plot plot_on_screen(const Plot& plot, const PlotView& view);

}  // namespace normlab::ui
