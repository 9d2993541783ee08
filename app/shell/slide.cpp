// Presenter slides (see slide.hpp).
//
// [SECTION] Names
// [SECTION] Layout
// [SECTION] Header
// [SECTION] Slide
#include "slide.hpp"

#include "labs.hpp"
#include "lecture.hpp"
#include "plot_view.hpp"
#include "session_io.hpp"
#include "ui_util.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <set>
#include <string>

namespace normlab::ui {

namespace {

const SlidePart* find_part(const std::vector<SlidePart>& parts, const std::string& id) {
    for (const SlidePart& p : parts)
        if (id == p.id) return &p;
    return nullptr;
}

std::string part_list(const std::vector<SlidePart>& parts) {
    std::string out;
    for (const SlidePart& p : parts) out += (out.empty() ? "" : ", ") + std::string(p.id);
    return out.empty() ? "none" : out;
}

}  // namespace

// [SECTION] Names ---------------------------------------------------------------------------

std::string check_slide_names(const Lecture& lecture) {
    for (std::size_t i = 0; i < lecture.slides.size(); ++i) {
        const LectureSlide& slide = lecture.slides[i];
        if (slide.figures.empty() && slide.controls.empty()) continue;
        std::string lab_id;
        try {
            lab_id = load_scene(slide.scene).lab;
        } catch (const InputError&) {
            continue;   // the slide says so when it is opened
        }
        const std::string at = "slides[" + std::to_string(i) + "]";
        const int lab = find_lab(lab_id);
        const SlideNames* parts = lab >= 0 ? kLabs[lab].slide : nullptr;
        if (parts == nullptr) return at + ": the " + lab_id + " lab has no slide figures or controls to name";
        const struct {
            const char* key;
            const char* what;
            const std::vector<std::string>& names;
            const std::vector<SlidePart>& known;
        } lists[] = {{"figures", "figure", slide.figures, parts->figures},
                     {"controls", "control", slide.controls, parts->controls}};
        for (const auto& list : lists) {
            for (std::size_t k = 0; k < list.names.size(); ++k) {
                if (find_part(list.known, list.names[k]) != nullptr) continue;
                return at + "." + list.key + "[" + std::to_string(k) + "] = \"" + list.names[k] + "\" is not a " +
                       list.what + " of the " + lab_id + " lab (" + list.key + ": " + part_list(list.known) + ")";
            }
        }
    }
    return "";
}

// [SECTION] Layout --------------------------------------------------------------------------

std::vector<SlideRect> figure_cells(SlideRect area, const std::vector<float>& aspects, float gap, ImVec2 min_cell) {
    if (aspects.size() < 2) return {area};
    const float w = area.width(), h = area.height();
    const float half_w = std::floor(0.5f * (w - gap)), half_h = std::floor(0.5f * (h - gap));
    // The area of a figure of aspect a fitted in a cw × ch cell.
    const auto fitted = [](float cw, float ch, float a) { return cw / ch > a ? ch * a * ch : cw * cw / a; };
    const float side = std::min(fitted(half_w, h, aspects[0]), fitted(half_w, h, aspects[1]));
    const float stacked = std::min(fitted(w, half_h, aspects[0]), fitted(w, half_h, aspects[1]));
    // An arrangement whose cells are below a figure's least size crushes it: the other wins.
    const bool side_ok = half_w >= min_cell.x && h >= min_cell.y, stacked_ok = w >= min_cell.x && half_h >= min_cell.y;
    if (side_ok != stacked_ok ? side_ok : side >= stacked)
        return {{area.min, ImVec2(area.min.x + half_w, area.max.y)}, {ImVec2(area.max.x - half_w, area.min.y), area.max}};
    return {{area.min, ImVec2(area.max.x, area.min.y + half_h)}, {ImVec2(area.min.x, area.max.y - half_h), area.max}};
}

namespace {

// [SECTION] Header --------------------------------------------------------------------------

// Title and caption wrapped on the left, "3 / 8" and the keys on the right, a rule below.
void draw_header(const AppContext& ctx, float width) {
    const float line_gap = std::round(0.15f * ctx.fonts.slide_caption->FontSize);   // between wrapped lines
    ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(ImGui::GetStyle().ItemSpacing.x, line_gap));
    const ImGuiStyle& style = ImGui::GetStyle();
    const Fonts& fonts = ctx.fonts;
    const LectureUi* lec = ctx.lecture;
    const SessionIo* io = ctx.io;

