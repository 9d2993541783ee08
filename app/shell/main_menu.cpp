// The main menu bar and its pop-ups.
//
// [SECTION] Keyboard shortcuts (app-wide)
// [SECTION] Menus
// [SECTION] Pop-ups: About, This lab, Keyboard shortcuts
#include "main_menu.hpp"

#include "input_queue.hpp"
#include "lecture.hpp"
#include "lecture_writer.hpp"
#include "plot_export.hpp"
#include "plot_view.hpp"
#include "session_io.hpp"
#include "ui_util.hpp"
#include "web_page.hpp"

#include <normlab/base/i18n.hpp>
#include <normlab/base/text.hpp>
#include <normlab/base/text_fit.hpp>
#include <normlab/scene/scene_plots.hpp>

#define GLFW_INCLUDE_NONE   // key codes only
#include <GLFW/glfw3.h>

#include <algorithm>
#include <string>
#include <vector>

namespace normlab::ui {

namespace {

// Text sizes (View ▸ Text size, Ctrl+= / Ctrl+−): 80 % and 100 % to 250 % of kDefaultFontPx.
constexpr int kFontSizesPx[] = {16, 20, 25, 30, 35, 40, 45, 50};

struct Shortcut {
    const char* keys;
    const char* action;
};

const Shortcut kAppShortcuts[] = {
    {"Ctrl+Q", tr_later("quit")},
    {"F12", tr_later("save a screenshot (PNG) in the current folder")},
    {"Ctrl+=  /  Ctrl+−", tr_later("larger / smaller text")},
    {"Ctrl+1 … Ctrl+9", tr_later("switch to lab 1 … 9 (View ▸ Lab)")},
    {"Ctrl+O  /  Ctrl+S  /  Ctrl+Shift+S", tr_later("open a scene / save it / save it as")},
    {"Ctrl+Z  /  Ctrl+Shift+Z, Ctrl+Y", tr_later("undo / redo the last edit")},
    {"F5  (Esc)", tr_later("presenter view: title, caption, the slide's figures and only its named controls")},
    {"F9", tr_later("show or hide the lab's control panel (hidden by itself in a narrow window)")},
    {"F11", tr_later("full screen, and back")},
    {"F6", tr_later("pointer highlight")},
    {"←  /  →  (Page Up / Down)", tr_later("previous / next slide of the open lecture")},
    {"Home  /  End", tr_later("first / last slide of the open lecture")},
};

// Keyboard navigation (Dear ImGui's, with Space and the arrows kept for the app until a focus
// shows: input_queue.hpp).
const Shortcut kFocusKeys[] = {
    {"Tab  /  Shift+Tab", tr_later("show the keyboard focus, then move it down / up")},
    {"←  ↑  →  ↓", tr_later("move the focus while it shows")},
    {"Space  /  Enter", tr_later("press the focused control / type a value into it")},
    {"Esc", tr_later("close the menu or dialog; hide the focus; then leave presenter view")},
    {"Alt", tr_later("to the menu bar and back")},
};

// [SECTION] Keyboard shortcuts (app-wide) ---------------------------------------------------

// F9, View ▸ Control panel: shows the panels if they are hidden now (by the user or because the
// window is narrow), hides them otherwise.
void toggle_controls(AppUi& ui) {
    ui.controls = ui.controls_collapsed ? AppUi::Controls::Shown : AppUi::Controls::Hidden;
}

// Ctrl+key, with or without Shift (Ctrl++ is Ctrl+Shift+= on many layouts): each press
// (input_queue.hpp), each repeat of a held key too.
int ctrl_presses(int key) { return key_presses(key, kCtrl, true) + key_presses(key, kCtrl | kShift, true); }

void handle_shortcuts(AppUi& ui) {
    if (key_presses(GLFW_KEY_Q, kCtrl) > 0) ui.quit = true;
    if (key_presses(GLFW_KEY_F12, 0) > 0) ui.save_screenshot = true;
    if (key_presses(GLFW_KEY_F9, 0) > 0) toggle_controls(ui);
    for (int i = 0; i < kLabCount && i < 9; ++i)
        if (key_presses(GLFW_KEY_1 + i, kCtrl) > 0) ui.select_lab = i;
    for (int n = ctrl_presses(GLFW_KEY_EQUAL) + ctrl_presses(GLFW_KEY_KP_ADD); n > 0; --n) {
        for (int px : kFontSizesPx)
            if (px > ui.font_px) {
                ui.font_px = px;
                break;
            }
    }
    for (int n = ctrl_presses(GLFW_KEY_MINUS) + ctrl_presses(GLFW_KEY_KP_SUBTRACT); n > 0; --n) {
        for (auto it = std::rbegin(kFontSizesPx); it != std::rend(kFontSizesPx); ++it)
            if (*it < ui.font_px) {
                ui.font_px = *it;
                break;
            }
    }
}

// [SECTION] Menus ---------------------------------------------------------------------------

namespace {

// File ▸ Export folder…, Export all figures of this lab, … of every lab: into export_folder(),
// never over a file (export_figures), the status line naming the folder and the count.
void draw_export_items(AppContext& ctx) {
    AppUi& ui = ctx.app;
    const std::string folder = export_folder().empty() ? tr("current folder") : export_folder();
    const std::string choose = tr("Export folder…  ({0})", folder);
    if (ImGui::MenuItem(choose.c_str()) && ctx.io != nullptr) ctx.io->open_request = SessionIo::Dialog::ExportFolder;
    const Lab& lab = kLabs[ui.lab];
    const bool idle = ui.export_job == nullptr;
    if (ImGui::MenuItem(tr("Export all figures of this lab"), nullptr, false, lab.plots != nullptr && idle))
        ui.export_job = std::make_shared<FigureExport>(lab.plots(ctx, ctx.uis), export_folder(), 2, lab_tables(ctx.session, lab.id));
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", tr("Every figure of the lab on screen as PNG (2×), SVG and CSV, its tables as SVG, CSV, "
                                "Markdown and LaTeX, named after them"));
    if (ImGui::MenuItem(tr("Export all figures of every lab"), nullptr, false, idle)) {
        std::vector<Plot> all;
        std::vector<Table> tables;
        for (int i = 0; i < kLabCount; ++i) {
            if (kLabs[i].plots != nullptr)
                for (Plot& p : kLabs[i].plots(ctx, ctx.uis)) all.push_back(std::move(p));
            for (Table& t : lab_tables(ctx.session, kLabs[i].id)) tables.push_back(std::move(t));
        }
        ui.export_job = std::make_shared<FigureExport>(std::move(all), export_folder(), 2, std::move(tables));
    }
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", tr("Every lab's figures as they are on screen now, PNG (2×), SVG and CSV; the tables as "
                                "SVG, CSV, Markdown and LaTeX"));
}

