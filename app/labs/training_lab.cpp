// The Training lab (see training_lab.hpp).
//
// [SECTION] Actions          — play/pause, step, reset, new seed, stress, axis (keys Space S R N L T G)
// [SECTION] The run          — the worker: restarted when the settings ask for another run, paced
// [SECTION] Snapshot         — the latest one taken once per frame; the maps' figures cached with it
// [SECTION] Controls panel   — run, data, model, optimizer, variants
// [SECTION] Variant row      — per variant: its decision map (2D data), accuracy, time per step
// [SECTION] Figures          — their options (x axis, whose gradients), loss, accuracy, gradients, time
// [SECTION] The lab window
//
// Scripted runs (--frames N, AppInfo::scripted): the lab plays from its first frame and the worker
// trains exactly kScriptedStepsPerFrame steps per frame; each frame waits for that snapshot (the
// worker is joined to the step count), so a screenshot after N frames shows step 10·N, always.
// Interactive runs never wait: the worker trains at the chosen pace and the frame shows the
// latest snapshot; figures are rebuilt only when a new one arrived.
#include "training_lab.hpp"

#include "gpu_caption.hpp"   // draw_gpu_norm_caption: the GPU times it shows beside its own

#include <normlab/base/palette.hpp>
#include "export_menus.hpp"
#include "ui_util.hpp"

#include <normlab/base/data_files.hpp>
#include <normlab/scene/session.hpp>

#include <imgui_stdlib.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <utility>

