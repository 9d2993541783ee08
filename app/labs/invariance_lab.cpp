// The Invariance lab (see invariance_lab.hpp).
//
// [SECTION] Actions           — presets behind buttons and keys (R, D, T, E, Shift+E)
// [SECTION] Controls panel    — the batch (x, W), δ and γ, ε and p, the tolerance
// [SECTION] Table             — Table 1 measured, the paper's beside it, disagreements explained
// [SECTION] Curves            — which norms and transforms, and the plot against δ
// [SECTION] Explorer panel    — the transforms applied to the Explorer's x and W
// [SECTION] The lab window
#include "invariance_lab.hpp"

#include <normlab/base/palette.hpp>
#include "export_menus.hpp"
#include "layout_check.hpp"   // record_whole_block: a table that scrolls sideways is a finding
#include "ui_util.hpp"

#include <normlab/labs/invariance_figures.hpp>
#include <normlab/scene/scene_plots.hpp>
#include <normlab/scene/session.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace normlab::ui {

namespace {

using Index = Eigen::Index;

// [SECTION] Actions -------------------------------------------------------------------------

enum ActionIndex { kNewBatch, kDeltaOne, kDeltaTen, kEpsLarge, kEpsDefault, kActionCount };

const Action<InvarianceContext> kActions[kActionCount] = {
    {tr_later("New batch"), {'R'}, nullptr, tr_later("A new random batch of the same shape: x, W, γ ~ N(0, 1) from the next seed."),
     [](InvarianceContext& ctx) {
         InvarianceLabState& s = ctx.session.invariance;
         invariance_lab_new_batch(s, s.seed + 1, s.data.x.rows(), s.data.x.cols(), s.data.W.rows());
     }},
    {"δ = 1", {'D'}, nullptr, tr_later("δ = 1: the re-scalings change nothing, so every norm looks invariant to them."),
     [](InvarianceContext& ctx) { ctx.session.invariance.delta = 1.0; }},
    {"δ = 10", {'T'}, nullptr, tr_later("δ = 10, the default: the measured table matches the paper's."),
     [](InvarianceContext& ctx) { ctx.session.invariance.delta = 10.0; }},
    {"ε = 10⁻³", {'E'}, nullptr, tr_later("Raise ε to 10⁻³: at small δ, ε dominates σ² and the re-scaling curves bend upward."),
     [](InvarianceContext& ctx) { ctx.session.invariance.spec.eps = 1e-3; }},
    {"ε = 10⁻⁵", {'E', kShift}, nullptr, tr_later("ε back to 10⁻⁵ (PyTorch's default)."),
     [](InvarianceContext& ctx) { ctx.session.invariance.spec.eps = 1e-5; }},
};

Actions<InvarianceContext> invariance_lab_actions() { return all_actions(kActions); }

// [SECTION] Controls panel ------------------------------------------------------------------

// A log-scale slider of a double over [lo, hi], its tooltip and its width; a typed value that
// `rule` refuses is not taken (the message shows under the slider).
void log_slider(const char* label, double& v, const NumberRule& rule, double lo, double hi, const char* format,
                float width, const char* help) {
    ImGui::SetNextItemWidth(width);
    checked_number(label, v, rule, [&](double* value) {
        const bool changed = ImGui::SliderScalar(label, ImGuiDataType_Double, value, &lo, &hi, format,
                                                 ImGuiSliderFlags_Logarithmic);
        tooltip(help);
        return changed;
    });
}

// The control panel's section headings (batch, transform size, norm settings).
constexpr const char* kControlHeadings[3] = {tr_later("Batch of cases"), tr_later("Transform size: δ and γ"),
                                             tr_later("ε, pRMSNorm's p, tolerance")};

// The width of `text` on one line in `font` at its own size.
float text_w(ImFont* f, std::string_view text) {
    return f->CalcTextSizeA(f->FontSize, FLT_MAX, 0.0f, text.data(), text.data() + text.size()).x;
}

// The width a slider gets when `right` (buttons, text) must fit after it on the same row.
float slider_width(float right) {
    return std::max(6.0f * ImGui::GetFontSize(), ImGui::GetContentRegionAvail().x - right);
}

void draw_batch_section(InvarianceContext& ctx, InvarianceLabState& s, InvarianceUi& ui, const Fonts& fonts, float maps_h) {
    heading(fonts.heading, tr(kControlHeadings[0]));
    action_button(ctx, kActions[kNewBatch]);
    ImGui::SameLine();
    ImGui::AlignTextToFramePadding();
    ImGui::TextDisabled(tr("seed %llu"), static_cast<unsigned long long>(s.seed));

    // B, m, n on one row: a new batch of that shape from the same seed.
    int sizes[3] = {static_cast<int>(s.data.x.rows()), static_cast<int>(s.data.x.cols()),
                    static_cast<int>(s.data.W.rows())};
    const char* const labels[3] = {"B", "m", "n"};
    const int lo[3] = {static_cast<int>(kInvarianceMinCases), static_cast<int>(kInvarianceMinSize),
                       static_cast<int>(kInvarianceMinSize)};
    const int hi[3] = {static_cast<int>(kInvarianceMaxCases), static_cast<int>(kInvarianceMaxSize),
                       static_cast<int>(kInvarianceMaxSize)};
    const char* const help[3] = {tr("B, the number of cases in the batch (rows of x); BatchNorm's statistics run over them."),
                                 tr("m, the number of inputs per case (columns of x and of W)."),
                                 tr("n, the number of outputs (rows of W): aᵢ = wᵢᵀx, the values each case's norm runs over.")};
    const ImGuiStyle& style = ImGui::GetStyle();
    const float label_w = ImGui::CalcTextSize("B").x + style.ItemInnerSpacing.x;
    const float w = std::floor((ImGui::GetContentRegionAvail().x - 3.0f * label_w - 2.0f * style.ItemSpacing.x) / 3.0f);
    bool resized = false;
    for (int i = 0; i < 3; ++i) {
        if (i > 0) ImGui::SameLine();
        ImGui::SetNextItemWidth(w);
        resized |= ImGui::SliderInt(labels[i], &sizes[i], lo[i], hi[i], "%d", ImGuiSliderFlags_AlwaysClamp);
        tooltip(help[i]);
    }
    if (resized) invariance_lab_new_batch(s, s.seed, sizes[0], sizes[1], sizes[2]);

    // x and W side by side (both m columns wide), their cells sized so that the taller fits in
    // maps_h, but never smaller than most of a text line: a projector shows them from the back.
    const float em = ImGui::GetFontSize();
    const float caption_h = ImGui::GetTextLineHeightWithSpacing();
    const auto rows = static_cast<float>(std::max(s.data.x.rows(), s.data.W.rows()));
    const float cell = std::clamp((maps_h - caption_h - style.ItemSpacing.y) / rows, 0.8f * em, 1.4f * em);
    const float half = std::floor((ImGui::GetContentRegionAvail().x - style.ItemSpacing.x) / 2.0f);
    // One matrix: its caption, its editor and its right-click export (figure k of invariance_matrix_plots).
    const auto matrix = [&](const char* id, Mat& M, HeatmapUi& map, int count, const char* tip, std::size_t k) {
        ImGui::BeginGroup();
        ImGui::TextDisabled("%s: %d × %d", id, count, sizes[1]);
        heatmap_editor(id, M, map, half, cell, fonts.small, tip);
        const char* const names[2] = {"invariance_x", "invariance_weights"};
        const char* const name = names[k];
        if (std::string saved = figure_context_menu((std::string(id) + " figure").c_str(), name,
                                                    [&s, name] { return plot_named(invariance_matrix_plots(s), name); });
            !saved.empty())
            ctx.app.status = std::move(saved);
        ImGui::EndGroup();
    };
    const float left = ImGui::GetCursorPosX();
    matrix("x", s.data.x, ui.x_map, sizes[0],
           tr("The batch x (B×m): B cases, one per row, of m inputs. Click a cell, drag up/down to change it. "
           "Right-click: save it as a figure."),
           0);
    ImGui::SameLine(left + half + style.ItemSpacing.x);   // x's colour bar is drawn beside its item, not in it
    matrix("W", s.data.W, ui.W_map, sizes[2],
           tr("The weights W (n×m): n outputs, aᵢ = Σⱼ Wᵢⱼ xⱼ (paper eq. 1). Click a cell, drag up/down to change it. "
           "Right-click: save it as a figure."),
           1);
}

void draw_transform_section(InvarianceContext& ctx, InvarianceLabState& s, const Fonts& fonts) {
    heading(fonts.heading, tr(kControlHeadings[1]));
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    const float buttons = button_width(kActions[kDeltaOne].label) + button_width(kActions[kDeltaTen].label) +
                          ImGui::CalcTextSize("δ").x + 4.0f * spacing;
    log_slider("δ", s.delta, kInvarianceDeltaRule, kInvarianceMinDelta, kInvarianceMaxDelta, "%.4g",
               slider_width(buttons),
               tr("δ, the factor of the re-scalings, from 10⁻³ to 10³ on a log scale: W′ = δW, x′ = δx, x′₀ = δx₀, "
               "and w′ᵢ = δᵢwᵢ with δᵢ = δ^(i/n) (a different factor per row)."));
    ImGui::SameLine();
    action_button(ctx, kActions[kDeltaOne]);
    ImGui::SameLine();
    action_button(ctx, kActions[kDeltaTen]);

    ImGui::SetNextItemWidth(slider_width(ImGui::CalcTextSize("γ scale").x + spacing));
    checked_number("γ scale", s.shift, kInvarianceShiftRule, [](double* v) {
        const double zero = 0.0, ten = 10.0;
        const bool changed = ImGui::SliderScalar(tr("γ scale"), ImGuiDataType_Double, v, &zero, &ten, "%.2f");
        tooltip(tr("Size of the re-centering shifts, 0 to 10: W′ = W + 1(c·γ_W)ᵀ and x′ = x + c·γ_x, with γ_W, "
                "γ_x ~ N(0, 1) drawn with the batch. c = 0 makes the re-centerings do nothing."));
        return changed;
    });
}

void draw_norm_section(InvarianceContext& ctx, InvarianceLabState& s, const Fonts& fonts) {
    heading(fonts.heading, tr(kControlHeadings[2]));
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    const float buttons = button_width(kActions[kEpsLarge].label) + button_width(kActions[kEpsDefault].label) +
                          ImGui::CalcTextSize("ε").x + 4.0f * spacing;
    const bool inside = s.spec.eps_mode == EpsMode::InsideSqrt;
    const std::string eps_help =
        inside ? tr("ε, from 10⁻¹² to 10⁻¹ on a log scale, in every norm's denominator √(σ² + ε): negligible while "
                    "σ² ≫ ε; raise it to 10⁻³ and the re-scaling curves bend up at small δ.")
               : tr("ε, from 10⁻¹² to 10⁻¹ on a log scale, in every norm's denominator σ + ε: negligible while σ ≫ ε; "
                    "raise it to 10⁻³ and the re-scaling curves bend up at small δ.");
    log_slider("ε", s.spec.eps, kLabEpsRule, 1e-12, 1e-1, "%.0e", slider_width(buttons), eps_help.c_str());
    ImGui::SameLine();
    action_button(ctx, kActions[kEpsLarge]);
    ImGui::SameLine();
    action_button(ctx, kActions[kEpsDefault]);

    if (ImGui::RadioButton(tr("inside √:  √(σ² + ε)"), s.spec.eps_mode == EpsMode::InsideSqrt))
        s.spec.eps_mode = EpsMode::InsideSqrt;
    tooltip(tr("Divide by √(σ² + ε): PyTorch, Hugging Face and the paper's TensorFlow code (the default)."));
    ImGui::SameLine();
    if (ImGui::RadioButton(tr("added:  σ + ε"), s.spec.eps_mode == EpsMode::AddToRms)) s.spec.eps_mode = EpsMode::AddToRms;
    tooltip(tr("Divide by σ + ε: the paper's PyTorch file, a / (RMS(a) + ε)."));

    const std::string k_text = tr("k = {0} of {1}", partial_k(s.data.W.rows(), s.spec.p, s.spec.rounding), s.data.W.rows());
    ImGui::SetNextItemWidth(slider_width(ImGui::CalcTextSize(("p  " + k_text).c_str()).x + 2.0f * spacing));
    checked_number(tr("p (1 = 100%)"), s.spec.p,
 kFractionRule, [](double* p) {
        return percent_slider("p", p, "%.2f %%",
                              tr("pRMSNorm's p, 1% to 100%: the RMS is estimated from the first k = ⌈n·p⌉ summed inputs "
                              "only (6.25% in the paper)."));
    });
    ImGui::SameLine();
    ImGui::TextDisabled("%s", k_text.c_str());

    log_slider(tr("tolerance"), s.tolerance, kInvarianceToleranceRule, 1e-12, 1e-1, "%.0e",
               slider_width(ImGui::CalcTextSize(tr("tolerance")).x + spacing),
               tr("A cell is ✓ (invariant) when ‖y′ − y‖ / ‖y‖ ≤ this tolerance, from 10⁻¹² to 10⁻¹ on a log scale."));
}

// [SECTION] Table ---------------------------------------------------------------------------

// Column headers of the paper's table (and the curve checkboxes): each transform in brief.
constexpr const char* kShortFormula[kNumTransforms] = {"δW", "+1γᵀ", "δᵢwᵢ", "δx", "x+γ", "δx₀"};

void centered_text(ImDrawList* dl, ImFont* font, ImVec2 c0, ImVec2 c1, ImU32 color, const std::string& text) {
    const ImVec2 ts = font->CalcTextSizeA(font->FontSize, FLT_MAX, 0.0f, text.c_str());
    dl->AddText(font, font->FontSize, ImVec2(std::floor(0.5f * (c0.x + c1.x - ts.x)), std::floor(0.5f * (c0.y + c1.y - ts.y))),
                color, text.c_str());
}

// A numbered amber badge, centred at c (the disagreement notes' marker).
void badge(ImDrawList* dl, ImFont* font, ImVec2 c, float radius, int number) {
    dl->AddCircleFilled(c, radius, to_u32(colors::kAmber));
    const std::string label = std::to_string(number);
    centered_text(dl, font, ImVec2(c.x - radius, c.y - radius), ImVec2(c.x + radius, c.y + radius), IM_COL32(0, 0, 0, 255),
                  label);
}

std::string cell_tooltip(const InvarianceLabState& s, const CellCheck& c, int row, int col) {
    const Transform t = kAllTransforms[col];
    const std::string norm(display_name(kTableNorms[row])), transform(tr(std::string(display_name(t)).c_str())), f(formula(t));
    const std::string residual = invariance_residual_text(c.residual), tol = format_number(s.tolerance, 2);
    std::string text =
        c.measured ? tr("{0} under {1}, {2}:\n‖y′ − y‖ / ‖y‖ = {3} ≤ tolerance {4}: invariant ✓", norm, transform, f, residual, tol)
                   : tr("{0} under {1}, {2}:\n‖y′ − y‖ / ‖y‖ = {3} > tolerance {4}: the output moves ✗", norm, transform, f,
                        residual, tol);
    text += "\n" + tr("The paper's Table 1: {0}.", c.paper ? "✓" : "✗");
    if (c.note == CellNote::EpsBreaks || c.note == CellNote::DataSpecific)
        text += "\n" + tr("With ε = 0: {0}.", invariance_residual_text(c.residual_without_eps));
    if (!c.why.empty()) text += "\n\n" + c.why;
    return text;
}

// Measured cell (r, c) at c0..c1: tinted ✓ / ✗ (with its number when `number`) in `font`; an
// amber outline and badge where it disagrees with the paper; its tooltip says why.
void draw_measured_cell(const InvarianceLabState& s, const CheckedTable& t, int r, int c, ImVec2 c0, ImVec2 c1,
                        ImFont* font, ImFont* small, bool number, bool two_line = false) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const CellCheck& check = t.cells[r][c];
    const bool finite = std::isfinite(check.residual);
    dl->AddRectFilled(ImVec2(c0.x + 1.0f, c0.y + 1.0f), ImVec2(c1.x - 1.0f, c1.y - 1.0f),
                      finite ? to_u32(check.measured ? colors::kPassFill : colors::kFailFill)
                             : ImGui::GetColorU32(ImGuiCol_FrameBg));
    const std::string mark = check.measured ? "✓" : "✗";
    const std::string label = !finite ? (number ? tr("cannot compute") : "?")
                              : number ? mark + " " + invariance_residual_text(check.residual)
                                       : mark;
    const ImU32 color = finite ? ImGui::GetColorU32(check.measured ? kGoodText : kErrorText) : ImGui::GetColorU32(ImGuiCol_TextDisabled);
    if (two_line && finite) {   // the mark above its number: a narrow column, the number whole
        const float mid = std::floor(0.5f * (c0.y + c1.y));
        centered_text(dl, font, ImVec2(c0.x, c0.y + 0.1f * font->FontSize), ImVec2(c1.x, mid + 0.1f * font->FontSize), color, mark);
        centered_text(dl, font, ImVec2(c0.x, mid - 0.1f * font->FontSize), ImVec2(c1.x, c1.y - 0.1f * font->FontSize), color,
                      invariance_residual_text(check.residual));
    } else {
        centered_text(dl, font, c0, c1, color, label);
    }
    if (t.badge[r][c] > 0) {
        dl->AddRect(ImVec2(c0.x + 1.5f, c0.y + 1.5f), ImVec2(c1.x - 1.5f, c1.y - 1.5f), to_u32(colors::kAmber),
                    0.0f, 0, 3.0f);
        badge(dl, small, ImVec2(c1.x - 0.5f * small->FontSize - 3.0f, c0.y + 0.5f * small->FontSize + 3.0f),
              0.5f * small->FontSize, t.badge[r][c]);
    }
    ImGui::SetCursorScreenPos(c0);
    ImGui::PushID(r * kNumTransforms + c);
    ImGui::InvisibleButton("cell", ImVec2(c1.x - c0.x, c1.y - c0.y));
    ImGui::PopID();
    if (ImGui::IsItemHovered()) tooltip(cell_tooltip(s, check, r, c).c_str());
}

