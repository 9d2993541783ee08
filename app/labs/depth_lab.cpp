// The Depth lab (see depth_lab.hpp).
//
// [SECTION] Actions         — play/pause, step, reset, norm, new samples, evolution view (keys Space S R N G E)
// [SECTION] The run         — the worker: given the settings once no widget is active; paced or scripted
// [SECTION] Figures         — built from the latest snapshot, rebuilt only when it or a display setting changes
// [SECTION] Controls panel  — run, task, model, training, gradient measure, sweep
// [SECTION] Claims panel    — the papers' claims, their conditions and ours, the verdicts
// [SECTION] Figures panel   — loss, per-layer bars, evolution, learning-rate sweep
// [SECTION] Samples panel   — the prompt, the temperature, and each model's continuations
// [SECTION] The lab window
//
// Scripted runs (--frames N, AppInfo::scripted): the lab plays from its first frame and the worker
// does exactly kScriptedUnitsPerFrame units of work per frame (a unit: one step of every run, one
// run's samples, or one step of the sweep); each frame waits for that snapshot (the worker is
// joined to the work count), so a screenshot after N frames shows the same numbers every time.
// Interactive runs never wait: the worker trains as fast as it can and the frame shows the latest
// snapshot.
#include "depth_lab.hpp"

#include "ui_util.hpp"

#include <normlab/base/data_files.hpp>
#include <normlab/scene/session.hpp>

#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace normlab::ui {

namespace {

constexpr int kScriptedUnitsPerFrame = 2;

ImVec4 to_vec4(Color c) { return ImVec4(c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, 1.0f); }

std::string placement_name(int p) { return std::string(display_name(kAllNormPlacements[p])); }

// "12.5%": a fraction as a percentage with at most one decimal.
std::string percent(double f) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g%%", 100.0 * f);
    return buf;
}

// Whether everything Play trains is trained (advance would find no work) and nothing failed.
bool run_done(const DepthLabSnapshot* snap) { return snap != nullptr && !snap->busy && snap->error.empty(); }

// [SECTION] Actions -------------------------------------------------------------------------

enum ActionIndex { kPlay, kStep, kReset, kNorm, kNewSamples, kEvolution, kActionCount };

const Action<DepthContext> kActions[kActionCount] = {
    {tr_later("Play / pause"), {' '}, nullptr,
     tr_later("Train every ticked placement one step each in turn until the steps are done, then the learning-rate sweep, "
     "then the claims' extra seeds; "
     "changed settings train on at once. Press again to pause."),
     [](DepthContext& ctx) {
         DepthUi& ui = ctx.ui;
         if (run_done(ui.shown.get())) {   // "Play again": from step 0
             if (ui.worker) ui.worker->restart();
             ui.playing = true;
             return;
         }
         ui.playing = !ui.playing;
     }},
    {tr_later("Step"), {'S'}, nullptr, tr_later("Pause, then train every ticked placement one more mini-batch step."),
     [](DepthContext& ctx) {
         DepthUi& ui = ctx.ui;
         ui.playing = false;
         if (ui.worker) ui.worker->step();
     }},
    {tr_later("Reset"), {'R'}, nullptr,
     tr_later("Back to step 0, paused, and the sweep too: the same seed gives the same data and initial weights, so the "
     "same numbers again."),
     [](DepthContext& ctx) {
         DepthUi& ui = ctx.ui;
         ui.playing = false;
         if (ui.worker && !ui.worker->failure().empty()) ui.worker.reset();   // stopped for good: a new one
         else if (ui.worker) ui.worker->restart();
     }},
    {"LayerNorm ⇄ RMSNorm", {'N'}, nullptr, tr_later("Switch every norm of every model between LayerNorm and RMSNorm; the runs start again."),
     [](DepthContext& ctx) {
         DepthLabState& s = ctx.session.depth;
         s.norm = s.norm == Norm::LayerNorm ? Norm::RMSNorm : Norm::LayerNorm;
     }},
    {tr_later("New samples"), {'G'}, nullptr, tr_later("Draw new samples from the same models (the next sampling seed)."),
     [](DepthContext& ctx) { ++ctx.session.depth.sample_seed; }},
    {tr_later("Next view"), {'E'}, nullptr, tr_later("Show the next placement's layers over the steps, or first ÷ last of every placement."),
     [](DepthContext& ctx) {
         DepthLabState& s = ctx.session.depth;
         s.evolution = (s.evolution + 1) % (kDepthEvolutionRatio + 1);
     }},
};

Actions<DepthContext> depth_lab_actions() { return all_actions(kActions); }

// [SECTION] The run -------------------------------------------------------------------------

// Starts the worker, hands it changed settings once no widget is being dragged or typed in (a
// slider drag is one restart), passes play/pause on, and takes the latest snapshot.
void sync_worker(const DepthLabState& s, DepthUi& ui, bool scripted) {
    if (!ui.worker) {
        ui.worker = std::make_unique<DepthLabWorker>(s);
        ui.sent = s;
    } else if (s != ui.sent && !ImGui::IsAnyItemActive()) {
        ui.worker->configure(s);
        ui.sent = s;
    }
    if (scripted) {
        if (ui.playing) ui.worker->wait_for(ui.worker->advance(kScriptedUnitsPerFrame));
    } else if (ui.playing != ui.worker->playing()) {
        ui.playing ? ui.worker->play() : ui.worker->pause();
    }
    if (std::shared_ptr<const DepthLabSnapshot> latest = ui.worker->latest()) ui.shown = std::move(latest);
    ui.failure = ui.worker->failure();   // out of memory: the run stops, the session stays
    if (!ui.failure.empty()) ui.playing = false;
}

