// NormLab core: the depth lab's trainer (see depth.hpp).
//
// [SECTION] Defaults and validation
// [SECTION] Per-layer summary
// [SECTION] Trainer: construction and step
// [SECTION] Trainer: evaluation, snapshot, generation
// [SECTION] Whole runs
#include "normlab/models/depth.hpp"

#include "normlab/base/file_io.hpp"
#include "normlab/base/input_error.hpp"
#include "normlab/base/stopwatch.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

namespace normlab {

using Eigen::Index;

namespace {
using Clock = std::chrono::steady_clock;

// The model's vocabulary and context from the task (synthetic: D + 1 symbols, T = 2n).
TransformerConfig model_for(const TransformerConfig& model, const SequenceTask& task) {
    TransformerConfig m = model;
    m.vocab = task.vocabulary().size();
    m.context = task.context();
    return m;
}

DepthModels make_model(Precision precision, const TransformerConfig& config, std::uint64_t seed) {
    if (precision == Precision::F32) return DepthModels(std::in_place_type<DepthModel<float>>, config, seed);
    return DepthModels(std::in_place_type<DepthModel<double>>, config, seed);
}

constexpr Index kEvalChunk = 64;  // evaluation cases per forward (bounds the attention caches)
}  // namespace

// [SECTION] Defaults and validation ---------------------------------------------------------

DepthConfig default_depth_config(TaskKind task, NormPlacement placement, Norm norm, std::uint64_t seed) {
    DepthConfig c;
    c.task.kind = task;
    c.task.length = 6;
    c.task.digits = 10;
    c.task.units = TextUnits::CodePoints;
    c.task.context = 32;
    c.model.layers = 6;
    c.model.width = 64;
    c.model.heads = 4;
    c.model.placement = placement;
    c.model.norm = NormSpec{};
    c.model.norm.norm = norm;
    c.model.norm.eps = 1e-5;
    c.model.residual_scale = false;
    c.model.init = TransformerInit::Uniform;
    c.optimizer.kind = OptimizerKind::Adam;
    c.optimizer.lr = 1e-3;
    c.steps = 50;
    c.batch_size = 32;
    c.eval_every = 50;
    c.eval_cases = 256;
    c.seed = seed;
    return c;
}

double depth_step_bytes(const DepthConfig& c, int vocab) {
    const double T = c.task.kind == TaskKind::Text ? c.task.context : 2.0 * c.task.length;
    const double d = static_cast<double>(c.model.width), H = c.model.heads, L = c.model.layers;
    const double V = vocab > 0 ? vocab : c.task.kind == TaskKind::Text ? 2.0 : c.task.digits + 1.0;
    // A training case keeps its activations and their gradients (2×); an evaluation case only
    // its forward pass, about half of that again.
    const double cases = 2.0 * static_cast<double>(c.batch_size) + 0.5 * static_cast<double>(c.eval_cases);
    const double per_case_layer = T * 16.0 * d + 2.0 * H * T * T;   // doubles
    // The vocabulary: weights ×4 (value, gradient, Adam's m and v); per position 5·V while
    // training, 3·V for the evaluation chunk that is in memory at a time.
    const double chunk = std::min<double>(static_cast<double>(c.eval_cases), 64.0);
    const double per_vocab = 4.0 * 2.0 * d + T * (5.0 * static_cast<double>(c.batch_size) + 3.0 * chunk);
    return 8.0 * (cases * L * per_case_layer + V * per_vocab);
}

namespace {

// "batch 32 (and 256 held-out cases) × context 32 × width 64 × 6 layers"
std::string step_sizes(const DepthConfig& c) {
    return "batch " + std::to_string(c.batch_size) + " (and " + std::to_string(c.eval_cases) + " held-out cases) × context " +
           std::to_string(c.task.kind == TaskKind::Text ? c.task.context : 2 * c.task.length) + " × width " +
           std::to_string(c.model.width) + " × " + std::to_string(c.model.layers) + " layers";
}

}  // namespace

std::string check_vocabulary_memory(const DepthConfig& c, int vocab) {
    const double need = depth_step_bytes(c, vocab);
    if (need <= kDepthMemoryBudget) return {};
    const char* unit = c.task.units == TextUnits::Bytes ? " distinct bytes" : " distinct characters";
    return "the text has " + std::to_string(vocab) + unit + ": " + step_sizes(c) + " × vocabulary " +
           std::to_string(vocab) + " needs about " + describe_memory(need) +
           " of memory per step, more than the limit of " + describe_memory(kDepthMemoryBudget) +
           ": use a text with fewer distinct characters (or --units bytes), a smaller batch or context, or fewer layers";
}

std::string validate(const DepthConfig& c) {
    if (std::string problem = validate(c.task); !problem.empty()) return problem;
    TransformerConfig m = c.model;
    if (c.task.kind != TaskKind::Text) {
        m.vocab = c.task.digits + 1;
        m.context = 2 * c.task.length;
    } else {
        m.vocab = std::max(m.vocab, 2);  // known once the text is read (≥ 2 is checked then)
        m.context = c.task.context;
    }
    if (std::string problem = validate(m); !problem.empty()) return problem;
    if (c.steps < 1) return "steps must be at least 1";
    if (c.batch_size < 1) return "batch size must be at least 1";
    if (c.eval_every < 1) return "eval_every must be at least 1";
    if (c.eval_cases < 1) return "the evaluation set needs at least 1 case";
    if (!(c.optimizer.lr > 0.0) || !std::isfinite(c.optimizer.lr)) return "the learning rate must be a finite number > 0";
    if (!(c.optimizer.momentum >= 0.0 && c.optimizer.momentum < 1.0)) return "momentum must lie in [0, 1)";
    if (!(c.optimizer.beta1 >= 0.0 && c.optimizer.beta1 < 1.0) || !(c.optimizer.beta2 >= 0.0 && c.optimizer.beta2 < 1.0))
        return "Adam's betas must lie in [0, 1)";
    if (!(c.optimizer.adam_eps > 0.0)) return "Adam's eps must be > 0";
    if (const double need = depth_step_bytes(c); need > kDepthMemoryBudget)
        return step_sizes(c) + " needs about " + describe_memory(need) + " of memory per step, more than the limit of " +
               describe_memory(kDepthMemoryBudget) + ": use a smaller batch, context or width, or fewer layers";
    return {};
}

// [SECTION] Per-layer summary ---------------------------------------------------------------

std::vector<double> mean_layer_grads(const DepthHistory& history, int steps) {
    std::vector<double> out;
    for (const std::vector<double>& g : history.ffn_grad) {
        const std::size_t n = std::min(g.size(), static_cast<std::size_t>(std::max(steps, 0)));
        double sum = 0.0;
        for (std::size_t s = 0; s < n; ++s) sum += g[s];
        out.push_back(n ? sum / static_cast<double>(n) : 0.0);
    }
    return out;
}

double first_last_ratio(const std::vector<double>& layer_means) {
    if (layer_means.empty() || layer_means.back() == 0.0) return std::numeric_limits<double>::quiet_NaN();
    return layer_means.front() / layer_means.back();
}

// [SECTION] Trainer: construction and step --------------------------------------------------

namespace {
const DepthConfig& checked(const DepthConfig& config) {
    if (const std::string problem = validate(config); !problem.empty()) throw std::invalid_argument(problem);
    return config;
}

// The model for the task, once its vocabulary's memory is known to fit (InputError otherwise).
TransformerConfig budgeted_model(const DepthConfig& config, const SequenceTask& task) {
    const TransformerConfig m = model_for(config.model, task);
    if (const std::string problem = check_vocabulary_memory(config, m.vocab); !problem.empty()) throw InputError(problem);
    return m;
}
}  // namespace

DepthTrainer::DepthTrainer(const DepthConfig& config)
    : config_(checked(config)),
      task_(config_.task),
      model_(make_model(config_.precision, budgeted_model(config_, task_), derive_seed(config_.seed, 2))),
      optimizer_(config_.optimizer),
      batch_rng_(derive_seed(config_.seed, 3)),
      eval_set_(task_.evaluation_set(config_.eval_cases, derive_seed(config_.seed, 4))) {
    config_.model = std::visit([](auto& m) { return m.transformer.config(); }, model_);
    history_.ffn_grad.resize(static_cast<std::size_t>(config_.model.layers));
    const auto reserve = static_cast<std::size_t>(config_.steps);
    history_.train_loss.reserve(reserve);
    history_.train_accuracy.reserve(reserve);
    history_.step_ms.reserve(reserve);
    for (std::vector<double>& g : history_.ffn_grad) g.reserve(reserve);
}

double DepthTrainer::step() {
    const Clock::time_point t0 = Clock::now();
    task_.sample(batch_rng_, config_.batch_size, batch_);
    const SequenceLoss loss = std::visit(
        [&](auto& m) {
            // Forward: logits (B·T)×V; L = mean cross-entropy over the scored positions.
            const SequenceLoss l = sequence_cross_entropy(m.transformer.forward(batch_.inputs), batch_.targets, &m.dlogits);
            // Backward: ∂L/∂logits down to the embeddings; then the measure, then the update.
            m.transformer.backward(m.dlogits);
            m.transformer.ffn_output_grad_means(grads_);
            m.transformer.update(optimizer_);
            return l;
        },
        model_);
    ++step_;
    const double seconds = seconds_since(t0);
    step_seconds_ += seconds;

    history_.train_loss.push_back(loss.loss);
    history_.train_accuracy.push_back(static_cast<double>(loss.correct) / static_cast<double>(loss.scored));
    for (std::size_t l = 0; l < grads_.size(); ++l) history_.ffn_grad[l].push_back(grads_[l]);
    history_.step_ms.push_back(1e3 * seconds);
    if (step_ % config_.eval_every == 0 || step_ == config_.steps) {
        const DepthEval e = evaluate();
        history_.eval_step.push_back(step_);
        history_.eval.push_back(e);
        last_eval_ = e;
    }
    return loss.loss;
}

// [SECTION] Trainer: evaluation, snapshot, generation ---------------------------------------

Eigen::Index DepthTrainer::parameter_count() {
    return std::visit([](auto& m) { return m.transformer.parameter_count(); }, model_);
}

DepthEval DepthTrainer::evaluate() {
    const Clock::time_point t0 = Clock::now();
    DepthEval e = std::visit([&](auto& m) { return evaluate_model(m.transformer); }, model_);
    eval_seconds_ += seconds_since(t0);
    return e;
}

template <class Model>
DepthEval DepthTrainer::evaluate_model(Model& model) {
    const Index cases = eval_set_.inputs.rows();
    double loss_sum = 0.0;
    Index scored = 0, correct = 0, solved = 0;
    const int n = config_.task.length;
    for (Index start = 0; start < cases; start += kEvalChunk) {
        const Index rows = std::min(kEvalChunk, cases - start);
        const Tokens inputs = eval_set_.inputs.middleRows(start, rows);
        const Tokens targets = eval_set_.targets.middleRows(start, rows);
        // Teacher-forced: the scored positions read the true symbols before them.
        const SequenceLoss l = sequence_cross_entropy(model.forward(inputs), targets, nullptr);
        loss_sum += l.loss * static_cast<double>(l.scored);
        scored += l.scored;
        correct += l.correct;
        if (task_.synthetic()) {
            // Generated: the digits and "|", then n greedy digits, each reading the model's own before it.
            const Tokens answer = greedy_continue(model, inputs.leftCols(n + 1), n);
            for (Index b = 0; b < rows; ++b) solved += answer.row(b) == targets.block(b, n, 1, n) ? 1 : 0;
        }
    }
    DepthEval e;
    e.loss = loss_sum / static_cast<double>(scored);
    e.accuracy = static_cast<double>(correct) / static_cast<double>(scored);
    if (task_.synthetic()) e.sequence_accuracy = static_cast<double>(solved) / static_cast<double>(cases);
    return e;
}

DepthSnapshot DepthTrainer::snapshot() const {
    DepthSnapshot s;
    s.step = step_;
    s.total_steps = config_.steps;
    s.finished = finished();
    s.placement = config_.model.placement;
    s.norm = config_.model.norm.norm;
    s.history = history_;
    s.layer_grad_means = mean_layer_grads(history_, step_);
    s.last_eval = last_eval_;
    s.step_seconds = step_seconds_;
    s.eval_seconds = eval_seconds_;
    return s;
}

std::string DepthTrainer::generate(const GenerateSpec& spec) {
    if (spec.max_tokens < 0) throw std::invalid_argument("max_tokens must be ≥ 0");
    if (!(spec.temperature >= 0.0) || !std::isfinite(spec.temperature))
        throw InputError("the temperature must be a finite number ≥ 0");
    const Vocabulary& vocab = task_.vocabulary();
    std::vector<int> seq = vocab.encode(spec.prompt, "the prompt");
    if (seq.empty()) {
        if (task_.synthetic()) throw InputError("the prompt is empty: give digits and \"|\", e.g. \"31415|\"");
        seq.push_back(task_.validation_ids().front());
    }
    const std::optional<int> newline = vocab.id(U'\n');
    Rng rng(derive_seed(spec.seed, 6));
    std::vector<int> out;
    int lines = 0;
    for (int k = 0; k < spec.max_tokens; ++k) {
        const int next =
            std::visit([&](auto& m) { return sample_tokens(m.transformer, seq, 1, spec.temperature, rng); }, model_)
                .front();
        seq.push_back(next);
        out.push_back(next);
        if (spec.stop_after_lines > 0 && newline && next == *newline && ++lines >= spec.stop_after_lines) break;
    }
    return vocab.decode(out);
}

// [SECTION] Whole runs ----------------------------------------------------------------------

DepthResult run_to_end(DepthTrainer& trainer) {
    const Clock::time_point t0 = Clock::now();
    while (!trainer.finished()) trainer.step();
    DepthSnapshot s = trainer.snapshot();
    DepthResult r;
    r.history = std::move(s.history);
    r.layer_grad_means = std::move(s.layer_grad_means);
    r.first_last_ratio = first_last_ratio(r.layer_grad_means);
    r.final = s.last_eval ? *s.last_eval : trainer.evaluate();
    r.step_seconds = s.step_seconds;
    r.eval_seconds = s.eval_seconds;
    r.seconds = seconds_since(t0);
    return r;
}

DepthResult run_depth(const DepthConfig& config) {
    DepthTrainer trainer(config);
    return run_to_end(trainer);
}

// [SECTION] Over seeds ----------------------------------------------------------------------

Spread spread_of(const std::vector<double>& values) {
    Spread s;
    s.n = static_cast<int>(values.size());
    if (values.empty()) return s;
    s.min = *std::min_element(values.begin(), values.end());
    s.max = *std::max_element(values.begin(), values.end());
    double sum = 0.0;
    for (double v : values) sum += v;
    s.mean = sum / s.n;
    double sq = 0.0;   // two passes: no cancellation
    for (double v : values) sq += (v - s.mean) * (v - s.mean);
    s.sd = s.n > 1 ? std::sqrt(sq / (s.n - 1)) : 0.0;
    return s;
}

std::string spread_text(const Spread& s) {
    if (s.n == 0) return "–";
    char buf[96];
    std::snprintf(buf, sizeof buf, "%.2f ± %.2f (%.2f–%.2f)", s.mean, s.sd, s.min, s.max);
    return buf;
}

double window_ratio(const DepthHistory& history, int steps) { return first_last_ratio(mean_layer_grads(history, steps)); }

std::vector<DepthResult> run_depth_seeds(DepthConfig config, const std::vector<std::uint64_t>& seeds) {
    std::vector<DepthResult> out;
    out.reserve(seeds.size());
    for (std::uint64_t seed : seeds) {
        config.seed = seed;
        out.push_back(run_depth(config));
    }
    return out;
}

// [SECTION] Ablation ------------------------------------------------------------------------

std::vector<DepthVariant> normformer_ablation() {
    const NormFormerParts none{false, false, false};
    return {{"preln", "Pre-LN", NormPlacement::PreLN, none},
            {"preln+ffn_norm", "+ FFN-activation norm", NormPlacement::NormFormer, {false, true, false}},
            {"preln+attn_norm", "+ attention-output norm", NormPlacement::NormFormer, {true, false, false}},
            {"normformer", "NormFormer", NormPlacement::NormFormer, NormFormerParts{}}};
}

DepthConfig with_variant(DepthConfig config, const DepthVariant& variant) {
    config.model.placement = variant.placement;
    config.model.normformer = variant.placement == NormPlacement::NormFormer ? variant.parts : NormFormerParts{};
    config.model.residual_scale = config.model.residual_scale && variant.placement == NormPlacement::NormFormer;
    return config;
}

}  // namespace normlab
