// The Explorer lab (see explorer_lab.hpp).
//
// [SECTION] Actions         — presets behind buttons and keys (E, L, R, I, Shift+R, D)
// [SECTION] Helpers         — headings, entry grids, rows of preset buttons
// [SECTION] Inputs panel    — x, W, g and b, ε
// [SECTION] δ row           — the re-scaling under test
// [SECTION] Outputs panel   — a = W x, then LayerNorm | RMSNorm
// [SECTION] The lab window
#include "explorer_lab.hpp"

#include <normlab/base/palette.hpp>
#include "export_menus.hpp"
#include "plot_view.hpp"
#include "ui_util.hpp"

#include <normlab/labs/explorer_figures.hpp>

#include <imgui_stdlib.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <exception>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace normlab::ui {

// [SECTION] Actions -------------------------------------------------------------------------

void set_x_preset(LabContext& ctx, XPreset preset) {
    ExplorerState& e = ctx.session.explorer;
    if (preset == kExampleX) explorer_set_x(e, explorer_example_x());
    else if (preset == kLargeX) explorer_set_x(e, explorer_large_x());
    else explorer_random_x(e);
}

void set_x_preset(ExplorerContext& ctx, XPreset preset) {
    set_x_preset(static_cast<LabContext&>(ctx), preset);
    ctx.ui.x_field.error.clear();
}

namespace {

// The text with each space a no-break space: flow_text keeps it on one line.
std::string no_break(const std::string& text) {
    std::string out;
    for (char c : text) out += c == ' ' ? std::string("\u00a0") : std::string(1, c);
    return out;
}


// The Explorer's presets, reached by a button and a key (action_table.hpp): x's, then W's and δ's.
enum ExplorerActionIndex { kIdentityW = kXPresetCount, kRandomW, kDeltaOne, kExplorerActionCount };

const Action<ExplorerContext> kExplorerActions[kExplorerActionCount] = {
    kXPresetActions<ExplorerContext>[kExampleX],
    kXPresetActions<ExplorerContext>[kLargeX],
    kXPresetActions<ExplorerContext>[kRandomX],
    {tr_later("Identity"), {'I'}, tr_later("W = identity"), tr_later("Ones on the diagonal: a = x when n = m."),
     [](ExplorerContext& ctx) { explorer_identity_W(ctx.session.explorer); }},
    {tr_later("Random W"), {'R', kShift}, tr_later("random W"), tr_later("Wᵢⱼ ~ N(0, 1/m), rounded to 0.01, from a seed that advances on every use."),
     [](ExplorerContext& ctx) { explorer_random_W(ctx.session.explorer); }},
    {"δ = 1", {'D'}, "δ = 1", tr_later("No re-scaling: the outputs the outlines show."),
     [](ExplorerContext& ctx) { ctx.session.explorer.delta = 1.0; }},
};

Actions<ExplorerContext> explorer_lab_actions() { return all_actions(kExplorerActions); }

using Index = Eigen::Index;

const ImVec4 kErrorColor(0.75f, 0.05f, 0.05f, 1.0f);
const ImVec4 kGoodColor(0.05f, 0.50f, 0.15f, 1.0f);

// [SECTION] Helpers -------------------------------------------------------------------------

void heading(const Fonts& fonts, const char* text) {
    ImGui::Spacing();
    ImGui::PushFont(fonts.heading);
    ImGui::TextUnformatted(text);
    ImGui::PopFont();
    ImGui::Separator();
}

// Width of the m and n sliders: up to 12 em, leaving room for the n row's label and checkbox.
float size_slider_width() {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float label_and_checkbox = ImGui::CalcTextSize(tr("n (outputs)")).x + ImGui::GetFrameHeight() +
                                     ImGui::CalcTextSize("n = m").x + style.ItemInnerSpacing.x * 2.0f +
                                     style.ItemSpacing.x;
    return std::clamp(ImGui::GetContentRegionAvail().x - label_and_checkbox, 5.0f * ImGui::GetFontSize(),
                      12.0f * ImGui::GetFontSize());
}

// Entries of v (length k) as a grid of "v₁ [drag]" cells filling the available width; a typed
// entry outside kExplorerEntryRule is refused, with the grid's message below it.
// Returns true when an entry changed.
bool entry_grid(const char* id, const char* symbol, Vec& v, const char* help) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float label_w = ImGui::CalcTextSize((std::string(symbol) + subscript(v.size())).c_str()).x;
    const float avail = ImGui::GetContentRegionAvail().x + style.ItemSpacing.x;
    const float min_cell_w = label_w + style.ItemInnerSpacing.x + 4.0f * ImGui::GetFontSize() + style.ItemSpacing.x;
    const int cols = std::clamp(static_cast<int>(avail / min_cell_w), 1, static_cast<int>(v.size()));
    const float cell_w = std::floor(avail / static_cast<float>(cols));
    const float drag_w = cell_w - label_w - style.ItemInnerSpacing.x - style.ItemSpacing.x;
    const double speed = std::max(1e-3, 0.005 * v.cwiseAbs().maxCoeff());
    const float x0 = ImGui::GetCursorPosX();