namespace normlab::ui {

namespace {

using Index = Eigen::Index;

constexpr int kScriptedStepsPerFrame = 10;

// [SECTION] Actions -------------------------------------------------------------------------

// The pace Play gives the worker: the slider's value, and at its top no pace at all (0).
double worker_pace(const TrainingLabState& s) { return s.steps_per_second >= kTrainingMaxSpeed ? 0.0 : s.steps_per_second; }

void play_or_pause(TrainingContext& ctx) {
    const TrainingLabState& s = ctx.session.training;
    TrainingUi& ui = ctx.ui;
    if (ui.playing) {
        ui.playing = false;
        if (ui.worker) ui.worker->pause();
        return;
    }
    ui.playing = true;
    if (ui.shown && ui.shown->done()) {
        ui.restart = true;   // at the end: from step 0 again
    } else if (ui.worker) {
        ui.worker->play(worker_pace(s));
        ui.pace = s.steps_per_second;
    }
}

enum ActionIndex { kPlay, kStep, kReset, kNewSeed, kStress, kAxis, kGradVariant, kActionCount };

const Action<TrainingContext> kActions[kActionCount] = {
    {tr_later("Play / pause"), {' '}, nullptr, tr_later("Train every variant, one step each in turn, at the pace set below; press again to pause."),
     play_or_pause},
    {tr_later("Step"), {'S'}, nullptr, tr_later("Pause, then train every variant one more mini-batch step."),
     [](TrainingContext& ctx) {
         TrainingUi& ui = ctx.ui;
         ui.playing = false;
         if (ui.worker) ui.worker->advance(1);
     }},
    {tr_later("Reset"), {'R'}, nullptr,
     tr_later("Back to step 0, paused: the same data and initial weights, so the same run again (the seed decides both)."),
     [](TrainingContext& ctx) {
         TrainingUi& ui = ctx.ui;
         ui.playing = false;
         ui.restart = true;
     }},
    {tr_later("New seed"), {'N'}, nullptr, tr_later("The next seed: new data points, split, initial weights and batch order; back to step 0."),
     [](TrainingContext& ctx) { ctx.session.training.train.seed += 1; }},
    {tr_later("Learning-rate stress test on / off"), {'L'}, nullptr,
     tr_later("The learning-rate stress test: the same variants again with the learning rate times the factor beside this "
     "button, from step 0. Which ones diverge (loss NaN, ∞ or > 100 · ln K), which stall at chance? Press again to end it."),
     [](TrainingContext& ctx) { ctx.session.training.stress = !ctx.session.training.stress; }},
    {tr_later("Against step / time"), {'T'}, nullptr,
     tr_later("Draw loss and accuracy against the optimizer step, or against the compute time the steps took (the RMSNorm "
     "paper's Figure 1: the same quality in less time)."),
     [](TrainingContext& ctx) {
         TrainingLabState& s = ctx.session.training;
         TrainingUi& ui = ctx.ui;
         s.axis = s.axis == TrainingAxis::Step ? TrainingAxis::Time : TrainingAxis::Step;
         ui.loss_view.range = {};   // a zoom on one x axis means nothing on the other
         ui.accuracy_view.range = {};
     }},
    {tr_later("Next gradient variant"), {'G'}, nullptr, tr_later("Show the per-layer gradient norms of the next variant in the run."),
     [](TrainingContext& ctx) {
         TrainingLabState& s = ctx.session.training;
         for (int i = 1; i <= kTrainingNormCount; ++i) {
             const int k = (s.grad_variant + i) % kTrainingNormCount;
             if (s.variants[static_cast<std::size_t>(k)]) {
                 s.grad_variant = k;
                 return;
             }
         }
     }},
};

Actions<TrainingContext> training_lab_actions() { return all_actions(kActions); }

// [SECTION] The run -------------------------------------------------------------------------

// Keeps ui.worker training what the state asks for: a new run when the settings changed (once no
// widget is being dragged or typed in, so that a slider drag is one restart) or Reset was
// pressed; the pace and play/pause passed on. Scripted runs advance a fixed number of steps.
void sync_run(const TrainingLabState& s, TrainingUi& ui, bool scripted) {
    ui.problem = training_lab_problem(s);
    if (!ui.problem.empty()) {
        ui.worker.reset();
        ui.shown.reset();
        return;
    }
    const bool stale = !ui.worker || ui.restart || !same_run(ui.worker->state(), s);
    if (stale && !ImGui::IsAnyItemActive()) {
        ui.worker.reset();   // stops and joins the old run's thread first
        ui.worker = std::make_unique<TrainingLabWorker>(s);
        ui.restart = false;
        ui.pace = 0.0;
    }
    if (!ui.worker) return;
    if (scripted) {
        if (ui.playing) ui.worker->wait_for(ui.worker->advance(kScriptedStepsPerFrame));
        return;
    }
    if (ui.playing && !ui.worker->playing() && ui.pace == 0.0) {
        ui.worker->play(worker_pace(s));
        ui.pace = s.steps_per_second;
    } else if (ui.playing && ui.pace != s.steps_per_second) {
        ui.worker->set_speed(worker_pace(s));
        ui.pace = s.steps_per_second;
    }
}

// [SECTION] Snapshot ------------------------------------------------------------------------

// The variants' decision maps (core's training_map_plot: what their right-click saves), rebuilt
// with each snapshot and when the test cases are switched on or off.
const std::vector<Plot>& map_plots(TrainingUi& ui) {
    if (!ui.shown) return ui.maps.value;
    return ui.maps.get({ui.generation, ui.show_test_points}, [&] {
        std::vector<Plot> maps;
        for (const TrainingVariant& v : ui.shown->variants) maps.push_back(training_map_plot(*ui.shown, v, ui.show_test_points));
        return maps;
    });
}

// The decision map of `v` among `maps` (training_map_name), or null before it is built.
const Plot* map_of(const std::vector<Plot>& maps, const TrainingVariant& v) {
    const std::string name = training_map_name(v.norm);
    const auto it = std::find_if(maps.begin(), maps.end(), [&](const Plot& p) { return p.name == name; });
    return it == maps.end() ? nullptr : &*it;
}

void take_latest(TrainingUi& ui) {
    if (!ui.worker) return;
    ui.failure = ui.worker->failure();   // out of memory: the run stops, the session stays
    if (!ui.failure.empty()) ui.playing = false;
    std::shared_ptr<const TrainingLabSnapshot> latest = ui.worker->latest();
    if (!latest || latest == ui.shown) return;
    ui.shown = std::move(latest);
    ++ui.generation;
    if (ui.playing && ui.shown->done()) ui.playing = false;
}

// [SECTION] Controls panel ------------------------------------------------------------------

// Two items side by side: the width of each.
float half_width() { return std::floor(0.5f * (ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x)); }

// Two items side by side where what they show fits (pair_fits), else one under the other: the
// width of each.
float pair_width(bool fits) { return fits ? half_width() : ImGui::GetContentRegionAvail().x; }

void draw_run_section(TrainingContext& ctx, TrainingLabState& s, TrainingUi& ui, const Fonts& fonts) {
    heading(fonts.heading, tr("Run"));
    const bool cannot = !ui.problem.empty() || (ui.shown && !ui.shown->error.empty());
    const bool at_end = ui.shown && ui.shown->done() && !ui.playing;
    ImGui::BeginDisabled(cannot);
    // The buttons wrap onto a second line where the panel is too narrow for their words.
    const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    action_button(ctx, kActions[kPlay], run_button_label(ui.playing, at_end));
    same_line_if_fits(action_button_width(kActions[kStep]), right);
    action_button(ctx, kActions[kStep]);
    ImGui::EndDisabled();
    same_line_if_fits(action_button_width(kActions[kReset]), right);
    action_button(ctx, kActions[kReset]);
    same_line_if_fits(action_button_width(kActions[kNewSeed]), right);
    action_button(ctx, kActions[kNewSeed]);

    const int step = ui.shown ? ui.shown->step : 0;
    const int total = s.train.steps;
    std::string text = tr("step {0} / {1}", step, total);
    if (ui.shown && !ui.shown->error.empty()) {
        text = tr("no run");
    } else if (ui.shown && ui.shown->done() && step < total) {
        text = tr("step {0} / {1}  (every variant diverged)", step, total);
    } else if (ui.shown && ui.shown->done()) {
        text = tr("step {0} / {1}  (done)", step, total);
    }
    ImGui::ProgressBar(static_cast<float>(step) / static_cast<float>(std::max(1, total)), ImVec2(-1.0f, 0.0f),
                       text.c_str());
    tooltip(tr("Optimizer steps done by every variant, of the run's total (each step: one mini-batch per variant)."));
    worker_failure_line(ui.failure);

    // The pace asked for, and the one achieved (a slow model cannot keep up with a fast pace).
    ui.achieved.update(ImGui::GetTime(), step, ui.playing && ui.shown && !ui.shown->done());
    const bool fastest = s.steps_per_second >= kTrainingMaxSpeed;
    std::string pace = fastest ? tr("pace: as fast as it goes") : tr("pace %.0f steps/s");
    std::string achieved;   // under the slider where the slider is too narrow for it
    if (const std::optional<double> rate = ui.achieved.rate()) {
        const std::string r = format_number(*rate, *rate < 10.0 ? 2 : 3);
        const std::string both = fastest ? tr("pace: as fast as it goes (achieved {0})", r) : tr("pace %.0f steps/s (achieved {0})", r);
        if (button_width(printf_text(both.c_str(), s.steps_per_second).c_str()) <= ImGui::GetContentRegionAvail().x) pace = both;
        else achieved = tr("achieved {0} steps/s", r);
    }
    log_slider("##speed", tr("pace"), s.steps_per_second, kTrainingSpeedRule, pace.c_str(), ImGui::GetContentRegionAvail().x,
               tr("How fast Play trains, 5 to 5000 steps per second (log scale); at the top, as fast as the CPU allows. "
               "In brackets, the pace achieved over the last second while playing: a big model can train slower "
               "than asked. The numbers do not depend on it, only how quickly they appear."));
    if (!achieved.empty()) ImGui::TextDisabled("%s", achieved.c_str());

    // The stress test: a toggle button (filled while on) and its factor.
    const bool on = s.stress;
    if (on) ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.85f, 0.35f, 0.10f, 1.0f));
    if (on) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 1.0f, 1.0f, 1.0f));
    char label[160];
    std::snprintf(label, sizeof label, on ? tr("End stress: lr × %.3g###stress") : tr("Stress: lr × %.3g###stress"),
                  s.stress_factor);
    action_button(ctx, kActions[kStress], label);
    if (on) ImGui::PopStyleColor(2);
    // The factor beside the button, or under it where "× 30" and room for the grab do not fit.
    same_line_if_fits(button_width(printf_text("× %.3g", s.stress_factor).c_str()) + 2.0f * ImGui::GetFontSize(),
                      ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x);
    log_slider("##stress_factor", tr("stress factor"), s.stress_factor, kStressFactorRule, "× %.3g",
               ImGui::GetContentRegionAvail().x,
               tr("The stress test's factor on the learning rate, 2 to 100 (log scale; 30 by default)."));
}

