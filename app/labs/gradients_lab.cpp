// The Gradient lab (see gradients_lab.hpp).
//
// [SECTION] Actions         — presets behind buttons and keys (L, S, B)
// [SECTION] Results cache   — recomputed only when the state or the Explorer's layer changes
// [SECTION] Controls panel  — the layer, the loss, ε, which curves
// [SECTION] Check panel     — analytic ∂L/∂θ against central finite differences
// [SECTION] Sweep panels    — ‖∂L/∂·‖ against δ, scaling x and scaling W
// [SECTION] SGD panel       — the implicit learning rate
// [SECTION] The lab window
#include "gradients_lab.hpp"

#include "ui_util.hpp"

#include <normlab/scene/scene_plots.hpp>
#include <normlab/scene/session.hpp>

#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <string>

namespace normlab::ui {

namespace {

using Index = Eigen::Index;

// [SECTION] Actions -------------------------------------------------------------------------

enum ActionIndex { kToggleLoss, kNewSeed, kBendEps, kActionCount };

const Action<GradientsContext> kActions[kActionCount] = {
    {tr_later("Switch loss"), {'L'}, nullptr, tr_later("Switch between L = ½‖y − t‖² and L = Σ dy ⊙ y with a random upstream gradient dy."),
     [](GradientsContext& ctx) {
         GradientLabState& s = ctx.session.gradients;
         s.loss = s.loss == GradientLoss::SquaredError ? GradientLoss::RandomUpstream : GradientLoss::SquaredError;
     }},
    {tr_later("New dy"), {'S'}, nullptr, tr_later("A new random upstream gradient dy ~ N(0, 1) from the next seed (the loss becomes Σ dy ⊙ y)."),
     [](GradientsContext& ctx) {
         ctx.session.gradients.loss = GradientLoss::RandomUpstream;
         ++ctx.session.gradients.seed;
     }},
    {tr_later("ε = 10⁻²: bend"), {'B'}, nullptr,
     tr_later("ε = 10⁻² to see the ideal slopes break at small δ; press again for ε = 10⁻⁵. Once ε is comparable to "
     "(δσ₀)², the normalization no longer cancels δ."),
     [](GradientsContext& ctx) {
         double& eps = ctx.session.gradients.eps;
         eps = eps == kGradientLabBendEps ? GradientLabState{}.eps : kGradientLabBendEps;
     }},
};

Actions<GradientsContext> gradients_lab_actions() { return all_actions(kActions); }

// [SECTION] Results cache -------------------------------------------------------------------

// The results for the session as it is now: computed when the lab's state or the Explorer's
// layer changed since the last call (a compare of small matrices), reused otherwise.
// Null when they cannot be computed; ui.error then says why.
const GradientLabResults* current_results(const Session& session, GradientsUi& ui) {
    GradientLabInputs inputs;
    try {
        inputs = {session.gradients, gradient_lab_probe(session.gradients, session.explorer)};
    } catch (const std::exception& e) {
        ui.results.reset();
        ui.computed_for.reset();
        ui.error = e.what();
        return nullptr;
    }
    if (ui.computed_for && *ui.computed_for == inputs) return ui.results ? &*ui.results : nullptr;
    ui.results.reset();
    ui.error.clear();
    for (CachedPlot* p : {&ui.input_plot, &ui.weight_plot, &ui.outputs_plot, &ui.weight_norm_plot, &ui.step_plot})
        p->built_for.reset();
    try {
        ui.results = compute_gradient_lab(inputs.state, inputs.probe);
    } catch (const std::exception& e) {
        ui.error = e.what();
    }
    ui.computed_for = std::move(inputs);
    return ui.results ? &*ui.results : nullptr;
}

// The figure of `cache`, rebuilt by build(hidden) when the results or view.hidden changed.
template <class Build>
const Plot& cached_plot(CachedPlot& cache, const PlotView& view, Build build) {
    return cache.get(view.hidden, [&] { return build(view.hidden); });
}

const Plot& sweep_plot(GradientsUi& ui, const GradientLabResults& r, Scaling scaling) {
    const bool input = scaling == Scaling::Input;
    return cached_plot(input ? ui.input_plot : ui.weight_plot, input ? ui.input_view : ui.weight_view,
                       [&](const std::vector<std::string>& hidden) { return gradient_sweep_plot(r, scaling, hidden); });
}

// The SGD figures do not depend on the legend switches (the plot view hides those series itself).
const Plot& sgd_plot(CachedPlot& cache, const PlotView& view, const GradientLabResults& r, Plot (*build)(const GradientLabResults&)) {
    return cached_plot(cache, view, [&](const std::vector<std::string>&) { return build(r); });
}

// [SECTION] Controls panel ------------------------------------------------------------------

// A short line sample in a norm's colour, then its checkbox.
void norm_checkbox(int k, bool& shown) {
    const Color c = gradient_lab_color(k);
    const float em = ImGui::GetFontSize();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float y = p.y + 0.5f * ImGui::GetFrameHeight();
    ImGui::GetWindowDrawList()->AddLine(ImVec2(p.x, y), ImVec2(p.x + 1.4f * em, y), IM_COL32(c.r, c.g, c.b, 255),
                                        0.18f * em);
    ImGui::Dummy(ImVec2(1.4f * em, ImGui::GetFrameHeight()));
    ImGui::SameLine();
    ImGui::Checkbox(std::string(display_name(kGradientLabNorms[k])).c_str(), &shown);
}

// "x = 2, 4, 6, 8", or as many leading entries as fit in `width` followed by ", …".
std::string fitted_list(const char* prefix, const Vec& v, float width) {
    std::string text = prefix + format_number_list(v);
    for (Index k = v.size() - 1; k > 0 && ImGui::CalcTextSize(text.c_str()).x > width; --k)
        text = prefix + format_number_list(v.head(k)) + ", …";
    return text;
}

void draw_layer_section(GradientsContext& ctx) {
    const ExplorerState& e = ctx.session.explorer;
    heading(ctx.fonts.heading, tr("Layer: the Explorer's x, W, g, b"));
    ImGui::Text(tr("m = %d inputs, n = %d outputs"), static_cast<int>(e.x.size()), static_cast<int>(explorer_outputs(e)));
    tooltip(e.use_W ? tr("One case x (1×m) through a = W x with W (n×m), then the norm, gain g and bias b.")
                    : tr("The Explorer has no W (a = x): here W = I, so that ∂L/∂W still exists."));
    const char* const edit = tr("Edit in the Explorer###edit_in_explorer");
    const float edit_w = button_width(edit);
    const float x_w = ImGui::GetContentRegionAvail().x - edit_w - ImGui::GetStyle().ItemSpacing.x;
    ImGui::AlignTextToFramePadding();
    ImGui::TextDisabled("%s", fitted_list("x = ", e.x, x_w).c_str());
    ImGui::SameLine(ImGui::GetContentRegionMax().x - edit_w);
    if (ImGui::Button(edit)) ctx.app.select_lab = find_lab("explorer");
    tooltip(tr("Switch to the Explorer tab: every change to x, W, g or b there is measured here."));
}

// t for the Explorer's n outputs (gradient_lab_target); an edit sets all n.
void draw_target_field(GradientLabState& s, Index n, GradientsUi& ui) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("t");
    ImGui::SameLine();
    const char* const reset = "t = ±1";
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize(reset).x -
                            2.0f * ImGui::GetStyle().FramePadding.x - ImGui::GetStyle().ItemSpacing.x);
    if (text_field("##t", nullptr, ui.target_field, format_number_list(gradient_lab_target(s, n)))) {
        const ParsedList parsed = parse_number_list(ui.target_field.text, n, n, kExplorerEntryRule);
        ui.target_field.error = parsed.error;
        if (parsed.values) s.target = *parsed.values;
    }
    const std::string help = tr("The target t of L = ½‖y − t‖², {0} numbers (one per output), separated by commas or "
                                "spaces; Enter applies them. t = 0 or t ∝ ā makes ∂L/∂a vanish: no gradient to measure.",
                                n);
    tooltip(help.c_str());
    ImGui::SameLine();
    if (ImGui::Button(reset)) {
        s.target = gradient_lab_default_target(n);
        ui.target_field.error.clear();
    }
    tooltip(tr("Reset the target to t = (1, −1, 1, −1, …)."));
    if (!ui.target_field.error.empty()) ImGui::TextColored(kErrorText, "✗ %s", ui.target_field.error.c_str());
}