// View ▸ Language: each language in its own name; the choice applies between frames (the fonts
// may need new glyphs) and is remembered (language.hpp).
void draw_language_menu(AppUi& ui) {
    if (!ImGui::BeginMenu(tr("Language"))) return;
    for (const Language lang : kLanguages)
        if (ImGui::MenuItem(language_name(lang), nullptr, current_language() == lang)) ui.select_language = static_cast<int>(lang);
    ImGui::EndMenu();
}

}  // namespace

void draw_menus(AppContext& ctx) {
    AppUi& ui = ctx.app;
    LabUis& uis = ctx.uis;
    if (ImGui::BeginMenu(tr("File"))) {
        draw_file_menu_items(ctx);
#ifdef __EMSCRIPTEN__
        draw_page_file_items(ctx);   // web_page.hpp: the user's disk, downloads, a link
#endif
        if (ImGui::MenuItem(tr("Save screenshot"), "F12")) ui.save_screenshot = true;
        draw_export_items(ctx);
#ifndef __EMSCRIPTEN__   // a page is closed by its browser tab
        ImGui::Separator();
        if (ImGui::MenuItem(tr("Quit"), "Ctrl+Q")) ui.quit = true;
#endif
        ImGui::EndMenu();
    }
    draw_edit_menu(ctx);
    if (ImGui::BeginMenu(tr("View"))) {
        if (ImGui::BeginMenu(tr("Lab"))) {
            for (int i = 0; i < kLabCount; ++i) {
                const std::string key = i < 9 ? "Ctrl+" + std::to_string(i + 1) : "";
                if (ImGui::MenuItem(tr(kLabs[i].tab), key.c_str(), ui.lab == i)) ui.select_lab = i;
            }
            ImGui::EndMenu();
        }
        ImGui::Separator();
        if (ImGui::MenuItem(tr("Control panel"), "F9", !ui.controls_collapsed)) toggle_controls(ui);
        if (ImGui::MenuItem(tr("Control panel: hide when narrow"), nullptr, ui.controls == AppUi::Controls::Auto))
            ui.controls = AppUi::Controls::Auto;
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip(tr("Below %.0f text heights of width the panels start hidden (a projector, a small laptop)"),
                              static_cast<double>(kControlsMinEm));
        ImGui::Separator();
        ImGui::MenuItem(tr("Explorer: outlines at δ = 1"), nullptr, &uis.explorer.show_reference);
        ImGui::MenuItem(tr("Explorer: values on bars"), nullptr, &uis.explorer.value_labels);
        ImGui::Separator();
        if (ImGui::BeginMenu(tr("Text size"))) {
            for (int px : kFontSizesPx) {
                const std::string label = std::to_string(100 * px / kDefaultFontPx) + " %  (" + std::to_string(px) + " px" +
                                          (px == kDefaultFontPx ? std::string(", ") + tr("default") + ")" : ")");
                if (ImGui::MenuItem(label.c_str(), nullptr, ui.font_px == px)) ui.font_px = px;
            }
            ImGui::EndMenu();
        }
        if (ImGui::BeginMenu(tr("Theme"))) {
            if (ImGui::MenuItem(tr("Light"), nullptr, !ui.dark && !ui.projector)) ui.dark = ui.projector = false;
            if (ImGui::MenuItem(tr("Dark"), nullptr, ui.dark)) {
                ui.dark = true;
                ui.projector = false;
            }
            if (ImGui::MenuItem(tr("Projector"), nullptr, ui.projector)) {
                ui.projector = true;
                ui.dark = false;
                ui.font_px = std::max(ui.font_px, kProjectorFontPx);
            }
            if (ImGui::IsItemHovered())
                ImGui::SetTooltip("%s", tr("Black on white, thicker lines and borders, text at 150 % or more: for a lecture hall"));
            ImGui::EndMenu();
        }
        draw_language_menu(ui);
        ImGui::Separator();
        draw_lecture_menu_items(ctx);
        ImGui::EndMenu();
    }
    draw_lecture_writer_menu(ctx);
    if (ImGui::BeginMenu(tr("Help"))) {
        if (ImGui::MenuItem(tr("This lab: equations and code"))) ui.open_lab_help = true;
        if (ImGui::MenuItem(tr("Keyboard shortcuts"))) ui.open_shortcuts = true;
        ImGui::Separator();
        if (ImGui::MenuItem(tr("About NormLab"))) ui.open_about = true;
        ImGui::EndMenu();
    }
}

