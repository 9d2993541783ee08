// The layout checker (see layout_check.hpp).
//
// [SECTION] Recording
// [SECTION] Windows whose content runs off
// [SECTION] Checking
// [SECTION] Report
#include "layout_check.hpp"

#include "font_atlas.hpp"
#include "ui_util.hpp"

#include <imgui_internal.h>   // the current window, its clip rect and scroll bars
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>
#include <sstream>

namespace normlab::ui {

namespace {

constexpr float kSlack = 1.0f;   // px a box may pass its clip rect, or overlap another, unnoticed
constexpr float kSameText = 3.0f;   // px: the same text drawn again this close is a shadow or halo

bool g_recording = false;
std::vector<TextBox> g_texts;
std::vector<DataMark> g_data, g_last_data;

// The slider grab drawn last (note_rect_filled), until the next text in its draw list.
struct Grab {
    const ImDrawList* list = nullptr;   // null: none pending
    ImVec4 box;
};
Grab g_grab;

ImVec4 intersect(const ImVec4& a, const ImVec4& b) {
    return {std::max(a.x, b.x), std::max(a.y, b.y), std::min(a.z, b.z), std::min(a.w, b.w)};
}

bool near(float a, float b) { return std::fabs(a - b) <= 1.5f; }

// Whether the clip edge `edge` (0 left, 1 top, 2 right, 3 bottom) at `at` is an edge of the
// window, or of a window it is inside, that has a scroll bar across it: then what lies beyond
// can be scrolled to.
bool scrolls_past(const ImGuiWindow* window, int edge, float at) {
    for (const ImGuiWindow* w = window; w != nullptr; w = w->ParentWindow) {
        const ImRect& r = w->InnerClipRect;
        const float wall = edge == 0 ? r.Min.x : edge == 1 ? r.Min.y : edge == 2 ? r.Max.x : r.Max.y;
        const bool bar = edge % 2 == 0 ? w->ScrollbarX : w->ScrollbarY;
        if (bar && near(wall, at)) return true;
    }
    return false;
}

}  // namespace

// [SECTION] Recording -----------------------------------------------------------------------

void start_text_record() {
    g_texts.clear();
    g_data.clear();
    g_recording = true;
}

void record_data_rect(ImVec4 rect, const ImVec4& clip, const std::string& figure) {
    if (!g_recording) return;
    rect = intersect(rect, clip);
    if (rect.z - rect.x <= 0.0f || rect.w - rect.y <= 0.0f) return;
    g_data.push_back({ImVec2(rect.x, rect.y), ImVec2(rect.z, rect.w), false, figure});
}

void record_data_segment(ImVec2 a, ImVec2 b, const ImVec4& clip, const std::string& figure) {
    if (!g_recording) return;
    const float x0 = std::min(a.x, b.x), x1 = std::max(a.x, b.x), y0 = std::min(a.y, b.y), y1 = std::max(a.y, b.y);
    if (x1 < clip.x || x0 > clip.z || y1 < clip.y || y0 > clip.w) return;
    g_data.push_back({a, b, true, figure});
}

const std::vector<DataMark>& recorded_data() { return g_last_data; }

bool text_recording() { return g_recording; }

void record_whole_block(std::string_view name, ImVec4 box) {
    if (!g_recording) return;
    const ImGuiWindow* w = ImGui::GetCurrentWindowRead();
    const ImRect& room = w->InnerClipRect;
    if (box.z - box.x <= room.GetWidth() + kSlack) return;
    TextBox t;
    std::ostringstream what;
    what << "[table " << name << ": " << static_cast<int>(box.z - box.x) << " px wide in "
         << static_cast<int>(room.GetWidth()) << " px, scrolls sideways]";
    t.text = what.str();
    t.box = box;
    t.visible = intersect(box, ImVec4(room.Min.x, room.Min.y, room.Max.x, room.Max.y));
    t.cut = true;
    t.whole_window = true;   // not a text: no overlap with the texts in it
    t.window = w->Name;
    g_texts.push_back(std::move(t));
}

void record_text(std::string_view text, ImVec4 box, ImVec4 clip, const ImVec4* frame, bool labels_data,
                 std::string_view figure) {
    if (!g_recording || text.empty()) return;
    TextBox t;
    t.text = std::string(text);
    t.figure = std::string(figure);
    t.labels_data = labels_data;
    t.box = box;
    t.visible = intersect(box, frame != nullptr ? intersect(clip, *frame) : clip);
    if (frame != nullptr) {
        t.cut = box.x < frame->x - kSlack || box.y < frame->y - kSlack || box.z > frame->z + kSlack ||
                box.w > frame->w + kSlack;
        box = intersect(box, *frame);
    }
    const ImGuiWindow* window = GImGui != nullptr ? GImGui->CurrentWindow : nullptr;
    t.window = window != nullptr ? window->Name : "";
    const bool out[4] = {box.x < clip.x - kSlack, box.y < clip.y - kSlack, box.z > clip.z + kSlack,
                         box.w > clip.w + kSlack};
    const float edge_at[4] = {clip.x, clip.y, clip.z, clip.w};
    for (int e = 0; e < 4; ++e)
        if (out[e] && !scrolls_past(window, e, edge_at[e])) t.cut = true;
    g_texts.push_back(std::move(t));
}

namespace {

// The box of a text AddText draws (blank ends left out), and its non-blank part; false when it is blank.
bool drawn_text_box(const ImDrawList& dl, const ImFont*& font, float& size, ImVec2 pos, const char* begin,
                    const char*& end, float wrap_width, ImVec4& box, std::string_view& shown) {
    if (begin == nullptr) return false;
    if (end == nullptr) end = begin + std::strlen(begin);
    if (font == nullptr) font = dl._Data->Font;
    if (size == 0.0f) size = dl._Data->FontSize;
    if (font == nullptr) return false;
    // Blank ends draw nothing: leave them out of the box.
    const char* first = begin;
    while (first < end && (*first == ' ' || *first == '\n')) ++first;
    const char* last = end;
    while (last > first && (last[-1] == ' ' || last[-1] == '\n')) --last;
    if (first == last) return false;
    const float lead = first == begin ? 0.0f : font->CalcTextSizeA(size, FLT_MAX, 0.0f, begin, first).x;
    const bool one_line = std::memchr(begin, '\n', static_cast<std::size_t>(first - begin)) == nullptr;
    const ImVec2 at(pos.x + (one_line ? lead : 0.0f), pos.y);
    const ImVec2 sz = font->CalcTextSizeA(size, FLT_MAX, wrap_width, first, last);
    box = ImVec4(at.x, at.y, at.x + sz.x, at.y + sz.y);
    shown = std::string_view(first, static_cast<std::size_t>(last - first));
    return true;
}

}  // namespace

void record_draw_list_text(const ImDrawList& dl, const ImFont* font, float size, ImVec2 pos, ImU32 col,
                           const char* begin, const char* end, float wrap_width, const ImVec4* fine_clip) {
    if (!g_recording || (col & IM_COL32_A_MASK) == 0) return;
    ImVec4 box;
    std::string_view shown;
    if (!drawn_text_box(dl, font, size, pos, begin, end, wrap_width, box, shown)) return;
    ImVec4 clip = dl._ClipRectStack.Size > 0 ? dl._ClipRectStack.back() : ImVec4(-FLT_MAX, -FLT_MAX, FLT_MAX, FLT_MAX);
    if (fine_clip != nullptr) clip = intersect(clip, *fine_clip);
    record_text(shown, box, clip);
    if (wrap_width > 0.0f && !g_texts.empty()) g_texts.back().split = split_number(*font, size, shown, wrap_width);
}

void before_draw_list_text(ImDrawList& dl, const ImFont* font, float size, ImVec2 pos, const char* begin,
                           const char* end, float wrap_width) {
    note_drawn_text(font != nullptr ? font : dl._Data->Font, begin, end);   // font_atlas.hpp: glyphs to add
    if (g_grab.list == nullptr) return;
    ImVec4 box;
    std::string_view shown;
    if (drawn_text_box(dl, font, size, pos, begin, end, wrap_width, box, shown)) backdrop_over_grab(dl, box);
}

// [SECTION] Slider grabs --------------------------------------------------------------------

namespace {


constexpr float kBackdropPad = 2.0f;     // px around the value's text
constexpr float kBackdropAlpha = 0.9f;   // the grab shows faintly through it

}  // namespace

void note_rect_filled(const ImDrawList& dl, ImVec2 a, ImVec2 b, ImU32 col) {
    if (GImGui == nullptr) return;
    const bool grab = col == ImGui::GetColorU32(ImGuiCol_SliderGrab) || col == ImGui::GetColorU32(ImGuiCol_SliderGrabActive);
    g_grab = grab ? Grab{&dl, ImVec4(a.x, a.y, b.x, b.y)} : Grab{};
    if (!grab || !g_recording) return;
    TextBox t;
    t.text = "[slider grab]";
    t.box = t.visible = ImVec4(a.x, a.y, b.x, b.y);
    if (dl._ClipRectStack.Size > 0) t.visible = intersect(t.box, dl._ClipRectStack.back());
    t.grab = true;
    t.window = GImGui->CurrentWindow != nullptr ? GImGui->CurrentWindow->Name : "";
    g_texts.push_back(std::move(t));
}

void backdrop_over_grab(ImDrawList& dl, ImVec4 box) {
    const Grab grab = g_grab;
    g_grab = {};
    if (grab.list != &dl) return;
    const ImVec4 both = intersect(box, grab.box);
    if (both.z - both.x <= 0.0f || both.w - both.y <= 0.0f) return;
    const ImVec4 back(box.x - kBackdropPad, std::max(box.y, grab.box.y), box.z + kBackdropPad, std::min(box.w, grab.box.w));
    ImVec4 frame = ImGui::GetStyleColorVec4(ImGuiCol_FrameBg);
    if (frame.w < 1.0f) {   // a see-through frame colour (the dark theme's) over the window's
        const ImVec4 bg = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg);
        frame = ImVec4(frame.x * frame.w + bg.x * (1.0f - frame.w), frame.y * frame.w + bg.y * (1.0f - frame.w),
                       frame.z * frame.w + bg.z * (1.0f - frame.w), 1.0f);
    }
    frame.w = kBackdropAlpha;
    dl.AddRectFilled(ImVec2(back.x, back.y), ImVec2(back.z, back.w), ImGui::GetColorU32(frame), 0.0f);
    if (!g_recording) return;
    TextBox t;
    t.text = "[value backdrop]";
    t.box = t.visible = back;
    t.backdrop = true;
    g_texts.push_back(std::move(t));
}

