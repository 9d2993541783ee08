// What every lab is given to draw with, and what it tells the Help menu, the slides and the table
// of labs (labs.hpp) about itself.
#pragma once

#include "action_table.hpp"
#include "app_state.hpp"
#include "gpu_device.hpp"
#include "theme_fonts.hpp"
#include "ui_util.hpp"

#include <normlab/base/i18n.hpp>
#include <normlab/plot/plot.hpp>
#include <normlab/scene/session.hpp>

#include <imgui.h>

#include <string>
#include <vector>

namespace normlab::ui {

// Help ▸ "This lab": the equations a lab demonstrates and the core code that computes them.
struct LabInfo {
    const char* title;         // the lab's full title
    const char* equations;     // one per line
    const char* computed_by;   // core functions and their files
};

// What every lab draws with: the session (the numbers, which its draw function reads and edits
// for the user's actions), the app's display state, the fonts, and the GPU the labs share.
struct LabContext {
    Session& session;
    AppUi& app;
    const AppInfo& info;
    const Fonts& fonts;
    GpuDevice& gpu;
};

// What a lab's functions take: the context and the lab's own display state (its UI struct),
// never another lab's (docs/ARCHITECTURE.md, Data flow). The lab host (labs.cpp) makes one
// for the lab it calls.
template <class Ui>
struct LabContextOf : LabContext {
    Ui& ui;
};

// A presenter slide (slide.hpp) shows one or two of its lab's figures and only the controls
// its lecture file names. Each lab lists what a slide may name and draws it on request.
struct SlidePart {
    const char* id;       // the name in a lecture file: "invariance_table", "delta"
    float aspect = 1.6f;  // figures: the width ÷ height they read best at (the layout's guide)
    bool text = false;    // figures of words (a verdict): drawn in larger fonts where they fit
    // Figures: the least width and height (in em of the slide's regular font) at which nothing
    // of theirs is cut; 0: a plot's least size (kMinFigure*Em, plot_view.hpp, and its title line).
    float min_w_em = 0.0f, min_h_em = 0.0f;
};

// What a lecture file may name on a slide of the lab (checked when it opens).
struct SlideNames {
    std::vector<SlidePart> figures;   // the first `defaults` of them: a slide that names none
    int defaults = 1;
    std::vector<SlidePart> controls;
};

template <class Context>
struct SlideParts : SlideNames {
    // Once per frame, before the figures: what the lab's draw function does besides drawing
    // (workers kept in step, the latest snapshot taken). Null: nothing.
    void (*update)(Context& ctx) = nullptr;
    // Draws figure `id` filling the current child window (`size`), no editing widgets.
    void (*draw_figure)(Context& ctx, const std::string& id, ImVec2 size) = nullptr;
    // Draws control `id` on the current line (a few em wide).
    void (*draw_control)(Context& ctx, const std::string& id) = nullptr;
    // Labs with a run (Training, Depth): start it or hold it at step 0 as a slide opens.
    void (*set_playing)(Context& ctx, bool playing) = nullptr;
};

// A slide's control of a lab with a run (Training, Depth): "play" (Play / Pause) or "reset", its
// action's button. The lab host is not drawn on a slide: a named control's key acts here.
// The play button's label, true to the run: "Pause" while it trains, "Play again" once it is
// done (Play then starts it from step 0), else "Play".
inline const char* run_button_label(bool playing, bool done) {
    return done ? tr("Play again###play") : playing ? tr("Pause###play") : tr("Play###play");
}

// `progress`: where the run stands ("step 37 / 100 · sweep 0 / 18"), drawn after "play".
template <class Context>
void draw_run_control(Context& ctx, const std::string& id, const Action<Context>& play, const Action<Context>& reset,
                      bool playing, bool done, const std::string& progress) {
    const bool is_play = id == "play";   // else "reset"
    const Action<Context>& a = is_play ? play : reset;
    handle_action_keys(ctx, {&a});
    action_button(ctx, a, is_play ? run_button_label(playing, done) : nullptr);
    if (!is_play || progress.empty()) return;
    ImGui::SameLine(0.0f, 1.5f * ImGui::GetFontSize());
    ImGui::AlignTextToFramePadding();
    const float room = ImGui::GetContentRegionAvail().x;
    if (ImGui::CalcTextSize(progress.c_str()).x <= room) {
        ImGui::TextUnformatted(progress.c_str());
        return;
    }
    ImGui::BeginGroup();   // a long translation wraps beside the button, never past the window
    flow_text(progress, ImGui::GetStyleColorVec4(ImGuiCol_Text), room);
    ImGui::EndGroup();
}

// A lab's window, all that the table of labs (labs.hpp) needs of it: written by the lab for its
// own context (LabContextOf<ItsUi>); the host passes it the lab's UI struct.
template <class Context>
struct LabWindow {
    const LabInfo* info;
    void (*draw)(Context& ctx);
    // The lab's figures as they are now (from the session, whether or not the lab was drawn),
    // for File ▸ Export all figures and `normlab --export-plot NAME`; null: none.
    std::vector<Plot> (*plots)(Context& ctx) = nullptr;
    // The lab's action table (action_table.hpp): its keys act while it is on screen, and
    // Help ▸ Keyboard shortcuts lists them; null: none.
    Actions<Context> (*actions)() = nullptr;
    // What a presenter slide of this lab may show; null: the lab drawn as it is.
    const SlideParts<Context>* slide = nullptr;
};

// The index of the lab with this id in the table of labs (labs.hpp), or -1: a lab names another
// by id ("Open the Explorer"), never by its place.
int find_lab(const std::string& id);

// "explorer, invariance, ...": for messages.
std::string lab_ids();

}  // namespace normlab::ui