// [SECTION] Figures -------------------------------------------------------------------------

DepthFigures build_figures(const DepthLabSnapshot& s) {
    return {normlab::depth_lab_plots(s), depth_claims(s), depth_conditions(s)};
}

// The figures of ui.shown with the session's display settings (they reach the worker's snapshots
// only after the unit in progress; the figures follow them at once).
const DepthFigures& current_figures(const DepthLabState& s, DepthUi& ui) {
    if (!ui.shown) return ui.figures.value;
    return ui.figures.get({ui.shown, s.measure_steps, s.evolution}, [&] {
        if (ui.shown->state.measure_steps == s.measure_steps && ui.shown->state.evolution == s.evolution)
            return build_figures(*ui.shown);
        DepthLabSnapshot shown = *ui.shown;
        shown.state.measure_steps = s.measure_steps;
        shown.state.evolution = s.evolution;
        return build_figures(shown);
    });
}

// [SECTION] Controls panel ------------------------------------------------------------------

float half_width() { return std::floor(0.5f * (ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x)); }

// A slider over a list of choices, showing the value ("width 64").
template <std::size_t N>
void choice_slider(const char* id, int& v, const std::array<int, N>& choices, const char* name, float width,
                   const char* help) {
    int i = static_cast<int>(std::find(choices.begin(), choices.end(), v) - choices.begin());
    i = std::min(i, static_cast<int>(N) - 1);
    const std::string text = tr(name, choices[static_cast<std::size_t>(i)]);   // name: "width {0}"
    ImGui::SetNextItemWidth(width);
    if (ImGui::SliderInt(id, &i, 0, static_cast<int>(N) - 1, text.c_str(), ImGuiSliderFlags_NoInput))
        v = choices[static_cast<std::size_t>(i)];
    tooltip(help);
}

// The step every run has reached, and whether all are done.
struct Progress {
    int step = 0;
    bool done = false;
};

Progress run_progress(const DepthLabSnapshot* snap) {
    Progress p;
    if (snap == nullptr || snap->runs.empty()) return p;
    p.step = snap->runs.front().run.step;
    p.done = true;
    for (const DepthRunView& r : snap->runs) {
        p.step = std::min(p.step, r.run.step);
        p.done = p.done && r.done();
    }
    return p;
}

void draw_run_section(DepthContext& ctx, DepthLabState& s, DepthUi& ui, const Fonts& fonts) {
    heading(fonts.heading, tr("Run"));
    action_button(ctx, kActions[kPlay], run_button_label(ui.playing, run_done(ui.shown.get())));
    ImGui::SameLine();
    action_button(ctx, kActions[kStep]);
    ImGui::SameLine();
    action_button(ctx, kActions[kReset]);

    const DepthLabSnapshot* snap = ui.shown.get();
    const Progress p = run_progress(snap);
    std::string text = p.done ? tr("step {0} / {1}  (done)", p.step, s.steps) : tr("step {0} / {1}", p.step, s.steps);
    if (snap != nullptr && !snap->error.empty()) text = tr("no run");
    ImGui::ProgressBar(static_cast<float>(p.step) / static_cast<float>(std::max(1, s.steps)), ImVec2(-1.0f, 0.0f),
                       text.c_str());
    tooltip(tr("Optimizer steps done by every ticked placement, of the steps set below (each step: one mini-batch of 32 "
            "problems or text windows per placement, Adam)."));
    const int done = snap != nullptr ? sweep_done(*snap) : 0;
    const int total = snap != nullptr ? static_cast<int>(snap->sweep.size()) : 0;
    const std::string sweep = tr("sweep {0} / {1} trainings", done, total);
    ImGui::ProgressBar(total > 0 ? static_cast<float>(done) / static_cast<float>(total) : 0.0f, ImVec2(-1.0f, 0.0f),
                       sweep.c_str());
    tooltip(tr("The learning-rate sweep's short trainings done (one per learning rate and placement, two rates' placements "
            "side by side); it runs once the runs above are done, while playing."));
    const int seeds_done = snap != nullptr ? seed_runs_done(*snap) : 0;
    const int seeds_total = snap != nullptr ? static_cast<int>(snap->seed_runs.size()) : 0;
    const std::string seeds = tr("seeds {0} / {1} runs", seeds_done, seeds_total);
    ImGui::ProgressBar(seeds_total > 0 ? static_cast<float>(seeds_done) / static_cast<float>(seeds_total) : 1.0f,
                       ImVec2(-1.0f, 0.0f), seeds.c_str());
    tooltip(tr("The claims' extra seeds: every ticked placement again with each further seed (two seeds' placements side "
            "by side), over the steps the measure averages; they train once the sweep is done, and the claims' "
            "verdicts stay provisional until they are."));
    worker_failure_line(ui.failure);
    if (snap != nullptr && ui.playing && !snap->busy && snap->error.empty()) {
        ImGui::TextDisabled("%s", tr("all trained: raise the steps to go on"));
        tooltip(tr("Every run has its steps and the sweep is done. More steps continue the runs; any other setting "
                "trains again from step 0."));
    }
    if (snap != nullptr && !snap->runs.empty()) {
        double seconds = 0.0;
        int steps = 0;
        for (const DepthRunView& r : snap->runs) {
            seconds += r.run.step_seconds;
            steps += r.run.step;
        }
        if (steps > 0) {
            ImGui::TextDisabled(tr("%.0f ms per step and placement"), 1e3 * seconds / steps);
            tooltip(tr("Wall-clock time of one training step of one model on this CPU (double precision, no GPU); the "
                    "numbers themselves do not depend on it."));
        }
    }
}