// [SECTION] Windows whose content runs off --------------------------------------------------

namespace {

// A window drawn this frame whose content (as ImGui measured it) is wider or taller than the
// space it has, on an axis without a scroll bar: the items past the edge are not drawn at all,
// so no text of theirs was recorded; this names them.
void add_cut_windows(std::vector<TextBox>& out) {
    if (GImGui == nullptr) return;
    for (const ImGuiWindow* w : GImGui->Windows) {
        if (!w->Active || w->Hidden || w->SkipItems) continue;
        if ((w->Flags & (ImGuiWindowFlags_Popup | ImGuiWindowFlags_Tooltip)) != 0) continue;
        // A multi-line text field's own child ("…/##steps_1A2B3C4D": Dear ImGui names it after
        // the field's hidden label; the app names no child "##…"): what the user typed may be
        // wider than the field, which scrolls with the cursor.
        const char* leaf = std::strrchr(w->Name, '/');
        if ((w->Flags & ImGuiWindowFlags_ChildWindow) != 0 && leaf != nullptr && std::strncmp(leaf, "/##", 3) == 0) continue;
        const ImVec2 room(w->InnerRect.GetWidth(), w->InnerRect.GetHeight());
        const ImVec2 pad = w->WindowPadding;
        const float over_x = w->ContentSize.x + 2.0f * pad.x - room.x;
        const float over_y = w->ContentSize.y + 2.0f * pad.y - room.y;
        const bool cut_x = !w->ScrollbarX && room.x > 0.0f && over_x > 2.0f * kSlack + pad.x;
        const bool cut_y = !w->ScrollbarY && room.y > 0.0f && over_y > 2.0f * kSlack + pad.y;
        if (!cut_x && !cut_y) continue;
        TextBox t;
        std::ostringstream what;
        what << "[content of " << w->Name << ": " << static_cast<int>(w->ContentSize.x) << " x "
             << static_cast<int>(w->ContentSize.y) << " px in " << static_cast<int>(room.x) << " x "
             << static_cast<int>(room.y) << ", " << (cut_x ? "wider" : "taller") << " without a scroll bar]";
        t.text = what.str();
        t.box = ImVec4(w->InnerRect.Min.x, w->InnerRect.Min.y, w->InnerRect.Min.x + w->ContentSize.x,
                       w->InnerRect.Min.y + w->ContentSize.y);
        t.visible = ImVec4(w->InnerRect.Min.x, w->InnerRect.Min.y, w->InnerRect.Max.x, w->InnerRect.Max.y);
        t.cut = true;
        t.whole_window = true;
        t.window = w->Name;
        out.push_back(std::move(t));
    }
}

}  // namespace