    bool changed = false;
    ImGui::PushID(id);
    const ImGuiID slot = field_slot("entries");
    for (Index i = 0; i < v.size(); ++i) {
        const auto col = static_cast<int>(i % cols);
        if (col > 0) ImGui::SameLine(x0 + static_cast<float>(col) * cell_w);
        ImGui::PushID(static_cast<int>(i));
        ImGui::AlignTextToFramePadding();
        const std::string label = symbol + subscript(i + 1);
        ImGui::TextUnformatted(label.c_str());
        ImGui::SameLine(x0 + static_cast<float>(col) * cell_w + label_w + style.ItemInnerSpacing.x);
        ImGui::SetNextItemWidth(drag_w);
        double value = v(i);
        const bool edited = ImGui::DragScalar("##v", ImGuiDataType_Double, &value, static_cast<float>(speed), nullptr,
                                              nullptr, "%.4g");
        tooltip(help);
        changed |= accept_number(slot, label, edited, value, v(i), kExplorerEntryRule);
        ImGui::PopID();
    }
    field_message(slot);
    ImGui::PopID();
    return changed;
}

// The presets [first, last] on one row, each with its tooltip and key.
void action_row(ExplorerContext& ctx, int first, int last) {
    for (int i = first; i <= last; ++i) {
        if (i > first) ImGui::SameLine();
        action_button(ctx, kExplorerActions[i]);
    }
}

// [SECTION] Inputs panel --------------------------------------------------------------------

void draw_x_section(ExplorerContext& ctx, ExplorerState& s, ExplorerUi& ui, const Fonts& fonts) {
    heading(fonts, tr("Input x"));
    action_row(ctx, kExampleX, kRandomX);

    bool changed = false;
    int m = static_cast<int>(s.x.size());
    ImGui::SetNextItemWidth(size_slider_width());
    if (ImGui::SliderInt(tr("m (inputs)"), &m, 2, 64, "%d", ImGuiSliderFlags_AlwaysClamp)) {
        explorer_set_m(s, m);
        changed = true;
    }
    tooltip(tr("Length m of x (2..64). Existing entries are kept; new ones start at 0."));

    changed |= entry_grid("x", "x", s.x, tr("Drag left/right to change this entry; click to type a value."));

    ImGui::SetNextItemWidth(-FLT_MIN);
    if (text_field("##paste", tr("paste numbers: 2, 4, 6, 8"), ui.x_field, format_number_list(s.x))) {
        const ParsedList parsed = parse_number_list(ui.x_field.text, kExplorerMinSize, kExplorerMaxSize, kExplorerEntryRule);
        ui.x_field.error = parsed.error;
        if (parsed.values) explorer_set_x(s, *parsed.values);
    }
    tooltip(tr("Type or paste 2 to 64 numbers separated by commas, semicolons or spaces "
            "(\"[2, 4, 6, 8]\" works too); Enter applies them as x."));
    if (changed) ui.x_field.error.clear();
    if (!ui.x_field.error.empty()) ImGui::TextColored(kErrorColor, "✗ %s", ui.x_field.error.c_str());
}

