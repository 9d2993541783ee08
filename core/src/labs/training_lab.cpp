// NormLab core: the Training lab (see training_lab.hpp).
//
// [SECTION] State      — JSON, data-set and optimizer choices
// [SECTION] Runs       — per-variant configs, problems, same_run
// [SECTION] Variants   — the variants of one run stepped in lockstep (the worker's and run_training_lab's engine)
// [SECTION] Worker     — the thread: play, pause, advance, publish
// [SECTION] Summaries  — colours, median step time, compute time
// [SECTION] Plots
// [SECTION] Decision maps — the variants' maps as heat maps, the training cases over them
#include "normlab/labs/training_lab.hpp"

#include "normlab/base/file_io.hpp"
#include "normlab/base/i18n.hpp"
#include "normlab/base/input_error.hpp"
#include "normlab/base/stats.hpp"

#include "normlab/labs/state_json.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <exception>
#include <optional>
#include <utility>

namespace normlab {

void RateMeter::update(double now_s, int step, bool running) {
    if (!running || step < step0_ || step0_ < 0) {
        t0_ = now_s;
        step0_ = running ? step : -1;
        if (!running) rate_.reset();
        return;
    }
    if (now_s - t0_ < 1.0) return;
    rate_ = static_cast<double>(step - step0_) / (now_s - t0_);
    t0_ = now_s;
    step0_ = step;
}

using Eigen::Index;

// [SECTION] State ---------------------------------------------------------------------------

namespace {

std::array<std::string_view, kTrainingNormCount> training_norm_names() {
    std::array<std::string_view, kTrainingNormCount> names{};
    for (int k = 0; k < kTrainingNormCount; ++k) names[static_cast<std::size_t>(k)] = to_string(kTrainingNorms[k]);
    return names;
}

constexpr std::array<std::string_view, 7> kDatasetIds{"circle", "xor", "gauss", "spiral", "moons", "digits", "csv"};
constexpr std::array<DatasetKind, 7> kDatasetKinds{DatasetKind::Circle, DatasetKind::Xor,    DatasetKind::Gauss,
                                                   DatasetKind::Spiral, DatasetKind::Moons,  DatasetKind::Digits,
                                                   DatasetKind::Csv};
constexpr std::array<std::string_view, 3> kActivationIds{"relu", "tanh", "gelu"};
constexpr std::array<Activation, 3> kActivations{Activation::ReLU, Activation::Tanh, Activation::GELU};
constexpr std::array<std::string_view, 2> kPlacementIds{"before", "after"};
constexpr std::array<Placement, 2> kPlacements{Placement::BeforeActivation, Placement::AfterActivation};
constexpr std::array<std::string_view, 2> kOptimizerIds{"sgd", "adam"};
constexpr std::array<OptimizerKind, 2> kOptimizers{OptimizerKind::SGD, OptimizerKind::Adam};
constexpr std::array<std::string_view, 2> kAxisIds{"step", "time"};
constexpr std::array<TrainingAxis, 2> kAxes{TrainingAxis::Step, TrainingAxis::Time};
constexpr std::array<int, kTrainingNormCount> kNormIndices{0, 1, 2, 3, 4, 5};
constexpr std::array<std::string_view, 2> kPrecisionIds{"f64", "f32"};
constexpr std::array<Precision, 2> kPrecisions{Precision::F64, Precision::F32};

}  // namespace

nlohmann::json state_to_json(const TrainingLabState& s) {
    const auto norms = training_norm_names();
    const MlpConfig& m = s.train.model;
    return {{"dataset", std::string(to_string(s.data.kind))},
            {"csv_path", s.data.path},
            {"samples", s.data.samples},
            {"noise", s.data.noise},
            {"train_ratio", s.data.train_ratio},
            {"seed", s.train.seed},
            {"hidden_layers", m.hidden_layers},
            {"width", m.width},
            {"activation", std::string(to_string(m.activation))},
            {"placement", std::string(to_string(m.placement))},
            {"p", m.norm.p},
            {"optimizer", std::string(to_string(s.train.optimizer.kind))},
            {"learning_rate", s.train.optimizer.lr},
            {"batch_size", s.train.batch_size},
            {"steps", s.train.steps},
            {"variants", flags_to_json(s.variants, norms)},
            {"stress", s.stress},
            {"stress_factor", s.stress_factor},
            {"steps_per_second", s.steps_per_second},
            {"axis", std::string(kAxisIds[s.axis == TrainingAxis::Step ? 0 : 1])},
            {"grad_variant", std::string(norms[static_cast<std::size_t>(std::clamp(s.grad_variant, 0, 5))])},
            {"precision", std::string(to_string(s.train.precision))}};
}

void state_from_json(SceneReader& in, TrainingLabState& s) {
    const auto norms = training_norm_names();
    MlpConfig& m = s.train.model;
    in.read_choice("dataset", s.data.kind, kDatasetIds, kDatasetKinds);
    in.read("csv_path", s.data.path);
    int samples = static_cast<int>(s.data.samples);
    if (in.read("samples", samples, 2, 100000)) s.data.samples = samples;
    in.read("noise", s.data.noise, kTrainingNoiseRule);
    in.read("train_ratio", s.data.train_ratio, kTrainingRatioRule);
    if (in.read("seed", s.train.seed)) s.data.seed = s.train.seed;
    in.read("hidden_layers", m.hidden_layers, kMinHiddenLayers, kMaxHiddenLayers);
    int width = static_cast<int>(m.width);
    if (in.read("width", width, static_cast<int>(kMinWidth), static_cast<int>(kMaxWidth))) m.width = width;
    in.read_choice("activation", m.activation, kActivationIds, kActivations);
    in.read_choice("placement", m.placement, kPlacementIds, kPlacements);
    in.read("p", m.norm.p, kFractionRule);
    in.read_choice("optimizer", s.train.optimizer.kind, kOptimizerIds, kOptimizers);
    in.read("learning_rate", s.train.optimizer.lr, kTrainingLrRule);
    int batch = static_cast<int>(s.train.batch_size);
    if (in.read("batch_size", batch, kTrainingMinBatch, kTrainingMaxBatch)) s.train.batch_size = batch;
    in.read("steps", s.train.steps, kTrainingMinSteps, kTrainingMaxSteps);
    in.read_flags("variants", s.variants, norms);
    in.read("stress", s.stress);
    in.read("stress_factor", s.stress_factor, kStressFactorRule);
    in.read("steps_per_second", s.steps_per_second, kTrainingSpeedRule);
    in.read_choice("axis", s.axis, kAxisIds, kAxes);
    in.read_choice("grad_variant", s.grad_variant, norms, kNormIndices);
    // Absent (files from before the float32 path): f64, so that they give the numbers they gave.
    if (!in.read_choice("precision", s.train.precision, kPrecisionIds, kPrecisions)) s.train.precision = Precision::F64;
}

void training_lab_choose_dataset(TrainingLabState& state, DatasetKind kind) {
    const DataSpec data = default_data_spec(kind, state.train.seed);
    const TrainConfig rec = default_train_config(kind, Norm::None, state.train.optimizer.kind, state.train.seed);
    state.data.kind = kind;
    state.data.train_ratio = data.train_ratio;
    state.train.model.width = rec.model.width;
    state.train.optimizer.lr = rec.optimizer.lr;
    state.train.batch_size = rec.batch_size;
    state.train.steps = rec.steps;
}

void training_lab_choose_optimizer(TrainingLabState& state, OptimizerKind kind) {
    state.train.optimizer.kind = kind;
    state.train.optimizer.lr = default_train_config(state.data.kind, Norm::None, kind).optimizer.lr;
}

// [SECTION] Runs ----------------------------------------------------------------------------

std::vector<Norm> training_variants(const TrainingLabState& state) {
    std::vector<Norm> out;
    for (int k = 0; k < kTrainingNormCount; ++k)
        if (state.variants[static_cast<std::size_t>(k)]) out.push_back(kTrainingNorms[k]);
    return out;
}

double training_lab_lr(const TrainingLabState& state) {
    return state.train.optimizer.lr * (state.stress ? state.stress_factor : 1.0);
}

TrainConfig training_variant_config(const TrainingLabState& state, Norm norm) {
    TrainConfig c = state.train;
    c.model.norm.norm = norm;
    c.optimizer.lr = training_lab_lr(state);
    c.eval_every = std::max(1, c.steps / kTrainingEvaluations);
    return c;
}

std::string training_lab_problem(const TrainingLabState& state) {
    if (training_variants(state).empty()) return tr("Tick at least one variant to train.");
    if (state.data.kind == DatasetKind::Csv && state.data.path.empty())
        return tr("Type the path of a CSV file (features, then the label in the last column) and press Enter.");
    for (Norm norm : training_variants(state)) {
        if (std::string problem = validate(training_variant_config(state, norm)); !problem.empty()) {
            problem[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(problem[0])));
            return problem + ".";
        }
    }
    return {};
}

