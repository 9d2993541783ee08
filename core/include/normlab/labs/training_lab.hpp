// NormLab core: the Training lab — the MLP of mlp.hpp trained with several norms side by side,
// on identical data and identical initial weights, on a worker thread, and the lab's figures.
//
// [SECTION] State      — data, model, optimizer, the variants (plain data the GUI edits)
// [SECTION] Runs       — the TrainConfig of each variant; what makes two states the same run
// [SECTION] Snapshots  — what a run publishes: every variant's history, grid and divergence
// [SECTION] Worker     — one std::thread stepping the variants in lockstep: play, pause, advance
// [SECTION] Summaries  — numbers the lab prints per variant (time per step, its norm share)
// [SECTION] Plots      — loss and accuracy against step or compute time, gradient norms, time
//
// Same start: every variant is Trainer(make_dataset(state.data), config) with the same seed, so
// the data, the split, the mini-batch order and the dense layers' initial weights are identical
// (Mlp draws them from seed stream 2 and its norm layers draw nothing: g = 1, b = 0); only the
// norm differs. A run is a function of the state (same_run()), bit for bit as training.hpp says;
// the timings beside it are wall clock and are not.
//
// Divergence: a variant has diverged at step k when the mini-batch loss of step k is NaN or ±∞,
// or above kDivergedLossFactor · ln K (K classes; ln K is the loss of guessing). In double
// precision the loss of a blown-up net grows to 10¹⁶ and beyond long before it turns NaN, so the
// bound is what catches it in practice. A diverged variant trains no further; its snapshot keeps
// the steps before k, so that no NaN or ∞ ever reaches a figure.
#pragma once

#include "normlab/models/datasets.hpp"
#include "normlab/base/step_worker.hpp"
#include "normlab/base/number_rule.hpp"
#include "normlab/plot/plot.hpp"
#include "normlab/models/training.hpp"

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <mutex>
#include <string>
#include <vector>