// A column header's pieces where a narrow column may break it: its words, and a hyphenated word
// after each hyphen ("re-" "centering"); `joined`: the piece follows a space.
struct HeadPiece {
    std::string text;
    bool joined = false;
};
std::vector<HeadPiece> head_pieces(const std::string& name) {
    std::vector<HeadPiece> out;
    bool space = false;
    for (std::size_t at = 0; at < name.size();) {
        std::size_t end = name.find_first_of(" -", at);
        end = end == std::string::npos ? name.size() : end + (name[end] == '-' ? 1 : 0);
        if (end > at) out.push_back({name.substr(at, end - at), space});
        space = end < name.size() && name[end] == ' ';
        at = space ? end + 1 : end;
    }
    return out;
}

// Whether `text` is Korean or Chinese (core's line breaker may break it between characters).
bool breaks_anywhere(const std::string& text) {
    return std::any_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) >= 0xE0; });
}

// The header `name` in `width` px of `font`: its pieces packed onto lines; a piece wider than the
// column (Korean, Chinese; a long word where even the words do not fit) broken where core's line
// breaker allows.
std::vector<std::string> wrap_head(ImFont* font, const std::string& name, float width) {
    std::vector<std::string> lines;
    for (const HeadPiece& p : head_pieces(name)) {
        const std::string joined = lines.empty() ? p.text : lines.back() + (p.joined ? " " : "") + p.text;
        if (!lines.empty() && text_w(font, joined) <= width) {
            lines.back() = joined;
        } else if (text_w(font, p.text) <= width) {
            lines.push_back(p.text);
        } else {
            for (const TextLine& l : wrap_lines(*font, font->FontSize, p.text, width)) lines.push_back(p.text.substr(l.begin, l.end - l.begin));
        }
    }
    return lines;
}