bool same_run(const TrainingLabState& a, const TrainingLabState& b) {
    const DataSpec &da = a.data, &db = b.data;
    const MlpConfig &ma = a.train.model, &mb = b.train.model;
    const OptimizerSpec &oa = a.train.optimizer, &ob = b.train.optimizer;
    return da.kind == db.kind && da.samples == db.samples && da.noise == db.noise && da.train_ratio == db.train_ratio &&
           da.standardize == db.standardize && da.path == db.path && ma.hidden_layers == mb.hidden_layers &&
           ma.width == mb.width && ma.activation == mb.activation && ma.placement == mb.placement &&
           ma.norm.eps == mb.norm.eps && ma.norm.eps_mode == mb.norm.eps_mode && ma.norm.p == mb.norm.p &&
           ma.norm.rounding == mb.norm.rounding && ma.learn_gain == mb.learn_gain && ma.learn_bias == mb.learn_bias &&
           ma.batchnorm_momentum == mb.batchnorm_momentum && oa.kind == ob.kind && oa.lr == ob.lr &&
           oa.momentum == ob.momentum && oa.beta1 == ob.beta1 && oa.beta2 == ob.beta2 && oa.adam_eps == ob.adam_eps &&
           a.train.steps == b.train.steps && a.train.batch_size == b.train.batch_size && a.train.seed == b.train.seed &&
           a.train.precision == b.train.precision &&
           a.variants == b.variants && a.stress == b.stress && (!a.stress || a.stress_factor == b.stress_factor);
}

