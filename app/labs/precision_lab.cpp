// The Number formats lab (see precision_lab.hpp).
//
// [SECTION] Actions        — presets behind buttons and keys (O, C, U)
// [SECTION] Results cache  — recomputed only when the state changes
// [SECTION] Controls panel — x, the norm, the format, the arithmetic, ε
// [SECTION] Outputs panel  — the headline, what happened, the outputs beside float64
// [SECTION] The lab window
#include "precision_lab.hpp"

#include "export_menus.hpp"

#include <normlab/base/i18n.hpp>

#include <normlab/labs/explorer_lab.hpp>

#include <algorithm>
#include <cmath>
#include <exception>
#include <string>

namespace normlab::ui {

namespace {

// [SECTION] Actions -------------------------------------------------------------------------

void set_preset(PrecisionContext& ctx, std::initializer_list<double> x, Norm norm, NumberFormat f, Arithmetic a) {
    PrecisionLabState& s = ctx.session.precision;
    s.x = Eigen::Map<const Vec>(x.begin(), static_cast<Eigen::Index>(x.size()));
    s.norm = norm;
    s.format = f;
    s.arithmetic = a;
    ctx.ui.x_field.error.clear();
}

enum ActionIndex { kOverflow, kCancel, kUnderflow, kActionCount };

const Action<PrecisionContext> kActions[kActionCount] = {
    {tr_later("x² overflows"), {'O'}, tr_later("float16 RMSNorm of [300, 400, 500, 600], every step in float16"),
     tr_later("300² = 90000 is beyond float16's 65504: the mean square is ∞ and every output is 0."),
     [](PrecisionContext& ctx) {
         set_preset(ctx, {300, 400, 500, 600}, Norm::RMSNorm, NumberFormat::Float16, Arithmetic::Same);
     }},
    {tr_later("Mean cancels"), {'C'}, tr_later("float16 LayerNorm of [1000, 1001, 1002, 1003]"),
     tr_later("The running sum rounds to 4008 (ties to even), μ = 1002 instead of 1001.5, and the outputs are off by "
              "a fifth."),
     [](PrecisionContext& ctx) {
         set_preset(ctx, {1000, 1001, 1002, 1003}, Norm::LayerNorm, NumberFormat::Float16, Arithmetic::Same);
     }},
    {tr_later("x² underflows"), {'U'}, tr_later("float16 RMSNorm of [0.0001, 0.0002, 0.0003]"),
     tr_later("x² is below float16's smallest subnormal (6×10⁻⁸): the squares are 0, ε alone sets the denominator."),

     [](PrecisionContext& ctx) {
         set_preset(ctx, {1e-4, 2e-4, 3e-4}, Norm::RMSNorm, NumberFormat::Float16, Arithmetic::Same);
     }},
};

Actions<PrecisionContext> precision_lab_actions() { return all_actions(kActions); }

// [SECTION] Results cache -------------------------------------------------------------------

const PrecisionLabResults* current_results(const PrecisionLabState& s, PrecisionUi& ui) {
    if (ui.computed_for && *ui.computed_for == s) return ui.results ? &*ui.results : nullptr;
    ui.results.reset();
    ui.error.clear();
    ui.delta_plot.built_for.reset();
    ui.offset_plot.built_for.reset();
    try {
        ui.results = compute_precision_lab(s);
    } catch (const std::exception& e) {
        ui.error = e.what();
    }
    ui.computed_for = s;
    return ui.results ? &*ui.results : nullptr;
}

const Plot& delta_plot(const PrecisionLabState& s, PrecisionUi& ui, const PrecisionLabResults& r) {
    return ui.delta_plot.get(ui.delta_view.hidden, [&] { return precision_delta_plot(s, r); });
}
const Plot& offset_plot(const PrecisionLabState& s, PrecisionUi& ui, const PrecisionLabResults& r) {
    return ui.offset_plot.get(ui.offset_view.hidden, [&] { return precision_offset_plot(s, r); });
}

// [SECTION] Controls panel ------------------------------------------------------------------

void draw_x_section(PrecisionContext& ctx, PrecisionLabState& s, const Fonts& fonts) {
    heading(fonts.heading, tr("Input x"));
    ImGui::SetNextItemWidth(-FLT_MIN);
    if (text_field("##x", nullptr, ctx.ui.x_field, format_number_list(s.x))) {
        const ParsedList parsed = parse_number_list(ctx.ui.x_field.text, 1, kPrecisionMaxEntries, kPrecisionEntryRule);
        ctx.ui.x_field.error = parsed.error;
        if (parsed.values) s.x = *parsed.values;
    }
    tooltip(tr("1 to 64 numbers separated by commas or spaces; Enter applies them. This lab's own x (one case)."));
    if (!ctx.ui.x_field.error.empty()) ImGui::TextColored(kErrorText, "✗ %s", ctx.ui.x_field.error.c_str());
    const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    for (const Action<PrecisionContext>& a : kActions) {
        if (&a != kActions) same_line_if_fits(action_button_width(a), right);
        action_button(ctx, a);
    }
}

void draw_choice_sections(PrecisionLabState& s, const Fonts& fonts) {
    const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    const auto radio_w = [](const std::string& label) {
        return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label.c_str()).x;
    };
    heading(fonts.heading, tr("Norm"));
    for (Norm n : kPrecisionNorms) {
        const std::string label(display_name(n));
        if (n != kPrecisionNorms.front()) same_line_if_fits(radio_w(label), right);
        if (ImGui::RadioButton(label.c_str(), s.norm == n)) s.norm = n;
    }
    tooltip(tr("pRMSNorm takes the RMS of the first ⌈n·6.25%⌉ entries; L2-Norm divides by ‖x‖ (no n)."));
    heading(fonts.heading, tr("Number format"));
    for (NumberFormat f : kAllFormats) {
        const std::string label(to_string(f));
        if (f != kAllFormats[0]) same_line_if_fits(radio_w(label), right);
        if (ImGui::RadioButton(label.c_str(), s.format == f)) s.format = f;
    }
    tooltip(tr("float16: 11 significant bits, max 65504, smallest 6×10⁻⁸. bfloat16: 8 bits, float32's range. "
               "float32: 24 bits. float64: 53 bits (the reference's own format)."));
    heading(fonts.heading, tr("Arithmetic"));
    if (ImGui::RadioButton(tr("every step in the format"), s.arithmetic == Arithmetic::Same)) s.arithmetic = Arithmetic::Same;
    tooltip(tr("Each +, −, ×, ÷, √ rounded to the format, ε too: a kernel that never leaves float16."));
    if (ImGui::RadioButton(tr("float32 steps"), s.arithmetic == Arithmetic::Float32)) s.arithmetic = Arithmetic::Float32;
    tooltip(tr("x stored in the format, every step in float32, y rounded back: the upcasting kernels "
               "(PyTorch's, Hugging Face's Llama RMSNorm). The same as every step for float32 and float64."));
    eps_slider(s.eps, tr("ε inside the square root: √(σ² + ε). It is rounded to the arithmetic's format: "
                         "1e-8 is 0 in float16."));
}

// [SECTION] Outputs panel -------------------------------------------------------------------

void draw_table(const char* id, const Table& t, float max_rows) {
    constexpr ImGuiTableFlags kFlags =
        ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX | ImGuiTableFlags_ScrollY;
    const int cols = static_cast<int>(t.columns.size());
    const float row_h = ImGui::GetTextLineHeight() + 2.0f * ImGui::GetStyle().CellPadding.y;
    const float rows_h = (static_cast<float>(t.rows.size()) + 1.0f) * row_h + ImGui::GetStyle().ScrollbarSize + 2.0f;
    if (!ImGui::BeginTable(id, cols, kFlags, ImVec2(0.0f, std::min(rows_h, max_rows * row_h))))
        return;
    for (const std::string& c : t.columns) ImGui::TableSetupColumn(c.c_str());
    ImGui::TableHeadersRow();
    for (const std::vector<TableCell>& row : t.rows) {
        ImGui::TableNextRow();
        for (int c = 0; c < cols && c < static_cast<int>(row.size()); ++c) {
            ImGui::TableSetColumnIndex(c);
            const TableCell& cell = row[static_cast<std::size_t>(c)];
            if (cell.tone == CellTone::Plain) {
                ImGui::TextUnformatted(cell.text.c_str());
            } else {
                const Color k = tone_text(cell.tone);
                ImGui::TextColored(ImVec4(k.r / 255.0f, k.g / 255.0f, k.b / 255.0f, 1.0f), "%s", cell.text.c_str());
            }
        }
    }
    ImGui::EndTable();
}

// The table's right-click menu (Save SVG, CSV, Markdown, LaTeX); its message goes to `status`.
void table_menu(const Table& t, std::string& status) {
    if (std::string saved = table_context_menu(t.name.c_str(), {t.name}, [t] { return std::vector<Table>{t}; });
        !saved.empty())
        status = std::move(saved);
}

// The headline, what happened where, what it did, and the outputs: the "precision_outputs" figure.
void draw_outputs(const PrecisionLabState& s, const PrecisionLabResults& r, const Fonts& fonts, std::string& status) {
    const bool bad = !r.now.events.empty() || !r.now.y.allFinite();
    ImGui::PushFont(fonts.heading);
    flow_text(r.headline, bad ? kErrorText : kGoodText);
    ImGui::PopFont();
    if (r.now.events.empty()) flow_text(tr("No overflow, underflow, NaN or ε-dominated denominator."), kGoodText);
    for (const FormatEvent& e : r.now.events) flow_text(tr("⚠ {0}.", event_text(e)), kWarnText);
    for (const std::string& c : r.consequences) flow_text(c, ImGui::GetStyleColorVec4(ImGuiCol_Text));
    ImGui::Spacing();
    const Table t = precision_outputs_table(s, r);
    draw_table("outputs", t, 14.0f);
    table_menu(t, status);
}

// Each library's method on the same x and format (docs/CONVENTIONS.md for the sources).
void draw_conventions(const PrecisionLabState& s, std::string& status) {
    const std::string header =
        std::string(tr("How the libraries compute it (PyTorch, Hugging Face, Flax, Apex, the paper's code)")) +
        "###conventions";
    if (!ImGui::CollapsingHeader(header.c_str(), ImGuiTreeNodeFlags_DefaultOpen))
        return;
    const Table t = precision_conventions_table(s);
    flow_text(t.caption, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    draw_table("conventions", t, 12.0f);
    table_menu(t, status);
    flow_text(t.note, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
}

// [SECTION] The lab window ------------------------------------------------------------------

void draw_precision_lab(PrecisionContext& ctx) {
    PrecisionLabState& s = ctx.session.precision;
    const Fonts& fonts = ctx.fonts;
    const float em = ImGui::GetFontSize();
    if (show_controls(ctx.app)) {   // presenter view, or the panel collapsed: the results alone
        begin_controls_panel(0.27f, 20.0f, 26.0f);
        draw_x_section(ctx, s, fonts);
        draw_choice_sections(s, fonts);
        end_controls_panel();
    }
    const PrecisionLabResults* r = current_results(s, ctx.ui);
    begin_panel("results");   // a short window scrolls down to the figures rather than crushing them
    if (r == nullptr) {
        ImGui::TextColored(kErrorText, tr("Cannot compute: %s"), ctx.ui.error.c_str());
        ImGui::EndChild();
        return;
    }
    draw_outputs(s, *r, fonts, ctx.app.status);
    ImGui::Spacing();
    const float avail = ImGui::GetContentRegionAvail().x;
    const float plot_h = std::max(ImGui::GetContentRegionAvail().y, 20.0f * em);
    const bool stacked = 0.5f * avail < kMinFigureWidthEm * em * 1.5f;
    const float w = stacked ? avail : std::floor(0.5f * (avail - ImGui::GetStyle().ItemSpacing.x));
    draw_plot(ctx.ui.delta_view, delta_plot(s, ctx.ui, *r), fonts, ImVec2(w, stacked ? 0.5f * plot_h : plot_h));
    if (!stacked) ImGui::SameLine();
    draw_plot(ctx.ui.offset_view, offset_plot(s, ctx.ui, *r), fonts, ImVec2(w, stacked ? 0.5f * plot_h : plot_h));
    ImGui::Spacing();
    draw_conventions(s, ctx.app.status);   // below the figures: the panel scrolls down to it
    ImGui::EndChild();
}

std::vector<Plot> precision_plots(PrecisionContext& ctx) {
    const PrecisionLabResults* r = current_results(ctx.session.precision, ctx.ui);
    if (r == nullptr) return {};
    return precision_lab_plots(ctx.session.precision, *r);
}

// [SECTION] Presenter slide ---------------------------------------------------------------

void draw_precision_figure(PrecisionContext& ctx, const std::string& id, ImVec2 size) {
    const PrecisionLabState& s = ctx.session.precision;
    const PrecisionLabResults* r = current_results(s, ctx.ui);
    if (r == nullptr) {
        push_wrap_at_edge();
        ImGui::TextColored(kErrorText, tr("Cannot compute: %s"), ctx.ui.error.c_str());
        ImGui::PopTextWrapPos();
        return;
    }
    if (id == "precision_delta_sweep")
        draw_plot(ctx.ui.delta_view, delta_plot(s, ctx.ui, *r), ctx.fonts, size);
    else if (id == "precision_offset_sweep")
        draw_plot(ctx.ui.offset_view, offset_plot(s, ctx.ui, *r), ctx.fonts, size);
    else {   // "precision_outputs": scrolls where a small slide cannot hold the table
        begin_panel("precision_outputs_text", size);
        draw_outputs(s, *r, ctx.fonts, ctx.app.status);
        ImGui::EndChild();
    }
}

const SlideParts<PrecisionContext> kPrecisionSlide{
    {{{"precision_outputs", 1.8f, true}, {"precision_delta_sweep", 1.5f}, {"precision_offset_sweep", 1.5f}}, 1, {}},
    nullptr, draw_precision_figure};

}  // namespace

const LabWindow<PrecisionContext> kPrecisionWindow{&kPrecisionInfo, draw_precision_lab, precision_plots,
                                                   precision_lab_actions, &kPrecisionSlide};

}  // namespace normlab::ui
