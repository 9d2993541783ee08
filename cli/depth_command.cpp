// `normlab-cli depth`: trains the depth lab's small transformer with Post-LN, Pre-LN or NormFormer
// blocks and prints, per layer, NormFormer's gradient measure (the mean |∂L/∂W₂| of the FFN output
// weights, averaged over the run's steps) and the loss curve. The task, model and trainer are
// core's (normlab/models/sequence_tasks.hpp, transformer.hpp, depth.hpp); this file parses the options
// and writes the result.
//
// [SECTION] Help
// [SECTION] Options
// [SECTION] Output (JSON and text)
// [SECTION] Over seeds and the ablation
#include "commands.hpp"
#include "options.hpp"

#include "normlab/base/text.hpp"
#include "normlab/models/depth.hpp"
#include "normlab/base/input_error.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace normlab::cli {

// [SECTION] Help ----------------------------------------------------------------------------

const char kDepthHelp[] = R"(Usage: normlab-cli depth --placement postln|preln|normformer [options] [--json]

Trains a small decoder-only transformer (token and position embeddings, L blocks of causal
multi-head self-attention and a GELU feed-forward block, residual connections, output head) and
records, at every step and for every layer, NormFormer's gradient measure: the mean |∂L/∂w| over
the weights w of the layer's FFN output projection (W₂, d×4d). layer_grad_norms is its average
over the steps of the run (Shleifer et al. 2021, Fig. 2; Xiong et al. 2020). Everything is seeded:
the same options give the same numbers, bit for bit (only "timing" differs between runs).