std::vector<TextBox> stop_text_record() {
    g_recording = false;
    std::vector<TextBox> out = std::move(g_texts);
    g_texts.clear();
    g_last_data = std::move(g_data);
    g_data.clear();
    add_cut_windows(out);
    return out;
}

// [SECTION] Checking ------------------------------------------------------------------------

namespace {

bool digit(char c) { return c >= '0' && c <= '9'; }

// The number around `at` (digits, '.', ',', 'e', signs, and the bytes of "−" and other non-ASCII signs).
std::string_view number_around(std::string_view text, std::size_t at) {
    const auto part = [](char c) {
        return digit(c) || c == '.' || c == ',' || c == 'e' || c == '-' || c == '+' || (c & 0x80) != 0;
    };
    std::size_t a = at, b = at;
    while (a > 0 && part(text[a - 1])) --a;
    while (b < text.size() && part(text[b])) ++b;
    return text.substr(a, b - a);
}

}  // namespace

std::string number_split_by(std::string_view text, const std::vector<std::size_t>& line_ends) {
    const char* const begin = text.data();
    const char* const end = begin + text.size();
    for (const std::size_t e : line_ends) {
        const char* eol = begin + e;   // a break with no space: the next line starts here
        if (eol == begin || eol >= end || *eol == ' ' || *eol == '\t' || *eol == '\n') continue;
        const char before = eol[-1], after = *eol;
        const bool digit_before = digit(before) || ((before == '.' || before == ',') && eol - 1 > begin && digit(eol[-2]));
        const bool in_number = (digit_before && digit(after)) || (digit(before) && (after == '.' || after == ',' || after == 'e'));
        if (in_number) {
            const std::string_view n = number_around(text, e);
            const std::size_t cut = e - static_cast<std::size_t>(n.data() - begin);
            return std::string(n.substr(0, cut)) + "|" + std::string(n.substr(cut));
        }
    }
    return "";
}

