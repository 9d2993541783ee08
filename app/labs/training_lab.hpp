// The Training lab: an MLP trained with several norms side by side (none, LayerNorm, RMSNorm,
// pRMSNorm, L2-Norm, BatchNorm) on identical data and initial weights, on a worker thread: live
// loss and accuracy against step or compute time (the RMSNorm paper's Figure 1 framing),
// decision regions on 2D data, per-layer gradient norms, the time the norms take, and a
// learning-rate stress test that shows which variants diverge.
#pragma once

#include "lab.hpp"
#include "plot_view.hpp"
#include "ui_util.hpp"

#include <normlab/plot/plot.hpp>
#include <normlab/labs/training_lab.hpp>

#include <imgui.h>

#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace normlab::ui {

inline constexpr LabInfo kTrainingInfo{
    tr_later("Training: none, LayerNorm, RMSNorm, pRMSNorm, L2-Norm and BatchNorm trained side by side"),
    "Hidden block (paper eq. 1): a = W x + c, then y = f(norm(a) ⊙ g + b) (norm before the activation)\n"
    "    or y = norm(f(a)) ⊙ g + b (after); the output layer has no norm\n"
    "LayerNorm (eq. 2–3): ā = (a − μ)/σ;  RMSNorm (eq. 4): ā = a / RMS(a);  pRMSNorm: RMS of the first\n"
    "    k = ⌈n·p⌉ entries;  L2-Norm: a / ‖a‖;  BatchNorm: per feature, over the mini-batch\n"
    "Loss: softmax cross-entropy, L = −(1/B) Σᵢ log pᵢ,yᵢ;  ∂L/∂z = (p − onehot(y)) / B\n"
    "SGD with momentum: v ← μv + ∂L/∂θ, θ ← θ − ηv (μ = 0.9);  Adam: β = 0.9, 0.999\n"
    "Same start: every variant has the same data, split, batch order and dense weights (one seed)\n"
    "Compute time (paper Fig. 1): Σ over the steps of (norm forward + backward) + (the rest)\n"
    "Diverged at step k: the mini-batch loss of step k is NaN, ±∞ or > 100 · ln K (K classes)",
    "normlab::TrainingLabWorker, run_training_lab, training_loss_plot, training_accuracy_plot,\n"
    "training_grad_norm_plot, training_time_plot (core/src/labs/training_lab.cpp) over Trainer\n"
    "(core/src/models/training.cpp), Mlp and its layers (core/src/models/mlp.cpp), make_dataset\n"
    "(core/src/models/datasets.cpp) and the norms' forward and backward (core/src/norm/norm.cpp);\n"
    "drawn by app/labs/training_lab.cpp.",
};

// A figure built from the snapshot on screen, rebuilt only when a new snapshot arrives
// (TrainingUi::generation), what it is drawn for (the TrainingAxis, or the gradient variant)
// or the legend switches (PlotView::hidden) change.
using TrainingFigure = CachedFigure<std::tuple<int, int, std::vector<std::string>>>;

// Display-only state of the Training lab; the settings live in TrainingLabState and the run's
// numbers in the worker's snapshots.
struct TrainingUi {
    std::unique_ptr<TrainingLabWorker> worker;         // the run on screen; null while the state cannot train
    bool playing = true;                               // the user wants it to play (the lab plays when opened)
    bool restart = false;                              // start the run again from step 0 (Reset)
    double pace = 0.0;                                 // steps per second the worker was last given
    RateMeter achieved;                                // steps per second the run reaches while playing
    std::string problem;                               // why the state cannot train (training_lab_problem)
    std::string failure;                               // why the worker stopped for good (out of memory)
    std::shared_ptr<const TrainingLabSnapshot> shown;  // the snapshot on screen
    int generation = 0;                                // counts the snapshots shown
    // [variant]: its decision map (training_map_plot), for the generation and show_test_points
    CachedFigure<std::pair<int, bool>, std::vector<Plot>> maps;
    TextField csv_path;                                // the CSV path field (applied by Enter or Load; fields.hpp)
    bool show_test_points = false;                     // the maps show the test cases too (rings)
    PlotView loss_view, accuracy_view, grad_view, time_view;
    TrainingFigure loss, accuracy, grads, time;
    std::vector<NormStepCost> gpu_costs;   // the GPU kernels' cost per step, on the step-time figure
};
using TrainingContext = LabContextOf<TrainingUi>;

// The lab's row in the table of labs (labs.cpp): all the table needs of it (LabWindow, lab.hpp).
// Its draw function reads and edits ctx.session.training. Its figures as they are now (its curves
// and, on 2D data, each variant's map): from the run on screen, or, when the lab has not run yet,
// from a whole run of the session's settings on this thread. A presenter slide may name figures
// training_maps (each variant's decision map and test accuracy), training_loss,
// training_accuracy, training_grad_norms, training_step_time; controls play (Play / Pause, also
// Space), reset (also R).
extern const LabWindow<TrainingContext> kTrainingWindow;

}  // namespace normlab::ui