void draw_W_section(ExplorerContext& ctx, ExplorerState& s, ExplorerUi& ui, const Fonts& fonts) {
    heading(fonts, tr("Weights W"));
    bool no_W = !s.use_W;
    if (ImGui::Checkbox(tr("no W (a = x)###no_W"), &no_W))
 explorer_set_use_W(s, !no_W);
    tooltip(tr("Skip the weights: the norms act on x itself (a = x, n = m)."));
    if (!s.use_W) {
        ImGui::TextDisabled(tr("a = x: the norms see x directly (n = m = %d)."), static_cast<int>(s.x.size()));
        return;
    }
    ImGui::SameLine();
    action_row(ctx, kIdentityW, kRandomW);

    ImGui::BeginDisabled(s.square_W);
    int n = static_cast<int>(s.W.rows());
    ImGui::SetNextItemWidth(size_slider_width());
    if (ImGui::SliderInt(tr("n (outputs)"), &n, 2, 64, "%d", ImGuiSliderFlags_AlwaysClamp))
        explorer_resize(s, s.x.size(), n);
    tooltip(tr("Number n of rows of W, the layer's outputs (2..64). Existing entries are kept."));
    ImGui::EndDisabled();
    ImGui::SameLine();
    bool square_W = s.square_W;
    if (ImGui::Checkbox("n = m", &square_W)) explorer_set_square_W(s, square_W);
    tooltip(tr("Keep W square: n follows m."));

    const float width = ImGui::GetContentRegionAvail().x;
    heatmap_editor("W", s.W, ui.heatmap, width, 3.0f * ImGui::GetFontSize(), fonts.small,
                   tr("a = W x:  aᵢ = Σⱼ Wᵢⱼ xⱼ  (paper eq. 1).  Right-click: save it as a figure."));
    if (std::string saved = figure_context_menu("W figure", "explorer_weights", [&s] { return explorer_weights_plot(s); }); !saved.empty())
        ctx.app.status = std::move(saved);

    const std::string cell = "W" + subscript(ui.heatmap.row + 1) + "," + subscript(ui.heatmap.col + 1);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(cell.c_str());
    ImGui::SameLine();
    ImGui::SetNextItemWidth(7.0f * ImGui::GetFontSize());
    checked_number(cell.c_str(), s.W(ui.heatmap.row, ui.heatmap.col), kExplorerEntryRule, [](double* v) {
        const bool changed = ImGui::DragScalar("##cell", ImGuiDataType_Double, v, 0.01f, nullptr, nullptr, "%.4g");
        tooltip(tr("The selected cell of W: drag left/right to change it, click to type."));
        return changed;
    });
}

void draw_gain_bias_section(ExplorerState& s, const Fonts& fonts) {
    heading(fonts, tr("Gain g and bias b"));
    if (ImGui::Button(tr("Reset: g = 1, b = 0"))) {
        s.g.setOnes();
        s.b.setZero();
    }
    tooltip(tr("Reset: with g = 1 and b = 0 the outputs are the normalized inputs, y = ā."));
    entry_grid("g", "g", s.g, tr("Gain gᵢ:  yᵢ = āᵢ gᵢ + bᵢ  (paper eq. 2 and 4)."));
    entry_grid("b", "b", s.b, tr("Bias bᵢ:  yᵢ = āᵢ gᵢ + bᵢ, added after normalizing."));
}

void draw_eps_section(ExplorerState& s, const Fonts& fonts) {
    heading(fonts, tr("ε (keeps the division finite)"));
    ImGui::SetNextItemWidth(12.0f * ImGui::GetFontSize());
    eps_slider(s.eps, tr("ε, from 1e−12 to 1 on a log scale: negligible while mean(a²) ≫ ε; at small δ it breaks the "
                      "invariance."));
    if (ImGui::RadioButton(tr("inside √:  √(σ₀² + ε)"), s.eps_mode == EpsMode::InsideSqrt)) {
        s.eps_mode = EpsMode::InsideSqrt;
    }
    tooltip(tr("Divide by √(σ₀² + ε), σ₀ being LayerNorm's std or RMSNorm's RMS without ε: "
            "PyTorch, Hugging Face and the paper's TensorFlow code (the default)."));
    ImGui::SameLine();
    if (ImGui::RadioButton(tr("added:  σ₀ + ε"), s.eps_mode == EpsMode::AddToRms)) s.eps_mode = EpsMode::AddToRms;
    tooltip(tr("Divide by σ₀ + ε: the paper's PyTorch file, a / (RMS(a) + ε)."));
}

