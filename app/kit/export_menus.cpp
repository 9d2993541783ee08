// The right-click menus that save what the user sees (a figure drawn by its own widget, a table)
// into the export folder, and the note of every figure so offered (see export_menus.hpp).
#include "export_menus.hpp"

#include "plot_export.hpp"

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
        const std::string label = std::string("Save ") + (ext[0] == 'p' ? "PNG (2×)" : ext[0] == 's' ? "SVG" : "CSV");
        if (!ImGui::MenuItem(label.c_str())) continue;
        const Plot plot = figure();
        const std::string path = unused_file_name(figure_path(export_folder(), plot.name, ext));
        const std::string error =
            ext[0] == 'p' ? save_plot_png(plot, kDefaultFigureWidth, kDefaultFigureHeight, 2, path, IfExists::Refuse)
                          : save_text_file(path, ext[0] == 's' ? to_svg(plot, kDefaultFigureWidth, kDefaultFigureHeight) : to_csv(plot),
                                           IfExists::Refuse);
        status = error.empty() ? "Saved " + path : "⚠ Not saved: " + error;
    }
    ImGui::Separator();
    ImGui::TextDisabled("Files go to %s  (File ▸ Export folder…)", export_folder().empty() ? "." : export_folder().c_str());
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
    static constexpr Format kFormats[] = {{"Save SVG", "svg", table_to_svg},
                                          {"Save CSV", "csv", table_to_csv},
                                          {"Save Markdown", "md", table_to_markdown},
                                          {"Save LaTeX (booktabs)", "tex", table_to_latex}};
    std::string status;
    for (const Format& f : kFormats) {
        if (!ImGui::MenuItem(f.label)) continue;
        std::string saved;
        for (const Table& t : tables()) {
            const std::string path = unused_file_name(figure_path(export_folder(), t.name, f.ext));
            if (const std::string error = save_text_file(path, f.write(t), IfExists::Refuse); !error.empty())
                return "⚠ Not saved: " + error;
            saved += (saved.empty() ? "" : ", ") + path;
        }
        status = "Saved " + saved;
    }
    ImGui::Separator();
    ImGui::TextDisabled("Files go to %s  (File ▸ Export folder…)", export_folder().empty() ? "." : export_folder().c_str());
    ImGui::EndPopup();
    return status;
}

}  // namespace normlab::ui
