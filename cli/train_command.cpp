// `normlab-cli train`: trains the training lab's MLP on one data set and prints the run.
// The data, model and trainer are core's (normlab/models/datasets.hpp, mlp.hpp, training.hpp); this
// file parses the options, picks the per-data-set defaults and writes the result.
//
// [SECTION] Help and defaults
// [SECTION] Options
// [SECTION] Output (JSON and text)
#include "commands.hpp"
#include "options.hpp"

#include "normlab/models/datasets.hpp"
#include "normlab/base/input_error.hpp"
#include "normlab/models/training.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>

namespace normlab::cli {

// [SECTION] Help and defaults ---------------------------------------------------------------

const char kTrainHelp[] = R"(Usage: normlab-cli train --dataset circle|xor|gauss|spiral|moons|digits --norm NORM [options] [--json]
       normlab-cli train --csv FILE --norm NORM [options] [--json]

Trains an MLP classifier (softmax cross-entropy) with a norm in every hidden layer and prints its
learning curve and final numbers. Everything is seeded: the same options give the same numbers,
bit for bit (only the "timing" object differs between runs).

Data:
  --dataset NAME      circle | xor | gauss | spiral | moons (TensorFlow Playground's 2D sets) |
                      digits (8×8 handwritten digits, 1797 cases, 64 features, 10 classes)
  --csv FILE          your own data instead: rows of features then an integer label (.gz is fine)
  --samples N         2D sets: number of points (default 500)
  --noise X           2D sets: noise in [0, 0.5], the Playground's slider / 100 (default 0)
  --train-ratio R     fraction of cases used for training, 0 < R < 1
                      (default 0.5 for the 2D sets, 0.8 for digits and CSV files)
  Features are standardized with the training set's mean and standard deviation.

Model:
  --norm NORM         none | layernorm | rmsnorm | prmsnorm | l2norm | batchnorm (required)
  --placement WHERE   before (Dense → Norm → Act, default) | after (Dense → Act → Norm)
  --p P               prmsnorm: fraction of the width the RMS is estimated from, 0 < P ≤ 1
                      (default 0.0625, the paper's 6.25%: k = ⌈n·p⌉ = 2 of 32 units, 4 of 64)
  --eps E             the norm's ε, inside the square root (default 1e-5)
  --hidden L          hidden layers, 1..6 (default 2)
  --width W           units per hidden layer, 2..256 (default 32 for the 2D sets, 64 otherwise)
  --activation F      relu (default) | tanh | gelu (exact erf form)
  Each norm has a learned gain g (initially 1) and bias b (initially 0).

Training:
  --optimizer NAME    adam (default) | sgd (with momentum 0.9)
  --lr R              learning rate (default: adam 0.01 for the 2D sets, 0.003 otherwise;
                      sgd 0.1 for all)
  --momentum M        sgd: momentum in [0, 1) (default 0.9)
  --steps N           optimizer steps (default 2000 for the 2D sets, 1500 otherwise)
  --batch B           cases per step (default 32 for the 2D sets, 64 otherwise)
  --eval-every K      evaluate on the whole train and test sets every K steps and after the
                      last (default 50)
  --seed S            seeds the data, the initial weights and the batch order (default 1)
  --precision P       f64 (default): float64, the reference, whose numbers this help quotes |
                      f32: float32, its products on AVX2 + FMA where the CPU has them (faster;
                      the same numbers run to run on one machine, not across CPUs)

Output:
  --json              one JSON object (below); without it, a short text summary

JSON:
  config              every setting in force (defaults filled in)
  data                dataset, features, classes, train_cases, test_cases
  curve               one entry per step: {"step", "train_loss"} (the mini-batch's loss before
                      the update), plus "train_accuracy", "test_loss", "test_accuracy" after
                      each evaluation (train_accuracy on the whole training set)
  train_loss, train_accuracy, test_loss, test_accuracy
                      on the whole sets after the last step
  test_accuracy_last5_median, test_accuracy_best
                      the median of the last five evaluations' test accuracy (one can
                      fall on a spike of the last step), and the best evaluation's
  layer_grad_norms    per dense layer ("hidden1", ..., "output"): mean and final ‖∂L/∂W‖
  timing              seconds (total, inside the norm layers, the rest of the steps, the
                      evaluations) and ms per step: wall clock, so NOT reproducible (every
                      other key is)

What the defaults reach, measured over seeds with every norm (pRMSNorm at the paper's p = 6.25%
included), --seed S and nothing else changed: on spiral (seeds 1–20, 120 runs) the median of the
last five evaluations (test_accuracy_last5_median) is at least 95% in every run (lowest 95.6%); the
final evaluation alone is at least 95% in 117 of 120, as it can land on a loss spike of the last
step (layernorm, seed 8: 99.2% at the four evaluations before, 86.4% at the last; l2norm, seeds 8
and 16: 93.2%). On digits (seeds 1–10, 60 runs) every run ends at 94.9% or more.
tests/core/test_training.cpp checks seed 1 of each, and the spike of seed 8.
L2-Norm (a/‖a‖: outputs of norm 1 instead of √n) reaches them with Adam, whose per-parameter
steps grow its gain quickly; with --optimizer sgd or --activation tanh it trains visibly worse
(spiral, seeds 1–5: 78–96% and 61–70% test accuracy), as the paper reports.
Digits defaults also apply to --csv data sets.

Exit codes: 0 success; 2 bad option or data (one line on stderr names it).
)";

namespace {

struct TrainOptions {
    std::optional<DatasetKind> dataset;
    std::string csv;
    Norm norm = Norm::None;
    Placement placement = Placement::BeforeActivation;
    Activation activation = Activation::ReLU;
    OptimizerKind optimizer = OptimizerKind::Adam;
    std::optional<double> p, eps, lr, momentum, noise, train_ratio;
    std::optional<long> steps, hidden, width, batch, eval_every, samples;
    std::uint64_t seed = 1;
    Precision precision = Precision::F64;
    bool json = false;
};

// [SECTION] Options -------------------------------------------------------------------------
// Parsed by the shared option parser (options.hpp): unknown options, missing values and
// malformed numbers are reported the way every subcommand reports them.

[[noreturn]] void bad(const std::string& message) { throw InputError(message); }

std::string short_number(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    return text;
}

double ranged(const Options& opt, std::string_view name, double lo, double hi, bool open_lo, bool open_hi,
              double fallback) {
    const double v = opt.number(name, fallback);
    if ((open_lo ? v <= lo : v < lo) || (open_hi ? v >= hi : v > hi))
        bad("--" + std::string(name) + " = " + *opt.value(name) + " must lie in " + (open_lo ? "(" : "[") +
            short_number(lo) + ", " + short_number(hi) + (open_hi ? ")" : "]"));
    return v;
}

TrainOptions parse_options(const Args& args) {
    const Options opt("train", args,
                      {{"dataset", true}, {"csv", true},       {"norm", true},      {"placement", true},
                       {"p", true},       {"eps", true},       {"hidden", true},    {"width", true},
                       {"activation", true}, {"optimizer", true}, {"lr", true},     {"momentum", true},
                       {"steps", true},   {"batch", true},     {"eval-every", true}, {"seed", true},
                       {"samples", true}, {"noise", true},     {"train-ratio", true}, {"json", false},
                       {"precision", true}});
    TrainOptions o;
    if (const auto name = opt.value("dataset")) {
        const auto kind = parse_dataset(*name);
        if (!kind || *kind == DatasetKind::Csv)
            bad("unknown --dataset " + quote_for_message(*name) +
                " (expected one of: circle, xor, gauss, spiral, moons, digits; or --csv FILE for your own data)");
        o.dataset = kind;
    }
    o.csv = opt.value("csv").value_or("");
    if (opt.flag("csv") && o.csv.empty()) bad("--csv needs a file name");
    if (o.dataset && !o.csv.empty()) bad("--dataset and --csv exclude each other: give one");
    if (!o.dataset && o.csv.empty()) bad("train needs --dataset (circle, xor, gauss, spiral, moons, digits) or --csv FILE");
    const auto norm = opt.value("norm");
    if (!norm) bad("train needs --norm (none, layernorm, rmsnorm, prmsnorm, l2norm, batchnorm)");
    const auto kind = parse_norm(*norm);
    if (!kind || *kind == Norm::WeightNorm)
        bad("unknown --norm " + quote_for_message(*norm) +
            " (expected one of: none, layernorm, rmsnorm, prmsnorm, l2norm, batchnorm)");
    o.norm = *kind;
    o.placement = opt.choice("placement", parse_placement, "before, after", Placement::BeforeActivation);
    o.activation = opt.choice("activation", parse_activation, "relu, tanh, gelu", Activation::ReLU);
    o.optimizer = opt.choice("optimizer", parse_optimizer, "adam, sgd", OptimizerKind::Adam);
    o.precision = opt.choice("precision", parse_precision, "f32, f64", Precision::F64);
    const auto maybe = [&](std::string_view name, auto read) -> decltype(std::optional(read())) {
        if (!opt.flag(name)) return std::nullopt;
        return read();
    };
    o.p = maybe("p", [&] { return ranged(opt, "p", 0.0, 1.0, true, false, 0.0); });
    o.eps = maybe("eps", [&] { return ranged(opt, "eps", 0.0, 1.0, false, false, 0.0); });
    o.lr = maybe("lr", [&] { return ranged(opt, "lr", 0.0, 10.0, true, false, 0.0); });
    o.momentum = maybe("momentum", [&] { return ranged(opt, "momentum", 0.0, 1.0, false, true, 0.0); });
    o.noise = maybe("noise", [&] { return ranged(opt, "noise", 0.0, 0.5, false, false, 0.0); });
    o.train_ratio = maybe("train-ratio", [&] { return ranged(opt, "train-ratio", 0.0, 1.0, true, true, 0.0); });
    o.steps = maybe("steps", [&] { return opt.integer("steps", 0, 1, 1000000); });
    o.hidden = maybe("hidden", [&] { return opt.integer("hidden", 0, kMinHiddenLayers, kMaxHiddenLayers); });
    o.width = maybe("width", [&] { return opt.integer("width", 0, kMinWidth, kMaxWidth); });
    o.batch = maybe("batch", [&] { return opt.integer("batch", 0, 1, 100000); });
    o.eval_every = maybe("eval-every", [&] { return opt.integer("eval-every", 0, 1, 1000000); });
    o.samples = maybe("samples", [&] { return opt.integer("samples", 0, 4, 100000); });
    o.seed = static_cast<std::uint64_t>(opt.integer("seed", 1, 0, 9007199254740992L));  // up to 2^53
    o.json = opt.flag("json");
    const bool two_d = o.dataset && is_synthetic_2d(*o.dataset);
    if (!two_d && (o.noise || o.samples))
        bad(std::string(o.noise ? "--noise" : "--samples") + " applies to the 2D data sets only");
    return o;
}

// The data spec and training configuration for the options, with per-data-set defaults.
void configure(const TrainOptions& o, DataSpec& data, TrainConfig& config) {
    const DatasetKind kind = o.dataset ? *o.dataset : DatasetKind::Csv;
    data = default_data_spec(kind, o.seed);
    data.path = o.csv;
    if (o.samples) data.samples = static_cast<Eigen::Index>(*o.samples);
    if (o.noise) data.noise = *o.noise;
    if (o.train_ratio) data.train_ratio = *o.train_ratio;

    config = default_train_config(kind, o.norm, o.optimizer, o.seed);
    MlpConfig& m = config.model;
    if (o.hidden) m.hidden_layers = static_cast<int>(*o.hidden);
    if (o.width) m.width = static_cast<Eigen::Index>(*o.width);
    m.activation = o.activation;
    if (o.eps) m.norm.eps = *o.eps;
    if (o.p) m.norm.p = *o.p;
    m.placement = o.placement;
    if (o.lr) config.optimizer.lr = *o.lr;
    if (o.momentum) config.optimizer.momentum = *o.momentum;
    if (o.steps) config.steps = static_cast<int>(*o.steps);
    if (o.batch) config.batch_size = static_cast<Eigen::Index>(*o.batch);
    if (o.eval_every) config.eval_every = static_cast<int>(*o.eval_every);
    config.precision = o.precision;
}

// [SECTION] Output (JSON and text) ----------------------------------------------------------

nlohmann::json to_json(const TrainOptions& o, const DataSpec& spec, const TrainConfig& config, const Trainer& trainer,
                       const TrainResult& r) {
    using nlohmann::json;
    const Dataset& d = trainer.data();
    const TrainConfig& c = trainer.config();  // batch clamped to the training set
    json cfg = {{"dataset", spec.kind == DatasetKind::Csv ? spec.path : std::string(to_string(spec.kind))},
                {"norm", to_string(config.model.norm.norm)},
                {"placement", to_string(config.model.placement)},
                {"eps", config.model.norm.eps},
                {"hidden", config.model.hidden_layers},
                {"width", config.model.width},
                {"activation", to_string(config.model.activation)},
                {"optimizer", to_string(config.optimizer.kind)},
                {"lr", config.optimizer.lr},
                {"steps", config.steps},
                {"batch", c.batch_size},
                {"eval_every", config.eval_every},
                {"seed", o.seed},
                {"precision", to_string(config.precision)},
                {"train_ratio", spec.train_ratio},
                {"standardize", spec.standardize}};
    if (config.model.norm.norm == Norm::PRMSNorm) {
        cfg["p"] = config.model.norm.p;
        cfg["k"] = partial_k(config.model.width, config.model.norm.p, config.model.norm.rounding);
    }
    if (config.optimizer.kind == OptimizerKind::SGD) cfg["momentum"] = config.optimizer.momentum;
    if (is_synthetic_2d(spec.kind)) {
        cfg["samples"] = spec.samples;
        cfg["noise"] = spec.noise;
    }

    json curve = json::array();
    const TrainHistory& h = r.history;
    std::size_t e = 0;
    for (std::size_t s = 0; s < h.train_loss.size(); ++s) {
        json point = {{"step", s + 1}, {"train_loss", h.train_loss[s]}};
        if (e < h.eval_step.size() && static_cast<std::size_t>(h.eval_step[e]) == s + 1) {
            point["train_accuracy"] = h.eval[e].train_accuracy;
            point["test_loss"] = h.eval[e].test_loss;
            point["test_accuracy"] = h.eval[e].test_accuracy;
            ++e;
        }
        curve.push_back(std::move(point));
    }

    json grads = json::object();
    for (std::size_t l = 0; l < r.layer_names.size(); ++l) {
        const std::vector<double>& g = h.grad_norms[l];
        double sum = 0.0;
        for (double v : g) sum += v;
        grads[r.layer_names[l]] = {{"mean", sum / static_cast<double>(g.size())}, {"final", g.back()}};
    }

    const double steps = static_cast<double>(h.train_loss.size());
    return {{"config", cfg},
            {"data",
             {{"dataset", cfg["dataset"]},
              {"features", d.features()},
              {"classes", d.classes},
              {"train_cases", d.train_x.rows()},
              {"test_cases", d.test_x.rows()}}},
            {"curve", std::move(curve)},
            {"train_loss", r.final.train_loss},
            {"train_accuracy", r.final.train_accuracy},
            {"test_loss", r.final.test_loss},
            {"test_accuracy", r.final.test_accuracy},
            {"test_accuracy_last5_median", last_evals_median_accuracy(h)},
            {"test_accuracy_best", best_test_accuracy(h)},
            {"layer_grad_norms", std::move(grads)},
            {"timing",
             {{"seconds", r.seconds},
              {"norm_seconds", r.norm_seconds},
              {"other_seconds", r.other_seconds},
              {"eval_seconds", r.eval_seconds},
              {"ms_per_step", 1e3 * (r.norm_seconds + r.other_seconds) / steps}}}};
}

void print_text(const nlohmann::json& j) {
    const auto& cfg = j["config"];
    std::cout << "normlab-cli train: " << cfg["dataset"].get<std::string>() << ", " << cfg["norm"].get<std::string>()
              << " (" << cfg["placement"].get<std::string>() << " the activation), " << cfg["hidden"] << "×"
              << cfg["width"] << " " << cfg["activation"].get<std::string>() << ", "
              << cfg["optimizer"].get<std::string>() << " lr " << cfg["lr"] << ", " << cfg["steps"] << " steps of "
              << cfg["batch"] << ", seed " << cfg["seed"] << (cfg["precision"] == "f32" ? ", float32" : "") << "\n\n";
    std::cout << "  step   train_loss   test_loss   test_acc\n";
    for (const auto& p : j["curve"]) {
        if (!p.contains("test_loss")) continue;
        char line[96];
        std::snprintf(line, sizeof line, "%6d   %10.5f  %10.5f   %7.2f%%\n", p["step"].get<int>(),
                      p["train_loss"].get<double>(), p["test_loss"].get<double>(),
                      100.0 * p["test_accuracy"].get<double>());
        std::cout << line;
    }
    char line[256];
    std::snprintf(line, sizeof line,
                  "\nfinal: train loss %.5f, train accuracy %.2f%%, test loss %.5f, test accuracy %.2f%%\n"
                  "       test accuracy over the last five evaluations (median) %.2f%%, best %.2f%%\n"
                  "time:  %.3f s (%.3f ms per step, %.0f%% of it in the norm layers)\n",
                  j["train_loss"].get<double>(), 100.0 * j["train_accuracy"].get<double>(),
                  j["test_loss"].get<double>(), 100.0 * j["test_accuracy"].get<double>(),
                  100.0 * j["test_accuracy_last5_median"].get<double>(), 100.0 * j["test_accuracy_best"].get<double>(),
                  j["timing"]["seconds"].get<double>(), j["timing"]["ms_per_step"].get<double>(),
                  100.0 * j["timing"]["norm_seconds"].get<double>() /
                      std::max(1e-12, j["timing"]["norm_seconds"].get<double>() + j["timing"]["other_seconds"].get<double>()));
    std::cout << line;
}

}  // namespace

int run_train(const Args& args) {
    const TrainOptions o = parse_options(args);
    DataSpec spec;
    TrainConfig config;
    configure(o, spec, config);
    if (const std::string problem = validate(config); !problem.empty()) bad(problem);
    Dataset data;
    try {
        data = make_dataset(spec);  // InputError for file problems (names the file, line, column)
    } catch (const std::invalid_argument& e) {
        bad(std::string("cannot split the data: ") + e.what());
    }

    Trainer trainer(std::move(data), config);
    const TrainResult r = run_to_end(trainer);

    const nlohmann::json j = to_json(o, spec, config, trainer, r);
    if (o.json)
        std::cout << j.dump() << '\n';
    else
        print_text(j);
    return 0;
}

}  // namespace normlab::cli