// [SECTION] Variants ------------------------------------------------------------------------

bool TrainingLabSnapshot::done() const {
    if (!error.empty() || step >= total_steps) return true;
    return !variants.empty() &&
           std::all_of(variants.begin(), variants.end(), [](const TrainingVariant& v) { return v.diverged_at > 0; });
}

namespace {

bool finite(const EvalResult& e) {
    return std::isfinite(e.train_loss) && std::isfinite(e.test_loss) && std::isfinite(e.train_accuracy) &&
           std::isfinite(e.test_accuracy);
}

// The history of its first `steps` steps (the evaluations up to that step).
void truncate(TrainHistory& h, int steps) {
    const auto n = static_cast<std::size_t>(steps);
    h.train_loss.resize(std::min(h.train_loss.size(), n));
    for (std::vector<double>& g : h.grad_norms) g.resize(std::min(g.size(), n));
    h.norm_ms.resize(std::min(h.norm_ms.size(), n));
    h.other_ms.resize(std::min(h.other_ms.size(), n));
    while (!h.eval_step.empty() && h.eval_step.back() > steps) {
        h.eval_step.pop_back();
        h.eval.pop_back();
    }
}

// The variants of one run, stepped in lockstep on the calling thread.
class VariantRun {
public:
    // Builds the data set once and one Trainer per variant on a copy of it. Throws what
    // make_dataset and Trainer throw (InputError, std::invalid_argument).
    explicit VariantRun(const TrainingLabState& state) : total_(state.train.steps), lr_(training_lab_lr(state)) {
        if (const std::string problem = training_lab_problem(state); !problem.empty()) throw std::invalid_argument(problem);
        DataSpec spec = state.data;
        spec.seed = state.train.seed;
        data_ = std::make_shared<const Dataset>(make_dataset(spec));
        loss_bound_ = kDivergedLossFactor * std::log(static_cast<double>(std::max(2, data_->classes)));
        grid_ = data_->features() == 2 ? kTrainingGridSize : 0;
        check_variants_memory(state);
        for (Norm norm : training_variants(state)) {
            Entry e;
            e.norm = norm;
            e.trainer = std::make_unique<Trainer>(*data_, training_variant_config(state, norm));
            e.initial = e.trainer->evaluate();
            if (grid_ > 0) e.last_grid = e.trainer->decision_grid(grid_);
            entries_.push_back(std::move(e));
        }
    }

    // Each variant's trainer holds its own copy of the data and its own buffers: together they
    // are held to the budget one run has (InputError before any of them is built).
    void check_variants_memory(const TrainingLabState& state) const {
        const std::vector<Norm> variants = training_variants(state);
        double need = 0.0;
        for (Norm norm : variants)
            need += train_memory_bytes(data_->train_x.rows(), data_->test_x.rows(), data_->features(), data_->classes,
                                       training_variant_config(state, norm));
        if (need <= kTrainMemoryBudget || variants.size() < 2) return;
        throw InputError(data_->name + " has " + std::to_string(data_->train_x.rows() + data_->test_x.rows()) +
                         " rows × " + std::to_string(data_->features()) + " features: training " +
                         std::to_string(variants.size()) + " variants side by side needs about " +
                         describe_memory(need) + " of memory, more than the limit of " +
                         describe_memory(kTrainMemoryBudget) +
                         ": tick fewer variants, use fewer rows, or fewer or narrower hidden layers");
    }

    int step_count() const { return step_; }
    bool done() const {
        return step_ >= total_ ||
               std::all_of(entries_.begin(), entries_.end(), [](const Entry& e) { return e.frozen.has_value(); });
    }

    // One step of every live variant; a variant whose loss diverges is frozen at the step before.
    void step() {
        ++step_;
        for (Entry& e : entries_) {
            if (e.frozen) continue;
            const double loss = e.trainer->step();
            const TrainHistory& h = e.trainer->history();
            const bool bad_eval = !h.eval_step.empty() && h.eval_step.back() == step_ && !finite(h.eval.back());
            if (std::isfinite(loss) && loss <= loss_bound_ && !bad_eval) continue;
            e.diverged_at = step_;
            e.frozen = e.trainer->snapshot();
            truncate(e.frozen->history, step_ - 1);
            e.frozen->step = step_ - 1;
            e.frozen->last_eval.reset();
            if (!e.frozen->history.eval.empty()) e.frozen->last_eval = e.frozen->history.eval.back();
            e.frozen->grid = e.last_grid;
        }
    }

