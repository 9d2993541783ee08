// The Worked example lab (see worked_lab.hpp).
//
// [SECTION] Actions       — x presets (E, L, R: the Explorer's own) and claim presets (M, S, C)
// [SECTION] Helpers       — numbers and lists as printed, the verdict banner
// [SECTION] Toolbar       — x, presets, ε, digits
// [SECTION] Steps         — LayerNorm | RMSNorm, every step with its numbers
// [SECTION] Claim         — what the write-up says, and NormLab's verdict
// [SECTION] The lab window
#include "worked_lab.hpp"

#include "x_presets.hpp"   // kXPresetActions: it shares them with the Explorer

#include <normlab/base/palette.hpp>
#include "ui_util.hpp"

#include <normlab/plot/plot.hpp>
#include <normlab/scene/session.hpp>

#include <imgui_stdlib.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <exception>
#include <optional>
#include <string>
#include <vector>

namespace normlab::ui {

namespace {

using Index = Eigen::Index;

// [SECTION] Actions -------------------------------------------------------------------------

void apply_worked_preset(WorkedContext& ctx, int i) {
    const WorkedPreset& preset = kWorkedPresets[i];
    explorer_set_x(ctx.session.explorer, preset_x(preset));   // the Explorer's paste field follows x itself
    apply_preset(ctx.session.worked, preset);
}

// The claim presets (core's kWorkedPresets, keys M, S, C), built at first use: core's table is
// another translation unit's.
const Action<WorkedContext>* preset_actions() {
    static const Action<WorkedContext> actions[kWorkedPresetCount] = {
        {kWorkedPresets[0].label, {'M'}, nullptr, nullptr, [](WorkedContext& ctx) { apply_worked_preset(ctx, 0); }},
        {kWorkedPresets[1].label, {'S'}, nullptr, nullptr, [](WorkedContext& ctx) { apply_worked_preset(ctx, 1); }},
        {kWorkedPresets[2].label, {'C'}, nullptr, nullptr, [](WorkedContext& ctx) { apply_worked_preset(ctx, 2); }},
    };
    static_assert(kWorkedPresetCount == 3);
    return actions;
}

// The Explorer's presets that set x ([2, 4, 6, 8], [200, 300, 150, 250], random) work here with
// the same buttons and keys, then the claim presets.
Actions<WorkedContext> worked_lab_actions() {
    Actions<WorkedContext> out = all_actions(kXPresetActions<WorkedContext>);
    for (int i = 0; i < kWorkedPresetCount; ++i) out.push_back(&preset_actions()[i]);
    return out;
}

// [SECTION] Helpers -------------------------------------------------------------------------

// The ✓ / ✗ verdict in a tinted box, its text 1.5 times the heading size, wrapped to the width.
void verdict_banner(bool good, const std::string& text, const Fonts& fonts) {
    const std::string label = std::string(good ? "✓ " : "✗ ") + text;
    ImFont* font = fonts.heading;
    const float size = std::round(1.5f * font->FontSize);
    const float pad = 0.6f * ImGui::GetFontSize();
    const float width = ImGui::GetContentRegionAvail().x;
    const ImVec2 ts = font->CalcTextSizeA(size, FLT_MAX, width - 2.0f * pad, label.c_str());
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    const ImVec2 p1(p0.x + width, p0.y + ts.y + 2.0f * pad);
    const ImU32 ink = ImGui::GetColorU32(good ? kGoodText : kErrorText);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->AddRectFilled(p0, p1, to_u32(good ? colors::kPassFill : colors::kFailFill), 6.0f);
    dl->AddRect(p0, p1, ink, 6.0f, 0, 2.0f);
    dl->AddText(font, size, ImVec2(p0.x + pad, p0.y + pad), ink, label.c_str(), nullptr, width - 2.0f * pad);
    ImGui::Dummy(ImVec2(width, p1.y - p0.y));
}

// [SECTION] Toolbar -------------------------------------------------------------------------

void draw_toolbar(WorkedContext& ctx, WorkedUi& ui) {
    ExplorerState& e = ctx.session.explorer;
    WorkedState& s = ctx.session.worked;
    const float em = ImGui::GetFontSize();

    ImGui::PushFont(ctx.fonts.heading);
    ImGui::AlignTextToFramePadding();
    ImGui::Text("x = [%s]", format_number_list(e.x).c_str());
    ImGui::PopFont();
    tooltip(tr("The Explorer's x (n entries, a = x here: no W): edit it in the Explorer, or pick a preset. "
            "Both labs always show the same vector."));
    for (int i = kExampleX; i <= kRandomX; ++i) {
        ImGui::SameLine();
        action_button(ctx, kXPresetActions<WorkedContext>[i]);
    }
    ImGui::SameLine();
    if (ImGui::Button(tr("Open the Explorer"))) ctx.app.select_lab = find_lab("explorer");
    tooltip(tr("Edit x entry by entry (or paste it) in the Explorer lab."));

    // ε and digits, right-aligned on the same row.
    const ImGuiStyle& style = ImGui::GetStyle();
    const float eps_w = 9.0f * em, digits_w = 6.0f * em;
    const float right = ImGui::CalcTextSize("ε").x + ImGui::CalcTextSize("ε = 0").x + ImGui::CalcTextSize(tr("digits")).x +
                        2.0f * style.FramePadding.x + 2.0f * style.ItemInnerSpacing.x + 4.0f * style.ItemSpacing.x +
                        eps_w + digits_w;
    // Beside the buttons where they leave room, else on a row of its own.
    const float buttons_end = ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x + ImGui::GetScrollX() + style.ItemSpacing.x;
    const float at = ImGui::GetWindowContentRegionMax().x - right;
    if (at >= buttons_end) ImGui::SameLine(at);
    ImGui::SetNextItemWidth(eps_w);
    checked_number("ε", s.eps, kWorkedEpsRule, [](double* eps) {
        const double lo = 1e-12, hi = 1e-1;
        const bool changed = ImGui::SliderScalar("ε", ImGuiDataType_Double, eps, &lo, &hi, *eps == 0.0 ? "0" : "%.0e",
                                                 ImGuiSliderFlags_Logarithmic);
        tooltip(tr("ε, from 10⁻¹² to 10⁻¹ on a log scale: added under both square roots, σ = √(σ₀² + ε) and "
                "RMS = √(mean(x²) + ε) (10⁻⁵ is PyTorch's default)."));
        return changed;
    });
    ImGui::SameLine();
    if (ImGui::Button("ε = 0")) s.eps = 0.0;
    tooltip(tr("ε = 0: the textbook formulas, exactly."));
    ImGui::SameLine();
    ImGui::SetNextItemWidth(digits_w);
    ImGui::SliderInt(tr("digits"), &ui.digits,
 3, 8, "%d", ImGuiSliderFlags_AlwaysClamp);
    tooltip(tr("Significant digits of the numbers in the steps (3 to 8); the claim checker always uses full precision."));
}

// [SECTION] Steps ---------------------------------------------------------------------------

constexpr float kStepRowEm = 1.7f;   // row height of the step tables
constexpr int kStepRows = 7;         // the longer of the two tables

// The norm's name, then its equation beside it where it fits, else on the lines below (wrapped).
void norm_heading(const char* name, const char* equation, Color color, const Fonts& fonts) {
    swatch(color);
    ImGui::PushFont(fonts.heading);
    ImGui::TextUnformatted(name);
    ImGui::PopFont();
    const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    same_line_if_fits(ImGui::CalcTextSize(equation).x, right);
    flow_text(equation, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
}

// The height norm_heading takes in `width` px.
float norm_heading_height(const char* name, const char* equation, const Fonts& fonts, float width) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float name_w = fonts.heading->CalcTextSizeA(fonts.heading->FontSize, FLT_MAX, 0.0f, name).x +
                         0.8f * ImGui::GetFontSize() + 2.0f * style.ItemSpacing.x;
    const float line = std::max(fonts.heading->FontSize, ImGui::GetTextLineHeight()) + style.ItemSpacing.y;
    if (name_w + ImGui::CalcTextSize(equation).x <= width) return line;
    return line + flow_text_height(equation, width) + style.ItemSpacing.y;
}

// The width a step table needs to show each row on one line (its value unwrapped), padding included.
float step_table_width(const std::vector<WorkedStep>& rows, const Fonts& fonts) {
    const auto width = [](ImFont* font, const std::string& text) {
        return font->CalcTextSizeA(font->FontSize, FLT_MAX, 0.0f, text.c_str()).x;
    };
    float step = 0.0f, formula = 0.0f, value = 0.0f;
    for (const WorkedStep& r : rows) {
        const bool aside = r.role == StepRole::Aside, outputs = r.role == StepRole::Outputs;
        step = std::max(step, width(aside ? fonts.regular : fonts.bold, r.step));
        formula = std::max(formula, width(fonts.regular, r.formula));
        value = std::max(value, width(outputs ? fonts.bold : fonts.regular, r.value));
    }
    return step + formula + value + 8.0f * ImGui::GetStyle().CellPadding.x;
}

void step_table(const char* id, const std::vector<WorkedStep>& rows, Color color, const Fonts& fonts) {
    constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_PadOuterX;
    if (!ImGui::BeginTable(id, 3, kFlags)) return;
    ImGui::TableSetupColumn("step", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("formula", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("value", ImGuiTableColumnFlags_WidthStretch);
    const ImVec4 result_color(color.r / 255.0f, color.g / 255.0f, color.b / 255.0f, 1.0f);
    for (const WorkedStep& r : rows) {
        const bool dim = r.role == StepRole::Aside, result = r.role == StepRole::Outputs;
        ImGui::TableNextRow(0, kStepRowEm * ImGui::GetFontSize());
        ImGui::TableNextColumn();
        ImGui::PushFont(dim ? fonts.regular : fonts.bold);
        if (dim) ImGui::TextDisabled("%s", r.step.c_str());
        else ImGui::TextUnformatted(r.step.c_str());
        ImGui::PopFont();
        ImGui::TableNextColumn();
        if (dim) ImGui::TextDisabled("%s", r.formula.c_str());
        else ImGui::TextUnformatted(r.formula.c_str());
        ImGui::TableNextColumn();
        if (result) ImGui::PushFont(fonts.bold);
        flow_text(r.value, result ? result_color : ImGui::GetStyle().Colors[dim ? ImGuiCol_TextDisabled : ImGuiCol_Text]);
        if (result) ImGui::PopFont();
    }
    ImGui::EndTable();
}

constexpr const char* kLayerNormEquation = tr_later("paper eq. 2–3:  ā = (x − μ) / σ");
constexpr const char* kRmsNormEquation = tr_later("paper eq. 4:  ā = x / RMS(x), no mean subtracted");

// A table's rows: a norm's steps (LayerNorm's, or RMSNorm's and the comparisons beside them),
// without the remark under it. Under RMSNorm the comparisons come nearest first, the other way
// round from the CLI's list (worked_steps, norm/explain.hpp): L2-Norm (RMSNorm's ā / √n), then
// LayerNorm with n − 1.
std::vector<WorkedStep> table_rows(const std::vector<WorkedStep>& steps, StepPart norm) {
    std::vector<WorkedStep> out, comparisons;
    for (const WorkedStep& s : steps) {
        if (s.role == StepRole::Remark) continue;
        if (s.part == norm) out.push_back(s);
        if (norm == StepPart::RMSNorm && s.part == StepPart::Comparison) comparisons.push_back(s);
    }
    out.insert(out.end(), comparisons.rbegin(), comparisons.rend());
    return out;
}

// The table of `norm`'s steps under its heading, and the remark under it where there is one.
void draw_steps(const std::vector<WorkedStep>& steps, StepPart norm, const Fonts& fonts) {
    const bool ln = norm == StepPart::LayerNorm;
    const Color color = ln ? colors::kLayerNorm : colors::kRmsNorm;
    norm_heading(ln ? "LayerNorm" : "RMSNorm", tr(ln ? kLayerNormEquation : kRmsNormEquation), color, fonts);
    step_table(ln ? "ln_steps" : "rms_steps", table_rows(steps, norm), color, fonts);
    for (const WorkedStep& s : steps)
        if (s.role == StepRole::Remark && s.part == norm) ImGui::TextDisabled("%s", s.value.c_str());
}

// [SECTION] Claim ---------------------------------------------------------------------------

struct NameChoice {
    const char* label;
    ClaimedName name;
};
const NameChoice kNameChoices[] = {
    {"RMSNorm", Formula::RMSNorm},
    {"LayerNorm", Formula::LayerNormPopulation},
    {"L2-Norm", Formula::L2Norm},
    {tr_later("LayerNorm with the sample std"), Formula::LayerNormSample},
    {tr_later("(it does not say)"), std::nullopt},
};

void draw_claim_inputs(WorkedContext& ctx) {
    WorkedState& s = ctx.session.worked;
    const float em = ImGui::GetFontSize();
    heading(ctx.fonts.heading, tr("Check a claim"));

    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(tr("The write-up calls it"));
    ImGui::SameLine();
    const char* current = kNameChoices[0].label;
    for (const NameChoice& c : kNameChoices)
        if (c.name == s.claimed_name) current = c.label;
    ImGui::SetNextItemWidth(-FLT_MIN);
    if (ImGui::BeginCombo("##name", tr(current))) {
        for (const NameChoice& c : kNameChoices)
            if (ImGui::Selectable(tr(c.label), c.name == s.claimed_name)) s.claimed_name = c.name;
        ImGui::EndCombo();
    }
    tooltip(tr("The formula the write-up says it uses: the verdict is ✓ when that formula reproduces its numbers. "
            "\"It does not say\": ✓ when any formula does."));

    ImGui::TextUnformatted(tr("Claimed outputs, one per entry of x, as printed:"));
    ImGui::SetNextItemWidth(-FLT_MIN);
    ImGui::InputTextWithHint("##outputs", "e.g.  −1.16, −0.39, 0.39, 1.16", &s.claimed_outputs);
    tooltip(tr("Numbers separated by commas or spaces (\"[…]\" is fine). Each must equal a formula's output to its "
            "printed precision: 1.16 means anything in [1.155, 1.165]."));

    ImGui::TextUnformatted(tr("Claimed steps (optional), one per line:"));
    const float presets_h = ImGui::GetFrameHeightWithSpacing() * kWorkedPresetCount + ImGui::GetTextLineHeightWithSpacing();
    const float steps_h = std::clamp(ImGui::GetContentRegionAvail().y - presets_h, 3.0f * em, 8.0f * em);
    ImGui::InputTextMultiline("##steps", &s.claimed_steps, ImVec2(-FLT_MIN, steps_h));
    tooltip(tr("Each line \"lhs = rhs\": arithmetic such as (300 − 225)² = 5625 (+ − × / ^ ², √ or sqrt, parentheses), "
            "or a named quantity: mean = 225, var = 3125, std = 55.9, rms = 5.477."));

    ImGui::TextDisabled("%s", tr("Examples (they set x too):"));
    for (int i = 0; i < kWorkedPresetCount; ++i) {
        const WorkedPreset& p = kWorkedPresets[i];
        if (ImGui::Button(tr(p.label), ImVec2(-FLT_MIN, 0.0f))) preset_actions()[i].apply(ctx);
        const std::string help = std::string(tr(p.help)) + " " +
                                 tr("Sets the Explorer's x to [{0}]. (key {1})", format_number_list(preset_x(p)),
                                    key_label(preset_actions()[i].key));

        tooltip(help.c_str());
    }
}

// Which formula reproduces the claim; `outputs`: with each formula's outputs (a slide leaves
// them to its caption).
void draw_fits(const Explanation& e, const ClaimVerdict& v, const Fonts& fonts, bool outputs) {
    constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_PadOuterX;
    if (!ImGui::BeginTable("fits", outputs ? 3 : 2, kFlags)) return;
    ImGui::TableSetupColumn(tr("Formula"), outputs ? ImGuiTableColumnFlags_WidthFixed : ImGuiTableColumnFlags_WidthStretch);
    if (outputs) ImGui::TableSetupColumn(tr("Its outputs"), ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn(tr("Off by at most"), ImGuiTableColumnFlags_WidthFixed);
    ImGui::PushFont(fonts.bold);
    ImGui::TableHeadersRow();
    ImGui::PopFont();
    for (const FormulaFit& fit : v.fits) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        // A name wider than its column wraps (a longer language's), never clipped.
        flow_text(std::string(fit.reproduces ? "✓ " : "✗ ") + tr(std::string(display_name(fit.formula)).c_str()),
                  fit.reproduces ? kGoodText : kErrorText);
        if (outputs) {
            ImGui::TableNextColumn();
            flow_text(cell_list(formula_output(e, fit.formula), 4), ImGui::GetStyle().Colors[ImGuiCol_Text]);
        }
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(cell_number(fit.worst, 2).c_str());
    }
    ImGui::EndTable();
}

void draw_steps_verdicts(const WorkedResults& r) {
    for (const StepCheck& step : r.steps) {
        push_wrap_at_edge();
        if (!step.verdict) {
            ImGui::TextColored(kErrorText, tr("⚠ Cannot read \"%s\": %s"), step.text.c_str(), step.error.c_str());
        } else if (step.verdict->holds) {
            ImGui::TextColored(kGoodText, "✓ %s", step.verdict->message.c_str());
        } else {
            ImGui::TextColored(kErrorText, "✗ %s", step.verdict->message.c_str());
        }
        ImGui::PopTextWrapPos();
    }
}

void draw_verdict(const WorkedResults& r, const Fonts& fonts, bool outputs) {
    switch (r.status) {
        case ClaimStatus::Empty:
            push_wrap_at_edge();
            ImGui::TextDisabled("%s", tr("Type the outputs a write-up claims for this x (left), or pick an example: NormLab "
                                "says which formula reproduces them at their printed precision."));
            ImGui::PopTextWrapPos();
            break;
        case ClaimStatus::Invalid:
            push_wrap_at_edge();
            ImGui::TextColored(kErrorText, "⚠ %s", r.error.c_str());
            ImGui::PopTextWrapPos();
            break;
        case ClaimStatus::Correct:
        case ClaimStatus::Wrong: {
            verdict_banner(r.status == ClaimStatus::Correct, r.headline, fonts);
            ImGui::Spacing();
            // On a slide, the paragraph goes to the small font where it and the table would not
            // both fit (a longer language's sentences).
            const std::string summary = claim_summary(r.explanation, *r.verdict);
            const ImGuiStyle& style = ImGui::GetStyle();
            const float table_h = static_cast<float>(r.verdict->fits.size() + 1) *
                                  (ImGui::GetTextLineHeight() + 2.0f * style.CellPadding.y);
            const bool small = !outputs && flow_text_height(summary, ImGui::GetContentRegionAvail().x) + table_h +
                                               2.0f * style.ItemSpacing.y > ImGui::GetContentRegionAvail().y;
            if (small) ImGui::PushFont(fonts.small);
            flow_text(summary, style.Colors[ImGuiCol_Text]);
            if (small) ImGui::PopFont();
            ImGui::Spacing();
            draw_fits(r.explanation, *r.verdict, fonts, outputs);
            break;
        }
    }
    if (r.steps.empty()) return;
    // A slide (no outputs column) shows the claimed steps only where they fit whole.
    const float steps_h = static_cast<float>(r.steps.size() + 1) * ImGui::GetTextLineHeightWithSpacing() +
                          ImGui::GetStyle().ItemSpacing.y;
    if (!outputs && ImGui::GetContentRegionAvail().y < steps_h) return;
    ImGui::Spacing();
    ImGui::PushFont(fonts.bold);
    ImGui::TextUnformatted(tr("Claimed steps"));
    ImGui::PopFont();
    draw_steps_verdicts(r);
}

// [SECTION] The lab window ------------------------------------------------------------------

void draw_worked_lab(WorkedContext& ctx) {
    WorkedUi& ui = ctx.ui;
    const Fonts& fonts = ctx.fonts;

    draw_toolbar(ctx, ui);
    std::optional<WorkedResults> results;
    try {
        results = compute_worked(ctx.session.worked, ctx.session.explorer.x);
    } catch (const std::exception& err) {
        ImGui::TextColored(kErrorText, tr("Cannot work through x: %s"), err.what());
        return;
    }

    // The two step tables side by side where each fits unwrapped in half the width, else one
    // above the other (the lab scrolls down rather than crushing their values into a column).
    const ImGuiStyle& style = ImGui::GetStyle();
    const float em = ImGui::GetFontSize();
    const Explanation& e = results->explanation;
    const float avail = ImGui::GetContentRegionAvail().x;
    const float chrome = 2.0f * style.WindowPadding.x + style.ScrollbarSize + 2.0f * style.ChildBorderSize;
    const std::vector<WorkedStep> steps = worked_steps(e, ui.digits);
    const float need = chrome + std::max(step_table_width(table_rows(steps, StepPart::LayerNorm), fonts),
                                         step_table_width(table_rows(steps, StepPart::RMSNorm), fonts));
    const float half = std::floor(0.5f * (avail - style.ItemSpacing.x));
    const bool stacked = half < need;
    const float panel_w = stacked ? avail : half;
    // Each table whole: its heading, kStepRows rows, and a line for a remark when σ or RMS is 0.
    const float text_w = panel_w - chrome;
    const float heading_h = std::max(norm_heading_height("LayerNorm", tr(kLayerNormEquation), fonts, text_w),
                                     norm_heading_height("RMSNorm", tr(kRmsNormEquation), fonts, text_w));
    const float remark_h = e.sigma == 0.0 || e.rms == 0.0 ? ImGui::GetTextLineHeightWithSpacing() : 0.0f;
    const float steps_h = heading_h + kStepRows * kStepRowEm * em + remark_h + 2.0f * style.WindowPadding.y +
                          style.ItemSpacing.y;
    begin_panel("layernorm", ImVec2(panel_w, steps_h), true);
    draw_steps(steps, StepPart::LayerNorm, fonts);
    ImGui::EndChild();
    if (!stacked) ImGui::SameLine();
    begin_panel("rmsnorm", ImVec2(panel_w, steps_h), true);
    draw_steps(steps, StepPart::RMSNorm, fonts);
    ImGui::EndChild();

    // The claim and the verdict: the rest of the height, at least room for the banner and its table.
    const float bottom_h = std::max(ImGui::GetContentRegionAvail().y, 16.0f * em);
    if (show_controls(ctx.app)) {   // presenter view, or the panel collapsed: the steps and the verdict alone
        const float inputs_w = std::clamp(0.4f * ImGui::GetContentRegionAvail().x, 20.0f * em, 30.0f * em);
        begin_panel("claim", ImVec2(inputs_w, bottom_h), true);
        draw_claim_inputs(ctx);
        ImGui::EndChild();
        ImGui::SameLine();
    }
    begin_panel("verdict", ImVec2(0.0f, bottom_h), true);
    heading(fonts.heading, tr("NormLab's verdict"));
    draw_verdict(*results, fonts, true);
    ImGui::EndChild();
}

// [SECTION] Presenter slide ---------------------------------------------------------------

void draw_worked_figure(WorkedContext& ctx, const std::string& id, ImVec2) {
    std::optional<WorkedResults> r;
    try {
        r = compute_worked(ctx.session.worked, ctx.session.explorer.x);
    } catch (const std::exception& err) {
        push_wrap_at_edge();
        ImGui::TextColored(kErrorText, tr("Cannot work through x: %s"), err.what());
        ImGui::PopTextWrapPos();
        return;
    }
    if (id == "worked_layernorm_steps" || id == "worked_rmsnorm_steps") {
        const StepPart norm = id == "worked_layernorm_steps" ? StepPart::LayerNorm : StepPart::RMSNorm;
        draw_steps(worked_steps(r->explanation, ctx.ui.digits), norm, ctx.fonts);
    } else {   // "worked_verdict"
        draw_verdict(*r, ctx.fonts, false);
    }
}

const SlideParts<WorkedContext> kWorkedSlide{
    {{{"worked_verdict", 1.8f, true}, {"worked_layernorm_steps", 1.8f, true}, {"worked_rmsnorm_steps", 1.8f, true}}, 1, {}},
    nullptr, draw_worked_figure};

}  // namespace

const LabWindow<WorkedContext> kWorkedWindow{&kWorkedInfo, draw_worked_lab, nullptr, worked_lab_actions, &kWorkedSlide};

}  // namespace normlab::ui
