// NormLab core: the trainer (see training.hpp).
//
// [SECTION] Defaults and validation
// [SECTION] Trainer: construction, mini-batches
// [SECTION] Trainer: step
// [SECTION] Trainer: evaluation, decision grid, snapshot
// [SECTION] Whole runs
#include "normlab/models/training.hpp"

#include "normlab/base/file_io.hpp"
#include "normlab/base/input_error.hpp"
#include "normlab/base/stats.hpp"
#include "normlab/base/stopwatch.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace normlab {

using Eigen::Index;

namespace {
using Clock = std::chrono::steady_clock;

MlpConfig model_for(const MlpConfig& model, const Dataset& data) {
    MlpConfig m = model;
    m.inputs = data.features();
    m.classes = data.classes;
    return m;
}

MlpModels make_model(const TrainConfig& c, const Dataset& data) {
    const std::uint64_t seed = derive_seed(c.seed, 2);
    if (c.precision == Precision::F64) return MlpModels(std::in_place_type<MlpModel<double>>, c.model, seed);
    MlpModels models(std::in_place_type<MlpModel<float>>, c.model, seed);
    MlpModel<float>& m = std::get<MlpModel<float>>(models);
    m.train_x = data.train_x.cast<float>();
    m.test_x = data.test_x.cast<float>();
    return models;
}

// The data set's cases in the model's scalar: its own for double, the converted copies for float.
const Mat& train_cases(const MlpModel<double>&, const Dataset& data) { return data.train_x; }
const Mat& test_cases(const MlpModel<double>&, const Dataset& data) { return data.test_x; }
const MatOf<float>& train_cases(const MlpModel<float>& m, const Dataset&) { return m.train_x; }
const MatOf<float>& test_cases(const MlpModel<float>& m, const Dataset&) { return m.test_x; }
}  // namespace

// [SECTION] Defaults and validation ---------------------------------------------------------

TrainConfig default_train_config(DatasetKind kind, Norm norm, OptimizerKind optimizer, std::uint64_t seed) {
    const bool two_d = is_synthetic_2d(kind);
    TrainConfig c;
    c.model.hidden_layers = 2;
    c.model.width = two_d ? 32 : 64;
    c.model.activation = Activation::ReLU;
    c.model.norm = NormSpec{};
    c.model.norm.norm = norm;
    c.model.norm.eps = 1e-5;
    c.model.norm.p = 0.0625;
    c.model.placement = Placement::BeforeActivation;
    c.optimizer.kind = optimizer;
    c.optimizer.lr = optimizer == OptimizerKind::SGD ? 0.1 : two_d ? 0.01 : 0.003;
    c.optimizer.momentum = 0.9;
    c.steps = two_d ? 2000 : 1500;
    c.batch_size = two_d ? 32 : 64;
    c.eval_every = 50;
    c.seed = seed;
    return c;
}


double last_evals_median_accuracy(const TrainHistory& h) {
    std::vector<double> last;
    for (std::size_t i = h.eval.size() > 5 ? h.eval.size() - 5 : 0; i < h.eval.size(); ++i)
        last.push_back(h.eval[i].test_accuracy);
    return median(std::move(last));   // NaN when empty
}

double best_test_accuracy(const TrainHistory& h) {
    double best = std::numeric_limits<double>::quiet_NaN();
    for (const EvalResult& e : h.eval) best = std::isnan(best) ? e.test_accuracy : std::max(best, e.test_accuracy);
    return best;
}

std::string validate(const TrainConfig& c) {
    if (std::string problem = validate(c.model); !problem.empty()) return problem;
    if (c.steps < 1) return "steps must be at least 1";
    if (c.batch_size < 1) return "batch size must be at least 1";
    // As PyTorch's BatchNorm1d refuses it in training ("Expected more than 1 value per channel"):
    // one case has zero spread in every feature, so each normalized output would be 0.
    if (c.model.norm.norm == Norm::BatchNorm && c.batch_size < 2)
        return "batchnorm needs at least 2 cases per batch (got 1): over one case every feature has zero spread "
               "and its normalized output is 0 (PyTorch refuses it too): use a batch of 2 or more, or another norm";
    if (c.eval_every < 1) return "eval_every must be at least 1";
    if (!(c.optimizer.lr > 0.0) || !std::isfinite(c.optimizer.lr)) return "the learning rate must be a finite number > 0";
    if (!(c.optimizer.momentum >= 0.0 && c.optimizer.momentum < 1.0)) return "momentum must lie in [0, 1)";
    if (!(c.optimizer.beta1 >= 0.0 && c.optimizer.beta1 < 1.0) || !(c.optimizer.beta2 >= 0.0 && c.optimizer.beta2 < 1.0))
        return "Adam's betas must lie in [0, 1)";
    if (!(c.optimizer.adam_eps > 0.0)) return "Adam's eps must be > 0";
    return {};
}

