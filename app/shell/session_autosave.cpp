// normlab: the autosave: restored at start, kept every few seconds and on exit, one file per
// running NormLab.
#include "session_io.hpp"

#include "session_detail.hpp"


#include "input_queue.hpp"
#include "labs.hpp"
#include "lecture.hpp"
#include "plot_export.hpp"
#include "ui_util.hpp"

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

using namespace session_detail;

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
        ctx.app.status = warning.empty() ? std::string(tr("Restored the last session")) : warning;
        if (!dropped.empty()) {
            fs::copy_file(io.autosave_file, kept, fs::copy_options::overwrite_existing, ec);
            const std::string labs =
                dropped.size() > 1 ? tr("{0} (and {1} more)", dropped.front(), dropped.size() - 1) : dropped.front();
            ctx.app.status = ec ? tr("⚠ Restored the last session, but {0}: that lab is at its defaults", labs)
                                : tr("⚠ Restored the last session, but {0}: that lab is at its defaults; the file is kept "
                                     "as {1}",
                                     labs, kept);
        }
    } catch (const std::exception& e) {
        fs::copy_file(io.autosave_file, kept, fs::copy_options::overwrite_existing, ec);
        ctx.app.status = ec ? tr("⚠ The last session could not be restored ({0})", e.what())
                            : tr("⚠ The last session could not be restored ({0}); kept as {1}", e.what(), kept);
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
    ctx.app.autosave_warning = tr("Autosave failed: {0}", io.autosave_error);

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

}  // namespace normlab::ui
