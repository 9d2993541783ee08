// NormLab core: the figures of a scene (see scene_plots.hpp).
//
// [SECTION] Per lab    — each lab's figures from the session, through that lab's core builders
// [SECTION] Registry   — one line per lab with figures (the hooks for new labs are here)
#include "normlab/scene/scene_plots.hpp"

#include "normlab/labs/depth_lab.hpp"
#include "normlab/norm/eval.hpp"
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

namespace {

std::vector<Plot> invariance_figures(const Session& session) { return {invariance_curve_plot(session.invariance)}; }

std::vector<Table> invariance_tables(const Session& session) {
    return {invariance_measured_table(session.invariance), invariance_paper_table()};
}

std::vector<Plot> gradient_figures(const Session& session) {
    const GradientLabState& state = session.gradients;
    return gradient_lab_plots(compute_gradient_lab(state, gradient_lab_probe(state, session.explorer)));
}

// A whole run of the lab's settings on this thread (the app exports its live run instead).
std::vector<Plot> training_figures(const Session& session) {
    const TrainingLabSnapshot run = run_training_lab(session.training);
    if (!run.error.empty()) throw std::invalid_argument(run.error);
    return training_lab_plots(run, session.training);
}

// The whole run and the learning-rate sweep on this thread (about a minute at the defaults).
std::vector<Plot> depth_figures(const Session& session) {
    const DepthLabSnapshot run = run_depth_lab(session.depth);
    if (!run.error.empty()) throw std::invalid_argument(run.error);
    return depth_lab_plots(run);
}

// [SECTION] Registry ------------------------------------------------------------------------

struct LabPlots {
    std::string_view lab;                   // the app's lab id
    std::vector<std::string_view> names;    // build's figures' names, in its order
    std::vector<Plot> (*build)(const Session& session);
    std::vector<std::string_view> table_names = {};   // tables' names, in tables' order
    std::vector<Table> (*tables)(const Session& session) = nullptr;
};

// A new lab with figures adds one line: its id, its figures' names and a function Session → its
// Plots (in core). tests/core/test_scene.cpp checks that the names are the built ones.
const LabPlots kLabPlots[] = {
    {"invariance", {"invariance_vs_delta"}, invariance_figures, {"invariance_table_measured", "invariance_table_paper"},
     invariance_tables},
    {"gradients",
     {"gradients_input_scaling", "gradients_weight_scaling", "implicit_lr_outputs", "implicit_lr_weight_norm",
      "implicit_lr_relative_step"},
     gradient_figures},
    {"training",
     {"training_loss_vs_step", "training_accuracy_vs_step", "training_loss_vs_time", "training_accuracy_vs_time",
      "training_grad_norms", "training_step_time"},
     training_figures},
    {"depth", {"depth_loss", "depth_layer_grads", "depth_layer_grads_over_steps", "depth_lr_sweep"}, depth_figures},
};

const LabPlots* find_lab(std::string_view lab) {
    for (const LabPlots& l : kLabPlots)
        if (l.lab == lab) return &l;
    return nullptr;
}

}  // namespace

std::vector<std::string_view> plot_labs() {
    std::vector<std::string_view> out;
    for (const LabPlots& l : kLabPlots) out.push_back(l.lab);
    return out;
}

std::vector<std::string_view> lab_plot_names(std::string_view lab) {
    const LabPlots* l = find_lab(lab);
    return l != nullptr ? l->names : std::vector<std::string_view>{};
}

std::vector<Plot> lab_plots(const Session& session, std::string_view lab) {
    const LabPlots* l = find_lab(lab);
    if (l == nullptr) return {};
    try {
        return l->build(session);
    } catch (const std::invalid_argument& e) {
        throw InputError(std::string(lab) + ": " + e.what());
    }
}

std::vector<std::string_view> lab_table_names(std::string_view lab) {
    const LabPlots* l = find_lab(lab);
    return l != nullptr ? l->table_names : std::vector<std::string_view>{};
}

std::vector<Table> lab_tables(const Session& session, std::string_view lab) {
    const LabPlots* l = find_lab(lab);
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
        const LabPlots& l = *find_lab(lab);
        out.insert(out.end(), l.names.begin(), l.names.end());
        out.insert(out.end(), l.table_names.begin(), l.table_names.end());
    }
    return out;
}

bool is_table_name(std::string_view name) {
    for (const LabPlots& l : kLabPlots)
        if (std::find(l.table_names.begin(), l.table_names.end(), name) != l.table_names.end()) return true;
    return false;
}

namespace {

[[noreturn]] void unknown_figure(const Scene& scene, std::string_view name) {
    std::string names;
    for (std::string_view n : scene_plot_names(scene)) names += (names.empty() ? "" : ", ") + std::string(n);
    throw InputError("unknown plot " + quote_for_message(name) + " (plots: " + names + ")");
}

}  // namespace

Plot scene_plot(const Scene& scene, std::string_view name) {
    for (const LabPlots& l : kLabPlots) {
        if (std::find(l.names.begin(), l.names.end(), name) == l.names.end()) continue;
        for (Plot& p : lab_plots(scene.session, l.lab))
            if (p.name == name) return std::move(p);
    }
    unknown_figure(scene, name);
}

Table scene_table(const Scene& scene, std::string_view name) {
    for (const LabPlots& l : kLabPlots) {
        if (std::find(l.table_names.begin(), l.table_names.end(), name) == l.table_names.end()) continue;
        for (Table& t : lab_tables(scene.session, l.lab))
            if (t.name == name) return std::move(t);
    }
    unknown_figure(scene, name);
}

}  // namespace normlab