    std::string title = io != nullptr ? io->title : "";
    if (title.empty()) title = kLabs[std::clamp(ctx.app.lab, 0, kLabCount - 1)].info->title;
    std::string caption = io != nullptr ? io->caption : "";
    const bool failed = lec != nullptr && !lec->slide_error.empty();
    if (failed) caption = "⚠ This slide could not be opened: " + lec->slide_error;
    std::string counter, hint = "F5: edit";
    if (lec != nullptr && lec->lecture) {
        counter = std::to_string(lec->slide + 1) + " / " + std::to_string(lec->lecture->slides.size());
        hint = "← →   " + hint;
    }

    const auto text_width = [](ImFont* f, const std::string& s) { return f->CalcTextSizeA(f->FontSize, FLT_MAX, 0.0f, s.c_str()).x; };
    const float counter_w = std::max(counter.empty() ? 0.0f : text_width(fonts.slide_title, counter), text_width(fonts.small, hint));
    const ImVec2 origin = ImGui::GetCursorPos();
    const float right = origin.x + width;
    const float text_w = width - counter_w - 2.0f * style.ItemSpacing.x;

    // Wrapped at spaces only (flow_text): never inside a number.
    const ImVec4 text_color = ImGui::GetStyle().Colors[ImGuiCol_Text];
    ImGui::PushFont(fonts.slide_title);
    flow_text(title, text_color, text_w);
    ImGui::PopFont();
    const float title_bottom = ImGui::GetCursorPosY();

    float y = origin.y;
    if (!counter.empty()) {
        ImGui::PushFont(fonts.slide_title);
        ImGui::SetCursorPos(ImVec2(right - text_width(fonts.slide_title, counter), y));
        ImGui::TextUnformatted(counter.c_str());
        ImGui::PopFont();
        y += fonts.slide_title->FontSize + style.ItemSpacing.y;
    }
    ImGui::PushFont(fonts.small);
    ImGui::SetCursorPos(ImVec2(right - text_width(fonts.small, hint), y));
    ImGui::TextDisabled("%s", hint.c_str());
    ImGui::PopFont();
    y += fonts.small->FontSize;

    // The caption below both, the whole width.
    ImGui::SetCursorPos(ImVec2(origin.x, std::max(title_bottom, y)));
    if (!caption.empty()) {
        ImGui::PushFont(fonts.slide_caption);
        flow_text(caption, failed ? kErrorText : text_color, width);
        ImGui::PopFont();
    }

