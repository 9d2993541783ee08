// The main menu bar and its pop-ups.
//
// [SECTION] Keyboard shortcuts (app-wide)
// [SECTION] Menus
// [SECTION] Pop-ups: About, This lab, Keyboard shortcuts
#include "main_menu.hpp"

#include "lecture.hpp"
#include "plot_export.hpp"
#include "plot_view.hpp"
#include "session_io.hpp"

#define GLFW_INCLUDE_NONE   // key codes only
#include <GLFW/glfw3.h>

#include <algorithm>
#include <string>

namespace normlab::ui {

namespace {

// Text sizes (View ▸ Text size, Ctrl+= / Ctrl+−): 80 % and 100 % to 250 % of kDefaultFontPx.
constexpr int kFontSizesPx[] = {16, 20, 25, 30, 35, 40, 45, 50};

struct Shortcut {
    const char* keys;
    const char* action;
};

const Shortcut kAppShortcuts[] = {
    {"Ctrl+Q", "quit"},
    {"F12", "save a screenshot (PNG) in the current folder"},
    {"Ctrl+=  /  Ctrl+−", "larger / smaller text"},
    {"Ctrl+1 … Ctrl+9", "switch to lab 1 … 9 (View ▸ Lab)"},
    {"Ctrl+O  /  Ctrl+S  /  Ctrl+Shift+S", "open a scene / save it / save it as"},
    {"Ctrl+Z  /  Ctrl+Shift+Z, Ctrl+Y", "undo / redo the last edit"},
    {"F5  (Esc)", "presenter view: figures and captions, no editing panels"},
    {"F11", "full screen, and back"},
    {"F6", "pointer highlight"},
    {"←  /  →  (Page Up / Down)", "previous / next slide of the open lecture"},
};

// [SECTION] Keyboard shortcuts (app-wide) ---------------------------------------------------

void handle_shortcuts(AppUi& ui) {
    const ImGuiIO& io = ImGui::GetIO();
    if (io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_Q, false)) ui.quit = true;
    if (ImGui::IsKeyPressed(GLFW_KEY_F12, false)) ui.save_screenshot = true;
    for (int i = 0; i < kLabCount && i < 9; ++i)
        if (io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_1 + i, false)) ui.select_lab = i;
    if (io.KeyCtrl && (ImGui::IsKeyPressed(GLFW_KEY_EQUAL, false) || ImGui::IsKeyPressed(GLFW_KEY_KP_ADD, false))) {
        for (int px : kFontSizesPx)
            if (px > ui.font_px) {
                ui.font_px = px;
                break;
            }
    }
    if (io.KeyCtrl && (ImGui::IsKeyPressed(GLFW_KEY_MINUS, false) || ImGui::IsKeyPressed(GLFW_KEY_KP_SUBTRACT, false))) {
        for (auto it = std::rbegin(kFontSizesPx); it != std::rend(kFontSizesPx); ++it)
            if (*it < ui.font_px) {
                ui.font_px = *it;
                break;
            }
    }
}

// [SECTION] Menus ---------------------------------------------------------------------------

void draw_menus(LabContext& ctx) {
    AppUi& ui = ctx.app;
    LabUis& uis = ctx.uis;
    if (ImGui::BeginMenu("File")) {
        draw_file_menu_items(ctx);
        if (ImGui::MenuItem("Save screenshot", "F12")) ui.save_screenshot = true;
        const Lab& lab = kLabs[ui.lab];
        const std::string folder = std::string(lab.id) + "-figures";
        const std::string export_all = "Export all figures of this lab  (" + folder + "/)";
        if (ImGui::MenuItem(export_all.c_str(), nullptr, false, lab.plots != nullptr))
            ui.status = export_figures(lab.plots(ctx), folder, 2);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("Every figure of the lab on screen as PNG (2×) and SVG, named after the figures");
        ImGui::Separator();
        if (ImGui::MenuItem("Quit", "Ctrl+Q")) ui.quit = true;
        ImGui::EndMenu();
    }
    draw_edit_menu(ctx);
    if (ImGui::BeginMenu("View")) {
        if (ImGui::BeginMenu("Lab")) {
            for (int i = 0; i < kLabCount; ++i) {
                const std::string key = i < 9 ? "Ctrl+" + std::to_string(i + 1) : "";
                if (ImGui::MenuItem(kLabs[i].tab, key.c_str(), ui.lab == i)) ui.select_lab = i;
            }
            ImGui::EndMenu();
        }
        ImGui::Separator();
        ImGui::MenuItem("Explorer: outlines at δ = 1", nullptr, &uis.explorer.show_reference);
        ImGui::MenuItem("Explorer: values on bars", nullptr, &uis.explorer.value_labels);
        ImGui::Separator();
        if (ImGui::BeginMenu("Text size")) {
            for (int px : kFontSizesPx) {
                const std::string label = std::to_string(100 * px / kDefaultFontPx) + " %  (" + std::to_string(px) + " px" +
                                          (px == kDefaultFontPx ? ", default)" : ")");
                if (ImGui::MenuItem(label.c_str(), nullptr, ui.font_px == px)) ui.font_px = px;
            }
            ImGui::EndMenu();
        }
        if (ImGui::BeginMenu("Theme")) {
            if (ImGui::MenuItem("Light", nullptr, !ui.dark && !ui.projector)) ui.dark = ui.projector = false;
            if (ImGui::MenuItem("Dark", nullptr, ui.dark)) {
                ui.dark = true;
                ui.projector = false;
            }
            if (ImGui::MenuItem("Projector", nullptr, ui.projector)) {
                ui.projector = true;
                ui.dark = false;
                ui.font_px = std::max(ui.font_px, kProjectorFontPx);
            }
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("Black on white, thicker lines and borders, text at 150 %% or more: for a lecture hall");
            ImGui::EndMenu();
        }
        ImGui::Separator();
        draw_lecture_menu_items(ctx);
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Help")) {
        if (ImGui::MenuItem("This lab: equations and code")) ui.open_lab_help = true;
        if (ImGui::MenuItem("Keyboard shortcuts")) ui.open_shortcuts = true;
        ImGui::Separator();
        if (ImGui::MenuItem("About NormLab")) ui.open_about = true;
        ImGui::EndMenu();
    }
}