double train_memory_bytes(Index train_cases, Index test_cases, Index features, int classes, const TrainConfig& c) {
    const double n_train = static_cast<double>(train_cases), n_all = n_train + static_cast<double>(test_cases);
    const bool f32 = c.precision == Precision::F32;
    const double scalar = f32 ? 4.0 : 8.0;
    const double units = static_cast<double>(c.model.hidden_layers) * static_cast<double>(c.model.width);
    double per_unit = 2.0 * scalar;   // dense and activation outputs
    if (c.model.norm.norm != Norm::None) {
        per_unit += 2.0 * scalar;     // the norm's output and ā
        const bool row_kernel = c.model.norm.norm == Norm::LayerNorm || c.model.norm.norm == Norm::RMSNorm;
        if (f32 && !row_kernel) per_unit += 2.0 * 8.0;   // a and ā widened to double
    }
    const double data = n_all * static_cast<double>(features) * (3.0 * 8.0 + (f32 ? 4.0 : 0.0)) + n_all * 8.0;
    return data + n_train * (units * per_unit + 3.0 * scalar * static_cast<double>(classes));
}

std::string check_memory(const Dataset& data, const TrainConfig& c) {
    const double need =
        train_memory_bytes(data.train_x.rows(), data.test_x.rows(), data.features(), data.classes, c);
    if (need <= kTrainMemoryBudget) return {};
    const int layers = c.model.hidden_layers;
    return data.name + " has " + std::to_string(data.train_x.rows() + data.test_x.rows()) + " rows × " +
           std::to_string(data.features()) + (data.features() == 1 ? " feature" : " features") + ": training " +
           std::to_string(layers) + (layers == 1 ? " hidden layer" : " hidden layers") + " of width " +
           std::to_string(c.model.width) + " needs about " + describe_memory(need) +
           " of memory, more than the limit of " + describe_memory(kTrainMemoryBudget) +
           ": use fewer rows, or fewer or narrower hidden layers";
}

// [SECTION] Trainer: construction, mini-batches ---------------------------------------------

Trainer::Trainer(Dataset data, const TrainConfig& config)
    : data_(std::move(data)),
      config_([&] {
          TrainConfig c = config;
          c.model = model_for(config.model, data_);
          if (std::string problem = validate(c); !problem.empty()) throw std::invalid_argument(problem);
          if (data_.train_x.rows() < 1 || data_.test_x.rows() < 1)
              throw std::invalid_argument("the data set needs training and test cases");
          if (std::string problem = check_memory(data_, c); !problem.empty()) throw InputError(problem);
          c.batch_size = std::min(c.batch_size, data_.train_x.rows());
          return c;
      }()),
      model_(make_model(config_, data_)),
      optimizer_(config_.optimizer),
      batch_rng_(derive_seed(config_.seed, 3)) {
    order_.resize(static_cast<std::size_t>(data_.train_x.rows()));
    for (std::size_t i = 0; i < order_.size(); ++i) order_[i] = static_cast<Index>(i);
    batch_rng_.shuffle(order_);
    batch_x_.resize(config_.batch_size, data_.features());
    batch_y_.resize(config_.batch_size);
    const std::size_t layers = layer_names().size();
    history_.grad_norms.resize(layers);
    const auto reserve = static_cast<std::size_t>(config_.steps);
    history_.train_loss.reserve(reserve);
    history_.norm_ms.reserve(reserve);
    history_.other_ms.reserve(reserve);
    for (std::vector<double>& g : history_.grad_norms) g.reserve(reserve);
}

void Trainer::next_batch() {
    // The next batch_size cases of the epoch's permutation; a new permutation when it runs out.
    for (Index r = 0; r < config_.batch_size; ++r) {
        if (cursor_ == order_.size()) {
            batch_rng_.shuffle(order_);
            cursor_ = 0;
        }
        const Index i = order_[cursor_++];
        batch_x_.row(r) = data_.train_x.row(i);
        batch_y_(r) = data_.train_y(i);
    }
}

// [SECTION] Trainer: step -------------------------------------------------------------------

std::vector<std::string> Trainer::layer_names() const {
    return std::visit([](const auto& m) { return m.mlp.dense_layer_names(); }, model_);
}

double Trainer::step() {
    const Clock::time_point t0 = Clock::now();
    next_batch();
    double norm = 0.0;
    const double loss = std::visit(
        [&](auto& m) {
            m.mlp.reset_norm_seconds();
            const auto& x = in_scalar(batch_x_, m.x);
            // Forward: logits z = MLP(x_batch) (B×K), L = CE(softmax(z), y).
            const double l = softmax_cross_entropy(m.mlp.forward(x, Mode::Train), batch_y_, m.probs, &m.dlogits);
            // Backward: ∂L/∂z = (p − onehot(y))/B, then down through every layer.
            m.mlp.backward(x, m.dlogits);
            m.mlp.weight_grad_norms(grad_norms_);
            // Update: θ ← optimizer(θ, ∂L/∂θ).
            m.mlp.update(optimizer_);
            norm = m.mlp.norm_seconds();
            return l;
        },
        model_);
    ++step_;

    const double total = seconds_since(t0);
    norm_seconds_ += norm;
    other_seconds_ += total - norm;
    history_.train_loss.push_back(loss);
    for (std::size_t l = 0; l < grad_norms_.size(); ++l) history_.grad_norms[l].push_back(grad_norms_[l]);
    history_.norm_ms.push_back(1e3 * norm);
    history_.other_ms.push_back(1e3 * (total - norm));

    if (step_ % config_.eval_every == 0 || step_ == config_.steps) {
        const EvalResult e = evaluate();
        history_.eval_step.push_back(step_);
        history_.eval.push_back(e);
        last_eval_ = e;
    }
    return loss;
}