void draw_task_section(DepthLabState& s, DepthUi& ui, const Fonts& fonts) {
    heading(fonts.heading, tr("Task"));
    const struct {
        TaskKind kind;
        const char* label;
        const char* help;
    } tasks[] = {{TaskKind::Sort, tr("Sort"), tr("Sort 6 digits 0–9: “314159|113459”; scored on the 6 answer digits. Learns in a "
                                          "few dozen steps.")},
                 {TaskKind::Copy, tr("Copy"), tr("Copy 6 digits 0–9: “314159|314159”; scored on the 6 answer digits.")},
                 {TaskKind::Text, tr("Text"), tr("Character-level language modelling on a UTF-8 text (the bundled "
                                          "lighthouse.txt, or your file): windows of 32 characters, the last 10% "
                                          "held out.")}};
    for (const auto& t : tasks) {
        if (&t != tasks) ImGui::SameLine();
        if (ImGui::RadioButton((std::string(t.label) + "###task" + std::to_string(static_cast<int>(t.kind))).c_str(),
                               s.task == t.kind))
            s.task = t.kind;
        tooltip(t.help);
    }
    if (s.task != TaskKind::Text) return;
    const char* bundled = tr("Bundled###bundled");
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - button_width(bundled) - ImGui::GetStyle().ItemSpacing.x);
    if (text_field("##text_path", tr("bundled lighthouse.txt"), ui.text_path, s.text_path)) {
        if (ui.text_path.text != s.text_path) agree_to_read(ui.text_path.text);   // typed: the user's own choice
        s.text_path = ui.text_path.text;
    }
    tooltip(tr("A UTF-8 text file to learn from (at least a few hundred characters); Enter reads it. Empty: the bundled "
            "lighthouse.txt (4 KB of public-domain prose)."));
    ImGui::SameLine();
    if (ImGui::Button(bundled)) s.text_path.clear();
    tooltip(tr("Learn from the bundled lighthouse.txt again."));
    const DepthLabSnapshot* snap = ui.shown.get();
    if (snap != nullptr && snap->error.empty() && snap->vocab > 0 && snap->state.task == TaskKind::Text) {
        const std::size_t slash = snap->source.find_last_of('/');
        ImGui::TextDisabled(tr("%s: %d symbols"), snap->source.substr(slash == std::string::npos ? 0 : slash + 1).c_str(),
                            snap->vocab);
        tooltip(snap->source.c_str());
    }
}

// NormFormer's additions to Pre-LN, each on or off (the ablation): which of them raises first ÷ last.
void draw_normformer_parts(DepthLabState& s) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("NormFormer:");
    const struct {
        bool NormFormerParts::*part;
        const char* label;
        const char* help;
    } parts[] = {{&NormFormerParts::attn_norm, tr("attn norm###attn_norm"),
                  tr("The norm on the attention output, h = x + LN(Attn(LN(x))). Off and on: how much of NormFormer's "
                  "first ÷ last it makes (normlab-cli depth --ablation).")},
                 {&NormFormerParts::ffn_norm, tr("FFN norm###ffn_norm"),
                  tr("The norm on the FFN's 4d GELU activations, W₂ LN(GELU(W₁ x)). Off and on: how much of NormFormer's "
                  "first ÷ last it makes.")},
                 {&NormFormerParts::head_scale, "γ",
                  tr("A learned scale per attention head (init 1: no effect at the first step).")}};
    const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    for (const auto& p : parts) {
        same_line_if_fits(ImGui::GetFrameHeight() + ImGui::CalcTextSize(p.label).x + 2.0f * ImGui::GetStyle().ItemInnerSpacing.x, right);
        ImGui::Checkbox(p.label, &(s.normformer.*p.part));
        tooltip((std::string(p.help) + " " + tr("All off: Pre-LN exactly. The NormFormer run starts again.")).c_str());
    }
}

