// Tests of core/src/labs/training_lab.cpp: the variants start from identical data and weights, the
// worker publishes exactly the steps it was asked for (and its numbers are the synchronous
// run's), divergence is caught and never reaches a figure, the figures, the scene JSON.
// No test measures or waits on wall-clock time: the worker is joined to step counts.
#include "normlab/labs/training_lab.hpp"

#include "normlab/labs/state_json.hpp"
#include "normlab/base/i18n.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>

namespace normlab {
namespace {

// A short spiral run of all six variants.
TrainingLabState short_state(int steps = 60) {
    TrainingLabState s;
    s.train.steps = steps;
    s.variants.fill(true);
    return s;
}

// Dense layers' W and c by parameter name ("hidden1.W", …, "output.c").
// The values in double, whatever the trainer's precision.
std::vector<std::pair<std::string, Mat>> dense_params(Trainer& t) {
    std::vector<std::pair<std::string, Mat>> out;
    std::visit(
        [&](auto& m) {
            for (const auto* p : m.mlp.params()) {
                const std::string& n = p->name;
                if (n.size() > 2 && (n.compare(n.size() - 2, 2, ".W") == 0 || n.compare(n.size() - 2, 2, ".c") == 0))
                    out.emplace_back(n, p->value.template cast<double>());
            }
        },
        t.models());
    return out;
}

void expect_all_finite(const Plot& p) {
    for (const Series& s : p.series) {
        for (double v : s.x) EXPECT_TRUE(std::isfinite(v)) << p.name;
        for (double v : s.y) EXPECT_TRUE(std::isfinite(v)) << p.name;
    }
}

// [SECTION] Same start ----------------------------------------------------------------------

TEST(TrainingLab, VariantsStartFromIdenticalWeightsAndData) {
    const TrainingLabState s = short_state();
    const Dataset data = make_dataset(s.data);
    std::optional<std::vector<std::pair<std::string, Mat>>> first;
    for (Norm norm : training_variants(s)) {
        SCOPED_TRACE(std::string(to_string(norm)));
        const TrainConfig c = training_variant_config(s, norm);
        EXPECT_EQ(c.model.norm.norm, norm);
        EXPECT_EQ(c.seed, s.train.seed);
        Trainer t(data, c);
        const auto params = dense_params(t);
        ASSERT_EQ(params.size(), 6u);   // hidden1, hidden2, output: W and c each
        if (!first) {
            first = params;
            continue;
        }
        for (std::size_t i = 0; i < params.size(); ++i) {
            EXPECT_EQ(params[i].first, (*first)[i].first);
            EXPECT_TRUE(params[i].second == (*first)[i].second) << params[i].first;
        }
    }
    // Another seed, other weights.
    TrainingLabState other = s;
    other.train.seed = 2;
    Trainer a(data, training_variant_config(s, Norm::RMSNorm)), b(data, training_variant_config(other, Norm::RMSNorm));
    EXPECT_FALSE(dense_params(a)[0].second == dense_params(b)[0].second);
}

TEST(TrainingLab, ConfigsFollowTheState) {
    TrainingLabState s = short_state(2000);
    s.variants = {false, true, false, true, false, false};
    EXPECT_EQ(training_variants(s), (std::vector<Norm>{Norm::LayerNorm, Norm::PRMSNorm}));
    TrainConfig c = training_variant_config(s, Norm::PRMSNorm);
    EXPECT_EQ(c.eval_every, 2000 / kTrainingEvaluations);
    EXPECT_EQ(c.optimizer.lr, s.train.optimizer.lr);
    s.stress = true;
    c = training_variant_config(s, Norm::PRMSNorm);
    EXPECT_DOUBLE_EQ(c.optimizer.lr, 30.0 * s.train.optimizer.lr);
    EXPECT_DOUBLE_EQ(training_lab_lr(s), c.optimizer.lr);
    s.train.steps = 10;
    EXPECT_EQ(training_variant_config(s, Norm::None).eval_every, 1);
}

TEST(TrainingLab, ProblemsInWords) {
    TrainingLabState s;
    EXPECT_EQ(training_lab_problem(s), "");
    s.variants.fill(false);
    EXPECT_EQ(training_lab_problem(s), "Tick at least one variant to train.");
    const TrainingLabSnapshot none = run_training_lab(s);
    EXPECT_EQ(none.error, "Tick at least one variant to train.");
    EXPECT_TRUE(none.done());
    s.variants[2] = true;
    s.data.kind = DatasetKind::Csv;
    EXPECT_NE(training_lab_problem(s).find("Type the path of a CSV file"), std::string::npos);
    s.data.kind = DatasetKind::Spiral;
    s.train.model.width = 300;
    EXPECT_EQ(training_lab_problem(s), "Width 300 is out of range [2, 256].");
}

TEST(TrainingLab, BadCsvFileIsAnErrorInTheSnapshot) {
    const std::string path = ::testing::TempDir() + "training_lab_bad.csv";
    std::ofstream(path) << "x1,x2,label\n1,2,0\n3,abc,1\n";
    TrainingLabState s = short_state();
    s.data.kind = DatasetKind::Csv;
    s.data.path = path;
    const TrainingLabSnapshot r = run_training_lab(s);
    EXPECT_NE(r.error.find(path + " line 3, column 2"), std::string::npos) << r.error;
    EXPECT_FALSE(r.data);
    EXPECT_TRUE(r.variants.empty());
    // The worker says the same, and wait_for returns.
    TrainingLabWorker w(s);
    EXPECT_FALSE(w.wait_for(1));
    ASSERT_TRUE(w.latest());
    EXPECT_EQ(w.latest()->error, r.error);
}

// Six variants of about 1 GB each (20,000 training cases × 6 layers × 256 units) are refused
// together before any trainer is built; one of them alone runs.
TEST(TrainingLab, VariantsTogetherAreHeldToTheMemoryBudget) {
    const std::string path = ::testing::TempDir() + "training_lab_rows.csv";
    {
        std::ofstream out(path);
        for (int i = 0; i < 25000; ++i) out << (i % 97) << ',' << (i % 89) << ',' << (i % 2) << '\n';
    }
    TrainingLabState s = short_state(1);
    s.data.kind = DatasetKind::Csv;
    s.data.path = path;
    s.data.train_ratio = 0.8;
    s.train.model.width = 256;
    s.train.model.hidden_layers = 6;
    const double one = train_memory_bytes(20000, 5000, 2, 2, training_variant_config(s, Norm::LayerNorm));
    ASSERT_LT(one, kTrainMemoryBudget);
    ASSERT_GT(6 * one, kTrainMemoryBudget);
    const TrainingLabSnapshot r = run_training_lab(s);
    EXPECT_NE(r.error.find(path + " has 25000 rows × 2 features: training 6 variants side by side needs about "),
              std::string::npos)
        << r.error;
    EXPECT_NE(r.error.find("more than the limit of 2.0 GB: tick fewer variants"), std::string::npos) << r.error;
    EXPECT_TRUE(r.variants.empty());
}

TEST(TrainingLab, SameRunIgnoresDisplayOnly) {
    const TrainingLabState a = short_state();
    TrainingLabState b = a;
    b.steps_per_second = 17;
    b.axis = TrainingAxis::Time;
    b.grad_variant = 5;
    b.stress_factor = 10;   // stress is off: the factor does not matter
    EXPECT_TRUE(same_run(a, b));
    b.stress = true;
    EXPECT_FALSE(same_run(a, b));
    b = a;
    b.train.optimizer.lr = 0.02;
    EXPECT_FALSE(same_run(a, b));
    b = a;
    b.variants[5] = false;
    EXPECT_FALSE(same_run(a, b));
}

TEST(TrainingLab, RecommendedSettingsPerDataSetAndOptimizer) {
    TrainingLabState s;
    s.train.model.hidden_layers = 4;
    training_lab_choose_dataset(s, DatasetKind::Digits);
    EXPECT_EQ(s.data.kind, DatasetKind::Digits);
    EXPECT_EQ(s.train.model.width, 64);
    EXPECT_DOUBLE_EQ(s.train.optimizer.lr, 0.003);
    EXPECT_EQ(s.train.batch_size, 64);
    EXPECT_DOUBLE_EQ(s.data.train_ratio, 0.8);
    EXPECT_EQ(s.train.model.hidden_layers, 4);   // kept
    training_lab_choose_optimizer(s, OptimizerKind::SGD);
    EXPECT_DOUBLE_EQ(s.train.optimizer.lr, 0.1);
    training_lab_choose_dataset(s, DatasetKind::Moons);
    EXPECT_EQ(s.train.model.width, 32);
    EXPECT_DOUBLE_EQ(s.train.optimizer.lr, 0.1);   // SGD's
}

// [SECTION] Runs and the worker -------------------------------------------------------------

TEST(TrainingLab, SynchronousRunMatchesTheTrainers) {
    const TrainingLabState s = short_state(40);
    const TrainingLabSnapshot r = run_training_lab(s);
    ASSERT_EQ(r.error, "");
    ASSERT_EQ(r.variants.size(), 6u);
    EXPECT_EQ(r.step, 40);
    EXPECT_TRUE(r.done());
    ASSERT_TRUE(r.data);
    for (const TrainingVariant& v : r.variants) {
        SCOPED_TRACE(std::string(to_string(v.norm)));
        Trainer t(*r.data, training_variant_config(s, v.norm));
        const EvalResult initial = t.evaluate();
        EXPECT_EQ(v.initial.test_loss, initial.test_loss);
        while (!t.finished()) t.step();
        EXPECT_EQ(v.run.history.train_loss, t.history().train_loss);
        EXPECT_EQ(v.run.history.grad_norms, t.history().grad_norms);
        EXPECT_EQ(v.diverged_at, 0);
        ASSERT_TRUE(v.run.grid);
        EXPECT_EQ(v.run.grid->size, kTrainingGridSize);
    }
}

TEST(TrainingLab, WorkerPublishesExactlyTheStepsAskedFor) {
    const TrainingLabState s = short_state(60);
    const TrainingLabSnapshot whole = run_training_lab(s);
    TrainingLabWorker w(s);
    ASSERT_TRUE(w.wait_for(0));
    EXPECT_EQ(w.latest()->step, 0);
    EXPECT_FALSE(w.playing());
    EXPECT_EQ(w.advance(10), 10);
    EXPECT_EQ(w.advance(15), 25);   // a second advance before the first is done adds to it
    ASSERT_TRUE(w.wait_for(25));
    auto snap = w.latest();
    EXPECT_EQ(snap->step, 25);
    for (std::size_t k = 0; k < snap->variants.size(); ++k) {
        const TrainHistory& h = snap->variants[k].run.history;
        ASSERT_EQ(h.train_loss.size(), 25u);
        const std::vector<double>& full = whole.variants[k].run.history.train_loss;
        EXPECT_EQ(h.train_loss, std::vector<double>(full.begin(), full.begin() + 25));
    }
    EXPECT_FALSE(w.wait_for(26));   // paused at 25: returns rather than block
    // Play to the end as fast as it goes: the last snapshot is the whole run's.
    w.play(0.0);
    ASSERT_TRUE(w.wait_for(60));
    snap = w.latest();
    EXPECT_TRUE(snap->done());
    EXPECT_FALSE(w.playing());
    for (std::size_t k = 0; k < snap->variants.size(); ++k)
        EXPECT_EQ(snap->variants[k].run.history.train_loss, whole.variants[k].run.history.train_loss);
    EXPECT_EQ(w.advance(5), 60);   // nothing beyond the last step
}

// A run that plays to its end: wait_for(last step) returns once that step is published (the
// worker marks the run done before it publishes; waiting returned early on that once). One
// variant: the race is the worker's, not the models'.
TEST(TrainingLab, WaitingForTheLastStepSeesItPublished) {
    TrainingLabState s = short_state(30);
    s.variants = {false, false, true, false, false, false};
    for (int round = 0; round < 20; ++round) {
        TrainingLabWorker w(s);
        w.play(0.0);
        ASSERT_TRUE(w.wait_for(30)) << "round " << round;
        EXPECT_EQ(w.latest()->step, 30) << "round " << round;
        EXPECT_TRUE(w.latest()->done());
    }
}

TEST(TrainingLab, WorkerStopsCleanlyWhilePlaying) {
    TrainingLabState s = short_state(kTrainingMaxSteps);
    s.variants = {false, false, true, false, false, false};
    {
        TrainingLabWorker w(s);
        w.play(kTrainingMinSpeed);   // slow: the destructor must not wait for the pace
        ASSERT_TRUE(w.wait_for(0));
        EXPECT_TRUE(w.playing());
        w.pause();
        EXPECT_FALSE(w.playing());
        w.play(0.0);
    }   // joined here, mid-run
    SUCCEED();
}

// [SECTION] Divergence ----------------------------------------------------------------------

// Moons with SGD at 10× its learning rate: the net without a norm blows up (its loss passes
// 10¹³), while RMSNorm trains.
TrainingLabState diverging_state() {
    TrainingLabState s;
    training_lab_choose_dataset(s, DatasetKind::Moons);
    training_lab_choose_optimizer(s, OptimizerKind::SGD);
    s.train.steps = 400;
    s.variants = {true, false, true, false, false, false};
    s.stress = true;
    s.stress_factor = 10.0;
    return s;
}

TEST(TrainingLab, DivergenceIsCaughtAndNeverReachesAFigure) {
    const TrainingLabState s = diverging_state();
    const TrainingLabSnapshot r = run_training_lab(s);
    ASSERT_EQ(r.error, "");
    ASSERT_EQ(r.variants.size(), 2u);
    const TrainingVariant& none = r.variants[0];
    const TrainingVariant& rms = r.variants[1];
    ASSERT_GT(none.diverged_at, 0);
    EXPECT_EQ(rms.diverged_at, 0);
    EXPECT_EQ(r.step, 400);
    EXPECT_FALSE(r.done() && r.step < 400);
    const TrainHistory& h = none.run.history;
    EXPECT_EQ(h.train_loss.size(), static_cast<std::size_t>(none.diverged_at - 1));
    EXPECT_EQ(none.run.step, none.diverged_at - 1);
    const double bound = kDivergedLossFactor * std::log(2.0);
    for (double loss : h.train_loss) EXPECT_TRUE(std::isfinite(loss) && loss <= bound);
    for (int step : h.eval_step) EXPECT_LT(step, none.diverged_at);
    ASSERT_TRUE(none.run.grid);   // the last one before it diverged
    EXPECT_TRUE(none.run.grid->probs.allFinite());

    for (const Plot& p : training_lab_plots(r, s)) {
        SCOPED_TRACE(p.name);
        expect_all_finite(p);
    }
    const Plot loss = training_loss_plot(r, TrainingAxis::Step);
    const std::string mark = "✗ diverged at step " + std::to_string(none.diverged_at);
    ASSERT_EQ(loss.annotations.size(), 1u);
    EXPECT_EQ(loss.annotations[0].text, mark);
}

TEST(TrainingLab, EveryVariantDivergedMeansDone) {
    TrainingLabState s = diverging_state();
    s.variants = {true, false, false, false, false, false};
    TrainingLabWorker w(s);
    w.play(0.0);
    ASSERT_FALSE(w.wait_for(400));   // returns once the only variant has diverged
    const auto snap = w.latest();
    EXPECT_TRUE(snap->done());
    EXPECT_LT(snap->step, 400);
    EXPECT_EQ(snap->step, snap->variants[0].diverged_at);
}

// [SECTION] Figures -------------------------------------------------------------------------

TEST(TrainingLab, Figures) {
    TrainingLabState s = short_state(200);
    s.variants = {true, true, true, false, false, false};
    const TrainingLabSnapshot r = run_training_lab(s);
    const std::vector<Plot> plots = training_lab_plots(r, s);
    std::vector<std::string> names;
    for (const Plot& p : plots) {
        names.push_back(p.name);
        expect_all_finite(p);
    }
    EXPECT_EQ(names, (std::vector<std::string>{"training_loss_vs_step", "training_accuracy_vs_step",
                                               "training_loss_vs_time", "training_accuracy_vs_time",
                                               "training_grad_norms", "training_step_time", "training_map_none",
                                               "training_map_layernorm", "training_map_rmsnorm"}));

    // Loss: per variant a dashed training curve, a solid test curve, and the legend key.
    const Plot& loss = plots[0];
    ASSERT_EQ(loss.series.size(), 9u);
    EXPECT_EQ(loss.series[2].label, "None");
    EXPECT_TRUE(loss.series[2].x.empty());
    EXPECT_EQ(loss.series[4].line, LineStyle::Solid);
    EXPECT_EQ(loss.series[3].line, LineStyle::Dashed);
    EXPECT_EQ(loss.series[4].color.r, norm_color(Norm::LayerNorm).r);
    const std::size_t evals = r.variants[1].run.history.eval.size();
    ASSERT_EQ(loss.series[4].x.size(), evals + 1);   // step 0 first
    EXPECT_EQ(loss.series[4].x.front(), 0.0);
    EXPECT_EQ(loss.series[4].x.back(), 200.0);
    EXPECT_EQ(loss.series[4].y.front(), r.variants[1].initial.test_loss);
    EXPECT_EQ(loss.series[4].y.back(), r.variants[1].run.history.eval.back().test_loss);
    EXPECT_EQ(*loss.x.max, 200.0);   // the whole run's width from the start: curves grow into it
    EXPECT_EQ(loss.y.scale, Scale::Log10);

    // Against time: the x of each evaluation is the compute time so far, increasing.
    const Plot& loss_t = plots[2];
    const std::vector<double>& xt = loss_t.series[4].x;
    for (std::size_t i = 1; i < xt.size(); ++i) EXPECT_GE(xt[i], xt[i - 1]);
    EXPECT_DOUBLE_EQ(xt.back(), compute_ms(r.variants[1].run.history, 2).back());   // runs of 200 / 100 steps

    // Accuracy: percent, with the chance line.
    const Plot& acc = plots[1];
    EXPECT_EQ(acc.series[4].y.back(), 100.0 * r.variants[1].run.history.eval.back().test_accuracy);
    ASSERT_EQ(acc.ref_lines.size(), 1u);
    EXPECT_EQ(acc.ref_lines[0].value, 50.0);
    EXPECT_EQ(acc.series.back().label, "chance (50%)");
    // The axis zooms to the curves and chance (steps of 10 points), not a fixed 0–100.
    double lowest = 50.0, highest = 50.0;
    for (const Series& series : acc.series)
        for (double v : series.y) lowest = std::min(lowest, v), highest = std::max(highest, v);
    EXPECT_LE(*acc.y.min, lowest);
    EXPECT_GT(*acc.y.min, lowest - 10.5);
    EXPECT_GE(*acc.y.max, highest);
    EXPECT_LE(*acc.y.max, 100.0);
    EXPECT_GT(*acc.y.min, 0.0);   // spiral's curves start near chance (50%): 0–40 would be empty

    // Hiding a variant drops its curves, keeps its key.
    const Plot hidden = training_loss_plot(r, TrainingAxis::Step, {"LayerNorm"});
    ASSERT_EQ(hidden.series.size(), 7u);
    EXPECT_EQ(hidden.series[3].label, "LayerNorm");

    // Gradient norms: one labelled curve per dense layer of the chosen variant (RMSNorm).
    const Plot& grads = plots[4];
    ASSERT_EQ(grads.series.size(), 3u);
    EXPECT_EQ(grads.series[0].label, "hidden1");
    EXPECT_EQ(grads.series[2].label, "output");
    EXPECT_EQ(series_name(grads.series[0]), "hidden1");   // the CSV's name in every language
    {
        struct EnglishAfter {
            ~EnglishAfter() { set_language(Language::En, Catalog{}); }
        } restore;
        ASSERT_TRUE(set_language(Language::Ko, NORMLAB_ASSETS_DIR "/i18n").empty());
        const Plot ko = training_grad_norm_plot(r, Norm::RMSNorm);
        EXPECT_EQ(ko.series[1].label, "은닉층 2");
        EXPECT_EQ(ko.series[2].label, "출력층");
        EXPECT_EQ(series_name(ko.series[2]), "output");
        ASSERT_TRUE(set_language(Language::Zh, NORMLAB_ASSETS_DIR "/i18n").empty());
        EXPECT_EQ(training_grad_norm_plot(r, Norm::RMSNorm).series[0].label, "隐藏层 1");
    }
    EXPECT_LE(grads.series[0].x.size(), static_cast<std::size_t>(kTrainingPlotPoints));
    EXPECT_NE(grads.title.find("RMSNorm"), std::string::npos);
    s.grad_variant = 5;   // BatchNorm: not in this run
    EXPECT_NE(training_grad_norm_plot(r, Norm::BatchNorm).title.find("not trained in this run"), std::string::npos);

    // Time: the variant without a norm has no dashed "inside the norms" curve.
    const Plot& time = plots[5];
    ASSERT_EQ(time.series.size(), 2u + 3u + 3u);
    EXPECT_EQ(time.series[1].label, "None");
    EXPECT_EQ(time.series[3].line, LineStyle::Dashed);
    EXPECT_EQ(time.y.scale, Scale::Log10);

    // Costs measured elsewhere (the GPU's): a dotted line across the run, after its variant's
    // key, in its colour, with its own legend entry; switched off, the entry alone. A norm not in
    // the run (pRMSNorm) draws nothing.
    const std::vector<NormStepCost> gpu = {{Norm::LayerNorm, 0.25, "GPU LayerNorm ×2 layers"},
                                           {Norm::PRMSNorm, 0.5, "GPU pRMSNorm ×2 layers"}};
    const Plot with_gpu = training_time_plot(r, {}, gpu);
    ASSERT_EQ(with_gpu.series.size(), time.series.size() + 1);
    const Series& across = with_gpu.series[5];   // None: solid, key; LayerNorm: solid, dashed, key; this
    EXPECT_EQ(across.label, "GPU LayerNorm ×2 layers");
    EXPECT_EQ(across.line, LineStyle::Dotted);
    EXPECT_EQ(across.color.r, norm_color(Norm::LayerNorm).r);
    EXPECT_EQ(across.x, (std::vector<double>{1.0, 200.0}));
    EXPECT_EQ(across.y, (std::vector<double>{0.25, 0.25}));
    EXPECT_GE(*with_gpu.y.max, 0.25);   // the axis reaches it
    EXPECT_NE(with_gpu.caption.find("Dotted: the GPU lab's"), std::string::npos);
    const Plot gpu_off = training_time_plot(r, {"GPU LayerNorm ×2 layers"}, gpu);
    EXPECT_TRUE(gpu_off.series[5].x.empty());
    EXPECT_EQ(gpu_off.series[5].label, "GPU LayerNorm ×2 layers");
}

// The pace achieved: steps over a window of at least a second, reset by a new run or a pause.
// A decision map: the variant's grid as cells (row iy·G + ix from the box's bottom left), tinted by
// class and confidence, its values in the CSV; the training cases over it, one series per class.
TEST(TrainingLab, DecisionMapIsTheGridAsAHeatMap) {
    TrainingLabState s = short_state(100);
    s.variants = {false, true, false, false, false, false};
    const TrainingLabSnapshot r = run_training_lab(s);
    ASSERT_EQ(r.variants.size(), 1u);
    const TrainingVariant& v = r.variants[0];
    ASSERT_TRUE(v.run.grid);
    const DecisionGrid& g = *v.run.grid;
    const Plot p = training_map_plot(r, v, true);
    EXPECT_EQ(p.name, "training_map_layernorm");
    EXPECT_EQ(p.title, "LayerNorm: decision map at step 100");
    ASSERT_TRUE(p.heat);
    const HeatMap& h = *p.heat;
    ASSERT_EQ(h.rows, kTrainingGridSize);
    ASSERT_EQ(h.cols, kTrainingGridSize);
    EXPECT_EQ(h.x0, g.box.x_min);
    EXPECT_EQ(h.y1, g.box.y_max);
    ASSERT_EQ(h.values.size(), 3u);   // predicted class, P(class 0), P(class 1)
    EXPECT_EQ(h.values[1].name, "P(class " + r.data->class_names[0] + ")");
    int full = 0, white = 0;
    for (Eigen::Index i = 0; i < g.argmax.size(); ++i) {
        const auto c = static_cast<std::size_t>(i);
        EXPECT_EQ(h.values[0].v[c], g.argmax(i));
        EXPECT_NEAR(h.values[1].v[c] + h.values[2].v[c], 1.0, 1e-12);
        // Hand-worked tint: white + 0.45·(class colour − white) at confidence ≥ 0.9, white at 0.5.
        const Color cls = training_class_color(g.argmax(i));
        if (g.confidence(i) >= kMapFullTintConfidence) {
            ++full;
            EXPECT_EQ(h.colors[c].g, static_cast<int>(std::lround(255 + (cls.g - 255.0) * 0.45)));
        } else if (g.confidence(i) <= 0.5 + 1e-12) {
            ++white;
            EXPECT_EQ(h.colors[c].r, 255);
        }
    }
    EXPECT_GT(full, 0);
    // Dots: every training case once, in its class's series; rings: the test cases.
    ASSERT_EQ(p.series.size(), 4u);
    EXPECT_EQ(p.series[0].x.size() + p.series[1].x.size(), static_cast<std::size_t>(r.data->train_raw.rows()));
    EXPECT_EQ(p.series[2].x.size() + p.series[3].x.size(), static_cast<std::size_t>(r.data->test_raw.rows()));
    EXPECT_EQ(p.series[2].marker, Marker::Ring);
    EXPECT_EQ(p.series[0].color.r, training_class_color(0).r);
    // CSV: one row per cell, then one per case, all named.
    const std::string csv = to_csv(p);
    const auto lines = static_cast<Eigen::Index>(std::count(csv.begin(), csv.end(), '\n'));
    EXPECT_EQ(lines, 1 + g.argmax.size() + r.data->train_raw.rows() + r.data->test_raw.rows());
    EXPECT_EQ(csv.find("\n,"), std::string::npos) << "a row without a series name";
    EXPECT_EQ(training_map_plot(r, v, false).series.size(), 2u);
}

// Data that are not 2D: the map's figure says why, with no cells.
TEST(TrainingLab, DecisionMapOfDataThatAreNot2D) {
    const std::string path = ::testing::TempDir() + "training_lab_3d.csv";
    {
        std::ofstream f(path);
        for (int i = 0; i < 40; ++i) f << i << "," << (i * 7) % 11 << "," << (i * 3) % 5 << "," << i % 2 << "\n";
    }
    TrainingLabState s = short_state(10);
    s.variants = {false, false, true, false, false, false};
    s.data.kind = DatasetKind::Csv;
    s.data.path = path;
    EXPECT_TRUE(training_lab_has_maps(s));   // a CSV file's columns are not known before it is read
    const TrainingLabSnapshot r = run_training_lab(s);
    ASSERT_TRUE(r.error.empty()) << r.error;
    const std::vector<Plot> plots = training_lab_plots(r, s);
    ASSERT_EQ(plots.back().name, "training_map_rmsnorm");
    EXPECT_FALSE(plots.back().heat);
    EXPECT_NE(plots.back().title.find("has 3 features (a map needs 2)"), std::string::npos) << plots.back().title;
}

TEST(TrainingLab, RateMeterMeasuresTheAchievedPace) {
    RateMeter m;
    EXPECT_FALSE(m.rate());
    m.update(0.0, 0, true);
    m.update(0.5, 10, true);
    EXPECT_FALSE(m.rate());   // not a whole second yet
    m.update(1.0, 27, true);
    ASSERT_TRUE(m.rate());
    EXPECT_DOUBLE_EQ(*m.rate(), 27.0);
    m.update(3.0, 127, true);
    EXPECT_DOUBLE_EQ(*m.rate(), 50.0);
    m.update(3.5, 0, true);   // a new run: the window starts again, the last rate stays shown
    m.update(4.5, 20, true);
    EXPECT_DOUBLE_EQ(*m.rate(), 20.0);
    m.update(5.0, 30, false);   // paused
    EXPECT_FALSE(m.rate());
}

TEST(TrainingLab, StepTimeSummaries) {
    TrainHistory h;
    h.norm_ms = {1.0, 3.0, 2.0};
    h.other_ms = {4.0, 4.0, 100.0};
    const StepTime t = median_step_time(h);
    EXPECT_EQ(t.norm_ms, 2.0);
    EXPECT_EQ(t.other_ms, 4.0);
    EXPECT_EQ(t.total_ms(), 6.0);
    EXPECT_EQ(compute_ms(h, 1), (std::vector<double>{5.0, 12.0, 114.0}));   // the plain sum
    // Runs of 3 steps at their median (7 ms): the paused third step costs what the others do.
    EXPECT_EQ(compute_ms(h, 3), (std::vector<double>{7.0, 14.0, 21.0}));
    h.norm_ms.push_back(1.0);
    h.other_ms.push_back(1.0);   // the next run starts
    EXPECT_EQ(compute_ms(h, 3), (std::vector<double>{7.0, 14.0, 21.0, 23.0}));
    EXPECT_EQ(median_step_time(TrainHistory{}).total_ms(), 0.0);
}

// [SECTION] Scene JSON ----------------------------------------------------------------------

TEST(TrainingLab, JsonRoundTrip) {
    TrainingLabState s;
    training_lab_choose_dataset(s, DatasetKind::Moons);
    s.data.noise = 0.2;
    s.train.seed = 7;
    s.train.model.hidden_layers = 3;
    s.train.model.activation = Activation::GELU;
    s.train.model.placement = Placement::AfterActivation;
    s.train.model.norm.p = 0.25;
    s.variants = {false, true, true, false, true, true};
    s.stress = true;
    s.stress_factor = 12;
    s.steps_per_second = 50;
    s.axis = TrainingAxis::Time;
    s.grad_variant = 4;
    const nlohmann::json j = state_to_json(s);
    EXPECT_EQ(j.at("dataset"), "moons");
    EXPECT_EQ(j.at("variants"), nlohmann::json({"layernorm", "rmsnorm", "l2norm", "batchnorm"}));
    TrainingLabState back;
    SceneReader in(j, "labs.training");
    state_from_json(in, back);
    EXPECT_TRUE(in.unread_keys().empty());
    EXPECT_TRUE(same_run(s, back));
    EXPECT_EQ(back.data.seed, 7u);
    EXPECT_EQ(back.steps_per_second, 50);
    EXPECT_EQ(back.axis, TrainingAxis::Time);
    EXPECT_EQ(back.grad_variant, 4);

    const nlohmann::json wide{{"width", 1000}}, all_train{{"train_ratio", 1.0}};
    SceneReader bad(wide, "labs.training");
    EXPECT_THROW(state_from_json(bad, back), InputError);
    SceneReader ratio(all_train, "labs.training");
    EXPECT_THROW(state_from_json(ratio, back), InputError);
}

}  // namespace
}  // namespace normlab
