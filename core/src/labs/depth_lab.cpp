// NormLab core: the Depth lab (see depth_lab.hpp).
//
// [SECTION] State
// [SECTION] Runs
// [SECTION] Snapshot helpers
// [SECTION] Engine: configuration
// [SECTION] Engine: work
// [SECTION] Worker
// [SECTION] Claims
// [SECTION] Plots
#include "normlab/labs/depth_lab.hpp"

#include "normlab/base/i18n.hpp"
#include "normlab/norm/eval.hpp"
#include "normlab/labs/state_json.hpp"
#include "base/thread_pool.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cmath>
#include <cstdio>
#include <exception>
#include <initializer_list>
#include <stdexcept>
#include <thread>
#include <utility>


namespace normlab {

namespace {

using Index = Eigen::Index;

}  // namespace

// [SECTION] State ---------------------------------------------------------------------------

bool operator==(const DepthLabState& a, const DepthLabState& b) {
    return a.task == b.task && a.text_path == b.text_path && a.placements == b.placements && a.norm == b.norm &&
           a.layers == b.layers && a.width == b.width && a.heads == b.heads && a.residual_scale == b.residual_scale &&
           a.normformer == b.normformer && a.init == b.init && a.steps == b.steps && a.lr == b.lr &&
           a.seed == b.seed && a.measure_steps == b.measure_steps && a.seeds == b.seeds && a.evolution == b.evolution && a.sweep_lr_min == b.sweep_lr_min &&
           a.sweep_lr_max == b.sweep_lr_max && a.sweep_points == b.sweep_points && a.sweep_steps == b.sweep_steps &&
           a.prompt == b.prompt && a.temperature == b.temperature && a.sample_lines == b.sample_lines &&
           a.sample_seed == b.sample_seed && a.precision == b.precision;
}

namespace {

constexpr std::array<std::string_view, 3> kTaskNames{"sort", "copy", "text"};
constexpr std::array<TaskKind, 3> kTasks{TaskKind::Sort, TaskKind::Copy, TaskKind::Text};
constexpr std::array<std::string_view, kDepthPlacementCount> kPlacementNames{"postln", "preln", "normformer"};
constexpr std::array<std::string_view, 2> kNormNames{"layernorm", "rmsnorm"};
constexpr std::array<Norm, 2> kNorms{Norm::LayerNorm, Norm::RMSNorm};
constexpr std::array<std::string_view, 2> kInitNames{"uniform", "xavier"};
constexpr std::array<std::string_view, 2> kPrecisionNames{"f64", "f32"};
constexpr std::array<Precision, 2> kPrecisions{Precision::F64, Precision::F32};
constexpr std::array<TransformerInit, 2> kInits{TransformerInit::Uniform, TransformerInit::Xavier};
constexpr std::array<std::string_view, kDepthPlacementCount + 1> kEvolutionNames{"postln", "preln", "normformer",
                                                                                 "ratio"};
constexpr std::array<int, kDepthPlacementCount + 1> kEvolutionValues{0, 1, 2, kDepthEvolutionRatio};

template <std::size_t N>
bool one_of(int v, const std::array<int, N>& choices) {
    return std::find(choices.begin(), choices.end(), v) != choices.end();
}

template <std::size_t N>
std::string choices_text(const std::array<int, N>& choices) {
    std::string out;
    for (int c : choices) out += (out.empty() ? "" : ", ") + std::to_string(c);
    return out;
}

}  // namespace

nlohmann::json state_to_json(const DepthLabState& s) {
    return {{"task", std::string(to_string(s.task))},
            {"text_path", s.text_path},
            {"placements", flags_to_json(s.placements, kPlacementNames)},
            {"norm", std::string(to_string(s.norm))},
            {"layers", s.layers},
            {"width", s.width},
            {"heads", s.heads},
            {"residual_scale", s.residual_scale},
            {"normformer_parts", to_string(s.normformer)},
            {"init", std::string(to_string(s.init))},
            {"steps", s.steps},
            {"lr", s.lr},
            {"seed", s.seed},
            {"measure_steps", s.measure_steps},
            {"seeds", s.seeds},
            {"evolution", std::string(kEvolutionNames[static_cast<std::size_t>(std::clamp(s.evolution, 0, 3))])},
            {"sweep_lr_min", s.sweep_lr_min},
            {"sweep_lr_max", s.sweep_lr_max},
            {"sweep_points", s.sweep_points},
            {"sweep_steps", s.sweep_steps},
            {"prompt", s.prompt},
            {"temperature", s.temperature},
            {"sample_lines", s.sample_lines},
            {"sample_seed", s.sample_seed},
            {"precision", std::string(to_string(s.precision))}};
}

void state_from_json(SceneReader& in, DepthLabState& s) {
    in.read_choice("task", s.task, kTaskNames, kTasks);
    in.read("text_path", s.text_path);
    in.read_flags("placements", s.placements, kPlacementNames);
    in.read_choice("norm", s.norm, kNormNames, kNorms);
    in.read("layers", s.layers, kMinLayers, kMaxLayers);
    if (in.read("width", s.width, kDepthWidths.front(), kDepthWidths.back()) && !one_of(s.width, kDepthWidths))
        in.fail("width", "= " + std::to_string(s.width) + " is not one of " + choices_text(kDepthWidths));
    if (in.read("heads", s.heads, kDepthHeads.front(), kDepthHeads.back()) && !one_of(s.heads, kDepthHeads))
        in.fail("heads", "= " + std::to_string(s.heads) + " is not one of " + choices_text(kDepthHeads));
    in.read("residual_scale", s.residual_scale);
    if (std::string parts; in.read("normformer_parts", parts)) {   // absent (older files): all
        const std::optional<NormFormerParts> v = parse_normformer_parts(parts);
        if (!v) in.fail("normformer_parts", "= \"" + parts + "\" is not a list of attn_norm, ffn_norm, head_scale (or all, none)");
        s.normformer = *v;
    }
    in.read_choice("init", s.init, kInitNames, kInits);   // absent (older files): uniform
    in.read("steps", s.steps, kDepthMinSteps, kDepthMaxSteps);
    in.read("lr", s.lr, kDepthLrRule);
    in.read("seed", s.seed);
    in.read("measure_steps", s.measure_steps, 1, kDepthMaxSteps);
    in.read("seeds", s.seeds, kDepthMinSeeds, kDepthMaxSeeds);   // absent (older files): 5
    in.read_choice("evolution", s.evolution, kEvolutionNames, kEvolutionValues);
    in.read("sweep_lr_min", s.sweep_lr_min, kDepthLrRule);
    in.read("sweep_lr_max", s.sweep_lr_max, kDepthLrRule);
    if (s.sweep_lr_max <= s.sweep_lr_min)
        in.fail("sweep_lr_max", "must be larger than sweep_lr_min (" + format_number(s.sweep_lr_min) + ")");
    in.read("sweep_points", s.sweep_points, kDepthMinSweepPoints, kDepthMaxSweepPoints);
    in.read("sweep_steps", s.sweep_steps, kDepthMinSweepSteps, kDepthMaxSweepSteps);
    in.read("prompt", s.prompt);
    in.read("temperature", s.temperature, kDepthTemperatureRule);
    in.read("sample_lines", s.sample_lines, 1, kDepthMaxSampleLines);
    in.read("sample_seed", s.sample_seed);
    // Absent (files from before the float32 path): f64, so that they give the numbers they gave.
    if (!in.read_choice("precision", s.precision, kPrecisionNames, kPrecisions)) s.precision = Precision::F64;
}

std::vector<double> depth_sweep_lrs(const DepthLabState& s) {
    std::vector<double> lrs;
    const int n = std::max(s.sweep_points, 1);
    const double lo = std::log10(s.sweep_lr_min), hi = std::log10(s.sweep_lr_max);
    for (int i = 0; i < n; ++i) lrs.push_back(std::pow(10.0, n == 1 ? lo : lo + (hi - lo) * i / (n - 1)));
    return lrs;
}

// [SECTION] Runs ----------------------------------------------------------------------------

DepthConfig depth_run_config(const DepthLabState& s, int p) {
    const NormPlacement placement = kAllNormPlacements[p];
    DepthConfig c = default_depth_config(s.task, placement, s.norm, s.seed);
    c.task.text_path = s.text_path;
    c.model.layers = s.layers;
    c.model.width = s.width;
    c.model.heads = s.heads;
    c.model.residual_scale = s.residual_scale && placement == NormPlacement::NormFormer;
    if (placement == NormPlacement::NormFormer) c.model.normformer = s.normformer;
    c.model.init = s.init;
    c.optimizer.lr = s.lr;
    c.steps = s.steps;
    c.eval_every = kDepthMaxSteps + 1;   // after the last step only
    c.precision = s.precision;
    return c;
}

DepthConfig depth_sweep_config(const DepthLabState& s, int p, double lr) {
    DepthConfig c = depth_run_config(s, p);
    c.optimizer.lr = lr;
    c.steps = s.sweep_steps;
    c.eval_cases = 1;   // the sweep reads training losses; the evaluation after the last step is not used
    return c;
}

int depth_window(const DepthLabState& s) { return std::max(1, std::min(s.measure_steps, s.steps)); }

DepthConfig depth_seed_config(const DepthLabState& s, int p, std::uint64_t seed) {
    DepthConfig c = depth_run_config(s, p);
    c.seed = seed;
    c.steps = depth_window(s);
    c.eval_cases = 1;   // the claims read the measure; the evaluation after the last step is not used
    return c;
}

namespace {

// Whether two runs train the same numbers up to the smaller of their step counts.
bool same_run(const DepthConfig& a, const DepthConfig& b) {
    const TaskSpec &ta = a.task, &tb = b.task;
    const TransformerConfig &ma = a.model, &mb = b.model;
    const NormSpec &na = ma.norm, &nb = mb.norm;
    const OptimizerSpec &oa = a.optimizer, &ob = b.optimizer;
    return ta.kind == tb.kind && ta.length == tb.length && ta.digits == tb.digits && ta.text == tb.text &&
           ta.text_path == tb.text_path && ta.units == tb.units && ta.context == tb.context &&
           ta.validation_fraction == tb.validation_fraction && ma.layers == mb.layers && ma.width == mb.width &&
           ma.heads == mb.heads && ma.placement == mb.placement && ma.residual_scale == mb.residual_scale &&
           ma.normformer == mb.normformer && ma.init == mb.init && na.norm == nb.norm && na.eps == nb.eps && na.eps_mode == nb.eps_mode &&
           oa.kind == ob.kind && oa.lr == ob.lr && oa.momentum == ob.momentum && oa.beta1 == ob.beta1 &&
           oa.beta2 == ob.beta2 && oa.adam_eps == ob.adam_eps && a.batch_size == b.batch_size &&
           a.eval_cases == b.eval_cases && a.seed == b.seed && a.precision == b.precision;
}

// The sweep's settings: everything but the main runs' steps, learning rate and the display.
bool same_sweep(const DepthLabState& a, const DepthLabState& b) {
    return a.task == b.task && a.text_path == b.text_path && a.placements == b.placements && a.norm == b.norm &&
           a.layers == b.layers && a.width == b.width && a.heads == b.heads && a.residual_scale == b.residual_scale &&
           a.normformer == b.normformer && a.init == b.init && a.seed == b.seed && a.precision == b.precision &&
           a.sweep_lr_min == b.sweep_lr_min &&
           a.sweep_lr_max == b.sweep_lr_max && a.sweep_points == b.sweep_points && a.sweep_steps == b.sweep_steps;
}

// The seed runs' settings: the runs' (but their steps), the seeds and the window.
bool same_seeds(const DepthLabState& a, const DepthLabState& b) {
    return a.task == b.task && a.text_path == b.text_path && a.placements == b.placements && a.norm == b.norm &&
           a.layers == b.layers && a.width == b.width && a.heads == b.heads && a.residual_scale == b.residual_scale &&
           a.normformer == b.normformer && a.init == b.init && a.lr == b.lr && a.seed == b.seed &&
           a.seeds == b.seeds && depth_window(a) == depth_window(b) && a.precision == b.precision;
}

bool same_samples(const DepthLabState& a, const DepthLabState& b) {
    return a.prompt == b.prompt && a.temperature == b.temperature && a.sample_lines == b.sample_lines &&
           a.sample_seed == b.sample_seed;
}

}  // namespace

// [SECTION] Snapshot helpers ----------------------------------------------------------------

const DepthRunView* find_run(const DepthLabSnapshot& s, int p) {
    for (const DepthRunView& r : s.runs)
        if (r.placement == p) return &r;
    return nullptr;
}

namespace {
// Mean of the last kDepthSweepTail entries (all when fewer).
double tail_mean(const std::vector<double>& losses) {
    const std::size_t tail = std::min<std::size_t>(kDepthSweepTail, losses.size());
    double sum = 0.0;
    for (std::size_t i = losses.size() - tail; i < losses.size(); ++i) sum += losses[i];
    return sum / static_cast<double>(tail);
}
}  // namespace

bool run_diverged(const DepthRunView& r) {
    const std::vector<double>& loss = r.run.history.train_loss;
    return r.not_finite_at > 0 || (loss.size() > static_cast<std::size_t>(kDepthSweepTail) && tail_mean(loss) >= loss.front());
}

int sweep_done(const DepthLabSnapshot& s) {
    return static_cast<int>(std::count_if(s.sweep.begin(), s.sweep.end(),
                                          [](const DepthSweepPoint& q) { return q.outcome != SweepOutcome::Pending; }));
}

int seed_runs_done(const DepthLabSnapshot& s) {
    return static_cast<int>(std::count_if(s.seed_runs.begin(), s.seed_runs.end(),
                                          [](const DepthSeedRun& r) { return r.done(); }));
}

std::optional<double> divergence_lr(const DepthLabSnapshot& s, int p) {
    // Points come learning rate first, so every smaller rate of p is done before a larger one.
    for (const DepthSweepPoint& q : s.sweep) {
        if (q.placement != p) continue;
        if (q.outcome == SweepOutcome::Pending) return std::nullopt;
        if (q.outcome == SweepOutcome::Diverged || q.outcome == SweepOutcome::NotFinite) return q.lr;
    }
    return std::nullopt;
}

// [SECTION] Engine: configuration -----------------------------------------------------------

struct DepthLab::Run {
    Run(int p, const DepthConfig& c) : placement(p), config(c), trainer(c), parameters(trainer.parameter_count()) {}
    int placement = 0;             // index into kAllNormPlacements
    DepthConfig config;            // as built (steps: the target then)
    DepthTrainer trainer;
    Index parameters = 0;
    int target = 0;                // state.steps
    int not_finite_at = 0;
    std::optional<DepthEval> final;
    std::vector<DepthSample> samples;
    int samples_step = -1;         // −1: due
    std::string sample_error;
    bool done() const { return not_finite_at > 0 || trainer.step_count() >= target; }
};

struct DepthLab::Seeds {
    std::vector<DepthSeedRun> runs;                        // planned: seed + 1 of every placement, then seed + 2, …
    std::vector<std::unique_ptr<DepthTrainer>> trainers;   // runs[i]'s trainer while it trains
    std::size_t next = 0;                                  // the first run not done: it and the next train together
};

struct DepthLab::Sweep {
    std::vector<DepthSweepPoint> points;                   // learning-rate major, then placement
    std::vector<std::unique_ptr<DepthTrainer>> trainers;   // points[i]'s run while it trains
    std::vector<std::vector<double>> losses;               // points[i]'s training losses so far
    std::size_t next = 0;                                  // the first point not done: it and the next train together
};

DepthLab::DepthLab() = default;
DepthLab::~DepthLab() = default;

void DepthLab::configure(const DepthLabState& state) {
    const bool seeds_changed = !configured_ || !same_seeds(state_, state) || !seeds_;
    const bool sweep_changed = !configured_ || !same_sweep(state_, state) || !sweep_;
    const bool samples_changed = !configured_ || !same_samples(state_, state);
    state_ = state;
    configured_ = true;
    error_.clear();
    try {
        for (int p = 0; p < kDepthPlacementCount; ++p) {
            std::unique_ptr<Run>& run = runs_[static_cast<std::size_t>(p)];
            if (!state.placements[static_cast<std::size_t>(p)]) {
                run.reset();
                continue;
            }
            const DepthConfig want = depth_run_config(state, p);
            if (!run || !same_run(run->config, want) || run->trainer.step_count() > state.steps)
                run = std::make_unique<Run>(p, want);
            if (run->target != state.steps) {   // a new run, or steps raised or lowered to where it is
                run->target = state.steps;
                run->final.reset();
                if (run->trainer.step_count() == run->target && run->not_finite_at == 0)
                    run->final = run->trainer.evaluate();
            }
            if (samples_changed) run->samples_step = -1;
        }
        if (seeds_changed) {
            seeds_ = std::make_unique<Seeds>();
            for (int k = 1; k < state.seeds; ++k)
                for (int p = 0; p < kDepthPlacementCount; ++p)
                    if (state.placements[static_cast<std::size_t>(p)])
                        seeds_->runs.push_back({p, state.seed + static_cast<std::uint64_t>(k), depth_window(state), {}, false});
            seeds_->trainers.resize(seeds_->runs.size());
        }
        if (sweep_changed) {
            if (const std::string problem = validate(depth_sweep_config(state, 0, state.sweep_lr_min)); !problem.empty())
                throw std::invalid_argument("the sweep: " + problem);
            sweep_ = std::make_unique<Sweep>();
            for (double lr : depth_sweep_lrs(state))
                for (int p = 0; p < kDepthPlacementCount; ++p)
                    if (state.placements[static_cast<std::size_t>(p)]) sweep_->points.push_back({p, lr});
            sweep_->trainers.resize(sweep_->points.size());
            sweep_->losses.resize(sweep_->points.size());
        }
    } catch (const std::exception& e) {   // InputError (the text), std::invalid_argument (settings)
        error_ = e.what();
        for (std::unique_ptr<Run>& run : runs_) run.reset();
        seeds_.reset();
        sweep_.reset();
    }
}

void DepthLab::restart() {
    for (std::unique_ptr<Run>& run : runs_) run.reset();
    seeds_.reset();
    sweep_.reset();
    configured_ = false;
    configure(state_);
}

// [SECTION] Engine: work --------------------------------------------------------------------

bool DepthLab::sample_due(const Run& run) const {
    const int step = run.trainer.step_count();
    return run.samples_step < 0 || (run.samples_step != step && (run.done() || step - run.samples_step >= kDepthSampleEvery));
}

namespace {

// Sort, copy: the user's digits ("314159", "314159|", spaces ignored), checked against the task.
std::vector<int> prompt_digits(const std::string& prompt, const SequenceTask& task) {
    const TaskSpec& spec = task.spec();
    std::vector<int> digits;
    for (char c : prompt) {
        if (c == ' ' || c == '|') continue;
        if (c < '0' || c >= '0' + spec.digits)
            throw InputError("the prompt " + quote_for_message(prompt) + " may hold only digits 0–" +
                             std::to_string(spec.digits - 1) + " (and “|” at the end)");
        digits.push_back(c - '0');
    }
    if (static_cast<int>(digits.size()) != spec.length)
        throw InputError("the prompt needs " + std::to_string(spec.length) + " digits, as the problems the models learn (got " +
                         std::to_string(digits.size()) + ")");
    return digits;
}

}  // namespace

void DepthLab::draw_samples(Run& run) {
    run.samples.clear();
    run.sample_error.clear();
    run.samples_step = run.trainer.step_count();
    if (run.not_finite_at > 0) {
        run.sample_error = "no samples: the loss was not finite at step " + std::to_string(run.not_finite_at);
        return;
    }
    const SequenceTask& task = run.trainer.task();
    const Vocabulary& vocab = task.vocabulary();
    try {
        GenerateSpec g;
        g.temperature = state_.temperature;
        if (task.synthetic()) {
            // Problems: the user's first (when given), then random ones; each answered digit by digit.
            Rng rng(derive_seed(state_.sample_seed, 7));
            const int n = task.spec().length;
            for (int i = 0; i < state_.sample_lines; ++i) {
                std::vector<int> digits;
                if (i == 0 && !state_.prompt.empty()) {
                    digits = prompt_digits(state_.prompt, task);
                } else {
                    for (int k = 0; k < n; ++k) digits.push_back(static_cast<int>(rng.below(static_cast<std::uint64_t>(task.spec().digits))));
                }
                DepthSample sample;
                sample.prompt = vocab.decode(digits) + "|";
                sample.expected = vocab.decode(task.answer(digits));
                g.prompt = sample.prompt;
                g.max_tokens = n;
                g.seed = state_.sample_seed + static_cast<std::uint64_t>(i);
                sample.output = run.trainer.generate(g);
                sample.correct = sample.output == sample.expected;
                run.samples.push_back(std::move(sample));
            }
        } else {
            DepthSample sample;
            sample.prompt = state_.prompt.empty() ? vocab.decode({task.validation_ids().front()}) : state_.prompt;
            g.prompt = sample.prompt;
            g.max_tokens = 100 * state_.sample_lines;
            g.seed = state_.sample_seed;
            g.stop_after_lines = state_.sample_lines;
            sample.output = run.trainer.generate(g);
            run.samples.push_back(std::move(sample));
        }
    } catch (const InputError& e) {
        run.samples.clear();
        run.sample_error = e.what();
    }
}

void DepthLab::step_run(Run& run) {
    if (run.done()) return;
    const double loss = run.trainer.step();
    const int step = run.trainer.step_count();
    if (!std::isfinite(loss)) {
        run.not_finite_at = step;
        return;
    }
    if (step == run.target) {
        const DepthHistory& h = run.trainer.history();
        run.final = !h.eval_step.empty() && h.eval_step.back() == step ? h.eval.back() : run.trainer.evaluate();
    }
}

void DepthLab::set_threads(unsigned threads) {
    threads_ = threads;
    pool_.reset();
}

namespace {

// The lab's threads when set_threads was not given any: NORMLAB_THREADS when set (1–256, as for
// the fast kernels), else every core (the web page: one, its threads are a fixed pool).
unsigned default_lab_threads() {
#ifdef __EMSCRIPTEN__
    return 1;
#else
    if (const std::optional<unsigned> n = fast::threads_from_env()) return *n;
    return std::max(1u, std::thread::hardware_concurrency());
#endif
}

}  // namespace

void DepthLab::side_by_side(std::vector<Step>& steps) {
    // Each run has its own model, optimizer and random streams, so neither the threads nor the
    // order change a number (docs/ARCHITECTURE.md, Data flow). The costliest placement first (its
    // latest step's time), each thread then taking the next step left: 3 runs on 2 threads end
    // when NormFormer's step and the other two's do, not after NormFormer's and one other's.
    // The pool is made here, on the lab's own thread, on first use.
    if (!pool_)
        pool_ = std::make_unique<fast::ThreadPool>(
            std::min(threads_ > 0 ? threads_ : default_lab_threads(), static_cast<unsigned>(kDepthPlacementCount)));
    std::stable_sort(steps.begin(), steps.end(), [this](const Step& a, const Step& b) {
        return step_ms_[static_cast<std::size_t>(a.placement)] > step_ms_[static_cast<std::size_t>(b.placement)];
    });
    std::vector<double> ms(steps.size(), 0.0);
    std::vector<std::exception_ptr> failed(steps.size());
    std::atomic<std::size_t> next{0};
    pool_->run(static_cast<unsigned>(steps.size()), [&](unsigned) {
        for (std::size_t i = next++; i < steps.size(); i = next++) {
            const auto t0 = std::chrono::steady_clock::now();
            try {
                steps[i].step();
            } catch (...) {
                failed[i] = std::current_exception();
            }
            ms[i] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        }
    });
    for (std::size_t i = 0; i < steps.size(); ++i) step_ms_[static_cast<std::size_t>(steps[i].placement)] = ms[i];
    steps_ += steps.size();
    for (const std::exception_ptr& e : failed)
        if (e) std::rethrow_exception(e);
}

bool DepthLab::step_runs() {
    std::vector<Step> steps;
    for (std::unique_ptr<Run>& run : runs_)
        if (run && !run->done()) steps.push_back({run->placement, [this, r = run.get()] { step_run(*r); }});
    if (steps.empty()) return false;
    side_by_side(steps);
    ++work_;
    return true;
}

bool DepthLab::step_seeds() {
    if (!seeds_ || seeds_->next >= seeds_->runs.size()) return false;
    Seeds& w = *seeds_;
    std::vector<Step> steps;
    try {
        for (std::size_t i = w.next; i < w.runs.size() && i < w.next + kDepthSideBySide; ++i) {
            DepthSeedRun& r = w.runs[i];
            if (r.done()) continue;
            if (!w.trainers[i]) w.trainers[i] = std::make_unique<DepthTrainer>(depth_seed_config(state_, r.placement, r.seed));
            steps.push_back({r.placement, [&r, &t = *w.trainers[i]] {
                                 r.not_finite = !std::isfinite(t.step());
                                 r.history = t.history();
                             }});
        }
    } catch (const std::exception& e) {   // the text file changed since the runs read it
        error_ = e.what();
        seeds_.reset();
        return false;
    }
    side_by_side(steps);
    for (; w.next < w.runs.size() && w.runs[w.next].done(); ++w.next) w.trainers[w.next].reset();
    return true;
}

void DepthLab::step_sweep_point(std::size_t i) {
    Sweep& w = *sweep_;
    DepthSweepPoint& q = w.points[i];
    const double loss = w.trainers[i]->step();
    w.losses[i].push_back(loss);
    q.steps = w.trainers[i]->step_count();
    if (q.steps == 1) q.first_loss = loss;
    if (!std::isfinite(loss)) {
        q.outcome = SweepOutcome::NotFinite;
    } else if (q.steps >= state_.sweep_steps) {
        q.final_loss = tail_mean(w.losses[i]);
        q.outcome = q.final_loss >= q.first_loss ? SweepOutcome::Diverged : SweepOutcome::Trained;
    }
}

bool DepthLab::step_sweep() {
    if (!sweep_ || sweep_->next >= sweep_->points.size()) return false;
    Sweep& w = *sweep_;
    std::vector<Step> steps;
    try {
        for (std::size_t i = w.next; i < w.points.size() && i < w.next + kDepthSideBySide; ++i) {
            if (w.points[i].outcome != SweepOutcome::Pending) continue;
            if (!w.trainers[i])
                w.trainers[i] = std::make_unique<DepthTrainer>(depth_sweep_config(state_, w.points[i].placement, w.points[i].lr));
            steps.push_back({w.points[i].placement, [this, i] { step_sweep_point(i); }});
        }
    } catch (const std::exception& e) {   // the text file changed since the runs read it
        error_ = e.what();
        sweep_.reset();
        return false;
    }
    side_by_side(steps);
    for (; w.next < w.points.size() && w.points[w.next].outcome != SweepOutcome::Pending; ++w.next) {
        w.trainers[w.next].reset();
        w.losses[w.next] = {};
    }
    return true;
}

bool DepthLab::advance(bool train) {
    if (!configured_) return false;
    for (std::unique_ptr<Run>& run : runs_) {
        if (run && sample_due(*run)) {
            draw_samples(*run);
            ++work_;
            return true;
        }
    }
    if (!train) return false;
    if (step_runs()) return true;
    if (step_sweep() || step_seeds()) {
        ++work_;
        return true;
    }
    return false;
}

DepthLab::Progress DepthLab::progress() const {
    Progress p;
    p.runs = std::all_of(runs_.begin(), runs_.end(), [](const std::unique_ptr<Run>& r) { return !r || r->done(); });
    p.sweep = !sweep_ || sweep_->next >= sweep_->points.size();
    p.seeds = !seeds_ || seeds_->next >= seeds_->runs.size();
    p.steps = steps_;
    return p;
}

DepthLabSnapshot DepthLab::snapshot() const {
    DepthLabSnapshot s;
    s.state = state_;
    s.error = error_;
    s.work = work_;
    for (int p = 0; p < kDepthPlacementCount; ++p) {
        const Run* run = runs_[static_cast<std::size_t>(p)].get();
        if (run == nullptr) continue;
        DepthRunView v;
        v.placement = p;
        v.run = run->trainer.snapshot();
        v.parameters = run->parameters;
        v.target_steps = run->target;
        v.not_finite_at = run->not_finite_at;
        v.final = run->final;
        v.samples = run->samples;
        v.samples_step = run->samples_step;
        v.sample_error = run->sample_error;
        s.busy = s.busy || !run->done() || sample_due(*run);
        if (s.runs.empty()) {
            const SequenceTask& task = run->trainer.task();
            s.vocab = task.vocabulary().size();
            s.context = task.context();
            s.source = task.source();
        }
        s.runs.push_back(std::move(v));
    }
    if (seeds_) {
        s.seed_runs = seeds_->runs;
        s.busy = s.busy || seeds_->next < seeds_->runs.size();
    }
    if (sweep_) {
        s.sweep = sweep_->points;
        s.busy = s.busy || sweep_->next < sweep_->points.size();
    }
    return s;
}

DepthLabSnapshot run_depth_lab(const DepthLabState& state) {
    DepthLab lab;
    lab.configure(state);
    while (lab.advance(true)) {
    }
    return lab.snapshot();
}

// [SECTION] Worker --------------------------------------------------------------------------

DepthLabWorker::DepthLabWorker(const DepthLabState& state)
    : worker_([state](Job& job) { job.lab.configure(state); }) {}

void DepthLabWorker::configure(const DepthLabState& state) {
    worker_.post([state](Job& job) { job.lab.configure(state); });
}

void DepthLabWorker::restart() {
    worker_.post([](Job& job) { job.lab.restart(); });
}

void DepthLabWorker::play() { worker_.play(); }
void DepthLabWorker::pause() { worker_.pause(); }

void DepthLabWorker::step() {
    worker_.pause();
    worker_.post([](Job& job) { job.lab.step_runs(); });
}

std::uint64_t DepthLabWorker::advance(int units) { return worker_.advance(units); }
bool DepthLabWorker::wait_for(std::uint64_t work) const { return worker_.wait_for(work); }
bool DepthLabWorker::playing() const { return worker_.playing(); }
std::shared_ptr<const DepthLabSnapshot> DepthLabWorker::latest() const { return worker_.latest(); }

// [SECTION] Claims --------------------------------------------------------------------------

namespace {
// How many ratios lie beyond the threshold: ≥ it when it is above 1, ≤ it when below.
long count_beyond(const std::vector<double>& ratios, double threshold) {
    return std::count_if(ratios.begin(), ratios.end(),
                         [threshold](double r) { return threshold > 1.0 ? r >= threshold : r <= threshold; });
}
}  // namespace

DepthVerdict seeds_verdict(const std::vector<double>& ratios, double threshold) {
    if (ratios.empty()) return DepthVerdict::NotYet;
    const long n = count_beyond(ratios, threshold);
    if (n == static_cast<long>(ratios.size())) return DepthVerdict::Holds;
    return n == 0 ? DepthVerdict::DoesNotHold : DepthVerdict::Mixed;
}

std::string verdict_text(const DepthClaim& c) {
    switch (c.verdict) {
        case DepthVerdict::Holds: return tr("✓ holds here");
        case DepthVerdict::Partly: return tr("◐ larger, not much");
        case DepthVerdict::Mixed: return "≈ " + c.progress;
        case DepthVerdict::DoesNotHold: return tr("✗ not here");
        case DepthVerdict::Provisional: return tr("… provisional ({0})", c.progress);
        case DepthVerdict::NotYet: break;
    }
    return tr("… not yet");
}

DepthRatios depth_ratios(const DepthLabSnapshot& s, int p) {
    DepthRatios d;
    d.window = depth_window(s.state);
    d.planned = std::max(s.state.seeds, 1);
    const DepthRunView* r = find_run(s, p);
    if (r == nullptr) return d;
    d.main_steps = std::min(d.window, r->run.step);
    if (d.main_steps < 1) return d;
    const double main = window_ratio(r->run.history, d.main_steps);
    if (std::isfinite(main)) d.so_far = main;
    if (d.main_steps < d.window) return d;
    if (d.so_far) {
        d.ratios.push_back(main);
        d.seeds.push_back(s.state.seed);
    } else {
        ++d.failed;
    }
    for (const DepthSeedRun& q : s.seed_runs) {
        if (q.placement != p || !q.done()) continue;
        const double ratio = q.not_finite ? NAN : window_ratio(q.history, d.window);
        if (static_cast<int>(q.history.train_loss.size()) < d.window || !std::isfinite(ratio)) {
            d.failed += q.not_finite || !std::isfinite(ratio);
            continue;   // trained for a shorter window: not counted (it trains again)
        }
        d.ratios.push_back(ratio);
        d.seeds.push_back(q.seed);
    }
    return d;
}

std::optional<double> measured_ratio(const DepthLabSnapshot& s, int p) {
    const DepthRunView* r = find_run(s, p);
    if (r == nullptr || r->run.step < 1) return std::nullopt;
    const int n = std::min(std::max(s.state.measure_steps, 1), r->run.step);
    const double ratio = window_ratio(r->run.history, n);
    if (!std::isfinite(ratio)) return std::nullopt;
    return ratio;
}

namespace {

constexpr const char* kXiong = tr_later("Xiong et al. 2020: at initialization (Xavier init, mean-field theory)");
constexpr const char* kShleifer = tr_later("Shleifer et al. 2021, Fig. 2: language models of 125 M–2.7 B parameters, pretraining");
constexpr const char* kShleiferLr = tr_later("Shleifer et al. 2021: language models of 125 M parameters and more");

std::string ratio_text(double r) { return format_number(r, 3); }

// "1.77 ± 0.09 (1.65–1.90)"; one value alone: "1.77".
std::string ratios_text(const std::vector<double>& v) {
    const Spread sp = spread_of(v);
    return sp.n == 1 ? ratio_text(sp.mean) : spread_text(sp);
}

// "steps 1–50", "step 1".
std::string window_text(int n) { return n == 1 ? std::string(tr("step 1")) : tr("steps 1–{0}", n); }

// "seeds 1–5", "seed 1", or "2 of 5 seeds" while some are still training.
std::string seeds_text(const DepthRatios& d) {
    const auto n = static_cast<int>(d.ratios.size());
    if (!d.complete()) return tr("{0} of {1} seeds", n, d.planned);
    if (n == 1) return tr("seed {0} only", d.seeds.front());
    const auto [lo, hi] = std::minmax_element(d.seeds.begin(), d.seeds.end());
    return tr("seeds {0}–{1}", *lo, *hi);
}

// "; but Pre-LN diverged": a ratio from a run that is not learning says little.
std::string diverged_note(const DepthLabSnapshot& s, std::initializer_list<int> placements) {
    std::vector<std::string> names;
    for (int p : placements)
        if (const DepthRunView* r = find_run(s, p); r != nullptr && run_diverged(*r))
            names.emplace_back(display_name(kAllNormPlacements[p]));
    if (names.empty()) return "";
    return names.size() == 1 ? tr("; but {0} diverged", names[0]) : tr("; but {0} and {1} diverged", names[0], names[1]);
}

// Why a ratio is missing, in a few words.
std::string missing_ratio(const DepthLabSnapshot& s, int p) {
    const DepthRunView* r = find_run(s, p);
    const std::string name(display_name(kAllNormPlacements[p]));
    if (r == nullptr) return tr("{0} is not ticked", name);
    if (r->run.step < 1) return tr("{0}: no step yet", name);
    return tr("{0}: the measure is not finite (the loss was not finite)", name);
}

// Fills measured, verdict and progress while placement p's data is incomplete; true when it is
// complete (the caller states the verdict).
bool still_waiting(DepthClaim& c, const DepthLabSnapshot& s, int p, const DepthRatios& d) {
    if (s.state.layers < 2) {
        c.measured = tr("needs 2 layers or more");
        return true;
    }
    if (!d.so_far && d.ratios.empty()) {
        c.measured = missing_ratio(s, p);
        return true;
    }
    if (d.main_steps < d.window) {
        c.measured = tr("first ÷ last {0} so far (seed {1}, {2} of {3})", ratio_text(*d.so_far), s.state.seed,
                        window_text(d.main_steps), d.window);
        c.verdict = DepthVerdict::Provisional;
        c.progress = tr("{0} of {1} steps", d.main_steps, d.window);
        return true;
    }
    if (!d.complete()) {
        c.measured = tr("first ÷ last {0} so far, {1}, {2}", ratios_text(d.ratios), seeds_text(d), window_text(d.window));
        c.verdict = DepthVerdict::Provisional;
        c.progress = tr("{0} of {1} seeds", d.ratios.size(), d.planned);
        return true;
    }
    return d.ratios.empty();
}

// How many of the ratios are beyond the threshold, for a Mixed verdict: "3 of 5 seeds".
std::string agreeing(const std::vector<double>& ratios, double threshold) {
    return tr("{0} of {1} seeds", count_beyond(ratios, threshold), ratios.size());
}

DepthClaim postln_claim(const DepthLabSnapshot& s) {
    DepthClaim c;
    c.claim = tr("Post-LN: later layers get larger gradients (first ÷ last ≤ 1/{0})", ratio_text(kDepthLarger));
    // Xiong et al.'s analysis is of initialization with Xavier init: say what the runs here are.
    c.source = s.state.init == TransformerInit::Xavier ? tr("{0}; here: Xavier init too, measured while training", tr(kXiong))
                                                       : tr("{0}; here: uniform ±1/√n init, measured while training", tr(kXiong));
    const DepthRatios d = depth_ratios(s, 0);
    if (still_waiting(c, s, 0, d)) return c;
    const double threshold = 1.0 / kDepthLarger;
    c.measured = tr("first ÷ last {0}, {1}, {2}", ratios_text(d.ratios), seeds_text(d), window_text(d.window)) +
                 diverged_note(s, {0});
    c.verdict = seeds_verdict(d.ratios, threshold);
    c.progress = agreeing(d.ratios, threshold);
    return c;
}

DepthClaim preln_claim(const DepthLabSnapshot& s) {
    DepthClaim c;
    c.claim = tr("Pre-LN: early layers get much larger gradients (first ÷ last ≥ {0}; larger: ≥ {1})",
                 ratio_text(kDepthMuchLarger), ratio_text(kDepthLarger));
    c.source = tr(kShleifer);
    const DepthRatios d = depth_ratios(s, 1);
    if (still_waiting(c, s, 1, d)) return c;
    c.measured = tr("first ÷ last {0}, {1}, {2}", ratios_text(d.ratios), seeds_text(d), window_text(d.window)) +
                 diverged_note(s, {1});
    c.verdict = seeds_verdict(d.ratios, kDepthMuchLarger);
    c.progress = agreeing(d.ratios, kDepthMuchLarger);
    if (c.verdict != DepthVerdict::Holds) {   // larger, at least, in every seed?
        const DepthVerdict larger = seeds_verdict(d.ratios, kDepthLarger);
        if (larger == DepthVerdict::Holds) c.verdict = DepthVerdict::Partly;
        if (larger == DepthVerdict::DoesNotHold) c.verdict = DepthVerdict::DoesNotHold;
        if (larger == DepthVerdict::Mixed) c.progress = tr("larger in {0}", agreeing(d.ratios, kDepthLarger));
    }
    return c;
}

DepthClaim even_claim(const DepthLabSnapshot& s) {
    DepthClaim c;
    c.claim = tr("NormFormer: more even across layers than Pre-LN (first ÷ last nearer 1)");
    c.source = tr(kShleifer);
    const DepthRatios pre = depth_ratios(s, 1), nf = depth_ratios(s, 2);
    if (s.state.layers < 2 || !pre.so_far || !nf.so_far) {
        still_waiting(c, s, !pre.so_far ? 1 : 2, !pre.so_far ? pre : nf);
        return c;
    }
    if (!pre.complete() || !nf.complete()) {   // the less advanced of the two says how far
        const auto shown = [](const DepthRatios& d) { return d.ratios.empty() ? ratio_text(*d.so_far) : ratios_text(d.ratios); };
        const DepthRatios& behind = nf.main_steps < pre.main_steps || (nf.main_steps == pre.main_steps && nf.ratios.size() < pre.ratios.size()) ? nf : pre;
        const bool steps = behind.main_steps < behind.window;
        c.measured = steps ? tr("NormFormer {0}, Pre-LN {1} so far ({2} of {3})", shown(nf), shown(pre),
                                window_text(behind.main_steps), behind.window)
                           : tr("NormFormer {0}, Pre-LN {1} so far ({2}, {3})", shown(nf), shown(pre), seeds_text(behind),
                                window_text(behind.window));
        c.verdict = DepthVerdict::Provisional;
        c.progress = steps ? tr("{0} of {1} steps", behind.main_steps, behind.window)
                           : tr("{0} of {1} seeds", behind.ratios.size(), behind.planned);
        return c;
    }
    // Seed by seed: both placements trained on the same data from the same seed.
    std::size_t more_even = 0, paired = 0;
    for (std::size_t i = 0; i < pre.seeds.size(); ++i)
        for (std::size_t j = 0; j < nf.seeds.size(); ++j)
            if (pre.seeds[i] == nf.seeds[j]) {
                ++paired;
                more_even += std::fabs(std::log(nf.ratios[j])) < std::fabs(std::log(pre.ratios[i]));
            }
    c.measured = tr("NormFormer {0}, Pre-LN {1} ({2}, {3}); more even in {4} of {5}", ratios_text(nf.ratios),
                    ratios_text(pre.ratios), seeds_text(nf), window_text(nf.window), more_even, paired) +
                 diverged_note(s, {1, 2});
    c.verdict = paired == 0 ? DepthVerdict::NotYet
                : more_even == paired ? DepthVerdict::Holds
                : more_even == 0      ? DepthVerdict::DoesNotHold
                                      : DepthVerdict::Mixed;
    c.progress = tr("{0} of {1} seeds", more_even, paired);
    return c;
}

DepthClaim lr_claim(const DepthLabSnapshot& s) {
    DepthClaim c;
    c.claim = tr("NormFormer: trains at learning rates where Pre-LN diverges");
    c.source = tr(kShleiferLr);
    if (!find_run(s, 1) || !find_run(s, 2)) {
        c.measured = missing_ratio(s, !find_run(s, 1) ? 1 : 2);
        return c;
    }
    const int done = sweep_done(s), total = static_cast<int>(s.sweep.size());
    if (total == 0 || done < total) {
        c.measured = tr("sweep: {0} of {1} trainings (after the runs)", done, total);
        return c;
    }
    const std::optional<double> pre = divergence_lr(s, 1), nf = divergence_lr(s, 2);
    const std::string top = format_number(s.state.sweep_lr_max, 3);
    const auto from = [&top](const char* who, const std::optional<double>& lr) {
        return lr ? tr("{0} diverges from lr {1}", who, format_number(*lr, 3)) : tr("{0} trains up to lr {1}", who, top);
    };
    c.measured = tr("{0}, {1} (seed {2})", from("Pre-LN", pre), from("NormFormer", nf), s.state.seed);
    if (!pre && !nf) {
        c.measured = tr("neither diverges up to lr {0}: raise the sweep's largest learning rate", top);
        return c;
    }
    c.verdict = pre && (!nf || *nf > *pre) ? DepthVerdict::Holds : DepthVerdict::DoesNotHold;
    return c;
}

}  // namespace

std::vector<DepthClaim> depth_claims(const DepthLabSnapshot& s) {
    return {postln_claim(s), preln_claim(s), even_claim(s), lr_claim(s)};
}

std::string depth_conditions(const DepthLabSnapshot& s) {
    const DepthLabState& st = s.state;
    const std::string dot = " · ";
    std::string task;
    if (st.task == TaskKind::Text) {
        const std::string& src = s.source;
        const std::size_t slash = src.find_last_of('/');
        task = tr("text {0} ({1} symbols, context {2})", slash == std::string::npos ? src : src.substr(slash + 1), s.vocab,
                  s.context);
    } else {
        const TaskSpec spec = default_depth_config(st.task, NormPlacement::PreLN).task;
        task = tr("{0} of {1} digits 0–{2}", to_string(st.task), spec.length, spec.digits - 1);
    }
    std::string out = (st.layers == 1 ? std::string(tr("1 layer")) : tr("{0} layers", st.layers)) + dot +
                      tr("width {0}", st.width) + dot +
                      (st.heads == 1 ? std::string(tr("1 head")) : tr("{0} heads", st.heads)) + dot +
                      std::string(display_name(st.norm)) + dot + task + dot + tr("Adam lr {0}", format_number(st.lr, 3)) +
                      dot + tr("batch {0}", default_depth_config(st.task, NormPlacement::PreLN).batch_size) + dot +
                      (st.seeds > 1 ? tr("seeds {0}–{1}", st.seed, st.seed + static_cast<std::uint64_t>(st.seeds) - 1)
                                    : tr("seed {0}", st.seed));
    if (!s.runs.empty()) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.2f", static_cast<double>(s.runs.front().parameters) / 1e6);
        out += dot + tr("{0} M parameters", buf);
    }
    if (st.residual_scale && st.placements[2]) out += dot + tr("NormFormer with λ");
    if (st.normformer != NormFormerParts{} && st.placements[2]) out += dot + tr("NormFormer's parts: {0}", to_string(st.normformer));
    if (st.init != TransformerInit::Uniform) out += dot + tr("{0} init", display_name(st.init));
    return out;
}