void draw_loss_section(GradientsContext& ctx, GradientLabState& s, GradientsUi& ui, const Fonts& fonts) {
    heading(fonts.heading, tr("Loss L"));
    if (ImGui::RadioButton("½‖y − t‖²", s.loss == GradientLoss::SquaredError)) s.loss = GradientLoss::SquaredError;
    tooltip(tr("Squared error against the target t: ∂L/∂y = y − t. (key L switches)"));
    ImGui::SameLine();
    if (ImGui::RadioButton(tr("Σ dy ⊙ y, random dy"), s.loss == GradientLoss::RandomUpstream))
        s.loss = GradientLoss::RandomUpstream;
    tooltip(tr("A fixed random upstream gradient: ∂L/∂y = dy ~ N(0, 1), as if a network sat on top. (key L switches)"));
    if (s.loss == GradientLoss::SquaredError) {
        draw_target_field(s, explorer_outputs(ctx.session.explorer), ui);
    } else {
        action_button(ctx, kActions[kNewSeed]);
        ImGui::SameLine();
        ImGui::AlignTextToFramePadding();
        ImGui::TextDisabled(tr("seed %llu"), static_cast<unsigned long long>(s.seed));
    }
}

void draw_eps_section(GradientsContext& ctx, GradientLabState& s, const Fonts& fonts) {
    heading(fonts.heading, tr("ε (keeps the division finite)"));
    const float button_w = action_button_width(kActions[kBendEps]);
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - button_w - ImGui::CalcTextSize("ε").x -
                            2.0f * ImGui::GetStyle().ItemSpacing.x - ImGui::GetStyle().ItemInnerSpacing.x);
    eps_slider(s.eps, tr("ε of all three norms, from 10⁻¹² to 1 on a log scale. The slopes are ideal while ε ≪ (δσ₀)²; at small "
                      "δ with a larger ε the curves bend, because the denominator √((δσ₀)² + ε) stops shrinking with δ."));
    ImGui::SameLine();
    action_button(ctx, kActions[kBendEps]);
    if (ImGui::RadioButton(tr("inside √:  √(σ₀² + ε)"), s.eps_mode == EpsMode::InsideSqrt)) s.eps_mode = EpsMode::InsideSqrt;
    tooltip(tr("Divide by √(σ₀² + ε): PyTorch, Hugging Face and the paper's TensorFlow code (the default)."));
    ImGui::SameLine();
    if (ImGui::RadioButton(tr("added:  σ₀ + ε"), s.eps_mode == EpsMode::AddToRms)) s.eps_mode = EpsMode::AddToRms;
    tooltip(tr("Divide by σ₀ + ε: the paper's PyTorch file, a / (RMS(a) + ε)."));
}

