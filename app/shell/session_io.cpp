// Scenes in the app (see session_io.hpp).
//
// [SECTION] Paths       — XDG folders, ~ expansion, folder listings
// [SECTION] Scenes      — the scene on screen, open, save, recent files
// [SECTION] Autosave
// [SECTION] Undo / redo — edit tracking, steps
// [SECTION] Keys and menus
// [SECTION] Dialogs     — a path field over a folder listing
#include "session_io.hpp"

#include "input_queue.hpp"
#include "labs.hpp"
#include "lecture.hpp"
#include "plot_export.hpp"
#include "ui_util.hpp"

#include <normlab/norm/eval.hpp>
#include <normlab/base/file_io.hpp>

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

// [SECTION] Paths ---------------------------------------------------------------------------

namespace {

// $VAR when set to an absolute path, else $HOME/fallback, else "".
std::string xdg_dir(const char* var, const char* fallback) {
    if (const char* v = std::getenv(var); v != nullptr && v[0] == '/') return v;
    if (const char* home = std::getenv("HOME"); home != nullptr && home[0] != '\0') return std::string(home) + "/" + fallback;
    return "";
}

// "~/x" → "$HOME/x"; surrounding spaces dropped.
std::string expand_path(std::string path) {
    const auto first = path.find_first_not_of(" \t");
    const auto last = path.find_last_not_of(" \t\r\n");
    path = first == std::string::npos ? "" : path.substr(first, last - first + 1);
    if ((path == "~" || path.rfind("~/", 0) == 0) && std::getenv("HOME") != nullptr)
        path = std::string(std::getenv("HOME")) + path.substr(1);
    return path;
}

std::string absolute_path(const std::string& path) {
    std::error_code ec;
    const fs::path p = fs::absolute(path, ec);
    return ec ? path : p.lexically_normal().string();
}

std::string file_name(const std::string& path) { return fs::path(path).filename().string(); }

// Creates the folder that will hold `file`; "" or why not.
std::string make_parent_dir(const std::string& file) {
    const fs::path dir = fs::path(file).parent_path();
    if (dir.empty()) return "";
    std::error_code ec;
    fs::create_directories(dir, ec);
    return ec ? "cannot create the folder \"" + dir.string() + "\": " + ec.message() : "";
}

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

}  // namespace

std::string default_autosave_file() {
    const std::string dir = xdg_dir("XDG_DATA_HOME", ".local/share");
    return dir.empty() ? "" : dir + "/normlab/autosave.json";
}

std::string default_recent_file() {
    const std::string dir = xdg_dir("XDG_CONFIG_HOME", ".config");
    return dir.empty() ? "" : dir + "/normlab/recent.json";
}

// [SECTION] Scenes --------------------------------------------------------------------------

Scene current_scene(const AppContext& ctx) {
    Scene scene;
    if (ctx.io != nullptr) {
        scene.title = ctx.io->title;
        scene.caption = ctx.io->caption;
    }
    const int lab = ctx.app.select_lab >= 0 ? ctx.app.select_lab : ctx.app.lab;
    scene.lab = kLabs[std::clamp(lab, 0, kLabCount - 1)].id;
    scene.session = ctx.session;
    return scene;
}