void draw_model_section(DepthLabState& s, const Fonts& fonts) {
    heading(fonts.heading, tr("Model"));
    static_assert(kDepthPlacementCount == 3, "one help text per placement");
    const char* const help[kDepthPlacementCount] = {
        tr("Post-LN (the original Transformer): the norm after each residual sum, x = LN(x + Attn(x)), x = LN(x + FFN(x))."),
        tr("Pre-LN: the norm inside each residual branch, x = x + Attn(LN(x)), x = x + FFN(LN(x)), and a final LN."),
        tr("NormFormer: Pre-LN plus a norm after attention, a norm after the FFN's GELU and a learned scale per head.")};
    const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    for (int p = 0; p < kDepthPlacementCount; ++p) {
        const std::string name = placement_name(p);
        const float w = 0.8f * ImGui::GetFontSize() + ImGui::GetFrameHeight() + ImGui::CalcTextSize(name.c_str()).x +
                        3.0f * ImGui::GetStyle().ItemInnerSpacing.x;
        if (p > 0) same_line_if_fits(w, right);
        ImGui::BeginGroup();
        swatch(depth_placement_color(p));
        ImGui::Checkbox(name.c_str(), &s.placements[static_cast<std::size_t>(p)]);
        ImGui::EndGroup();
        tooltip(help[p]);
    }
    if (ImGui::RadioButton("LayerNorm", s.norm == Norm::LayerNorm)) s.norm = Norm::LayerNorm;
    tooltip(action_tooltip(kActions[kNorm]).c_str());
    ImGui::SameLine();
    if (ImGui::RadioButton("RMSNorm", s.norm == Norm::RMSNorm)) s.norm = Norm::RMSNorm;
    tooltip(action_tooltip(kActions[kNorm]).c_str());

    const float w = half_width();
    int_slider("##layers", s.layers, kMinLayers, kMaxLayers, tr("%d layers"), false, w,
               tr("Blocks L, 1 to 12: the depth whose gradients the figures compare, first layer against last."));
    ImGui::SameLine();
    choice_slider("##width", s.width, kDepthWidths, tr_later("width {0}"), w,
                  tr("The model width d, 8 to 256 (the FFN is 4d wide); parameters grow as d²."));
    choice_slider("##heads", s.heads, kDepthHeads, tr_later("heads {0}"), w,
                  tr("Attention heads H, 1 to 8, each d/H wide (NormFormer scales each head's output by a learned γ)."));
    ImGui::SameLine();
    ImGui::Checkbox("λ", &s.residual_scale);
    tooltip(tr("NormFormer only: a learned per-dimension scale λ (init 1) on the FFN's residual, x = λ ⊙ x + FFN(LN(x)) "
            "(off in the paper's main runs)."));

    if (s.placements[2]) draw_normformer_parts(s);

    // How every linear weight W (n_out×n_in) is drawn; embeddings N(0, 1), biases 0 either way.
    const struct {
        TransformerInit init;
        const char* help;
    } inits[] = {{TransformerInit::Uniform,
                  tr("Every linear weight W (n_out × n_in) from U(−1/√n_in, 1/√n_in), variance 1/(3 n_in): PyTorch's "
                  "nn.Linear default, and normlab-cli depth's. The runs start again.")},
                 {TransformerInit::Xavier,
                  tr("Xavier (Glorot & Bengio 2010, uniform): every linear weight W (n_out × n_in) from "
                  "U(±√(6/(n_in + n_out))), variance 2/(n_in + n_out). The init Xiong et al. 2020 assume when they "
                  "show Post-LN's later layers getting the larger gradients (normlab-cli depth --init xavier). The "
                  "runs start again.")}};
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(tr("init:"));
    for (const auto& i : inits) {
        ImGui::SameLine();
        if (ImGui::RadioButton(std::string(display_name(i.init)).c_str(), s.init == i.init)) s.init = i.init;
        tooltip(i.help);
    }
    bool f32 = s.precision == Precision::F32;
    precision_radios(f32, tr("The runs start again."));
    s.precision = f32 ? Precision::F32 : Precision::F64;
}

void draw_training_section(DepthLabState& s, const Fonts& fonts) {
    heading(fonts.heading, tr("Training"));
    const float w = half_width();
    int_slider("##steps", s.steps, kDepthMinSteps, kDepthMaxSteps, tr("%d steps"), true, w,
               tr("Adam steps per run, 1 to 5000 (log scale). Raising it continues the runs; lowering it below the steps "
               "done starts them again."));
    ImGui::SameLine();
    log_slider("##lr", tr("lr"), s.lr, kDepthLrRule, tr("lr %.3g"), w,
               tr("Adam's learning rate, 10⁻⁵ to 1 (log scale; 10⁻³ by default, as normlab-cli depth). The runs start "
               "again."));
    ImGui::SetNextItemWidth(w);
    const std::uint64_t one = 1;
    ImGui::InputScalar("##seed", ImGuiDataType_U64, &s.seed, &one, nullptr, tr("seed %llu"));
    tooltip(tr("The seed of every run: initial weights, training batches and the held-out problems. Every placement "
            "gets the same; the same seed gives the same numbers, bit for bit (as normlab-cli depth)."));
}