void draw_curves_section(GradientLabState& s, Index n, const Fonts& fonts) {
    heading(fonts.heading, tr("Curves in the plots"));
    static_assert(kGradientLabNormCount == 3, "one help text per norm");
    const char* const help[kGradientLabNormCount] = {
        tr("LayerNorm (paper eq. 2–3): ā = (a − μ)/σ. Its curves are blue."),
        tr("RMSNorm (paper eq. 4): ā = a / RMS(a). Its curves are vermillion."),
        tr("pRMSNorm: the RMS from the first k = ⌈n·p⌉ summed inputs only, p = 6.25% (the paper's). Its curves are orange.")};
    for (int k = 0; k < kGradientLabNormCount; ++k) {
        norm_checkbox(k, s.show[k]);
        tooltip(help[k]);
        if (kGradientLabNorms[k] == Norm::PRMSNorm) {
            ImGui::SameLine();
            ImGui::TextDisabled(tr("p = %.2f%%, k = %d of %d"), 100.0 * s.p,
                                static_cast<int>(partial_k(n, s.p, PartialRounding::Ceil)), static_cast<int>(n));
        }
    }
    static_assert(kGradientCount == 4, "one help text per gradient");
    const char* const gradient_help[kGradientCount] = {
        tr("‖∂L/∂W‖ (paper eq. 8): solid, circles. Slope 0 under x′ = δx, −1 under W′ = δW."),
        tr("‖∂L/∂x‖: dashed, squares. Slope −1 under x′ = δx, 0 under W′ = δW."),
        tr("‖∂L/∂g‖ (paper eq. 9): dotted, triangles. Slope 0 under both."),
        tr("‖∂L/∂b‖ (paper eq. 10): dotted, diamonds. Slope 0 under both.")};
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(tr("‖∂L/∂θ‖ for θ ="));
    for (int q = 0; q < kGradientCount; ++q) {
        ImGui::SameLine();
        ImGui::Checkbox(kGradientSymbols[q], &s.show_gradient[q]);
        tooltip(gradient_help[q]);
    }
}

