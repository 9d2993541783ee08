// normlab: the File and Edit menus' session items, their keys, and the dialogs (open, save as,
// outside files, quit): a path field over a folder listing.
#include "session_io.hpp"

#include "session_detail.hpp"


#include "input_queue.hpp"
#include "labs.hpp"
#include "lecture.hpp"
#include "lecture_writer.hpp"
#include "plot_export.hpp"
#include "ui_util.hpp"

#include <normlab/base/data_files.hpp>
#include <normlab/base/input_error.hpp>
#include <normlab/base/file_io.hpp>
#include <normlab/base/i18n.hpp>

#define GLFW_INCLUDE_NONE   // key codes only
#include <GLFW/glfw3.h>
#include <imgui_stdlib.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <system_error>


namespace normlab::ui {

namespace fs = std::filesystem;

using namespace session_detail;

namespace session_detail {

bool shipped_file(const SessionIo& io, const std::string& path) {
    if (io.assets_dir.empty() || path.empty()) return false;
    const fs::path rel = fs::path(read_target(path)).lexically_relative(read_target(io.assets_dir));
    return !rel.empty() && *rel.begin() != "..";
}

bool begin_centered_modal(const char* name, float width_em) {
    const float em = ImGui::GetFontSize();
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(vp->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(std::min(width_em * em, vp->WorkSize.x - 2.0f * em), 0.0f), ImGuiCond_Appearing);
    return ImGui::BeginPopupModal(name, nullptr, ImGuiWindowFlags_NoSavedSettings);
}

}  // namespace session_detail

// [SECTION] Keys and menus ------------------------------------------------------------------

namespace {

// Ctrl+S: the scene's own file, unless it has none or it is one of NormLab's shipped scenes
// (assets/, which the shipped lecture reads): then Save scene as… asks where.
void save_or_ask(AppContext& ctx) {
    const bool shipped = shipped_file(*ctx.io, ctx.io->path);
    if (ctx.io->path.empty() || shipped)
        ctx.io->open_request = SessionIo::Dialog::SaveScene;
    else
        save_to(ctx, ctx.io->path, IfExists::Replace);   // the scene's own file
    if (shipped) ctx.app.status = tr("{0} is one of NormLab's own scenes: save a copy where you choose", file_name(ctx.io->path));
}

}  // namespace

void handle_session_keys(AppContext& ctx) {
    if (ctx.io == nullptr || !keys_free()) return;
    if (key_presses(GLFW_KEY_O, kCtrl) > 0) ctx.io->open_request = SessionIo::Dialog::OpenScene;
    if (key_presses(GLFW_KEY_S, kCtrl | kShift) > 0) ctx.io->open_request = SessionIo::Dialog::SaveScene;
    if (key_presses(GLFW_KEY_S, kCtrl) > 0) save_or_ask(ctx);
    if (ImGui::GetIO().WantTextInput) return;   // a text field has its own undo
    // Each press, and each repeat of a held key at the system's rate, is one step.
    for (int n = key_presses(GLFW_KEY_Z, kCtrl, true); n > 0; --n) undo(ctx);
    for (int n = key_presses(GLFW_KEY_Z, kCtrl | kShift, true) + key_presses(GLFW_KEY_Y, kCtrl, true); n > 0; --n)
        redo(ctx);
}

void draw_file_menu_items(AppContext& ctx) {
    if (ctx.io == nullptr) return;
    SessionIo& io = *ctx.io;
    if (ImGui::MenuItem(tr("Open scene…"), "Ctrl+O")) io.open_request = SessionIo::Dialog::OpenScene;
    const std::string save = io.path.empty() ? std::string(tr("Save scene")) : tr("Save scene  ({0})", file_name(io.path));
    if (ImGui::MenuItem(save.c_str(), "Ctrl+S")) save_or_ask(ctx);
    if (ImGui::MenuItem(tr("Save scene as…"), "Ctrl+Shift+S")) io.open_request = SessionIo::Dialog::SaveScene;
    if (ImGui::BeginMenu(tr("Recent scenes"), !io.recent.empty())) {
        std::string chosen;
        for (const std::string& path : io.recent)
            if (ImGui::MenuItem(path.c_str())) chosen = path;
        ImGui::EndMenu();
        if (!chosen.empty()) open_scene_file(ctx, chosen);
    }
    if (ImGui::MenuItem(tr("Open lecture…"))) io.open_request = SessionIo::Dialog::OpenLecture;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", tr("A list of scenes to step through with ← / → (assets/lectures/); F5: presenter view"));
    ImGui::Separator();
}

void draw_edit_menu(AppContext& ctx) {
    if (ctx.io == nullptr) return;
    if (ImGui::BeginMenu((std::string(tr("Edit")) + "###edit").c_str())) {
        const SessionHistory& h = ctx.io->history;
        std::string u = h.next_undo() == nullptr ? std::string(tr("Undo")) : tr("Undo: {0}", step_text(*h.next_undo()));
        std::string r = h.next_redo() == nullptr ? std::string(tr("Redo")) : tr("Redo: {0}", step_text(*h.next_redo()));
        if (lecture_step_due(ctx, false)) u = tr("Undo: {0}", lecture_step_text(ctx, false));
        if (lecture_step_due(ctx, true)) r = tr("Redo: {0}", lecture_step_text(ctx, true));
        if (ImGui::MenuItem(u.c_str(), "Ctrl+Z", false, can_undo(ctx))) undo(ctx);
        if (ImGui::MenuItem(r.c_str(), "Ctrl+Shift+Z", false, can_redo(ctx))) redo(ctx);
        ImGui::EndMenu();
    }
}

// [SECTION] Dialogs -------------------------------------------------------------------------

namespace {

struct DirEntry {
    std::string name;
    bool dir;
};

// Folders first, then .json files, each sorted; hidden entries left out.
std::vector<DirEntry> list_dir(const std::string& dir) {
    std::vector<DirEntry> out;
    std::error_code ec;
    for (fs::directory_iterator it(dir.empty() ? "." : dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.empty() || name[0] == '.') continue;
        std::error_code type_ec;
        const bool is_dir = it->is_directory(type_ec);
        if (is_dir || it->path().extension() == ".json") out.push_back({name, is_dir});
    }
    std::sort(out.begin(), out.end(), [](const DirEntry& a, const DirEntry& b) {
        return a.dir != b.dir ? a.dir : a.name < b.name;
    });
    return out;
}

// The folder a path field shows: the field itself when it is a folder, else its parent.
std::string folder_of(const std::string& field) {
    const std::string p = expand_path(field);
    std::error_code ec;
    if (p.empty()) return fs::current_path(ec).string();
    if (fs::is_directory(p, ec)) return p;
    const fs::path parent = fs::path(p).parent_path();
    return parent.empty() ? fs::current_path(ec).string() : parent.string();
}

struct DialogText {
    const char* name;     // pop-up title (and ID)
    const char* action;   // the button
    const char* help;
};

DialogText dialog_text(SessionIo::Dialog d) {
    switch (d) {
        case SessionIo::Dialog::OpenScene:
            return {tr("Open scene"), tr("Open"), tr("A NormLab scene (.json): every lab's inputs and settings, and the lab on screen.")};
        case SessionIo::Dialog::SaveScene:
            return {tr("Save scene as"), tr("Save"), tr("Saves every lab's inputs and settings, the lab on screen, a title and a caption.")};
        case SessionIo::Dialog::OpenLecture:
            return {tr("Open lecture"), tr("Open"), tr("A lecture (.json): scenes in order. ← / → step through them; F5: presenter view.")};
        case SessionIo::Dialog::ExportFolder:
            return {tr("Export folder"), tr("Choose"),
                    tr("Where figures and tables go (right-click ▸ Save …, File ▸ Export all figures), for this session; "
                       "created if missing. A file of the same name is never replaced: the new one gets \"-2\", \"-3\", …")};
        case SessionIo::Dialog::SaveLecture:
            return {tr("Place your lecture"), tr("Save"),
                    tr("Where your lecture goes: the slides you add are saved as scenes beside it. NormLab's own lectures "
                       "are kept as they are, so a change to one is made in your copy.")};
        case SessionIo::Dialog::None: break;
    }
    return {"", "", ""};
}

std::string initial_field(const SessionIo& io, SessionIo::Dialog d, const std::string& lecture_file) {
    const std::string shipped = io.assets_dir.empty() ? "" : io.assets_dir + (d == SessionIo::Dialog::OpenLecture ? "/lectures/" : "/scenes/");
    if (d == SessionIo::Dialog::SaveScene) {
        if (!io.path.empty() && !shipped_file(io, io.path)) return io.path;
        std::error_code ec;
        return (fs::current_path(ec) / (io.path.empty() ? "scene.json" : file_name(io.path))).string();
    }
    if (d == SessionIo::Dialog::SaveLecture) {
        const std::string name = lecture_file.empty() ? "lecture.json" : file_name(lecture_file);
#ifdef __EMSCRIPTEN__   // the page's own storage: its current folder's files become downloads (web_page.cpp)
        return "/lectures/" + name;
#else
        std::error_code ec;
        return (fs::current_path(ec) / name).string();
#endif
    }
    if (d == SessionIo::Dialog::OpenScene && !io.path.empty()) return fs::path(io.path).parent_path().string() + "/";
    if (d == SessionIo::Dialog::ExportFolder) {
        std::error_code ec;
        return (export_folder().empty() ? fs::current_path(ec).string() : export_folder()) + "/";
    }
    return shipped;
}

// The file Save scene as… writes: the field, with ".json" added when it has no extension.
std::string save_target(const std::string& field) {
    const std::string path = expand_path(field);
    return path.empty() || fs::path(path).extension() != "" ? path : path + ".json";
}

// Acts on the path in the field; true when the dialog may close. `replace`: the button said
// Replace (the file was there when the user chose).
bool act(AppContext& ctx, SessionIo::Dialog d, bool replace) {
    SessionIo& io = *ctx.io;
    const std::string path = expand_path(io.path_field);
    std::error_code ec;
    if (d == SessionIo::Dialog::ExportFolder) {
        if (path.empty() || (!fs::create_directories(path, ec) && !fs::is_directory(path, ec))) {
            io.dialog_error = tr("Not a folder that can be made: {0}", (path.empty() ? std::string(tr("(empty)")) : path) +
                                                                          (ec ? " (" + ec.message() + ")" : ""));
            return false;
        }
        set_export_folder(absolute_path(path));
        ctx.app.status = tr("Figures go to {0}", export_folder());
        return true;
    }
    if (path.empty() || fs::is_directory(path, ec)) {
        io.dialog_error = tr("Choose a file (type its name, or click one in the list).");
        return false;
    }
    switch (d) {
        case SessionIo::Dialog::OpenScene: io.dialog_error = open_scene_file(ctx, path); break;
        case SessionIo::Dialog::SaveScene:
            if (shipped_file(io, save_target(path))) {
                io.dialog_error = tr("NormLab's own scenes are kept as they are: choose another folder.");
                break;
            }
            io.dialog_error = save_to(ctx, save_target(path), replace ? IfExists::Replace : IfExists::Refuse);
            break;
        case SessionIo::Dialog::OpenLecture: io.dialog_error = open_lecture_file(ctx, path); break;
        case SessionIo::Dialog::SaveLecture:
            io.dialog_error = place_lecture(ctx, save_target(path), replace ? IfExists::Replace : IfExists::Refuse);
            break;
        case SessionIo::Dialog::ExportFolder: case SessionIo::Dialog::None: break;
    }
    return io.dialog_error.empty();
}

void folder_buttons(SessionIo& io) {
    const auto jump = [&](const char* label, const std::string& dir) {
        if (dir.empty()) return;
        ImGui::SameLine();
        if (ImGui::SmallButton(label)) io.path_field = dir + "/";
    };
    ImGui::TextDisabled("%s", tr("Go to:"));
    if (!io.assets_dir.empty()) {
        jump(tr("Shipped scenes"), io.assets_dir + "/scenes");
        jump(tr("Lectures"), io.assets_dir + "/lectures");
    }
    std::error_code ec;
    jump(tr("Current folder"), fs::current_path(ec).string());
    if (const char* home = std::getenv("HOME")) jump(tr("Home"), home);
}

// The folder's sub-folders and .json files: a click fills the field, a double-click on a file acts.
bool folder_list(SessionIo& io, float height) {
    const std::string dir = folder_of(io.path_field);
    ImGui::TextDisabled("%s", dir.c_str());
    bool activate = false;
    ImGui::BeginChild("files", ImVec2(0.0f, height), true);
    if (fs::path(dir).has_parent_path() && dir != "/" && ImGui::Selectable(tr("..  (up one folder)")))
        io.path_field = fs::path(dir).lexically_normal().parent_path().string() + "/";
    for (const DirEntry& e : list_dir(dir)) {
        const std::string full = (fs::path(dir) / e.name).string();
        const std::string label = e.dir ? e.name + "/" : e.name;
        const bool selected = !e.dir && expand_path(io.path_field) == full;
        if (ImGui::Selectable(label.c_str(), selected, ImGuiSelectableFlags_AllowDoubleClick)) {
            io.path_field = e.dir ? full + "/" : full;
            if (!e.dir && ImGui::IsMouseDoubleClicked(0)) activate = true;
        }
    }
    ImGui::EndChild();
    return activate;
}

// A data file's path as the user should judge it: with where it really leads when that is
// elsewhere ("talk/race.csv → /home/u/secret.csv": a link's name alone looks innocent).
std::string shown_target(const std::string& path) {
    const std::string target = read_target(path);
    return target == fs::absolute(path).lexically_normal().string() ? path : path + "  →  " + target;
}

// "Read files outside the scene's folder?": each file with the lab that would read it.
void draw_outside_files_dialog(AppContext& ctx) {
    SessionIo& io = *ctx.io;
    const char* name = tr("Read files outside the scene's folder?");
    if (io.pending_files.empty()) return;
    if (!ImGui::IsPopupOpen(name)) ImGui::OpenPopup(name);
    if (!begin_centered_modal(name, 40.0f)) return;
    const float em = ImGui::GetFontSize();
    push_wrap_at_edge();
    ImGui::TextUnformatted(tr("The scene {0} asks NormLab to read:", io.pending_scene).c_str());
    for (const SceneDataFile& f : io.pending_files) ImGui::BulletText("%s  (%s)", shown_target(f.path).c_str(), f.key.c_str());
    ImGui::TextUnformatted(tr("These lie outside the scene's folder. Read them only if you know what they are; "
                              "otherwise the labs use their own data."));
    ImGui::PopTextWrapPos();
    ImGui::Spacing();
    const bool read = ImGui::Button(tr("Read them"), ImVec2(8.0f * em, 0.0f));
    ImGui::SameLine();
    const bool skip = ImGui::Button(tr("Don't read"), ImVec2(8.0f * em, 0.0f)) ||
                      ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape));
    if (read || skip) {
        const std::size_t n = io.pending_files.size();
        if (read)
            for (const SceneDataFile& f : io.pending_files) {
                agree_to_read(f.path);   // this file as it is now: if it changes into another, it is asked for again
                set_scene_data_file(ctx.session, f.key, f.path);
            }
        const std::string& first = io.pending_files.front().path;
        if (read)
            ctx.app.status = n > 1 ? tr("Reading {0} and {1} more", first, n - 1) : tr("Reading {0}", first);
        else
            ctx.app.status = n > 1 ? tr("Not read: {0} and {1} more; the labs use their own data", first, n - 1)
                                   : tr("Not read: {0}; the labs use their own data", first);
        io.pending_files.clear();
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
}

// Reads the labs tried and the scene's scope refused (a file that leads outside the scene's
// folder now, though it did not when the scene opened), less those the user declined.
void collect_refused_reads(SessionIo& io) {
    for (const OutsideReadError& e : take_refused_reads()) {
        const auto same = [&](const auto& r) { return r.second == e.target(); };
        const bool declined = std::find(io.declined_targets.begin(), io.declined_targets.end(), e.target()) !=
                              io.declined_targets.end();
        if (!declined && std::none_of(io.refused_reads.begin(), io.refused_reads.end(), same))
            io.refused_reads.emplace_back(e.path(), e.target());
    }
}

// "A data file now leads outside the scene's folder": read it (from now on, as it is now) or not.
void draw_refused_reads_dialog(AppContext& ctx) {
    SessionIo& io = *ctx.io;
    collect_refused_reads(io);
    if (io.refused_reads.empty() || !io.pending_files.empty()) return;   // one question at a time
    const char* name = tr("A data file now leads outside the scene's folder###refused_reads");
    if (!ImGui::IsPopupOpen(name)) ImGui::OpenPopup(name);
    if (!begin_centered_modal(name, 40.0f)) return;
    const float em = ImGui::GetFontSize();
    push_wrap_at_edge();
    ImGui::TextUnformatted(tr("Since the scene was opened, a file it reads has changed and leads elsewhere:"));
    for (const auto& [path, target] : io.refused_reads) ImGui::BulletText("%s  →  %s", path.c_str(), target.c_str());
    ImGui::TextUnformatted(tr("NormLab did not read it. Read it only if you know what it is; then do again what "
                              "read it (for example Reset)."));
    ImGui::PopTextWrapPos();
    ImGui::Spacing();
    const bool read = ImGui::Button(tr("Read it###read_refused"), ImVec2(8.0f * em, 0.0f));
    ImGui::SameLine();
    const bool skip = ImGui::Button(tr("Don't read###skip_refused"), ImVec2(8.0f * em, 0.0f)) ||
                      ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape));
    if (read || skip) {
        for (const auto& [path, target] : io.refused_reads) {
            if (read) agree_to_read(path);
            else io.declined_targets.push_back(target);
        }
        const std::string first = io.refused_reads.front().second;
        ctx.app.status = read ? tr("Agreed to read {0}: do again what read it", first) : tr("Not read: {0}", first);
        io.refused_reads.clear();
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
}