    TrainingLabSnapshot snapshot() {
        TrainingLabSnapshot s;
        s.step = step_;
        s.total_steps = total_;
        s.lr = lr_;
        s.data = data_;
        for (Entry& e : entries_) {
            TrainingVariant v;
            v.norm = e.norm;
            v.initial = e.initial;
            v.diverged_at = e.diverged_at;
            if (e.frozen) {
                v.run = *e.frozen;
            } else {
                v.run = e.trainer->snapshot(grid_);
                e.last_grid = v.run.grid;
            }
            s.variants.push_back(std::move(v));
        }
        return s;
    }

private:
    struct Entry {
        Norm norm = Norm::None;
        std::unique_ptr<Trainer> trainer;
        EvalResult initial;
        int diverged_at = 0;
        std::optional<TrainSnapshot> frozen;     // set once diverged: the steps before it
        std::optional<DecisionGrid> last_grid;   // of the last snapshot, or step 0 (a diverged net has none of its own)
    };
    std::shared_ptr<const Dataset> data_;
    std::vector<Entry> entries_;
    int step_ = 0;
    int total_ = 0;
    double lr_ = 0.0;
    double loss_bound_ = 0.0;
    int grid_ = 0;
};

TrainingLabSnapshot error_snapshot(const TrainingLabState& state, const std::string& error) {
    TrainingLabSnapshot s;
    s.total_steps = state.train.steps;
    s.lr = training_lab_lr(state);
    s.error = error;
    return s;
}

}  // namespace

TrainingLabSnapshot run_training_lab(const TrainingLabState& state) {
    std::optional<VariantRun> run;
    try {
        run.emplace(state);
    } catch (const std::exception& e) {
        return error_snapshot(state, e.what());
    }
    while (!run->done()) run->step();
    return run->snapshot();
}

// [SECTION] Worker --------------------------------------------------------------------------

// A run as the worker steps it (base/step_worker.hpp): built by start() on the worker's thread.
class TrainingLabJob {
public:
    void start(const TrainingLabState& state) {
        try {
            run_.emplace(state);
        } catch (const std::exception& e) {
            error_ = error_snapshot(state, e.what());
        }
    }
    bool work(bool train) {
        if (!train || finished()) return false;
        run_->step();
        return true;
    }
    std::uint64_t units() const { return run_ ? static_cast<std::uint64_t>(run_->step_count()) : 0; }
    bool finished() const { return !run_ || run_->done(); }
    TrainingLabSnapshot snapshot() { return run_ ? run_->snapshot() : error_; }

private:
    std::optional<VariantRun> run_;
    TrainingLabSnapshot error_;   // when the run could not be built
};

TrainingLabWorker::TrainingLabWorker(const TrainingLabState& state)
    : state_(state),
      worker_(std::make_unique<StepWorker<TrainingLabJob>>([state](TrainingLabJob& job) { job.start(state); })) {}

TrainingLabWorker::~TrainingLabWorker() = default;

void TrainingLabWorker::play(double steps_per_second) { worker_->play(steps_per_second); }
void TrainingLabWorker::set_speed(double steps_per_second) { worker_->set_speed(steps_per_second); }
void TrainingLabWorker::pause() { worker_->pause(); }

int TrainingLabWorker::advance(int n) {
    return static_cast<int>(worker_->advance(n, static_cast<std::uint64_t>(std::max(0, state_.train.steps))));
}

bool TrainingLabWorker::wait_for(int step) const { return worker_->wait_for(static_cast<std::uint64_t>(std::max(0, step))); }
std::shared_ptr<const TrainingLabSnapshot> TrainingLabWorker::latest() const { return worker_->latest(); }
bool TrainingLabWorker::playing() const { return worker_->playing(); }
std::string TrainingLabWorker::failure() const { return worker_->failure(); }

// [SECTION] Summaries -----------------------------------------------------------------------

namespace {
double median_or_zero(const std::vector<double>& v) { return v.empty() ? 0.0 : median(v); }
}  // namespace

StepTime median_step_time(const TrainHistory& h) { return {median_or_zero(h.norm_ms), median_or_zero(h.other_ms)}; }

std::vector<double> compute_ms(const TrainHistory& h, int bin) {
    const std::size_t n = std::min(h.norm_ms.size(), h.other_ms.size());
    const auto b = static_cast<std::size_t>(std::max(1, bin));
    std::vector<double> out(n), run;
    double before = 0.0;   // the compute time of the runs before this one
    for (std::size_t i = 0; i < n; ++i) {
        run.push_back(h.norm_ms[i] + h.other_ms[i]);
        // The run so far at its median: a run still growing is re-estimated with each step.
        const double med = median(run);
        for (std::size_t j = 0; j < run.size(); ++j) out[i - run.size() + 1 + j] = before + med * static_cast<double>(j + 1);
        if (run.size() == b || i + 1 == n) {
            before += med * static_cast<double>(run.size());
            run.clear();
        }
    }
    return out;
}

// [SECTION] Plots ---------------------------------------------------------------------------