// [SECTION] Check panel ---------------------------------------------------------------------

// A table cell: the number with `digits` significant digits, or words where it is not finite.
std::string table_number(double v, int digits) {
    if (std::isnan(v)) return tr("undefined");
    if (std::isinf(v)) return v > 0 ? "∞" : "−∞";
    return format_number(v, digits);
}

void draw_check_section(GradientLabState& s, const GradientLabResults* r, const Fonts& fonts) {
    heading(fonts.heading, tr("Analytic vs finite differences"));
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(tr("norm"));
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x);
    const std::string current(display_name(kGradientLabNorms[s.fd_norm]));
    if (ImGui::BeginCombo("##fd_norm", current.c_str())) {
        for (int k = 0; k < kGradientLabNormCount; ++k)
            if (ImGui::Selectable(std::string(display_name(kGradientLabNorms[k])).c_str(), s.fd_norm == k)) s.fd_norm = k;
        ImGui::EndCombo();
    }
    tooltip(tr("The norm whose backward (normlab::layer_backward) is checked, at the Explorer's x, W, g, b (δ = 1)."));
    if (r == nullptr) return;

    const FdCheck& fd = r->fd;
    const FdEntry& worst = fd.entries[fd.worst];
    const std::string where = fd_entry_name(worst);
    const std::string method = tr("Relative error |analytic − numeric| / max(|analytic|, |numeric|, {0}), numeric = "
                                  "(L(θ + h) − L(θ − h)) / 2h with h = 10⁻⁵·max(1, |θ|). Below {1} the analytic gradient "
                                  "is right to within the rounding of the differences.",
                                  format_number(fd.floor, 2), format_number(kFdTolerance, 1));
    std::string why;
    if (fd.worst_rel_error <= kFdTolerance) {
        ImGui::TextColored(kGoodText, tr("✓ worst relative error %s  (%s)"), format_number(fd.worst_rel_error, 2).c_str(),
                           where.c_str());
    } else if (!std::isfinite(worst.analytic) || !std::isfinite(worst.numeric)) {
        ImGui::TextColored(kErrorText, tr("✗ ∂L/∂%s is not finite here (hover: why)"), where.c_str());
        why = std::string(tr("a = W x has no spread (σ₀ = 0) and ε = 0, so the norm divides by zero: raise ε or change x, "
                             "W in the Explorer.")) + "\n\n";
    } else if (std::isinf(r->bend_delta[s.fd_norm])) {
        ImGui::TextColored(kErrorText, "%s", tr("⚠ differences unreliable here: σ₀ = 0 (hover: why)"));
        why = std::string(tr("a = W x has no spread (σ₀ = 0): the loss bends on the scale of √ε, far below the step h, so "
                             "the central differences cannot follow it, while layer_backward's derivative at this exact "
                             "point still holds. Change x or W in the Explorer.")) + "\n\n";
    } else {
        ImGui::TextColored(kErrorText, tr("✗ worst relative error %s  (%s)"), format_number(fd.worst_rel_error, 2).c_str(),
                           where.c_str());
    }
    tooltip((why + method).c_str());
    if (fd.stride > 1)
        ImGui::TextDisabled(tr("%d of %d elements checked (1 in %d)"), static_cast<int>(fd.entries.size()), static_cast<int>(fd.total), static_cast<int>(fd.stride));

    constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersOuter |
                                       ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingStretchProp;
    ImGui::PushFont(fonts.small);
    // At least 8 rows: with large text the panel scrolls to the table rather than squashing it.
    const float table_h = std::max(ImGui::GetContentRegionAvail().y, 9.0f * ImGui::GetTextLineHeightWithSpacing());
    if (ImGui::BeginTable("fd", 4, kFlags, ImVec2(0.0f, table_h))) {
        ImGui::TableSetupScrollFreeze(0, 1);
        ImGui::TableSetupColumn("∂L/∂", ImGuiTableColumnFlags_None, 0.8f);
        ImGui::TableSetupColumn(tr("analytic"), ImGuiTableColumnFlags_None, 1.6f);
        ImGui::TableSetupColumn(tr("numeric"), ImGuiTableColumnFlags_None, 1.6f);
        ImGui::TableSetupColumn(tr("rel. error"), ImGuiTableColumnFlags_None, 1.1f);
        ImGui::TableHeadersRow();
        ImGuiListClipper clipper;
        clipper.Begin(static_cast<int>(fd.entries.size()));
        while (clipper.Step()) {
            for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
                const FdEntry& e = fd.entries[static_cast<std::size_t>(i)];
                const bool bad = e.rel_error > kFdTolerance;
                ImGui::TableNextRow();
                if (static_cast<std::size_t>(i) == fd.worst)
                    ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, ImGui::GetColorU32(ImGuiCol_TextSelectedBg));
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(fd_entry_name(e).c_str());
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(table_number(e.analytic, 7).c_str());
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(table_number(e.numeric, 7).c_str());
                ImGui::TableNextColumn();
                ImGui::TextColored(bad ? kErrorText : kGoodText, "%s", table_number(e.rel_error, 2).c_str());
            }
        }
        ImGui::EndTable();
    }
    ImGui::PopFont();
}

