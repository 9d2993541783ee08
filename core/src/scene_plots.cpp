// NormLab core: the figures of a scene (see scene_plots.hpp).
//
// [SECTION] Per lab    — each lab's figures from the session, through that lab's core builders
// [SECTION] Registry   — one line per lab with figures (the hooks for new labs are here)
#include "normlab/scene_plots.hpp"

#include "normlab/eval.hpp"
#include "normlab/invariance_lab.hpp"

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

// As the app computes them: the lab's target t fitted to the Explorer's layer first.
std::vector<Plot> gradient_figures(const Session& session) {
    GradientLabState state = session.gradients;
    gradient_lab_fit(state, explorer_outputs(session.explorer));
    return gradient_lab_plots(compute_gradient_lab(state, gradient_lab_probe(state, session.explorer)));
}

// A whole run of the lab's settings on this thread (the app exports its live run instead).
std::vector<Plot> training_figures(const Session& session) {
    const TrainingLabSnapshot run = run_training_lab(session.training);
    if (!run.error.empty()) throw std::invalid_argument(run.error);
    return training_lab_plots(run, session.training);
}

// [SECTION] Registry ------------------------------------------------------------------------

struct LabPlots {
    std::string_view lab;   // the app's lab id
    std::vector<Plot> (*build)(const Session& session);
};

// A new lab with figures adds one line: its id and a function Session → its Plots (in core).
const LabPlots kLabPlots[] = {
    {"invariance", invariance_figures},
    {"gradients", gradient_figures},
    {"training", training_figures},
    // HOOK(depth lab):    {"depth", depth_figures},
};

}  // namespace

std::vector<std::string_view> plot_labs() {
    std::vector<std::string_view> out;
    for (const LabPlots& l : kLabPlots) out.push_back(l.lab);
    return out;
}

std::vector<Plot> lab_plots(const Session& session, std::string_view lab) {
    for (const LabPlots& l : kLabPlots) {
        if (l.lab != lab) continue;
        try {
            return l.build(session);
        } catch (const std::invalid_argument& e) {
            throw InputError(std::string(lab) + ": " + e.what());
        }
    }
    return {};
}

std::vector<Plot> scene_plots(const Scene& scene) {
    std::vector<Plot> out = lab_plots(scene.session, scene.lab);
    for (const LabPlots& l : kLabPlots) {
        if (l.lab == scene.lab) continue;
        for (Plot& p : lab_plots(scene.session, l.lab)) out.push_back(std::move(p));
    }
    return out;
}

}  // namespace normlab
