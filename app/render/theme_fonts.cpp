// Fonts and the colour theme (see theme_fonts.hpp).
#include "theme_fonts.hpp"

#include <algorithm>
#include <cmath>

namespace normlab::ui {

void apply_theme(bool dark, int px) { apply_theme(dark, false, px); }

void apply_theme(bool dark, bool projector, int px) {
    ImGuiStyle style;
    if (dark) {
        ImGui::StyleColorsDark(&style);
    } else {
        ImGui::StyleColorsLight(&style);
        ImVec4* c = style.Colors;
        c[ImGuiCol_Text] = ImVec4(0.06f, 0.06f, 0.08f, 1.0f);
        c[ImGuiCol_TextDisabled] = ImVec4(0.36f, 0.36f, 0.40f, 1.0f);
        c[ImGuiCol_WindowBg] = ImVec4(1.0f, 1.0f, 1.0f, 1.0f);
        c[ImGuiCol_ChildBg] = ImVec4(0.0f, 0.0f, 0.0f, 0.0f);
        c[ImGuiCol_PopupBg] = ImVec4(1.0f, 1.0f, 0.98f, 1.0f);
        c[ImGuiCol_MenuBarBg] = ImVec4(0.92f, 0.93f, 0.95f, 1.0f);
        c[ImGuiCol_Border] = ImVec4(0.70f, 0.71f, 0.75f, 1.0f);
        c[ImGuiCol_FrameBg] = ImVec4(0.92f, 0.93f, 0.95f, 1.0f);
        c[ImGuiCol_FrameBgHovered] = ImVec4(0.86f, 0.90f, 0.97f, 1.0f);
        c[ImGuiCol_FrameBgActive] = ImVec4(0.78f, 0.85f, 0.96f, 1.0f);
        c[ImGuiCol_TitleBg] = ImVec4(0.90f, 0.91f, 0.94f, 1.0f);
        c[ImGuiCol_TitleBgActive] = ImVec4(0.85f, 0.88f, 0.94f, 1.0f);
        c[ImGuiCol_Button] = ImVec4(0.88f, 0.90f, 0.94f, 1.0f);
        c[ImGuiCol_ButtonHovered] = ImVec4(0.78f, 0.85f, 0.96f, 1.0f);
        c[ImGuiCol_ButtonActive] = ImVec4(0.66f, 0.77f, 0.94f, 1.0f);
        c[ImGuiCol_SliderGrab] = ImVec4(0.62f, 0.72f, 0.90f, 1.0f);      // light: the value stays readable on it
        c[ImGuiCol_SliderGrabActive] = ImVec4(0.50f, 0.63f, 0.88f, 1.0f);
        c[ImGuiCol_CheckMark] = ImVec4(0.15f, 0.30f, 0.55f, 1.0f);
        c[ImGuiCol_Separator] = ImVec4(0.80f, 0.81f, 0.85f, 1.0f);
        c[ImGuiCol_TableBorderLight] = ImVec4(0.90f, 0.91f, 0.93f, 1.0f);
    }
    style.WindowRounding = 0.0f;
    style.ChildRounding = 4.0f;
    style.FrameRounding = 4.0f;
    style.GrabRounding = 4.0f;
    style.PopupRounding = 4.0f;
    style.FrameBorderSize = 1.0f;
    style.WindowPadding = ImVec2(12.0f, 10.0f);
    style.FramePadding = ImVec2(7.0f, 4.0f);
    style.ItemSpacing = ImVec2(10.0f, 7.0f);
    style.ItemInnerSpacing = ImVec2(6.0f, 5.0f);
    style.GrabMinSize = 12.0f;
    style.ScrollbarSize = 16.0f;
    style.ScaleAllSizes(static_cast<float>(px) / static_cast<float>(kDefaultFontPx));
    if (projector && !dark) {
        ImVec4* c = style.Colors;
        c[ImGuiCol_Text] = ImVec4(0.0f, 0.0f, 0.0f, 1.0f);
        c[ImGuiCol_TextDisabled] = ImVec4(0.22f, 0.22f, 0.26f, 1.0f);
        c[ImGuiCol_MenuBarBg] = ImVec4(0.88f, 0.89f, 0.92f, 1.0f);
        c[ImGuiCol_Border] = ImVec4(0.30f, 0.31f, 0.36f, 1.0f);
        c[ImGuiCol_Separator] = ImVec4(0.40f, 0.41f, 0.46f, 1.0f);
        c[ImGuiCol_FrameBg] = ImVec4(0.95f, 0.95f, 0.97f, 1.0f);
        c[ImGuiCol_Tab] = ImVec4(0.86f, 0.88f, 0.93f, 1.0f);
        c[ImGuiCol_TabActive] = ImVec4(0.62f, 0.74f, 0.93f, 1.0f);
        c[ImGuiCol_TabHovered] = ImVec4(0.72f, 0.81f, 0.95f, 1.0f);
        c[ImGuiCol_CheckMark] = ImVec4(0.0f, 0.20f, 0.50f, 1.0f);
        c[ImGuiCol_TableBorderLight] = ImVec4(0.70f, 0.71f, 0.75f, 1.0f);
        c[ImGuiCol_TableBorderStrong] = ImVec4(0.30f, 0.31f, 0.36f, 1.0f);
        const float line = std::max(2.0f, std::round(static_cast<float>(px) / 14.0f));   // 2 px at 100 %, 4 px at 250 %
        style.WindowBorderSize = style.ChildBorderSize = style.PopupBorderSize = style.FrameBorderSize = line;
        style.TabBorderSize = line;
        style.GrabMinSize = std::max(style.GrabMinSize, 0.9f * static_cast<float>(px));
    }
    ImGui::GetStyle() = style;
}

}  // namespace normlab::ui