// [SECTION] Sweep panels --------------------------------------------------------------------

// The line under a sweep: do the slopes match the paper, and if not, why (its tooltip).
struct SweepStatus {
    std::string text, why;
    bool good = false;
    bool none = false;   // no norm ticked
};

SweepStatus sweep_status(const GradientLabResults& r, Scaling scaling) {
    const GradientLabState& s = r.inputs.state;
    const GradNorms want = expected_slopes(scaling);
    bool all_ideal = true, any_shown = false, any_nan = false;
    double bend = 0.0;
    for (int k = 0; k < kGradientLabNormCount; ++k) {
        if (!s.show[k]) continue;
        any_shown = true;
        all_ideal = all_ideal && slopes_ideal(r, scaling, k);
        const GradNorms& got = sweeps(r, scaling)[k].slope;
        any_nan = any_nan || !std::isfinite(got.dW) || !std::isfinite(got.dx) || !std::isfinite(got.dg) ||
                  !std::isfinite(got.db);
        bend = std::max(bend, r.bend_delta[k]);
    }
    if (!any_shown) return {tr("No norm chosen: tick one under “Curves in the plots”."), "", false, true};
    // A no-break space inside each "x −1.00": the line wraps between pairs, never inside one.
    const std::string expected = "W\u00a0" + slope_text(want.dW) + ", x\u00a0" + slope_text(want.dx) + ", g\u00a0" +
                                 slope_text(want.dg) + ", b\u00a0" + slope_text(want.db);
    if (all_ideal)
        return {tr("✓ slopes as the paper predicts:  {0}", expected),
                tr("Every fitted slope lies within 0.02 of the paper's (eq. 8–10)."), true, false};
    if (any_nan)
        return {tr("✗ a gradient is 0 for every δ: it has no slope (n/a)"),
                tr("A norm of zero has no logarithm. With x = 0, ∂L/∂W = ∂L/∂a xᵀ = 0; with t = 0 or t ∝ ā (or n = 2 for "
                "LayerNorm), ∂L/∂a vanishes. Change x in the Explorer or the target t."),
                false, false};
    if (bend > kGradientLabMinDelta)
        return {tr("⚠ ε bends the curves below δ ≈ {0} (hover: why)", format_number(bend, 2)),
                tr("The paper's slopes ({0}) assume ε → 0. Below δ ≈ {1} (the dashed line), (δσ₀)² is no longer large "
                   "against ε: the denominator √((δσ₀)² + ε) stops shrinking with δ, so the normalization no longer "
                   "cancels δ and the gradients leave their power laws.",
                   expected, format_number(bend, 2)),
                false, false};
    return {tr("⚠ a slope is more than 0.02 off the paper's"),
            tr("The paper's slopes are {0} (eq. 8–10, for ε → 0); the fitted ones are printed on the curves.", expected),

            false, false};
}

