// normlab: undo and redo: which changes of the session are one step, and stepping through them.
#include "session_io.hpp"

#include "session_detail.hpp"


#include "input_queue.hpp"
#include "labs.hpp"
#include "lecture.hpp"
#include "lecture_writer.hpp"
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

using namespace session_detail;

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

bool can_undo(const AppContext& ctx) {
    return ctx.io != nullptr && (ctx.io->history.undo_count() > 0 || lecture_step_due(ctx, false));
}
bool can_redo(const AppContext& ctx) {
    return ctx.io != nullptr && (ctx.io->history.redo_count() > 0 || lecture_step_due(ctx, true));
}
namespace session_detail {

// "x₂ = 5 (Explorer)": a step's name with its lab's tab.
std::string step_text(const StepName& name) {
    const int lab = find_lab(name.lab);
    return name.what + (lab < 0 ? "" : " (" + std::string(tr(kLabs[lab].tab)) + ")");
}

}  // namespace session_detail

namespace {

// After an undo or redo of `name` (a copy: the history moved it): its lab comes on screen, the
// status line says what changed back.
void after_step(AppContext& ctx, const StepName& name, bool undone, std::size_t more) {
    forget_rejected_text(ctx);
    // Asked even when it seems on screen already: a tab switch asked in the frame before shows only
    // now (Dear ImGui selects a tab the frame after), and this request must be the later one.
    const int lab = find_lab(name.lab);
    if (lab >= 0) ctx.app.select_lab = lab;
    if (name.what.empty())
        ctx.app.status = undone ? tr("Undone ({0} more to undo)", more) : tr("Redone ({0} more to redo)", more);
    else
        ctx.app.status = undone ? tr("Undone: {0} ({1} more to undo)", step_text(name), more)
                                : tr("Redone: {0} ({1} more to redo)", step_text(name), more);
}

}  // namespace

// A lecture's edits (lecture_writer.hpp) take their turn among the session's: each is undone when
// no session step came after it.
void undo(AppContext& ctx) {
    SessionHistory& h = ctx.io->history;
    h.flush_pending(ctx.session);
    if (lecture_step_due(ctx, false)) return step_lecture(ctx, false);
    const StepName name = h.next_undo() != nullptr ? *h.next_undo() : StepName{};
    if (!h.undo(ctx.session)) return;
    after_step(ctx, name, true, h.undo_count() + lecture_steps(ctx, false));
}

void redo(AppContext& ctx) {
    SessionHistory& h = ctx.io->history;
    if (lecture_step_due(ctx, true)) return step_lecture(ctx, true);
    const StepName name = h.next_redo() != nullptr ? *h.next_redo() : StepName{};
    if (!h.redo(ctx.session)) return;
    after_step(ctx, name, false, h.redo_count() + lecture_steps(ctx, true));

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

}  // namespace normlab::ui