// The measured cells' width: never narrower than their widest header line, formula (in
// `formula_font`) or value (in `cell_font`); the panel scrolls sideways instead. `two_line`: the
// mark above the number, the header's words on as many lines as they need, the short formula;
// the widest word sets a minimum only where label_w and six such columns fit in `avail`.
float measured_fit_width(const CheckedTable& t, const Fonts& fonts, ImFont* cell_font, ImFont* formula_font,
                         bool two_line = false, float label_w = 0.0f, float avail = 0.0f) {
    if (two_line) {
        float fit_w = 0.0f;
        float words_w = 0.0f;   // each piece of the headers on a line of its own at most
        for (int c = 0; c < kNumTransforms; ++c) {
            fit_w = std::max(fit_w, text_w(formula_font, kShortFormula[c]));
            const std::string name = tr(std::string(display_name(kAllTransforms[c])).c_str());
            for (const HeadPiece& piece : head_pieces(name))
                if (!breaks_anywhere(piece.text)) words_w = std::max(words_w, text_w(fonts.small, piece.text) - 0.3f * ImGui::GetFontSize());
            for (int r = 0; r < kNumTableNorms; ++r) fit_w = std::max(fit_w, text_w(cell_font, invariance_residual_text(t.cells[r][c].residual)));
        }
        // The words whole where the table still fits (a word broken between letters is the last resort).
        if (label_w + kNumTransforms * (std::max(fit_w, words_w) + 0.6f * ImGui::GetFontSize()) <= avail) fit_w = std::max(fit_w, words_w);
        return std::ceil(fit_w + 0.6f * ImGui::GetFontSize());
    }
    ImFont* small = fonts.small;
    float fit_w = 0.0f;
    for (int c = 0; c < kNumTransforms; ++c) {
        // (tr returns its argument where the catalog has no entry: the name is kept, not viewed.)
        const std::string name = tr(std::string(display_name(kAllTransforms[c])).c_str());
        const std::string_view f = formula(kAllTransforms[c]);
        const size_t split = name.rfind(' ');
        fit_w = std::max({fit_w, text_w(small, std::string(name.substr(0, split)).c_str()),
                          text_w(small, split == std::string_view::npos ? "" : std::string(name.substr(split + 1)).c_str()),
                          text_w(formula_font, std::string(f.substr(0, f.find(" ("))).c_str())});
        for (int r = 0; r < kNumTableNorms; ++r) {
            const CellCheck& check = t.cells[r][c];
            fit_w = std::max(fit_w, text_w(cell_font, (std::string("✓ ") + invariance_residual_text(check.residual)).c_str()) +
                                        (t.badge[r][c] > 0 ? 2.0f * small->FontSize : 0.0f));
        }
    }
    return std::ceil(fit_w + 0.6f * ImGui::GetFontSize());
}

