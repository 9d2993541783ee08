// NormLab core: the figures of a scene — every lab's plots built from the session by that lab's
// own core builders (invariance_curve_plot, gradient_sweep_plot, …), without a window.
//
// One registry (core/src/scene/lab_registry.cpp) feeds `normlab-cli export --scene FILE`, the app's
// File ▸ Export all figures and `normlab --export-plot NAME`: a figure has the same name, series
// and data wherever it is saved from. (The app then applies what the lecturer did on screen:
// the zoom and the series switched off in a legend.)
#pragma once

#include "normlab/labs/gradients_lab.hpp"
#include "normlab/plot/plot.hpp"
#include "normlab/scene/scene.hpp"
#include "normlab/plot/table.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace normlab {

// The lab ids that have figures, in the app's tab order: invariance, gradients, ….
std::vector<std::string_view> plot_labs();

// The names of every figure one lab can draw, in its order, without computing them (empty for a
// lab without figures or an unknown id).
std::vector<std::string_view> lab_plot_names(std::string_view lab);

// The names of the figures the lab draws for this session, in its order, without computing them:
// lab_plot_names less those its state does not draw (the Training lab's decision maps: one per
// ticked variant, on 2D data). lab_plots returns figures with exactly these names.
std::vector<std::string_view> lab_plot_names(const Session& session, std::string_view lab);

// The figures of one lab for this session (empty for a lab without figures or an unknown id).
// Throws InputError, prefixed with the lab id, when the lab's state cannot be computed. Some labs
// train to draw theirs: training a few seconds, depth about a minute at its defaults.
std::vector<Plot> lab_plots(const Session& session, std::string_view lab);

// The names of one lab's tables (table.hpp), and the tables for this session, as for plots.
std::vector<std::string_view> lab_table_names(std::string_view lab);
std::vector<Table> lab_tables(const Session& session, std::string_view lab);

// plot_labs() with the scene's own lab first (the order of scene_plot_names).
std::vector<std::string_view> scene_labs(const Scene& scene);

// The names of every figure of the scene, plots (lab_plot_names(session, lab)) and tables: those
// of its own lab first, then the other labs' in plot_labs() order; within a lab its plots, then
// its tables. Names are unique (each lab names its own figures). Computes nothing.
std::vector<std::string_view> scene_plot_names(const Scene& scene);

// Whether a name from scene_plot_names is a table's.
bool is_table_name(std::string_view name);

// One figure of the scene by name: only its lab is computed. Throws InputError for a name that
// is not one of scene_plot_names (the message lists them; for a figure the lab could draw with
// other settings, e.g. the map of an unticked variant, it says so), or a table's name (scene_table).
Plot scene_plot(const Scene& scene, std::string_view name);
Table scene_table(const Scene& scene, std::string_view name);

// The Gradient lab's five figures from its results, in the lab's order: gradients_input_scaling,
// gradients_weight_scaling, implicit_lr_outputs, implicit_lr_weight_norm, implicit_lr_relative_step.
// hidden_*: norm names switched off in the sweeps' legends (gradient_sweep_plot's `hidden`).
std::vector<Plot> gradient_lab_plots(const GradientLabResults& r, const std::vector<std::string>& hidden_input = {},
                                     const std::vector<std::string>& hidden_weight = {});

}  // namespace normlab