struct SweepPanel {
    Scaling scaling;
    PlotView GradientsUi::*view;
    const char* help;
};
constexpr SweepPanel kSweepPanels[] = {
    {Scaling::Input, &GradientsUi::input_view,
     tr_later("x′ = δx: a = W x′ = δa, so ā, y and L do not change; ∂L/∂x shrinks as 1/δ (slope −1), the others stay "
     "(slope 0). Colour: the norm (click it in the legend to hide it); line and marker: the gradient, named on "
     "each curve with its fitted slope.")},
    {Scaling::Weight, &GradientsUi::weight_view,
     tr_later("W′ = δW: a = δa again, y and L unchanged; ∂L/∂W shrinks as 1/δ (slope −1, paper eq. 8), ∂L/∂x, ∂L/∂g, ∂L/∂b "
     "stay (eq. 9–10). Colour: the norm (click it in the legend to hide it); line and marker: the gradient, named "
     "on each curve with its fitted slope.")},
};

// The status line's height at width w.
float status_height(const SweepStatus& st, float w) { return flow_text_height(st.text, w); }

// One sweep's plot, `plot_h` high, and its status line under it, `w` wide.
void draw_sweep(const GradientLabResults& r, GradientsUi& ui, const Fonts& fonts, const SweepPanel& p,
                const SweepStatus& status, float w, float plot_h) {
    ImGui::BeginGroup();
    draw_plot(ui.*p.view, sweep_plot(ui, r, p.scaling), fonts, ImVec2(w, plot_h));
    ImGui::BeginGroup();   // wrapped at spaces only: never inside a slope
    const ImGuiStyle& style = ImGui::GetStyle();
    flow_text(status.text, status.none ? style.Colors[ImGuiCol_TextDisabled] : status.good ? kGoodText : kErrorText, w);
    ImGui::EndGroup();
    tooltip((status.why + (status.why.empty() ? "" : "\n\n") + tr(p.help)).c_str());
    ImGui::EndGroup();
}

void draw_sweeps(const GradientLabResults& r, GradientsUi& ui, const Fonts& fonts, float height) {
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    const float w = std::floor(0.5f * (ImGui::GetContentRegionAvail().x - spacing));
    // The status lines wrap in their panel; both plots leave room for the longer one.
    const SweepStatus status[2] = {sweep_status(r, Scaling::Input), sweep_status(r, Scaling::Weight)};
    const float status_h = std::max(status_height(status[0], w), status_height(status[1], w));
    const float plot_h = height - status_h - ImGui::GetStyle().ItemSpacing.y;
    for (int i = 0; i < 2; ++i) {
        if (i > 0) ImGui::SameLine();
        draw_sweep(r, ui, fonts, kSweepPanels[i], status[i], w, plot_h);
    }
}

// [SECTION] SGD panel -----------------------------------------------------------------------

// Lays the next item of width `w` on the current row when it fits there, else on a new row.
void flow(float w) {
    const float right = ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + w;
    if (right <= ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x) ImGui::SameLine();
}

