// Numbers and text on screen (see screen_text.hpp).
#include "screen_text.hpp"

#include <normlab/base/i18n.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace normlab::ui {

std::string fmt_value(double v) {
    char buf[48];
    const double mag = std::fabs(v);
    if (mag == 0.0 || (mag >= 0.01 && mag < 1e4) || !std::isfinite(v)) {
        std::snprintf(buf, sizeof buf, "%.3f", v == 0.0 ? 0.0 : v);   // no "−0.000"
    } else {
        std::snprintf(buf, sizeof buf, "%.3e", v);
    }
    return unicode_minus(buf);
}

std::string fmt_tick(double v) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.6g", v == 0.0 ? 0.0 : v);
    return unicode_minus(buf);
}

void tooltip(const char* text) {
    if (!ImGui::IsItemHovered()) return;
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

void heading(ImFont* font, const char* text) {
    ImGui::Spacing();
    ImGui::PushFont(font);
    flow_text(text, ImGui::GetStyle().Colors[ImGuiCol_Text]);   // a long one (a narrow panel) on two lines
    ImGui::PopFont();
    ImGui::Separator();
}

std::vector<TextLine> wrap_lines(const ImFont& font, float size, std::string_view text, float width) {
    const float scale = size / font.FontSize;
    const auto advance = [&](char32_t c) -> double {
        if (c < 32 && c != '\t') return 0.0;   // '\r' and other controls: ImGui draws nothing
        const ImWchar w = c <= 0xFFFF ? static_cast<ImWchar>(c) : static_cast<ImWchar>(0xFFFD);
        return static_cast<double>(font.GetCharAdvance(w) * scale);
    };
    return break_lines(text, static_cast<double>(width), advance);
}

namespace {

// flow_text's width: `width`, or what is left of the line.
float flow_width(float width) { return width > 0.0f ? width : ImGui::GetContentRegionAvail().x; }

}  // namespace

float flow_text_height(const std::string& text, float width) {
    const std::size_t n = std::max<std::size_t>(1, wrap_lines(*ImGui::GetFont(), ImGui::GetFontSize(), text, width).size());
    const auto lines = static_cast<float>(n);
    return lines * ImGui::GetTextLineHeight() + (lines - 1.0f) * ImGui::GetStyle().ItemSpacing.y;
}

void flow_text(const std::string& text, const ImVec4& color, float width) {
    ImGui::PushStyleColor(ImGuiCol_Text, color);
    for (const TextLine& l : wrap_lines(*ImGui::GetFont(), ImGui::GetFontSize(), text, flow_width(width)))
        ImGui::TextUnformatted(text.data() + l.begin, text.data() + l.end);
    ImGui::PopStyleColor();
}

float heading_extra_height(ImFont* font, const char* text) {
    const std::size_t n = wrap_lines(*font, font->FontSize, text, ImGui::GetContentRegionAvail().x).size();
    return n > 1 ? static_cast<float>(n - 1) * (font->FontSize + ImGui::GetStyle().ItemSpacing.y) : 0.0f;
}

void push_wrap_at_edge() { ImGui::PushTextWrapPos(ImGui::GetContentRegionMax().x + ImGui::GetScrollX()); }

void worker_failure_line(const std::string& failure) {
    if (failure.empty()) return;
    push_wrap_at_edge();
    ImGui::TextColored(kErrorText, "%s",
                       normlab::tr("✗ Stopped: {0}. The session is kept; smaller settings need less memory (Reset starts again).",
                                   failure).c_str());
    ImGui::PopTextWrapPos();
}

}  // namespace normlab::ui
