// The editable heat map of a matrix (see heatmap.hpp).
#include "heatmap.hpp"

#include <normlab/base/palette.hpp>
#include "plot_view.hpp"
#include "ui_util.hpp"

#include <normlab/base/i18n.hpp>
#include <normlab/plot/plot.hpp>
#include <normlab/plot/plot_parts.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>

namespace normlab::ui {

namespace {

// The figures' diverging map (core's diverging_color) at t = v / max|W| ∈ [−1, 1].
ImU32 diverging(double t) { return to_u32(diverging_color(t)); }

}  // namespace

bool heatmap_editor(const char* id, Mat& W, HeatmapUi& ui, float width, float max_cell, ImFont* small_font,
                    const char* help) {
    const Eigen::Index n = W.rows(), m = W.cols();
    ui.row = std::clamp<Eigen::Index>(ui.row, 0, n - 1);
    ui.col = std::clamp<Eigen::Index>(ui.col, 0, m - 1);
    const float fs = small_font->FontSize;
    const double scale = std::max(W.cwiseAbs().maxCoeff(), 1e-12);
    const std::string scale_label = fmt_value(scale);

    // Legend to the right: a gradient bar and its three labels.
    const float legend_w = 18.0f + 8.0f + small_font->CalcTextSizeA(fs, FLT_MAX, 0.0f, ("+" + scale_label).c_str()).x;
    const float cell = std::floor(std::min(max_cell, (width - legend_w - 12.0f) / static_cast<float>(m)));
    const ImVec2 grid_size(cell * static_cast<float>(m), cell * static_cast<float>(n));

    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton(id, ImVec2(grid_size.x, std::max(grid_size.y, 4.0f * fs)));
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImGuiIO& io = ImGui::GetIO();
    const auto cell_at = [&](ImVec2 p, Eigen::Index& i, Eigen::Index& j) {
        i = static_cast<Eigen::Index>((p.y - p0.y) / cell);
        j = static_cast<Eigen::Index>((p.x - p0.x) / cell);
        return i >= 0 && i < n && j >= 0 && j < m && p.x >= p0.x && p.y >= p0.y;
    };

    bool changed = false;
    if (ImGui::IsItemActivated()) {
        Eigen::Index i = 0, j = 0;
        if (cell_at(io.MousePos, i, j)) {
            ui.row = i;
            ui.col = j;
        }
    }
    if (ImGui::IsItemActive() && io.MouseDelta.y != 0.0f) {
        const double speed = 0.01 * std::max(1.0, scale) * (io.KeyShift ? 0.1 : 1.0);
        W(ui.row, ui.col) -= speed * io.MouseDelta.y;
        changed = true;
    }

    const bool show_numbers = cell >= small_font->CalcTextSizeA(fs, FLT_MAX, 0.0f, "\xE2\x88\x92" "0.00").x + 6.0f;
    // The cells and their numbers are those of the matrix's figure (core's matrix_plot, laid out
    // by layout_data over the grid): what its right-click saves, painted by the export's code.
    const Plot figure = matrix_plot("", "", W, "W", "", "");
    const PlotLayout layout = layout_data(figure, Rect{p0.x, p0.y, p0.x + grid_size.x, p0.y + grid_size.y});
    draw_figure_data(*dl, figure, layout, 1.0);
    for (const HeatCell& c : layout.heat_cells) {
        if (!show_numbers) break;
        const std::string& label = figure.heat->labels[static_cast<std::size_t>(c.row) * static_cast<std::size_t>(m) +
                                                       static_cast<std::size_t>(c.col)];
        const ImVec2 ts = small_font->CalcTextSizeA(fs, FLT_MAX, 0.0f, label.c_str());
        const ImVec2 c0(static_cast<float>(c.rect.x0), static_cast<float>(c.rect.y0));
        const ImVec4 clip(c0.x, c0.y, static_cast<float>(c.rect.x1), static_cast<float>(c.rect.y1));
        dl->AddText(small_font, fs, ImVec2(c0.x + 0.5f * (cell - ts.x), c0.y + 0.5f * (cell - ts.y)),
                    std::fabs(W(c.row, c.col) / scale) > 0.6 ? IM_COL32_WHITE : IM_COL32(30, 30, 30, 255), label.c_str(),
                    nullptr, 0.0f, &clip);
    }
    const ImU32 line = ImGui::GetColorU32(ImGuiCol_Border);
    dl->AddRect(p0, ImVec2(p0.x + grid_size.x, p0.y + grid_size.y), line);
    const auto outline = [&](Eigen::Index i, Eigen::Index j, ImU32 col, float thickness) {
        const ImVec2 c0(p0.x + static_cast<float>(j) * cell, p0.y + static_cast<float>(i) * cell);
        dl->AddRect(c0, ImVec2(c0.x + cell, c0.y + cell), col, 0.0f, 0, thickness);
    };
    outline(ui.row, ui.col, ImGui::GetColorU32(ImGuiCol_Text), 2.5f);

    Eigen::Index hi = 0, hj = 0;
    if (ImGui::IsItemHovered() && !ImGui::IsItemActive() && cell_at(io.MousePos, hi, hj)) {
        outline(hi, hj, ImGui::GetColorU32(ImGuiCol_TextDisabled), 1.5f);
        ImGui::BeginTooltip();
        ImGui::Text("W%s,%s = %s", subscript(hi + 1).c_str(), subscript(hj + 1).c_str(), fmt_value(W(hi, hj)).c_str());
        ImGui::TextDisabled("%s", normlab::tr("Click to select, drag up/down to change (Shift: finer)."));

        ImGui::TextUnformatted(help);
        ImGui::EndTooltip();
    }

    // Legend: +max at the top, 0 in the middle, −max at the bottom.
    const float lx = p0.x + grid_size.x + 12.0f, lh = std::max(grid_size.y, 4.0f * fs);
    const ImVec2 l0(lx, p0.y), lm(lx + 18.0f, p0.y + 0.5f * lh), l1(lx + 18.0f, p0.y + lh);
    const ImU32 pos = diverging(1.0), zero = diverging(0.0), neg = diverging(-1.0);
    dl->AddRectFilledMultiColor(l0, lm, pos, pos, zero, zero);
    dl->AddRectFilledMultiColor(ImVec2(lx, lm.y), l1, zero, zero, neg, neg);
    dl->AddRect(l0, l1, line);
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
    const std::string neg_label = "\xE2\x88\x92" + scale_label;
    dl->AddText(small_font, fs, ImVec2(lx + 26.0f, p0.y), text, ("+" + scale_label).c_str());
    dl->AddText(small_font, fs, ImVec2(lx + 26.0f, lm.y - 0.5f * fs), text, "0");
    dl->AddText(small_font, fs, ImVec2(lx + 26.0f, l1.y - fs), text, neg_label.c_str());
    return changed;
}

}  // namespace normlab::ui
