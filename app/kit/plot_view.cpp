// The plot widget (see plot_view.hpp): a figure painted by plot_painter.hpp, and the mouse.
//
// [SECTION] The plot as shown — the view's ranges and hidden series applied
// [SECTION] Screen figure    — the on-screen style (the app's fonts), one layout with hidden series faded
// [SECTION] Interaction      — wheel zoom, pan, box zoom, double-click, legend toggles, hover
// [SECTION] Context menu     — Save PNG / SVG / CSV, Copy values, Reset view
// [SECTION] draw_plot
#include "plot_view.hpp"

#include "export_menus.hpp"
#include "layout_check.hpp"
#include "plot_export.hpp"
#include "plot_record.hpp"
#include "ui_util.hpp"

#include <normlab/base/i18n.hpp>

#include <imgui_internal.h>   // ImGui::SetItemUsingMouseWheel

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace normlab::ui {

// [SECTION] The plot as shown ---------------------------------------------------------------

namespace {

// The plot with the view's zoomed ranges as explicit min/max and its hidden series switched off:
// invisible (exports) or faded (the screen).
Plot with_view(const Plot& plot, const PlotView& view, bool fade) {
    Plot shown = plot;
    for (Series& s : shown.series) {
        if (std::find(view.hidden.begin(), view.hidden.end(), s.label) == view.hidden.end()) continue;
        if (fade) {
            s.faded = true;
        } else {
            s.visible = false;
        }
    }
    if (view.range.x) {
        shown.x.min = view.range.x->lo;
        shown.x.max = view.range.x->hi;
    }
    if (view.range.y) {
        shown.y.min = view.range.y->lo;
        shown.y.max = view.range.y->hi;
    }
    return shown;
}

}  // namespace

Plot plot_as_shown(const Plot& plot, const PlotView& view) { return with_view(plot, view, false); }

Plot plot_on_screen(const Plot& plot, const PlotView& view) { return with_view(plot, view, true); }

namespace {

// [SECTION] Screen figure -------------------------------------------------------------------

// On screen the figure is core's default style scaled to the app's text size, with the font
// sizes set to the app's fonts (small: ticks and legend, regular: axis labels, heading: title),
// so that every glyph is drawn at the size it was rasterised at.
struct ScreenFigure {
    PlotStyle style;
    double k = 1.0;        // screen px per export px at 1×
    FigureFonts fonts;
    FigureColors colors;
};

ScreenFigure screen_figure(const Fonts& app) {
    ScreenFigure f;
    f.k = app.small->FontSize / PlotStyle{}.tick_font_px;
    f.style = scaled(PlotStyle{}, f.k);
    f.style.tick_font_px = app.small->FontSize;
    f.style.label_font_px = app.regular->FontSize;
    f.style.title_font_px = app.heading->FontSize;
    f.fonts = {{app.small, app.regular}, app.heading};
    f.style.text_width = figure_text_width(f.fonts);
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    f.colors = 0.299f * bg.x + 0.587f * bg.y + 0.114f * bg.z < 0.5f ? dark_figure() : light_figure();
    return f;
}

// The layout on screen. Series switched off are faded (plot_on_screen): the legend still lists
// them, dimmed, so that they can be clicked back, and core lays that legend out (its corner, the
// room made for it, the annotations kept off it) with their rows in it and their data left out.
struct ScreenLayout {
    Plot shown;                        // plot_on_screen()
    PlotLayout layout;
};

ScreenLayout layout_screen(const Plot& plot, const PlotView& view, const Rect& outer, const PlotStyle& style) {
    ScreenLayout s{plot_on_screen(plot, view), {}};
    s.layout = layout_plot(s.shown, outer, style);
    return s;
}

// [SECTION] Interaction ---------------------------------------------------------------------

constexpr double kWheelZoom = 0.85;    // range factor per wheel notch (up: zoom in)
constexpr float kClickSlop = 4.0f;     // px a click may move and still be a click
constexpr float kMinBox = 5.0f;        // px: smaller box zooms are taken as clicks

Point2 to_point(ImVec2 p) { return {p.x, p.y}; }

bool moved(ImGuiMouseButton button) {
    return ImGui::GetIO().MouseDragMaxDistanceSqr[button] > kClickSlop * kClickSlop;
}

// The legend entry under the mouse: rows split at the midpoints between their centre lines.
const LegendEntry* legend_entry_at(const PlotLayout& L, ImVec2 mouse) {
    if (!L.has_legend || !L.legend_box.contains(to_point(mouse))) return nullptr;
    for (std::size_t i = 0; i < L.legend.size(); ++i) {
        const double next = i + 1 < L.legend.size() ? L.legend[i + 1].swatch_from.y : L.legend_box.y1;
        if (mouse.y <= 0.5 * (L.legend[i].swatch_from.y + next) || i + 1 == L.legend.size()) return &L.legend[i];
    }
    return nullptr;
}

void toggle_hidden(PlotView& view, const std::string& label) {
    const auto it = std::find(view.hidden.begin(), view.hidden.end(), label);
    if (it == view.hidden.end()) {
        view.hidden.push_back(label);
    } else {
        view.hidden.erase(it);
    }
}

// The range of one axis as shown now: the view's override, or the layout's (auto) range.
AxisRange& current(std::optional<AxisRange>& r, const AxisRange& shown) {
    if (!r) r = shown;
    return *r;
}

// Applies this frame's mouse to the view; returns true when the ranges or hidden series changed.
// `opens_menu` is set when a right-click (without a box drag) asks for the context menu.
bool interact(PlotView& view, const Plot& plot, const PlotLayout& L, bool& opens_menu) {
    const ImGuiIO& io = ImGui::GetIO();
    const Rect& d = L.view.px;
    const ImVec2 mouse = io.MousePos;
    const bool hovered = ImGui::IsItemHovered();
    const bool in_data = d.contains(to_point(mouse));
    const LegendEntry* entry = hovered ? legend_entry_at(L, mouse) : nullptr;
    bool changed = false;

    // Wheel: about the value under the cursor; over the tick labels of one axis, that axis only.
    if (hovered && io.MouseWheel != 0.0f) {
        const double factor = std::pow(kWheelZoom, static_cast<double>(io.MouseWheel));
        const Point2 at = L.view.to_data(to_point(mouse));
        const bool x_axis = mouse.y > d.y1 && mouse.x >= d.x0, y_axis = mouse.x < d.x0 && mouse.y <= d.y1;
        if (!y_axis) view.range.x = zoomed(current(view.range.x, L.view.x), at.x, factor);
        if (!x_axis) view.range.y = zoomed(current(view.range.y, L.view.y), at.y, factor);
        changed = true;
    }

    // Box zoom: right-drag or Ctrl+drag; a right-click that did not drag opens the menu.
    if (ImGui::IsItemActivated() && (ImGui::IsMouseClicked(ImGuiMouseButton_Right) || io.KeyCtrl)) {
        view.box_zooming = true;
        view.box_from = mouse;
    }
    if (view.box_zooming && !ImGui::IsItemActive()) {
        view.box_zooming = false;
        const ImVec2 a = view.box_from, b = mouse;
        if (std::fabs(a.x - b.x) >= kMinBox && std::fabs(a.y - b.y) >= kMinBox) {
            const auto clamp_x = [&](double x) { return std::clamp(x, d.x0, d.x1); };
            const auto clamp_y = [&](double y) { return std::clamp(y, d.y0, d.y1); };
            const Point2 lo = L.view.to_data({clamp_x(std::min(a.x, b.x)), clamp_y(std::max(a.y, b.y))});
            const Point2 hi = L.view.to_data({clamp_x(std::max(a.x, b.x)), clamp_y(std::min(a.y, b.y))});
            if (lo.x < hi.x && lo.y < hi.y) {
                view.range.x = AxisRange{L.view.x.scale, lo.x, hi.x};
                view.range.y = AxisRange{L.view.y.scale, lo.y, hi.y};
                changed = true;
            }
        } else if (ImGui::IsMouseReleased(ImGuiMouseButton_Right)) {
            opens_menu = true;
        }
    }

    // Drag pans (in unit lengths, so that log axes pan by decades evenly).
    if (ImGui::IsItemActive() && !view.box_zooming && ImGui::IsMouseDown(ImGuiMouseButton_Left) &&
        (io.MouseDelta.x != 0.0f || io.MouseDelta.y != 0.0f) && moved(ImGuiMouseButton_Left)) {
        if (io.MouseDelta.x != 0.0f)
            view.range.x = panned(current(view.range.x, L.view.x), -io.MouseDelta.x / std::max(1.0, d.width()));
        if (io.MouseDelta.y != 0.0f)
            view.range.y = panned(current(view.range.y, L.view.y), io.MouseDelta.y / std::max(1.0, d.height()));
        changed = true;
    }

    // A click on a legend entry hides or shows its series; a double-click elsewhere resets.
    if (entry != nullptr && ImGui::IsMouseReleased(ImGuiMouseButton_Left) && !moved(ImGuiMouseButton_Left) &&
        !io.KeyCtrl) {
        toggle_hidden(view, plot.series[entry->series].label);
        changed = true;
    } else if (hovered && entry == nullptr && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
        view.range = {};
        changed = true;
    }

    if (hovered && entry != nullptr) ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
    else if (hovered && in_data && !view.box_zooming) ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeAll);
    return changed;
}

// While hovering the data: a ring on the nearest point and its values in a tooltip.
void hover_tooltip(ImDrawList& dl, const Plot& shown, const PlotLayout& L, double k, ImU32 ring) {
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    if (!ImGui::IsItemHovered() || ImGui::IsItemActive() || !L.view.px.contains(to_point(mouse))) return;
    if (legend_entry_at(L, mouse) != nullptr) {
        ImGui::SetTooltip("%s", tr("Click to hide or show this series"));
        return;
    }
    const std::optional<PointHit> hit = nearest_point(shown, L.view, to_point(mouse), 8.0 * k);
    if (!hit) return;
    const Series& s = shown.series[hit->series];
    const Point2 p = L.view.to_px({s.x[hit->index], s.y[hit->index]});
    dl.AddCircle(to_im(p), static_cast<float>(0.5 * s.marker_size * k + 3.0 * k), ring, 0, static_cast<float>(1.5 * k));
    const std::string x = format_number(s.x[hit->index], 6), y = format_number(s.y[hit->index], 6);
    const std::string& xl = shown.x.label, &yl = shown.y.label;
    const std::string& name = series_name(s);
    ImGui::SetTooltip("%s\n%s = %s\n%s = %s", name.empty() ? tr("(unlabelled series)") : name.c_str(),
                      xl.empty() ? "x" : xl.c_str(), x.c_str(), yl.empty() ? "y" : yl.c_str(), y.c_str());
}

// [SECTION] Context menu --------------------------------------------------------------------

// "/home/me/talk/invariance_vs_delta.png": where a file went, absolute so the user can find it.
std::string shown_path(const std::string& path) {
    std::error_code ec;
    const std::filesystem::path abs = std::filesystem::absolute(path, ec);
    return ec ? path : abs.string();
}

// Exports show what is on screen without the series switched off: plot_as_shown(), not the
// screen's faded plot.
void context_menu(PlotView& view, const Plot& plot, ImVec2 base) {
    if (!ImGui::BeginPopup("plot menu")) return;
    const Plot shown = plot_as_shown(plot, view);
    const int w = static_cast<int>(base.x), h = static_cast<int>(base.y);
    const std::string& dir = view.export_dir.empty() ? export_folder() : view.export_dir;
    const auto saved = [&](const std::string& path, const std::string& error, const std::string& what) {
        view.message = error.empty() ? tr("Saved {0}", shown_path(path) + what) : tr("⚠ Not saved: {0}", error);
    };
    if (ImGui::BeginMenu(tr("Save PNG"))) {
        for (int scale = 1; scale <= kMaxExportScale; ++scale) {
            const std::string label = std::to_string(scale) + "×   " + std::to_string(w * scale) + " × " +
                                      std::to_string(h * scale) + " px";
            if (ImGui::MenuItem(label.c_str())) {
                const std::string path = unused_file_name(figure_path(dir, shown.name, "png"));
                saved(path, save_plot_png(shown, w, h, scale, path, IfExists::Refuse),
                      " (" + std::to_string(w * scale) + " × " + std::to_string(h * scale) + " px)");
            }
        }
        ImGui::EndMenu();
    }
    if (ImGui::MenuItem(tr("Save SVG"))) {
        const std::string path = unused_file_name(figure_path(dir, shown.name, "svg"));
        saved(path, save_text_file(path, to_svg(shown, w, h), IfExists::Refuse), "");
    }
    if (ImGui::MenuItem(tr("Save CSV"))) {
        const std::string path = unused_file_name(figure_path(dir, shown.name, "csv"));
        saved(path, save_text_file(path, to_csv(shown), IfExists::Refuse), "");
    }
    if (ImGui::MenuItem(tr("Copy values (CSV)"))) {
        const std::string csv = to_csv(shown);
        ImGui::SetClipboardText(csv.c_str());
        view.message = tr("Copied the values of the shown series to the clipboard (CSV: series, x, y)");
    }
    ImGui::Separator();
    if (ImGui::MenuItem(tr("Reset view"), tr("double-click"), false, view.range.x || view.range.y)) view.range = {};
    if (ImGui::MenuItem(tr("Show all series"), nullptr, false, !view.hidden.empty())) view.hidden.clear();
    ImGui::Separator();
    ImGui::TextDisabled(tr("Files go to %s  (File ▸ Export folder…)"), shown_path(dir.empty() ? "." : dir).c_str());
    ImGui::EndPopup();
}

// The last export's result under the figure, until the × dismisses it.
void message_line(PlotView& view) {
    if (view.message.empty()) return;
    const bool warning = view.message.rfind("⚠", 0) == 0;
    if (ImGui::SmallButton("×")) view.message.clear();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("Dismiss this message"));

    ImGui::SameLine();
    if (warning) {
        ImGui::TextColored(kWarnText, "%s", view.message.c_str());
    } else {
        ImGui::TextUnformatted(view.message.c_str());
    }
}

}  // namespace

