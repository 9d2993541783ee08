// The layout checker's record of a figure the plot view draws (layout_check.hpp).
#pragma once

#include "plot_painter.hpp"

#include <string_view>

namespace normlab::ui {

// Every text of a laid-out figure, with the fonts draw_figure() paints them in; `clip`: the
// window's clip rect around the figure. Its labels and values (all but tick labels, axis labels
// and title lines, which a smaller figure thins or wraps onto more lines) carry the figure's
// `name` (TextBox::figure: "dropped" compares them across sizes).
void record_figure_texts(const PlotLayout& L, const FigureFonts& fonts, const ImVec4& clip, std::string_view name);

// The data draw_figure_data() paints: bars, curves, markers, heat cells, clipped to the data area
// within the window's `clip`; `k` as draw_figure()'s.
void record_figure_data(const Plot& plot, const PlotLayout& L, const ImVec4& clip, double k);

}  // namespace normlab::ui