void draw_data_section(TrainingLabState& s, TrainingUi& ui, const Fonts& fonts) {
    heading(fonts.heading, tr("Data"));
    // A copy: tr() hands back its argument itself where there is no translation (English).
    const std::string dataset = tr(std::string(display_name(s.data.kind)).c_str());
    const bool pair = pair_fits({dataset, printf_text(tr("train %.0f%%"), 100.0 * s.data.train_ratio)}) &&
                      button_width(dataset.c_str()) + ImGui::GetFrameHeight() <= half_width();   // the combo's arrow
    float w = pair_width(pair);
    ImGui::SetNextItemWidth(w);
    if (ImGui::BeginCombo("##dataset", dataset.c_str())) {
        for (DatasetKind kind : kBuiltinDatasets)
            if (ImGui::Selectable(tr(std::string(display_name(kind)).c_str()), s.data.kind == kind))
                training_lab_choose_dataset(s, kind);
        if (ImGui::Selectable(tr("Load CSV…"), s.data.kind == DatasetKind::Csv)) training_lab_choose_dataset(s, DatasetKind::Csv);
        ImGui::EndCombo();
    }
    tooltip(tr("The data set: five 2D sets from TensorFlow Playground (500 points, 2 classes), the 8×8 handwritten "
            "digits (64 features, 10 classes), or your own CSV file. Choosing one loads its recommended width, "
            "learning rate, batch size and steps."));
    if (pair) ImGui::SameLine();
    ImGui::SetNextItemWidth(w);
    checked_number(tr("train share (1 = 100%)"), s.data.train_ratio, kTrainingRatioRule, [](double* train_ratio) {
        double ratio = 100.0 * *train_ratio;
        const double r_lo = 10.0, r_hi = 90.0;
        const bool changed = ImGui::SliderScalar("##ratio", ImGuiDataType_Double, &ratio, &r_lo, &r_hi, tr("train %.0f%%"));
        tooltip(tr("The share of cases used for training (10% to 90%, stratified by class); the rest is the test set."));
        if (changed) *train_ratio = std::round(ratio) / 100.0;
        return changed;
    });

    if (s.data.kind == DatasetKind::Csv) {
        const char* load = tr("Load###load");
        ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - button_width(load) - ImGui::GetStyle().ItemSpacing.x);
        const bool enter = text_field("##csv", tr("path/to/data.csv"), ui.csv_path, s.data.path, TextEntry::EnterOnly);
        tooltip(tr("A CSV file: one case per row, the features as numbers, the class label in the last column (a header "
                "row is allowed). Enter or Load reads it; features are standardized with the training set's statistics."));
        ImGui::SameLine();
        if (ImGui::Button(load) || enter) {
            if (ui.csv_path.text != s.data.path) agree_to_read(ui.csv_path.text);   // typed: the user's own choice
            s.data.path = ui.csv_path.text;
            ui.restart = true;   // the same path again: the file may have changed
        }
        tooltip(tr("Read the file now (also after editing it)."));
        if (ui.shown && !ui.shown->error.empty()) {
            push_wrap_at_edge();
            ImGui::TextColored(kErrorText, "✗ %s", ui.shown->error.c_str());
            ImGui::PopTextWrapPos();
        }
    }

    const bool two_d = is_synthetic_2d(s.data.kind);
    const bool pair2 = pair_fits({printf_text(tr("noise %.2f"), s.data.noise),
                                  printf_text(tr("seed %llu"), static_cast<unsigned long long>(s.train.seed))});
    w = pair_width(pair2);
    ImGui::BeginDisabled(!two_d);
    ImGui::SetNextItemWidth(w);
    checked_number(tr("noise"), s.data.noise, kTrainingNoiseRule, [two_d](double* noise) {
        const bool changed = ImGui::SliderScalar("##noise", ImGuiDataType_Double, noise, &kTrainingNoiseRule.lo,
                                                 &kTrainingNoiseRule.hi, tr("noise %.2f"));
        tooltip(two_d ? tr("Noise of the 2D sets, 0 to 0.5 (TensorFlow Playground's slider / 100): points move off their "
                        "class's shape, and near the boundary labels flip.")
                      : tr("Noise applies to the 2D sets only."));
        return changed;
    });
    ImGui::EndDisabled();
    if (pair2) ImGui::SameLine();
    ImGui::SetNextItemWidth(w);
    const std::uint64_t one = 1;
    ImGui::InputScalar("##seed", ImGuiDataType_U64, &s.train.seed, &one, nullptr, tr("seed %llu"));
    tooltip(tr("The one seed of the run: data points, train/test split, initial weights and batch order. Every variant "
            "gets the same (key N: the next seed)."));
}

void draw_model_section(TrainingLabState& s, const Fonts& fonts) {
    heading(fonts.heading, tr("Model"));
    MlpConfig& m = s.train.model;
    const bool pair = pair_fits({printf_text(tr("%d hidden layers"), m.hidden_layers), printf_text(tr("width %d"), static_cast<int>(m.width))});
    const float w = pair_width(pair);
    int_slider("##depth", m.hidden_layers, kMinHiddenLayers, kMaxHiddenLayers, tr("%d hidden layers"), false, w,
               tr("Hidden layers, 1 to 6: each is dense → norm → activation (or dense → activation → norm)."));
    if (pair) ImGui::SameLine();
    int width = static_cast<int>(m.width);
    int_slider("##width", width, static_cast<int>(kMinWidth), static_cast<int>(kMaxWidth), tr("width %d"), true, w,
               tr("Units per hidden layer n, 2 to 256 (log scale): the vector each norm normalizes."));
    m.width = width;

    const struct {
        Activation a;
        const char* label;
        const char* help;
    } acts[] = {{Activation::ReLU, "ReLU", tr("f(a) = max(0, a); weights start He-scaled, N(0, 2/n_in).")},
                {Activation::Tanh, "tanh", tr("f(a) = tanh(a); weights start N(0, 1/n_in).")},
                {Activation::GELU, "GELU", tr("f(a) = a·Φ(a), the exact erf form; weights start N(0, 2/n_in).")}};
    const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    for (const auto& a : acts) {
        if (&a != acts) same_line_if_fits(radio_width(a.label), right);
        if (ImGui::RadioButton(a.label, m.activation == a.a)) m.activation = a.a;
        tooltip(a.help);
    }
    if (ImGui::RadioButton(tr("norm, then f"), m.placement == Placement::BeforeActivation))
        m.placement = Placement::BeforeActivation;
    tooltip(tr("y = f(norm(a) ⊙ g + b): the norm before the activation, as in the RMSNorm paper."));
    same_line_if_fits(radio_width(tr("f, then norm")), right);
    if (ImGui::RadioButton(tr("f, then norm"), m.placement == Placement::AfterActivation))
        m.placement = Placement::AfterActivation;
    tooltip(tr("y = norm(f(a)) ⊙ g + b: the norm after the activation."));
    bool f32 = s.train.precision == Precision::F32;
    precision_radios(f32, tr("The run starts again."));
    s.train.precision = f32 ? Precision::F32 : Precision::F64;
}