// Right-aligned: warnings first (what cannot be done), then the last status message.
void draw_status(const AppUi& ui, const AppInfo& info) {
    std::string text;
    if (!info.has_gl43) text += "⚠ GPU lab needs OpenGL 4.3 (this context: " + info.gl_version + ")   ";
    if (!info.font_warning.empty()) text += "⚠ " + info.font_warning + "   ";
    text += ui.status.empty() ? "OpenGL " + info.gl_version + " · " + info.renderer : ui.status;
    const float w = ImGui::CalcTextSize(text.c_str()).x;
    ImGui::SetCursorPosX(std::max(ImGui::GetCursorPosX(), ImGui::GetWindowWidth() - w - ImGui::GetStyle().WindowPadding.x));
    if (!info.has_gl43 || !info.font_warning.empty()) {
        ImGui::TextColored(ImVec4(0.70f, 0.30f, 0.0f, 1.0f), "%s", text.c_str());
    } else {
        ImGui::TextDisabled("%s", text.c_str());
    }
}

// [SECTION] Pop-ups: About, This lab, Keyboard shortcuts ------------------------------------

bool begin_popup(const char* name, bool& open_request) {
    if (open_request) ImGui::OpenPopup(name);
    open_request = false;
    ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    return ImGui::BeginPopupModal(name, nullptr, ImGuiWindowFlags_AlwaysAutoResize);
}

void end_popup() {
    ImGui::Spacing();
    if (ImGui::Button("Close") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
}

}  // namespace

void draw_popups(LabContext& ctx) {
    draw_session_dialogs(ctx);
    AppUi& ui = ctx.app;
    const LabInfo& lab = *kLabs[ui.lab].info;
    if (begin_popup("About NormLab", ui.open_about)) {
        ImGui::Text("NormLab %s: LayerNorm vs RMSNorm, hands-on.", NORMLAB_VERSION);
        ImGui::Spacing();
        ImGui::TextUnformatted(
            "Based on: B. Zhang and R. Sennrich, Root Mean Square Layer Normalization, NeurIPS 2019.\n"
            "Data: Optical Recognition of Handwritten Digits data set, E. Alpaydin & C. Kaynak,\n"
            "      UCI Machine Learning Repository, CC BY 4.0.\n"
            "Built with Dear ImGui " IMGUI_VERSION " (MIT), GLFW (zlib), Eigen (MPL 2.0),\n"
            "libepoxy (MIT), stb_image_write (public domain) and the DejaVu fonts (free licence).");
        end_popup();
    }
    if (begin_popup("This lab: equations and code", ui.open_lab_help)) {
        ImGui::TextUnformatted(lab.title);
        ImGui::Separator();
        ImGui::TextUnformatted(lab.equations);
        ImGui::Spacing();
        ImGui::TextDisabled("Computed by");
        ImGui::TextUnformatted(lab.computed_by);
        end_popup();
    }
    if (begin_popup("Keyboard shortcuts", ui.open_shortcuts)) {
        // Two aligned columns: keys, then what they do.
        float keys_w = 0.0f;
        for (const Shortcut& k : kAppShortcuts) keys_w = std::max(keys_w, ImGui::CalcTextSize(k.keys).x);
        for (const ExplorerAction& a : kExplorerActions) keys_w = std::max(keys_w, ImGui::CalcTextSize(key_name(a).c_str()).x);
        for (const PlotGesture& g : kPlotGestures) keys_w = std::max(keys_w, ImGui::CalcTextSize(g.input).x);
        const float action_x = ImGui::GetCursorPosX() + keys_w + 2.0f * ImGui::GetFontSize();
        const auto row = [action_x](const std::string& keys, const char* action) {
            ImGui::TextUnformatted(keys.c_str());
            ImGui::SameLine(action_x);
            ImGui::TextUnformatted(action);
        };
        ImGui::TextDisabled("Everywhere");
        for (const Shortcut& k : kAppShortcuts) row(k.keys, k.action);
        ImGui::Spacing();
        ImGui::TextDisabled("%s", kExplorerInfo.title);
        for (const ExplorerAction& a : kExplorerActions) row(key_name(a), a.what);
        ImGui::Spacing();
        ImGui::TextDisabled("On a plot");
        for (const PlotGesture& g : kPlotGestures) row(g.input, g.action);
        end_popup();
    }
}

void draw_main_menu(LabContext& ctx) {
    handle_shortcuts(ctx.app);
    if (ctx.app.presenter) return;   // presenter view: the slide's header takes the menu bar's place
    if (ImGui::BeginMainMenuBar()) {
        draw_menus(ctx);
        draw_status(ctx.app, ctx.info);
        ImGui::EndMainMenuBar();
    }
}

}  // namespace normlab::ui