void draw_measure_section(DepthLabState& s, const Fonts& fonts) {
    heading(fonts.heading, tr("Gradient measure"));
    int_slider("##measure", s.measure_steps, 1, kDepthMaxSteps, tr("averaged over steps 1–%d"), true,
               ImGui::GetContentRegionAvail().x,
               tr("Per layer, mean |∂L/∂W₂| of its FFN output weights, averaged over the first this many steps (1: at "
               "initialization, as Xiong et al. 2020 reason; 50: normlab-cli depth's default), or over the steps done "
               "while fewer. The bars and the claims use it."));
    int_slider("##seeds", s.seeds, kDepthMinSeeds, kDepthMaxSeeds, tr("claims over %d seeds"), false,
               ImGui::GetContentRegionAvail().x,
               tr("The claims' spread: every ticked placement is trained again with the next seeds (seed + 1, …), over "
               "the steps the measure averages, and each claim states first ÷ last as mean ± sd (min–max) over them. "
               "1: the main runs alone (no spread)."));
    const char* const views[kDepthEvolutionRatio + 1] = {tr("steps: Post-LN layers"), tr("steps: Pre-LN layers"),
                                                         tr("steps: NormFormer layers"),
                                                         tr("steps: first ÷ last")};
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x);
    if (ImGui::BeginCombo("##evolution", views[std::clamp(s.evolution, 0, kDepthEvolutionRatio)])) {
        for (int i = 0; i <= kDepthEvolutionRatio; ++i)
            if (ImGui::Selectable(views[i], s.evolution == i)) s.evolution = i;
        ImGui::EndCombo();
    }
    tooltip((std::string(tr("The lower left figure: one placement's layers over the steps (10-step means, dark = layer 1, light = the "
                            "last), or first ÷ last of the running means of every placement (1: even).")) + " " +
             action_tooltip(kActions[kEvolution]))
                .c_str());
}

void draw_sweep_section(DepthLabState& s, const Fonts& fonts) {
    heading(fonts.heading, tr("Learning-rate sweep"));
    const float w = half_width();
    log_slider("##sweep_min", tr("smallest lr"), s.sweep_lr_min, kDepthLrRule, tr("from %.2g"), w,
               tr("The sweep's smallest learning rate, 10⁻⁵ to 1 (log scale)."));
    ImGui::SameLine();
    log_slider("##sweep_max", tr("largest lr"), s.sweep_lr_max, kDepthLrRule, tr("to %.2g"), w,
               tr("The sweep's largest learning rate, 10⁻⁵ to 1 (log scale); above the smallest."));
    if (s.sweep_lr_max <= s.sweep_lr_min) {   // the ends keep their order: a decade apart
        s.sweep_lr_max = std::min(kDepthMaxLr, 10.0 * s.sweep_lr_min);
        s.sweep_lr_min = std::min(s.sweep_lr_min, 0.1 * s.sweep_lr_max);
    }
    int_slider("##sweep_points", s.sweep_points, kDepthMinSweepPoints, kDepthMaxSweepPoints, tr("%d rates"), false, w,
               tr("How many learning rates, log-spaced between the two ends (2 to 12)."));
    ImGui::SameLine();
    int_slider("##sweep_steps", s.sweep_steps, kDepthMinSweepSteps, kDepthMaxSweepSteps, tr("%d steps each"), true, w,
               tr("Steps of each short training, 5 to 500 (log scale). A run diverged when its last 5 steps' mean loss "
               "is no lower than its first step's, or a loss was not finite."));
}

// [SECTION] Claims panel --------------------------------------------------------------------

// ✓ green, ✗ red, ◐ and ≈ (in part, seeds differ) plain, provisional and not yet dimmed.
void verdict_cell(const DepthClaim& c) {
    const std::string text = verdict_text(c);
    switch (c.verdict) {
        case DepthVerdict::Holds: ImGui::TextColored(kGoodText, "%s", text.c_str()); break;
        case DepthVerdict::DoesNotHold: ImGui::TextColored(kErrorText, "%s", text.c_str()); break;
        case DepthVerdict::Partly:
        case DepthVerdict::Mixed: ImGui::TextUnformatted(text.c_str()); break;
        case DepthVerdict::Provisional:
        case DepthVerdict::NotYet: ImGui::TextDisabled("%s", text.c_str()); break;
    }
    tooltip(tr("A verdict waits for its data: provisional until every ticked placement has trained the steps the "
            "measure averages over, and the extra seeds too. Then it needs every seed: ✓ in every seed, ✗ in none, "
            "≈ in some. Thresholds: larger, first ÷ last ≥ 1.1 (or ≤ 1/1.1); much larger, ≥ 2 (◐: larger in every "
            "seed, not much larger)."));
}

// "step 100 / 100 · sweep 3 / 18 · seeds 0 / 12": where the numbers below stand, in the order
// they train (also in presenter view).
std::string progress_text(const DepthLabSnapshot& snap) {
    const Progress p = run_progress(&snap);
    return tr("step {0} / {1} · sweep {2} / {3} · seeds {4} / {5}", p.step, snap.state.steps, sweep_done(snap),
              snap.sweep.size(), seed_runs_done(snap), snap.seed_runs.size());
}