void draw_optimizer_section(TrainingLabState& s, const Fonts& fonts) {
    heading(fonts.heading, tr("Optimizer"));
    OptimizerSpec& o = s.train.optimizer;
    if (ImGui::RadioButton("Adam", o.kind == OptimizerKind::Adam)) training_lab_choose_optimizer(s, OptimizerKind::Adam);
    tooltip(tr("Adam (β₁ = 0.9, β₂ = 0.999); choosing it loads its recommended learning rate for the data set."));
    same_line_if_fits(radio_width(tr("SGD + momentum")), ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x);
    if (ImGui::RadioButton(tr("SGD + momentum"), o.kind == OptimizerKind::SGD))
        training_lab_choose_optimizer(s, OptimizerKind::SGD);
    tooltip(tr("SGD with momentum 0.9: v ← 0.9 v + ∂L/∂θ, θ ← θ − η v; choosing it loads its recommended learning rate."));
    const bool pair = pair_fits({printf_text(tr("lr %.4g"), o.lr), printf_text(tr("batch %d"), static_cast<int>(s.train.batch_size))});
    const float w = pair_width(pair);
    log_slider("##lr", tr("lr"), o.lr, kTrainingLrRule, tr("lr %.4g"), w,
               tr("The learning rate η, 10⁻⁴ to 1 (log scale). The stress test multiplies it."));
    if (pair) ImGui::SameLine();
    int batch = static_cast<int>(s.train.batch_size);
    int_slider("##batch", batch, kTrainingMinBatch, kTrainingMaxBatch, tr("batch %d"), true, w,
               tr("Cases per mini-batch, 1 to 512 (log scale; at most the training set). BatchNorm's statistics come "
               "from it."));
    s.train.batch_size = batch;
    int_slider("##steps", s.train.steps, kTrainingMinSteps, kTrainingMaxSteps, tr("%d steps"), true,
               ImGui::GetContentRegionAvail().x, tr("Optimizer steps per run, 10 to 20 000 (log scale)."));
}

// The variants' checkboxes, two per row, each after its colour; pRMSNorm's p below them.
void draw_variants_section(TrainingLabState& s, const Fonts& fonts) {
    heading(fonts.heading, tr("Variants (same start)"));
    static_assert(kTrainingNormCount == 6, "one help text per norm");
    const char* const help[kTrainingNormCount] = {
        tr("No norm: y = f(a). The baseline. Every ticked variant trains on the same data from the same initial weights."),
        tr("LayerNorm (paper eq. 2–3): ā = (a − μ)/σ over the n units of a layer, then ⊙ g + b."),
        tr("RMSNorm (paper eq. 4): ā = a / RMS(a); no mean to subtract, so less work than LayerNorm."),
        tr("pRMSNorm: the RMS from the first k = ⌈n·p⌉ units only (p below; the paper's 6.25%)."),
        tr("L2-Norm: ā = a / ‖a‖, without RMSNorm's √n: its outputs shrink as n grows (the paper reports it trains worse)."),
        tr("BatchNorm: each unit normalized over the mini-batch (running averages when evaluating).")};
    const float col = half_width() + ImGui::GetStyle().ItemSpacing.x;
    const float x0 = ImGui::GetCursorPosX();
    for (int k = 0; k < kTrainingNormCount; ++k) {
        if (k % 2 == 1) ImGui::SameLine(x0 + col);
        swatch(norm_color(kTrainingNorms[k]));
        bool& on = s.variants[static_cast<std::size_t>(k)];
        ImGui::Checkbox(std::string(display_name(kTrainingNorms[k])).c_str(), &on);
        tooltip(help[k]);
    }
    const Index n = s.train.model.width;
    const std::string k_text = tr("k = {0} of {1}", partial_k(n, s.train.model.norm.p, PartialRounding::Ceil), n);
    constexpr int kPrms = 3;
    static_assert(kTrainingNorms[kPrms] == Norm::PRMSNorm, "pRMSNorm's checkbox");
    ImGui::BeginDisabled(!s.variants[kPrms]);
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize(k_text.c_str()).x -
                            ImGui::GetStyle().ItemSpacing.x);
    checked_number(tr("p (1 = 100%)"), s.train.model.norm.p, kFractionRule, [](double* p) {

        return percent_slider("##p", p, "pRMSNorm p = %.2f%%",
                              tr("pRMSNorm's p, 1% to 100% (log scale): the RMS is estimated from the first k = ⌈n·p⌉ of "
                              "the n units."));
    });
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::AlignTextToFramePadding();
    ImGui::TextDisabled("%s", k_text.c_str());
}

// [SECTION] Variant row ---------------------------------------------------------------------

constexpr const char* kDivergedHelp =
    tr_later("Diverged: its mini-batch loss became NaN or ∞, or passed 100 · ln K (K classes; ln K is the loss of guessing): "
    "the weights blew up. It trains no further; its curves end at the step before, its map is the last one drawn.");

// The variant's decision map filling the square at p0: the data area of its figure (core's
// layout_data, painted by the export's draw_figure_data), framed. Markers scale with the map:
// a dot's radius max(2, 1.2% of the side) pixels, as they read on a projector.
void draw_map(ImDrawList* dl, ImVec2 p0, float side, const Plot& map) {
    const Rect area{p0.x, p0.y, p0.x + side, p0.y + side};
    const double k = std::max(2.0, 0.012 * side) / (0.5 * kMapDotPx);
    // Hundreds of dots per map: no anti-aliased edges (ImGui's smooth edges add a fringe of
    // vertices to every dot; at a few pixels they look the same).
    const ImDrawListFlags flags = dl->Flags;
    dl->Flags &= ~(ImDrawListFlags_AntiAliasedFill | ImDrawListFlags_AntiAliasedLines);
    dl->PushClipRect(p0, ImVec2(p0.x + side, p0.y + side), true);
    draw_figure_data(*dl, map, layout_data(map, area), k);
    dl->PopClipRect();
    dl->Flags = flags;
    dl->AddRect(p0, ImVec2(p0.x + side, p0.y + side), ImGui::GetColorU32(ImGuiCol_Border));
}

