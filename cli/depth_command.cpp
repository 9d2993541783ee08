// `normlab-cli depth`: trains the depth lab's small transformer with Post-LN, Pre-LN or NormFormer
// blocks and prints, per layer, NormFormer's gradient measure (the mean |∂L/∂W₂| of the FFN output
// weights, averaged over the run's steps) and the loss curve. The task, model and trainer are
// core's (normlab/sequence_tasks.hpp, transformer.hpp, depth.hpp); this file parses the options
// and writes the result.
//
// [SECTION] Help
// [SECTION] Options
// [SECTION] Output (JSON and text)
#include "commands.hpp"
#include "options.hpp"

#include "normlab/models/depth.hpp"
#include "normlab/norm/eval.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>

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

Measured with the defaults (sort, 6 layers, width 64, 50 steps, seed 1, LayerNorm): first/last
ratios Post-LN 1.42, Pre-LN 1.72, NormFormer 3.01. Pre-LN gives the first layers the larger
gradients (Xiong et al. 2020); Post-LN's ratio starts near 1 here and grows while training.
With --init xavier --steps 10, Post-LN's ratio is 0.69 (uniform: 1.03), the later layers' larger
gradients that Xiong et al. describe; Pre-LN's 1.43 (uniform: 1.13).

Exit codes: 0 success; 2 bad option or text (one line on stderr names it).
)";

namespace {

// [SECTION] Options -------------------------------------------------------------------------

[[noreturn]] void bad(const std::string& message) { throw InputError(message); }

struct DepthOptions {
    DepthConfig config;
    std::optional<GenerateSpec> generate;
    bool json = false;
};

DepthOptions parse_options(const Args& args) {
    const Options opt("depth", args,
                      {{"placement", true}, {"norm", true},    {"residual-scale", false}, {"layers", true},
                       {"width", true},     {"heads", true},   {"init", true},            {"task", true},
                       {"length", true},    {"digits", true},  {"text", true},            {"units", true},
                       {"context", true},   {"steps", true},   {"lr", true},              {"batch", true},
                       {"eval-every", true}, {"seed", true},   {"generate", true},        {"prompt", true},
                       {"temperature", true}, {"json", false}});
    const auto placement_name = opt.value("placement");
    if (!placement_name) bad("depth needs --placement (postln, preln, normformer)");
    const auto placement = parse_norm_placement(*placement_name);
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
    const auto seed = static_cast<std::uint64_t>(opt.integer("seed", 1, 0, 9007199254740992L));  // up to 2^53

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
    if (c.model.residual_scale && *placement != NormPlacement::NormFormer)
        bad("--residual-scale applies to --placement normformer only");
    c.model.init = opt.choice("init", parse_transformer_init, "uniform, xavier", c.model.init);
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
    o.json = opt.flag("json");
    if (const std::string problem = validate(c); !problem.empty()) bad(problem);
    return o;
}

// [SECTION] Output (JSON and text) ----------------------------------------------------------

nlohmann::json to_json(const DepthOptions& o, DepthTrainer& trainer, const DepthResult& r,
                       const std::optional<std::string>& sample) {
    using nlohmann::json;
    const DepthConfig& c = trainer.config();
    const SequenceTask& task = trainer.task();
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
                {"seed", c.seed}};
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
                {"parameters", trainer.model().parameter_count()},
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
    const auto hex = [&](unsigned char b) {
        static const char* digits = "0123456789abcdef";
        out += "\\x";
        out += digits[b >> 4];
        out += digits[b & 15];
    };
    for (std::size_t i = 0; i < s.size();) {
        const auto b = static_cast<unsigned char>(s[i]);
        std::size_t n = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
        for (std::size_t k = 1; n > 1 && k < n; ++k)
            if (i + k >= s.size() || (static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) n = 0;
        if (n == 1 && b == '\\') {
            out += "\\\\";
        } else if (n == 1 && ((b < 0x20 && b != '\n' && b != '\t') || b == 0x7F)) {
            hex(b);
        } else if (n == 0) {
            hex(b);
            n = 1;
        } else {
            out.append(s, i, n);
        }
        i += n;
    }
    return out;
}

void print_text(const nlohmann::json& j) {
    const auto& cfg = j["config"];
    std::cout << "normlab-cli depth: " << display_name(*parse_norm_placement(cfg["placement"].get<std::string>())) << ", "
              << display_name(*parse_norm(cfg["norm"].get<std::string>())) << ", " << cfg["layers"] << " layers × "
              << cfg["width"] << " wide, " << cfg["heads"] << " heads, "
              << display_name(*parse_transformer_init(cfg["init"].get<std::string>())) << " init; task "
              << cfg["task"].get<std::string>() << ", " << cfg["steps"] << " Adam steps of " << cfg["batch"] << ", lr "
              << cfg["lr"] << ", seed " << cfg["seed"]
              << "\n\nmean |∂L/∂W₂| of each layer's FFN output weights, averaged over the steps:\n";
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

}  // namespace

int run_depth(const Args& args) {
    const DepthOptions o = parse_options(args);
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