void draw_sgd_controls(GradientLabState& s, const Fonts& fonts) {
    ImGui::PushFont(fonts.heading);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(tr("Implicit learning rate"));
    ImGui::PopFont();
    const float em = ImGui::GetFontSize(), inner = ImGui::GetStyle().ItemInnerSpacing.x;
    const auto labelled = [&](float slider_w, const char* label) {
        flow(slider_w + inner + ImGui::CalcTextSize(label).x);
        ImGui::SetNextItemWidth(slider_w);
    };
    labelled(6.0f * em, "δ");
    checked_number("δ", s.sgd_delta, kSgdDeltaRule, [](double* delta) {
        const bool changed = ImGui::SliderScalar("δ", ImGuiDataType_Double, delta, &kSgdDeltaRule.lo, &kSgdDeltaRule.hi,
                                                 "%.3g", ImGuiSliderFlags_Logarithmic);
        tooltip(tr("The second run starts from δ·W (0.1 to 100, log scale): the same outputs y, but ∂L/∂W is 1/δ as "
                "large (paper eq. 8) and ‖W‖ δ times larger."));
        return changed;
    });
    labelled(6.0f * em, "η");
    checked_number("η", s.learning_rate, kSgdLearningRateRule, [](double* lr) {
        const bool changed = ImGui::SliderScalar("η", ImGuiDataType_Double, lr, &kSgdLearningRateRule.lo,
                                                 &kSgdLearningRateRule.hi, "%.3g", ImGuiSliderFlags_Logarithmic);
        tooltip(tr("The learning rate η of both runs (10⁻³ to 1, log scale): W ← W − η ∂L/∂W."));
        return changed;
    });
    labelled(5.0f * em, tr("steps"));
    ImGui::SliderInt(tr("steps"), &s.sgd_steps,
 1, kSgdMaxSteps, "%d", ImGuiSliderFlags_AlwaysClamp);
    tooltip(tr("How many SGD steps each run takes (1 to 200), on L = ½‖y − t‖² with the target t."));
    labelled(8.0f * em, "");
    const std::string current(display_name(kGradientLabNorms[s.sgd_norm]));
    if (ImGui::BeginCombo("##sgd_norm", current.c_str())) {
        for (int k = 0; k < kGradientLabNormCount; ++k)
            if (ImGui::Selectable(std::string(display_name(kGradientLabNorms[k])).c_str(), s.sgd_norm == k))
                s.sgd_norm = k;
        ImGui::EndCombo();
    }
    tooltip(tr("The norm of the layer both runs train."));
}

void draw_sgd(GradientLabState& s, const GradientLabResults* r, GradientsUi& ui, const Fonts& fonts) {
    draw_sgd_controls(s, fonts);
    const std::string delta = format_number(s.sgd_delta, 3), ratio = format_number(1.0 / (s.sgd_delta * s.sgd_delta), 3);
    push_wrap_at_edge();
    ImGui::Text(tr("From %s·W: the same outputs, ∂L/∂W ÷ δ (eq. 8) and ‖W‖ × δ, so relative to ‖W‖ each step is "
                "1/δ² = %s times as large."), delta.c_str(), ratio.c_str());
    ImGui::PopTextWrapPos();
    tooltip(tr("Implicit learning-rate adaptation (paper eq. 8): scaling W by δ leaves a/RMS(a) and so y unchanged, "
            "but divides ∂L/∂W by δ while ‖W‖ grows by δ. The same learning rate η then moves W 1/δ² as far "
            "relative to its size: larger weights learn as if η were η/δ².\n\n"
            "Left: the first outputs yᵢ per step, solid from W, dashed from δ·W, dotted the targets tᵢ; both runs "
            "start at the same y. Middle: ‖W‖ (log scale); the gradient of a scale-invariant layer is orthogonal "
            "to W, so steps can only make ‖W‖ grow. Right: ‖ΔW‖/‖W‖ (log scale), with the measured ratio of the "
            "first steps."));
    if (r == nullptr) return;
    if (!r->sgd_error.empty()) ImGui::TextColored(kErrorText, "⚠ %s", r->sgd_error.c_str());

    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    const float w = std::floor((ImGui::GetContentRegionAvail().x - 2.0f * spacing) / 3.0f);
    const float h = std::max(ImGui::GetContentRegionAvail().y, 12.0f * ImGui::GetFontSize());   // else: scroll
    draw_plot(ui.outputs_view, sgd_plot(ui.outputs_plot, ui.outputs_view, *r, sgd_output_plot), fonts, ImVec2(w, h));
    ImGui::SameLine();
    draw_plot(ui.weight_norm_view, sgd_plot(ui.weight_norm_plot, ui.weight_norm_view, *r, sgd_weight_norm_plot), fonts,
              ImVec2(w, h));
    ImGui::SameLine();
    draw_plot(ui.step_view, sgd_plot(ui.step_plot, ui.step_view, *r, sgd_relative_step_plot), fonts, ImVec2(w, h));
}