namespace {

constexpr double kLineWidth = 2.5;

bool is_hidden(const std::vector<std::string>& hidden, const std::string& label) {
    return std::find(hidden.begin(), hidden.end(), label) != hidden.end();
}

// A legend-only entry: a labelled series without points (the curves themselves carry no label,
// so that a variant's several curves share one key).
Series key(Norm norm) {
    Series s;
    s.label = std::string(display_name(norm));
    s.color = norm_color(norm);
    s.width = kLineWidth;
    return s;
}

Series curve(Norm norm, LineStyle line, std::vector<double> x, std::vector<double> y) {
    Series s;
    s.x = std::move(x);
    s.y = std::move(y);
    s.color = norm_color(norm);
    s.line = line;
    s.width = line == LineStyle::Solid ? kLineWidth : 0.7 * kLineWidth;
    return s;
}

// Per-step values binned into runs of ⌈total_steps / kTrainingPlotPoints⌉ steps (fixed for the
// run, so that a curve keeps its shape while it grows): x the bin's mean step (1-based), y the
// mean (or median) of its finite values; bins without one are left out.
std::size_t bin_steps(int total_steps) {
    const auto total = static_cast<std::size_t>(std::max(1, total_steps));
    return std::max<std::size_t>(1, (total + kTrainingPlotPoints - 1) / kTrainingPlotPoints);
}

void binned(const std::vector<double>& v, int total_steps, bool use_median, std::vector<double>& x,
            std::vector<double>& y) {
    const std::size_t n = v.size();
    const std::size_t bin = bin_steps(total_steps);
    std::vector<double> values;
    for (std::size_t b0 = 0; b0 < n; b0 += bin) {
        const std::size_t b1 = std::min(n, b0 + bin);
        values.clear();
        for (std::size_t i = b0; i < b1; ++i)
            if (std::isfinite(v[i])) values.push_back(v[i]);
        if (values.empty()) continue;
        double sum = 0.0;
        for (double a : values) sum += a;
        x.push_back(0.5 * static_cast<double>(b0 + 1 + b1));
        y.push_back(use_median ? median(values) : sum / static_cast<double>(values.size()));
    }
}

std::string run_caption(const TrainingLabSnapshot& s) {
    const std::string lr = format_number(s.lr, 3);
    if (!s.data) return tr("learning rate {0}; step {1} of {2}.", lr, s.step, s.total_steps);
    return tr("{0} data, {1} training and {2} test cases; learning rate {3}; step {4} of {5}.", s.data->name,
              s.data->train_x.rows(), s.data->test_x.rows(), lr, s.step, s.total_steps);
}

// x of each evaluation (step 0 first), by steps or by the compute time the steps took.
std::vector<double> eval_x(const TrainingVariant& v, TrainingAxis axis, int total_steps) {
    std::vector<double> x{0.0};
    const std::vector<double> ms =
        axis == TrainingAxis::Time ? compute_ms(v.run.history, static_cast<int>(bin_steps(total_steps))) : std::vector<double>{};
    for (int step : v.run.history.eval_step) {
        const auto i = static_cast<std::size_t>(step);
        x.push_back(axis == TrainingAxis::Step ? step : i >= 1 && i <= ms.size() ? ms[i - 1] : NAN);
    }
    return x;
}

// The last point of a curve whose x and y are both finite (and y > 0 on a log axis): where a
// diverged variant's cross goes.
std::optional<Point2> last_point(const Series& s, bool log_y) {
    for (std::size_t i = std::min(s.x.size(), s.y.size()); i-- > 0;)
        if (std::isfinite(s.x[i]) && std::isfinite(s.y[i]) && (!log_y || s.y[i] > 0.0)) return Point2{s.x[i], s.y[i]};
    return std::nullopt;
}

void mark_divergence(Plot& p, const Series& s, const TrainingVariant& v, bool log_y) {
    if (v.diverged_at == 0) return;
    const std::optional<Point2> at = last_point(s, log_y);
    if (!at) return;
    Series cross;
    cross.data_name = series_name(s) + ": diverged";
    cross.kind = SeriesKind::Scatter;
    cross.marker = Marker::Square;
    cross.marker_size = 10.0;
    cross.color = s.color;
    cross.x = {at->x};
    cross.y = {at->y};
    p.series.push_back(std::move(cross));
    p.annotations.push_back({at->x, at->y, tr("✗ diverged at step {0}", v.diverged_at)});
}

void step_axis(Plot& p, const TrainingLabSnapshot& s) {
    p.x = {tr("step"), Scale::Linear, 0.0, static_cast<double>(std::max(1, s.total_steps))};
}

// Loss or accuracy from the evaluations: test solid, training dashed.
// The accuracy axis zoomed to the curves and the chance level (so that both show), on steps of
// 10 points within [0, 100]: 0–100 squashed curves of 90–99% against the top.
void zoom_accuracy_axis(Plot& p, double chance) {
    double lo = chance, hi = chance;
    for (const Series& series : p.series)
        for (double v : series.y)
            if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
    p.y.min = std::max(0.0, 10.0 * std::floor(lo / 10.0 - 0.05));
    p.y.max = std::min(100.0, 10.0 * std::ceil(hi / 10.0 + 0.05));
}

Plot eval_plot(const TrainingLabSnapshot& s, TrainingAxis axis, const std::vector<std::string>& hidden, bool loss) {
    Plot p;
    const std::string what = loss ? "loss" : "accuracy";
    p.name = "training_" + what + (axis == TrainingAxis::Step ? "_vs_step" : "_vs_time");
    p.title = loss ? tr("Loss: test (solid) and training (dashed)") : tr("Accuracy: test (solid) and training (dashed)");
    const std::string run = run_caption(s);
    if (axis == TrainingAxis::Time) {
        const std::size_t bin = bin_steps(s.total_steps);
        p.caption = loss ? tr("Cross-entropy loss on the whole test and training sets, each variant from the same data "
                              "and initial weights; x: the compute time of the steps so far (norm + rest, each run of "
                              "{0} steps at its median; evaluations excluded), as in the RMSNorm paper's Figure 1; {1}",
                              bin, run)
                         : tr("Cross-entropy accuracy on the whole test and training sets, each variant from the same "
                              "data and initial weights; x: the compute time of the steps so far (norm + rest, each "
                              "run of {0} steps at its median; evaluations excluded), as in the RMSNorm paper's "
                              "Figure 1; {1}",
                              bin, run);
    } else {
        p.caption = loss ? tr("Cross-entropy loss on the whole test and training sets, each variant from the same data "
                              "and initial weights; {0}",
                              run)
                         : tr("Cross-entropy accuracy on the whole test and training sets, each variant from the same "
                              "data and initial weights; {0}",
                              run);
    }
    if (axis == TrainingAxis::Step) {
        step_axis(p, s);
    } else {
        p.x = {tr("compute time of the steps (ms)"), Scale::Linear, 0.0, std::nullopt};
    }
    if (loss) {
        p.y = {tr("cross-entropy loss"), Scale::Log10, std::nullopt, std::nullopt};
    } else {
        p.y = {tr("accuracy (%)"), Scale::Linear, 0.0, 100.0};
    }
    for (const TrainingVariant& v : s.variants) {
        const std::string name(display_name(v.norm));
        if (!is_hidden(hidden, name)) {
            const std::vector<double> x = eval_x(v, axis, s.total_steps);
            std::vector<double> test{loss ? v.initial.test_loss : 100.0 * v.initial.test_accuracy};
            std::vector<double> train{loss ? v.initial.train_loss : 100.0 * v.initial.train_accuracy};
            for (const EvalResult& e : v.run.history.eval) {
                test.push_back(loss ? e.test_loss : 100.0 * e.test_accuracy);
                train.push_back(loss ? e.train_loss : 100.0 * e.train_accuracy);
            }
            p.series.push_back(curve(v.norm, LineStyle::Dashed, x, std::move(train)));
            p.series.back().data_name = name + " training";
            p.series.push_back(curve(v.norm, LineStyle::Solid, x, std::move(test)));
            p.series.back().data_name = name + " test";
            mark_divergence(p, p.series.back(), v, loss);
        }
        p.series.push_back(key(v.norm));
    }
    if (!loss) zoom_accuracy_axis(p, s.data && s.data->classes > 0 ? 100.0 / s.data->classes : 100.0);
    if (!loss && s.data && s.data->classes > 0) {
        // The chance level, named in the legend (a label at the line's end would sit under it).
        const Color grey{120, 120, 120};
        const double chance = 100.0 / s.data->classes;
        p.ref_lines.push_back({RefLine::Orientation::Horizontal, chance, "", grey, LineStyle::Dotted, 1.5});
        Series chance_key;
        chance_key.label = tr("chance ({0}%)", format_number(chance, 3));
        chance_key.color = grey;
        chance_key.line = LineStyle::Dotted;
        chance_key.width = 1.5;
        p.series.push_back(std::move(chance_key));
    }
    return p;
}

// A dense layer's name as the legend shows it: "hidden2" → tr("hidden{0}") ("은닉층 2"), "output"
// → tr("output") (the layer: "출력층"); English keeps the identifiers; anything else as it is.
std::string layer_label(const std::string& name) {
    if (name == "output") return tr("output");
    if (name.rfind("hidden", 0) == 0 && name.size() > 6) return tr("hidden{0}", name.substr(6));
    return name;
}

}  // namespace