// "Quit without saving?": the autosave failed as the user quit.
void draw_quit_dialog(AppContext& ctx) {
    SessionIo& io = *ctx.io;
    const char* name = tr("Quit without saving?");
    if (!io.ask_quit) return;
    if (!ImGui::IsPopupOpen(name)) ImGui::OpenPopup(name);
    if (!begin_centered_modal(name, 40.0f)) return;
    const float em = ImGui::GetFontSize();
    push_wrap_at_edge();
    ImGui::TextUnformatted(tr("The session could not be saved: {0}", io.autosave_error).c_str());
    ImGui::TextUnformatted(tr("Quitting now loses the changes since the last save."));
    ImGui::PopTextWrapPos();
    ImGui::Spacing();
    int choice = 0;
    if (ImGui::Button(tr("Save scene as…"), ImVec2(9.0f * em, 0.0f))) choice = 1;
    ImGui::SameLine();
    if (ImGui::Button(tr("Quit anyway"), ImVec2(9.0f * em, 0.0f))) choice = 2;
    ImGui::SameLine();
    if (ImGui::Button(tr("Cancel"), ImVec2(9.0f * em, 0.0f)) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) choice = 3;
    if (choice != 0) {
        io.ask_quit = false;
        io.quit_confirmed = choice == 2;
        if (choice == 1) io.open_request = SessionIo::Dialog::SaveScene;
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
}

}  // namespace

