// NormLab core: the Depth lab — Post-LN, Pre-LN and NormFormer transformers (depth.hpp) trained
// side by side on the same data from the same seeds; NormFormer's per-layer gradient picture;
// a learning-rate sweep that shows where each placement diverges; the papers' claims next to
// what NormLab measures, with the conditions of both; samples from the trained models.
//
// [SECTION] State      — what the user sets (plain data the GUI edits; its scene-file pair)
// [SECTION] Runs       — the DepthConfig of each placement's run and of each sweep point
// [SECTION] Snapshot   — what the engine publishes for the UI (plain data)
// [SECTION] Engine     — DepthLab: the runs, the seeds, the sweep and the samples, one unit of work at a time
// [SECTION] Worker     — DepthLabWorker: a DepthLab on its own thread, with play/pause/step/advance
// [SECTION] Claims     — the papers' statements against the numbers measured here
// [SECTION] Plots      — the lab's figures as core Plots (exportable as SVG/CSV)
//
// The lab measures; it does not tune the model until the papers agree (what it measures:
// docs/ARCHITECTURE.md, The science). A verdict waits for its data: provisional until the
// measure's window is trained, then over state.seeds seeds, against stated thresholds
// (kDepthLarger, kDepthMuchLarger).
//
// Threads: DepthLab is not thread-safe. DepthLabWorker owns one on its own thread, passes it the
// settings and calls advance() in a loop, and publishes snapshot() through a DepthLabBox
// (latest_box.hpp); the UI reads only snapshots.
#pragma once

