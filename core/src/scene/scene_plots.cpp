// NormLab core: the figures of a scene (see scene_plots.hpp).
//
// [SECTION] Per lab    — each lab's figures from the session, through that lab's core builders
// [SECTION] Registry   — the labs with figures (lab_registry.cpp names them)
#include "normlab/scene/scene_plots.hpp"

#include "scene/lab_registry.hpp"

#include "normlab/labs/depth_lab.hpp"
#include "normlab/base/input_error.hpp"
#include "normlab/labs/invariance_lab.hpp"

#include <algorithm>
#include <stdexcept>

namespace normlab {

// [SECTION] Per lab -------------------------------------------------------------------------

std::vector<Plot> gradient_lab_plots(const GradientLabResults& r, const std::vector<std::string>& hidden_input,
                                     const std::vector<std::string>& hidden_weight) {
    return {gradient_sweep_plot(r, Scaling::Input, hidden_input), gradient_sweep_plot(r, Scaling::Weight, hidden_weight),
            sgd_output_plot(r), sgd_weight_norm_plot(r), sgd_relative_step_plot(r)};
}

// [SECTION] Registry ------------------------------------------------------------------------

namespace {

const LabEntry* find_lab(std::string_view lab) {
    for (const LabEntry* l : figure_labs())
        if (l->id == lab) return l;
    return nullptr;
}

}  // namespace

std::vector<std::string_view> plot_labs() {
    std::vector<std::string_view> out;
    for (const LabEntry* l : figure_labs()) out.push_back(l->id);
    return out;
}

std::vector<std::string_view> lab_plot_names(std::string_view lab) {
    const LabEntry* l = find_lab(lab);
    return l != nullptr ? l->names : std::vector<std::string_view>{};
}

std::vector<std::string_view> lab_plot_names(const Session& session, std::string_view lab) {
    const LabEntry* l = find_lab(lab);
    if (l == nullptr) return {};
    return l->shown != nullptr ? l->shown(session) : l->names;
}

std::vector<Plot> lab_plots(const Session& session, std::string_view lab) {
    const LabEntry* l = find_lab(lab);
    if (l == nullptr) return {};
    try {
        return l->build(session);
    } catch (const std::invalid_argument& e) {
        throw InputError(std::string(lab) + ": " + e.what());
    }
}

std::vector<std::string_view> lab_table_names(std::string_view lab) {
    const LabEntry* l = find_lab(lab);
    return l != nullptr ? l->table_names : std::vector<std::string_view>{};
}

std::vector<Table> lab_tables(const Session& session, std::string_view lab) {
    const LabEntry* l = find_lab(lab);
    if (l == nullptr || l->tables == nullptr) return {};
    try {
        return l->tables(session);
    } catch (const std::invalid_argument& e) {
        throw InputError(std::string(lab) + ": " + e.what());
    }
}

std::vector<std::string_view> scene_labs(const Scene& scene) {
    std::vector<std::string_view> labs = plot_labs();
    const auto own = std::find(labs.begin(), labs.end(), scene.lab);
    if (own != labs.end()) std::rotate(labs.begin(), own, own + 1);
    return labs;
}

std::vector<std::string_view> scene_plot_names(const Scene& scene) {
    std::vector<std::string_view> out;
    for (std::string_view lab : scene_labs(scene)) {
        const LabEntry& l = *find_lab(lab);
        const std::vector<std::string_view> names = lab_plot_names(scene.session, lab);
        out.insert(out.end(), names.begin(), names.end());
        out.insert(out.end(), l.table_names.begin(), l.table_names.end());
    }
    return out;
}

bool is_table_name(std::string_view name) {
    for (const LabEntry* l : figure_labs())
        if (std::find(l->table_names.begin(), l->table_names.end(), name) != l->table_names.end()) return true;
    return false;
}

namespace {

[[noreturn]] void unknown_figure(const Scene& scene, std::string_view name) {
    std::string names, lab;
    for (std::string_view n : scene_plot_names(scene)) names += (names.empty() ? "" : ", ") + std::string(n);
    for (const LabEntry* l : figure_labs())
        if (std::find(l->names.begin(), l->names.end(), name) != l->names.end()) lab = l->id;
    if (!lab.empty())
        throw InputError("plot " + quote_for_message(name) + " is not drawn with this scene's " + lab +
                         " settings (e.g. a decision map of a variant that is not ticked, or of data that are not 2D)"
                         " (plots: " + names + ")");
    throw InputError("unknown plot " + quote_for_message(name) + " (plots: " + names + ")");
}

}  // namespace

Plot scene_plot(const Scene& scene, std::string_view name) {
    for (const LabEntry* entry : figure_labs()) {
        const LabEntry& l = *entry;
        const std::vector<std::string_view> names = lab_plot_names(scene.session, l.id);
        if (std::find(names.begin(), names.end(), name) == names.end()) continue;
        for (Plot& p : lab_plots(scene.session, l.id))
            if (p.name == name) return std::move(p);
    }
    unknown_figure(scene, name);
}

Table scene_table(const Scene& scene, std::string_view name) {
    for (const LabEntry* entry : figure_labs()) {
        const LabEntry& l = *entry;
        if (std::find(l.table_names.begin(), l.table_names.end(), name) == l.table_names.end()) continue;
        for (Table& t : lab_tables(scene.session, l.id))
            if (t.name == name) return std::move(t);
    }
    unknown_figure(scene, name);
}

}  // namespace normlab
