// The labs, as one table: the tab bar, `normlab --lab NAME`, the Help menu, the slides and the
// GUI tests all read it, so adding a lab is a member of LabUis and a row of kLabs (labs.cpp)
// besides its own files (docs/ARCHITECTURE.md, Adding a lab).
#pragma once

#include "depth_lab.hpp"
#include "explorer_lab.hpp"
#include "geometry_lab.hpp"
#include "gpu_lab.hpp"
#include "gradients_lab.hpp"
#include "invariance_lab.hpp"
#include "lab.hpp"
#include "precision_lab.hpp"
#include "training_lab.hpp"
#include "worked_lab.hpp"

#include <normlab/plot/plot.hpp>

#include <imgui.h>

#include <string>
#include <vector>

namespace normlab::ui {

struct LabUis {
    ExplorerUi explorer;
    InvarianceUi invariance;
    WorkedUi worked;
    GradientsUi gradients;
    GeometryUi geometry;
    TrainingUi training;
    GpuUi gpu;
    DepthUi depth;
    PrecisionUi precision;
};

// A row of the table: the lab's window (lab.hpp's LabWindow) with its UI struct picked out of
// LabUis, so that the shell calls every lab alike and each lab sees only its own.
struct Lab {
    const char* id;         // `normlab --lab ID`, file-safe
    const char* tab;        // the tab's label
    const LabInfo* info;
    const SlideNames* slide;   // what a presenter slide of this lab may name; null: none (drawn as it is)
    void (*draw)(LabContext& ctx, LabUis& uis) = nullptr;
    std::vector<Plot> (*plots)(LabContext& ctx, LabUis& uis) = nullptr;   // null: none (LabWindow::plots)
    void (*handle_keys)(LabContext& ctx, LabUis& uis) = nullptr;          // its action table's keys
    std::vector<KeyHelp> (*key_help)() = nullptr;                         // Help ▸ Keyboard shortcuts
    // The slide's functions (SlideParts), each null where the lab has none.
    void (*slide_update)(LabContext& ctx, LabUis& uis) = nullptr;
    void (*draw_figure)(LabContext& ctx, LabUis& uis, const std::string& id, ImVec2 size) = nullptr;
    void (*draw_control)(LabContext& ctx, LabUis& uis, const std::string& id) = nullptr;
    void (*set_playing)(LabContext& ctx, LabUis& uis, bool playing) = nullptr;
};

extern const Lab kLabs[];
extern const int kLabCount;

// One window filling pos/size: the lab tabs, and the lab on screen below them.
void draw_labs(LabContext& ctx, LabUis& uis, ImVec2 pos, ImVec2 size);

}  // namespace normlab::ui