// Over a diverged variant's map: the map faded, "✗ diverged at step k" across it.
void draw_diverged_over_map(ImDrawList* dl, ImVec2 p0, float side, int step, ImFont* font) {
    dl->AddRectFilled(p0, ImVec2(p0.x + side, p0.y + side), IM_COL32(255, 255, 255, 170));
    const std::string lines[2] = {tr("✗ diverged"), tr("at step {0}", step)};
    const float h = font->FontSize;
    for (int i = 0; i < 2; ++i) {
        const ImVec2 ts = font->CalcTextSizeA(h, FLT_MAX, 0.0f, lines[i].c_str());
        const float y = p0.y + 0.5f * side + (i == 0 ? -h : 0.0f);
        dl->AddText(font, h, ImVec2(std::floor(p0.x + 0.5f * (side - ts.x)), std::floor(y)), ImGui::GetColorU32(kErrorText),
                    lines[i].c_str());
    }
}

// How every card of a row or grid sets its name and result: alike (the same fonts, the same
// place), chosen once for the widest name and "100.0%".
struct CardWords {
    ImFont* name = nullptr;     // bold, or the small font where a row's card has no room for bold
    ImFont* result = nullptr;   // the text font, or the small one on the name's baseline
    bool below = false;         // the result on a line of its own under the name
    bool test_word = false;     // "test 98.4%" rather than "98.4%"
};

float text_w(const ImFont* font, const std::string& text) {
    return font->CalcTextSizeA(font->FontSize, FLT_MAX, 0.0f, text.c_str()).x;
}

// The width of a card's swatch and its widest name in `font`, with the gaps after each and a pixel to spare.
float name_lead_width(const TrainingLabSnapshot& snap, const ImFont* font) {
    float name = 0.0f;
    for (const TrainingVariant& v : snap.variants) name = std::max(name, text_w(font, std::string(display_name(v.norm))));
    return 0.8f * ImGui::GetFontSize() + 2.0f * ImGui::GetStyle().ItemSpacing.x + name + 1.0f;
}

// The words of cards `card_w` wide: name in bold, then the result in the text font ("test" too
// where it fits), else in the small font; else, where `below_allowed` (a slide's grid, which
// reserves the line: result_row_width), the result under the name; else both in the small font.
CardWords card_words(const TrainingLabSnapshot& snap, const Fonts& fonts, float card_w, bool below_allowed) {
    ImFont* text = ImGui::GetFont();
    const std::string pct = "100.0%", test = tr("test {0}", pct);
    const float bold = name_lead_width(snap, fonts.bold);
    if (bold + text_w(text, test) <= card_w) return {fonts.bold, text, false, true};
    if (bold + text_w(text, pct) <= card_w) return {fonts.bold, text, false, false};
    if (bold + text_w(fonts.small, pct) <= card_w) return {fonts.bold, fonts.small, false, false};
    if (below_allowed)
        return {bold - ImGui::GetStyle().ItemSpacing.x <= card_w ? fonts.bold : fonts.small, text, true, text_w(text, test) <= card_w};
    return {fonts.small, fonts.small, false, false};
}

// One variant: its map (2D data), its name and result (set as `words` says), its time per step as
// a bar split into the norm's share (its colour) and the rest (grey), scaled to the slowest variant.
void draw_variant_card(const TrainingVariant& v, const Plot* map, const TrainingLabSnapshot& snap, double slowest_ms,
                       ImVec2 size, float side, const Fonts& fonts, std::string& status, const CardWords& words) {
    const float width = size.x;
    // A child of the card's size: what does not fit is cut at its edge, never pushed into the next card.
    ImGui::BeginChild("card", size, false, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse | ImGuiWindowFlags_NavFlattened);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const std::string name(display_name(v.norm));
    if (side > 0.0f && v.run.grid && map != nullptr) {
        const ImVec2 p0 = ImGui::GetCursorScreenPos();   // left-aligned, as the caption below
        draw_map(dl, p0, side, *map);
        if (v.diverged_at > 0) draw_diverged_over_map(dl, p0, side, v.diverged_at, fonts.bold);
        ImGui::Dummy(ImVec2(width, side));
        const std::string help = tr("{0}: the class the model predicts at each point of the plane at step {1}"
                                    " (colour: the class; paler: less sure, white: 50/50), with the training cases as dots"
                                    " (rings: test cases, when shown). Right-click: save it as a figure.",
                                    name, v.run.step);
        tooltip(v.diverged_at > 0 ? tr(kDivergedHelp) : help.c_str());
        if (std::string saved = figure_context_menu("map figure", map->name, [map] { return *map; }); !saved.empty())
            status = std::move(saved);
    }
    // The longest text that fits in `room`.
    const auto first_fitting = [](std::initializer_list<std::string> texts, float room) {
        for (const std::string& t : texts)
            if (ImGui::CalcTextSize(t.c_str()).x <= room) return t;
        return *(texts.end() - 1);
    };
    swatch(norm_color(v.norm));
    ImGui::PushFont(words.name);
    ImGui::TextUnformatted(name.c_str());
    ImGui::PopFont();
    if (!words.below) {
        ImGui::SameLine();
        ImGui::SetCursorPosY(ImGui::GetCursorPosY() + words.name->Ascent - words.result->Ascent);   // one baseline
    }
    ImGui::PushFont(words.result);
    if (v.diverged_at > 0) {
        const std::string at = std::to_string(v.diverged_at);
        ImGui::TextColored(kErrorText, "%s",
                           first_fitting({tr("✗ diverged at step {0}", at), tr("✗ diverged"), "✗ " + at},
                                         ImGui::GetContentRegionAvail().x).c_str());
        tooltip(tr(kDivergedHelp));
    } else {
        const EvalResult& e = v.run.last_eval ? *v.run.last_eval : v.initial;
        char pct[32];
        std::snprintf(pct, sizeof pct, "%.1f%%", 100.0 * e.test_accuracy);
        ImGui::TextUnformatted(words.test_word ? tr("test {0}", pct).c_str() : pct);
        const std::string help =
            tr("Accuracy on the {0} test cases at the last evaluation (step {1}); training set {2}%, test loss {3}.",
               snap.data->test_x.rows(), v.run.history.eval_step.empty() ? 0 : v.run.history.eval_step.back(),
               format_number(100.0 * e.train_accuracy, 3), format_number(e.test_loss, 3));
        tooltip(help.c_str());
    }
    ImGui::PopFont();
    // Time per step.
    ImGui::PushFont(fonts.small);
    const StepTime t = median_step_time(v.run.history);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float bar_h = 0.7f * ImGui::GetFontSize(), bar_w = 0.3f * width;
    const float y = p.y + 0.5f * (ImGui::GetTextLineHeight() - bar_h);
    const float total = slowest_ms > 0.0 ? bar_w * static_cast<float>(t.total_ms() / slowest_ms) : 0.0f;
    const float norm = t.total_ms() > 0.0 ? total * static_cast<float>(t.norm_ms / t.total_ms()) : 0.0f;
    dl->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + norm, y + bar_h), to_u32(norm_color(v.norm)));
    dl->AddRectFilled(ImVec2(p.x + norm, y), ImVec2(p.x + total, y + bar_h), IM_COL32(170, 170, 170, 255));
    ImGui::Dummy(ImVec2(bar_w, ImGui::GetTextLineHeight()));
    ImGui::SameLine();
    const std::string ms = format_number(t.total_ms(), 2) + " ms";
    char share[32];
    std::snprintf(share, sizeof share, "%.0f%%", 100.0 * t.norm_ms / std::max(1e-12, t.total_ms()));
    if (v.run.history.norm_ms.empty()) {
        ImGui::TextDisabled("%s", tr("no step yet"));
    } else if (v.norm == Norm::None) {
        ImGui::TextDisabled("%s", ms.c_str());
    } else {
        ImGui::TextDisabled("%s", first_fitting({tr("{0} · {1} norm", ms, share), ms + " · " + share, ms},
                                                ImGui::GetContentRegionAvail().x).c_str());
    }
    ImGui::PopFont();
    const std::string time_help =
        tr("Median wall-clock time per step so far: {0} ms, of which {1} ms in the norm layers (forward and backward: "
           "the bar's coloured part) and the rest in the dense layers, activations, loss and optimizer (grey). Bars are "
           "to scale.",
           format_number(t.total_ms(), 3), format_number(t.norm_ms, 3));

    tooltip(time_help.c_str());
    ImGui::EndChild();
}

