// normlab: the scene on screen: open, save, recent files; where they live (XDG folders, ~).
// Autosave: session_autosave.cpp; undo: session_undo.cpp; menus and dialogs: session_dialogs.cpp.
#include "session_io.hpp"

#include "session_detail.hpp"


#include "input_queue.hpp"
#include "labs.hpp"
#include "lecture.hpp"
#include "plot_export.hpp"
#include "ui_util.hpp"

#include <normlab/base/data_files.hpp>
#include <normlab/base/i18n.hpp>
#include <normlab/base/input_error.hpp>
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

}  // namespace

namespace session_detail {

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

}  // namespace session_detail

using namespace session_detail;

std::string default_autosave_file() {
    const std::string dir = xdg_dir("XDG_DATA_HOME", ".local/share");
    return dir.empty() ? "" : dir + "/normlab/autosave.json";
}

std::string default_recent_file() {
    const std::string dir = xdg_dir("XDG_CONFIG_HOME", ".config");
    return dir.empty() ? "" : dir + "/normlab/recent.json";
}

// [SECTION] Scenes --------------------------------------------------------------------------

namespace {

// The texts on screen go back where they were read from: the file's own keys, or the translation
// they were shown in (docs/LECTURES.md, Languages).
void put_shown_texts(const SessionIo& io, Scene& scene) {
    scene.language = io.language;
    scene.translations = io.translations;
    const auto put = [&](const std::string& shown, const std::string& own, std::string& to, auto& translated) {
        to = own;
        (translated.count(io.shown_language) != 0 ? translated[io.shown_language] : to) = shown;
    };
    put(io.title, io.own_title, scene.title, scene.translations.title);
    put(io.caption, io.own_caption, scene.caption, scene.translations.caption);
}

}  // namespace

Scene current_scene(const AppContext& ctx) {
    Scene scene;
    if (ctx.io != nullptr) put_shown_texts(*ctx.io, scene);
    const int lab = ctx.app.select_lab >= 0 ? ctx.app.select_lab : ctx.app.lab;
    scene.lab = kLabs[std::clamp(lab, 0, kLabCount - 1)].id;
    scene.session = ctx.session;
    return scene;
}

void show_scene_language(SessionIo& io) {
    const std::string code = language_code(current_language());
    if (io.shown_language == code) return;
    Scene texts;
    put_shown_texts(io, texts);   // an edit made in the old language is kept there
    io.own_title = std::move(texts.title);
    io.own_caption = std::move(texts.caption);
    io.translations = std::move(texts.translations);
    io.shown_language = code;
    io.title = text_in(io.own_title, io.translations.title, code);
    io.caption = text_in(io.own_caption, io.translations.caption, code);
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
std::string ignored_note(const std::vector<std::string>& ignored) {
    if (ignored.empty()) return "";
    if (ignored.size() == 1) return " " + tr("(skipped 1 setting this NormLab does not know: {0})", ignored.front());
    return " " + tr("(skipped {0} settings this NormLab does not know: {1}, …)", ignored.size(), ignored.front());

}
}  // namespace

namespace session_detail {

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
    // Title and caption in the user's language where the file has it (docs/LECTURES.md, Languages).
    io.shown_language = language_code(current_language());
    io.title = text_in(scene.title, scene.translations.title, io.shown_language);
    io.caption = caption_override.empty() ? text_in(scene.caption, scene.translations.caption, io.shown_language) : caption_override;
    io.own_title = std::move(scene.title);
    io.own_caption = std::move(scene.caption);
    io.language = std::move(scene.language);
    io.translations = std::move(scene.translations);
    forget_rejected_text(ctx);
    io.history.mark_input();   // opening a file is one step to undo
    if (const int lab = find_lab(scene.lab); lab >= 0) {
        ctx.app.select_lab = lab;
        return "";
    }
    return tr("⚠ The scene opens lab \"{0}\", which this NormLab does not have (labs: {1})", scene.lab, lab_ids());
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
    ctx.app.status = tr("Saved {0}", file_name(path));
    return "";
}

}  // namespace session_detail


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
// From here on every data read is checked against the scene's folder and assets/, on the file
// actually opened (data_files.hpp): a file swapped for a link after this check is still refused.
void hold_outside_files(SessionIo& io, Scene& scene, const std::string& path) {
    const std::string folder = fs::absolute(path).parent_path().string();
    set_read_scope(std::vector<std::string>{folder, io.assets_dir});
    io.refused_reads.clear();
    io.declined_targets.clear();
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
        ctx.app.status = tr("⚠ Not opened: {0}", e.what());
        return e.what();
    }
    hold_outside_files(*ctx.io, scene, path);
    const std::string warning = show_scene(ctx, std::move(scene), caption_override);
    ctx.io->path = absolute_path(path);
    if (remember) add_recent(*ctx.io, ctx.io->path);
    ctx.app.status = warning.empty() ? tr("Opened {0}", file_name(path)) + ignored_note(ignored) : warning;

    return "";
}

}  // namespace normlab::ui