// The table's columns and fonts for the width at hand: the paper's table beside the measured one,
// else (too wide) with the small font and narrow paper columns, else the paper's below.
struct TableLayout {
    ImFont* cell_font = nullptr;      // the measured values
    ImFont* formula_font = nullptr;   // the column headers' formulas
    ImFont* name_font = nullptr;      // the rows' norm names
    float label_w = 0.0f, cell_w = 0.0f, paper_w = 0.0f, gap = 0.0f;
    bool below = false;               // the paper's table below the measured one, in its columns
    bool two_line = false;            // still too wide: each cell's mark above its number (small font)
};

TableLayout table_layout(const CheckedTable& t, const Fonts& fonts) {
    const float em = ImGui::GetFontSize();
    ImFont* small = fonts.small;
    TableLayout l{fonts.regular, fonts.bold, fonts.bold, 0.0f, 0.0f, 2.3f * em, 1.2f * em, false};
    for (Norm n : kTableNorms) l.label_w = std::max(l.label_w, text_w(fonts.bold, std::string(display_name(n)).c_str()));
    l.label_w += 0.8f * em + 1.2f * em;                 // swatch, padding
    // What the panel shows (its content region grows with what scrolls sideways in it).
    const ImGuiStyle& style = ImGui::GetStyle();
    const float shown = ImGui::GetWindowWidth() - ImGui::GetCursorPosX() - style.WindowPadding.x -
                        (ImGui::GetScrollMaxY() > 0.0f ? style.ScrollbarSize : 0.0f);
    const float avail = std::min(ImGui::GetContentRegionAvail().x, shown);
    float fit_w = measured_fit_width(t, fonts, l.cell_font, l.formula_font);
    if (l.label_w + l.gap + kNumTransforms * (fit_w + l.paper_w) > avail) {
        // Too wide for the window (a projector's large text, a small screen): values and formulas
        // in the small font, the paper's columns as narrow as their short formulas.
        l.cell_font = l.formula_font = small;
        fit_w = measured_fit_width(t, fonts, l.cell_font, l.formula_font);
        l.paper_w = 1.6f * em;
        for (const char* f : kShortFormula) l.paper_w = std::max(l.paper_w, std::ceil(text_w(small, f) + 0.4f * em));
        l.gap = 0.6f * em;
    }
    l.below = l.label_w + l.gap + kNumTransforms * (fit_w + l.paper_w) > avail;
    // Below and still too wide (a projector at 1024×768): two lines per cell, so that no number
    // hides behind a sideways scroll bar; each number stays whole on its line.
    l.two_line = l.below && l.label_w + kNumTransforms * fit_w > avail;
    if (l.two_line) {   // the names in the regular font: a narrower first column
        l.name_font = fonts.regular;
        l.label_w = 0.0f;
        for (Norm n : kTableNorms) l.label_w = std::max(l.label_w, text_w(fonts.regular, std::string(display_name(n)).c_str()));
        l.label_w += 0.8f * em + 1.2f * em;
        fit_w = measured_fit_width(t, fonts, l.cell_font, l.formula_font, true, l.label_w, avail);
    }
    l.cell_w = l.below ? std::max(std::floor((avail - l.label_w) / kNumTransforms), fit_w)
                       : std::max(std::clamp(std::floor((avail - l.label_w - l.gap - kNumTransforms * l.paper_w) / kNumTransforms),
                                             4.5f * em, 7.5f * em),
                                  fit_w);
    if (l.below) l.paper_w = l.cell_w;
    return l;
}

// Column c's name in lines: "Weight matrix" / "re-scaling" (at the last space; a translation
// without one on the first line); with two-line cells, on as many lines as the column needs.
std::vector<std::string> column_head(int c, const TableLayout& l, ImFont* small) {
    const std::string name = tr(std::string(display_name(kAllTransforms[c])).c_str());
    if (l.two_line) return wrap_head(small, name, l.cell_w - 0.3f * ImGui::GetFontSize());
    const size_t split = name.rfind(' ');
    return {name.substr(0, split), split == std::string::npos ? std::string() : name.substr(split + 1)};
}