std::string split_number(const ImFont& font, float size, std::string_view text, float wrap_width) {
    std::vector<std::size_t> ends;
    for (const TextLine& l : wrap_lines(font, size, text, wrap_width)) ends.push_back(l.end);
    return number_split_by(text, ends);
}

namespace {

// Whether a backdrop lies under all of the text's visible part that meets `grab`.
bool backdropped(const std::vector<TextBox>& texts, const ImVec4& text, const ImVec4& grab) {
    const ImVec4 both = intersect(text, grab);
    for (const TextBox& t : texts)
        if (t.backdrop && t.box.x <= both.x + kSlack && t.box.y <= both.y + kSlack && t.box.z >= both.z - kSlack &&
            t.box.w >= both.w - kSlack)
            return true;
    return false;
}

}  // namespace

std::vector<std::pair<std::size_t, std::size_t>> overlapping_texts(const std::vector<TextBox>& texts) {
    std::vector<std::pair<std::size_t, std::size_t>> out;
    for (std::size_t i = 0; i < texts.size(); ++i) {
        const ImVec4& a = texts[i].visible;
        if (a.z - a.x <= kSlack || a.w - a.y <= kSlack || texts[i].whole_window || texts[i].backdrop) continue;
        for (std::size_t j = i + 1; j < texts.size(); ++j) {
            const ImVec4& b = texts[j].visible;
            if (texts[j].whole_window || texts[j].backdrop || (texts[i].grab && texts[j].grab)) continue;
            if (texts[i].grab || texts[j].grab) {   // a grab and a text: a problem where no backdrop separates them
                const ImVec4 both = intersect(a, b);
                const bool meet = both.z - both.x > kSlack && both.w - both.y > kSlack;
                if (meet && !backdropped(texts, texts[i].grab ? b : a, texts[i].grab ? a : b)) out.emplace_back(i, j);
                continue;
            }
            const ImVec4 both = intersect(a, b);
            if (both.z - both.x <= kSlack || both.w - both.y <= kSlack) continue;
            const bool echo = texts[i].text == texts[j].text && std::fabs(a.x - b.x) <= kSameText &&
                              std::fabs(a.y - b.y) <= kSameText;
            if (!echo) out.emplace_back(i, j);
        }
    }
    return out;
}