// [SECTION] The lab window ------------------------------------------------------------------

void draw_gradients_lab(GradientsContext& ctx) {
    GradientLabState& s = ctx.session.gradients;
    GradientsUi& ui = ctx.ui;
    const Fonts& fonts = ctx.fonts;
    const GradientLabResults* r = current_results(ctx.session, ui);

    const float em = ImGui::GetFontSize();
    if (show_controls(ctx.app)) {   // presenter view, or the panel collapsed: the figures alone
        begin_controls_panel(0.27f, 20.0f, 26.0f);
        draw_layer_section(ctx);
        draw_loss_section(ctx, s, ui, fonts);
        draw_eps_section(ctx, s, fonts);
        draw_curves_section(s, explorer_outputs(ctx.session.explorer), fonts);
        draw_check_section(s, r, fonts);
        end_controls_panel();
    }
    begin_panel("results");
    if (r == nullptr) {
        ImGui::TextColored(kErrorText, tr("Cannot compute: %s"), ui.error.c_str());
    } else {
        draw_sweeps(*r, ui, fonts, std::max(std::floor(0.56f * ImGui::GetContentRegionAvail().y), 16.0f * em));
    }
    ImGui::Spacing();
    draw_sgd(s, r, ui, fonts);
    ImGui::EndChild();
}

std::vector<Plot> gradients_lab_plots(GradientsContext& ctx) {
    GradientsUi& ui = ctx.ui;
    const GradientLabResults* r = current_results(ctx.session, ui);
    if (r == nullptr) return {};
    // Core's list (scene_plots.hpp), as normlab-cli export writes them, with the legends' switches.
    return gradient_lab_plots(*r, ui.input_view.hidden, ui.weight_view.hidden);
}

// [SECTION] Presenter slide ---------------------------------------------------------------

void draw_gradients_figure(GradientsContext& ctx, const std::string& id, ImVec2 size) {
    GradientsUi& ui = ctx.ui;
    const GradientLabResults* r = current_results(ctx.session, ui);
    if (r == nullptr) {
        push_wrap_at_edge();
        ImGui::TextColored(kErrorText, tr("Cannot compute: %s"), ui.error.c_str());
        ImGui::PopTextWrapPos();
        return;
    }
    const SweepPanel& p = kSweepPanels[id == "gradients_input_scaling" ? 0 : 1];
    const SweepStatus status = sweep_status(*r, p.scaling);
    const float plot_h = size.y - status_height(status, size.x) - ImGui::GetStyle().ItemSpacing.y;
    draw_sweep(*r, ui, ctx.fonts, p, status, size.x, plot_h);
}

const SlideParts<GradientsContext> kGradientsSlide{
    {{{"gradients_input_scaling", 1.4f}, {"gradients_weight_scaling", 1.4f}}, 2, {}}, nullptr, draw_gradients_figure};

}  // namespace

const LabWindow<GradientsContext> kGradientsWindow{&kGradientsInfo, draw_gradients_lab, gradients_lab_plots, gradients_lab_actions, &kGradientsSlide};

}  // namespace normlab::ui