    // A rule under the words, in the separator colour: it separates them from the figures.
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImGui::GetWindowDrawList()->AddLine(ImVec2(p.x, p.y), ImVec2(p.x + width, p.y), ImGui::GetColorU32(ImGuiCol_Separator),
                                        2.0f);
    ImGui::Dummy(ImVec2(width, 2.0f));
    ImGui::PopStyleVar();
    ImGui::Dummy(ImVec2(width, line_gap));
}

// [SECTION] Slide ---------------------------------------------------------------------------

// The lab on screen and what its slide names: the open slide's figures and controls while its
// lab is on screen, else the lab's defaults.
struct SlideSpec {
    int lab = 0;
    std::vector<std::string> figures, controls;
};

SlideSpec current_spec(AppContext& ctx) {
    if (ctx.app.select_lab >= 0) ctx.app.lab = ctx.app.select_lab;   // kept: the tabs follow when F5 leaves
    SlideSpec spec;
    spec.lab = std::clamp(ctx.app.lab, 0, kLabCount - 1);
    const LectureUi* lec = ctx.lecture;
    if (lec != nullptr && lec->lecture && lec->slide_error.empty() && lec->slide_lab == spec.lab) {
        const LectureSlide& slide = lec->lecture->slides[static_cast<std::size_t>(lec->slide)];
        spec.figures = slide.figures;
        spec.controls = slide.controls;
    }
    const SlideNames* parts = kLabs[spec.lab].slide;
    if (parts != nullptr && spec.figures.empty()) {
        for (int i = 0; i < parts->defaults && i < static_cast<int>(parts->figures.size()); ++i)
            spec.figures.emplace_back(parts->figures[static_cast<std::size_t>(i)].id);
    }
    return spec;
}

SlideRect item_rect() { return {ImGui::GetItemRectMin(), ImGui::GetItemRectMax()}; }

void draw_controls(AppContext& ctx, const Lab& lab, const std::vector<std::string>& controls,
                   std::vector<SlideBox>& boxes) {
    const SlideNames& parts = *lab.slide;
    const float gap = 2.0f * ImGui::GetFontSize();
    for (const std::string& id : controls) {
        if (find_part(parts.controls, id) == nullptr) continue;   // checked when the lecture opened
        if (!boxes.empty() && !boxes.back().figure) ImGui::SameLine(0.0f, gap);
        ImGui::PushID(id.c_str());
        ImGui::BeginGroup();
        if (lab.draw_control != nullptr) lab.draw_control(ctx, ctx.uis, id);
        ImGui::EndGroup();
        ImGui::PopID();
        boxes.push_back({false, id, item_rect()});
    }
}

void draw_figures(AppContext& ctx, const Lab& lab, const std::vector<std::string>& figures,
                  std::vector<SlideBox>& boxes) {
    const SlideNames& parts = *lab.slide;
    std::vector<float> aspects;
    for (const std::string& id : figures) {
        const SlidePart* p = find_part(parts.figures, id);
        aspects.push_back(p != nullptr ? p->aspect : 1.6f);
    }
    const ImVec2 at = ImGui::GetCursorScreenPos(), avail = ImGui::GetContentRegionAvail();
    const float gap = 1.5f * ImGui::GetStyle().ItemSpacing.x;
    const float em = ImGui::GetFontSize();
    const ImVec2 min_cell(kMinFigureWidthEm * em, kMinFigureHeightEm * em + ImGui::GetTextLineHeightWithSpacing());
    const std::vector<SlideRect> cells =
        figure_cells({at, ImVec2(at.x + avail.x, at.y + avail.y)}, aspects, gap, min_cell);
    constexpr ImGuiWindowFlags kFigure = ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse;
    for (std::size_t i = 0; i < figures.size() && i < cells.size(); ++i) {
        const std::string& id = figures[i];
        const ImVec2 size(cells[i].width(), cells[i].height());
        // A text figure that used under 60% of its height in the regular fonts is drawn in the
        // large ones (1.5×: then under 90%) until it would overflow.
        const SlidePart* part = find_part(parts.figures, id);
        std::set<std::string>* large = ctx.lecture != nullptr ? &ctx.lecture->large_figures : nullptr;
        const bool can_grow = part != nullptr && part->text && ctx.fonts.large != nullptr && large != nullptr;
        const bool grown = can_grow && large->count(id) > 0;
        LabContext figure_ctx{ctx.session, ctx.app, ctx.info, grown ? *ctx.fonts.large : ctx.fonts, ctx.gpu};
        ImGui::SetCursorScreenPos(cells[i].min);
        ImGui::PushFont(figure_ctx.fonts.regular);
        ImGui::BeginChild(("figure " + id).c_str(), size, false, kFigure);
        if (lab.draw_figure != nullptr) lab.draw_figure(figure_ctx, ctx.uis, id, size);
        const float used = ImGui::GetCursorPosY() / size.y;
        ImGui::EndChild();
        ImGui::PopFont();
        if (can_grow && !grown && used < 0.6f) large->insert(id);
        if (grown && used > 1.0f) large->erase(id);
        boxes.push_back({true, id, cells[i]});
    }
}

}  // namespace

void draw_slide(AppContext& ctx, ImVec2 pos, ImVec2 size, std::vector<SlideBox>& boxes) {
    boxes.clear();
    const SlideSpec spec = current_spec(ctx);
    const Lab& lab = kLabs[spec.lab];
    ImGui::SetNextWindowPos(pos);
    ImGui::SetNextWindowSize(size);
    constexpr ImGuiWindowFlags kFlags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                        ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus |
                                        ImGuiWindowFlags_NoScrollWithMouse;
    ImGui::Begin("##slide", nullptr, kFlags);
    draw_header(ctx, ImGui::GetContentRegionAvail().x);
    const bool failed = ctx.lecture != nullptr && !ctx.lecture->slide_error.empty();
    if (!failed && lab.slide != nullptr) {
        if (lab.slide_update != nullptr) lab.slide_update(ctx, ctx.uis);
        draw_controls(ctx, lab, spec.controls, boxes);
        draw_figures(ctx, lab, spec.figures, boxes);
    } else if (!failed) {   // a lab without slide parts: drawn as it is, its panels hidden (presenter view)
        const ImVec2 at = ImGui::GetCursorScreenPos(), avail = ImGui::GetContentRegionAvail();
        ImGui::BeginChild(lab.id, avail);
        lab.draw(ctx, ctx.uis);
        ImGui::EndChild();
        boxes.push_back({true, lab.id, {at, ImVec2(at.x + avail.x, at.y + avail.y)}});
    }
    ImGui::End();
}

}  // namespace normlab::ui