void draw_claims(const DepthLabSnapshot& snap, const DepthFigures& f, const Fonts& fonts) {
    ImGui::PushFont(fonts.bold);
    ImGui::Text(tr("Measured here (%s):"), progress_text(snap).c_str());
    ImGui::PopFont();
    tooltip(tr("Optimizer steps every ticked placement has done, the learning-rate sweep's trainings done, and the "
            "extra seeds' runs done (for the claims' spread)."));
    ImGui::SameLine();
    ImGui::BeginGroup();
    flow_text(f.conditions, ImGui::GetStyle().Colors[ImGuiCol_Text]);   // wrapped at spaces: never inside a number
    ImGui::EndGroup();
    tooltip(tr("The settings of the numbers below. The papers measured much larger models on real text; change the "
            "settings (depth, width, steps, learning rate, the steps averaged over) to explore when their claims hold."));
    constexpr ImGuiTableFlags kFlags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersOuter |
                                       ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingStretchProp;
    if (!ImGui::BeginTable("claims", 3, kFlags)) return;
    ImGui::TableSetupColumn(tr("The papers say (and where they measured it)"), ImGuiTableColumnFlags_None, 3.2f);
    ImGui::TableSetupColumn(tr("NormLab measures"), ImGuiTableColumnFlags_None, 1.9f);
    ImGui::TableSetupColumn(tr("here?"), ImGuiTableColumnFlags_None, 0.9f);
    ImGui::TableHeadersRow();
    for (const DepthClaim& c : f.claims) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        push_wrap_at_edge();
        ImGui::TextUnformatted(c.claim.c_str());
        ImGui::PushFont(fonts.small);
        ImGui::TextDisabled("%s", c.source.c_str());
        ImGui::PopFont();
        ImGui::PopTextWrapPos();
        ImGui::TableNextColumn();
        flow_text(c.measured, ImGui::GetStyleColorVec4(ImGuiCol_Text));   // never "1." / "72"
        ImGui::TableNextColumn();
        push_wrap_at_edge();   // "… provisional (3 of 5 seeds)" wraps in a narrow column
        verdict_cell(c);
        ImGui::PopTextWrapPos();
    }
    ImGui::EndTable();
}

// Problems worth a line above the figures: nothing to train, a run whose loss left the finite range.
void draw_problems(const DepthLabSnapshot& snap) {
    if (!snap.error.empty()) {
        push_wrap_at_edge();
        ImGui::TextColored(kErrorText, tr("✗ Nothing to train: %s%s"), snap.error.c_str(),
                           snap.state.task == TaskKind::Text ? tr(". Check the path, or press Bundled.") : ".");
        ImGui::PopTextWrapPos();
    }
    if (snap.error.empty() && snap.runs.empty())
        ImGui::TextColored(kErrorText, "%s", tr("✗ No placement is ticked: tick Post-LN, Pre-LN or NormFormer."));
    std::string stopped, diverged;   // "Post-LN at step 37, …"; "Pre-LN, NormFormer"
    for (const DepthRunView& r : snap.runs) {
        const std::string name = placement_name(r.placement);
        if (r.not_finite_at > 0)
            stopped += (stopped.empty() ? "" : ", ") + tr("{0} at step {1}", name, r.not_finite_at);
        else if (run_diverged(r))
            diverged += (diverged.empty() ? "" : ", ") + name;
    }
    if (stopped.empty() && diverged.empty()) return;
    std::string text = "✗ ";
    if (!stopped.empty()) text += tr("Loss not finite, run stopped: {0}.", stopped) + " ";
    if (!diverged.empty()) text += tr("Diverged (the last 5 steps' loss no lower than the first): {0}.", diverged) + " ";
    flow_text(text + tr("Lower the learning rate."), kErrorText);
}

// [SECTION] Figures panel -------------------------------------------------------------------

// Each figure (depth_lab_plots, by name) and the view that shows it, in the panel's order.
struct DepthFigureView {
    const char* figure;
    PlotView DepthUi::*view;
};
constexpr DepthFigureView kDepthFigureViews[] = {{"depth_loss", &DepthUi::loss_view},
                                                 {"depth_layer_grads", &DepthUi::layers_view},
                                                 {"depth_layer_grads_over_steps", &DepthUi::evolution_view},
                                                 {"depth_lr_sweep", &DepthUi::sweep_view}};

// Loss and the per-layer measure above, its evolution and the sweep below: four equal figures.
void draw_figures(DepthUi& ui, const DepthFigures& f, const Fonts& fonts, float height) {
    const ImVec2 spacing = ImGui::GetStyle().ItemSpacing;
    const ImVec2 size(std::floor(0.5f * (ImGui::GetContentRegionAvail().x - spacing.x)),
                      std::floor(0.5f * (height - spacing.y)));
    bool right = false;
    for (const DepthFigureView& fv : kDepthFigureViews) {
        if (right) ImGui::SameLine();
        draw_plot(ui.*fv.view, plot_named(f.plots, fv.figure), fonts, size);
        right = !right;
    }
}

// [SECTION] Samples panel -------------------------------------------------------------------

