// NormLab core: training the MLP on a data set, step by step, deterministically.
//
// [SECTION] Configuration — model, optimizer, steps, batch, evaluation period, seed
// [SECTION] Records       — the per-step history (struct of arrays, ready to plot)
// [SECTION] Snapshots     — what a worker thread publishes for the UI
// [SECTION] Trainer       — step(), evaluate(), decision_grid(), snapshot()
// [SECTION] Whole runs    — train(): what normlab-cli train calls
//
// Determinism: a run is a function of (Dataset, TrainConfig). The same inputs give the same
// losses, accuracies, gradient norms and decision grids, bit for bit (own random transforms,
// random.hpp; no threads inside a step). Evaluations consume no randomness and change no
// parameter, so how often one evaluates or draws a grid never changes the training numbers.
// Wall-clock timings are recorded beside the numbers, never mixed into them.
//
// Using it from a worker thread (the GUI's training lab):
//   worker:  Trainer t(make_dataset(spec), config);
//            while (!stop && !t.finished()) {
//                t.step();
//                if (t.step_count() % 10 == 0 || t.finished()) box.publish(t.snapshot(64));
//            }
//   UI:      if (auto s = box.latest()) draw(*s);   // a const snapshot, never touched again
// A Trainer is not thread-safe; only the worker touches it. SnapshotBox is the hand-off.
#pragma once

#include "normlab/models/datasets.hpp"
#include "normlab/models/mlp.hpp"
#include "normlab/base/latest_box.hpp"
#include "normlab/base/random.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace normlab {

// [SECTION] Configuration -------------------------------------------------------------------

struct TrainConfig {
    MlpConfig model;              // inputs and classes are overwritten from the data set
    OptimizerSpec optimizer;
    int steps = 2000;             // optimizer steps (mini-batches), ≥ 1
    Eigen::Index batch_size = 32; // cases per step, ≥ 1 (≥ 2 with batchnorm; at most the training set)
    int eval_every = 50;          // evaluate on the whole train and test sets every that many steps
                                  // (and always after the last step), ≥ 1
    std::uint64_t seed = 1;       // initial weights (stream 2) and mini-batch order (stream 3)
    Precision precision = Precision::F64;   // F32: the fast path (mlp.hpp, Precision)
};

// The training lab's defaults for a data set (normlab-cli train's; its --help lists them). They
// reach ≥ 95% test accuracy on spiral and ≥ 90% on digits with every norm (test_training.cpp):
//   2D sets:        2 hidden × 32, ReLU, Adam lr 0.01 (SGD 0.1), batch 32, 2000 steps
//   digits and CSV: 2 hidden × 64, ReLU, Adam lr 0.003 (SGD 0.1), batch 64, 1500 steps
// norm: the given one, ε = 1e-5 inside the square root, pRMSNorm p = 6.25% (the paper's), before
// the activation, learned g and b; evaluation every 50 steps.
TrainConfig default_train_config(DatasetKind kind, Norm norm, OptimizerKind optimizer = OptimizerKind::Adam,
                                 std::uint64_t seed = 1);

// Empty when usable, else one sentence (also checks the model: validate(MlpConfig)).
std::string validate(const TrainConfig& config);

// The memory a run needs, in bytes, counted before the trainer allocates anything: the data set
// (the parsed rows, then their scaled and raw copies: 3·N·d doubles for N = train + test cases;
// f32 adds its own N·d floats) and what an evaluation over the whole training set sizes to its
// N_train cases in the trainer's precision: per hidden unit the dense and activation outputs,
// with a norm also its output and ā (f32 norms other than LayerNorm and RMSNorm: ā and a again
// in double), and 3·K for the logits and probabilities. The steps' own B-case buffers are small
// beside them. Within 6% of the peak resident memory measured (docs/RELIABILITY.md: budgets).
double train_memory_bytes(Eigen::Index train_cases, Eigen::Index test_cases, Eigen::Index features, int classes,
                          const TrainConfig& config);
inline constexpr double kTrainMemoryBudget = 2.0 * 1024 * 1024 * 1024;   // 2 GB: a classroom PC

// Empty when a run of config on data fits kTrainMemoryBudget, else one sentence: "rows.csv has
// 1000000 rows × 2 features: training 2 hidden layers of width 64 needs about 3.2 GB of memory,
// more than the limit of 2.0 GB: use fewer rows, or fewer or narrower hidden layers".
std::string check_memory(const Dataset& data, const TrainConfig& config);

// [SECTION] Records -------------------------------------------------------------------------

// Loss and accuracy on the whole training and test sets (Mode::Eval: BatchNorm's running stats).
struct EvalResult {
    double train_loss = 0.0;
    double train_accuracy = 0.0;   // fraction in [0, 1]
    double test_loss = 0.0;
    double test_accuracy = 0.0;
};

// One entry per step s = 1..N at index s − 1; one per evaluation in the eval_* arrays.
struct TrainHistory {
    std::vector<double> train_loss;                 // mini-batch loss of step s (before its update)
    std::vector<std::vector<double>> grad_norms;    // [layer][s − 1]: ‖∂L/∂W_l‖_F at step s
    std::vector<double> norm_ms;                    // wall clock inside the norm layers (fwd + bwd)
    std::vector<double> other_ms;                   // the rest of the step (dense, activation, loss, optimizer)
    std::vector<int> eval_step;                     // evaluated after the update of this step
    std::vector<EvalResult> eval;                   // parallel to eval_step
};

