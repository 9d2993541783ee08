// The plot painter: a Plot laid out by core's layout_plot() painted into an ImDrawList (colours,
// fonts, strokes, markers, texts, legend), with no interaction. The screen's plot view
// (kit/plot_view.hpp) and the offscreen PNG (plot_export.hpp) both paint with it.
#pragma once

#include "theme_fonts.hpp"   // to_u32

#include <normlab/plot/plot.hpp>

#include <imgui.h>

#include <vector>

namespace normlab::ui {

// Colours of a figure. Exports are always light_figure(); the screen follows the app's theme.
struct FigureColors {
    ImU32 background, text, grid, frame, legend_fill, legend_border, annotation, ref_label, halo, faded;
};
FigureColors light_figure();
FigureColors dark_figure();

// Fonts of a figure: each PlacedText is drawn with the regular font closest in size to its
// font_px (so build them at the sizes the PlotStyle asks for: crisp, never blurry), the title
// with `bold`.
struct FigureFonts {
    std::vector<ImFont*> regular;    // at least one
    ImFont* bold = nullptr;          // null: the regular one
};

// style.text_width measuring with these fonts (ImFont::CalcTextSizeA at the requested px).
TextWidthFn figure_text_width(const FigureFonts& fonts);

// Paints `plot`, laid out by layout_plot(plot, …, style), into `dl` (under its current clip
// rect; the fonts must live in the texture `dl` draws with): background, grid, reference lines,
// bars, lines, markers, frame, ticks, texts, legend, in to_svg()'s paint order. Stroke widths
// and marker sizes are multiplied by `k`, the factor the style was scaled by (scaled()).
// Faded series (switched off on screen) are not painted; their legend entries (LegendEntry::faded)
// are drawn in colors.faded.
void draw_figure(ImDrawList& dl, const Plot& plot, const PlotLayout& layout, const PlotStyle& style, double k,
                 const FigureFonts& fonts, const FigureColors& colors);

// The data part of draw_figure(): heat cells (equal neighbours in a row as one rectangle),
// reference lines, bars, lines and markers, unclipped (push the data area as a clip rect). With
// layout_data() (plot.hpp) it draws a figure small inside a widget of its own, e.g. the Training
// lab's decision maps, with exactly the export's paint.
void draw_figure_data(ImDrawList& dl, const Plot& plot, const PlotLayout& layout, double k);

// The regular font of `fonts` closest in size to `px` (the one a PlacedText of font_px is drawn in).
ImFont* figure_font(const FigureFonts& fonts, double px);

inline ImVec2 to_im(Point2 p) { return ImVec2(static_cast<float>(p.x), static_cast<float>(p.y)); }

// [SECTION] Helpers (pure, unit-tested) -----------------------------------------------------

// p rotated by deg degrees about pivot, in pixel coordinates (y down) with SVG's convention:
// rotate(−90) turns text that runs to the right into text that runs upward.
ImVec2 rotate_about(ImVec2 p, ImVec2 pivot, double deg);

// Top-left corner for ImGui's text drawing of a text `width` wide whose font has `ascent`
// pixels above the baseline, so that `at` is its anchor point on the baseline.
ImVec2 text_top_left(Point2 at, TextAnchor anchor, double width, double ascent);

}  // namespace normlab::ui