// `text` cut (at a UTF-8 character) with "…" to fit `width` pixels: a binary search, so a 15 MB
// status costs a few measurements of 4 KB (core's fit_to_width).
std::string fit_text(const std::string& text, float width) {
    return fit_to_width(text, width, [](std::string_view s) { return ImGui::CalcTextSize(s.data(), s.data() + s.size()).x; });
}

// Right-aligned: warnings first (what cannot be done: the autosave, GL, fonts), then the last
// status message; what does not fit between the menus and the bar's edge ends in "…", and
// the whole text shows on hover.
void draw_status(AppUi& ui, const AppInfo& info);

// An export running over frames (FigureExport): one figure written per frame, its progress as a
// bar at the right of the menu bar; when it is done its message becomes the status line.
bool step_export(AppUi& ui) {
    if (ui.export_job == nullptr) return false;
    ui.export_job->step();
    ui.animate = true;
    if (ui.export_job->done()) {
        ui.status = ui.export_job->status();
        ui.export_job.reset();
        return false;
    }
    const float width = 14.0f * ImGui::GetFontSize(), pad = ImGui::GetStyle().WindowPadding.x;
    const std::string label = tr("Exporting {0} / {1} figures", ui.export_job->written(), ui.export_job->total());
    ImGui::SetCursorPosX(ImGui::GetWindowWidth() - width - pad);
    ImGui::ProgressBar(static_cast<float>(ui.export_job->written()) / static_cast<float>(ui.export_job->total()),
                       ImVec2(width, 0.0f), label.c_str());
    return true;
}