namespace {

void save_recent(const SessionIo& io) {
    if (io.recent_file.empty()) return;
    try {
        if (make_parent_dir(io.recent_file).empty())
            write_file_atomically(io.recent_file, nlohmann::json{{"recent", io.recent}}.dump(2) + "\n", IfExists::Replace);
    } catch (const std::exception&) {
        // A recent list is a convenience: not worth a message.
    }
}

void add_recent(SessionIo& io, const std::string& path) {
    io.recent.erase(std::remove(io.recent.begin(), io.recent.end(), path), io.recent.end());
    io.recent.insert(io.recent.begin(), path);
    if (io.recent.size() > kRecentLimit) io.recent.resize(kRecentLimit);
    save_recent(io);
}

// Display state that holds text the session no longer has.
void forget_rejected_text(AppContext& ctx) {
    ctx.uis.explorer.x_field.error.clear();
    ctx.uis.gradients.target_field.error.clear();
}

// Replaces what is on screen by the scene (nothing may fail from here on). Returns a warning
// when the scene's lab is not one of this NormLab's (the lab on screen then stays).
std::string show_scene(AppContext& ctx, Scene scene, const std::string& caption_override) {
    SessionIo& io = *ctx.io;
    ctx.session = std::move(scene.session);
    io.title = std::move(scene.title);
    io.caption = caption_override.empty() ? std::move(scene.caption) : caption_override;
    forget_rejected_text(ctx);
    io.history.mark_input();   // opening a file is one step to undo
    if (const int lab = find_lab(scene.lab); lab >= 0) {
        ctx.app.select_lab = lab;
        return "";
    }
    return "⚠ The scene opens lab \"" + scene.lab + "\", which this NormLab does not have (labs: " + lab_ids() + ")";
}

std::string ignored_note(const std::vector<std::string>& ignored) {
    if (ignored.empty()) return "";
    return " (skipped " + std::to_string(ignored.size()) + (ignored.size() == 1 ? " setting" : " settings") +
           " this NormLab does not know: " + ignored.front() + (ignored.size() > 1 ? ", …)" : ")");
}

std::string save_to(AppContext& ctx, const std::string& path, IfExists if_exists) {
    SessionIo& io = *ctx.io;
    try {
        save_scene(current_scene(ctx), path, if_exists);
    } catch (const std::exception& e) {
        ctx.app.status = std::string("⚠ ") + e.what();
        return e.what();
    }
    io.path = absolute_path(path);
    add_recent(io, io.path);
    ctx.app.status = "Saved " + file_name(path);
    return "";
}

}  // namespace

void load_recent(SessionIo& io) {
    if (io.recent_file.empty()) return;
    try {
        const nlohmann::json j = nlohmann::json::parse(read_file(io.recent_file));
        for (const auto& p : j.at("recent"))
            if (p.is_string() && io.recent.size() < kRecentLimit) io.recent.push_back(p.get<std::string>());
    } catch (const std::exception&) {
        io.recent.clear();   // missing or unreadable: start a new list
    }
}

namespace {

// Takes the scene's data files outside its folder and assets/ out of it; they wait for the
// user's answer in io.pending_files.
void hold_outside_files(SessionIo& io, Scene& scene, const std::string& path) {
    const std::string folder = fs::absolute(path).parent_path().string();
    io.pending_files = data_files_outside(scene.session, {folder, io.assets_dir});
    io.pending_scene = file_name(path);
    for (const SceneDataFile& f : io.pending_files) set_scene_data_file(scene.session, f.key, "");
}

}  // namespace

std::string open_scene_file(AppContext& ctx, const std::string& path, const std::string& caption_override,
                            bool remember) {
    std::vector<std::string> ignored;
    Scene scene;
    try {
        scene = load_scene(path, &ignored);
    } catch (const InputError& e) {
        ctx.app.status = std::string("⚠ Not opened: ") + e.what();
        return e.what();
    }
    hold_outside_files(*ctx.io, scene, path);
    const std::string warning = show_scene(ctx, std::move(scene), caption_override);
    ctx.io->path = absolute_path(path);
    if (remember) add_recent(*ctx.io, ctx.io->path);
    ctx.app.status = warning.empty() ? "Opened " + file_name(path) + ignored_note(ignored) : warning;
    return "";
}

// [SECTION] Autosave ------------------------------------------------------------------------

