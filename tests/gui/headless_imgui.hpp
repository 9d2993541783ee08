// Dear ImGui without a window or GL, for the GUI unit tests: a context with an 800×600 display,
// 60 frames a second, no imgui.ini; call build_font_atlas() once the fonts are loaded (NewFrame
// needs the atlas).
#pragma once

#include <imgui.h>

namespace normlab::ui {

inline ImGuiIO& create_headless_imgui() {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(800.0f, 600.0f);
    io.DeltaTime = 1.0f / 60.0f;
    io.IniFilename = nullptr;
    return io;
}

inline void build_font_atlas(ImGuiIO& io) {
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
}

}  // namespace normlab::ui