// Row labels, the measured table and the paper's, drawn as one grid of cells.
void draw_tables(const InvarianceLabState& s, const CheckedTable& t, const Fonts& fonts) {
    const float em = ImGui::GetFontSize();
    ImFont* small = fonts.small;
    const TableLayout l = table_layout(t, fonts);
    ImFont* const cell_font = l.cell_font;
    ImFont* const formula_font = l.formula_font;
    const float label_w = l.label_w, cell_w = l.cell_w, paper_w = l.paper_w, gap = l.gap;
    const bool below = l.below;
    const float row_h = l.two_line ? std::round(2.0f * cell_font->FontSize + 0.5f * em) : std::round(1.75f * em);
    std::vector<std::string> heads[kNumTransforms];
    std::size_t head_lines = 2;
    for (int c = 0; c < kNumTransforms; ++c) {
        heads[c] = column_head(c, l, small);
        head_lines = std::max(head_lines, heads[c].size());
    }
    const float heads_h = static_cast<float>(head_lines) * small->FontSize;
    const float header_h = heads_h + formula_font->FontSize + 0.6f * em;

    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    const ImU32 text_col = ImGui::GetColorU32(ImGuiCol_Text);
    const ImU32 dim_col = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    const ImU32 line_col = ImGui::GetColorU32(ImGuiCol_Border);
    const float measured_x = p0.x + label_w;
    const float paper_x = below ? measured_x : measured_x + kNumTransforms * cell_w + gap;
    const float body_y = p0.y + header_h;
    const float paper_top = below ? body_y + kNumTableNorms * row_h + 0.5f * em : p0.y;   // its caption's line
    const float paper_row_h = below ? std::round(1.3f * em) : row_h;
    const float paper_body_y = below ? paper_top + fonts.bold->FontSize + 0.4f * em : body_y;
    const float total_w = paper_x + kNumTransforms * paper_w - p0.x;
    const float total_h = paper_body_y + kNumTableNorms * paper_row_h - p0.y;

    // Headers: "Measured" and "Paper" captions sit in the row-label column's header space.
    dl->AddText(fonts.bold, fonts.bold->FontSize, ImVec2(p0.x, p0.y + 0.2f * em), text_col, tr("Measured"));
    dl->AddText(small, small->FontSize, ImVec2(p0.x, p0.y + 0.2f * em + fonts.bold->FontSize + 2.0f), dim_col,
                "‖y′ − y‖ / ‖y‖");
    for (int c = 0; c < kNumTransforms; ++c) {
        const float x0 = measured_x + static_cast<float>(c) * cell_w;
        const float x1 = x0 + cell_w;
        for (std::size_t line = 0; line < heads[c].size(); ++line) {
            const float y = p0.y + static_cast<float>(line) * small->FontSize;
            centered_text(dl, small, ImVec2(x0, y), ImVec2(x1, y + small->FontSize), dim_col, heads[c][line]);
        }
        const float fy = p0.y + heads_h + 0.15f * em;
        const std::string_view f = formula(kAllTransforms[c]);   // "x′ = δx (all cases)": the formula only
        std::string head(f.substr(0, f.find(" (")));
        if (text_w(formula_font, head.c_str()) + 0.3f * em > cell_w) head = kShortFormula[c];   // a narrow column
        centered_text(dl, formula_font, ImVec2(x0, fy), ImVec2(x1, fy + formula_font->FontSize), text_col, head);
    }
    const float paper_caption_w = text_w(fonts.bold, tr("Paper, Table 1"));
    dl->AddText(fonts.bold, fonts.bold->FontSize,
                ImVec2(below ? p0.x : paper_x + 0.5f * (kNumTransforms * paper_w - paper_caption_w), paper_top), text_col,
                tr("Paper, Table 1"));
    for (int c = 0; c < kNumTransforms && !below; ++c) {   // below: under the measured columns' headers
        const float x0 = paper_x + static_cast<float>(c) * paper_w;
        const float fy = p0.y + heads_h + 0.15f * em;
        centered_text(dl, small, ImVec2(x0, fy), ImVec2(x0 + paper_w, fy + formula_font->FontSize), dim_col, kShortFormula[c]);
    }

    // Rows: the swatch and name, the measured cells, the paper's cells (beside, or below with
    // their own names).
    const auto row_label = [&](int r, float y0, float y1) {
        const float sw = 0.8f * em;
        const ImVec2 s0(p0.x, std::floor(0.5f * (y0 + y1 - sw)));
        dl->AddRectFilled(s0, ImVec2(s0.x + sw, s0.y + sw), to_u32(norm_color(kTableNorms[r])), 2.0f);
        const std::string name(display_name(kTableNorms[r]));
        dl->AddText(l.name_font, l.name_font->FontSize,
                    ImVec2(p0.x + sw + 0.4f * em, std::floor(0.5f * (y0 + y1 - l.name_font->FontSize))), text_col, name.c_str());
    };
    for (int r = 0; r < kNumTableNorms; ++r) {
        const float y0 = body_y + static_cast<float>(r) * row_h;
        const float y1 = y0 + row_h;
        row_label(r, y0, y1);
        for (int c = 0; c < kNumTransforms; ++c) {
            const ImVec2 c0(measured_x + static_cast<float>(c) * cell_w, y0);
            draw_measured_cell(s, t, r, c, c0, ImVec2(c0.x + cell_w, y1), cell_font, small, true, l.two_line);
        }
        dl->AddLine(ImVec2(p0.x, y1), ImVec2(below ? total_w + p0.x : paper_x - gap, y1), line_col);

        const float q_y0 = paper_body_y + static_cast<float>(r) * paper_row_h;
        if (below) row_label(r, q_y0, q_y0 + paper_row_h);
        for (int c = 0; c < kNumTransforms; ++c) {
            const bool paper = t.cells[r][c].paper;
            const ImVec2 q0(paper_x + static_cast<float>(c) * paper_w, q_y0);
            const ImVec2 q1(q0.x + paper_w, q_y0 + paper_row_h);
            dl->AddRectFilled(ImVec2(q0.x + 1.0f, q0.y + 1.0f), ImVec2(q1.x - 1.0f, q1.y - 1.0f),
                              to_u32(paper ? colors::kPassFill : colors::kFailFill));
            centered_text(dl, fonts.bold, q0, q1, ImGui::GetColorU32(paper ? kGoodText : kErrorText), paper ? "✓" : "✗");
        }
    }
    dl->AddLine(ImVec2(p0.x, body_y), ImVec2(below ? total_w + p0.x : paper_x - gap, body_y), line_col);
    dl->AddLine(ImVec2(below ? p0.x : paper_x, paper_body_y), ImVec2(paper_x + kNumTransforms * paper_w, paper_body_y), line_col);
    ImGui::SetCursorScreenPos(p0);
    ImGui::Dummy(ImVec2(total_w, total_h));
    record_whole_block("invariance_table", ImVec4(p0.x, p0.y, p0.x + total_w, p0.y + total_h));
}

