// The labs, as one table: the tab bar, `normlab --lab NAME`, the Help menu and the GUI tests all
// read it, so adding a lab is one row here and one file under app/.
#pragma once

#include "depth_lab.hpp"
#include "explorer_lab.hpp"
#include "geometry_lab.hpp"
#include "gpu_lab.hpp"
#include "gradients_lab.hpp"
#include "invariance_lab.hpp"
#include "lab.hpp"
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
};

struct Lab {
    const char* id;         // `normlab --lab ID`, file-safe
    const char* tab;        // the tab's label
    const LabInfo* info;
    void (*draw)(LabContext& ctx);
    // The lab's figures as they are now (from the session, whether or not the lab was drawn),
    // for File ▸ Export all figures and `normlab --export-plot NAME`; null: none. Optional and
    // last, so that a row without it still compiles.
    std::vector<Plot> (*plots)(LabContext& ctx) = nullptr;
    // The lab's own keys, for Help ▸ Keyboard shortcuts, built from the table its key handler
    // reads; null: none. Optional too.
    std::vector<KeyHelp> (*keys)() = nullptr;
};

extern const Lab kLabs[];
extern const int kLabCount;

// The index of the lab with this id, or -1.
int find_lab(const std::string& id);

// "explorer, invariance, ...": for messages.
std::string lab_ids();

// One window filling pos/size: the lab tabs, and the lab on screen below them.
void draw_labs(LabContext& ctx, ImVec2 pos, ImVec2 size);

}  // namespace normlab::ui