void draw_sample_controls(DepthContext& ctx, DepthLabState& s, DepthUi& ui) {
    const bool synthetic = s.task != TaskKind::Text;
    const float em = ImGui::GetFontSize();
    // Each field at least as wide as its words (a translation may be longer); the row wraps.
    const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    const auto fit = [](float least, const std::string& shown) { return std::max(least, button_width(shown.c_str())); };
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(tr("Samples"));
    const char* hint = synthetic ? tr("prompt, e.g. 314159") : tr("prompt, e.g. The lamp");
    const float prompt_w = fit(12.0f * em, hint);
    same_line_if_fits(prompt_w, right);
    ImGui::SetNextItemWidth(prompt_w);
    if (text_field("##prompt", hint, ui.prompt, s.prompt))
        s.prompt = ui.prompt.text;
    tooltip(synthetic ? tr("Six digits 0–9 for the models to sort or copy (“|” optional), then Enter; the other lines are "
                        "random problems. Empty: random problems only.")
                      : tr("Text to continue, every character in the text's vocabulary, then Enter. Empty: the first "
                        "character of the held-out text."));
    const float temperature_w = fit(10.0f * em, printf_text(tr("temperature %.2f"), s.temperature));
    same_line_if_fits(temperature_w, right);
    ImGui::SetNextItemWidth(temperature_w);
    checked_number(tr("temperature"), s.temperature, kDepthTemperatureRule, [](double* t) {
        const bool changed = ImGui::SliderScalar("##temperature", ImGuiDataType_Double, t, &kDepthTemperatureRule.lo,
                                                 &kDepthTemperatureRule.hi, tr("temperature %.2f"));
        tooltip(tr("Sampling temperature, 0 to 3: the next symbol is drawn from softmax(logits / T); 0 always takes the "
                "most likely one, larger T more surprising ones."));
        return changed;
    });
    const char* lines_format = synthetic ? tr("%d problems") : tr("%d lines");
    const float lines_w = fit(7.0f * em, printf_text(lines_format, s.sample_lines));
    same_line_if_fits(lines_w, right);
    int_slider("##lines", s.sample_lines, 1, kDepthMaxSampleLines, lines_format, false, lines_w,
               tr("How many problems (sort, copy) or lines of text (text) each model continues."));
    same_line_if_fits(action_button_width(kActions[kNewSamples]), right);
    action_button(ctx, kActions[kNewSamples]);
}

void draw_run_samples(const DepthRunView& r, const Fonts& fonts, float width, float height) {
    ImGui::BeginChild(("samples" + std::to_string(r.placement)).c_str(), ImVec2(width, height), true, ImGuiWindowFlags_NavFlattened);
    swatch(depth_placement_color(r.placement));
    ImGui::PushFont(fonts.bold);
    ImGui::TextColored(to_vec4(depth_placement_color(r.placement)), "%s", placement_name(r.placement).c_str());
    ImGui::PopFont();
    if (r.samples_step >= 0) {
        ImGui::SameLine();
        ImGui::TextDisabled(tr("step %d"), r.samples_step);
        tooltip(tr("The samples come from the model after this many steps (redrawn every 25 steps while it trains)."));
    }
    if (r.final) {
        const DepthEval& e = *r.final;
        ImGui::SameLine();
        if (e.sequence_accuracy)
            ImGui::TextDisabled(tr("· %s solved"), percent(*e.sequence_accuracy).c_str());
        else
            ImGui::TextDisabled(tr("· held-out loss %s"), format_number(e.loss, 3).c_str());
        tooltip(e.sequence_accuracy ? tr("Of 256 held-out problems, the share whose whole answer the model generates "
                                      "right, digit by digit, after the last step.")
                                    : tr("Cross-entropy per character on the held-out tenth of the text, after the last "
                                      "step (ln of the vocabulary size: guessing)."));
    }
    if (!r.sample_error.empty()) {
        push_wrap_at_edge();
        ImGui::TextColored(kErrorText, "✗ %s", r.sample_error.c_str());
        ImGui::PopTextWrapPos();
    }
    ImGui::PushFont(fonts.small);
    for (const DepthSample& sample : r.samples) {
        if (!sample.expected.empty()) {
            ImGui::TextUnformatted(sample.prompt.c_str());
            ImGui::SameLine(0.0f, 0.0f);
            ImGui::TextColored(sample.correct ? kGoodText : kErrorText, "%s %s", sample.output.c_str(),
                               sample.correct ? "✓" : "✗");
            if (!sample.correct) {
                ImGui::SameLine();
                ImGui::TextDisabled(tr("(answer %s)"), sample.expected.c_str());
            }
        } else {   // the prompt (dimmed), then the generated text: its first line beside the prompt
            const std::size_t newline = std::min(sample.output.find('\n'), sample.output.size());
            push_wrap_at_edge();
            ImGui::TextDisabled("%s", sample.prompt.c_str());
            ImGui::SameLine(0.0f, 0.0f);
            ImGui::TextUnformatted(sample.output.c_str(), sample.output.c_str() + newline);
            if (newline + 1 < sample.output.size()) ImGui::TextUnformatted(sample.output.c_str() + newline + 1);
            ImGui::PopTextWrapPos();
        }
    }
    ImGui::PopFont();
    ImGui::EndChild();
}

// The samples panel's height: its controls, then per model a title and the lines (text: two
// more for wrapping; the panel scrolls beyond).
float samples_height(const DepthLabState& s, const Fonts& fonts) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const int lines = s.sample_lines + (s.task == TaskKind::Text ? 2 : 0);
    return ImGui::GetFrameHeightWithSpacing() + ImGui::GetTextLineHeightWithSpacing() +
           static_cast<float>(lines) * (fonts.small->FontSize + style.ItemSpacing.y) + 2.0f * style.WindowPadding.y +
           style.ItemSpacing.y;
}