namespace {

// Whether the segment a–b passes through the rect r (Liang–Barsky clipping).
bool segment_meets(ImVec2 a, ImVec2 b, const ImVec4& r) {
    float t0 = 0.0f, t1 = 1.0f;
    const float dx = b.x - a.x, dy = b.y - a.y;
    const float p[4] = {-dx, dx, -dy, dy};
    const float q[4] = {a.x - r.x, r.z - a.x, a.y - r.y, r.w - a.y};
    for (int i = 0; i < 4; ++i) {
        if (p[i] == 0.0f) {
            if (q[i] < 0.0f) return false;
            continue;
        }
        const float t = q[i] / p[i];
        if (p[i] < 0.0f) t0 = std::max(t0, t);
        else t1 = std::min(t1, t);
        if (t0 > t1) return false;
    }
    return true;
}

}  // namespace

std::vector<std::size_t> texts_over_data(const std::vector<TextBox>& texts, const std::vector<DataMark>& data) {
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < texts.size(); ++i) {
        const TextBox& t = texts[i];
        if (t.whole_window || t.grab || t.backdrop || t.labels_data) continue;
        // A pixel in from each side: a text that only touches a mark is not over it.
        const ImVec4 in(t.visible.x + kSlack, t.visible.y + kSlack, t.visible.z - kSlack, t.visible.w - kSlack);
        if (in.z <= in.x || in.w <= in.y) continue;
        for (const DataMark& d : data) {
            const bool meets = d.segment ? segment_meets(d.a, d.b, in)
                                         : d.a.x < in.z && d.b.x > in.x && d.a.y < in.w && d.b.y > in.y;
            if (meets) {
                out.push_back(i);
                break;
            }
        }
    }
    return out;
}

std::vector<TextBox> dropped_texts(const std::vector<TextBox>& reference, const std::vector<TextBox>& texts) {
    std::set<std::pair<std::string, std::string>> here;   // (figure, text)
    std::set<std::string> figures;
    for (const TextBox& t : texts) {
        if (t.figure.empty()) continue;
        here.insert({t.figure, t.text});
        figures.insert(t.figure);
    }
    std::vector<TextBox> out;
    for (const TextBox& t : reference)
        if (!t.figure.empty() && figures.count(t.figure) > 0 && here.insert({t.figure, t.text}).second) out.push_back(t);
    return out;
}

// [SECTION] Report --------------------------------------------------------------------------

void add_problems(LayoutReport& report, const LayoutPage& page, const std::vector<TextBox>& texts,
                  const std::vector<DataMark>& data) {
    ++report.pages;
    for (std::size_t i : texts_over_data(texts, data)) report.over_data.push_back({page, {texts[i]}});
    for (const auto& [i, j] : overlapping_texts(texts)) report.overlaps.push_back({page, {texts[i], texts[j]}});
    for (const TextBox& t : texts) {
        if (t.cut) report.clipped.push_back({page, {t}});
        if (!t.split.empty()) report.split_numbers.push_back({page, {t}});
    }
}

