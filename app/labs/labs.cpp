// The lab table and the window that hosts the labs as tabs.
#include "labs.hpp"

#include "layout_check.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>

namespace normlab::ui {

namespace {

// The context of the lab whose UI struct is LabUis::*Member.
template <auto Member>
auto context_of(LabContext& ctx, LabUis& uis) {
    using Ui = std::remove_reference_t<decltype(uis.*Member)>;
    return LabContextOf<Ui>{ctx, uis.*Member};
}

// A row of kLabs from the lab's window (written for its own context) and its UI struct's member.
template <auto Member, const auto& Window>
Lab lab_row(const char* id, const char* tab) {
    Lab lab{id, tab, Window.info, Window.slide};
    lab.draw = [](LabContext& ctx, LabUis& uis) {
        auto c = context_of<Member>(ctx, uis);
        Window.draw(c);
    };
    if (Window.plots != nullptr) lab.plots = [](LabContext& ctx, LabUis& uis) {
        auto c = context_of<Member>(ctx, uis);
        return Window.plots(c);
    };
    lab.handle_keys = [](LabContext& ctx, LabUis& uis) {
        auto c = context_of<Member>(ctx, uis);
        if (Window.actions != nullptr) handle_action_keys(c, Window.actions());
    };
    lab.key_help = [] {
        return Window.actions != nullptr ? action_key_help(Window.actions()) : std::vector<KeyHelp>{};
    };
    if (Window.slide == nullptr) return lab;
    // Window.slide's object holds vectors, so it is built when its lab's file initializes, in an
    // order C++ leaves open across files: its functions are looked up when called, never here
    // (read here, the page's link order once left every slide without its figures and controls).
    lab.slide_update = [](LabContext& ctx, LabUis& uis) {
        auto c = context_of<Member>(ctx, uis);
        if (Window.slide->update != nullptr) Window.slide->update(c);
    };
    lab.draw_figure = [](LabContext& ctx, LabUis& uis, const std::string& figure, ImVec2 size) {
        auto c = context_of<Member>(ctx, uis);
        if (Window.slide->draw_figure != nullptr) Window.slide->draw_figure(c, figure, size);
    };
    lab.draw_control = [](LabContext& ctx, LabUis& uis, const std::string& control) {
        auto c = context_of<Member>(ctx, uis);
        if (Window.slide->draw_control != nullptr) Window.slide->draw_control(c, control);
    };
    lab.set_playing = [](LabContext& ctx, LabUis& uis, bool playing) {
        auto c = context_of<Member>(ctx, uis);
        if (Window.slide->set_playing != nullptr) Window.slide->set_playing(c, playing);
    };
    return lab;
}

}  // namespace

const Lab kLabs[] = {
    lab_row<&LabUis::explorer, kExplorerWindow>("explorer", tr_later("Explorer")),
    lab_row<&LabUis::invariance, kInvarianceWindow>("invariance", tr_later("Invariance")),
    lab_row<&LabUis::worked, kWorkedWindow>("worked", tr_later("Worked example")),
    lab_row<&LabUis::gradients, kGradientsWindow>("gradients", tr_later("Gradients")),
    lab_row<&LabUis::geometry, kGeometryWindow>("geometry", tr_later("Geometry")),
    lab_row<&LabUis::training, kTrainingWindow>("training", tr_later("Training")),
    lab_row<&LabUis::gpu, kGpuWindow>("gpu", "GPU"),
    lab_row<&LabUis::depth, kDepthWindow>("depth", tr_later("Depth")),
    lab_row<&LabUis::precision, kPrecisionWindow>("precision", tr_later("Number formats")),
};
const int kLabCount = static_cast<int>(sizeof kLabs / sizeof kLabs[0]);

int find_lab(const std::string& id) {
    for (int i = 0; i < kLabCount; ++i)
        if (id == kLabs[i].id) return i;
    return -1;
}

std::string lab_ids() {
    std::string out;
    for (const Lab& lab : kLabs) out += (out.empty() ? "" : ", ") + std::string(lab.id);
    return out;
}

namespace {

// Whether the control panels are collapsed in a labs' area `width` px wide (View ▸ Control
// panel, F9); when they are, a button at the top brings them back.
bool controls_collapsed(AppUi& ui, float width) {
    if (ui.controls != AppUi::Controls::Auto) return ui.controls == AppUi::Controls::Hidden;
    return width < kControlsMinEm * ImGui::GetFontSize();
}

void draw_show_controls_button(AppUi& ui) {
    if (ImGui::SmallButton((std::string("▸ ") + tr("Control panel")).c_str())) ui.controls = AppUi::Controls::Shown;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", tr("Show this lab's controls (F9, View ▸ Control panel); hidden because the window is narrow"));
}

// How the tab row fits: the labels at the text size are wider than a 1024 px window in the
// projector theme, where ImGui would cut every one ("Explor…"). Then the row takes the small
// font, then each label's first word ("Worked" for "Worked example"), then half the padding
// around each label, then the small font scaled down to what fits (a long translation), down
// to kMinTabScale.
struct TabRow {
    bool small_font = false;
    bool first_words = false;
    float pad_x = -1.0f;   // the tabs' horizontal padding; < 0: the style's
    float scale = 1.0f;    // the row's font scale (ImGui::SetWindowFontScale)
};

constexpr float kMinTabScale = 0.7f;

std::string tab_label(const Lab& lab, bool first_word) {
    std::string label = tr(lab.tab);
    if (first_word) label = label.substr(0, label.find(' '));
    return label + "###" + lab.id;   // the same tab whatever its label
}

TabRow fit_tab_row(const Fonts& fonts, float width) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const auto row_width = [&](ImFont* font, bool first_words, float pad_x, float scale = 1.0f) {
        float w = style.ItemInnerSpacing.x * static_cast<float>(kLabCount - 1);
        for (const Lab& lab : kLabs) {
            const std::string label = tab_label(lab, first_words);
            w += scale * font->CalcTextSizeA(font->FontSize, FLT_MAX, 0.0f, label.c_str(), label.c_str() + label.find("###")).x +
                 2.0f * pad_x;
        }
        return w;
    };
    width -= 2.0f * style.FramePadding.x;   // a row exactly as wide as the bar is still shrunk by ImGui
    const float pad = style.FramePadding.x;
    if (row_width(fonts.regular, false, pad) <= width) return {};
    if (row_width(fonts.small, false, pad) <= width) return {true, false};
    if (row_width(fonts.small, true, pad) <= width) return {true, true};
    const float half = std::max(2.0f, 0.5f * pad);
    if (row_width(fonts.small, true, half) <= width) return {true, true, half};
    const float text = row_width(fonts.small, true, half) - row_width(fonts.small, true, half, 0.0f);
    const float fits = (width - row_width(fonts.small, true, half, 0.0f)) / std::max(text, 1.0f);
    return {true, true, half, std::clamp(std::floor(fits * 100.0f) / 100.0f, kMinTabScale, 1.0f)};
}

// For the layout checker: a tab narrower than its label (ImGui then draws "Explor…", a cut the
// text hook cannot see, since ImGui draws the dots as glyphs) is recorded as a cut text.
void record_cut_tab(const std::string& label) {
    if (!text_recording()) return;
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    const float pad = ImGui::GetStyle().FramePadding.x;
    const float w = ImGui::CalcTextSize(label.c_str(), nullptr, true).x;
    if (w <= b.x - a.x - 2.0f * pad + 0.5f) return;
    record_text("tab " + label.substr(0, label.find("###")), ImVec4(a.x + pad, a.y, a.x + pad + w, b.y),
                ImVec4(a.x, a.y, b.x, b.y));
}

}  // namespace

