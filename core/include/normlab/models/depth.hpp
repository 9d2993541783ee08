// NormLab core: the depth lab: training the small transformer (transformer.hpp) on a sequence
// task (sequence_tasks.hpp) with Post-LN, Pre-LN or NormFormer blocks, and recording, per step
// and per layer, NormFormer's gradient measure.
//
// [SECTION] Configuration — task, model, optimizer, steps, seed; the lab's defaults
// [SECTION] Records       — the per-step history, evaluations, the per-layer summary
// [SECTION] Snapshots     — what a worker thread publishes for the UI (LatestBox)
// [SECTION] Trainer       — step(), evaluate(), snapshot(), generate()
// [SECTION] Whole runs    — run_to_end(), run_depth(): what normlab-cli depth calls
// [SECTION] Over seeds    — one setting over several seeds, the spread of a measure
// [SECTION] Ablation      — NormFormer's additions to Pre-LN, each on its own
//
// The measure (Shleifer et al. 2021, Fig. 2; the observation of Xiong et al. 2020 it starts
// from): for each layer l, g_l = mean_ij |∂L/∂W₂|_ij over its FFN output weights W₂ (d×4d),
// recorded at every step; a run's per-layer value is the mean of g_l over its first N steps.
//
// Determinism: a run is a function of its DepthConfig (and, for text, the text). Initial
// weights use seed stream 2, training batches stream 3, the synthetic evaluation set stream 4
// (random.hpp's derive_seed); no threads inside a step; evaluations and sampling consume no
// training randomness and change no parameter. Wall-clock times are recorded beside the numbers.
// A DepthTrainer is not thread-safe: one thread steps it and publishes snapshot()s (LatestBox).
#pragma once

#include "normlab/base/latest_box.hpp"
#include "normlab/models/mlp.hpp"
#include "normlab/base/random.hpp"
#include "normlab/models/sequence_tasks.hpp"
#include "normlab/models/transformer.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace normlab {

// [SECTION] Configuration -------------------------------------------------------------------

struct DepthConfig {
    TaskSpec task;
    TransformerConfig model;       // vocab and context are set from the task
    OptimizerSpec optimizer;       // Adam by default
    int steps = 50;                // ≥ 1
    Eigen::Index batch_size = 32;  // cases per step, ≥ 1
    int eval_every = 50;           // evaluate every that many steps and after the last, ≥ 1
    Eigen::Index eval_cases = 256; // size of the fixed evaluation set, ≥ 1
    std::uint64_t seed = 1;
    Precision precision = Precision::F64;   // F32: the fast path (mlp.hpp, Precision)
};

// normlab-cli depth's defaults (its --help lists them):
//   sort of 6 digits 0–9 (text: the bundled text, code points, context 32), 6 layers, width 64,
//   4 heads, the given placement and norm (ε = 1e-5), no residual scale, linear weights
//   U(±1/√n_in) (TransformerInit::Uniform; --init xavier for Glorot's); Adam lr 1e-3
//   (β = 0.9, 0.999), batch 32, 50 steps, evaluation after the last step on 256 held-out cases.
DepthConfig default_depth_config(TaskKind task, NormPlacement placement, Norm norm = Norm::LayerNorm,
                                 std::uint64_t seed = 1);

// The memory training needs, in bytes, counted before anything is allocated: per case and
// layer, the activations kept for the backward pass (about 16·d doubles per position: the norms,
// q/k/v, the 4d FFN before and after its activation, the residuals) and the attention scores and
// weights (2·H·T² doubles); a training case twice that (the gradients), a held-out case half.
// Per symbol of the vocabulary V: the embedding and the output layer's weights (2·V·d, each with
// its gradient and Adam's two moments), and per position the logits, the scored ones gathered,
// their probabilities, ∂L/∂z and ∂L/∂logits (5·V doubles for a training case, 3·V for an
// evaluation chunk of at most 64 cases). `vocab` ≤ 0: the task's own when it is known before
// the text is read (synthetic: D + 1), else 2.
// Within 1×–2.1× of the peak resident memory measured (docs/RELIABILITY.md: budgets).
double depth_step_bytes(const DepthConfig& config, int vocab = 0);
inline constexpr double kDepthMemoryBudget = 2.0 * 1024 * 1024 * 1024;   // 2 GB: a classroom PC