Model:
  --placement P       postln:     x = LN(x + Attn(x)), then x = LN(x + FFN(x))   (required)
                      preln:      x = x + Attn(LN(x)), then x = x + FFN(LN(x)), final LN
                      normformer: Pre-LN plus a norm on the attention output, a norm on the
                                  FFN's 4d GELU activations and a learned scale per head (init 1)
  --norm NORM         layernorm (default) | rmsnorm; every norm has a learned gain and bias, ε = 1e-5
  --residual-scale    normformer only: a learned per-dimension scale λ (init 1) on the FFN's
                      residual, x = λ ⊙ x + FFN(LN(x)) (off by default, as in the paper's main runs)
  --normformer-parts P  normformer only: which of its additions to Pre-LN are on, comma-separated:
                      attn_norm (the norm on the attention output), ffn_norm (on the GELU
                      activations), head_scale (γ per head); all (default) or none (= Pre-LN)
  --layers L          blocks, 1..12 (default 6)
  --width D           model width d, 4..256 (default 64); the FFN is 4d wide
  --heads H           attention heads, dividing the width (default 4)
  --init I            uniform (default): every linear weight W (n_out×n_in) from U(±1/√n_in), as
                      PyTorch's nn.Linear | xavier: U(±√(6/(n_in + n_out))) (Glorot & Bengio 2010),
                      the init Xiong et al. 2020 assume in their Post-LN / Pre-LN analysis
  Initialization: embeddings N(0, 1); linear weights as --init says, biases 0 (PyTorch's
  defaults for nn.Embedding and nn.Linear, biases aside, with --init uniform).

Task:
  --task T            sort (default) | copy | text
                      sort, copy: "31415|11345" / "31415|31415"; the model reads the digits and
                      "|" and is scored on the answer digits only
                      text: character-level language modelling on a UTF-8 text
  --length N          sort, copy: digits per problem, 1..32 (default 6)
  --digits K          sort, copy: digit values 0..K−1, 2..10 (default 10)
  --text FILE         text: your own UTF-8 file (implies --task text; default: the bundled
                      assets/lighthouse.txt, ~4 KB of public-domain prose)
  --units U           text: chars (Unicode code points, default) | bytes
  --context T         text: positions per training window, 2..256 (default 32); the last 10% of
                      the text is held out for evaluation

Training:
  --steps N           Adam steps (default 50)
  --lr R              learning rate (default 0.001; β₁ = 0.9, β₂ = 0.999)
  --batch B           sequences per step (default 32)
  --eval-every K      evaluate every K steps and after the last (default 50)
  --seed S            seeds the weights, the batches and the evaluation set (default 1)
  --precision P       f64 (default): float64, the reference, whose numbers this help quotes |
                      f32: float32, its products on AVX2 + FMA where the CPU has them (several
                      times faster; the same numbers run to run on one machine, not across CPUs)

Over seeds:
  --seeds A-B         one run per seed A..B (or A, or A,B,C; at most 100), one after another, and
                      first ÷ last over steps 1, 1–10 and 1–N for each, with mean ± sd and min–max
                      over the seeds (no --seed, no --generate)
  --ablation          NormFormer's ablation instead of one placement: Pre-LN, + FFN-activation
                      norm, + attention-output norm (each alone on Pre-LN), NormFormer; over
                      --seeds, or the one --seed

Sampling (after training):
  --generate N        continue --prompt by N symbols and print them ("sample" in the JSON)
  --prompt TEXT       text: any text in the vocabulary (default: the held-out text's first symbol);
                      sort, copy: digits and "|", e.g. 314159| (required with --generate)
  --temperature X     ≥ 0 (default 0.8; 0 = always the most likely symbol)

Output:
  --json              one JSON object (below); without it, a short text summary

JSON:
  config              every setting in force (defaults filled in)
  task                kind, vocab (size), context (T), source, and for text train_symbols and
                      heldout_symbols
  parameters          number of trainable numbers
  layer_grad_norms    L numbers, layer 1 first: per layer, mean |∂L/∂W₂| averaged over the N steps
  first_last_ratio    layer_grad_norms[0] / layer_grad_norms[L−1]
  curve               one entry per step: {"step", "loss", "accuracy" (the batch's, before the
                      update), "layer_grads" (L numbers: that step's measure)}, plus "eval_loss",
                      "eval_accuracy" (and "eval_sequence_accuracy") after each evaluation
  eval_loss, accuracy on the held-out set after the last step: the mean cross-entropy and the
                      fraction of scored symbols predicted right (sort, copy: the answer digits,
                      each reading the true digits before it; text: the next character)
  sequence_accuracy   sort, copy: the fraction of held-out problems whose whole answer, generated
                      digit by digit from the model's own digits, is right
  sample              with --generate: {"prompt", "text", "temperature"}
  timing              seconds and ms per step: wall clock, NOT reproducible (every other key is)
With --seeds or --ablation, instead of the curve and the single run's numbers:
  config.seeds        the seeds (config.seed is absent; with --ablation no config.placement)
  runs                per seed: seed, layer_grad_norms, first_last_ratio, window_ratios
                      ([{"steps", "first_last_ratio"}] for steps 1, 1–10, 1–N), eval_loss, accuracy
  spread              over the seeds, each {"n", "mean", "sd" (n − 1), "min", "max"}:
                      first_last_ratio (steps 1–N), windows ([{"steps", "first_last_ratio"}]),
                      layer_grad_norms (per layer); a ratio that is not finite is left out of n
  ablation            --ablation: per model {"key", "label", "placement", "normformer_parts",
                      "parameters", "runs", "spread"}

What the papers report, and what this model shows (first ÷ last, sort, 6 layers × 64, LayerNorm,
mean ± sd over seeds 1–10; seed 1 alone with the defaults: Post-LN 1.42, Pre-LN 1.72, NormFormer 3.01):
  setting               step 1        steps 1–10    steps 1–50
  Post-LN, uniform      1.05 ± .06    0.99 ± .07    1.38 ± .07
  Pre-LN, uniform       1.12 ± .07    1.14 ± .06    1.77 ± .09
  NormFormer, uniform   1.78 ± .13    1.88 ± .11    3.18 ± .19
  Post-LN, Xavier       1.11 ± .13    0.76 ± .11    1.12 ± .11
  Pre-LN, Xavier        1.46 ± .09    1.43 ± .08    1.80 ± .09
  NormFormer, Xavier    2.10 ± .15    1.85 ± .10    2.54 ± .14
- Pre-LN's early layers get the larger gradients (Shleifer et al. 2021; Xiong et al. 2020): here
  first ÷ last > 1 in every seed, growing with Xavier init and with training; "much larger"
  (≥ 2, the lab's threshold; "larger": ≥ 1.1) it is not.
- Post-LN's later layers get the larger gradients AT INITIALIZATION in Xiong et al. 2020 (Xavier
  init, mean-field theory). Here step 1 is flat; with --init xavier the later layers lead over
  steps 1–10 (0.76 ± .11; below 1 in 19 of 20 seeds, 0.58–1.02): an early-training
  effect, gone by step 50.
- NormFormer evens the layers out in Shleifer et al. 2021 (language models of 125 M–2.7 B
  parameters, pretraining). Not here, in any setting: NormFormer's ratio is larger than Pre-LN's
  in every seed. The ablation (--ablation --steps 1 --seeds 1-10) shows each added norm raising
  it: Pre-LN 1.12 ± .07, + FFN-activation norm 1.42 ± .05, + attention-output norm 1.78 ± .16,
  NormFormer 1.78 ± .13 (step 1).
Reproduce: normlab-cli depth --placement preln --seeds 1-10; normlab-cli depth --ablation --seeds 1-10.

Exit codes: 0 success; 2 bad option or text (one line on stderr names it).
)";

namespace {

// [SECTION] Options -------------------------------------------------------------------------

[[noreturn]] void bad(const std::string& message) { throw InputError(message); }

struct DepthOptions {
    DepthConfig config;
    std::optional<GenerateSpec> generate;
    std::vector<std::uint64_t> seeds;   // --seeds: one run per seed, reported with their spread
    bool ablation = false;              // --ablation: normformer_ablation()'s four models
    bool json = false;
};

constexpr long kMaxSeed = 9007199254740992L;   // 2^53: every seed is exact in the JSON
constexpr std::uint64_t kMaxSeedCount = 100;

// "--seeds 1-10" (A-B, A ≤ B), "--seeds 3" or "--seeds 1,4,7": at most kMaxSeedCount seeds.
std::vector<std::uint64_t> parse_seeds(const std::string& text) {
    const auto whole = [&](const std::string& t) -> std::uint64_t {
        std::size_t used = 0;
        unsigned long long v = 0;
        try {
            v = std::stoull(t, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (t.empty() || used != t.size() || !std::isdigit(static_cast<unsigned char>(t[0])) ||
            v > static_cast<unsigned long long>(kMaxSeed))
            bad("--seeds " + quote_for_message(text) + ": expected A-B, A or A,B,… with whole numbers 0 to 2^53");
        return v;
    };
    std::vector<std::uint64_t> seeds;
    if (const std::size_t dash = text.find('-'); dash != std::string::npos) {
        const std::uint64_t a = whole(text.substr(0, dash)), b = whole(text.substr(dash + 1));
        if (b < a) bad("--seeds " + quote_for_message(text) + ": the range ends before it starts");
        if (b - a >= kMaxSeedCount) bad("--seeds " + quote_for_message(text) + ": at most 100 seeds");
        for (std::uint64_t v = a; v <= b; ++v) seeds.push_back(v);
        return seeds;
    }
    for (std::size_t start = 0; start <= text.size();) {
        const std::size_t end = std::min(text.find(',', start), text.size());
        seeds.push_back(whole(text.substr(start, end - start)));
        start = end + 1;
    }
    if (seeds.size() > kMaxSeedCount) bad("--seeds " + quote_for_message(text) + ": at most 100 seeds");
    return seeds;
}

DepthOptions parse_options(const Args& args) {
    const Options opt("depth", args,
                      {{"placement", true}, {"norm", true},    {"residual-scale", false}, {"layers", true},
                       {"width", true},     {"heads", true},   {"init", true},            {"task", true},
                       {"length", true},    {"digits", true},  {"text", true},            {"units", true},
                       {"context", true},   {"steps", true},   {"lr", true},              {"batch", true},
                       {"eval-every", true}, {"seed", true},   {"generate", true},        {"prompt", true},
                       {"temperature", true}, {"json", false}, {"seeds", true}, {"ablation", false},
                       {"normformer-parts", true}, {"precision", true}});
    const bool ablation = opt.flag("ablation");
    const auto placement_name = opt.value("placement");
    if (ablation && placement_name) bad("--ablation trains its own models (Pre-LN to NormFormer): drop --placement");
    if (!placement_name && !ablation) bad("depth needs --placement (postln, preln, normformer)");
    const auto placement = ablation ? std::optional<NormPlacement>(NormPlacement::PreLN)
                                    : parse_norm_placement(*placement_name);
    if (!placement)
        bad("unknown --placement " + quote_for_message(*placement_name) + " (expected one of: postln, preln, normformer)");
    const Norm norm = opt.choice("norm",
        [](std::string_view n) -> std::optional<Norm> {
            const auto k = parse_norm(n);
            if (k == Norm::LayerNorm || k == Norm::RMSNorm) return k;
            return std::nullopt;
        },
        "layernorm, rmsnorm", Norm::LayerNorm);
    const bool text_file = opt.flag("text");
    TaskKind task = opt.choice("task", parse_task, "sort, copy, text", text_file ? TaskKind::Text : TaskKind::Sort);
    if (text_file && task != TaskKind::Text) bad("--text applies to --task text only");
    const auto seed = static_cast<std::uint64_t>(opt.integer("seed", 1, 0, kMaxSeed));  // up to 2^53

    DepthOptions o;
    DepthConfig& c = o.config;
    c = default_depth_config(task, *placement, norm, seed);
    if (task == TaskKind::Text) {
        for (const char* synthetic_only : {"length", "digits"})
            if (opt.flag(synthetic_only)) bad("--" + std::string(synthetic_only) + " applies to --task sort and copy only");
        c.task.text_path = opt.value("text").value_or("");
        if (text_file && c.task.text_path.empty()) bad("--text needs a file name");
        c.task.units = opt.choice("units", parse_text_units, "chars, bytes", TextUnits::CodePoints);
        c.task.context = static_cast<int>(opt.integer("context", c.task.context, kMinTextContext, kMaxTextContext));
    } else {
        for (const char* text_only : {"units", "context"})
            if (opt.flag(text_only)) bad("--" + std::string(text_only) + " applies to --task text only");
        c.task.length = static_cast<int>(opt.integer("length", c.task.length, 1, kMaxTaskLength));
        c.task.digits = static_cast<int>(opt.integer("digits", c.task.digits, 2, 10));
    }
    c.model.residual_scale = opt.flag("residual-scale");
    if (c.model.residual_scale && *placement != NormPlacement::NormFormer && !ablation)
        bad("--residual-scale applies to --placement normformer only");
    if (opt.flag("normformer-parts")) {
        if (*placement != NormPlacement::NormFormer || ablation)
            bad("--normformer-parts applies to --placement normformer only");
        c.model.normformer = opt.choice("normformer-parts", parse_normformer_parts,
                                        "attn_norm, ffn_norm, head_scale separated by commas, all, none", c.model.normformer);
    }
    c.model.init = opt.choice("init", parse_transformer_init, "uniform, xavier", c.model.init);
    c.precision = opt.choice("precision", parse_precision, "f32, f64", Precision::F64);
    c.model.layers = static_cast<int>(opt.integer("layers", c.model.layers, kMinLayers, kMaxLayers));
    c.model.width = opt.integer("width", c.model.width, kMinTransformerWidth, kMaxTransformerWidth);
    c.model.heads = static_cast<int>(opt.integer("heads", c.model.heads, 1, kMaxTransformerWidth));
    c.steps = static_cast<int>(opt.integer("steps", c.steps, 1, 1000000));
    c.batch_size = opt.integer("batch", c.batch_size, 1, 4096);
    c.eval_every = static_cast<int>(opt.integer("eval-every", c.eval_every, 1, 1000000));
    c.optimizer.lr = opt.number("lr", c.optimizer.lr);
    if (!(c.optimizer.lr > 0.0 && c.optimizer.lr <= 10.0)) bad("--lr = " + *opt.value("lr") + " must lie in (0, 10]");

    if (opt.flag("generate")) {
        GenerateSpec g;
        g.max_tokens = static_cast<int>(opt.integer("generate", 0, 0, 100000));
        g.prompt = opt.value("prompt").value_or("");
        if (task != TaskKind::Text && g.prompt.empty())
            bad("--generate with --task " + std::string(to_string(task)) + " needs --prompt, e.g. --prompt 314159|");
        g.temperature = opt.number("temperature", 0.8);
        if (g.temperature < 0.0) bad("--temperature = " + *opt.value("temperature") + " must be ≥ 0");
        g.seed = seed;
        o.generate = g;
    } else {
        for (const char* sampling_only : {"prompt", "temperature"})
            if (opt.flag(sampling_only)) bad("--" + std::string(sampling_only) + " applies with --generate only");
    }
    o.ablation = ablation;
    if (opt.flag("seeds")) {
        if (opt.flag("seed")) bad("--seed and --seeds together: give one");
        if (o.generate) bad("--generate applies to one run: drop --seeds");
        o.seeds = parse_seeds(*opt.value("seeds"));
    } else if (ablation) {
        if (o.generate) bad("--generate applies to one run: drop --ablation");
        o.seeds = {seed};
    }
    o.json = opt.flag("json");
    if (const std::string problem = validate(c); !problem.empty()) bad(problem);
    return o;
}

// [SECTION] Output (JSON and text) ----------------------------------------------------------

// Every setting in force ("config") and the task's facts ("task"), as the single run prints them.
std::pair<nlohmann::json, nlohmann::json> config_and_task_json(const DepthConfig& c, const SequenceTask& task) {
    using nlohmann::json;
    json cfg = {{"placement", to_string(c.model.placement)},
                {"norm", to_string(c.model.norm.norm)},
                {"eps", c.model.norm.eps},
                {"residual_scale", c.model.residual_scale},
                {"init", to_string(c.model.init)},
                {"layers", c.model.layers},
                {"width", c.model.width},
                {"heads", c.model.heads},
                {"ffn_width", kFfnMultiple * c.model.width},
                {"task", to_string(c.task.kind)},
                {"optimizer", to_string(c.optimizer.kind)},
                {"lr", c.optimizer.lr},
                {"steps", c.steps},
                {"batch", c.batch_size},
                {"eval_every", c.eval_every},
                {"eval_cases", c.eval_cases},
                {"seed", c.seed},
                {"precision", to_string(c.precision)}};
    if (c.model.normformer != NormFormerParts{}) cfg["normformer_parts"] = to_string(c.model.normformer);
    json t = {{"kind", to_string(c.task.kind)},
              {"vocab", task.vocabulary().size()},
              {"context", task.context()},
              {"source", task.source()}};
    if (task.synthetic()) {
        cfg["length"] = c.task.length;
        cfg["digits"] = c.task.digits;
    } else {
        cfg["units"] = to_string(c.task.units);
        cfg["context"] = c.task.context;
        t["train_symbols"] = task.train_ids().size();
        t["heldout_symbols"] = task.validation_ids().size();
    }
    return {std::move(cfg), std::move(t)};
}

nlohmann::json to_json(const DepthOptions& o, DepthTrainer& trainer, const DepthResult& r,
                       const std::optional<std::string>& sample) {
    using nlohmann::json;
    auto [cfg, t] = config_and_task_json(trainer.config(), trainer.task());

    json curve = json::array();
    const DepthHistory& h = r.history;
    std::size_t e = 0;
    for (std::size_t s = 0; s < h.train_loss.size(); ++s) {
        json grads = json::array();
        for (const std::vector<double>& g : h.ffn_grad) grads.push_back(g[s]);
        json point = {{"step", s + 1}, {"loss", h.train_loss[s]}, {"accuracy", h.train_accuracy[s]},
                      {"layer_grads", std::move(grads)}};
        if (e < h.eval_step.size() && static_cast<std::size_t>(h.eval_step[e]) == s + 1) {
            point["eval_loss"] = h.eval[e].loss;
            point["eval_accuracy"] = h.eval[e].accuracy;
            if (h.eval[e].sequence_accuracy) point["eval_sequence_accuracy"] = *h.eval[e].sequence_accuracy;
            ++e;
        }
        curve.push_back(std::move(point));
    }

    json out = {{"config", std::move(cfg)},
                {"task", std::move(t)},
                {"parameters", trainer.parameter_count()},
                {"layer_grad_norms", r.layer_grad_means},
                {"first_last_ratio", r.first_last_ratio},
                {"curve", std::move(curve)},
                {"eval_loss", r.final.loss},
                {"accuracy", r.final.accuracy}};
    if (r.final.sequence_accuracy) out["sequence_accuracy"] = *r.final.sequence_accuracy;
    if (sample)
        out["sample"] = {{"prompt", o.generate->prompt}, {"text", *sample}, {"temperature", o.generate->temperature}};
    const double steps = static_cast<double>(h.train_loss.size());
    out["timing"] = {{"seconds", r.seconds}, {"eval_seconds", r.eval_seconds}, {"ms_per_step", 1e3 * r.step_seconds / steps}};
    return out;
}

// Text safe for a terminal: valid UTF-8 and newlines and tabs kept; control bytes, DEL and bytes
// that are not UTF-8 (a byte-level sample makes any) written \xNN, and a backslash \\.
std::string printable(const std::string& s) {
    std::string out;
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t start = i;
        char32_t cp = 0;
        if (!next_utf8(s, i, cp) || (cp < 0x20 && cp != '\n' && cp != '\t') || cp == 0x7F) {
            static const char* digits = "0123456789abcdef";
            const auto b = static_cast<unsigned char>(s[start]);
            out += "\\x";
            out += digits[b >> 4];
            out += digits[b & 15];
            i = start + 1;
        } else if (cp == '\\') {
            out += "\\\\";
        } else {
            out.append(s, start, i - start);
        }
    }
    return out;
}

// "normlab-cli depth: Pre-LN, LayerNorm, 6 layers × 64 wide, 4 heads, uniform ±1/√n init; task sort, 50 Adam
// steps of 32, lr 0.001, seed 1" (what: the placement's name; seeds: "seed 1" or "seeds 1–10").
void print_heading(const nlohmann::json& cfg, const std::string& what, const std::string& seeds) {
    std::cout << "normlab-cli depth: " << what << ", " << display_name(*parse_norm(cfg["norm"].get<std::string>()))
              << ", " << cfg["layers"] << " layers × " << cfg["width"] << " wide, " << cfg["heads"] << " heads, "
              << display_name(*parse_transformer_init(cfg["init"].get<std::string>())) << " init; task "
              << cfg["task"].get<std::string>() << ", " << cfg["steps"] << " Adam steps of " << cfg["batch"] << ", lr "
              << cfg["lr"] << ", " << seeds << (cfg["precision"] == "f32" ? ", float32" : "");
}

void print_text(const nlohmann::json& j) {
    const auto& cfg = j["config"];
    print_heading(cfg, std::string(display_name(*parse_norm_placement(cfg["placement"].get<std::string>()))),
                  "seed " + cfg["seed"].dump());
    std::cout << "\n\nmean |∂L/∂W₂| of each layer's FFN output weights, averaged over the steps:\n";
    const auto& g = j["layer_grad_norms"];
    double top = 0.0;
    for (const auto& v : g) top = std::max(top, v.get<double>());
    for (std::size_t l = 0; l < g.size(); ++l) {
        const double v = g[l].get<double>();
        const int bar = top > 0.0 ? static_cast<int>(std::lround(40.0 * v / top)) : 0;
        std::printf("  layer %2zu  %.4e  %s\n", l + 1, v, std::string(static_cast<std::size_t>(bar), '#').c_str());
    }
    std::printf("\nfirst/last: %.3f\n", j["first_last_ratio"].is_number() ? j["first_last_ratio"].get<double>() : NAN);
    const auto& curve = j["curve"];
    std::printf("loss: %.4f (step 1) -> %.4f (step %zu)\n", curve.front()["loss"].get<double>(),
                curve.back()["loss"].get<double>(), curve.size());
    std::printf("held out: loss %.4f, accuracy %.2f%%", j["eval_loss"].get<double>(), 100.0 * j["accuracy"].get<double>());
    if (j.contains("sequence_accuracy"))
        std::printf(", whole answers %.2f%%", 100.0 * j["sequence_accuracy"].get<double>());
    std::printf("\ntime: %.3f s (%.2f ms per step)\n", j["timing"]["seconds"].get<double>(),
                j["timing"]["ms_per_step"].get<double>());
    if (j.contains("sample"))
        std::cout << "\nsample: " << printable(j["sample"]["prompt"].get<std::string>())
                  << printable(j["sample"]["text"].get<std::string>()) << '\n';
}

// [SECTION] Over seeds and the ablation ----------------------------------------------------

// The first steps over which first ÷ last is reported: 1, 10 and all N (those ≤ N, once each).
std::vector<int> ratio_windows(int steps) {
    std::vector<int> w{1};
    if (steps > 10) w.push_back(10);
    if (steps > 1) w.push_back(steps);
    return w;
}

nlohmann::json spread_json(const Spread& s) {
    return {{"n", s.n}, {"mean", s.mean}, {"sd", s.sd}, {"min", s.min}, {"max", s.max}};
}

// The finite values only (a last layer of 0 gives no ratio); their count is the spread's n.
Spread finite_spread(const std::vector<double>& values) {
    std::vector<double> finite;
    for (double v : values)
        if (std::isfinite(v)) finite.push_back(v);
    return spread_of(finite);
}

// One setting over the seeds: "runs" (per seed) and "spread" (over them) of the measure.
nlohmann::json seeds_json(const std::vector<std::uint64_t>& seeds, const std::vector<DepthResult>& runs, int steps) {
    using nlohmann::json;
    const std::vector<int> windows = ratio_windows(steps);
    json per_seed = json::array();
    std::vector<std::vector<double>> ratios(windows.size()), layers;
    for (std::size_t k = 0; k < runs.size(); ++k) {
        const DepthResult& r = runs[k];
        json w = json::array();
        for (std::size_t i = 0; i < windows.size(); ++i) {
            const double ratio = window_ratio(r.history, windows[i]);
            ratios[i].push_back(ratio);
            w.push_back({{"steps", windows[i]}, {"first_last_ratio", ratio}});
        }
        layers.resize(r.layer_grad_means.size());
        for (std::size_t l = 0; l < r.layer_grad_means.size(); ++l) layers[l].push_back(r.layer_grad_means[l]);
        json run = {{"seed", seeds[k]},          {"layer_grad_norms", r.layer_grad_means},
                    {"first_last_ratio", r.first_last_ratio}, {"window_ratios", std::move(w)},
                    {"eval_loss", r.final.loss}, {"accuracy", r.final.accuracy}};
        if (r.final.sequence_accuracy) run["sequence_accuracy"] = *r.final.sequence_accuracy;
        per_seed.push_back(std::move(run));
    }
    json windows_json = json::array(), layers_json = json::array();
    for (std::size_t i = 0; i < windows.size(); ++i)
        windows_json.push_back({{"steps", windows[i]}, {"first_last_ratio", spread_json(finite_spread(ratios[i]))}});
    for (const std::vector<double>& l : layers) layers_json.push_back(spread_json(spread_of(l)));
    return {{"runs", std::move(per_seed)},
            {"spread", {{"first_last_ratio", windows_json.back()["first_last_ratio"]},
                        {"windows", std::move(windows_json)},
                        {"layer_grad_norms", std::move(layers_json)}}}};
}

// "1–10" for consecutive seeds, else "1, 4, 7".
std::string seeds_text(const std::vector<std::uint64_t>& seeds) {
    bool consecutive = true;
    for (std::size_t k = 1; k < seeds.size(); ++k) consecutive = consecutive && seeds[k] == seeds[k - 1] + 1;
    if (seeds.size() > 1 && consecutive) return std::to_string(seeds.front()) + "–" + std::to_string(seeds.back());
    std::string out;
    for (std::uint64_t v : seeds) out += (out.empty() ? "" : ", ") + std::to_string(v);
    return out;
}

// The spread_json of a spread as text: spread_text (models/depth.hpp).
std::string spread_text(const nlohmann::json& s) {
    return normlab::spread_text({s["n"].get<int>(), s["mean"].get<double>(), s["sd"].get<double>(),
                                 s["min"].get<double>(), s["max"].get<double>()});
}

// text and spaces up to `width` characters (UTF-8: continuation bytes take no column).
std::string padded(const std::string& text, std::size_t width) {
    std::size_t columns = 0;
    for (char c : text) columns += !is_utf8_continuation(c);
    return text + std::string(width > columns ? width - columns : 0, ' ');
}

// A table of first ÷ last: one row per line, one column per window.
void print_ratio_table(const std::vector<std::pair<std::string, std::vector<std::string>>>& rows,
                       const std::vector<int>& windows, std::size_t label_width) {
    std::string line = "  " + padded("", label_width);
    for (int w : windows) line += "  " + padded(w == 1 ? "step 1" : "steps 1–" + std::to_string(w), 24);
    const auto print = [](std::string& l) { std::cout << l.erase(l.find_last_not_of(' ') + 1) << '\n'; };
    print(line);
    for (const auto& [label, cells] : rows) {
        line = "  " + padded(label, label_width);
        for (const std::string& c : cells) line += "  " + padded(c, 24);
        print(line);
    }
}

std::vector<std::string> spread_cells(const nlohmann::json& spread) {
    std::vector<std::string> cells;
    for (const auto& w : spread["windows"]) cells.push_back(spread_text(w["first_last_ratio"]));
    return cells;
}

void print_seeds_text(const nlohmann::json& j, const std::vector<std::uint64_t>& seeds) {
    const auto& cfg = j["config"];
    const std::vector<int> windows = ratio_windows(cfg["steps"].get<int>());
    const bool ablation = j.contains("ablation");
    print_heading(cfg, ablation ? "NormFormer ablation"
                                : std::string(display_name(*parse_norm_placement(cfg["placement"].get<std::string>()))),
                  (seeds.size() == 1 ? "seed " : "seeds ") + seeds_text(seeds));
    std::cout << "\n\nfirst ÷ last layer's mean |∂L/∂W₂| over the first steps; mean ± sd (min–max) over "
              << seeds.size() << (seeds.size() == 1 ? " seed" : " seeds") << ":\n";
    std::vector<std::pair<std::string, std::vector<std::string>>> rows;
    if (ablation) {
        for (const auto& v : j["ablation"]) rows.emplace_back(v["label"].get<std::string>(), spread_cells(v["spread"]));
        print_ratio_table(rows, windows, 24);
        return;
    }
    for (const auto& r : j["runs"]) {
        std::vector<std::string> cells;
        for (const auto& w : r["window_ratios"]) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.3f", w["first_last_ratio"].is_number() ? w["first_last_ratio"].get<double>() : NAN);
            cells.emplace_back(buf);
        }
        rows.emplace_back("seed " + r["seed"].dump(), std::move(cells));
    }
    rows.emplace_back("over seeds", spread_cells(j["spread"]));
    print_ratio_table(rows, windows, 12);
}

// --seeds or --ablation: every model over every seed, then the JSON or the tables.
int run_seeds(const DepthOptions& o) {
    using nlohmann::json;
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<DepthVariant> variants = normformer_ablation();
    if (!o.ablation)
        variants = {{std::string(to_string(o.config.model.placement)), "", o.config.model.placement, o.config.model.normformer}};
    json out, ablation = json::array();
    for (const DepthVariant& v : variants) {
        DepthConfig c = o.ablation ? with_variant(o.config, v) : o.config;
        c.seed = o.seeds.front();
        DepthTrainer first(c);   // the task's facts and the parameter count (InputError for a bad text)
        auto [cfg, t] = config_and_task_json(c, first.task());
        cfg.erase("seed");
        cfg["seeds"] = o.seeds;
        json result = seeds_json(o.seeds, run_depth_seeds(c, o.seeds), c.steps);
        result["parameters"] = first.parameter_count();
        if (!o.ablation) {
            out = {{"config", std::move(cfg)}, {"task", std::move(t)}};
            out.update(result);
            break;
        }
        if (out.empty()) {
            cfg.erase("placement");
            cfg.erase("normformer_parts");
            out = {{"config", std::move(cfg)}, {"task", std::move(t)}};
        }
        result["key"] = v.key;
        result["label"] = v.label;
        result["placement"] = to_string(v.placement);
        result["normformer_parts"] = v.placement == NormPlacement::NormFormer ? to_string(v.parts) : "none";
        ablation.push_back(std::move(result));
    }
    if (o.ablation) out["ablation"] = std::move(ablation);
    out["timing"] = {{"seconds", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()}};
    if (o.json)
        std::cout << out.dump(-1, ' ', false, json::error_handler_t::replace) << '\n';
    else
        print_seeds_text(out, o.seeds);
    return 0;
}

}  // namespace

int run_depth(const Args& args) {
    const DepthOptions o = parse_options(args);
    if (!o.seeds.empty()) return run_seeds(o);
    DepthTrainer trainer(o.config);  // InputError for an unreadable file, bad UTF-8, a short text
    std::optional<std::string> sample;
    if (o.generate) trainer.task().vocabulary().encode(o.generate->prompt, "the prompt");  // before training
    const DepthResult r = run_to_end(trainer);
    if (o.generate) sample = trainer.generate(*o.generate);
    const nlohmann::json j = to_json(o, trainer, r, sample);
    if (o.json)
        // Byte-level samples need not be valid UTF-8: such bytes become U+FFFD in the output.
        std::cout << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    else
        print_text(j);
    return 0;
}

}  // namespace normlab::cli