void draw_labs(LabContext& ctx, LabUis& uis, ImVec2 pos, ImVec2 size) {
    ImGui::SetNextWindowPos(pos);
    ImGui::SetNextWindowSize(size);
    constexpr ImGuiWindowFlags kHost = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize |
                                       ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse |
                                       ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoScrollbar;
    ImGui::Begin("##labs", nullptr, kHost);
    const TabRow row = fit_tab_row(ctx.fonts, ImGui::GetContentRegionAvail().x);
    // The row's font and padding: for the tabs only, not the lab drawn inside the open one.
    const auto push_row = [&] {
        if (row.small_font) ImGui::PushFont(ctx.fonts.small);
        if (row.scale < 1.0f) ImGui::SetWindowFontScale(row.scale);
        if (row.pad_x >= 0.0f)
            ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(row.pad_x, ImGui::GetStyle().FramePadding.y));
    };
    const auto pop_row = [&] {
        if (row.scale < 1.0f) ImGui::SetWindowFontScale(1.0f);
        if (row.pad_x >= 0.0f) ImGui::PopStyleVar();
        if (row.small_font) ImGui::PopFont();
    };
    push_row();
    if (ImGui::BeginTabBar("labs")) {
        for (int i = 0; i < kLabCount; ++i) {
            const ImGuiTabItemFlags flags = ctx.app.select_lab == i ? ImGuiTabItemFlags_SetSelected : 0;
            const std::string label = tab_label(kLabs[i], row.first_words);
            const bool open = ImGui::BeginTabItem(label.c_str(), nullptr, flags);
            record_cut_tab(label);
            if (open) {
                if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(kLabs[i].info->title));
                pop_row();
                ctx.app.lab = i;
                const float avail_w = ImGui::GetContentRegionAvail().x;
                ctx.app.controls_collapsed = controls_collapsed(ctx.app, avail_w);
                if (ctx.app.controls_collapsed && !ctx.app.presenter) draw_show_controls_button(ctx.app);
                // A lab whose panel is shown in less than kControlsMinEm scrolls sideways, never crushed.
                const float min_w = show_controls(ctx.app) ? kControlsMinEm * ImGui::GetFontSize() : 0.0f;
                if (min_w > avail_w) ImGui::SetNextWindowContentSize(ImVec2(min_w, 0.0f));
                ImGui::BeginChild(kLabs[i].id, ImVec2(0.0f, 0.0f), false, ImGuiWindowFlags_HorizontalScrollbar | ImGuiWindowFlags_NavFlattened);
                kLabs[i].handle_keys(ctx, uis);
                kLabs[i].draw(ctx, uis);
                ImGui::EndChild();
                push_row();
                ImGui::EndTabItem();
            } else if (ImGui::IsItemHovered()) {
                ImGui::SetTooltip("%s", tr(kLabs[i].info->title));
            }
        }
        ImGui::EndTabBar();
    }
    pop_row();
    // ImGui opens a tab asked for by SetSelected one frame later: the request stands until it is on
    // screen, so a session saved in between (a signal's final autosave) names the lab asked for.
    if (ctx.app.select_lab == ctx.app.lab) ctx.app.select_lab = -1;
    ImGui::End();
}

}  // namespace normlab::ui