// Empty when usable, else one sentence (checks the task and the model too, and the memory a
// step needs against kDepthMemoryBudget: "… needs about 1.2 TB of memory per step, more than
// the limit of 2 GB: use a smaller batch, context or width, or fewer layers").
std::string validate(const DepthConfig& config);

// Empty when a step with the text's vocabulary of `vocab` symbols fits kDepthMemoryBudget, else
// one sentence: "the text has 300000 distinct characters: batch 32 (and 256 held-out cases) ×
// context 32 × vocabulary 300000 needs about 12 GB of memory per step, more than the limit of
// 2.0 GB: …". DepthTrainer checks it once the text is read, before the model is built.
std::string check_vocabulary_memory(const DepthConfig& config, int vocab);

// [SECTION] Records -------------------------------------------------------------------------

struct DepthEval {
    double loss = 0.0;                        // mean cross-entropy over the scored positions
    double accuracy = 0.0;                    // fraction of scored positions whose largest logit is right
                                              // (synthetic: the answer digits, reading the true ones before)
    std::optional<double> sequence_accuracy;  // synthetic: fraction of problems whose greedy answer,
                                              // generated digit by digit, is entirely right
};

// One entry per step s = 1..N at index s − 1.
struct DepthHistory {
    std::vector<double> train_loss;                // the batch's loss at step s (before its update)
    std::vector<double> train_accuracy;            // the batch's accuracy at step s
    std::vector<std::vector<double>> ffn_grad;     // [layer][s − 1]: mean |∂L/∂W₂| of layer l + 1
    std::vector<double> step_ms;                   // wall clock of each step (not reproducible)
    std::vector<int> eval_step;                    // evaluated after the update of this step
    std::vector<DepthEval> eval;                   // parallel to eval_step
};

// Per layer, the mean of its ffn_grad over the first min(steps, recorded) steps.
std::vector<double> mean_layer_grads(const DepthHistory& history, int steps);
// layer_means.front() / layer_means.back() (NaN when the last is 0 or there are none).
double first_last_ratio(const std::vector<double>& layer_means);

// [SECTION] Snapshots -----------------------------------------------------------------------

struct DepthSnapshot {
    int step = 0;
    int total_steps = 0;
    bool finished = false;
    NormPlacement placement = NormPlacement::PreLN;
    Norm norm = Norm::LayerNorm;
    DepthHistory history;                     // everything so far (copied)
    std::vector<double> layer_grad_means;     // mean over the steps so far
    std::optional<DepthEval> last_eval;
    double step_seconds = 0.0;                // totals (wall clock)
    double eval_seconds = 0.0;
};

using DepthSnapshotBox = LatestBox<DepthSnapshot>;

// [SECTION] Trainer -------------------------------------------------------------------------

struct GenerateSpec {
    std::string prompt;         // UTF-8 (synthetic tasks: digits and "|", e.g. "31415|"); empty:
                                // the first symbol of the held-out text (synthetic: not allowed)
    int max_tokens = 200;       // symbols to add, ≥ 0
    double temperature = 0.8;   // ≥ 0; 0 = always the most likely symbol
    std::uint64_t seed = 1;     // the sampling stream (derive_seed(seed, 6))
    int stop_after_lines = 0;   // > 0: stop once that many newlines have been generated
};

// The model and its work space in one precision: a DepthTrainer holds one of the two.
template <class S>
struct DepthModel {
    DepthModel(const TransformerConfig& config, std::uint64_t seed) : transformer(config, seed) {}
    BasicTransformer<S> transformer;
    MatOf<S> dlogits;   // (B·T)×V, ∂L/∂logits of the last step
};
using DepthModels = std::variant<DepthModel<double>, DepthModel<float>>;

class DepthTrainer {
public:
    // Builds the task (InputError for file or text problems) and the model (seed stream 2) in
    // config.precision.
    // Throws std::invalid_argument when validate(config) is not empty, InputError when
    // check_vocabulary_memory does not pass with the text's vocabulary.
    explicit DepthTrainer(const DepthConfig& config);