// [SECTION] Plots ---------------------------------------------------------------------------

Color depth_placement_color(int p) {
    static_assert(kDepthPlacementCount == 3, "one colour per placement");
    return palette_color(2 + std::clamp(p, 0, 2));   // bluish green, reddish purple, orange
}

namespace {

constexpr double kLineWidth = 2.25;   // thicker than the default: read from the back of a room
constexpr int kSmoothSteps = 10;      // the evolution plot's trailing mean

std::vector<double> step_axis(std::size_t n) {
    std::vector<double> x(n);
    for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<double>(i + 1);
    return x;
}

// The steps axis of every per-step figure: 1 to the longest run's target, fixed while training.
Axis steps_axis(const DepthLabSnapshot& s) {
    int last = std::max(s.state.steps, 2);
    for (const DepthRunView& r : s.runs) last = std::max({last, r.target_steps, r.run.step});
    return {"step", Scale::Linear, 1.0, static_cast<double>(last)};
}

Series run_line(int p, std::vector<double> x, std::vector<double> y) {
    Series line;
    line.label = std::string(display_name(kAllNormPlacements[p]));
    line.x = std::move(x);
    line.y = std::move(y);
    line.color = depth_placement_color(p);
    line.width = kLineWidth;
    return line;
}

// Viridis from dark purple (t = 0) to green (t = 0.8): ordered, and never as light as yellow on white.
Color layer_color(int l, int layers) {
    static constexpr double kAnchors[5][3] = {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
    const double t = layers > 1 ? 0.8 * l / (layers - 1) : 0.0;
    const double u = 4.0 * t;
    const int i = std::min(static_cast<int>(u), 3);
    const double f = u - i;
    const auto mix = [&](int c) {
        return static_cast<std::uint8_t>(std::lround(kAnchors[i][c] + f * (kAnchors[i + 1][c] - kAnchors[i][c])));
    };
    return {mix(0), mix(1), mix(2)};
}

RefLine measure_line(const DepthLabSnapshot& s) {
    return {RefLine::Orientation::Vertical, static_cast<double>(s.state.measure_steps),
            "measured: 1–" + std::to_string(s.state.measure_steps), colors::kGrey, LineStyle::Dashed, 1.5};
}

}  // namespace

Plot depth_loss_plot(const DepthLabSnapshot& s) {
    Plot plot;
    plot.name = "depth_loss";
    plot.title = "Training loss";
    plot.caption = "Cross-entropy of each step's batch, per placement; " + depth_conditions(s);
    plot.x = steps_axis(s);
    plot.y = {"cross-entropy (batch)", Scale::Log10, std::nullopt, std::nullopt};
    for (const DepthRunView& r : s.runs)
        plot.series.push_back(run_line(r.placement, step_axis(r.run.history.train_loss.size()), r.run.history.train_loss));
    return plot;
}

Plot depth_layer_grad_plot(const DepthLabSnapshot& s) {
    Plot plot;
    plot.name = "depth_layer_grads";
    const int want = std::max(s.state.measure_steps, 1);
    int have = want;
    for (const DepthRunView& r : s.runs) have = std::min(have, r.run.step);
    plot.title = "Mean |∂L/∂W₂| per layer, steps 1–" + std::to_string(want) +
                 (have < want && !s.runs.empty() ? " (" + std::to_string(have) + " so far)" : "");
    plot.caption = "NormFormer's measure (Shleifer et al. 2021, Fig. 2): per layer, the mean absolute gradient of the FFN "
                   "output weights W₂, averaged over the first steps, seed " + std::to_string(s.state.seed) +
                   " (the claims give the spread over seeds); " + depth_conditions(s);
    plot.x = {"layer (1 = next to the input)", Scale::Linear, 0.5, std::max(s.state.layers, 1) + 0.5};
    plot.y = {"mean |∂L/∂W₂|", Scale::Linear, std::nullopt, std::nullopt};
    double top = 0.0, left = 0.0, right = 0.0;   // the tallest bar; the bars' sums in each half
    for (const DepthRunView& r : s.runs) {
        std::vector<double> means = mean_layer_grads(r.run.history, want);
        if (r.run.step < 1) means.assign(means.size(), 0.0);
        for (std::size_t l = 0; l < means.size(); ++l) {
            if (!std::isfinite(means[l])) continue;
            top = std::max(top, means[l]);
            if (2 * l + 1 < means.size()) left += means[l];        // the middle layer of an odd L: neither
            if (2 * l + 1 > means.size()) right += means[l];
        }
        std::vector<double> layer = step_axis(means.size());
        Series bars = run_line(r.placement, std::move(layer), std::move(means));
        bars.kind = SeriesKind::Bars;
        plot.series.push_back(std::move(bars));
    }
    // The legend above the lower half of the bars, with head room so that it hides none; the top
    // rounded up to a 1-2-5 multiple of its decade, so that a short figure still gets two ticks.
    if (top > 0.0) {
        const double room = 1.8 * top, decade = std::pow(10.0, std::floor(std::log10(room)));
        plot.y.max = std::ceil(room / decade) * decade;
    }
    plot.legend_corner = left >= right ? LegendCorner::TopRight : LegendCorner::TopLeft;
    return plot;
}

Plot depth_evolution_plot(const DepthLabSnapshot& s) {
    Plot plot;
    plot.name = "depth_layer_grads_over_steps";
    plot.x = steps_axis(s);
    plot.ref_lines.push_back(measure_line(s));
    const int view = std::clamp(s.state.evolution, 0, kDepthEvolutionRatio);
    if (view == kDepthEvolutionRatio) {
        plot.title = "First ÷ last layer, running means";
        plot.caption = "mean |∂L/∂W₂| of layer 1 over steps 1..s divided by that of the last layer, per placement; " +
                       depth_conditions(s);
        plot.y = {"first ÷ last", Scale::Log10, std::nullopt, std::nullopt};
        plot.ref_lines.push_back({RefLine::Orientation::Horizontal, 1.0, "even", colors::kGrey, LineStyle::Dotted, 1.5});
        for (const DepthRunView& r : s.runs) {
            const std::vector<std::vector<double>>& g = r.run.history.ffn_grad;
            std::vector<double> ratio;
            double first = 0.0, last = 0.0;
            for (std::size_t t = 0; !g.empty() && t < g.front().size(); ++t) {
                first += g.front()[t];
                last += g.back()[t];
                ratio.push_back(last > 0.0 ? first / last : std::nan(""));
            }
            std::vector<double> steps = step_axis(ratio.size());
            plot.series.push_back(run_line(r.placement, std::move(steps), std::move(ratio)));
        }
        return plot;
    }
    const std::string name(display_name(kAllNormPlacements[view]));
    const DepthRunView* r = find_run(s, view);
    plot.title = r ? name + ": each layer, " + std::to_string(kSmoothSteps) + "-step means" : name + " is not ticked";
    plot.caption = "Per layer, mean |∂L/∂W₂| of each step, trailing mean over " + std::to_string(kSmoothSteps) +
                   " steps; " + depth_conditions(s);
    plot.y = {"mean |∂L/∂W₂|", Scale::Log10, std::nullopt, std::nullopt};
    if (r == nullptr) return plot;
    const std::vector<std::vector<double>>& g = r->run.history.ffn_grad;
    const int layers = static_cast<int>(g.size());
    for (int l = 0; l < layers; ++l) {
        const std::vector<double>& v = g[static_cast<std::size_t>(l)];
        std::vector<double> smooth(v.size());
        double sum = 0.0;
        for (std::size_t t = 0; t < v.size(); ++t) {
            sum += v[t];
            if (t >= kSmoothSteps) sum -= v[t - kSmoothSteps];
            smooth[t] = sum / static_cast<double>(std::min<std::size_t>(t + 1, kSmoothSteps));
        }
        Series line;   // the first and the last layer in the legend; the shades between tell the rest
        if (l == 0 || l == layers - 1) line.label = "layer " + std::to_string(l + 1);
        line.data_name = "layer " + std::to_string(l + 1);
        line.x = step_axis(smooth.size());
        line.y = std::move(smooth);
        line.color = layer_color(l, layers);
        line.width = l == 0 || l == layers - 1 ? kLineWidth + 0.75 : kLineWidth;
        plot.series.push_back(std::move(line));
    }
    return plot;
}

Plot depth_sweep_plot(const DepthLabSnapshot& s) {
    const DepthLabState& st = s.state;
    Plot plot;
    plot.name = "depth_lr_sweep";
    plot.title = "Final loss after " + std::to_string(st.sweep_steps) + " steps, by learning rate";
    plot.caption = "Mean training loss of the last " + std::to_string(kDepthSweepTail) +
                   " steps; diverged: it ended no better than its first step (or the loss was not finite); " +
                   depth_conditions(s);
    plot.x = {"learning rate (Adam)", Scale::Log10, st.sweep_lr_min / 1.5, st.sweep_lr_max * 1.5};
    plot.y = {"final training loss", Scale::Linear, 0.0, std::nullopt};
    // A loss that was not finite sits at the top, above every finite one and ln V (the loss of a
    // uniform guess), labelled so.
    const double guess = s.vocab > 1 ? std::log(static_cast<double>(s.vocab)) : 1.0;
    double top = guess;
    for (const DepthSweepPoint& q : s.sweep)
        if (q.outcome == SweepOutcome::Trained || q.outcome == SweepOutcome::Diverged) top = std::max(top, q.final_loss);
    top *= 1.15;
    if (s.vocab > 1)
        plot.ref_lines.push_back({RefLine::Orientation::Horizontal, guess, "guessing: ln " + std::to_string(s.vocab),
                                  colors::kGrey, LineStyle::Dotted, 1.5});
    for (int p = 0; p < kDepthPlacementCount; ++p) {
        Series line = run_line(p, {}, {});
        line.marker = palette_marker(p);
        line.marker_size = 9.0;
        for (const DepthSweepPoint& q : s.sweep) {
            if (q.placement != p || q.outcome == SweepOutcome::Pending) continue;
            const bool finite = q.outcome != SweepOutcome::NotFinite;
            line.x.push_back(q.lr);
            line.y.push_back(finite ? q.final_loss : top);
            if (!finite) plot.annotations.push_back({q.lr, top, "✗ not finite"});
        }
        if (!line.x.empty()) plot.series.push_back(std::move(line));
        // Unlabelled (labels of nearby rates would collide): the legend's key below says what it means.
        if (const std::optional<double> lr = divergence_lr(s, p))
            plot.ref_lines.push_back({RefLine::Orientation::Vertical, *lr, "", depth_placement_color(p), LineStyle::Dashed,
                                      2.0});
    }
    Series key;   // a legend entry only: no points
    key.label = "diverges from here";
    key.color = colors::kGrey;
    key.line = LineStyle::Dashed;
    key.width = 2.0;
    plot.series.push_back(std::move(key));
    return plot;
}

std::vector<Plot> depth_lab_plots(const DepthLabSnapshot& s) {
    return {depth_loss_plot(s), depth_layer_grad_plot(s), depth_evolution_plot(s), depth_sweep_plot(s)};
}

}  // namespace normlab
