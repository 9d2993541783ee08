// A bar chart drawn with ImDrawList: one bar per entry of a vector, a zero line, value-axis
// ticks with a light grid, index labels, value labels on the bars when they fit, and a tooltip
// with the exact value of the bar under the mouse.
#pragma once

#include "palette.hpp"

#include <normlab/norm/norm.hpp>

#include <imgui.h>

#include <initializer_list>

namespace normlab::ui {

struct AxisRange {
    double lo = -1.0;
    double hi = 1.0;
};

// A value-axis range holding 0 and every entry of the given vectors (null ones are skipped),
// padded for value labels and widened to whole tick steps, so that charts sharing it compare.
AxisRange nice_range(std::initializer_list<const Vec*> series);

struct BarChart {
    const char* id = "chart";                // ImGui id, unique in the window
    const char* symbol = "y";                // tooltip name of entry i: "y₃ = 1.342"
    palette::Rgb color{};                    // bar fill, drawn opaque
    AxisRange range;
    const Vec* values = nullptr;             // n
    const Vec* reference = nullptr;          // n, or null: drawn as outlines over the bars
    const char* reference_name = "";         // e.g. "δ = 1", for the tooltip
    bool value_labels = true;                // print each value at its bar's end when it fits
    ImFont* small_font = nullptr;            // ticks and value labels; null: current font
};

// Draws the chart into a size.x × size.y item at the cursor.
void draw_bar_chart(const BarChart& chart, ImVec2 size);

}  // namespace normlab::ui