// A presenter slide's Table 1: the measured cells alone, filling `size`. Each column is headed
// by its formula (the paper's short form where that does not fit); a cell shows its residual
// where that fits, in the regular font or else the small one, else ✓ / ✗ alone.
void draw_slide_table(const InvarianceLabState& s, const CheckedTable& t, const Fonts& fonts, ImVec2 size) {
    ImFont* small = fonts.small;
    const float pad = 0.4f * ImGui::GetFontSize();
    const float sw = 0.8f * fonts.bold->FontSize;   // the norm's colour swatch
    float label_w = 0.0f;
    for (Norm n : kTableNorms) label_w = std::max(label_w, text_w(fonts.bold, std::string(display_name(n))));
    label_w += sw + 2.0f * pad;
    const float cell_w = std::floor((size.x - label_w) / kNumTransforms);
    // Each column's formula, or its short form where the formula is wider than the column; where
    // even a short form is, the headers alternate between two rows (each then has two columns).
    std::string heads[kNumTransforms];
    bool stagger = false;
    for (int c = 0; c < kNumTransforms; ++c) {
        const std::string_view f = formula(kAllTransforms[c]);   // "x′ = δx (all cases)": the formula only
        heads[c] = std::string(f.substr(0, f.find(" (")));
        if (text_w(small, heads[c]) + pad > cell_w) heads[c] = kShortFormula[c];
        stagger = stagger || text_w(small, heads[c]) + pad > cell_w;
    }
    const float header_row = std::round(1.5f * small->FontSize);
    const float header_h = stagger ? 2.0f * header_row : header_row;
    const float row_h = std::floor(std::min(1.6f * fonts.regular->FontSize, (size.y - header_h) / kNumTableNorms));

    float widest = 0.0f;   // the widest "✓ 1.8×10⁻⁶" in the regular font
    for (int r = 0; r < kNumTableNorms; ++r)
        for (int c = 0; c < kNumTransforms; ++c)
            widest = std::max(widest, text_w(fonts.regular, "✓ " + invariance_residual_text(t.cells[r][c].residual)));
    const bool regular_fits = widest + pad <= cell_w && fonts.regular->FontSize + 2.0f <= row_h;
    const bool small_fits = widest * small->FontSize / fonts.regular->FontSize + pad <= cell_w;
    ImFont* cell_font = regular_fits || !small_fits ? fonts.regular : small;
    ImFont* name_font = fonts.bold->FontSize + 2.0f <= row_h ? fonts.bold : small;

    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    const ImU32 text_col = ImGui::GetColorU32(ImGuiCol_Text);
    for (int c = 0; c < kNumTransforms; ++c) {
        const float x0 = p0.x + label_w + static_cast<float>(c) * cell_w;
        const float half = stagger ? 0.5f * cell_w : 0.0f, y = p0.y + (stagger && c % 2 == 1 ? header_row : 0.0f);
        centered_text(dl, small, ImVec2(x0 - half, y), ImVec2(x0 + cell_w + half, y + header_row), text_col, heads[c]);
    }
    for (int r = 0; r < kNumTableNorms; ++r) {
        const float y0 = p0.y + header_h + static_cast<float>(r) * row_h, y1 = y0 + row_h;
        const ImVec2 s0(p0.x, std::floor(0.5f * (y0 + y1 - sw)));
        dl->AddRectFilled(s0, ImVec2(s0.x + sw, s0.y + sw), to_u32(norm_color(kTableNorms[r])), 2.0f);
        dl->AddText(name_font, name_font->FontSize, ImVec2(s0.x + sw + pad, std::floor(0.5f * (y0 + y1 - name_font->FontSize))),
                    text_col, std::string(display_name(kTableNorms[r])).c_str());
        for (int c = 0; c < kNumTransforms; ++c) {
            const ImVec2 c0(p0.x + label_w + static_cast<float>(c) * cell_w, y0);
            draw_measured_cell(s, t, r, c, c0, ImVec2(c0.x + cell_w, y1), cell_font, small, regular_fits || small_fits);
        }
    }
    ImGui::SetCursorScreenPos(p0);
    ImGui::Dummy(ImVec2(label_w + kNumTransforms * cell_w, header_h + kNumTableNorms * row_h));
}

void draw_notes(const InvarianceLabState& s, const CheckedTable& t, const Fonts& fonts) {
    if (t.notes.empty()) {
        ImGui::TextColored(kGoodText, "%s", tr("✓ The measurement agrees with the paper in every cell."));
        const std::string hint = tr("Try δ = 1 (key D), or ε = 10⁻³ (key E) with δ = 10⁻³.");
        same_line_if_fits(ImGui::CalcTextSize(hint.c_str()).x, ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x);
        flow_text(hint, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
        return;
    }
    ImGui::TextColored(kErrorText, tr("Where the measurement differs from the paper (tolerance %s):"),
                       format_number(s.tolerance, 2).c_str());
    ImFont* small = fonts.small;
    for (size_t k = 0; k < t.notes.size(); ++k) {
        const TableNote& note = t.notes[k];
        const float r = 0.5f * small->FontSize;
        const ImVec2 p = ImGui::GetCursorScreenPos();
        badge(ImGui::GetWindowDrawList(), small, ImVec2(p.x + r, p.y + 0.5f * ImGui::GetTextLineHeight()), r,
              static_cast<int>(k) + 1);
        ImGui::Dummy(ImVec2(2.0f * r, ImGui::GetTextLineHeight()));
        ImGui::SameLine();
        std::string cells;
        constexpr size_t kMaxNamed = 4;   // longer lists end in "and k more"
        for (size_t i = 0; i < note.cells.size() && i < kMaxNamed; ++i) cells += (i ? ", " : "") + note.cells[i];
        if (note.cells.size() > kMaxNamed) cells = tr("{0} and {1} more", cells, note.cells.size() - kMaxNamed);
        ImGui::BeginGroup();   // the cells in bold, the reason below them, both indented past the badge
        ImGui::PushFont(fonts.bold);
        flow_text(cells + ":", ImGui::GetStyle().Colors[ImGuiCol_Text]);
        ImGui::PopFont();
        flow_text(note.why, ImGui::GetStyle().Colors[ImGuiCol_Text]);
        ImGui::EndGroup();
    }
}

// [SECTION] Curves --------------------------------------------------------------------------

// Width of a checkbox with this label.
float checkbox_width(const std::string& label) {
    return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label.c_str(), nullptr, true).x;
}

void draw_curve_choice(InvarianceLabState& s) {
    const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(tr("Curves of"));
    const float swatch_w = 0.8f * ImGui::GetFontSize() + ImGui::GetStyle().ItemSpacing.x;
    for (int r = 0; r < kNumTableNorms; ++r) {
        const std::string name(display_name(kTableNorms[r]));
        same_line_if_fits(swatch_w + checkbox_width(name), right);
        swatch(norm_color(kTableNorms[r]));
        bool on = s.curve_norms[static_cast<size_t>(r)];
        if (ImGui::Checkbox(name.c_str(), &on)) s.curve_norms[static_cast<size_t>(r)] = on;
        tooltip(tr("Draw this norm's relative change ‖y′ − y‖ / ‖y‖ against δ, once per chosen transform "
                "(its colour in the plot)."));
    }
    // "under" stays with the first transform's checkbox.
    const auto label_of = [](int c) { return std::string(kShortFormula[c]) + "##t" + std::to_string(c); };
    same_line_if_fits(ImGui::CalcTextSize(tr("under")).x + ImGui::GetStyle().ItemSpacing.x + checkbox_width(label_of(0)),
                      right);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(tr("under"));

    for (int c = 0; c < kNumTransforms; ++c) {
        const std::string label = label_of(c);
        same_line_if_fits(checkbox_width(label), right);
        bool on = s.curve_transforms[static_cast<size_t>(c)];
        if (ImGui::Checkbox(label.c_str(), &on)) s.curve_transforms[static_cast<size_t>(c)] = on;
        const std::string help = tr("{0}, {1}: one curve per chosen norm (a dash and marker of its own); re-centerings do "
                                    "not depend on δ, so their curves are flat.",
                                    tr(std::string(display_name(kAllTransforms[c])).c_str()), formula(kAllTransforms[c]));
        tooltip(help.c_str());
    }
}