namespace normlab {

class SceneReader;   // state_json.hpp

// [SECTION] State ---------------------------------------------------------------------------

// The norms a variant can use, in display order (index k of TrainingLabState::variants).
inline constexpr int kTrainingNormCount = 6;
inline constexpr Norm kTrainingNorms[kTrainingNormCount] = {Norm::None,     Norm::LayerNorm, Norm::RMSNorm,
                                                            Norm::PRMSNorm, Norm::L2Norm,    Norm::BatchNorm};

inline constexpr double kTrainingMinLr = 1e-4, kTrainingMaxLr = 1.0;
inline constexpr int kTrainingMinBatch = 1, kTrainingMaxBatch = 512;
inline constexpr int kTrainingMinSteps = 10, kTrainingMaxSteps = 20000;
inline constexpr double kTrainingMinSpeed = 5.0, kTrainingMaxSpeed = 5000.0;   // Play's steps per second
inline constexpr double kMinStressFactor = 2.0, kMaxStressFactor = 100.0;
// What the lab's fields accept (the GUI and scene files alike; pRMSNorm's p: kFractionRule).
inline constexpr NumberRule kTrainingLrRule{kTrainingMinLr, kTrainingMaxLr};
inline constexpr NumberRule kTrainingNoiseRule{0.0, 0.5};
inline constexpr NumberRule kTrainingRatioRule{0.1, 0.9};   // the training share of the cases
inline constexpr NumberRule kTrainingSpeedRule{kTrainingMinSpeed, kTrainingMaxSpeed};

// The pace a run achieves (the slider asks for one; a slow model on a slow PC trains slower):
// steps per second over windows of at least one second of the caller's clock.
class RateMeter {
public:
    // The run is at `step` at time `now_s`; a step that goes back (a new run) or `running` false
    // (paused) starts over.
    void update(double now_s, int step, bool running);
    // Steps per second over the last full window; nullopt until one has passed.
    std::optional<double> rate() const { return rate_; }

private:
    double t0_ = 0.0;
    int step0_ = -1;
    std::optional<double> rate_;
};
inline constexpr NumberRule kStressFactorRule{kMinStressFactor, kMaxStressFactor};
inline constexpr double kDivergedLossFactor = 100.0;   // diverged: loss > 100 · ln K (see the top)
inline constexpr int kTrainingEvaluations = 100;       // evaluations per run (eval_every = steps / 100)
inline constexpr int kTrainingGridSize = 48;           // decision grids: G × G cells
inline constexpr int kTrainingPlotPoints = 100;        // per-step curves: at most this many points per run

// What the loss and accuracy curves are drawn against: optimizer steps, or the compute time of
// those steps (each variant's own, compute_ms(): the RMSNorm paper's Figure 1 framing).
enum class TrainingAxis { Step, Time };

// Fields of `data` and `train` the lab sets itself, whatever they hold: train.model.norm.norm
// (each variant's own), train.eval_every (training_variant_config), data.seed (= train.seed).
// A new session's model settings: TrainConfig's, in float32 (the fast path; train.precision f64 is
// the reference, normlab-cli train's default; scene files without the key read as f64).
inline TrainConfig training_lab_default_config() {
    TrainConfig c;
    c.precision = Precision::F32;
    return c;
}

struct TrainingLabState {
    DataSpec data;                     // data set, noise, train/test ratio, CSV path (spiral by default)
    TrainConfig train = training_lab_default_config();   // model, optimizer, steps, batch size, seed,
                                                         // precision; model.norm.p: pRMSNorm's p
    std::array<bool, kTrainingNormCount> variants{true, true, true, true, false, false};   // none, LN, RMS, pRMS
    bool stress = false;               // the learning-rate stress test: lr × stress_factor
    double stress_factor = 30.0;       // [kMinStressFactor, kMaxStressFactor]
    // Display: they change no number of a run.
    double steps_per_second = 200.0;   // Play's pace, [kTrainingMinSpeed, kTrainingMaxSpeed] (the top: unpaced)
    TrainingAxis axis = TrainingAxis::Step;
    int grad_variant = 2;              // index into kTrainingNorms: whose per-layer gradient norms are plotted
};

// Scene file (scene.hpp, state_json.hpp): every field by name; missing keys keep `state`'s values.
nlohmann::json state_to_json(const TrainingLabState& state);
void state_from_json(SceneReader& in, TrainingLabState& state);

// The data set `kind` with the lab's recommended settings for it (default_data_spec and
// default_train_config: width, learning rate for the chosen optimizer, batch size, steps);
// the model's depth, activation and placement, the optimizer, the seed and the variants stay.
void training_lab_choose_dataset(TrainingLabState& state, DatasetKind kind);

// The optimizer `kind` with its recommended learning rate for the data set (default_train_config).
void training_lab_choose_optimizer(TrainingLabState& state, OptimizerKind kind);

// [SECTION] Runs ----------------------------------------------------------------------------

// The norms ticked in state.variants, in kTrainingNorms order.
std::vector<Norm> training_variants(const TrainingLabState& state);

// state.train for one variant: model.norm.norm = norm, the learning rate × stress_factor under
// stress, eval_every = max(1, steps / kTrainingEvaluations).
TrainConfig training_variant_config(const TrainingLabState& state, Norm norm);

// The learning rate in force (× stress_factor under stress).
double training_lab_lr(const TrainingLabState& state);

// Why the state cannot start a run, in one sentence for the user ("Tick at least one variant."),
// or empty. Problems only the data can tell (a bad CSV file) show up in the run's snapshot.
std::string training_lab_problem(const TrainingLabState& state);

// Whether a and b give the same run: every field but the display ones compared.
bool same_run(const TrainingLabState& a, const TrainingLabState& b);

// [SECTION] Snapshots -----------------------------------------------------------------------

struct TrainingVariant {
    Norm norm = Norm::None;
    TrainSnapshot run;          // history so far; run.grid: its decision grid now (2D data; diverged: the last one)
    EvalResult initial;         // before the first step, on the whole train and test sets
    int diverged_at = 0;        // > 0: the step whose loss diverged (see the top); run holds the steps before it
};

struct TrainingLabSnapshot {
    int step = 0;                            // steps every live variant has done
    int total_steps = 0;
    double lr = 0.0;                         // the learning rate of the run
    std::string error;                       // set when the run could not start (the data, the config): why
    std::shared_ptr<const Dataset> data;     // the data set trained on; null with an error
    std::vector<TrainingVariant> variants;   // in kTrainingNorms order

    // Whether the run can go no further: an error, every step done, or every variant diverged.
    bool done() const;
};

// A whole run on the calling thread, from step 0 to the last (what `normlab-cli export` and the
// app's exports use when no run is on screen). Errors land in the snapshot's `error`.
TrainingLabSnapshot run_training_lab(const TrainingLabState& state);

// [SECTION] Worker --------------------------------------------------------------------------
//
// The worker thread builds the data set and the variants (so that a large CSV file never stalls
// the UI), publishes step 0, then steps every live variant once per step while it is allowed to:
//   play(v)        — towards the last step at v steps per second (v ≤ 0: as fast as it can);
//   pause()        — stop after the step in progress;
//   advance(n)     — n more steps, unpaced, then pause (the Step button; scripted runs).
// It is a StepWorker (base/step_worker.hpp) whose units are steps: it publishes a snapshot at
// most every kPublishInterval while it trains, and always when it stops, so that a pause, an
// advance or the end is on screen exactly. The destructor stops the thread and joins it: within
// one step or one publish (loading a data set is not interrupted).
class TrainingLabJob;   // training_lab.cpp

class TrainingLabWorker {
public:
    explicit TrainingLabWorker(const TrainingLabState& state);
    ~TrainingLabWorker();
    TrainingLabWorker(const TrainingLabWorker&) = delete;
    TrainingLabWorker& operator=(const TrainingLabWorker&) = delete;

    void play(double steps_per_second);
    void set_speed(double steps_per_second);   // the pace of a play in progress
    void pause();
    // Allows n more steps (from the steps done or allowed so far when paused) and returns the step
    // the worker will stop at (at most the last).
    int advance(int n);
    // Blocks until a snapshot of at least `step` steps is published, or the run can go no
    // further (done(), or stopped). Returns whether `step` was reached.
    bool wait_for(int step) const;