void draw_status(AppUi& ui, const AppInfo& info) {
    std::string warning;
    if (!ui.autosave_warning.empty()) warning += "⚠ " + ui.autosave_warning + "   ";
#ifdef __EMSCRIPTEN__   // the page (web_page.hpp)
    warning += std::string("⚠ ") + tr("GPU lab: WebGL2 has no compute shaders (CPU side only)") + "   ";
    const std::string gl = "WebGL2";
#else
    if (!info.has_gl43) warning += "⚠ " + tr("GPU lab needs OpenGL 4.3 (this context: {0})", info.gl_version) + "   ";
    const std::string gl = "OpenGL " + info.gl_version;
#endif
    if (!info.font_warning.empty()) warning += "⚠ " + info.font_warning + "   ";
    const std::string text = warning + (ui.status.empty() ? gl + " · " + info.renderer : ui.status);
    const float pad = ImGui::GetStyle().WindowPadding.x;
    const float room = ImGui::GetWindowWidth() - ImGui::GetCursorPosX() - pad;
    const std::string shown = fit_text(text, std::max(room, 0.0f));
    ImGui::SetCursorPosX(ImGui::GetWindowWidth() - ImGui::CalcTextSize(shown.c_str()).x - pad);
    if (!warning.empty()) {
        ImGui::TextColored(kWarnText, "%s", shown.c_str());
    } else {
        ImGui::TextDisabled("%s", shown.c_str());
    }
    if (shown != text && ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 40.0f);
        ImGui::TextUnformatted(cap_shown(text).c_str());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
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
    if (ImGui::Button(tr("Close")) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) ImGui::CloseCurrentPopup();
    ImGui::EndPopup();
}

// One heading of Help ▸ Keyboard shortcuts and its rows.
struct KeySection {
    std::string heading;
    std::vector<KeyHelp> rows;
};

// A button label as a row of the list, which reads in lower case: "New batch" → "new batch";
// names stay as they are ("LayerNorm ⇄ RMSNorm", "W = identity").
std::string as_action(std::string label) {
    const std::size_t word = std::min(label.find(' '), label.size());
    const auto upper = [](char c) { return c >= 'A' && c <= 'Z'; };
    if (word >= 2 && upper(label[0]) && label[1] >= 'a' && label[1] <= 'z' &&
        std::none_of(label.begin() + 1, label.begin() + static_cast<std::ptrdiff_t>(word), upper))
        label[0] = static_cast<char>(label[0] - 'A' + 'a');
    return label;
}

// Everywhere, then each lab with keys under its tab's name (from Lab::key_help, the tables the
// labs' keys are handled from), then the plot gestures.
std::vector<KeySection> key_sections() {
    std::vector<KeySection> sections;
    KeySection& app = sections.emplace_back(KeySection{tr("Everywhere"), {}});
    for (const Shortcut& k : kAppShortcuts) app.rows.push_back({k.keys, tr(k.action)});
    KeySection& focus = sections.emplace_back(KeySection{tr("Keyboard focus"), {}});
    for (const Shortcut& k : kFocusKeys) focus.rows.push_back({k.keys, tr(k.action)});
    for (int i = 0; i < kLabCount; ++i)
        if (std::vector<KeyHelp> keys = kLabs[i].key_help(); !keys.empty()) {
            KeySection& lab = sections.emplace_back(KeySection{tr(kLabs[i].tab), std::move(keys)});
            for (KeyHelp& k : lab.rows) k.action = as_action(k.action);
        }
    KeySection& plot = sections.emplace_back(KeySection{tr("On a plot"), {}});
    for (const PlotGesture& g : kPlotGestures) plot.rows.push_back({g.input, g.action});
    return sections;
}

