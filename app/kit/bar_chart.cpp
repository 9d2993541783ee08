#include "bar_chart.hpp"

#include "ui_util.hpp"

#include <normlab/base/number_rule.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>

namespace normlab::ui {

namespace {

// 1, 2 or 5 × 10^k, the nearest such step at or above raw / 1.5.
double nice_step(double raw) {
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    const double f = raw / power;
    return power * (f < 1.5 ? 1.0 : f < 3.0 ? 2.0 : f < 7.0 ? 5.0 : 10.0);
}

ImU32 darker(palette::Rgb c) {
    return IM_COL32(c.r * 3 / 5, c.g * 3 / 5, c.b * 3 / 5, 255);
}

}  // namespace

AxisRange nice_range(std::initializer_list<const Vec*> series) {
    double lo = 0.0, hi = 0.0;
    for (const Vec* v : series) {
        if (v == nullptr) continue;
        for (Eigen::Index i = 0; i < v->size(); ++i) {
            if (!std::isfinite((*v)(i))) continue;
            lo = std::min(lo, (*v)(i));
            hi = std::max(hi, (*v)(i));
        }
    }
    if (hi - lo <= 0.0) return {};
    const double span = hi - lo;
    if (hi > 0.0) hi += 0.12 * span;   // room for value labels at the bar ends
    if (lo < 0.0) lo -= 0.12 * span;
    const double step = nice_step((hi - lo) / 5.0);
    return {std::floor(lo / step) * step, std::ceil(hi / step) * step};
}

// Index labels 1..n below the bars (slot px apart from x0, at y), thinned to every k-th
// (k = 1, 2, 5, 10, ...) so that they never touch.
void draw_index_labels(ImDrawList* dl, ImFont* font, float x0, float y, float slot, int n, ImU32 col) {
    const float fs = font->FontSize;
    const auto text_size = [&](const std::string& s) { return font->CalcTextSizeA(fs, FLT_MAX, 0.0f, s.c_str()); };
    const float index_w = text_size("64").x + 10.0f;
    int every = 1;
    for (int k : {1, 2, 5, 10, 20, 50}) {
        every = k;
        if (static_cast<float>(k) * slot >= index_w) break;
    }
    for (int i = every - 1; i < n; i += every) {
        const std::string label = std::to_string(i + 1);
        const float x = x0 + (static_cast<float>(i) + 0.5f) * slot - 0.5f * text_size(label).x;
        dl->AddText(font, fs, ImVec2(x, y), col, label.c_str());
    }
}

void draw_bar_chart(const BarChart& chart, ImVec2 size) {
    const Vec& values = *chart.values;
    const auto n = static_cast<int>(values.size());
    // Labels at fmt_value's 4 digits: round-off beside the largest bar (1e−16 beside 1.3) reads 0.
    const double largest = n > 0 ? values.cwiseAbs().maxCoeff() : 0.0;
    const auto shown = [&](double v) { return at_display_precision(v, largest, 4); };
    ImFont* font = chart.small_font != nullptr ? chart.small_font : ImGui::GetFont();
    const float fs = font->FontSize;
    const auto text_size = [&](const std::string& s) { return font->CalcTextSizeA(fs, FLT_MAX, 0.0f, s.c_str()); };

    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton(chart.id, size);
    const bool hovered = ImGui::IsItemHovered();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImU32 text_col = ImGui::GetColorU32(ImGuiCol_Text);
    const ImU32 dim_col = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    const ImU32 grid_col = ImGui::GetColorU32(ImGuiCol_TableBorderLight);

    // Value-axis ticks: about one every 2.5 text lines.
    const AxisRange r = chart.range;
    const double plot_h = size.y - 1.5 * fs - 8.0;   // a1.y − a0.y below
    const double step = nice_step((r.hi - r.lo) / std::max(1.0, plot_h / (2.5 * fs)));
    const double first = std::ceil(r.lo / step - 1e-9), last = std::floor(r.hi / step + 1e-9);
    float label_w = 0.0f;
    for (double k = first; k <= last; k += 1.0) label_w = std::max(label_w, text_size(fmt_tick(k * step)).x);

    // Plot area inside the item: tick labels on the left, index labels below.
    const ImVec2 a0(std::floor(p0.x + label_w + 10.0f), std::floor(p0.y + 0.5f * fs));
    const ImVec2 a1(std::floor(p0.x + size.x - 6.0f), std::floor(p0.y + size.y - fs - 8.0f));
    const float h = a1.y - a0.y;
    const auto py = [&](double v) {
        return std::round(a0.y + static_cast<float>((r.hi - v) / (r.hi - r.lo)) * h);
    };
    dl->AddRectFilled(a0, a1, ImGui::GetColorU32(ImGuiCol_WindowBg));

    float labelled_y = FLT_MAX;   // a tick label closer than a text height to the last one is left out
    for (double k = first; k <= last; k += 1.0) {
        const float y = py(k * step);
        const std::string label = fmt_tick(k * step);
        dl->AddLine(ImVec2(a0.x, y), ImVec2(a1.x, y), grid_col);
        if (std::fabs(y - labelled_y) < fs) continue;
        dl->AddText(font, fs, ImVec2(a0.x - 6.0f - text_size(label).x, y - 0.5f * fs), dim_col, label.c_str());
        labelled_y = y;
    }

    const float slot = (a1.x - a0.x) / static_cast<float>(std::max(n, 1));
    const float bar_w = std::max(1.0f, std::floor(slot * 0.72f));
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    const int hovered_bar = hovered && mouse.x >= a0.x && mouse.x < a1.x && mouse.y <= a1.y
                                ? std::min(n - 1, static_cast<int>((mouse.x - a0.x) / slot))
                                : -1;
    const float y_zero = py(0.0);

    dl->PushClipRect(a0, a1, true);
    if (hovered_bar >= 0) {
        const float x = a0.x + static_cast<float>(hovered_bar) * slot;
        dl->AddRectFilled(ImVec2(x, a0.y), ImVec2(x + slot, a1.y), ImGui::GetColorU32(ImGuiCol_FrameBgHovered));
    }
    for (int i = 0; i < n; ++i) {
        const float x = std::floor(a0.x + (static_cast<float>(i) + 0.5f) * slot - 0.5f * bar_w);
        const double v = values(i);
        const float y = py(v);
        dl->AddRectFilled(ImVec2(x, std::min(y, y_zero)), ImVec2(x + bar_w, std::max(y, y_zero)),
                          to_u32(chart.color));
        if (chart.reference != nullptr) {
            const float y_ref = py((*chart.reference)(i));
            dl->AddRect(ImVec2(x - 1.0f, std::min(y_ref, y_zero)), ImVec2(x + bar_w + 1.0f, std::max(y_ref, y_zero)),
                        darker(chart.color), 0.0f, 0, 2.0f);
        }
        if (chart.value_labels) {
            const std::string label = fmt_value(shown(v));
            const ImVec2 ts = text_size(label);
            if (ts.x <= slot - 4.0f) {
                float ly = v >= 0.0 ? std::min(y, y_zero) - ts.y - 2.0f : std::max(y, y_zero) + 2.0f;
                ImU32 col = text_col;
                if (ly < a0.y || ly + ts.y > a1.y) {   // no room past the bar's end: inside it, in white
                    ly = std::clamp(v >= 0.0 ? std::min(y, y_zero) + 2.0f : std::max(y, y_zero) - ts.y - 2.0f, a0.y,
                                    a1.y - ts.y);
                    col = IM_COL32(255, 255, 255, 255);
                }
                dl->AddText(font, fs, ImVec2(x + 0.5f * (bar_w - ts.x), ly), col, label.c_str());
            }
        }
    }
    dl->AddLine(ImVec2(a0.x, y_zero), ImVec2(a1.x, y_zero), text_col, 1.5f);
    dl->PopClipRect();
    dl->AddLine(ImVec2(a0.x, a0.y), ImVec2(a0.x, a1.y), dim_col);

    draw_index_labels(dl, font, a0.x, a1.y + 4.0f, slot, n, dim_col);

    if (hovered_bar >= 0) {
        ImGui::BeginTooltip();
        ImGui::Text("%s%s = %s", chart.symbol, subscript(hovered_bar + 1).c_str(), fmt_value(shown(values(hovered_bar))).c_str());
        if (chart.reference != nullptr) {
            ImGui::TextDisabled("at %s: %s", chart.reference_name, fmt_value((*chart.reference)(hovered_bar)).c_str());
        }
        ImGui::EndTooltip();
    }
}

}  // namespace normlab::ui