void restore_autosave(AppContext& ctx) {
    SessionIo& io = *ctx.io;
    std::error_code ec;
    if (io.autosave_file.empty() || !fs::exists(io.autosave_file, ec)) return;
    const std::string kept = io.autosave_file + ".corrupt";
    try {
        const std::string text = read_file(io.autosave_file);
        std::vector<std::string> dropped;   // labs whose sections were refused: at their defaults
        const std::string warning = show_scene(ctx, parse_scene_keeping_labs(text, dropped), "");
        io.autosaved_text = text;
        io.history.reset(ctx.session);   // the restored session is where undo starts
        ctx.app.status = warning.empty() ? "Restored the last session" : warning;
        if (!dropped.empty()) {
            fs::copy_file(io.autosave_file, kept, fs::copy_options::overwrite_existing, ec);
            ctx.app.status = "⚠ Restored the last session, but " + dropped.front() +
                             (dropped.size() > 1 ? " (and " + std::to_string(dropped.size() - 1) + " more)" : "") +
                             ": that lab is at its defaults" + (ec ? "" : "; the file is kept as " + kept);
        }
    } catch (const std::exception& e) {
        fs::copy_file(io.autosave_file, kept, fs::copy_options::overwrite_existing, ec);
        ctx.app.status = std::string("⚠ The last session could not be restored (") + e.what() + ")" +
                         (ec ? "" : "; kept as " + kept);
    }
}

namespace {

// The reason without the temporary file's name, which is new at every try (".tmp.4711.12").
std::string without_temp_name(std::string reason) {
    for (std::size_t at = reason.find(".tmp."); at != std::string::npos; at = reason.find(".tmp.", at + 1)) {
        std::size_t end = at + 5;
        while (end < reason.size() && (std::isdigit(static_cast<unsigned char>(reason[end])) || reason[end] == '.')) ++end;
        if (end > at + 5 && reason[end - 1] != '.') reason.erase(at, end - at);
    }
    return reason;
}

// "autosave-2.json" for n = 2 (n = 1: the file itself).
std::string numbered(const std::string& file, int n) {
    if (n == 1) return file;
    const fs::path p(file);
    return (p.parent_path() / (p.stem().string() + "-" + std::to_string(n) + p.extension().string())).string();
}

}  // namespace

std::string claim_autosave(SessionIo& io) {
    if (io.autosave_file.empty() || !make_parent_dir(io.autosave_file).empty()) return "";
    long first_owner = 0;
    for (int n = 1; n <= 9; ++n) {
        const std::string candidate = numbered(io.autosave_file, n);
        long owner = 0;
        std::string error;
        FileLock lock = FileLock::try_lock(candidate + ".lock", owner, error);
        if (!error.empty()) return "";   // no locks here (a read-only folder): the autosave says why
        if (!lock.held()) {
            if (n == 1) first_owner = owner;
            continue;
        }
        io.autosave_lock = std::move(lock);
        const std::string main_file = io.autosave_file;
        io.autosave_file = candidate;
        if (n == 1) return "";
        return "Another NormLab" + (first_owner > 0 ? " (pid " + std::to_string(first_owner) + ")" : std::string()) +
               " keeps " + file_name(main_file) + ": this window autosaves to " + candidate;
    }
    const std::string main_file = io.autosave_file;
    io.autosave_file.clear();
    return "Nine other NormLabs keep " + main_file + " and its numbered copies: this window has no autosave";
}

bool autosave_now(AppContext& ctx) {
    SessionIo& io = *ctx.io;
    if (io.autosave_file.empty()) return true;
    const std::string text = scene_to_text(current_scene(ctx));
    if (text == io.autosaved_text) return io.autosave_error.empty();
    std::string error = make_parent_dir(io.autosave_file);
    if (error.empty()) {
        try {
            write_file_atomically(io.autosave_file, text, IfExists::Replace);   // this run's own file
            io.autosaved_text = text;
            io.autosave_error.clear();
            ctx.app.autosave_warning.clear();
            return true;
        } catch (const std::exception& e) {
            error = e.what();
        }
    }
    io.autosave_error = without_temp_name(error);   // the same reason reads the same at every try
    ctx.app.autosave_warning = "Autosave failed: " + io.autosave_error;
    return false;
}