// The height of a variant card's words under its map: the name row (a frame high, room for the
// bold name with its result on its baseline) and the time row.
float variant_caption_height(const Fonts& fonts) { return ImGui::GetFrameHeightWithSpacing() + 1.2f * fonts.small->FontSize; }

// The slowest variant's median step time: the time bars' full length.
double slowest_step_ms(const TrainingLabSnapshot& snap) {
    double slowest = 0.0;
    for (const TrainingVariant& v : snap.variants) slowest = std::max(slowest, median_step_time(v.run.history).total_ms());
    return slowest;
}

// The narrowest card whose name (and, with `result`, its result) fits on one line, in the small font.
float variant_card_min_width(const TrainingLabSnapshot& snap, const Fonts& fonts, bool result = true) {
    return name_lead_width(snap, fonts.small) + (result ? text_w(fonts.small, "100.0%") : 0.0f);
}

// The variants side by side (in rows, where one row would leave a card too narrow for its name
// and result), maps at most max_side pixels square.
void draw_variant_row(const TrainingLabSnapshot& snap, TrainingUi& ui, const Fonts& fonts, float max_side,
                      std::string& status) {
    const std::size_t n = snap.variants.size();
    if (n == 0 || !snap.data) return;
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    const float avail = ImGui::GetContentRegionAvail().x;
    const auto fit = static_cast<std::size_t>(std::floor((avail + spacing) / (variant_card_min_width(snap, fonts) + spacing)));
    const std::size_t rows = (n + std::max<std::size_t>(fit, 1) - 1) / std::max<std::size_t>(fit, 1);
    const std::size_t cols = (n + rows - 1) / rows;   // rows as even as they can be: 2 + 2, not 3 + 1
    const float width = std::floor((avail - static_cast<float>(cols - 1) * spacing) / static_cast<float>(cols));
    const bool maps = snap.data->features() == 2;
    const float side = maps ? std::min(width, max_side) : 0.0f;
    const double slowest = slowest_step_ms(snap);
    const std::vector<Plot>& map_figures = map_plots(ui);
    const float caption_h = variant_caption_height(fonts);
    const ImVec2 size(width, side + (maps ? ImGui::GetStyle().ItemSpacing.y : 0.0f) + caption_h);
    const CardWords words = card_words(snap, fonts, width, false);
    for (std::size_t i = 0; i < n; ++i) {
        if (i % cols != 0) ImGui::SameLine();
        ImGui::PushID(static_cast<int>(i));
        draw_variant_card(snap.variants[i], map_of(map_figures, snap.variants[i]), snap, slowest, size, side, fonts, status, words);
        ImGui::PopID();
    }
    if (!maps)
        ImGui::TextDisabled(tr("Decision maps need 2 features; %s has %d."), snap.data->name.c_str(),
                            static_cast<int>(snap.data->features()));
}

// The width a card needs for its name and result on one line ("■ LayerNorm 98.4%", the number
// in the small font at least): below it, the result takes a line of its own under the name.
float result_row_width(const TrainingLabSnapshot& snap, const Fonts& fonts) {
    return name_lead_width(snap, fonts.bold) + text_w(fonts.small, "100.0%");   // at least in the small font
}

// The variants in the grid (columns: 1 to all of them) that gives the largest maps in `size`,
// the fewest columns of those: a slide's figure.
void draw_variant_grid(const TrainingLabSnapshot& snap, TrainingUi& ui, const Fonts& fonts, ImVec2 size,
                       std::string& status) {
    const int n = static_cast<int>(snap.variants.size());
    if (n == 0 || !snap.data || snap.data->features() != 2) return draw_variant_row(snap, ui, fonts, size.y, status);
    const float sp = ImGui::GetStyle().ItemSpacing.x;
    const float row_w = result_row_width(snap, fonts);
    // The words under a map `card_w` wide: name and result on one line where they fit, else two.
    const auto caption_h = [&](float card_w) {
        return variant_caption_height(fonts) + sp + (card_w < row_w ? ImGui::GetTextLineHeightWithSpacing() : 0.0f);
    };
    int cols = 1;
    float side = 0.0f;
    const float min_w = variant_card_min_width(snap, fonts, false);   // each card's name on one line
    for (int c = 1; c <= n; ++c) {
        const float w = (size.x - static_cast<float>(c - 1) * sp) / static_cast<float>(c);
        if (c > 1 && w < min_w) break;
        const int r = (n + c - 1) / c;
        const float s = std::floor(std::min(w, (size.y - static_cast<float>(r - 1) * sp) / static_cast<float>(r) - caption_h(w)));
        if (s > side) {
            side = s;
            cols = c;
        }
    }
    const float card_w = std::floor((size.x - static_cast<float>(cols - 1) * sp) / static_cast<float>(cols));
    const double slowest = slowest_step_ms(snap);
    const std::vector<Plot>& map_figures = map_plots(ui);
    const CardWords words = card_words(snap, fonts, card_w, true);   // below exactly where card_w < row_w
    for (int i = 0; i < n; ++i) {
        if (i % cols != 0) ImGui::SameLine();
        ImGui::PushID(i);
        const auto k = static_cast<std::size_t>(i);
        draw_variant_card(snap.variants[k], map_of(map_figures, snap.variants[k]), snap, slowest,
                          ImVec2(card_w, side + caption_h(card_w)), side, fonts, status, words);
        ImGui::PopID();
    }
}

