// Panels and where items go in a row (see panels.hpp).
#include "panels.hpp"

#include <algorithm>

namespace normlab::ui {

void swatch(Color color) {
    const float s = ImGui::GetFontSize() * 0.8f;
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float y = p.y + 0.5f * (ImGui::GetTextLineHeight() - s);
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + s, y + s), to_u32(color), 2.0f);
    ImGui::Dummy(ImVec2(s, ImGui::GetTextLineHeight()));
    ImGui::SameLine();
}

void same_line_if_fits(float width, float right, float spacing) {
    const float gap = spacing < 0.0f ? ImGui::GetStyle().ItemSpacing.x : spacing;
    if (ImGui::GetItemRectMax().x + gap + width <= right) ImGui::SameLine(0.0f, gap);
}

bool pair_fits(std::initializer_list<std::string_view> shown) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float half = 0.5f * (ImGui::GetContentRegionAvail().x - style.ItemSpacing.x);
    for (std::string_view t : shown)
        if (ImGui::CalcTextSize(t.data(), t.data() + t.size()).x + 2.0f * style.FramePadding.x > half) return false;
    return true;
}

float radio_width(const char* label) {
    return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label, nullptr, true).x;
}

bool begin_panel(const char* id, ImVec2 size, bool border) {
    return ImGui::BeginChild(id, size, border, ImGuiWindowFlags_HorizontalScrollbar | ImGuiWindowFlags_NavFlattened);
}

void begin_controls_panel(float share, float min_em, float max_em) {
    const float em = ImGui::GetFontSize();
    const float width = std::clamp(share * ImGui::GetContentRegionAvail().x, min_em * em, max_em * em);
    begin_panel("controls", ImVec2(width, 0.0f), true);
}

void end_controls_panel() {
    // Dear ImGui 1.86 shows the vertical scroll bar only for content taller than the whole panel,
    // not for content hidden under the sideways one: room for that bar below the last row.
    if (ImGui::GetScrollMaxX() > 0.0f) ImGui::Dummy(ImVec2(0.0f, ImGui::GetStyle().ScrollbarSize));
    ImGui::EndChild();
    ImGui::SameLine();
}

float button_width(const char* label) {
    return ImGui::CalcTextSize(label, nullptr, true).x + 2.0f * ImGui::GetStyle().FramePadding.x;   // "Load###load": its label
}

}  // namespace normlab::ui