Plot training_loss_plot(const TrainingLabSnapshot& s, TrainingAxis axis, const std::vector<std::string>& hidden) {
    return eval_plot(s, axis, hidden, true);
}

Plot training_accuracy_plot(const TrainingLabSnapshot& s, TrainingAxis axis, const std::vector<std::string>& hidden) {
    return eval_plot(s, axis, hidden, false);
}

Plot training_grad_norm_plot(const TrainingLabSnapshot& s, Norm norm) {
    Plot p;
    p.name = "training_grad_norms";
    const std::string name(display_name(norm));
    p.title = tr("Gradient norm per layer: {0}", name);
    p.caption = tr("‖∂L/∂W‖ (Frobenius) of each dense layer's weights per step, mean over each run of {0} steps; {1}",
                   bin_steps(s.total_steps), run_caption(s));
    step_axis(p, s);
    p.y = {"‖∂L/∂W‖", Scale::Log10, std::nullopt, std::nullopt};
    const auto v = std::find_if(s.variants.begin(), s.variants.end(), [&](const TrainingVariant& t) { return t.norm == norm; });
    if (v == s.variants.end()) {
        p.title = tr("Gradient norm per layer: {0} (not trained in this run)", name);
        return p;
    }
    const TrainHistory& h = v->run.history;
    for (std::size_t l = 0; l < h.grad_norms.size(); ++l) {
        Series s_l;
        binned(h.grad_norms[l], s.total_steps, false, s_l.x, s_l.y);
        if (l < v->run.layer_names.size()) {
            s_l.data_name = v->run.layer_names[l];   // the identifier, as the CLI's JSON and the CSV name it
            s_l.label = layer_label(s_l.data_name);
        } else {
            s_l.label = tr("layer {0}", l + 1);
        }
        s_l.color = norm_color(norm);
        s_l.line = palette_dash(static_cast<int>(l));
        s_l.marker = palette_marker(static_cast<int>(l));
        s_l.width = 2.0;
        p.series.push_back(std::move(s_l));
    }
    if (!p.series.empty()) mark_divergence(p, p.series.front(), *v, true);
    return p;
}

