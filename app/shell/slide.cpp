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
#include <cstdio>
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

std::vector<SlideHead> slide_heads(const Lecture& lecture) {
    std::vector<SlideHead> heads(lecture.slides.size());
    for (std::size_t i = 0; i < lecture.slides.size(); ++i) {
        try {
            const Scene scene = load_scene(lecture.slides[i].scene);
            const std::string code = language_code(current_language());
            heads[i] = {find_lab(scene.lab), text_in(scene.title, scene.translations.title, code),
                        text_in(scene.caption, scene.translations.caption, code)};
        } catch (const InputError&) {
            // the slide says so when it is opened
        }
    }
    return heads;
}

std::string check_slide_names(const Lecture& lecture) { return check_slide_names(lecture, slide_heads(lecture)); }

std::string check_slide_names(const Lecture& lecture, const std::vector<SlideHead>& heads) {
    for (std::size_t i = 0; i < lecture.slides.size() && i < heads.size(); ++i) {
        const LectureSlide& slide = lecture.slides[i];
        if (slide.figures.empty() && slide.controls.empty()) continue;
        const int lab = heads[i].lab;
        if (lab < 0) continue;   // the slide says so when it is opened
        const std::string lab_id = kLabs[lab].id;
        const std::string at = "slides[" + std::to_string(i) + "]";
        const SlideNames* parts = kLabs[lab].slide;
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

std::vector<SlideRect> figure_cells(SlideRect area, const std::vector<FigureNeed>& needs, float gap) {
    if (needs.size() < 2) return {area};
    const float w = area.width(), h = area.height();
    const FigureNeed& a = needs[0];
    const FigureNeed& b = needs[1];
    // The first cell's share of a length: in proportion to the two figures' least sizes, so that
    // each gets the same multiple of its need (two charts side by side beside one get twice the
    // width: their values stay readable).
    const auto first_share = [gap](float length, float need_a, float need_b) {
        return std::floor((length - gap) * need_a / std::max(need_a + need_b, 1.0f));
    };
    const float wa = first_share(w, a.min.x, b.min.x), wb = w - gap - wa;
    const float ha = first_share(h, a.min.y, b.min.y), hb = h - gap - ha;
    // The area of a figure of aspect r fitted in a cw × ch cell.
    const auto fitted = [](float cw, float ch, float r) { return cw / ch > r ? ch * r * ch : cw * cw / r; };
    const float side = std::min(fitted(wa, h, a.aspect), fitted(wb, h, b.aspect));
    const float stacked = std::min(fitted(w, ha, a.aspect), fitted(w, hb, b.aspect));
    const std::vector<SlideRect> side_cells = {{area.min, ImVec2(area.min.x + wa, area.max.y)},
                                               {ImVec2(area.max.x - wb, area.min.y), area.max}};
    const std::vector<SlideRect> stacked_cells = {{area.min, ImVec2(area.max.x, area.min.y + ha)},
                                                  {ImVec2(area.min.x, area.max.y - hb), area.max}};
    // An arrangement whose cells are below a figure's least size crushes it: the other wins.
    const bool side_ok = cells_fit(side_cells, needs), stacked_ok = cells_fit(stacked_cells, needs);
    return (side_ok != stacked_ok ? side_ok : side >= stacked) ? side_cells : stacked_cells;
}

bool cells_fit(const std::vector<SlideRect>& cells, const std::vector<FigureNeed>& needs) {
    for (std::size_t i = 0; i < cells.size() && i < needs.size(); ++i)
        if (cells[i].width() + 0.5f < needs[i].min.x || cells[i].height() + 0.5f < needs[i].min.y) return false;
    return true;
}

namespace {

// [SECTION] Header --------------------------------------------------------------------------

float text_width(ImFont* f, const std::string& s) { return f->CalcTextSizeA(f->FontSize, FLT_MAX, 0.0f, s.c_str()).x; }

// "3 / 8" (none without a lecture) and the keys under it.
std::string slide_counter(const LectureUi* lec) {
    if (lec == nullptr || !lec->lecture) return "";
    return std::to_string(lec->slide + 1) + " / " + std::to_string(lec->lecture->slides.size());
}

std::string slide_hint(const LectureUi* lec) { return lec != nullptr && lec->lecture ? tr("← →   F5: edit") : tr("F5: edit"); }

// The width the title wraps in: the header's, less the counter's column.
float title_width(const Fonts& fonts, const std::string& counter, const std::string& hint, float width) {
    const float counter_w = std::max(counter.empty() ? 0.0f : text_width(fonts.slide_title, counter), text_width(fonts.small, hint));
    return width - counter_w - 2.0f * ImGui::GetStyle().ItemSpacing.x;
}

// Title and caption wrapped on the left, "3 / 8" and the keys on the right, a rule below.
void draw_header(const AppContext& ctx, float width) {
    const float line_gap = std::round(0.15f * ctx.fonts.slide_caption->FontSize);   // between wrapped lines
    ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(ImGui::GetStyle().ItemSpacing.x, line_gap));
    const ImGuiStyle& style = ImGui::GetStyle();
    const Fonts& fonts = ctx.fonts;
    const LectureUi* lec = ctx.lecture;
    const SessionIo* io = ctx.io;

    // The slide's own title (the lecture's "title" key), else its scene's, else the lab's.
    std::string title = io != nullptr ? io->title : "";
    if (lec != nullptr && lec->lecture && lec->slide_error.empty()) {
        const std::string& own = shown_title(lec->lecture->slides[static_cast<std::size_t>(lec->slide)]);
        if (!own.empty()) title = own;
    }
    if (title.empty()) title = tr(kLabs[std::clamp(ctx.app.lab, 0, kLabCount - 1)].info->title);
    std::string caption = io != nullptr ? io->caption : "";
    const bool failed = lec != nullptr && !lec->slide_error.empty();
    if (failed) caption = tr("⚠ This slide could not be opened: {0}", lec->slide_error);

    const std::string counter = slide_counter(lec), hint = slide_hint(lec);
    const ImVec2 origin = ImGui::GetCursorPos();
    const float right = origin.x + width;
    const float text_w = title_width(fonts, counter, hint, width);

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

float figure_gap() { return 1.5f * ImGui::GetStyle().ItemSpacing.x; }

// What each figure needs of its cell, in px of the slide's regular font.
std::vector<FigureNeed> figure_needs(const Fonts& fonts, const SlideNames& parts, const std::vector<std::string>& figures) {
    const float em = fonts.regular->FontSize;
    std::vector<FigureNeed> needs;
    for (const std::string& id : figures) {
        const SlidePart* p = find_part(parts.figures, id);
        FigureNeed n;
        n.aspect = p != nullptr ? p->aspect : 1.6f;
        const float w = p != nullptr && p->min_w_em > 0.0f ? p->min_w_em : kMinFigureWidthEm;
        const float h = p != nullptr && p->min_h_em > 0.0f ? p->min_h_em : kMinFigureHeightEm;
        n.min = ImVec2(w * em, h * em + em + ImGui::GetStyle().ItemSpacing.y);   // and a title line
        needs.push_back(n);
    }
    return needs;
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
    const ImVec2 at = ImGui::GetCursorScreenPos(), avail = ImGui::GetContentRegionAvail();
    const std::vector<SlideRect> cells =
        figure_cells({at, ImVec2(at.x + avail.x, at.y + avail.y)}, figure_needs(ctx.fonts, parts, figures), figure_gap());
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
        ImGui::BeginChild(("figure " + id).c_str(), size, false, kFigure | ImGuiWindowFlags_NavFlattened);
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

// [SECTION] Fit -----------------------------------------------------------------------------

namespace {

// The height draw_header takes for these words in `width` px.
float header_height(const Fonts& fonts, const std::string& title, const std::string& caption, const std::string& counter,
                    const std::string& hint, float width) {
    const float line_gap = std::round(0.15f * fonts.slide_caption->FontSize);
    ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(ImGui::GetStyle().ItemSpacing.x, line_gap));
    ImGui::PushFont(fonts.slide_title);
    const float title_h = flow_text_height(title, title_width(fonts, counter, hint, width)) + line_gap;
    ImGui::PopFont();
    const float right_h = (counter.empty() ? 0.0f : fonts.slide_title->FontSize + line_gap) + fonts.small->FontSize;
    float caption_h = 0.0f;
    if (!caption.empty()) {
        ImGui::PushFont(fonts.slide_caption);
        caption_h = flow_text_height(caption, width) + line_gap;
        ImGui::PopFont();
    }
    ImGui::PopStyleVar();
    return std::max(title_h, right_h) + caption_h + 2.0f + 2.0f * line_gap + ImGui::GetStyle().ItemSpacing.y;
}

}  // namespace

FitProblem slide_fit_problem(const AppContext& ctx, int i, ImVec2 size) {
    const LectureUi* lec = ctx.lecture;
    if (lec == nullptr || !lec->lecture || i < 0 || i >= static_cast<int>(lec->heads.size())) return {};
    const LectureSlide& slide = lec->lecture->slides[static_cast<std::size_t>(i)];
    const SlideHead& head = lec->heads[static_cast<std::size_t>(i)];
    if (head.lab < 0 || kLabs[head.lab].slide == nullptr) return {};
    const SlideNames& parts = *kLabs[head.lab].slide;
    std::vector<std::string> figures = slide.figures;
    for (int k = 0; slide.figures.empty() && k < parts.defaults && k < static_cast<int>(parts.figures.size()); ++k)
        figures.emplace_back(parts.figures[static_cast<std::size_t>(k)].id);
    const ImGuiStyle& style = ImGui::GetStyle();
    const float width = size.x - 2.0f * style.WindowPadding.x;
    const std::string title = !slide.title.empty() ? shown_title(slide) : !head.title.empty() ? head.title : kLabs[head.lab].info->title;
    const std::string caption = !slide.caption.empty() ? shown_caption(slide) : head.caption;
    float top = header_height(ctx.fonts, title, caption, slide_counter(lec), slide_hint(lec), width);
    if (!slide.controls.empty()) top += ImGui::GetFrameHeightWithSpacing();
    const SlideRect area{ImVec2(0.0f, 0.0f), ImVec2(width, size.y - 2.0f * style.WindowPadding.y - top)};
    const std::vector<FigureNeed> needs = figure_needs(ctx.fonts, parts, figures);
    const std::vector<SlideRect> cells = figure_cells(area, needs, figure_gap());
    for (std::size_t k = 0; k < cells.size() && k < needs.size(); ++k) {
        if (cells_fit({cells[k]}, {needs[k]})) continue;
        const auto px = [](ImVec2 v) {
            return std::to_string(static_cast<int>(std::ceil(v.x))) + " × " + std::to_string(static_cast<int>(std::ceil(v.y)));
        };
        constexpr const char* kWouldClip = tr_later("slide {0} would clip at {1}: {2} needs {3} px, has {4}");
        const std::vector<std::string> args = {
            std::to_string(i + 1),
            std::to_string(static_cast<int>(size.x)) + "×" + std::to_string(static_cast<int>(size.y)), figures[k],
            px(needs[k].min), px(ImVec2(cells[k].width(), cells[k].height()))};
        return {fill_placeholders(kWouldClip, args), fill_placeholders(tr(kWouldClip), args)};
    }
    return {};
}

void check_slides_fit(AppContext& ctx, ImVec2 size) {
    LectureUi* lec = ctx.lecture;
    if (lec == nullptr || !lec->lecture) return;
    const std::size_t n = lec->lecture->slides.size();
    if (lec->fit_problems.size() == n && lec->fit_size.x == size.x && lec->fit_size.y == size.y) return;
    lec->fit_size = size;
    lec->fit_problems.assign(n, "");
    for (std::size_t i = 0; i < n; ++i) {
        const FitProblem problem = slide_fit_problem(ctx, static_cast<int>(i), size);
        lec->fit_problems[i] = problem.shown;
        if (!problem.english.empty()) std::fprintf(stderr, "normlab: warning: %s\n", problem.english.c_str());
    }
}

void draw_slide(AppContext& ctx, ImVec2 pos, ImVec2 size, std::vector<SlideBox>& boxes) {
    boxes.clear();
    check_slides_fit(ctx, size);
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
        ImGui::BeginChild(lab.id, avail, false, ImGuiWindowFlags_NavFlattened);
        lab.draw(ctx, ctx.uis);
        ImGui::EndChild();
        boxes.push_back({true, lab.id, {at, ImVec2(at.x + avail.x, at.y + avail.y)}});
    }
    ImGui::End();
}

}  // namespace normlab::ui