// The plot of the chosen curves against δ, filling what the window has left; `empty`: what to
// say when no curve is chosen.
void draw_curve_plot(const InvarianceLabState& s, InvarianceUi& ui, const Fonts& fonts, const char* empty) {
    Plot& curves = ui.curves.get({s}, [&] { return invariance_curve_plot(s); });
    mark_delta_and_tolerance(curves, s);
    if (curves.series.empty()) {
        ImGui::TextDisabled("%s", empty);
        return;
    }
    draw_plot(ui.plot_view, curves, fonts, ImGui::GetContentRegionAvail());
}

void draw_curves(InvarianceLabState& s, InvarianceUi& ui, const Fonts& fonts) {
    draw_curve_choice(s);
    draw_curve_plot(s, ui, fonts, tr("Tick at least one norm and one transform above to draw its curve."));
}

// [SECTION] Explorer panel ------------------------------------------------------------------

struct ExplorerButton {
    Transform transform;
    const char* label;
    const char* help;
};
constexpr ExplorerButton kExplorerButtons[] = {
    {Transform::WeightMatrixRescaling, "W′ = δW", tr_later("Scale every entry of the Explorer's W by this lab's δ: "
                                                  "LayerNorm and RMSNorm outputs should not move (up to ε).")},
    {Transform::WeightMatrixRecentering, "W′ = W + 1γᵀ", tr_later("Add the same γ to every row of the Explorer's W: a gains "
                                                         "γᵀx in every entry, which LayerNorm removes and RMSNorm cannot.")},
    {Transform::WeightVectorRescaling, "w′ᵢ = δᵢwᵢ", tr_later("Scale row i of the Explorer's W by δᵢ = δ^(i/n): "
                                                     "a different factor per output, so both norms move.")},
    {Transform::DatasetRescaling, "x′ = δx", tr_later("Scale the Explorer's x by this lab's δ: LayerNorm and RMSNorm outputs "
                                             "should not move (up to ε).")},
    {Transform::DatasetRecentering, "x′ = x + γ", tr_later("Add a shift γ to the Explorer's x: a moves by Wγ, which is not "
                                                  "constant, so both norms move.")},
};

void draw_explorer_panel(InvarianceContext& ctx, InvarianceUi& ui) {
    const InvarianceLabState& s = ctx.session.invariance;
    ExplorerState& e = ctx.session.explorer;
    heading(ctx.fonts.heading, tr("Apply to the Explorer"));
    const ImVec4 dim = ImGui::GetStyle().Colors[ImGuiCol_TextDisabled];
    flow_text(e.use_W ? tr("Explorer: x = [{0}],  W {1}×{2}", format_number_list(e.x), e.W.rows(), e.W.cols())
                      : tr("Explorer: x = [{0}],  no W (a = x)", format_number_list(e.x)),
              dim);

    const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    for (const ExplorerButton& b : kExplorerButtons) {
        if (&b != kExplorerButtons) same_line_if_fits(button_width(b.label), right);
        if (ImGui::Button(b.label)) {
            try {
                ui.last_apply = apply_to_explorer(e, b.transform, s);
            } catch (const std::exception& err) {
                ui.last_apply = ExplorerTransformResult{};
                ui.last_apply->what = tr("Not applied: {0}", err.what());
            }
        }
        const std::string help = std::string(tr(b.help)) + " " +
                                 tr("Uses δ = {0} and γ scale {1} from this lab.", format_number(s.delta, 3), format_number(s.shift, 3));
        tooltip(help.c_str());
    }
    if (ImGui::SmallButton(tr("Open the Explorer"))) ctx.app.select_lab = find_lab("explorer");
    tooltip(tr("Switch to the Explorer lab to see the transformed x, W and both norms' outputs in full."));

    std::optional<ExplorerResults> now;
    try {
        now = compute_explorer(e);
    } catch (const std::exception&) {
        now.reset();
    }
    // The note belongs to the Explorer as it was left: forget it once the Explorer has changed since.
    if (ui.last_apply && ui.last_apply->applied &&
        (!now || now->layernorm.y.cols() != ui.last_apply->layernorm_after.size() ||
         now->layernorm.y.row(0).transpose() != ui.last_apply->layernorm_after)) {
        ui.last_apply.reset();
    }
    ImGui::Spacing();
    if (!ui.last_apply) {
        flow_text(tr("Click a transform: it edits the Explorer's x or W with this lab's δ and γ; the bars below show "
                  "how its outputs move."),
                  dim);
    } else {
        flow_text(ui.last_apply->what, ImGui::GetStyle().Colors[ImGuiCol_Text]);
    }
    if (!now) {
        ImGui::TextColored(kErrorText, "%s", tr("The Explorer's outputs cannot be computed: open it and reset x or W."));
        return;
    }

    // Bars: the Explorer's outputs now; outlines: before the last transform. One value axis for both.
    const ExplorerTransformResult* r = ui.last_apply && ui.last_apply->applied ? &*ui.last_apply : nullptr;
    const float caption_h = ImGui::GetTextLineHeightWithSpacing();
    const float chart_h = std::max(3.0f * ImGui::GetFontSize(),
                                   0.5f * (ImGui::GetContentRegionAvail().y - 2.0f * caption_h) -
                                       ImGui::GetStyle().ItemSpacing.y);
    const bool labels = chart_h >= 7.0f * ImGui::GetFontSize();   // they crowd a shorter chart
    const std::vector<Plot> plots = invariance_explorer_plots(&*now, r, labels);
    const struct {
        const char* name;
        const char* figure;   // invariance_explorer_plots
        Color color;
        double change;
        PlotView* view;
    } charts[] = {{"LayerNorm", "invariance_explorer_layernorm", colors::kLayerNorm, r ? r->layernorm_change : 0.0,
                   &ui.layernorm_view},
                  {"RMSNorm", "invariance_explorer_rmsnorm", colors::kRmsNorm, r ? r->rmsnorm_change : 0.0, &ui.rmsnorm_view}};
    for (const auto& c : charts) {
        swatch(c.color);
        if (r == nullptr) {
            ImGui::Text(tr("%s outputs y"), c.name);
        } else {
            const bool still = std::isfinite(c.change) && c.change <= s.tolerance;
            ImGui::TextColored(still ? kGoodText : kErrorText, "%s %s:  Δ = %s", still ? "✓" : "✗", c.name,
                               invariance_residual_text(c.change).c_str());
            tooltip(tr("Δ = ‖y′ − y‖ / ‖y‖, the relative change of the Explorer's outputs (the table's measure): "
                    "✓ when within the tolerance. Outlines: the outputs before the transform."));
        }
        c.view->compact = true;   // the line above names it
        draw_plot(*c.view, plot_named(plots, c.figure), ctx.fonts, ImVec2(ImGui::GetContentRegionAvail().x, chart_h));
    }
}

