// The link-time hook that records every text Dear ImGui draws (layout_check.hpp), keeps slider
// values clear of their grabs, and breaks wrapped texts where English, Korean and Chinese allow
// (screen_text.hpp, wrap_lines): linked with -Wl,--wrap of the two ImDrawList::AddText overloads,
// ImDrawList::AddRectFilled and ImFont::CalcTextSizeA (app/CMakeLists.txt), every call to them —
// from Debian's libimgui.a and from the app — comes here, is recorded while a frame is being
// checked, and goes on to the real one (__real_…). Dear ImGui 1.86's RenderText, RenderTextWrapped
// and RenderTextClippedEx (labels, values, cells, tabs, menus) all draw through the first overload.
#include "layout_check.hpp"
#include "ui_util.hpp"

#include <algorithm>
#include <cfloat>
#include <cstring>
#include <string_view>
#include <vector>

namespace {

// Longer wrapped texts keep Dear ImGui's own breaks (a 15 MB caption: docs/RELIABILITY.md, Long texts).
constexpr std::size_t kMaxBrokenBytes = 64 * 1024;

bool break_here(float wrap_width, const char* begin, const char* end) {
    return wrap_width > 0.0f && static_cast<std::size_t>(end - begin) <= kMaxBrokenBytes;
}

}  // namespace

extern "C" {

// ImDrawList::AddText(const ImFont*, float, const ImVec2&, ImU32, const char*, const char*, float, const ImVec4*)
void __real__ZN10ImDrawList7AddTextEPK6ImFontfRK6ImVec2jPKcS7_fPK6ImVec4(ImDrawList*, const ImFont*, float,
                                                                          const ImVec2&, ImU32, const char*,
                                                                          const char*, float, const ImVec4*);
void __wrap__ZN10ImDrawList7AddTextEPK6ImFontfRK6ImVec2jPKcS7_fPK6ImVec4(ImDrawList* dl, const ImFont* font,
                                                                          float size, const ImVec2& pos, ImU32 col,
                                                                          const char* begin, const char* end,
                                                                          float wrap_width, const ImVec4* fine_clip) {
    if (end == nullptr) end = begin + std::strlen(begin);
    normlab::ui::before_draw_list_text(*dl, font, size, pos, begin, end, wrap_width);
    if (normlab::ui::text_recording())
        normlab::ui::record_draw_list_text(*dl, font, size, pos, col, begin, end, wrap_width, fine_clip);
    if (!break_here(wrap_width, begin, end) || font == nullptr) {
        __real__ZN10ImDrawList7AddTextEPK6ImFontfRK6ImVec2jPKcS7_fPK6ImVec4(dl, font, size, pos, col, begin, end,
                                                                             wrap_width, fine_clip);
        return;
    }
    // Wrapped (RenderTextWrapped: TextWrapped, PushTextWrapPos): each line of wrap_lines, one text
    // height (`size`) below the last, as Dear ImGui's RenderText places its lines.
    const std::vector<normlab::TextLine> lines = normlab::ui::wrap_lines(*font, size, std::string_view(begin, end - begin), wrap_width);
    for (std::size_t i = 0; i < lines.size(); ++i)
        if (lines[i].end > lines[i].begin)
            __real__ZN10ImDrawList7AddTextEPK6ImFontfRK6ImVec2jPKcS7_fPK6ImVec4(
                dl, font, size, ImVec2(pos.x, pos.y + static_cast<float>(i) * size), col, begin + lines[i].begin,
                begin + lines[i].end, 0.0f, fine_clip);
}

// ImFont::CalcTextSizeA(float size, float max_width, float wrap_width, const char*, const char*, const char**):
// a wrapped text's size as the AddText hook above draws it (ImGui::CalcTextSize, in imgui.o, calls it
// for every item's size; calls inside imgui_draw.o do not pass here, and need not).
ImVec2 __real__ZNK6ImFont13CalcTextSizeAEfffPKcS1_PS1_(const ImFont*, float, float, float, const char*, const char*,
                                                      const char**);
ImVec2 __wrap__ZNK6ImFont13CalcTextSizeAEfffPKcS1_PS1_(const ImFont* font, float size, float max_width, float wrap_width,
                                                      const char* begin, const char* end, const char** remaining) {
    if (end == nullptr) end = begin + std::strlen(begin);
    if (!break_here(wrap_width, begin, end) || max_width < FLT_MAX)
        return __real__ZNK6ImFont13CalcTextSizeAEfffPKcS1_PS1_(font, size, max_width, wrap_width, begin, end, remaining);
    float w = 0.0f;
    const std::vector<normlab::TextLine> lines = normlab::ui::wrap_lines(*font, size, std::string_view(begin, end - begin), wrap_width);
    for (const normlab::TextLine& l : lines) w = std::max(w, static_cast<float>(l.width));
    if (remaining != nullptr) *remaining = end;
    return ImVec2(w, static_cast<float>(std::max<std::size_t>(1, lines.size())) * size);
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
