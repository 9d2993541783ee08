// NormLab core: the session — every lab's state, plain data the GUI edits, saved in scene files
// and undone as a whole (docs/ARCHITECTURE.md, Data flow).
#pragma once

#include "normlab/labs/depth_lab.hpp"
#include "normlab/labs/explorer_lab.hpp"
#include "normlab/labs/geometry_lab.hpp"
#include "normlab/labs/gpu_lab.hpp"
#include "normlab/labs/gradients_lab.hpp"
#include "normlab/labs/invariance_lab.hpp"
#include "normlab/labs/precision_lab.hpp"
#include "normlab/labs/training_lab.hpp"
#include "normlab/labs/worked_lab.hpp"

namespace normlab {

// [SECTION] Session -------------------------------------------------------------------------

// A lab's state is a member here and has a state_to_json / state_from_json pair next to its
// struct; the lab registry (core/src/scene/lab_registry.cpp) names it with one row.
struct Session {
    ExplorerState explorer;
    InvarianceLabState invariance;
    WorkedState worked;
    GradientLabState gradients;
    GeometryLabState geometry;
    TrainingLabState training;
    DepthLabState depth;
    GpuLabState gpu;   // the GPU lab's sweep (not in scene files yet)
    PrecisionLabState precision;
};

}  // namespace normlab