void draw_session_dialogs(AppContext& ctx) {
    if (ctx.io == nullptr) return;
    SessionIo& io = *ctx.io;
    draw_outside_files_dialog(ctx);
    draw_refused_reads_dialog(ctx);
    draw_quit_dialog(ctx);
    if (io.open_request != SessionIo::Dialog::None) {
        io.dialog = io.open_request;
        io.open_request = SessionIo::Dialog::None;
        io.path_field = initial_field(io, io.dialog, ctx.lecture != nullptr ? ctx.lecture->lecture_file : "");
        io.dialog_error.clear();
        ++io.dialog_opened;
        ImGui::OpenPopup(dialog_text(io.dialog).name);
    }
    if (io.dialog == SessionIo::Dialog::None) return;
    const DialogText text = dialog_text(io.dialog);
    const float em = ImGui::GetFontSize();
    if (!begin_centered_modal(text.name, 46.0f)) {
        io.dialog = SessionIo::Dialog::None;   // closed (Esc is handled below; the title bar has no ×)
        return;
    }
    ImGui::TextWrapped("%s", text.help);
    ImGui::Spacing();
    bool go = false;
    ImGui::SetNextItemWidth(-FLT_MIN);
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    ImGui::PushID(io.dialog_opened);
    if (ImGui::InputTextWithHint("##path", tr("path/to/file.json"), &io.path_field, ImGuiInputTextFlags_EnterReturnsTrue))
        go = true;
    ImGui::PopID();
    folder_buttons(io);
    if (folder_list(io, 11.0f * ImGui::GetTextLineHeightWithSpacing())) go = true;
    if (io.dialog == SessionIo::Dialog::SaveScene) {
        ImGui::InputTextWithHint(tr("title###title"), tr("shown above the lab in presenter view"), &io.title);
        ImGui::InputTextMultiline(tr("caption###caption"), &io.caption, ImVec2(-8.0f * em, 3.2f * ImGui::GetTextLineHeight()));
    }
    if (!io.dialog_error.empty()) {
        push_wrap_at_edge();
        ImGui::TextColored(kErrorText, "%s", io.dialog_error.c_str());
        ImGui::PopTextWrapPos();
    }
    const bool saves = io.dialog == SessionIo::Dialog::SaveScene || io.dialog == SessionIo::Dialog::SaveLecture;
    const std::string target = saves ? save_target(io.path_field) : "";
    const bool replaces = !target.empty() && path_exists(target) && unwritable_reason(target).empty();
    ImGui::Spacing();
    if (ImGui::Button(replaces ? tr("Replace") : text.action, ImVec2(7.0f * em, 0.0f))) go = true;
    if (replaces) {
        ImGui::SameLine();
        ImGui::TextDisabled(tr("(%s exists)"), file_name(target).c_str());
    }
    ImGui::SameLine();
    bool close = ImGui::Button(tr("Cancel"),
 ImVec2(7.0f * em, 0.0f)) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape));
    if (go && act(ctx, io.dialog, replaces)) close = true;
    if (close) {
        ImGui::CloseCurrentPopup();
        io.dialog = SessionIo::Dialog::None;
    }
    ImGui::EndPopup();
}

}  // namespace normlab::ui
