// NormLab core: the Depth lab's state (its scene JSON, the runs it configures) and queries of
// its snapshots. The engine: depth_engine.cpp; claims: depth_claims.cpp; figures: depth_figures.cpp.
#include "normlab/labs/depth_lab.hpp"

#include "normlab/base/input_error.hpp"
#include "normlab/labs/state_json.hpp"
#include "labs/depth_lab_internal.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <utility>

namespace normlab {

// [SECTION] State ---------------------------------------------------------------------------

bool operator==(const DepthLabState& a, const DepthLabState& b) {
    using namespace depth_internal;
    return model_fields(a) == model_fields(b) && training_fields(a) == training_fields(b) &&
           claims_fields(a) == claims_fields(b) && display_fields(a) == display_fields(b) &&
           sweep_fields(a) == sweep_fields(b) && sample_fields(a) == sample_fields(b);
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
// [SECTION] Snapshot helpers ----------------------------------------------------------------

const DepthRunView* find_run(const DepthLabSnapshot& s, int p) {
    for (const DepthRunView& r : s.runs)
        if (r.placement == p) return &r;
    return nullptr;
}

namespace depth_internal {
double tail_mean(const std::vector<double>& losses) {
    const std::size_t tail = std::min<std::size_t>(kDepthSweepTail, losses.size());
    double sum = 0.0;
    for (std::size_t i = losses.size() - tail; i < losses.size(); ++i) sum += losses[i];
    return sum / static_cast<double>(tail);
}
}  // namespace depth_internal

using depth_internal::tail_mean;

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

}  // namespace normlab