Plot training_time_plot(const TrainingLabSnapshot& s, const std::vector<std::string>& hidden,
                        const std::vector<NormStepCost>& elsewhere) {
    Plot p;
    p.name = "training_step_time";
    p.title = tr("Step time (solid) and norm time (dashed)");
    p.legend_corner = LegendCorner::TopRight;   // the curves stay low; a fixed corner does not jump while they grow
    p.caption = tr("Wall-clock milliseconds per training step (forward, backward and update of one mini-batch), "
                   "median over each run of {0} steps; dashed: the part spent in the norm layers' forward and "
                   "backward. {1}",
                   bin_steps(s.total_steps), run_caption(s));
    step_axis(p, s);
    p.y = {tr("ms per step"), Scale::Log10, std::nullopt, std::nullopt};   // norm and step, CPU and GPU: magnitudes apart
    double highest = 0.0;
    for (const TrainingVariant& v : s.variants) {
        const std::string name(display_name(v.norm));
        if (!is_hidden(hidden, name)) {
            const TrainHistory& h = v.run.history;
            std::vector<double> total(std::min(h.norm_ms.size(), h.other_ms.size()));
            for (std::size_t i = 0; i < total.size(); ++i) total[i] = h.norm_ms[i] + h.other_ms[i];
            Series whole = curve(v.norm, LineStyle::Solid, {}, {});
            whole.data_name = name + " step";
            binned(total, s.total_steps, true, whole.x, whole.y);
            for (double y : whole.y) highest = std::max(highest, y);
            p.series.push_back(std::move(whole));
            if (v.norm != Norm::None) {
                Series inside = curve(v.norm, LineStyle::Dashed, {}, {});
                inside.data_name = name + " norm";
                binned(h.norm_ms, s.total_steps, true, inside.x, inside.y);
                p.series.push_back(std::move(inside));
            }
        }
        p.series.push_back(key(v.norm));
        for (const NormStepCost& c : elsewhere) {
            if (c.norm != v.norm || !(c.ms > 0.0) || !std::isfinite(c.ms)) continue;
            Series across = curve(c.norm, LineStyle::Dotted, {}, {});
            across.label = c.label;   // its own legend entry, switched on and off by itself
            if (!is_hidden(hidden, c.label)) {
                across.x = {1.0, static_cast<double>(std::max(1, s.total_steps))};
                across.y = {c.ms, c.ms};
                highest = std::max(highest, c.ms);
            }
            p.series.push_back(std::move(across));
        }
    }
    if (highest > 0.0) p.y.max = 4.0 * highest;   // the legend's room above the curves (log scale)
    const bool dotted = std::any_of(p.series.begin(), p.series.end(), [](const Series& c) { return c.line == LineStyle::Dotted; });
    if (dotted) {
        p.caption += tr(" Dotted: the GPU lab's float32 kernels at this model's activation shape, forward and "
                        "backward, times its norm layers.");
    }
    return p;
}

// [SECTION] Decision maps -------------------------------------------------------------------

