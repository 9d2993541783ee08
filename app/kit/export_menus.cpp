// The right-click menus that save what the user sees (a figure drawn by its own widget, a table)
// into the export folder, and the note of every figure so offered (see export_menus.hpp).
#include "export_menus.hpp"

#include "plot_export.hpp"

#include <normlab/base/i18n.hpp>

#include <imgui.h>

#include <optional>
#include <set>

namespace normlab::ui {

namespace {

std::optional<std::set<std::string>>& export_notes() {
    static std::optional<std::set<std::string>> notes;   // process-wide: one --check-figures run
    return notes;
}

}  // namespace

void start_export_notes() { export_notes().emplace(); }

void note_exportable(const std::string& name) {
    if (export_notes()) export_notes()->insert(name);
}

std::vector<std::string> exportable_noted() {
    return export_notes() ? std::vector<std::string>(export_notes()->begin(), export_notes()->end())
                          : std::vector<std::string>{};
}

std::string figure_context_menu(const char* id, const std::string& name, const std::function<Plot()>& figure) {
    note_exportable(name);
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenOverlapped) && ImGui::IsMouseReleased(ImGuiMouseButton_Right))
        ImGui::OpenPopup(id);
    if (!ImGui::BeginPopup(id)) return {};
    std::string status;
    for (const char* ext : {"png", "svg", "csv"}) {
        if (!ImGui::MenuItem(ext[0] == 'p' ? tr("Save PNG (2×)") : ext[0] == 's' ? tr("Save SVG") : tr("Save CSV"))) continue;
        const Plot plot = figure();
        const std::string path = unused_file_name(figure_path(export_folder(), plot.name, ext));
        const std::string error =
            ext[0] == 'p' ? save_plot_png(plot, kDefaultFigureWidth, kDefaultFigureHeight, 2, path, IfExists::Refuse)
                          : save_text_file(path, ext[0] == 's' ? to_svg(plot, kDefaultFigureWidth, kDefaultFigureHeight) : to_csv(plot),
                                           IfExists::Refuse);
        status = error.empty() ? tr("Saved {0}", path) : tr("⚠ Not saved: {0}", error);
    }
    ImGui::Separator();
    ImGui::TextDisabled(tr("Files go to %s  (File ▸ Export folder…)"), export_folder().empty() ? "." : export_folder().c_str());
    ImGui::EndPopup();
    return status;
}

std::string table_context_menu(const char* id, const std::vector<std::string>& names,
                               const std::function<std::vector<Table>()>& tables) {
    for (const std::string& n : names) note_exportable(n);
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenOverlapped) && ImGui::IsMouseReleased(ImGuiMouseButton_Right))
        ImGui::OpenPopup(id);
    if (!ImGui::BeginPopup(id)) return {};
    struct Format {
        const char* label;
        const char* ext;
        std::string (*write)(const Table&);
    };
    static constexpr Format kFormats[] = {{tr_later("Save SVG"), "svg", table_to_svg},
                                          {tr_later("Save CSV"), "csv", table_to_csv},
                                          {tr_later("Save Markdown"), "md", table_to_markdown},
                                          {tr_later("Save LaTeX (booktabs)"), "tex", table_to_latex}};
    std::string status;
    for (const Format& f : kFormats) {
        if (!ImGui::MenuItem(tr(f.label))) continue;
        std::string saved;
        for (const Table& t : tables()) {
            const std::string path = unused_file_name(figure_path(export_folder(), t.name, f.ext));
            if (const std::string error = save_text_file(path, f.write(t), IfExists::Refuse); !error.empty())
                return tr("⚠ Not saved: {0}", error);
            saved += (saved.empty() ? "" : ", ") + path;
        }
        status = tr("Saved {0}", saved);
    }
    ImGui::Separator();
    ImGui::TextDisabled(tr("Files go to %s  (File ▸ Export folder…)"), export_folder().empty() ? "." : export_folder().c_str());
    ImGui::EndPopup();
    return status;
}

}  // namespace normlab::ui