// [SECTION] δ row ---------------------------------------------------------------------------

// "δ" and its slider, `slider_w` wide: the editing view's δ row and a slide's "delta" control.
void delta_slider(ExplorerState& s, const Fonts& fonts, float slider_w) {
    ImGui::PushFont(fonts.heading);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("δ");
    ImGui::PopFont();
    ImGui::SameLine();
    ImGui::SetNextItemWidth(slider_w);
    checked_number("δ", s.delta, kExplorerDeltaRule, [](double* v) {
        const bool changed = ImGui::SliderScalar("##delta", ImGuiDataType_Double, v, &kExplorerMinDelta,
                                                 &kExplorerMaxDelta, "%.4g", ImGuiSliderFlags_Logarithmic);
        tooltip(tr("Re-scaling factor δ from 10⁻³ to 10³ on a log scale (paper Table 1): "
                "LayerNorm and RMSNorm outputs should not move, up to ε."));
        return changed;
    });
}

void draw_delta_row(ExplorerContext& ctx, ExplorerState& s, const Fonts& fonts) {
    const char* const scale_x = tr("scale x  (x' = δx)");
    const char* const scale_W = tr("scale W  (W' = δW)");
    // The slider takes what the label, radio buttons and button leave, within [6, 16] em.
    const ImGuiStyle& style = ImGui::GetStyle();
    const float em = ImGui::GetFontSize();
    const float radio_w = ImGui::GetFrameHeight() + style.ItemInnerSpacing.x;
    const float others = fonts.heading->CalcTextSizeA(fonts.heading->FontSize, FLT_MAX, 0.0f, "δ").x +
                         2.0f * radio_w + ImGui::CalcTextSize(scale_x).x + ImGui::CalcTextSize(scale_W).x +
                         action_button_width(kExplorerActions[kDeltaOne]) + style.ItemSpacing.x + 3.0f * style.ItemSpacing.x;
    const float slider_w = std::clamp(ImGui::GetContentRegionAvail().x - others, 6.0f * em, 16.0f * em);

    // What does not fit beside the slider goes on the next line.
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    delta_slider(s, fonts, slider_w);
    same_line_if_fits(radio_w + ImGui::CalcTextSize(scale_x).x, right);
    if (ImGui::RadioButton(scale_x, s.target == ScaleTarget::X)) s.target = ScaleTarget::X;
    tooltip(tr("Dataset re-scaling: the input becomes δx, so a becomes δa."));
    same_line_if_fits(radio_w + ImGui::CalcTextSize(scale_W).x, right);
    if (ImGui::RadioButton(scale_W, s.target == ScaleTarget::W)) s.target = ScaleTarget::W;
    tooltip(tr("Weight-matrix re-scaling: W becomes δW, so a becomes δa (without W, the same as scaling x)."));
    same_line_if_fits(action_button_width(kExplorerActions[kDeltaOne]), right);
    action_button(ctx, kExplorerActions[kDeltaOne]);
}

// [SECTION] Outputs panel -------------------------------------------------------------------

const char* summed_input_formula(const ExplorerState& s) {
    if (!s.use_W) return s.delta == 1.0 ? "a = x" : "a = δx";
    if (s.delta == 1.0) return "a = W x";
    return s.target == ScaleTarget::X ? "a = W (δx)" : "a = (δW) x";
}

// One norm's column: caption with its statistics, formula, bar chart, and how far it moved.
struct NormPanel {
    const char* id;
    const char* name;
    std::string stats;        // "μ = 5.000   σ = 2.236"
    const char* formula;
    const char* help;
    Color color;
    const Plot* plot;         // its bars (explorer_plots)
    PlotView* view;
    double shift;             // max |y − y(δ = 1)|
};