// [SECTION] Figures -------------------------------------------------------------------------

// The figure of `f`, rebuilt by build(hidden) when the snapshot, `built_for` or the legend changed.
template <class Build>
const Plot& figure(TrainingFigure& f, const PlotView& view, int generation, int built_for, Build build) {
    return f.get({generation, built_for, view.hidden}, [&] { return build(view.hidden); });
}

const Plot& loss_figure(TrainingUi& ui, const TrainingLabState& s) {
    return figure(ui.loss, ui.loss_view, ui.generation, static_cast<int>(s.axis),
                  [&](const std::vector<std::string>& h) { return training_loss_plot(*ui.shown, s.axis, h); });
}
const Plot& accuracy_figure(TrainingUi& ui, const TrainingLabState& s) {
    return figure(ui.accuracy, ui.accuracy_view, ui.generation, static_cast<int>(s.axis),
                  [&](const std::vector<std::string>& h) { return training_accuracy_plot(*ui.shown, s.axis, h); });
}
const Plot& grad_figure(TrainingUi& ui, const TrainingLabState& s) {
    return figure(ui.grads, ui.grad_view, ui.generation, s.grad_variant, [&](const std::vector<std::string>&) {
        return training_grad_norm_plot(*ui.shown, kTrainingNorms[std::clamp(s.grad_variant, 0, kTrainingNormCount - 1)]);
    });
}
const Plot& time_figure(TrainingUi& ui) {
    return figure(ui.time, ui.time_view, ui.generation, ui.gpu_costs.empty() ? 0 : 1, [&](const std::vector<std::string>& h) {
        return training_time_plot(*ui.shown, h, ui.gpu_costs);
    });
}

// The GPU kernels' forward + backward at the model's activation shape, per training step: one
// norm layer per hidden layer. On a software renderer the "GPU" is this CPU, and the label says so.
std::vector<NormStepCost> gpu_step_costs(const NormKernelTimes* t, int layers) {
    if (t == nullptr) return {};
    const bool cpu = is_software_renderer(t->renderer);
    const auto label = [&](const char* norm) {
        if (layers == 1) return cpu ? tr("llvmpipe (CPU) {0} ×{1} layer", norm, layers) : tr("GPU {0} ×{1} layer", norm, layers);
        return cpu ? tr("llvmpipe (CPU) {0} ×{1} layers", norm, layers) : tr("GPU {0} ×{1} layers", norm, layers);
    };
    return {{Norm::LayerNorm, layers * (t->layernorm_forward_ms + t->layernorm_backward_ms), label("LayerNorm")},
            {Norm::RMSNorm, layers * (t->rmsnorm_forward_ms + t->rmsnorm_backward_ms), label("RMSNorm")}};
}

// What the figures show: the x axis of loss and accuracy, whose gradients, the test points.
void draw_figure_section(TrainingContext& ctx, TrainingLabState& s, TrainingUi& ui, const Fonts& fonts) {
    heading(fonts.heading, tr("Figures"));
    const std::string axis_help = action_tooltip(kActions[kAxis]);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("x:");
    ImGui::SameLine();
    if (ImGui::RadioButton(tr("step###axis_step"), s.axis == TrainingAxis::Step) && s.axis != TrainingAxis::Step) kActions[kAxis].apply(ctx);
    tooltip(axis_help.c_str());
    same_line_if_fits(radio_width(tr("compute time")), ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x);
    if (ImGui::RadioButton(tr("compute time"), s.axis == TrainingAxis::Time) && s.axis != TrainingAxis::Time)
        kActions[kAxis].apply(ctx);
    tooltip(axis_help.c_str());
    const int k = std::clamp(s.grad_variant, 0, kTrainingNormCount - 1);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(tr("∂L/∂W of"));
    ImGui::SameLine();
    ImGui::SetNextItemWidth(7.0f * ImGui::GetFontSize());
    if (ImGui::BeginCombo("##grad_variant", std::string(display_name(kTrainingNorms[k])).c_str())) {
        for (int j = 0; j < kTrainingNormCount; ++j) {
            if (!s.variants[static_cast<std::size_t>(j)]) continue;
            if (ImGui::Selectable(std::string(display_name(kTrainingNorms[j])).c_str(), j == k)) s.grad_variant = j;
        }
        ImGui::EndCombo();
    }
    tooltip(action_tooltip(kActions[kGradVariant]).c_str());
    same_line_if_fits(radio_width(tr("test points")), ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x);
    ImGui::BeginDisabled(!ui.shown || !ui.shown->data || ui.shown->data->features() != 2);
    ImGui::Checkbox(tr("test points"), &ui.show_test_points);
    ImGui::EndDisabled();
    tooltip(tr("Draw the test cases on the decision maps too, as rings (the dots are the training cases); 2D data only."));
}

void draw_figures(const TrainingLabState& s, TrainingUi& ui, const Fonts& fonts) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float w = std::floor(0.5f * (ImGui::GetContentRegionAvail().x - style.ItemSpacing.x));
    const float h = std::max(std::floor(0.5f * (ImGui::GetContentRegionAvail().y - style.ItemSpacing.y)),
                             16.0f * ImGui::GetFontSize());   // else: scroll (the legends fit inside)
    draw_plot(ui.loss_view, loss_figure(ui, s), fonts, ImVec2(w, h));
    tooltip(tr("Cross-entropy on the whole test set (solid) and training set (dashed), evaluated 100 times per run; "
            "click a name in the legend to hide that variant."));
    ImGui::SameLine();
    draw_plot(ui.accuracy_view, accuracy_figure(ui, s), fonts, ImVec2(w, h));
    tooltip(tr("Accuracy on the whole test set (solid) and training set (dashed); dotted: chance (100/K %)."));
    draw_plot(ui.grad_view, grad_figure(ui, s), fonts, ImVec2(w, h));
    tooltip(tr("‖∂L/∂W‖ of each dense layer's weights, per step (mean over each run of steps), for one variant (key G): "
            "how the norms keep the layers' gradients in proportion (NormFormer's measure, per layer)."));
    ImGui::SameLine();
    draw_plot(ui.time_view, time_figure(ui), fonts, ImVec2(w, h));
    tooltip(tr("Wall-clock milliseconds per step (median over each run of steps): the whole step (solid) and the part "
            "inside the norm layers (dashed). LayerNorm's mean makes it costlier than RMSNorm."));
}

