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
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <utility>


namespace normlab::ui {

namespace fs = std::filesystem;

using namespace session_detail;

// [SECTION] Autosave ------------------------------------------------------------------------

namespace {

// Writes `bytes` to the first free of `name`, "stem-2.ext", … with the safe writer: nothing there
// is replaced and a link is never written through (a name taken meanwhile: the next one). Returns
// the file written; throws std::runtime_error when none could be.
std::string write_beside(const std::string& name, const std::string& bytes) {
    for (int attempt = 0; attempt < 100; ++attempt) {
        const std::string free_name = unused_file_name(name);
        try {
            write_file_atomically(free_name, bytes, IfExists::Refuse);
            return free_name;
        } catch (const FileExistsError&) {
        }
    }
    throw std::runtime_error("cannot write \"" + name + "\": every numbered name is taken");
}

// Moves the autosave that could not be read aside, to autosave.json.corrupt or the first free of
// autosave.json-2.corrupt, …: one rename (any size), never over a file or a link. "" or why not.
std::pair<std::string, std::string> move_aside(const std::string& file) {
    for (int attempt = 0; attempt < 100; ++attempt) {
        const std::string kept = unused_file_name(file + ".corrupt");
        try {
            move_file(file, kept, IfExists::Refuse);
            return {kept, ""};
        } catch (const FileExistsError&) {
        } catch (const std::exception& e) {
            return {"", e.what()};
        }
    }
    return {"", "every numbered name is taken"};
}

}  // namespace

void restore_autosave(AppContext& ctx) {
    SessionIo& io = *ctx.io;
    if (io.autosave_file.empty() || !path_exists(io.autosave_file)) return;
    try {
        const std::string text = read_file(io.autosave_file);
        std::vector<std::string> dropped;   // labs whose sections were refused: at their defaults
        const std::string warning = show_scene(ctx, parse_scene_keeping_labs(text, dropped), "");
        io.autosaved_text = text;
        io.history.reset(ctx.session);   // the restored session is where undo starts
        ctx.app.status = warning.empty() ? std::string(tr("Restored the last session")) : warning;
        if (!dropped.empty()) {
            // A copy: the autosave itself stays (it holds the session restored).
            std::string kept;
            try {
                kept = write_beside(io.autosave_file + ".corrupt", text);
            } catch (const std::exception&) {
            }
            const std::string labs =
                dropped.size() > 1 ? tr("{0} (and {1} more)", dropped.front(), dropped.size() - 1) : dropped.front();
            ctx.app.status = kept.empty() ? tr("⚠ Restored the last session, but {0}: that lab is at its defaults", labs)
                                          : tr("⚠ Restored the last session, but {0}: that lab is at its defaults; the file is kept "
                                               "as {1}",
                                               labs, kept);
        }
    } catch (const std::exception& e) {
        const auto [kept, why] = move_aside(io.autosave_file);
        ctx.app.status = kept.empty() ? tr("⚠ The last session could not be restored ({0})", e.what()) + "; " +
                                            tr("it could not be kept aside: {0}", why)
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

UserNote claim_autosave(SessionIo& io) {
    if (io.autosave_file.empty() || !make_parent_dir(io.autosave_file).empty()) return {};
    long first_owner = 0;
    std::string refused_lock, refusal;   // the main lock file, when it is a link or not a regular file
    for (int n = 1; n <= 9; ++n) {
        const std::string candidate = numbered(io.autosave_file, n);
        long owner = 0;
        std::string error;
        FileLock lock = FileLock::try_lock(candidate + ".lock", owner, error);
        if (!error.empty()) {
            const std::string why = lock_file_refusal(candidate + ".lock");
            if (why.empty()) return {};   // no locks here (a read-only folder): the autosave says why
            if (n == 1) {
                refused_lock = candidate + ".lock";
                refusal = why;
            }
            continue;   // never shared unlocked: the next numbered autosave
        }
        if (!lock.held()) {
            if (n == 1) first_owner = owner;
            continue;
        }
        io.autosave_lock = std::move(lock);
        const std::string main_file = io.autosave_file;
        io.autosave_file = candidate;
        if (n == 1) return {};
        if (!refused_lock.empty()) {
            const std::string line = "the lock file " + refused_lock + " is not used (" + refusal +
                                     "): this window autosaves to " + candidate;
            return {line, "⚠ " + tr("The lock file {0} is not used ({1}): this window autosaves to {2}",
                                    file_name(refused_lock), refusal, candidate)};
        }
        const std::string line = "Another NormLab" + (first_owner > 0 ? " (pid " + std::to_string(first_owner) + ")" : std::string()) +
                                 " keeps " + file_name(main_file) + ": this window autosaves to " + candidate;
        return {line, line};
    }
    const std::string main_file = io.autosave_file;
    io.autosave_file.clear();
    const std::string line = "Nine other NormLabs keep " + main_file + " and its numbered copies: this window has no autosave";
    return {line, line};
}

namespace {

// "autosave-previous.json" beside "autosave.json".
std::string previous_name(const std::string& file) {
    const fs::path p(file);
    return (p.parent_path() / (p.stem().string() + "-previous" + p.extension().string())).string();
}

}  // namespace

std::string keep_previous_autosave(const std::string& file, const std::string& text) {
    if (!path_exists(file)) return "";
    const std::string previous = read_file(file, kMaxSceneBytes);
    if (previous == text) return "";
    return write_beside(previous_name(file), previous);
}

namespace {

// keep_previous_autosave for the autosave, said once on stderr and on the status line. "" or
// why the session could not be kept (then the autosave must not be written).
std::string keep_previous_session(AppContext& ctx, const std::string& text) {
    try {
        const std::string kept = keep_previous_autosave(ctx.io->autosave_file, text);
        if (kept.empty()) return "";
        std::fprintf(stderr, "normlab: the previous session is kept in %s\n", kept.c_str());
        ctx.app.status = tr("The previous session is kept in {0}", kept);
        return "";
    } catch (const std::exception& e) {
        return std::string("the previous session could not be kept: ") + e.what();
    }
}

}  // namespace

bool autosave_now(AppContext& ctx) {
    SessionIo& io = *ctx.io;
    if (io.autosave_file.empty()) return true;
    const std::string text = scene_to_text(current_scene(ctx));
    if (text == io.autosaved_text) return io.autosave_error.empty();
    std::string error = make_parent_dir(io.autosave_file);
    if (error.empty() && io.keep_previous) {
        error = keep_previous_session(ctx, text);
        io.keep_previous = !error.empty();
    }
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