namespace {

nlohmann::json rect(const ImVec4& r) {
    const auto px = [](float v) { return std::round(v * 10.0f) / 10.0f; };
    return {px(r.x), px(r.y), px(r.z), px(r.w)};
}

nlohmann::json to_json(const LayoutProblem& p) {
    nlohmann::json j;
    j["lab"] = p.page.lab;
    if (p.page.slide > 0) j["slide"] = p.page.slide;
    j["size"] = p.page.size;
    j["scale"] = p.page.scale;
    j["theme"] = p.page.theme;
    nlohmann::json texts = nlohmann::json::array(), boxes = nlohmann::json::array(),
                   visible = nlohmann::json::array(), windows = nlohmann::json::array();
    for (const TextBox& t : p.texts) {
        texts.push_back(t.text);
        boxes.push_back(rect(t.box));
        visible.push_back(rect(t.visible));
        windows.push_back(t.window);
    }
    j["texts"] = texts;
    j["boxes"] = boxes;
    j["visible"] = visible;
    j["windows"] = windows;
    if (!p.texts.empty() && !p.texts[0].split.empty()) j["split"] = p.texts[0].split;
    if (!p.texts.empty() && !p.texts[0].figure.empty()) j["figure"] = p.texts[0].figure;
    return j;
}

std::string where(const LayoutPage& p) {
    std::ostringstream s;
    s << p.lab;
    if (p.slide > 0) s << " (slide " << p.slide << ")";
    s << " at " << p.size;
    if (p.scale != 1.0f) s << " ×" << p.scale;
    s << ", " << p.theme;
    return s.str();
}

}  // namespace

std::string report_json(const LayoutReport& report) {
    // One entry per line: a long report stays readable and greppable.
    std::string out = "{\n";
    const std::pair<const char*, const std::vector<LayoutProblem>*> lists[] = {
        {"overlaps", &report.overlaps}, {"clipped", &report.clipped}, {"split_numbers", &report.split_numbers},
        {"over_data", &report.over_data}, {"dropped", &report.dropped}};
    for (const auto& [name, list] : lists) {
        out += std::string("  \"") + name + "\": [";
        for (std::size_t i = 0; i < list->size(); ++i)
            // A drawn text is input like any other: bytes that are not UTF-8 are shown as U+FFFD.
            out += (i == 0 ? "\n    " : ",\n    ") +
                   to_json((*list)[i]).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        out += list->empty() ? "],\n" : "\n  ],\n";
    }
    return out + "  \"pages\": " + std::to_string(report.pages) + "\n}\n";
}

std::string report_text(const LayoutReport& report) {
    std::ostringstream s;
    for (const LayoutProblem& p : report.overlaps)
        s << "overlap: " << where(p.page) << ": \"" << p.texts[0].text << "\" and \"" << p.texts[1].text << "\"\n";
    for (const LayoutProblem& p : report.clipped)
        s << "clipped: " << where(p.page) << ": \"" << p.texts[0].text << "\"\n";
    for (const LayoutProblem& p : report.over_data)
        s << "over data: " << where(p.page) << ": \"" << p.texts[0].text << "\"\n";
    for (const LayoutProblem& p : report.dropped)
        s << "dropped: " << where(p.page) << ": \"" << p.texts[0].text << "\" in " << p.texts[0].figure << "\n";
    for (const LayoutProblem& p : report.split_numbers)
        s << "split number: " << where(p.page) << ": " << p.texts[0].split << " in \"" << p.texts[0].text << "\"\n";
    if (report.clean())
        s << "layout ok: " << report.pages << (report.pages == 1 ? " page" : " pages")
          << ", no overlap, nothing clipped, no number split, no text over data\n";
    else
        s << report.overlaps.size() << " overlaps, " << report.clipped.size() << " clipped, "
          << report.split_numbers.size() << " split numbers, " << report.over_data.size() << " over data, "
          << report.dropped.size() << " dropped, in "
          << report.pages
          << (report.pages == 1 ? " page\n" : " pages\n");
    return s.str();
}

}  // namespace normlab::ui