void draw_samples(DepthContext& ctx, DepthLabState& s, DepthUi& ui, const Fonts& fonts, bool controls) {
    if (controls) draw_sample_controls(ctx, s, ui);
    const DepthLabSnapshot* snap = ui.shown.get();
    if (snap == nullptr || snap->runs.empty()) return;
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    const auto n = static_cast<float>(snap->runs.size());
    const float w = std::floor((ImGui::GetContentRegionAvail().x - (n - 1.0f) * spacing) / n);
    const float h = std::max(ImGui::GetContentRegionAvail().y, 4.0f * ImGui::GetTextLineHeightWithSpacing());
    for (const DepthRunView& r : snap->runs) {
        if (&r != &snap->runs.front()) ImGui::SameLine();
        draw_run_samples(r, fonts, w, h);
    }
}

// [SECTION] The lab window ------------------------------------------------------------------

void draw_depth_lab(DepthContext& ctx) {
    DepthLabState& s = ctx.session.depth;
    DepthUi& ui = ctx.ui;
    const Fonts& fonts = ctx.fonts;
    sync_worker(s, ui, ctx.info.scripted);
    ctx.app.animate |= ui.playing && (!ui.shown || ui.shown->busy);   // a run draws at the frame rate

    const float em = ImGui::GetFontSize();
    if (show_controls(ctx.app)) {   // presenter view, or the panel collapsed: claims, figures and samples alone
        begin_controls_panel(0.24f, 19.0f, 24.0f);
        draw_run_section(ctx, s, ui, fonts);
        draw_task_section(s, ui, fonts);
        draw_model_section(s, fonts);
        draw_training_section(s, fonts);
        draw_measure_section(s, fonts);
        draw_sweep_section(s, fonts);
        end_controls_panel();
    }

    begin_panel("results");
    if (!ui.shown) {
        ImGui::TextDisabled("%s", tr("Building the models…"));
        ImGui::EndChild();
        return;
    }
    draw_problems(*ui.shown);
    if (!ui.shown->error.empty()) {   // nothing was trained: no claims, figures or samples to show
        ImGui::EndChild();
        return;
    }
    const DepthFigures& f = current_figures(s, ui);
    draw_claims(*ui.shown, f, fonts);
    ImGui::Spacing();
    draw_figures(ui, f, fonts, std::max(ImGui::GetContentRegionAvail().y - samples_height(s, fonts), 24.0f * em));
    draw_samples(ctx, s, ui, fonts, true);
    ImGui::EndChild();
}

std::vector<Plot> depth_lab_plots(DepthContext& ctx) {
    DepthUi& ui = ctx.ui;
    std::vector<Plot> plots;
    if (ui.shown) {
        plots = current_figures(ctx.session.depth, ui).plots;
    } else {   // the lab has not run: the models as built, before their first step
        DepthLab lab;
        lab.configure(ctx.session.depth);
        plots = normlab::depth_lab_plots(lab.snapshot());
    }
    for (const DepthFigureView& fv : kDepthFigureViews) {
        Plot& p = plot_named(plots, fv.figure);
        p = plot_as_shown(p, ui.*fv.view);
    }
    return plots;
}

// [SECTION] Presenter slide ---------------------------------------------------------------

void update_depth_slide(DepthContext& ctx) {
    DepthUi& ui = ctx.ui;
    sync_worker(ctx.session.depth, ui, ctx.info.scripted);
    ctx.app.animate |= ui.playing && (!ui.shown || ui.shown->busy);   // a run draws at the frame rate, as in draw_depth_lab
}

void draw_depth_figure(DepthContext& ctx, const std::string& id, ImVec2) {
    DepthUi& ui = ctx.ui;
    if (!ui.shown) {
        ImGui::TextDisabled("%s", tr("Building the models…"));
        return;
    }
    draw_problems(*ui.shown);
    if (!ui.shown->error.empty()) return;
    const DepthFigures& f = current_figures(ctx.session.depth, ui);
    if (id == "depth_claims") {
        draw_claims(*ui.shown, f, ctx.fonts);
        return;
    }
    for (const DepthFigureView& fv : kDepthFigureViews)
        if (id == fv.figure) draw_plot(ui.*fv.view, plot_named(f.plots, id), ctx.fonts, ImGui::GetContentRegionAvail());
}

void draw_depth_control(DepthContext& ctx, const std::string& id) {
    const DepthLabSnapshot* snap = ctx.ui.shown.get();
    draw_run_control(ctx, id, kActions[kPlay], kActions[kReset], ctx.ui.playing, run_done(snap),
                     snap != nullptr && snap->error.empty() ? progress_text(*snap) : "");
}

void set_depth_playing(DepthContext& ctx, bool playing) {
    DepthUi& ui = ctx.ui;
    ui.playing = playing;
    if (ui.worker) ui.worker->restart();   // from step 0, as the slide opens
}

const SlideParts<DepthContext> kDepthSlide{
    {{{"depth_claims", 2.4f, true}, {"depth_layer_grads", 1.6f}, {"depth_loss", 1.6f}, {"depth_layer_grads_over_steps", 1.6f},
      {"depth_lr_sweep", 1.6f}},
     2, {{"play"}, {"reset"}}},
    update_depth_slide, draw_depth_figure, draw_depth_control, set_depth_playing};

}  // namespace

const LabWindow<DepthContext> kDepthWindow{&kDepthInfo, draw_depth_lab, depth_lab_plots, depth_lab_actions, &kDepthSlide};

}  // namespace normlab::ui