// `intro`, then the sections in two aligned columns, keys then what they do, in a child that
// scrolls once the list is taller than the screen leaves room for; the second column and the
// intro wrap within the screen's width (text at 250 % on a laptop screen).
void draw_key_list(const char* intro, const std::vector<KeySection>& sections) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const ImVec2 screen = ImGui::GetMainViewport()->WorkSize;
    float keys_w = 0.0f, action_w = 0.0f;
    for (const KeySection& section : sections)
        for (const KeyHelp& k : section.rows) {
            keys_w = std::max(keys_w, ImGui::CalcTextSize(k.keys.c_str()).x);
            action_w = std::max(action_w, ImGui::CalcTextSize(k.action.c_str()).x);
        }
    const float gap = 2.0f * ImGui::GetFontSize();
    const float max_w = 0.9f * screen.x - 2.0f * style.WindowPadding.x;
    const float scroll_w = style.ScrollbarSize + style.ItemSpacing.x;
    const float wrap_w = std::max(10.0f * ImGui::GetFontSize(), std::min(action_w, max_w - keys_w - gap - scroll_w));
    const float list_w = keys_w + gap + wrap_w + scroll_w;

    // Height: the list's own, up to what the screen has left after the title bar, the intro, the
    // Close button and the paddings.
    const float line = ImGui::GetTextLineHeightWithSpacing();
    float content_h = 0.0f;
    for (const KeySection& section : sections) {
        content_h += line + style.ItemSpacing.y;   // the heading, and Spacing() between sections
        for (const KeyHelp& k : section.rows)
            content_h += ImGui::CalcTextSize(k.action.c_str(), nullptr, false, wrap_w).y + style.ItemSpacing.y;
    }
    const float intro_h = ImGui::CalcTextSize(intro, nullptr, false, list_w).y;
    const float chrome = 2.0f * ImGui::GetFrameHeight() + intro_h + 2.0f * style.WindowPadding.y + 6.0f * style.ItemSpacing.y;
    const float max_h = std::max(5.0f * line, 0.95f * screen.y - chrome);

    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + list_w);
    ImGui::TextDisabled("%s", intro);
    ImGui::PopTextWrapPos();
    ImGui::Separator();
    ImGui::BeginChild("keys", ImVec2(list_w, std::min(content_h, max_h)));
    const float action_x = ImGui::GetCursorPosX() + keys_w + gap;
    ImGui::PushTextWrapPos(action_x + wrap_w);
    for (std::size_t i = 0; i < sections.size(); ++i) {
        if (i > 0) ImGui::Spacing();
        ImGui::TextDisabled("%s", sections[i].heading.c_str());
        for (const KeyHelp& k : sections[i].rows) {
            ImGui::TextUnformatted(k.keys.c_str());
            ImGui::SameLine(action_x);
            ImGui::TextUnformatted(k.action.c_str());
        }
    }
    ImGui::PopTextWrapPos();
    ImGui::EndChild();
}

}  // namespace

void draw_popups(AppContext& ctx) {
    draw_lecture_writer(ctx);
    draw_session_dialogs(ctx);
    AppUi& ui = ctx.app;
    const LabInfo& lab = *kLabs[ui.lab].info;
    if (begin_popup(tr("About NormLab"), ui.open_about)) {
        ImGui::TextUnformatted(tr("NormLab {0}: LayerNorm vs RMSNorm, hands-on.", NORMLAB_VERSION).c_str());
        ImGui::Spacing();
        ImGui::TextUnformatted(
            tr("Based on: B. Zhang and R. Sennrich, Root Mean Square Layer Normalization, NeurIPS 2019.\n"
               "Data: Optical Recognition of Handwritten Digits data set, E. Alpaydin & C. Kaynak,\n"
               "      UCI Machine Learning Repository, CC BY 4.0.\n"
               "Built with Dear ImGui {0} (MIT), GLFW (zlib), Eigen (MPL 2.0),\n"
               "libepoxy (MIT), stb_image_write (public domain) and the DejaVu fonts (free licence).",
               IMGUI_VERSION).c_str());

        end_popup();
    }
    if (begin_popup(tr("This lab: equations and code"), ui.open_lab_help)) {
        ImGui::TextUnformatted(tr(lab.title));
        ImGui::Separator();
        ImGui::TextUnformatted(tr(lab.equations));
        ImGui::Spacing();
        ImGui::TextDisabled("%s", tr("Computed by"));
        ImGui::TextUnformatted(lab.computed_by);   // code names: as they are
        end_popup();
    }
    if (begin_popup(tr("Keyboard shortcuts"), ui.open_shortcuts)) {
        draw_key_list(tr("A lab's keys act while its tab is on screen and no text field has the keyboard."), key_sections());
        end_popup();
    }
}

void draw_main_menu(AppContext& ctx) {
    handle_shortcuts(ctx.app);
    if (ctx.app.presenter) return;   // presenter view: the slide's header takes the menu bar's place
    if (ImGui::BeginMainMenuBar()) {
        draw_menus(ctx);
        if (!step_export(ctx.app)) draw_status(ctx.app, ctx.info);
        ImGui::EndMainMenuBar();
    }
}

}  // namespace normlab::ui