// [SECTION] The lab window ------------------------------------------------------------------

std::vector<Plot> invariance_lab_plots(InvarianceContext& ctx) {
    std::vector<Plot> plots = lab_plots(ctx.session, "invariance");   // core's list: normlab-cli export's too
    Plot& curves = plot_named(plots, "invariance_vs_delta");
    curves = plot_as_shown(curves, ctx.ui.plot_view);
    // The Explorer panel's bars with the outlines of before its last transform, as on screen.
    const std::optional<ExplorerTransformResult>& last = ctx.ui.last_apply;
    if (last && last->applied) {
        try {
            const ExplorerResults now = compute_explorer(ctx.session.explorer);
            for (Plot& p : invariance_explorer_plots(&now, &*last, true)) plot_named(plots, p.name) = std::move(p);
        } catch (const std::exception&) {
            // core's figures say why
        }
    }
    return plots;
}

constexpr float kCurvesMinEm = 16.0f;     // the curves' least height, in text heights
constexpr float kCurvesBesideEm = 48.0f;  // the least width for the Explorer panel beside the curves
constexpr float kExplorerPanelEm = 12.0f; // its height under the curves

void draw_invariance_lab(InvarianceContext& ctx) {
    InvarianceLabState& s = ctx.session.invariance;
    InvarianceUi& ui = ctx.ui;
    const Fonts& fonts = ctx.fonts;

    const float em = ImGui::GetFontSize();
    const ImGuiStyle& style = ImGui::GetStyle();
    if (show_controls(ctx.app)) {   // presenter view, or the panel collapsed: tables and curves alone
        begin_controls_panel(0.26f, 19.0f, 28.0f);
        // The heat maps take what the other sections leave (about 14 lines of them).
        // (and the lines of headings that wrap in a narrow panel).
        float maps_h = ImGui::GetContentRegionAvail().y - 14.0f * ImGui::GetFrameHeightWithSpacing();
        for (const char* h : kControlHeadings) maps_h -= heading_extra_height(fonts.heading, tr(h));
        draw_batch_section(ctx, s, ui, fonts, maps_h);
        draw_transform_section(ctx, s, fonts);
        draw_norm_section(ctx, s, fonts);
        end_controls_panel();
    }
    begin_panel("results");
    InvarianceTable table;
    try {
        table = invariance_lab_table(s);
    } catch (const std::exception& err) {
        ImGui::TextColored(kErrorText, tr("Cannot compute the table: %s"), err.what());
        ImGui::EndChild();
        return;
    }
    const CheckedTable checked = check_table(s, table);
    draw_tables(s, checked, fonts);
    if (std::string saved = table_context_menu("invariance tables", {"invariance_table_measured", "invariance_table_paper"}, [&] {
            return std::vector<Table>{invariance_measured_table(s), invariance_paper_table()};
        });
        !saved.empty())
        ctx.app.status = std::move(saved);
    ImGui::Spacing();
    draw_notes(s, checked, fonts);
    ImGui::Spacing();

    // The curves and the Explorer panel side by side in what is left, or, in a narrow window, one
    // above the other; never shorter than kCurvesMinEm (the results scroll down to them instead).
    const float avail_w = ImGui::GetContentRegionAvail().x;
    const bool beside = avail_w >= kCurvesBesideEm * em;
    const float explorer_w = beside ? std::clamp(0.3f * avail_w, 16.0f * em, 24.0f * em) : avail_w;
    const float curves_h = std::max(ImGui::GetContentRegionAvail().y, kCurvesMinEm * em);
    ImGui::BeginChild("curves", ImVec2(beside ? avail_w - explorer_w - style.ItemSpacing.x : avail_w, curves_h), false, ImGuiWindowFlags_NavFlattened);
    draw_curves(s, ui, fonts);
    ImGui::EndChild();
    if (beside) ImGui::SameLine();
    ImGui::BeginChild("explorer", ImVec2(explorer_w, beside ? curves_h : kExplorerPanelEm * em), true, ImGuiWindowFlags_NavFlattened);
    draw_explorer_panel(ctx, ui);
    ImGui::EndChild();
    ImGui::EndChild();
}

// [SECTION] Presenter slide ---------------------------------------------------------------

void draw_invariance_figure(InvarianceContext& ctx, const std::string& id, ImVec2 size) {
    const InvarianceLabState& s = ctx.session.invariance;
    if (id == "invariance_vs_delta") {
        draw_curve_plot(s, ctx.ui, ctx.fonts, tr("The slide's scene chooses no curve (curve_norms, curve_transforms)."));
        return;
    }
    try {
        draw_slide_table(s, check_table(s, invariance_lab_table(s)), ctx.fonts, size);
    } catch (const std::exception& err) {
        push_wrap_at_edge();
        ImGui::TextColored(kErrorText, tr("Cannot compute the table: %s"), err.what());
        ImGui::PopTextWrapPos();
    }
}

void draw_invariance_control(InvarianceContext& ctx, const std::string& id) {
    InvarianceLabState& s = ctx.session.invariance;
    const float w = 10.0f * ImGui::GetFontSize();
    if (id == "delta")
        log_slider("δ", s.delta, kInvarianceDeltaRule, kInvarianceMinDelta, kInvarianceMaxDelta, "%.4g", w,
                   tr("δ, the factor of the re-scalings, from 10⁻³ to 10³ on a log scale."));
    else   // "eps"
        log_slider("ε", s.spec.eps, kLabEpsRule, 1e-12, 1e-1, "%.0e", w, tr("ε, from 10⁻¹² to 10⁻¹ on a log scale."));

}

const SlideParts<InvarianceContext> kInvarianceSlide{
    {{{"invariance_table", 3.0f}, {"invariance_vs_delta", 1.8f}}, 2, {{"delta"}, {"eps"}}},
    nullptr, draw_invariance_figure, draw_invariance_control};

}  // namespace

const LabWindow<InvarianceContext> kInvarianceWindow{&kInvarianceInfo, draw_invariance_lab, invariance_lab_plots, invariance_lab_actions, &kInvarianceSlide};

}  // namespace normlab::ui