// [SECTION] The lab window ------------------------------------------------------------------

void draw_stress_banner(const TrainingLabState& s) {
    if (s.stress) {
        ImGui::TextColored(kWarnText,
                           tr("⚠ Stress test: learning rate × %.3g = %s. Which variants diverge? (key L ends it)"),
                           s.stress_factor, format_number(training_lab_lr(s), 3).c_str());
    }
}

void draw_training_lab(TrainingContext& ctx) {
    TrainingLabState& s = ctx.session.training;
    TrainingUi& ui = ctx.ui;
    const Fonts& fonts = ctx.fonts;
    sync_run(s, ui, ctx.info.scripted);
    take_latest(ui);
    ctx.app.animate |= ui.playing;   // a run draws at the frame rate (frame_pacer.hpp)

    if (show_controls(ctx.app)) {
        begin_controls_panel(0.26f, 19.0f, 24.0f);
        draw_run_section(ctx, s, ui, fonts);
        draw_data_section(s, ui, fonts);
        draw_model_section(s, fonts);
        draw_optimizer_section(s, fonts);
        draw_variants_section(s, fonts);
        draw_figure_section(ctx, s, ui, fonts);
        end_controls_panel();
    }

    begin_panel("results");
    draw_stress_banner(s);
    ui.gpu_costs = gpu_step_costs(draw_gpu_norm_caption(ctx, static_cast<int>(s.train.batch_size),   // gpu_caption.hpp
                                                         static_cast<int>(s.train.model.width)),
                                  s.train.model.hidden_layers);
    if (!ui.problem.empty()) {
        ImGui::TextColored(kErrorText, "✗ %s", ui.problem.c_str());
    } else if (!ui.shown) {
        ImGui::TextDisabled("%s", tr("Preparing the data and the variants…"));
    } else if (!ui.shown->error.empty()) {
        push_wrap_at_edge();
        ImGui::TextColored(kErrorText, tr("✗ Cannot train: %s"), ui.shown->error.c_str());
        ImGui::PopTextWrapPos();
    } else {
        draw_variant_row(*ui.shown, ui, fonts, std::floor(0.27f * ImGui::GetContentRegionAvail().y), ctx.app.status);
        ImGui::Spacing();
        draw_figures(s, ui, fonts);
    }
    ImGui::EndChild();
}

std::vector<Plot> training_lab_plots(TrainingContext& ctx) {
    const TrainingLabState& s = ctx.session.training;
    TrainingUi& ui = ctx.ui;
    if (!ui.shown) return normlab::training_lab_plots(run_training_lab(s), s, ui.show_test_points);
    std::vector<Plot> plots = normlab::training_lab_plots(*ui.shown, s, ui.show_test_points);
    // Those on screen as the lecturer left them (zoom and legend switches), found by name.
    const std::pair<const Plot*, const PlotView*> shown[] = {{&loss_figure(ui, s), &ui.loss_view},
                                                             {&accuracy_figure(ui, s), &ui.accuracy_view},
                                                             {&grad_figure(ui, s), &ui.grad_view},
                                                             {&time_figure(ui), &ui.time_view}};
    for (const auto& [figure, view] : shown) plot_named(plots, figure->name) = plot_as_shown(*figure, *view);
    return plots;
}

// [SECTION] Presenter slide ---------------------------------------------------------------

void update_training_slide(TrainingContext& ctx) {
    sync_run(ctx.session.training, ctx.ui, ctx.info.scripted);
    take_latest(ctx.ui);
    ctx.app.animate |= ctx.ui.playing;   // a run draws at the frame rate, as in draw_training_lab
}

void draw_training_figure(TrainingContext& ctx, const std::string& id, ImVec2 size) {
    const TrainingLabState& s = ctx.session.training;
    TrainingUi& ui = ctx.ui;
    push_wrap_at_edge();
    if (!ui.problem.empty()) {
        ImGui::TextColored(kErrorText, "✗ %s", ui.problem.c_str());
    } else if (!ui.shown) {
        ImGui::TextDisabled("%s", tr("Preparing the data and the variants…"));
    } else if (!ui.shown->error.empty()) {
        ImGui::TextColored(kErrorText, tr("✗ Cannot train: %s"), ui.shown->error.c_str());
    }
    ImGui::PopTextWrapPos();
    if (!ui.problem.empty() || !ui.shown || !ui.shown->error.empty()) return;
    if (id == "training_maps") {
        draw_variant_grid(*ui.shown, ui, ctx.fonts, size, ctx.app.status);
    } else if (id == "training_loss") {
        draw_plot(ui.loss_view, loss_figure(ui, s), ctx.fonts, size);
    } else if (id == "training_accuracy") {
        draw_plot(ui.accuracy_view, accuracy_figure(ui, s), ctx.fonts, size);
    } else if (id == "training_grad_norms") {
        draw_plot(ui.grad_view, grad_figure(ui, s), ctx.fonts, size);
    } else {   // "training_step_time"
        draw_plot(ui.time_view, time_figure(ui), ctx.fonts, size);
    }
}

void draw_training_control(TrainingContext& ctx, const std::string& id) {
    const TrainingUi& ui = ctx.ui;
    const bool shown = ui.shown && ui.shown->error.empty() && ui.problem.empty();
    draw_run_control(ctx, id, kActions[kPlay], kActions[kReset], ui.playing, shown && ui.shown->done() && !ui.playing,
                     shown ? tr("step {0} / {1}", ui.shown->step, ctx.session.training.train.steps) : std::string());

}

void set_training_playing(TrainingContext& ctx, bool playing) {
    ctx.ui.playing = playing;
    ctx.ui.restart = true;   // from step 0, as the slide opens
}

const SlideParts<TrainingContext> kTrainingSlide{
    {{{"training_maps", 3.2f}, {"training_loss", 1.6f}, {"training_accuracy", 1.6f}, {"training_grad_norms", 1.6f},
      {"training_step_time", 1.6f}},
     2, {{"play"}, {"reset"}}},
    update_training_slide, draw_training_figure, draw_training_control, set_training_playing};

}  // namespace

const LabWindow<TrainingContext> kTrainingWindow{&kTrainingInfo, draw_training_lab, training_lab_plots, training_lab_actions, &kTrainingSlide};

}  // namespace normlab::ui
