// The link-time hook that records every text Dear ImGui draws (layout_check.hpp) and keeps slider
// values clear of their grabs: linked with -Wl,--wrap of the two ImDrawList::AddText overloads
// and ImDrawList::AddRectFilled (app/CMakeLists.txt), every call to them —
// from Debian's libimgui.a and from the app — comes here, is recorded while a frame is being
// checked, and goes on to the real one (__real_…). Dear ImGui 1.86's RenderText, RenderTextWrapped
// and RenderTextClippedEx (labels, values, cells, tabs, menus) all draw through the first overload.
#include "layout_check.hpp"

extern "C" {

// ImDrawList::AddText(const ImFont*, float, const ImVec2&, ImU32, const char*, const char*, float, const ImVec4*)
void __real__ZN10ImDrawList7AddTextEPK6ImFontfRK6ImVec2jPKcS7_fPK6ImVec4(ImDrawList*, const ImFont*, float,
                                                                          const ImVec2&, ImU32, const char*,
                                                                          const char*, float, const ImVec4*);
void __wrap__ZN10ImDrawList7AddTextEPK6ImFontfRK6ImVec2jPKcS7_fPK6ImVec4(ImDrawList* dl, const ImFont* font,
                                                                          float size, const ImVec2& pos, ImU32 col,
                                                                          const char* begin, const char* end,
                                                                          float wrap_width, const ImVec4* fine_clip) {
    normlab::ui::before_draw_list_text(*dl, font, size, pos, begin, end, wrap_width);
    if (normlab::ui::text_recording())
        normlab::ui::record_draw_list_text(*dl, font, size, pos, col, begin, end, wrap_width, fine_clip);
    __real__ZN10ImDrawList7AddTextEPK6ImFontfRK6ImVec2jPKcS7_fPK6ImVec4(dl, font, size, pos, col, begin, end,
                                                                         wrap_width, fine_clip);
}

// ImDrawList::AddText(const ImVec2&, ImU32, const char*, const char*): the draw list's font; its
// body (inside libimgui.a's imgui_draw.o) calls the overload above without passing the wrapper.
void __real__ZN10ImDrawList7AddTextERK6ImVec2jPKcS4_(ImDrawList*, const ImVec2&, ImU32, const char*, const char*);
void __wrap__ZN10ImDrawList7AddTextERK6ImVec2jPKcS4_(ImDrawList* dl, const ImVec2& pos, ImU32 col, const char* begin,
                                                      const char* end) {
    normlab::ui::before_draw_list_text(*dl, nullptr, 0.0f, pos, begin, end, 0.0f);
    if (normlab::ui::text_recording())
        normlab::ui::record_draw_list_text(*dl, nullptr, 0.0f, pos, col, begin, end, 0.0f, nullptr);
    __real__ZN10ImDrawList7AddTextERK6ImVec2jPKcS4_(dl, pos, col, begin, end);
}

// ImDrawList::AddRectFilled(const ImVec2&, const ImVec2&, ImU32, float, ImDrawFlags): a slider's
// grab is noted (layout_check.hpp, Slider grabs).
void __real__ZN10ImDrawList13AddRectFilledERK6ImVec2S2_jfi(ImDrawList*, const ImVec2&, const ImVec2&, ImU32, float, int);
void __wrap__ZN10ImDrawList13AddRectFilledERK6ImVec2S2_jfi(ImDrawList* dl, const ImVec2& a, const ImVec2& b, ImU32 col,
                                                            float rounding, int flags) {
    normlab::ui::note_rect_filled(*dl, a, b, col);
    __real__ZN10ImDrawList13AddRectFilledERK6ImVec2S2_jfi(dl, a, b, col, rounding, flags);
}

}  // extern "C"