    // One Adam (or SGD) step on a fresh batch. Records loss, accuracy, the per-layer measure and
    // the time; evaluates when the step is a multiple of eval_every or the last one. Steps beyond
    // config.steps are allowed (the UI may continue a run). Returns the batch's loss.
    double step();

    // Loss and accuracy on the fixed evaluation set now (does not record).
    DepthEval evaluate();

    // A copy of the state for the UI.
    DepthSnapshot snapshot() const;

    // Continues the prompt with the model: at most max_tokens symbols (decoded to UTF-8; the
    // prompt is not repeated). Throws InputError for a prompt with symbols outside the vocabulary.
    std::string generate(const GenerateSpec& spec);

    int step_count() const { return step_; }
    bool finished() const { return step_ >= config_.steps; }
    const DepthHistory& history() const { return history_; }
    const DepthConfig& config() const { return config_; }
    const SequenceTask& task() const { return task_; }
    Eigen::Index parameter_count();
    void set_learning_rate(double lr) { optimizer_.set_lr(lr); }

private:
    template <class Model>
    DepthEval evaluate_model(Model& model);   // evaluate() in the model's precision

    DepthConfig config_;
    SequenceTask task_;
    DepthModels model_;
    Optimizer optimizer_;
    Rng batch_rng_;
    SequenceBatch batch_;
    SequenceBatch eval_set_;
    std::vector<double> grads_;
    DepthHistory history_;
    std::optional<DepthEval> last_eval_;
    int step_ = 0;
    double step_seconds_ = 0.0, eval_seconds_ = 0.0;
};

// [SECTION] Whole runs ----------------------------------------------------------------------

struct DepthResult {
    DepthHistory history;
    std::vector<double> layer_grad_means;   // per layer, over all the run's steps
    double first_last_ratio = 0.0;          // layer 1 / layer L of those
    DepthEval final;                        // after the last step
    double seconds = 0.0;                   // wall clock of the whole run (not reproducible)
    double step_seconds = 0.0;
    double eval_seconds = 0.0;
};

// Steps the trainer until finished() and collects the run.
DepthResult run_to_end(DepthTrainer& trainer);

// A whole run: DepthTrainer(config), then run_to_end.
DepthResult run_depth(const DepthConfig& config);

// [SECTION] Over seeds ----------------------------------------------------------------------

// The spread of a measure over seeds: mean, sample standard deviation (n − 1; 0 for one value),
// smallest and largest. All zero with n = 0 when there are no values.
struct Spread {
    int n = 0;
    double mean = 0.0, sd = 0.0, min = 0.0, max = 0.0;
};
Spread spread_of(const std::vector<double>& values);
// "M ± S (LO–HI)": mean ± sd (min–max), two decimals each; "–" when n = 0.
std::string spread_text(const Spread& s);

// first ÷ last over a run's first min(steps, recorded) steps (NaN as first_last_ratio).
double window_ratio(const DepthHistory& history, int steps);

// The setting once per seed (config.seed replaced), in the order given, one after another: run k
// is run_depth(config with seed seeds[k]), bit for bit.
std::vector<DepthResult> run_depth_seeds(DepthConfig config, const std::vector<std::uint64_t>& seeds);

// [SECTION] Ablation ------------------------------------------------------------------------

// One model of NormFormer's ablation: a placement and, for NormFormer, which additions are on.
struct DepthVariant {
    std::string key;          // "preln", "preln+ffn_norm", "preln+attn_norm", "normformer"
    std::string label;        // "Pre-LN", "+ FFN-activation norm", "+ attention-output norm", "NormFormer"
    NormPlacement placement;
    NormFormerParts parts;
};

// Pre-LN; Pre-LN with LN_f alone; Pre-LN with LNₐ alone; NormFormer (LNₐ, LN_f and head scales).
std::vector<DepthVariant> normformer_ablation();

// config with the variant's placement and parts (λ kept for NormFormer only).
DepthConfig with_variant(DepthConfig config, const DepthVariant& variant);

}  // namespace normlab
