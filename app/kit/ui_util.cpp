// The kit's small helpers (see ui_util.hpp).
#include "ui_util.hpp"

#include <normlab/base/i18n.hpp>

#include <imgui_stdlib.h>

#define GLFW_INCLUDE_NONE   // key codes only
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <unordered_map>

namespace normlab::ui {

namespace {

// The messages of fields whose last typed value was refused, by slot. Display state of the
// widgets, kept the way Dear ImGui keeps its own per-item state (by ID, for the app's life);
// an entry goes when its field takes a valid value, or when the value it kept changed some
// other way (a scene opened, undo, a key or button of the lab): then the message no longer says
// what the field holds.
struct Refused {
    std::string message;
    const double* value = nullptr;   // the value the message is about, and what it held then
    double kept = 0.0;
};
std::unordered_map<ImGuiID, Refused> g_refused;

}  // namespace

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

void precision_radios(bool& f32, const char* then) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(normlab::tr("precision:"));
    ImGui::SameLine();
    if (ImGui::RadioButton("float32", f32)) f32 = true;
    tooltip((std::string(normlab::tr("float32, the fast path: its matrix products on AVX2 + FMA where the CPU has them, several "
                                     "times faster than float64; its losses agree with float64's to about 5 digits.")) +
             " " + then).c_str());
    ImGui::SameLine();
    if (ImGui::RadioButton("float64", !f32)) f32 = false;
    tooltip((std::string(normlab::tr("float64, the reference: the numbers normlab-cli train and depth print by default, bit for "
                                     "bit.")) +
             " " + then).c_str());

}

void heading(ImFont* font, const char* text) {
    ImGui::Spacing();
    ImGui::PushFont(font);
    ImGui::TextUnformatted(text);
    ImGui::PopFont();
    ImGui::Separator();
}

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

// [SECTION] Checked numbers -----------------------------------------------------------------

bool accept_number(ImGuiID slot, std::string_view name, bool changed, double edited, double& v,
                   const NumberRule& rule) {
    if (!changed) {
        const auto it = g_refused.find(slot);
        if (it != g_refused.end() && it->second.value == &v && std::memcmp(&it->second.kept, &v, sizeof v) != 0)
            g_refused.erase(it);
        return false;
    }
    const std::string problem = number_problem(name, edited, rule);
    if (!problem.empty()) {
        g_refused[slot] = {"✗ " + unicode_minus(problem.c_str()) + "; kept " + fmt_value(v), &v, v};
        return false;
    }
    g_refused.erase(slot);
    const bool moved = edited != v;
    v = edited;
    return moved;
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

bool begin_panel(const char* id, ImVec2 size, bool border) {
    return ImGui::BeginChild(id, size, border, ImGuiWindowFlags_HorizontalScrollbar | ImGuiWindowFlags_NavFlattened);
}

void begin_controls_panel(float share, float min_em, float max_em) {
    const float em = ImGui::GetFontSize();
    const float width = std::clamp(share * ImGui::GetContentRegionAvail().x, min_em * em, max_em * em);
    begin_panel("controls", ImVec2(width, 0.0f), true);
}

void end_controls_panel() {
    ImGui::EndChild();
    ImGui::SameLine();
}

std::string glfw_error() {
    const char* description = nullptr;
#ifndef __EMSCRIPTEN__   // emscripten's GLFW (3.2's API) has no glfwGetError
    glfwGetError(&description);
#endif
    return description != nullptr ? description : "no details";
}

float button_width(const char* label) {
    return ImGui::CalcTextSize(label, nullptr, true).x + 2.0f * ImGui::GetStyle().FramePadding.x;   // "Load###load": its label
}


void log_slider(const char* id, const char* name, double& v, const NumberRule& rule, const char* format, float width,
                const char* help) {
    ImGui::SetNextItemWidth(width);
    checked_number(name, v, rule, [&](double* value) {
        const bool changed = ImGui::SliderScalar(id, ImGuiDataType_Double, value, &rule.lo, &rule.hi, format,
                                                 ImGuiSliderFlags_Logarithmic);
        tooltip(help);
        return changed;
    });
}

void eps_slider(double& eps, const char* help) {
    checked_number("ε", eps, kLabEpsRule, [help](double* v) {
        const double lo = 1e-12, hi = 1.0;
        const bool changed =
            ImGui::SliderScalar("ε", ImGuiDataType_Double, v, &lo, &hi, "%.1e", ImGuiSliderFlags_Logarithmic);
        tooltip(help);
        return changed;
    });
}

void int_slider(const char* id, int& v, int lo, int hi, const char* format, bool log, float width, const char* help) {
    ImGui::SetNextItemWidth(width);
    ImGui::SliderInt(id, &v, lo, hi, format, ImGuiSliderFlags_AlwaysClamp | (log ? ImGuiSliderFlags_Logarithmic : 0));
    tooltip(help);
}

bool percent_slider(const char* label, double* p, const char* format, const char* help) {
    double percent = 100.0 * *p;
    const double lo = 1.0, hi = 100.0;
    const bool changed = ImGui::SliderScalar(label, ImGuiDataType_Double, &percent, &lo, &hi, format,
                                             ImGuiSliderFlags_Logarithmic);
    tooltip(help);
    if (changed) *p = percent / 100.0;
    return changed;
}

void field_message(ImGuiID slot, float width) {
    const auto it = g_refused.find(slot);
    if (it != g_refused.end()) flow_text(it->second.message, kErrorText, width);
}

std::string field_message_text(ImGuiID slot) {
    const auto it = g_refused.find(slot);
    return it != g_refused.end() ? it->second.message : std::string();
}

bool text_field(const char* id, const char* hint, TextField& f, const std::string& shown, TextEntry entry) {
    if (entry == TextEntry::EnterOnly) {
        if (shown != f.shown_for) {   // the value changed (an entry taken, a scene): show it
            f.text = f.shown_for = shown;
            f.error.clear();
        }
        const bool enter = ImGui::InputTextWithHint(id, hint, &f.text, ImGuiInputTextFlags_EnterReturnsTrue);
        f.editing = ImGui::IsItemActive();
        return enter;
    }
    if (!f.error.empty() && shown != f.shown_for) f.error.clear();   // the value changed elsewhere
    if (!f.editing && f.error.empty()) f.text = shown;
    ImGui::InputTextWithHint(id, hint, &f.text);
    f.editing = ImGui::IsItemActive();
    if (!ImGui::IsItemDeactivatedAfterEdit()) return false;
    f.shown_for = shown;
    return true;
}

}  // namespace normlab::ui