#include "normlab/models/depth.hpp"
#include "normlab/base/step_worker.hpp"
#include "normlab/base/number_rule.hpp"
#include "normlab/plot/plot.hpp"

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace normlab {

class SceneReader;   // state_json.hpp
namespace fast {
class ThreadPool;    // core/src/base/thread_pool.hpp
}

// [SECTION] State ---------------------------------------------------------------------------

// The placements in display order (index p of every per-placement array): kAllNormPlacements.
inline constexpr int kDepthPlacementCount = 3;

// Choices offered for the width d and the heads H: every width is a multiple of every head count.
inline constexpr std::array<int, 6> kDepthWidths{8, 16, 32, 64, 128, 256};
inline constexpr std::array<int, 4> kDepthHeads{1, 2, 4, 8};

inline constexpr int kDepthMinSteps = 1, kDepthMaxSteps = 5000;
inline constexpr double kDepthMinLr = 1e-5, kDepthMaxLr = 1.0;
inline constexpr int kDepthMinSweepPoints = 2, kDepthMaxSweepPoints = 12;
inline constexpr int kDepthMinSweepSteps = 5, kDepthMaxSweepSteps = 500;
inline constexpr int kDepthMaxSampleLines = 8;
inline constexpr double kDepthMaxTemperature = 3.0;
// What the lab's number fields accept (the GUI).
inline constexpr NumberRule kDepthLrRule{kDepthMinLr, kDepthMaxLr};
inline constexpr NumberRule kDepthTemperatureRule{0.0, kDepthMaxTemperature};
// The sweep's final loss: the mean training loss of a run's last kDepthSweepTail steps.
inline constexpr int kDepthSweepTail = 5;
// While training, samples are redrawn every this many steps (and when a run ends).
inline constexpr int kDepthSampleEvery = 25;
// The sweep's and the seeds' runs stepped side by side in one unit of work: two learning rates' or
// two seeds' placements, so that 2 or 3 threads share a unit evenly (three runs of about equal
// cost on two threads would leave one idle half the time).
inline constexpr std::size_t kDepthSideBySide = 2 * static_cast<std::size_t>(kDepthPlacementCount);
// The claims' seeds: the runs' seed and the next seeds − 1 (each trained over the measure's steps).
inline constexpr int kDepthMinSeeds = 1, kDepthMaxSeeds = 20;

// Which figure shows the measure over the steps: one placement's layers, or first ÷ last of all.
inline constexpr int kDepthEvolutionRatio = kDepthPlacementCount;   // evolution index 0..2: placement p

struct DepthLabState {
    // Task (sequence_tasks.hpp): sort or copy 6 digits 0–9, or characters of a text.
    TaskKind task = TaskKind::Sort;
    std::string text_path;             // text: a UTF-8 file; empty: the bundled assets/lighthouse.txt
    // Model (transformer.hpp), the same for every placement but the norms' positions.
    std::array<bool, kDepthPlacementCount> placements{true, true, true};   // which are trained
    Norm norm = Norm::LayerNorm;       // LayerNorm or RMSNorm, in every norm of every model
    int layers = 6;                    // L, 1..12
    int width = 64;                    // d, one of kDepthWidths
    int heads = 4;                     // H, one of kDepthHeads
    bool residual_scale = false;       // NormFormer's learned λ on the FFN residual
    NormFormerParts normformer;        // NormFormer's additions (the ablation): LNₐ, LN_f, head scales
    TransformerInit init = TransformerInit::Uniform;   // linear weights: U(±1/√n_in), or Xavier (Xiong et al.'s)
    // Training: Adam (β = 0.9, 0.999), batch 32.
    int steps = 100;                   // per run, kDepthMinSteps..kDepthMaxSteps
    double lr = 1e-3;                  // kDepthMinLr..kDepthMaxLr
    std::uint64_t seed = 1;            // weights, batches and evaluation set of every run
    int measure_steps = 50;            // the per-layer measure: mean over steps 1..this (≥ 1)
    int seeds = 5;                     // the claims' spread: seeds seed .. seed + seeds − 1
    int evolution = 2;                 // 0..2: that placement's layers over the steps; 3: first ÷ last
    // Learning-rate sweep: sweep_points learning rates, log-spaced over [lr_min, lr_max].
    double sweep_lr_min = 1e-3;
    double sweep_lr_max = 0.31622776601683794;   // 10^−½
    int sweep_points = 6;
    int sweep_steps = 30;              // per sweep run
    // Samples from each trained model.
    std::string prompt;                // sort, copy: digits ("314159", "|" optional); text: any text
                                       // in the vocabulary; empty: random problems / the held-out text
    double temperature = 0.8;          // 0..kDepthMaxTemperature; 0: always the most likely symbol
    int sample_lines = 3;              // problems (sort, copy) or lines (text), 1..kDepthMaxSampleLines
    std::uint64_t sample_seed = 1;
    // Every model's scalar: f32 (new sessions: the fast path) or f64 (the reference, normlab-cli
    // depth's default; scene files without the key read as f64).
    Precision precision = Precision::F32;
};

bool operator==(const DepthLabState& a, const DepthLabState& b);
inline bool operator!=(const DepthLabState& a, const DepthLabState& b) { return !(a == b); }

// Scene file (scene.hpp, state_json.hpp): every field by name; missing keys keep `state`'s values.
nlohmann::json state_to_json(const DepthLabState& state);
void state_from_json(SceneReader& in, DepthLabState& state);

// The sweep's learning rates: sweep_points values log-spaced from sweep_lr_min to sweep_lr_max.
std::vector<double> depth_sweep_lrs(const DepthLabState& state);

// [SECTION] Runs ----------------------------------------------------------------------------

// Placement p's run: default_depth_config (normlab-cli depth's numbers) with the state's task,
// model (init included), steps, learning rate and seed; residual scale λ for NormFormer only. Evaluation on the
// 256 held-out cases after the last step only. The same settings give `normlab-cli depth` the
// same numbers, bit for bit.
DepthConfig depth_run_config(const DepthLabState& state, int p);

// A sweep point: placement p's run with learning rate `lr` for state.sweep_steps steps.
DepthConfig depth_sweep_config(const DepthLabState& state, int p, double lr);

// The measure's window N = min(measure_steps, steps): the steps every claim's ratio averages over.
int depth_window(const DepthLabState& state);

// Placement p's run with another seed over the window's N steps (the claims' spread): the same
// training numbers as depth_run_config with that seed, step for step; evaluation on 1 case only.
DepthConfig depth_seed_config(const DepthLabState& state, int p, std::uint64_t seed);

// [SECTION] Snapshot ------------------------------------------------------------------------

// One sampled continuation. Sort, copy: prompt "314159|", output the n generated digits,
// expected the right answer. Text: prompt as given, output the generated lines.
struct DepthSample {
    std::string prompt, output;
    std::string expected;              // sort, copy only
    bool correct = false;              // sort, copy: output == expected
};

// One placement's main run.
struct DepthRunView {
    int placement = 0;                        // index into kAllNormPlacements
    DepthSnapshot run;                        // history and totals (depth.hpp)
    Eigen::Index parameters = 0;              // trainable numbers
    int target_steps = 0;                     // state.steps when this view was taken
    int not_finite_at = 0;                    // > 0: the loss was not finite at this step; the run stopped
    std::optional<DepthEval> final;           // held-out evaluation after target_steps
    std::vector<DepthSample> samples;         // from the model at step samples_step
    int samples_step = -1;                    // −1: none drawn yet
    std::string sample_error;                 // why no samples (a prompt outside the vocabulary)
    bool done() const { return not_finite_at > 0 || run.step >= target_steps; }
};

enum class SweepOutcome {
    Pending,     // not trained yet
    Trained,     // the final loss is below the first step's
    Diverged,    // the final loss is at or above the first step's: it ended no better than it began
    NotFinite,   // a loss was NaN or infinite (the run stopped there)
};

struct DepthSweepPoint {
    int placement = 0;           // index into kAllNormPlacements
    double lr = 0.0;
    int steps = 0;               // steps taken so far
    double first_loss = 0.0;     // the first step's training loss
    double final_loss = 0.0;     // mean of the last kDepthSweepTail steps' losses (finite unless NotFinite)
    SweepOutcome outcome = SweepOutcome::Pending;
};

// Placement p trained with one of the extra seeds, over the window only (depth_seed_config).
struct DepthSeedRun {
    int placement = 0;                        // index into kAllNormPlacements
    std::uint64_t seed = 0;
    int target = 0;                           // the steps it trains (the window when it was planned)
    DepthHistory history;                     // the steps so far
    bool not_finite = false;                  // a loss was NaN or infinite (the run stopped there)
    bool done() const { return not_finite || static_cast<int>(history.train_loss.size()) >= target; }
};

struct DepthLabSnapshot {
    DepthLabState state;                      // the settings these numbers belong to
    std::string error;                        // set: nothing could be trained, and why (one sentence)
    std::vector<DepthRunView> runs;           // the trained placements, in display order
    std::vector<DepthSeedRun> seed_runs;      // seed + 1 of every placement, then seed + 2, …; after the runs
    std::vector<DepthSweepPoint> sweep;       // learning-rate major, then placement
    int vocab = 0, context = 0;               // of the task (0 before the first run is built)
    std::string source;                       // "sort", "copy", or the text's file
    std::uint64_t work = 0;                   // units of work done since the engine was made
    bool busy = false;                        // advance(true) would find work
};

using DepthLabBox = LatestBox<DepthLabSnapshot>;

// The run of placement p, or null when it is not trained.
const DepthRunView* find_run(const DepthLabSnapshot& s, int p);

// Whether a run has diverged by the sweep's measure: its loss was not finite, or after more than
// kDepthSweepTail steps the mean loss of its last kDepthSweepTail steps is no lower than its first.
bool run_diverged(const DepthRunView& r);

// Sweep points done (not Pending).
int sweep_done(const DepthLabSnapshot& s);

// Seed runs done.
int seed_runs_done(const DepthLabSnapshot& s);

// The smallest swept learning rate at which placement p diverged (Diverged or NotFinite), once
// every smaller rate of p is done; nullopt while one is pending, or when none diverged.
std::optional<double> divergence_lr(const DepthLabSnapshot& s, int p);

// [SECTION] Engine --------------------------------------------------------------------------

class DepthLab {
public:
    DepthLab();
    ~DepthLab();
    DepthLab(const DepthLab&) = delete;
    DepthLab& operator=(const DepthLab&) = delete;

    // Takes the settings. A run whose settings (all but `steps`) changed starts again from step 0,
    // and so does one already past a lowered `steps`; a raised `steps` continues the runs. The
    // seed runs start again when the runs' settings, the seeds or the window changed, the
    // sweep when its settings changed, the samples are redrawn when theirs did. A
    // task that cannot be built (a file that cannot be read, invalid UTF-8, a text too short)
    // leaves no runs and sets the snapshot's error.
    void configure(const DepthLabState& state);

    // Every run and the sweep from step 0 (the same seeds: the same numbers again).
    void restart();

    // One unit of work; false when there was none. In this order: samples that are due (one
    // run's); with train: one step of every run below its steps (a run that reaches them is
    // evaluated on the held-out set); when all are done, one step of each sweep run among the
    // kDepthSideBySide from the first not done (two learning rates' placements, side by side);
    // when the sweep is done, the same of the seed runs (two seeds' placements). The sweep comes
    // before the seeds so that every figure is complete first (the seeds only settle the
    // claims' verdicts, provisional until then). A unit is the same on any number of threads.
    bool advance(bool train);

    // One step of every run below its steps (the Step button, also while paused), the runs side
    // by side on up to set_threads() threads; false when all are done.
    bool step_runs();

    // Threads a unit's runs may use, counting the caller, at most one per placement: 0 (the
    // default) is NORMLAB_THREADS when set, else every core (one in the web page). In the app,
    // the worker's thread and so the pool it makes run below the UI thread's priority
    // (StepWorker, base/thread_priority.hpp), so the window draws first (docs/BENCHMARKS.md).
    // The numbers are the same whatever it is.
    void set_threads(unsigned threads);

    DepthLabSnapshot snapshot() const;
    std::uint64_t work() const { return work_; }   // units of work done so far (snapshot().work)

    // Which parts are trained, without a snapshot's copies (a benchmark asks after every unit).
    struct Progress {
        bool runs = false, sweep = false, seeds = false;   // every run at its steps; every point; every seed run
        std::uint64_t steps = 0;                           // model steps taken since the engine was made
    };
    Progress progress() const;

private:
    struct Run;
    struct RunQueue;
    struct Seeds;
    struct Sweep;
    struct Step {
        int placement;                  // index into kAllNormPlacements
        std::function<void()> step;     // one step of one run
    };
    bool sample_due(const Run& run) const;
    void draw_samples(Run& run);
    void step_run(Run& run);
    // The steps side by side on the pool, the costliest placement first; rethrows a step's exception.
    void side_by_side(std::vector<Step>& steps);
    // One unit of a queue (the sweep's, the seeds'): up to kDepthSideBySide of its runs from its
    // next on, side by side; false when it has none left or a trainer cannot be made (error_).
    bool step_queue(RunQueue& queue);

    DepthLabState state_;
    bool configured_ = false;
    std::string error_;
    std::array<std::unique_ptr<Run>, kDepthPlacementCount> runs_;
    std::unique_ptr<Seeds> seeds_;
    std::unique_ptr<Sweep> sweep_;
    std::uint64_t work_ = 0;
    std::uint64_t steps_ = 0;
    unsigned threads_ = 0;
    std::unique_ptr<fast::ThreadPool> pool_;   // made by side_by_side, on the lab's thread
    std::array<double, kDepthPlacementCount> step_ms_{};   // each placement's latest step, ms: the order of side_by_side
};

// A whole lab on the calling thread: configure(state), then advance(true) until nothing is left
// (the runs, their samples, the seeds, the sweep): the lab's figures without a window (a scene's
// figures in normlab-cli export). At the defaults it trains 3 × 100 + 18 × 30 (sweep) + 12 × 50 (seeds) steps.
DepthLabSnapshot run_depth_lab(const DepthLabState& state);

// [SECTION] Worker --------------------------------------------------------------------------
//
// A DepthLab on its own thread (a StepWorker, base/step_worker.hpp, whose units are DepthLab's).
// It applies the settings it is given before its next unit of work (building a task reads the
// text file there, never on the UI thread), then works:
//   play()        — train whenever there is something to train (and sample, sweep) until paused;
//   pause()       — stop training after the unit in progress; samples still follow the settings;
//   step()        — pause, then one step of every run;
//   advance(n)    — pause, then exactly n more units of work, training (scripted runs);
//   restart()     — every run and the sweep from step 0.
// It publishes a snapshot at most every kPublishInterval while it works, and always when it
// rests (nothing to do, or an advance() limit reached) or has applied a command, so that a pause,
// a step or the end is on screen exactly. The destructor stops the thread and joins it (after the
// unit in progress).
class DepthLabWorker {
public:
    explicit DepthLabWorker(const DepthLabState& state);   // paused

    void configure(const DepthLabState& state);
    void restart();
    void play();
    void pause();
    void step();
    // Allows n more units of work past those done (or allowed) so far and returns the work count
    // the worker will rest at.
    std::uint64_t advance(int units);
    // Blocks until a snapshot with at least `work` units is published, or the worker rests with
    // nothing left to do. Returns whether `work` was reached.
    bool wait_for(std::uint64_t work) const;

    bool playing() const;
    std::shared_ptr<const DepthLabSnapshot> latest() const;
    // Empty while it works; else why it stopped for good ("out of memory"): latest() is the last
    // snapshot before; a new worker starts again (base/step_worker.hpp).
    std::string failure() const { return worker_.failure(); }

private:
    // DepthLab as a StepWorker's job: its units of work; more can come with new settings.
    struct Job {
        DepthLab lab;
        bool work(bool train) { return lab.advance(train); }
        std::uint64_t units() const { return lab.work(); }
        bool finished() const { return false; }
        DepthLabSnapshot snapshot() const { return lab.snapshot(); }
    };
    StepWorker<Job> worker_;
};

// [SECTION] Claims --------------------------------------------------------------------------

// Thresholds every ratio claim states: the first layer's gradients are "larger" than the last's
// when first ÷ last ≥ kDepthLarger, "much larger" when ≥ kDepthMuchLarger; the last layer's are
// larger when first ÷ last ≤ 1 / kDepthLarger. (Seed-to-seed sd at the defaults is 0.07–0.19.)
inline constexpr double kDepthLarger = 1.1;
inline constexpr double kDepthMuchLarger = 2.0;

enum class DepthVerdict {
    NotYet,        // no number yet (a run not ticked or not started, the sweep not done)
    Provisional,   // a number, but the window or the seeds are not complete
    Holds,         // in every seed
    Partly,        // "much larger": larger in every seed, much larger not in every seed
    Mixed,         // in some seeds, not in others
    DoesNotHold,   // in no seed
};

// The verdict over complete seeds of "first ÷ last beyond threshold" (≥ it when threshold > 1,
// ≤ it when < 1): Holds in every seed, DoesNotHold in none, Mixed otherwise; NotYet when empty.
DepthVerdict seeds_verdict(const std::vector<double>& ratios, double threshold);

// A paper's statement, where the paper measured it, what NormLab measures now and under which
// settings, and whether the statement holds here.
struct DepthClaim {
    std::string claim;        // "Pre-LN: early layers get much larger gradients (first ÷ last ≥ 2)"
    std::string source;       // "Shleifer et al. 2021, Fig. 2: language models of 125 M–2.7 B parameters,
                              //  pretraining" (the Post-LN row also says which init the runs use)
    std::string measured;     // "first ÷ last M ± S (LO–HI), seeds 1–5, steps 1–50" (spread_text)
    DepthVerdict verdict = DepthVerdict::NotYet;
    std::string progress;     // Provisional, Mixed: "12 of 50 steps", "3 of 5 seeds", "2 of 5 seeds agree"
};

// The verdict as shown: "✓ holds here", "◐ larger, not much", "≈ 2 of 5 seeds", "✗ not here",
// "… provisional (12 of 50 steps)", "… not yet".
std::string verdict_text(const DepthClaim& claim);

// Placement p's first ÷ last over the window, per seed: the main run's seed first (while its
// window is trained), then each seed run whose window is complete.
struct DepthRatios {
    int window = 0;                    // N = depth_window(state)
    int main_steps = 0;                // steps of the main run inside the window (≤ N)
    std::optional<double> so_far;      // the main run's ratio over its steps so far (< N: provisional)
    std::vector<double> ratios;        // complete windows, finite ratios only
    std::vector<std::uint64_t> seeds;  // their seeds
    int planned = 0;                   // state.seeds
    int failed = 0;                    // seed runs done without a finite ratio
    bool complete() const { return main_steps >= window && static_cast<int>(ratios.size()) + failed >= planned; }
};
DepthRatios depth_ratios(const DepthLabSnapshot& s, int p);

// The four claims the lab checks, in order: Post-LN's later layers larger, first ÷ last ≤ 1/1.1
// (Xiong et al. 2020, at initialization; the source line names the runs' init); Pre-LN's early
// layers much larger, ≥ 2 (Partly: ≥ 1.1 only; Shleifer et al. 2021, Fig. 2); NormFormer more
// even than Pre-LN, |log(first ÷ last)| smaller, seed by seed (ibid.); NormFormer diverges at a
// larger learning rate than Pre-LN in the sweep (ibid.; one seed). Provisional until the window
// and the seeds are trained.
std::vector<DepthClaim> depth_claims(const DepthLabSnapshot& s);

// The settings the numbers were measured under, in one line: "6 layers · width 64 · 4 heads ·
// LayerNorm · sort of 6 digits · Adam lr 0.001 · batch 32 · seed 1 · 0.30 M parameters".
// A non-default init is named too: "… · Xavier init".
std::string depth_conditions(const DepthLabSnapshot& s);

// first ÷ last of placement p's main run (seed state.seed) over its first min(measure_steps,
// steps done) steps; nullopt when the run is not there, has no step yet, or the last layer's
// mean is 0 (never NaN).
std::optional<double> measured_ratio(const DepthLabSnapshot& s, int p);

// [SECTION] Plots ---------------------------------------------------------------------------

// The colour of placement p in every figure of the lab (Okabe–Ito; not the norms' blue and
// vermillion): Post-LN bluish green, Pre-LN reddish purple, NormFormer orange.
Color depth_placement_color(int p);

// Training loss per step (the batch's cross-entropy, log y), one line per run. "depth_loss".
Plot depth_loss_plot(const DepthLabSnapshot& s);

// NormFormer's picture: per layer (x = 1..L), mean |∂L/∂W₂| over the first min(measure_steps,
// steps done) steps, as grouped bars, one series per run. "depth_layer_grads".
Plot depth_layer_grad_plot(const DepthLabSnapshot& s);

// The measure over the steps (log y), as state.evolution picks: placement p's layers, one line
// each (10-step trailing mean; colours from dark, layer 1, to light, layer L), or first ÷ last
// of the running means of every run with a reference line at 1. A dashed line marks
// measure_steps. "depth_layer_grads_over_steps".
Plot depth_evolution_plot(const DepthLabSnapshot& s);

// Final training loss against the learning rate (log x), one line per placement over its done
// points; a dashed vertical line in the placement's colour where it first diverges (and a legend
// key that says so); a dotted line at ln V, the loss of a uniform guess; points whose loss was
// not finite at the top of the axis, labelled "✗ not finite" (never drawn as NaN). "depth_lr_sweep".
Plot depth_sweep_plot(const DepthLabSnapshot& s);

// Every figure, in the order above.
std::vector<Plot> depth_lab_plots(const DepthLabSnapshot& s);

}  // namespace normlab