// What a run reached, robust to one evaluation landing on a spike of the last step: the median
// test accuracy of the last five evaluations (all of them when fewer), and the best one. NaN
// when nothing was evaluated.
double last_evals_median_accuracy(const TrainHistory& h);
double best_test_accuracy(const TrainHistory& h);

// Class probabilities over a G×G grid of the raw 2D input space (the data's Box2D): the
// decision-boundary picture. Cell (ix, iy) is row iy·G + ix; its centre is
// (x_min + (ix + ½)·Δx, y_min + (iy + ½)·Δy) with Δ = extent / G (iy = 0 at y_min).
struct DecisionGrid {
    int size = 0;                 // G
    Box2D box;
    int classes = 0;
    Mat probs;                    // (G·G)×K
    Eigen::VectorXi argmax;       // G·G: the predicted class
    Vec confidence;               // G·G: its probability
};

// [SECTION] Snapshots -----------------------------------------------------------------------

struct TrainSnapshot {
    int step = 0;                            // steps done
    int total_steps = 0;
    bool finished = false;
    TrainHistory history;                    // everything so far (copied)
    std::vector<std::string> layer_names;    // dense layers, parallel to history.grad_norms
    std::optional<EvalResult> last_eval;
    std::optional<DecisionGrid> grid;        // when asked for and the data are 2D
    double norm_seconds = 0.0;               // totals over the steps so far
    double other_seconds = 0.0;
    double eval_seconds = 0.0;               // evaluations and grids (outside the steps)
};

// The latest snapshot, handed from one writer thread to any number of readers.
using SnapshotBox = LatestBox<TrainSnapshot>;

// [SECTION] Trainer -------------------------------------------------------------------------

// The model and its work space in one precision: a Trainer holds one of the two.
template <class S>
struct MlpModel {
    using Scalar = S;
    MlpModel(const MlpConfig& config, std::uint64_t seed) : mlp(config, seed) {}
    BasicMlp<S> mlp;
    MatOf<S> x;                // float: the batch, B×m (double reads the trainer's own)
    MatOf<S> probs, dlogits;   // B×K
    MatOf<S> train_x, test_x;  // float: the data set's cases, converted once (double reads its own)
};
using MlpModels = std::variant<MlpModel<double>, MlpModel<float>>;

class Trainer {
public:
    // Builds the model (config.model with the data's inputs and classes) with seed stream 2, in
    // config.precision.
    // Throws std::invalid_argument when validate(config) is not empty, InputError (before
    // allocating) when check_memory(data, config) is not.
    Trainer(Dataset data, const TrainConfig& config);

    // One optimizer step on the next mini-batch (a seeded reshuffle each epoch; batches wrap
    // across epochs so every batch has batch_size cases). Records loss, gradient norms and
    // timings; evaluates when the step is a multiple of eval_every or the last one. Returns the
    // mini-batch loss. Steps beyond config.steps are allowed (the UI may continue a run).
    double step();

    // Loss and accuracy on the whole training and test sets now (does not record).
    EvalResult evaluate();

    // Class probabilities on a G×G grid (G ≥ 2) over the data's box. Needs 2 features.
    DecisionGrid decision_grid(int size);

    // A copy of the state for the UI; grid_size > 0 adds a decision grid when the data are 2D.
    TrainSnapshot snapshot(int grid_size = 0);

    int step_count() const { return step_; }
    bool finished() const { return step_ >= config_.steps; }
    const TrainHistory& history() const { return history_; }
    const TrainConfig& config() const { return config_; }
    const Dataset& data() const { return data_; }
    // The f64 model (std::bad_variant_access when the trainer is f32); models(): either.
    const Mlp& model() const { return std::get<MlpModel<double>>(model_).mlp; }
    Mlp& model() { return std::get<MlpModel<double>>(model_).mlp; }
    const MlpModels& models() const { return model_; }
    MlpModels& models() { return model_; }
    std::vector<std::string> layer_names() const;

    // Live edits from the UI: the learning rate of the following steps.
    void set_learning_rate(double lr) { optimizer_.set_lr(lr); }

private:
    void next_batch();

    Dataset data_;
    TrainConfig config_;
    MlpModels model_;
    Optimizer optimizer_;
    Rng batch_rng_;
    std::vector<Eigen::Index> order_;   // the epoch's permutation of training cases
    std::size_t cursor_ = 0;
    Mat batch_x_;                       // B×m
    Labels batch_y_;                    // B
    std::vector<double> grad_norms_;
    TrainHistory history_;
    std::optional<EvalResult> last_eval_;
    int step_ = 0;
    double norm_seconds_ = 0.0, other_seconds_ = 0.0, eval_seconds_ = 0.0;
};

// [SECTION] Whole runs ----------------------------------------------------------------------

struct TrainResult {
    TrainHistory history;
    std::vector<std::string> layer_names;
    EvalResult final;                 // after the last step
    double seconds = 0.0;             // wall clock of the whole run (not deterministic)
    double norm_seconds = 0.0;
    double other_seconds = 0.0;
    double eval_seconds = 0.0;
};

// Steps the trainer until finished() and collects the run (its history so far included).
TrainResult run_to_end(Trainer& trainer);

// A whole run: Trainer(data, config), then run_to_end.
TrainResult train(Dataset data, const TrainConfig& config);

}  // namespace normlab