// [SECTION] Trainer: evaluation, decision grid, snapshot ------------------------------------

EvalResult Trainer::evaluate() {
    const Clock::time_point t0 = Clock::now();
    EvalResult e;
    std::visit(
        [&](auto& m) {
            MatOf<typename std::decay_t<decltype(m)>::Scalar> probs;
            const auto measure = [&](const auto& X, const Labels& y, double& loss, double& accuracy) {
                const auto& logits = m.mlp.forward(X, Mode::Eval);
                loss = softmax_cross_entropy(logits, y, probs, nullptr);
                accuracy = static_cast<double>(count_correct(logits, y)) / static_cast<double>(y.size());
            };
            measure(train_cases(m, data_), data_.train_y, e.train_loss, e.train_accuracy);
            measure(test_cases(m, data_), data_.test_y, e.test_loss, e.test_accuracy);
            m.mlp.reset_norm_seconds();
        },
        model_);
    eval_seconds_ += seconds_since(t0);
    return e;
}

DecisionGrid Trainer::decision_grid(int size) {
    if (data_.features() != 2) throw std::invalid_argument("a decision grid needs 2D data");
    if (size < 2) throw std::invalid_argument("a decision grid needs at least 2×2 cells");
    const Clock::time_point t0 = Clock::now();
    DecisionGrid grid;
    grid.size = size;
    grid.box = data_.box;
    grid.classes = data_.classes;
    const Index G = size;
    const double dx = (grid.box.x_max - grid.box.x_min) / static_cast<double>(G);
    const double dy = (grid.box.y_max - grid.box.y_min) / static_cast<double>(G);
    Mat raw(G * G, 2);
    for (Index iy = 0; iy < G; ++iy)
        for (Index ix = 0; ix < G; ++ix) {
            raw(iy * G + ix, 0) = grid.box.x_min + (static_cast<double>(ix) + 0.5) * dx;
            raw(iy * G + ix, 1) = grid.box.y_min + (static_cast<double>(iy) + 0.5) * dy;
        }
    const Mat cells = data_.scaler.apply(raw);
    // Softmax per cell (labels are not needed: any in-range label gives the same probabilities).
    const Labels none = Labels::Zero(G * G);
    // The logits in double (float32's widened), so that each cell's probabilities sum to 1 to
    // double's precision whatever the model's.
    const Mat logits = std::visit(
        [&](auto& m) {
            MatOf<typename std::decay_t<decltype(m)>::Scalar> x;
            Mat z = m.mlp.forward(in_scalar(cells, x), Mode::Eval).template cast<double>();
            m.mlp.reset_norm_seconds();
            return z;
        },
        model_);
    softmax_cross_entropy(logits, none, grid.probs, nullptr);
    grid.argmax.resize(G * G);
    grid.confidence.resize(G * G);
    for (Index r = 0; r < G * G; ++r) {
        Index best = 0;
        grid.confidence(r) = grid.probs.row(r).maxCoeff(&best);
        grid.argmax(r) = static_cast<int>(best);
    }
    eval_seconds_ += seconds_since(t0);
    return grid;
}

TrainSnapshot Trainer::snapshot(int grid_size) {
    TrainSnapshot s;
    s.step = step_;
    s.total_steps = config_.steps;
    s.finished = finished();
    s.history = history_;
    s.layer_names = layer_names();
    s.last_eval = last_eval_;
    if (grid_size > 0 && data_.features() == 2) s.grid = decision_grid(grid_size);
    s.norm_seconds = norm_seconds_;
    s.other_seconds = other_seconds_;
    s.eval_seconds = eval_seconds_;
    return s;
}

// [SECTION] Whole runs ----------------------------------------------------------------------

TrainResult run_to_end(Trainer& trainer) {
    const Clock::time_point t0 = Clock::now();
    while (!trainer.finished()) trainer.step();
    TrainSnapshot s = trainer.snapshot();
    TrainResult r;
    r.history = std::move(s.history);
    r.layer_names = std::move(s.layer_names);
    r.final = s.last_eval ? *s.last_eval : trainer.evaluate();  // the last step always evaluates
    r.norm_seconds = s.norm_seconds;
    r.other_seconds = s.other_seconds;
    r.eval_seconds = s.eval_seconds;
    r.seconds = seconds_since(t0);
    return r;
}

TrainResult train(Dataset data, const TrainConfig& config) {
    Trainer trainer(std::move(data), config);
    return run_to_end(trainer);
}

}  // namespace normlab