std::string final_autosave(AppContext& ctx) {
    SessionIo& io = *ctx.io;
    if (io.autosave_file.empty()) return "";
    const bool changed = scene_to_text(current_scene(ctx)) != io.autosaved_text;
    if (!autosave_now(ctx)) return "the session was NOT saved: " + io.autosave_error;
    return changed ? "saved the session to " + io.autosave_file : "the session is saved in " + io.autosave_file;
}

bool may_quit(AppContext& ctx) {
    SessionIo& io = *ctx.io;
    if (io.quit_confirmed || autosave_now(ctx)) return true;
    io.ask_quit = true;
    return false;
}

double autosave_due(const AppContext& ctx) {
    const SessionIo* io = ctx.io;
    if (io == nullptr || io->autosave_file.empty()) return HUGE_VAL;
    if (io->next_autosave >= 0.0 && scene_to_text(current_scene(ctx)) == io->autosaved_text) return HUGE_VAL;
    return io->next_autosave;
}

// [SECTION] Undo / redo ---------------------------------------------------------------------

namespace {

// Any key, click, release, wheel or typed character this frame (a mouse move alone is none).
bool user_input() {
    const ImGuiIO& io = ImGui::GetIO();
    if (io.MouseWheel != 0.0f || io.MouseWheelH != 0.0f || io.InputQueueCharacters.Size > 0) return true;
    for (int b = 0; b < IM_ARRAYSIZE(io.MouseDown); ++b)
        if (io.MouseClicked[b] || io.MouseReleased[b]) return true;
    for (int k = 0; k < IM_ARRAYSIZE(io.KeysDown); ++k)
        if (io.KeysDown[k] && io.KeysDownDuration[k] == 0.0f) return true;
    return false;
}

bool mouse_down() {
    const ImGuiIO& io = ImGui::GetIO();
    for (bool down : io.MouseDown)
        if (down) return true;
    return false;
}

}  // namespace

bool can_undo(const AppContext& ctx) { return ctx.io != nullptr && ctx.io->history.undo_count() > 0; }
bool can_redo(const AppContext& ctx) { return ctx.io != nullptr && ctx.io->history.redo_count() > 0; }

namespace {

// "x₂ = 5 (Explorer)": a step's name with its lab's tab.
std::string step_text(const StepName& name) {
    const int lab = find_lab(name.lab);
    return name.what + (lab < 0 ? "" : " (" + std::string(kLabs[lab].tab) + ")");
}

// After an undo or redo of `name` (a copy: the history moved it): its lab comes on screen, the
// status line says what changed back.
void after_step(AppContext& ctx, const StepName& name, const char* verb, std::size_t more, const char* more_what) {
    forget_rejected_text(ctx);
    // Asked even when it seems on screen already: a tab switch asked in the frame before shows only
    // now (Dear ImGui selects a tab the frame after), and this request must be the later one.
    const int lab = find_lab(name.lab);
    if (lab >= 0) ctx.app.select_lab = lab;
    ctx.app.status = std::string(verb) + (name.what.empty() ? "" : ": " + step_text(name)) + " (" +
                     std::to_string(more) + " more to " + more_what + ")";
}

}  // namespace

void undo(AppContext& ctx) {
    SessionHistory& h = ctx.io->history;
    h.flush_pending(ctx.session);
    const StepName name = h.next_undo() != nullptr ? *h.next_undo() : StepName{};
    if (!h.undo(ctx.session)) return;
    after_step(ctx, name, "Undone", h.undo_count(), "undo");
}

void redo(AppContext& ctx) {
    SessionHistory& h = ctx.io->history;
    const StepName name = h.next_redo() != nullptr ? *h.next_redo() : StepName{};
    if (!h.redo(ctx.session)) return;
    after_step(ctx, name, "Redone", h.redo_count(), "redo");
}

