// NormLab core: the Depth lab's engine: its runs, sweep and seed runs trained side by side on a
// small pool, one unit at a time, and the worker that runs it (docs/ARCHITECTURE.md, Data flow).
#include "normlab/labs/depth_lab.hpp"

#include "normlab/base/input_error.hpp"

#include "base/thread_pool.hpp"
#include "labs/depth_lab_internal.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <thread>
#include <utility>

namespace normlab {

using depth_internal::tail_mean;

namespace {

using Index = Eigen::Index;

}  // namespace

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

// The sweep's settings: the models' and the sweep's (not the main runs' steps or learning rate).
bool same_sweep(const DepthLabState& a, const DepthLabState& b) {
    using namespace depth_internal;
    return model_fields(a) == model_fields(b) && sweep_fields(a) == sweep_fields(b);
}

// The seed runs' settings: the models', the learning rate, the seeds and the window (not the steps).
bool same_seeds(const DepthLabState& a, const DepthLabState& b) {
    using namespace depth_internal;
    return model_fields(a) == model_fields(b) && a.lr == b.lr && a.seeds == b.seeds && depth_window(a) == depth_window(b);
}

bool same_samples(const DepthLabState& a, const DepthLabState& b) {
    return depth_internal::sample_fields(a) == depth_internal::sample_fields(b);
}

}  // namespace
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

// A queue of runs trained kDepthSideBySide at a time, in order (the sweep's points, the seeds'
// runs): step_queue gives each run its trainer on its first step and frees it once done.
struct DepthLab::RunQueue {
    virtual ~RunQueue() = default;
    virtual std::size_t size() const = 0;
    virtual bool done(std::size_t i) const = 0;
    virtual int placement(std::size_t i) const = 0;                           // index into kAllNormPlacements
    virtual DepthConfig config(const DepthLabState& state, std::size_t i) const = 0;   // run i's trainer's
    virtual void step(const DepthLabState& state, std::size_t i) = 0;         // one step of run i (trainers[i])
    virtual void release(std::size_t i) { trainers[i].reset(); }              // run i is done
    std::vector<std::unique_ptr<DepthTrainer>> trainers;   // run i's trainer while it trains
    std::size_t next = 0;                                  // the first run not done: it and the next train together
    bool failed = false;                                   // a trainer could not be made (error_ says why)
};

struct DepthLab::Seeds : RunQueue {
    std::vector<DepthSeedRun> runs;   // planned: seed + 1 of every placement, then seed + 2, …
    std::size_t size() const override { return runs.size(); }
    bool done(std::size_t i) const override { return runs[i].done(); }
    int placement(std::size_t i) const override { return runs[i].placement; }
    DepthConfig config(const DepthLabState& state, std::size_t i) const override {
        return depth_seed_config(state, runs[i].placement, runs[i].seed);
    }
    void step(const DepthLabState&, std::size_t i) override {
        runs[i].not_finite = !std::isfinite(trainers[i]->step());
        runs[i].history = trainers[i]->history();
    }
};

struct DepthLab::Sweep : RunQueue {
    std::vector<DepthSweepPoint> points;       // learning-rate major, then placement
    std::vector<std::vector<double>> losses;   // points[i]'s training losses so far
    std::size_t size() const override { return points.size(); }
    bool done(std::size_t i) const override { return points[i].outcome != SweepOutcome::Pending; }
    int placement(std::size_t i) const override { return points[i].placement; }
    DepthConfig config(const DepthLabState& state, std::size_t i) const override {
        return depth_sweep_config(state, points[i].placement, points[i].lr);
    }
    void step(const DepthLabState& state, std::size_t i) override {
        DepthSweepPoint& q = points[i];
        const double loss = trainers[i]->step();
        losses[i].push_back(loss);
        q.steps = trainers[i]->step_count();
        if (q.steps == 1) q.first_loss = loss;
        if (!std::isfinite(loss)) {
            q.outcome = SweepOutcome::NotFinite;
        } else if (q.steps >= state.sweep_steps) {
            q.final_loss = tail_mean(losses[i]);
            q.outcome = q.final_loss >= q.first_loss ? SweepOutcome::Diverged : SweepOutcome::Trained;
        }
    }
    void release(std::size_t i) override {
        trainers[i].reset();
        losses[i] = {};
    }
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

bool DepthLab::step_queue(RunQueue& q) {
    if (q.next >= q.size()) return false;
    std::vector<Step> steps;
    try {
        for (std::size_t i = q.next; i < q.size() && i < q.next + kDepthSideBySide; ++i) {
            if (q.done(i)) continue;
            if (!q.trainers[i]) q.trainers[i] = std::make_unique<DepthTrainer>(q.config(state_, i));
            steps.push_back({q.placement(i), [this, &q, i] { q.step(state_, i); }});
        }
    } catch (const std::exception& e) {   // the text file changed since the runs read it
        error_ = e.what();
        q.failed = true;
        return false;
    }
    side_by_side(steps);
    for (; q.next < q.size() && q.done(q.next); ++q.next) q.release(q.next);
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
    // The sweep's unit, else the seeds': a queue whose trainer cannot be made is dropped.
    const auto unit = [this](auto& queue) {
        const bool stepped = queue && step_queue(*queue);
        if (queue && queue->failed) queue.reset();
        return stepped;
    };
    if (unit(sweep_) || unit(seeds_)) {
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

}  // namespace normlab
