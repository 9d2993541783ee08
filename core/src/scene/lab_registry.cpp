// NormLab core: the labs as one table (lab_registry.hpp).
//
// [SECTION] Figures  — each lab's figures from the session, through that lab's core builders
// [SECTION] Registry — one row per lab: a new lab adds its row here
#include "scene/lab_registry.hpp"

#include "normlab/labs/state_json.hpp"
#include "normlab/labs/explorer_figures.hpp"
#include "normlab/labs/invariance_figures.hpp"
#include "normlab/scene/scene_plots.hpp"

#include <exception>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>

namespace normlab {

namespace {

// [SECTION] Figures -------------------------------------------------------------------------

std::vector<Plot> explorer_figures(const Session& session) {
    return explorer_plots(session.explorer, compute_explorer(session.explorer));
}

std::vector<Plot> invariance_figures(const Session& session) {
    std::vector<Plot> plots = {invariance_curve_plot(session.invariance)};
    for (Plot& p : invariance_matrix_plots(session.invariance)) plots.push_back(std::move(p));
    std::optional<ExplorerResults> explorer;   // the panel's bars: the Explorer's outputs now
    try {
        explorer = compute_explorer(session.explorer);
    } catch (const std::exception&) {
        explorer.reset();   // figures that say so
    }
    for (Plot& p : invariance_explorer_plots(explorer ? &*explorer : nullptr, nullptr, true)) plots.push_back(std::move(p));
    return plots;
}

std::vector<Table> invariance_tables(const Session& session) {
    return {invariance_measured_table(session.invariance), invariance_paper_table()};
}

std::vector<Plot> gradient_figures(const Session& session) {
    const GradientLabState& state = session.gradients;
    return gradient_lab_plots(compute_gradient_lab(state, gradient_lab_probe(state, session.explorer)));
}

std::vector<Plot> geometry_figures(const Session& session) {
    return {geometry_view_plot(session.geometry, compute_geometry(session.geometry))};
}

// A whole run of the lab's settings on this thread (the app exports its live run instead).
std::vector<Plot> training_figures(const Session& session) {
    const TrainingLabSnapshot run = run_training_lab(session.training);
    if (!run.error.empty()) throw std::invalid_argument(run.error);
    return training_lab_plots(run, session.training);
}

constexpr std::string_view kTrainingCurves[] = {"training_loss_vs_step",     "training_accuracy_vs_step",
                                                "training_loss_vs_time",     "training_accuracy_vs_time",
                                                "training_grad_norms",       "training_step_time"};

// The names of the variants' maps, one per norm a variant can use (kTrainingNorms order).
const std::vector<std::string>& training_map_names() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (Norm n : kTrainingNorms) out.push_back(training_map_name(n));
        return out;
    }();
    return names;
}

std::vector<std::string_view> training_names() {
    std::vector<std::string_view> out(std::begin(kTrainingCurves), std::end(kTrainingCurves));
    out.insert(out.end(), training_map_names().begin(), training_map_names().end());
    return out;
}

// The curves, and a map per ticked variant where the lab draws maps (training_lab_plots' order).
std::vector<std::string_view> training_shown(const Session& session) {
    std::vector<std::string_view> out(std::begin(kTrainingCurves), std::end(kTrainingCurves));
    if (!training_lab_has_maps(session.training)) return out;
    for (int k = 0; k < kTrainingNormCount; ++k)
        if (session.training.variants[static_cast<std::size_t>(k)])
            out.push_back(training_map_names()[static_cast<std::size_t>(k)]);
    return out;
}

// The whole run and the learning-rate sweep on this thread (about a minute at the defaults).
std::vector<Plot> depth_figures(const Session& session) {
    const DepthLabSnapshot run = run_depth_lab(session.depth);
    if (!run.error.empty()) throw std::invalid_argument(run.error);
    return depth_lab_plots(run);
}

std::vector<Plot> precision_figures(const Session& session) {
    return precision_lab_plots(session.precision, compute_precision_lab(session.precision));
}

std::vector<Table> precision_tables(const Session& session) {
    return {precision_outputs_table(session.precision, compute_precision_lab(session.precision)),
            precision_conventions_table(session.precision)};
}

// [SECTION] Registry ------------------------------------------------------------------------

// The lab `id` whose state is Session::*Member, in scene files through the state_to_json /
// state_from_json pair declared next to that state's struct; its figures and tables, if any, and
// which of its figures a session draws (null: all).
template <auto Member>
LabEntry lab(std::string_view id, std::vector<std::string_view> names = {},
             std::vector<Plot> (*build)(const Session&) = nullptr, std::vector<std::string_view> table_names = {},
             std::vector<Table> (*tables)(const Session&) = nullptr,
             std::vector<std::string_view> (*shown)(const Session&) = nullptr) {
    return {id, [](const Session& s) { return nlohmann::json(state_to_json(s.*Member)); },
            [](SceneReader& in, Session& s) { state_from_json(in, s.*Member); }, std::move(names), build,
            std::move(table_names), tables, shown};
}

}  // namespace

// tests/core/test_scene.cpp checks that each lab's figure names are those its build returns.
const std::vector<LabEntry>& lab_registry() {
    static const std::vector<LabEntry> labs = {
        lab<&Session::explorer>("explorer",
                                {"explorer_summed_inputs", "explorer_layernorm", "explorer_rmsnorm", "explorer_weights"},
                                explorer_figures),
        lab<&Session::invariance>("invariance",
                                  {"invariance_vs_delta", "invariance_x", "invariance_weights",
                                   "invariance_explorer_layernorm", "invariance_explorer_rmsnorm"},
                                  invariance_figures,
                                  {"invariance_table_measured", "invariance_table_paper"}, invariance_tables),
        lab<&Session::worked>("worked"),
        lab<&Session::gradients>("gradients",
                                 {"gradients_input_scaling", "gradients_weight_scaling", "implicit_lr_outputs",
                                  "implicit_lr_weight_norm", "implicit_lr_relative_step"},
                                 gradient_figures),
        lab<&Session::geometry>("geometry", {"geometry_view"}, geometry_figures),
        lab<&Session::training>("training", training_names(), training_figures, {}, nullptr, training_shown),
        LabEntry{"gpu"},   // its sweep is in Session, not yet in scene files; its figures need a GPU
        lab<&Session::depth>("depth", {"depth_loss", "depth_layer_grads", "depth_layer_grads_over_steps", "depth_lr_sweep"},
                             depth_figures),
        lab<&Session::precision>("precision", {"precision_delta_sweep", "precision_offset_sweep"}, precision_figures,
                                 {"precision_outputs", "precision_conventions"}, precision_tables),
    };
    return labs;
}

namespace {

template <class Hook>
std::vector<const LabEntry*> labs_with(Hook LabEntry::*hook) {
    std::vector<const LabEntry*> out;
    for (const LabEntry& l : lab_registry())
        if (l.*hook != nullptr) out.push_back(&l);
    return out;
}

}  // namespace

std::vector<const LabEntry*> section_labs() { return labs_with(&LabEntry::write); }
std::vector<const LabEntry*> figure_labs() { return labs_with(&LabEntry::build); }

}  // namespace normlab