void track_session(AppContext& ctx, double now) {
    SessionIo& io = *ctx.io;
    if (ctx.app.lab >= 0 && ctx.app.lab < kLabCount) io.history.set_lab_on_screen(kLabs[ctx.app.lab].id);
    // An edit ends when no widget is held and no button is down: a drag is one step.
    io.history.observe(ctx.session, user_input(), ImGui::IsAnyItemActive() || mouse_down(), now);
    if (io.next_autosave < 0.0) io.next_autosave = now + kAutosaveSeconds;   // the labs settle first
    if (!io.autosave_file.empty() && now >= io.next_autosave) {
        io.next_autosave = now + kAutosaveSeconds;
        autosave_now(ctx);
    }
}

// [SECTION] Keys and menus ------------------------------------------------------------------

namespace {

void save_or_ask(AppContext& ctx) {
    if (ctx.io->path.empty())
        ctx.io->open_request = SessionIo::Dialog::SaveScene;
    else
        save_to(ctx, ctx.io->path, IfExists::Replace);   // the scene's own file
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
    if (ImGui::MenuItem("Open scene…", "Ctrl+O")) io.open_request = SessionIo::Dialog::OpenScene;
    const std::string save = io.path.empty() ? "Save scene" : "Save scene  (" + file_name(io.path) + ")";
    if (ImGui::MenuItem(save.c_str(), "Ctrl+S")) save_or_ask(ctx);
    if (ImGui::MenuItem("Save scene as…", "Ctrl+Shift+S")) io.open_request = SessionIo::Dialog::SaveScene;
    if (ImGui::BeginMenu("Recent scenes", !io.recent.empty())) {
        std::string chosen;
        for (const std::string& path : io.recent)
            if (ImGui::MenuItem(path.c_str())) chosen = path;
        ImGui::EndMenu();
        if (!chosen.empty()) open_scene_file(ctx, chosen);
    }
    if (ImGui::MenuItem("Open lecture…")) io.open_request = SessionIo::Dialog::OpenLecture;
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("A list of scenes to step through with ← / → (assets/lectures/); F5: presenter view");
    ImGui::Separator();
}

void draw_edit_menu(AppContext& ctx) {
    if (ctx.io == nullptr) return;
    if (ImGui::BeginMenu("Edit")) {
        const SessionHistory& h = ctx.io->history;
        const std::string u = "Undo" + (h.next_undo() == nullptr ? "" : ": " + step_text(*h.next_undo()));
        const std::string r = "Redo" + (h.next_redo() == nullptr ? "" : ": " + step_text(*h.next_redo()));
        if (ImGui::MenuItem(u.c_str(), "Ctrl+Z", false, can_undo(ctx))) undo(ctx);
        if (ImGui::MenuItem(r.c_str(), "Ctrl+Shift+Z", false, can_redo(ctx))) redo(ctx);
        ImGui::EndMenu();
    }
}

// [SECTION] Dialogs -------------------------------------------------------------------------

namespace {

struct DialogText {
    const char* name;     // pop-up title (and ID)
    const char* action;   // the button
    const char* help;
};

DialogText dialog_text(SessionIo::Dialog d) {
    switch (d) {
        case SessionIo::Dialog::OpenScene:
            return {"Open scene", "Open", "A NormLab scene (.json): every lab's inputs and settings, and the lab on screen."};
        case SessionIo::Dialog::SaveScene:
            return {"Save scene as", "Save", "Saves every lab's inputs and settings, the lab on screen, a title and a caption."};
        case SessionIo::Dialog::OpenLecture:
            return {"Open lecture", "Open", "A lecture (.json): scenes in order. ← / → step through them; F5: presenter view."};
        case SessionIo::Dialog::ExportFolder:
            return {"Export folder", "Choose",
                    "Where figures and tables go (right-click ▸ Save …, File ▸ Export all figures), for this session; "
                    "created if missing. A file of the same name is never replaced: the new one gets \"-2\", \"-3\", …"};
        case SessionIo::Dialog::None: break;
    }
    return {"", "", ""};
}

std::string initial_field(const SessionIo& io, SessionIo::Dialog d) {
    const std::string shipped = io.assets_dir.empty() ? "" : io.assets_dir + (d == SessionIo::Dialog::OpenLecture ? "/lectures/" : "/scenes/");
    if (d == SessionIo::Dialog::SaveScene) {
        if (!io.path.empty()) return io.path;
        std::error_code ec;
        return (fs::current_path(ec) / "scene.json").string();
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
            io.dialog_error = "Not a folder that can be made: " + (path.empty() ? std::string("(empty)") : path) +
                              (ec ? " (" + ec.message() + ")" : "");
            return false;
        }
        set_export_folder(absolute_path(path));
        ctx.app.status = "Figures go to " + export_folder();
        return true;
    }
    if (path.empty() || fs::is_directory(path, ec)) {
        io.dialog_error = "Choose a file (type its name, or click one in the list).";
        return false;
    }
    switch (d) {
        case SessionIo::Dialog::OpenScene: io.dialog_error = open_scene_file(ctx, path); break;
        case SessionIo::Dialog::SaveScene:
            io.dialog_error = save_to(ctx, save_target(path), replace ? IfExists::Replace : IfExists::Refuse);
            break;
        case SessionIo::Dialog::OpenLecture: io.dialog_error = open_lecture_file(ctx, path); break;
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
    ImGui::TextDisabled("Go to:");
    if (!io.assets_dir.empty()) {
        jump("Shipped scenes", io.assets_dir + "/scenes");
        jump("Lectures", io.assets_dir + "/lectures");
    }
    std::error_code ec;
    jump("Current folder", fs::current_path(ec).string());
    if (const char* home = std::getenv("HOME")) jump("Home", home);
}

// The folder's sub-folders and .json files: a click fills the field, a double-click on a file acts.
bool folder_list(SessionIo& io, float height) {
    const std::string dir = folder_of(io.path_field);
    ImGui::TextDisabled("%s", dir.c_str());
    bool activate = false;
    ImGui::BeginChild("files", ImVec2(0.0f, height), true);
    if (fs::path(dir).has_parent_path() && dir != "/" && ImGui::Selectable("..  (up one folder)"))
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

// A modal pop-up in the middle of the window, width_em font sizes wide (at most the window).
bool begin_centered_modal(const char* name, float width_em) {
    const float em = ImGui::GetFontSize();
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(vp->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    ImGui::SetNextWindowSize(ImVec2(std::min(width_em * em, vp->WorkSize.x - 2.0f * em), 0.0f), ImGuiCond_Appearing);
    return ImGui::BeginPopupModal(name, nullptr, ImGuiWindowFlags_NoSavedSettings);
}

// "Read files outside the scene's folder?": each file with the lab that would read it.
void draw_outside_files_dialog(AppContext& ctx) {
    SessionIo& io = *ctx.io;
    const char* name = "Read files outside the scene's folder?";
    if (io.pending_files.empty()) return;
    if (!ImGui::IsPopupOpen(name)) ImGui::OpenPopup(name);
    if (!begin_centered_modal(name, 40.0f)) return;
    const float em = ImGui::GetFontSize();
    push_wrap_at_edge();
    ImGui::TextUnformatted(("The scene " + io.pending_scene + " asks NormLab to read:").c_str());
    for (const SceneDataFile& f : io.pending_files) ImGui::BulletText("%s  (%s)", f.path.c_str(), f.key.c_str());
    ImGui::TextUnformatted("These lie outside the scene's folder. Read them only if you know what they are; "
                           "otherwise the labs use their own data.");
    ImGui::PopTextWrapPos();
    ImGui::Spacing();
    const bool read = ImGui::Button("Read them", ImVec2(8.0f * em, 0.0f));
    ImGui::SameLine();
    const bool skip = ImGui::Button("Don't read", ImVec2(8.0f * em, 0.0f)) ||
                      ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape));
    if (read || skip) {
        const std::size_t n = io.pending_files.size();
        if (read)
            for (const SceneDataFile& f : io.pending_files) set_scene_data_file(ctx.session, f.key, f.path);
        ctx.app.status = std::string(read ? "Reading " : "Not read: ") + io.pending_files.front().path +
                         (n > 1 ? " and " + std::to_string(n - 1) + " more" : "") + (read ? "" : "; the labs use their own data");
        io.pending_files.clear();
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
}

// "Quit without saving?": the autosave failed as the user quit.
void draw_quit_dialog(AppContext& ctx) {
    SessionIo& io = *ctx.io;
    const char* name = "Quit without saving?";
    if (!io.ask_quit) return;
    if (!ImGui::IsPopupOpen(name)) ImGui::OpenPopup(name);
    if (!begin_centered_modal(name, 40.0f)) return;
    const float em = ImGui::GetFontSize();
    push_wrap_at_edge();
    ImGui::TextUnformatted(("The session could not be saved: " + io.autosave_error).c_str());
    ImGui::TextUnformatted("Quitting now loses the changes since the last save.");
    ImGui::PopTextWrapPos();
    ImGui::Spacing();
    int choice = 0;
    if (ImGui::Button("Save scene as…", ImVec2(9.0f * em, 0.0f))) choice = 1;
    ImGui::SameLine();
    if (ImGui::Button("Quit anyway", ImVec2(9.0f * em, 0.0f))) choice = 2;
    ImGui::SameLine();
    if (ImGui::Button("Cancel", ImVec2(9.0f * em, 0.0f)) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) choice = 3;
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
    draw_quit_dialog(ctx);
    if (io.open_request != SessionIo::Dialog::None) {
        io.dialog = io.open_request;
        io.open_request = SessionIo::Dialog::None;
        io.path_field = initial_field(io, io.dialog);
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
    if (ImGui::InputTextWithHint("##path", "path/to/file.json", &io.path_field, ImGuiInputTextFlags_EnterReturnsTrue))
        go = true;
    ImGui::PopID();
    folder_buttons(io);
    if (folder_list(io, 11.0f * ImGui::GetTextLineHeightWithSpacing())) go = true;
    if (io.dialog == SessionIo::Dialog::SaveScene) {
        ImGui::InputTextWithHint("title", "shown above the lab in presenter view", &io.title);
        ImGui::InputTextMultiline("caption", &io.caption, ImVec2(-8.0f * em, 3.2f * ImGui::GetTextLineHeight()));
    }
    if (!io.dialog_error.empty()) {
        push_wrap_at_edge();
        ImGui::TextColored(kErrorText, "%s", io.dialog_error.c_str());
        ImGui::PopTextWrapPos();
    }
    const std::string target = io.dialog == SessionIo::Dialog::SaveScene ? save_target(io.path_field) : "";
    const bool replaces = !target.empty() && path_exists(target) && unwritable_reason(target).empty();
    ImGui::Spacing();
    if (ImGui::Button(replaces ? "Replace" : text.action, ImVec2(7.0f * em, 0.0f))) go = true;
    if (replaces) {
        ImGui::SameLine();
        ImGui::TextDisabled("(%s exists)", file_name(target).c_str());
    }
    ImGui::SameLine();
    bool close = ImGui::Button("Cancel", ImVec2(7.0f * em, 0.0f)) || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape));
    if (go && act(ctx, io.dialog, replaces)) close = true;
    if (close) {
        ImGui::CloseCurrentPopup();
        io.dialog = SessionIo::Dialog::None;
    }
    ImGui::EndPopup();
}

}  // namespace normlab::ui