// [SECTION] draw_plot -----------------------------------------------------------------------

void draw_plot(PlotView& view, const Plot& plot, const Fonts& fonts, ImVec2 size) {
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    if (size.x <= 0.0f) size.x = avail.x;
    if (size.y <= 0.0f) size.y = avail.y;
    const float message_h = view.message.empty() ? 0.0f : ImGui::GetFrameHeightWithSpacing();
    // Never smaller than kMinFigure*Em: the window around it scrolls instead.
    const float em = fonts.regular->FontSize;
    const float min_w = view.compact ? kMinCompactWidthEm : kMinFigureWidthEm;
    const float min_h = view.compact ? kMinCompactHeightEm : kMinFigureHeightEm;
    const ImVec2 fig(std::max(size.x, min_w * em), std::max(size.y - message_h, min_h * em));

    ImGui::PushID(&view);
    note_exportable(plot.name);   // its right-click saves it (plot_export.hpp)
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("figure", fig, ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight);
    ImGui::SetItemUsingMouseWheel();   // the wheel zooms the plot instead of scrolling the window

    ScreenFigure f = screen_figure(fonts);
    if (view.compact) f.style.pad *= 0.4;   // a chart in a panel: the panel's own margins suffice
    const Rect outer{origin.x, origin.y, origin.x + fig.x, origin.y + fig.y};
    Plot unlabelled;
    if (view.compact) {
        unlabelled = plot;
        unlabelled.title.clear();
        unlabelled.x.label.clear();
        unlabelled.y.label.clear();
    }
    const Plot& on_screen = view.compact ? unlabelled : plot;
    ScreenLayout s = layout_screen(on_screen, view, outer, f.style);
    bool opens_menu = false;
    if (interact(view, on_screen, s.layout, opens_menu)) s = layout_screen(on_screen, view, outer, f.style);

    ImDrawList& dl = *ImGui::GetWindowDrawList();
    if (text_recording()) {
        record_figure_texts(s.layout, f.fonts, dl._ClipRectStack.back(), plot.name);
        record_figure_data(s.shown, s.layout, dl._ClipRectStack.back(), f.k);
    }
    dl.PushClipRect(origin, ImVec2(origin.x + fig.x, origin.y + fig.y), true);
    draw_figure(dl, s.shown, s.layout, f.style, f.k, f.fonts, f.colors);
    if (view.box_zooming) {
        const ImVec4 sel = ImGui::GetStyle().Colors[ImGuiCol_NavHighlight];
        dl.AddRectFilled(view.box_from, ImGui::GetIO().MousePos, ImGui::ColorConvertFloat4ToU32(ImVec4(sel.x, sel.y, sel.z, 0.15f)));
        dl.AddRect(view.box_from, ImGui::GetIO().MousePos, ImGui::ColorConvertFloat4ToU32(sel), 0.0f, 0, 1.5f);
    }
    hover_tooltip(dl, s.shown, s.layout, f.k, f.colors.text);
    dl.PopClipRect();

    if (opens_menu) ImGui::OpenPopup("plot menu");
    // Exports are laid out at 1× in the size the figure has on screen, in core's default style.
    context_menu(view, plot, ImVec2(std::round(fig.x / static_cast<float>(f.k)), std::round(fig.y / static_cast<float>(f.k))));
    message_line(view);
    ImGui::PopID();
}

}  // namespace normlab::ui