namespace {

constexpr Color kClassColors[] = {colors::kHeatNegative,  colors::kHeatPositive,      okabe_ito::kBlue,
                                  okabe_ito::kVermillion, okabe_ito::kOrange,         okabe_ito::kSkyBlue,
                                  okabe_ito::kReddishPurple, {90, 90, 90}};
constexpr int kClassColorCount = static_cast<int>(sizeof kClassColors / sizeof kClassColors[0]);

// a + (b − a)·t per channel.
Color mix(Color a, Color b, double t) {
    const auto ch = [t](std::uint8_t x, std::uint8_t y) {
        return static_cast<std::uint8_t>(std::lround(x + (static_cast<double>(y) - x) * t));
    };
    return {ch(a.r, b.r), ch(a.g, b.g), ch(a.b, b.b)};
}

std::string class_name(const Dataset& d, int k) {
    return k >= 0 && static_cast<std::size_t>(k) < d.class_names.size() ? d.class_names[static_cast<std::size_t>(k)]
                                                                           : std::to_string(k);
}

// The grid's cells (row iy from the box's bottom, column ix from its left) as a heat map.
HeatMap decision_heat_map(const DecisionGrid& g, const Dataset& d) {
    HeatMap h;
    h.rows = h.cols = g.size;
    h.x0 = g.box.x_min;
    h.x1 = g.box.x_max;
    h.y0 = g.box.y_min;
    h.y1 = g.box.y_max;
    h.name = "map";
    const double chance = 1.0 / std::max(2, g.classes);
    const Index cells = static_cast<Index>(g.size) * g.size;   // row iy·G + ix, as HeatMap stores them
    HeatValues predicted{"predicted class", {}};
    std::vector<HeatValues> probs;
    for (int k = 0; k < g.classes; ++k) probs.push_back({"P(class " + class_name(d, k) + ")", {}});
    for (Index i = 0; i < cells; ++i) {
        const double t = std::clamp((g.confidence(i) - chance) / (kMapFullTintConfidence - chance), 0.0, 1.0);
        h.colors.push_back(mix({255, 255, 255}, training_class_color(g.argmax(i)), kMapMaxTint * t));
        predicted.v.push_back(g.argmax(i));
        for (int k = 0; k < g.classes; ++k) probs[static_cast<std::size_t>(k)].v.push_back(g.probs(i, k));
    }
    h.values.push_back(std::move(predicted));
    for (HeatValues& p : probs) h.values.push_back(std::move(p));
    return h;
}

// One class's cases (X: N×2 raw features, y: N labels) as dots, or rings for test cases.
Series class_points(const Dataset& d, const Mat& X, const Labels& y, int k, bool test) {
    Series s;
    s.label = test ? tr("class {0}, test", class_name(d, k)) : tr("class {0}", class_name(d, k));
    s.kind = SeriesKind::Scatter;
    s.marker = test ? Marker::Ring : Marker::Circle;
    s.halo = !test;
    s.marker_size = kMapDotPx;
    s.color = training_class_color(k);
    for (Index i = 0; i < X.rows(); ++i)
        if (y(i) == k) {
            s.x.push_back(X(i, 0));
            s.y.push_back(X(i, 1));
        }
    return s;
}

std::string feature_label(const Dataset& d, std::size_t j) {
    return j < d.feature_names.size() && !d.feature_names[j].empty() ? d.feature_names[j] : "x" + subscript(static_cast<long long>(j) + 1);
}

}  // namespace

Color training_class_color(int k) { return kClassColors[std::max(0, k) % kClassColorCount]; }

bool training_lab_has_maps(const TrainingLabState& state) { return state.data.kind != DatasetKind::Digits; }

std::string training_map_name(Norm norm) { return "training_map_" + std::string(to_string(norm)); }

Plot training_map_plot(const TrainingLabSnapshot& s, const TrainingVariant& v, bool test_points) {
    Plot p;
    p.name = training_map_name(v.norm);
    const std::string name(display_name(v.norm));
    p.legend = true;
    const Dataset* d = s.data.get();
    if (d == nullptr || d->features() != 2 || !v.run.grid) {
        p.title = d == nullptr           ? tr("{0}: no decision map — no data", name)
                  : d->features() != 2 ? tr("{0}: no decision map — {1} has {2} features (a map needs 2)", name, d->name,
                                            d->features())
                                       : tr("{0}: no decision map — no grid yet", name);
        return p;
    }
    const DecisionGrid& g = *v.run.grid;
    p.title = v.diverged_at > 0 ? tr("{0}: diverged at step {1} (its last map)", name, v.diverged_at)
                                : tr("{0}: decision map at step {1}", name, v.run.step);
    p.caption = test_points ? tr("The class the model predicts at each point of the plane (colour: the class; paler: less "
                                 "sure, white: chance), training cases as dots, test cases as rings; {0}",
                                 run_caption(s))
                            : tr("The class the model predicts at each point of the plane (colour: the class; paler: less "
                                 "sure, white: chance), training cases as dots; {0}",
                                 run_caption(s));
    p.x = {feature_label(*d, 0), Scale::Linear, g.box.x_min, g.box.x_max};
    p.y = {feature_label(*d, 1), Scale::Linear, g.box.y_min, g.box.y_max};
    p.heat = decision_heat_map(g, *d);
    for (int k = 0; k < d->classes; ++k) p.series.push_back(class_points(*d, d->train_raw, d->train_y, k, false));
    if (test_points)
        for (int k = 0; k < d->classes; ++k) p.series.push_back(class_points(*d, d->test_raw, d->test_y, k, true));
    return p;
}

std::vector<Plot> training_lab_plots(const TrainingLabSnapshot& s, const TrainingLabState& state, bool test_points) {
    std::vector<Plot> plots = {training_loss_plot(s, TrainingAxis::Step),
                               training_accuracy_plot(s, TrainingAxis::Step),
                               training_loss_plot(s, TrainingAxis::Time),
                               training_accuracy_plot(s, TrainingAxis::Time),
                               training_grad_norm_plot(s, kTrainingNorms[std::clamp(state.grad_variant, 0, kTrainingNormCount - 1)]),
                               training_time_plot(s)};
    if (training_lab_has_maps(state))
        for (const TrainingVariant& v : s.variants) plots.push_back(training_map_plot(s, v, test_points));
    return plots;
}

}  // namespace normlab