// Fills the current window: the words wrap in its width, the chart takes the height they leave,
// at least 5 text heights. Returns the height the panel needs with its chart that small.
float draw_norm_panel(const NormPanel& p, double delta, const Fonts& fonts) {
    const float top = ImGui::GetCursorPosY();
    ImGui::BeginGroup();
    swatch(p.color);
    ImGui::PushFont(fonts.bold);
    ImGui::TextUnformatted(p.name);
    ImGui::PopFont();
    same_line_if_fits(ImGui::CalcTextSize(p.stats.c_str()).x, ImGui::GetWindowContentRegionMax().x + ImGui::GetWindowPos().x);
    flow_text(p.stats, ImGui::GetStyle().Colors[ImGuiCol_Text]);   // wrapped at spaces: never inside a number
    flow_text(p.formula, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    ImGui::EndGroup();
    tooltip(p.help);
    // The line under the chart, first: the chart takes the height it leaves.
    std::string status = tr("δ = 1: move δ to test the invariance.");
    ImVec4 status_color = ImGui::GetStyle().Colors[ImGuiCol_TextDisabled];
    if (delta != 1.0) {
        status_color = p.shift < 1e-2 ? kGoodColor : kErrorColor;
        status = p.shift < 1e-6   ? tr("✓ unchanged:  max |y − y(δ=1)| = {0}", fmt_value(p.shift))
                 : p.shift < 1e-2 ? tr("≈ unchanged up to ε:  max |Δy| = {0}", fmt_value(p.shift))
                                  : tr("✗ changed:  max |y − y(δ=1)| = {0}", fmt_value(p.shift));
    }
    const float width = ImGui::GetContentRegionAvail().x;
    const float status_h = flow_text_height(status, width) + 2.0f * ImGui::GetStyle().ItemSpacing.y;
    const float chart_min = 5.0f * ImGui::GetFontSize();
    const float chart_h = std::max(chart_min, ImGui::GetContentRegionAvail().y - status_h);
    p.view->compact = true;   // the caption above names it
    draw_plot(*p.view, *p.plot, fonts, ImVec2(width, chart_h));
    flow_text(status, status_color);
    return ImGui::GetCursorPosY() - ImGui::GetStyle().ItemSpacing.y - top - chart_h + chart_min;
}

// a = W x, the summed inputs both norms start from: its words, then its chart `chart_h` high
// (≤ 0: what the window has left).
void draw_summed_inputs(const ExplorerState& s, ExplorerUi& ui, const ExplorerResults& r, const Plot& plot,
                        const Fonts& fonts, float chart_h) {
    ImGui::BeginGroup();
    swatch(colors::kSummedInput);
    ImGui::PushFont(fonts.bold);
    ImGui::Text(tr("Summed inputs  %s"), summed_input_formula(s));
    ImGui::PopFont();
    const std::string stats = "   μ\u00a0=\u00a0" + fmt_value(r.stats.mean) + "   σ₀\u00a0=\u00a0" + fmt_value(r.stats.std) +
                              "   RMS\u00a0=\u00a0" + fmt_value(r.stats.rms) + "   " + no_break(tr("(no ε)"));

    same_line_if_fits(ImGui::CalcTextSize(stats.c_str()).x, ImGui::GetWindowContentRegionMax().x + ImGui::GetWindowPos().x);
    flow_text(stats, ImGui::GetStyle().Colors[ImGuiCol_Text]);   // wrapped at spaces: never inside a number
    ImGui::EndGroup();
    tooltip(tr("aᵢ = Σⱼ Wᵢⱼ xⱼ (paper eq. 1), with its mean μ, standard deviation σ₀ = √mean((a − μ)²) "
            "and RMS = √mean(a²), before ε."));
    ui.summed_view.compact = true;
    draw_plot(ui.summed_view, plot, fonts,
              ImVec2(ImGui::GetContentRegionAvail().x, chart_h > 0.0f ? chart_h : ImGui::GetContentRegionAvail().y));
}

// LayerNorm | RMSNorm side by side on one shared value axis (explorer_plots), so that their bars
// compare; they fill what the window has left.
void draw_norm_columns(const ExplorerState& s, ExplorerUi& ui, const ExplorerResults& r, const std::vector<Plot>& plots,
                       const Fonts& fonts) {
    const bool inside = s.eps_mode == EpsMode::InsideSqrt;
    const GroupStats& ln_stats = r.layernorm.cache.groups.front();
    const GroupStats& rms_stats = r.rmsnorm.cache.groups.front();

    const NormPanel panels[] = {
        {"layernorm", "LayerNorm",
         "   μ\u00a0=\u00a0" + fmt_value(ln_stats.mean) + "   σ\u00a0=\u00a0" + fmt_value(ln_stats.denom),
         inside ? "ā = (a − μ) / σ,   σ = √(mean((a − μ)²) + ε)" : "ā = (a − μ) / σ,   σ = √mean((a − μ)²) + ε",
         tr("LayerNorm re-centres and re-scales (paper eq. 2–3); σ includes ε as shown. "
            "Computed by normlab::layer_forward (core/src/norm/norm.cpp)."),
         colors::kLayerNorm, &plot_named(plots, "explorer_layernorm"), &ui.layernorm_view, r.layernorm_shift},
        {"rmsnorm", "RMSNorm", "   RMS\u00a0=\u00a0" + fmt_value(rms_stats.denom),
         inside ? "ā = a / RMS(a),   RMS(a) = √(mean(a²) + ε)" : "ā = a / RMS(a),   RMS(a) = √mean(a²) + ε",
         tr("RMSNorm only re-scales, no re-centring (paper eq. 4); RMS includes ε as shown. "
            "Computed by normlab::layer_forward (core/src/norm/norm.cpp)."),
         colors::kRmsNorm, &plot_named(plots, "explorer_rmsnorm"), &ui.rmsnorm_view, r.rmsnorm_shift},
    };
    const float col_w = std::floor(0.5f * (ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x));
    // As tall as what is left, or as the words need (a long translation wraps into more lines):
    // then the outputs panel scrolls, and nothing is cut.
    const float col_h = std::max(ImGui::GetContentRegionAvail().y, ui.norm_panel_h);
    float needed = 0.0f;
    for (const NormPanel& p : panels) {
        if (&p != panels) ImGui::SameLine();
        ImGui::BeginChild(p.id, ImVec2(col_w, col_h), false, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NavFlattened);
        needed = std::max(needed, draw_norm_panel(p, s.delta, fonts));
        ImGui::EndChild();
    }
    ui.norm_panel_h = std::ceil(needed);
}

// The Explorer's figures as the viewer set them up (value labels, outlines).
std::vector<Plot> shown_plots(const ExplorerState& s, const ExplorerUi& ui, const ExplorerResults& r) {
    return explorer_plots(s, r, {ui.value_labels, ui.show_reference});
}

// [SECTION] The lab ------------------------------------------------------------------

std::vector<Plot> explorer_lab_plots(ExplorerContext& ctx) {
    const ExplorerUi& ui = ctx.ui;
    std::optional<ExplorerResults> r;
    try {
        r = compute_explorer(ctx.session.explorer);
    } catch (const std::exception&) {
        return {};   // the lab says why on screen
    }
    std::vector<Plot> plots = shown_plots(ctx.session.explorer, ui, *r);
    const std::pair<const char*, const PlotView*> views[] = {{"explorer_summed_inputs", &ui.summed_view},
                                                             {"explorer_layernorm", &ui.layernorm_view},
                                                             {"explorer_rmsnorm", &ui.rmsnorm_view}};
    for (const auto& [name, view] : views) {   // the bars; W as it is
        Plot& plot = plot_named(plots, name);
        plot = plot_as_shown(plot, *view);
    }
    return plots;
}

constexpr float kOutputsMinEm = 26.0f;   // the outputs' height, in text heights, below which the panel scrolls

void draw_explorer_lab(ExplorerContext& ctx) {
    ExplorerState& state = ctx.session.explorer;
    ExplorerUi& ui = ctx.ui;
    const Fonts& fonts = ctx.fonts;

    const float font = ImGui::GetFontSize();
    if (show_controls(ctx.app)) {   // presenter view, or the panel collapsed: the outputs alone
        const float inputs_w = std::clamp(0.35f * ImGui::GetContentRegionAvail().x, 20.0f * font, 36.0f * font);
        begin_panel("inputs", ImVec2(inputs_w, 0.0f), true);
        draw_x_section(ctx, state, ui, fonts);
        draw_W_section(ctx, state, ui, fonts);
        draw_gain_bias_section(state, fonts);
        draw_eps_section(state, fonts);
        ImGui::EndChild();
        ImGui::SameLine();
    }
    // Charts keep a legible height: a short window scrolls down to them rather than crushing them.
    const float min_h = kOutputsMinEm * font;
    if (ImGui::GetContentRegionAvail().y < min_h) ImGui::SetNextWindowContentSize(ImVec2(0.0f, min_h));
    begin_panel("outputs");
    draw_delta_row(ctx, state, fonts);
    push_wrap_at_edge();
    ImGui::TextDisabled("%s", tr("y = ā ⊙ g + b.  Bars: outputs at this δ; outlines: at δ = 1.  Hover a bar for its value."));
    ImGui::PopTextWrapPos();
    std::optional<ExplorerResults> results;
    std::string error;
    try {
        results = compute_explorer(state);
    } catch (const std::exception& e) {
        error = e.what();
    }
    if (results) {
        const std::vector<Plot> plots = shown_plots(state, ui, *results);
        draw_summed_inputs(state, ui, *results, plot_named(plots, "explorer_summed_inputs"), fonts, std::floor(0.26f * ImGui::GetContentRegionAvail().y));
        ImGui::Spacing();
        draw_norm_columns(state, ui, *results, plots, fonts);
    } else {
        ImGui::TextColored(kErrorColor, tr("Cannot compute: %s"), error.c_str());
    }
    ImGui::EndChild();
}

// [SECTION] Presenter slide ---------------------------------------------------------------

void draw_explorer_figure(ExplorerContext& ctx, const std::string& id, ImVec2) {
    const ExplorerState& s = ctx.session.explorer;
    std::optional<ExplorerResults> r;
    try {
        r = compute_explorer(s);
    } catch (const std::exception& e) {
        push_wrap_at_edge();
        ImGui::TextColored(kErrorColor, tr("Cannot compute: %s"), e.what());
        ImGui::PopTextWrapPos();
        return;
    }
    const std::vector<Plot> plots = shown_plots(s, ctx.ui, *r);
    if (id == "explorer_summed_inputs")
        draw_summed_inputs(s, ctx.ui, *r, plot_named(plots, "explorer_summed_inputs"), ctx.fonts, 0.0f);
    else
        draw_norm_columns(s, ctx.ui, *r, plots, ctx.fonts);
}

void draw_explorer_control(ExplorerContext& ctx, const std::string&) {   // "delta"
    delta_slider(ctx.session.explorer, ctx.fonts, 12.0f * ImGui::GetFontSize());
}

const SlideParts<ExplorerContext> kExplorerSlide{
    // Least sizes: explorer_outputs, two compact charts side by side under up to five lines of
    // words (name and statistics, formula) and over two (δ's verdict); explorer_summed_inputs, one
    // under a line or two, as wide as its heading ("Summed inputs  a = W x", in the heading font).
    {{{"explorer_outputs", 2.0f, false, 2.0f * kMinCompactWidthEm + 1.0f, kMinCompactHeightEm + 8.0f},
      {"explorer_summed_inputs", 2.4f, false, 13.0f, kMinCompactHeightEm + 2.5f}},
     1, {{"delta"}}},
    nullptr, draw_explorer_figure, draw_explorer_control};

}  // namespace

const LabWindow<ExplorerContext> kExplorerWindow{&kExplorerInfo, draw_explorer_lab, explorer_lab_plots, explorer_lab_actions, &kExplorerSlide};

}  // namespace normlab::ui
