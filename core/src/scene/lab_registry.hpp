// NormLab core: the labs as one table — the one place in core where a lab is named
// (docs/ARCHITECTURE.md, Adding a lab): its section in scene files and its figures. Private to
// core's scene layer: scene.cpp reads and writes the sections, scene_plots.cpp the figures.
#pragma once

#include "normlab/plot/plot.hpp"
#include "normlab/plot/table.hpp"
#include "normlab/scene/session.hpp"

#include <nlohmann/json.hpp>

#include <string_view>
#include <vector>

namespace normlab {

struct LabEntry {
    std::string_view id;                                    // the app's lab id; its key under "labs"
    nlohmann::json (*write)(const Session& session) = nullptr;   // null: not in scene files
    void (*read)(SceneReader& in, Session& session) = nullptr;
    std::vector<std::string_view> names = {};               // its figures' names, in build's order
    std::vector<Plot> (*build)(const Session& session) = nullptr;   // null: no figures
    std::vector<std::string_view> table_names = {};         // its tables' names, in tables' order
    std::vector<Table> (*tables)(const Session& session) = nullptr;
    // The names among `names` that this session's lab draws (the Training lab: a decision map per
    // ticked variant, on 2D data), in build's order; null: all of them. Computes nothing.
    std::vector<std::string_view> (*shown)(const Session& session) = nullptr;
};

// Every lab, in the app's tab order.
const std::vector<LabEntry>& lab_registry();

// The labs with a section in scene files (write set), and those with figures (build set).
std::vector<const LabEntry*> section_labs();
std::vector<const LabEntry*> figure_labs();

}  // namespace normlab