    std::shared_ptr<const TrainingLabSnapshot> latest() const;
    const TrainingLabState& state() const { return state_; }   // what it trains (constant)
    bool playing() const;                                        // play() in force, not yet done
    // Empty while it works; else why it stopped for good ("out of memory"; base/step_worker.hpp).
    std::string failure() const;

private:
    const TrainingLabState state_;
    std::unique_ptr<StepWorker<TrainingLabJob>> worker_;
};

// [SECTION] Summaries -----------------------------------------------------------------------

// Median wall-clock time per step over the steps so far, inside the norm layers (forward and
// backward) and in the rest of the step. Zeros before the first step.
struct StepTime {
    double norm_ms = 0.0, other_ms = 0.0;
    double total_ms() const { return norm_ms + other_ms; }
};
StepTime median_step_time(const TrainHistory& history);

// The compute time after each step (ms, one entry per step): the steps' norm_ms + other_ms
// summed, each run of `bin` steps counted at its median step time, so that a step the OS paused
// for milliseconds (another program, the UI's renderer) does not count as the model's cost. In
// measurements here such pauses doubled the plain sum. bin = 1: the plain sum.
std::vector<double> compute_ms(const TrainHistory& history, int bin);

// [SECTION] Plots ---------------------------------------------------------------------------
// One colour per variant (norm_color), its name in the legend; a diverged variant's
// curve ends at its last finite point, with a cross there and "diverged at step k". `hidden`:
// legend labels (variant names) the user switched off: their curves are left out, their keys kept.

// Loss (log scale) on the whole test set (solid, in the legend) and training set (dashed),
// from step 0, against the step or the compute time. Names "training_loss_vs_step",
// "training_loss_vs_time".
Plot training_loss_plot(const TrainingLabSnapshot& s, TrainingAxis axis, const std::vector<std::string>& hidden = {});

// Accuracy (%) likewise, with the chance level 100/K % as a reference line. Names
// "training_accuracy_vs_step", "training_accuracy_vs_time".
Plot training_accuracy_plot(const TrainingLabSnapshot& s, TrainingAxis axis,
                            const std::vector<std::string>& hidden = {});

// ‖∂L/∂W_l‖_F of each dense layer of variant `norm` (log scale) against the step, binned means,
// in that variant's colour, one dash and marker per layer. Name "training_grad_norms". A note in
// the title when that variant is not in the run.
Plot training_grad_norm_plot(const TrainingLabSnapshot& s, Norm norm);

// A norm's cost per training step measured on another device — the GPU lab's kernels at the
// model's activation shape (batch × width), forward + backward, times the model's norm layers.
struct NormStepCost {
    Norm norm = Norm::LayerNorm;
    double ms = 0.0;       // per step
    std::string label;     // e.g. "GPU LayerNorm ×2 layers"
};

// Milliseconds per step against the step, binned medians: the whole step (solid, in the legend)
// and the part inside the norm layers (dashed; none for the variant without a norm); each of
// `elsewhere` a dotted line across, in its norm's colour, for the variants shown. Name
// "training_step_time".
Plot training_time_plot(const TrainingLabSnapshot& s, const std::vector<std::string>& hidden = {},
                        const std::vector<NormStepCost>& elsewhere = {});

// Decision maps: a cell is its predicted class's colour mixed into white, kMapMaxTint of the way
// at confidence ≥ kMapFullTintConfidence, less towards the boundary (confidence 1/K: white).
// Class colours: the heat maps' diverging ends (palette.hpp) for two classes, then Okabe–Ito.
inline constexpr double kMapMaxTint = 0.45;
inline constexpr double kMapFullTintConfidence = 0.9;
inline constexpr double kMapDotPx = 5.0;   // a case's dot, across, at 1× (its halo 2 px more)
Color training_class_color(int k);

// Whether the lab draws decision maps for this state: every data set but digits (64 features);
// a CSV file's columns are known only once it is read, so its maps are listed, and one that is
// not 2D gets a map that says so.
bool training_lab_has_maps(const TrainingLabState& state);

// "training_map_layernorm": the decision map of the variant with this norm.
std::string training_map_name(Norm norm);

// Variant v's decision map (its TrainSnapshot::grid, G×G cells over the data's box, x₁ across and
// x₂ up) as a heat map: each cell tinted as above; in the CSV its predicted class (index into the
// data's class names) and P(class) for each class. Over it the training cases as dots in their
// class's colour (one Scatter series per class), with `test_points` the test cases as rings. The
// title names the variant and its step, or its divergence (the map is then its last one). Data
// that are not 2D, or no grid yet: an empty figure whose title says why. Name training_map_name.
Plot training_map_plot(const TrainingLabSnapshot& s, const TrainingVariant& v, bool test_points = false);

// Every figure of the lab, in its order: loss and accuracy against step and against time, the
// gradient norms of state.grad_variant, the time per step, then with training_lab_has_maps each
// variant's decision map (kTrainingNorms order).
std::vector<Plot> training_lab_plots(const TrainingLabSnapshot& s, const TrainingLabState& state, bool test_points = false);

}  // namespace normlab
