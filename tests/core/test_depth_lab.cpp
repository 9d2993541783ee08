// Tests of the Depth lab's core (core/src/labs/depth_lab.cpp): the engine's order of work and its
// numbers (the same as normlab-cli depth's, bit for bit), what a change of each setting restarts,
// the sweep's divergence, samples, the claims against the measured facts, the figures (never a
// NaN drawn), and the scene-file pair. No test measures wall-clock time.
#include "normlab/labs/depth_lab.hpp"

#include "normlab/base/input_error.hpp"
#include "normlab/scene/scene.hpp"
#include "normlab/labs/state_json.hpp"
#include "sanitized.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <regex>
#include <utility>

namespace normlab {
namespace {

// A lab small enough to train in a fraction of a second: 2 layers of width 16.
DepthLabState small_state() {
    DepthLabState s;
    s.layers = 2;
    s.width = 16;
    s.heads = 2;
    s.steps = 6;
    s.measure_steps = 4;
    s.seeds = 2;
    s.sweep_points = 2;
    s.sweep_steps = 5;
    return s;
}

// Advances until nothing is left; returns the units of work done.
int run_all(DepthLab& lab, int limit = 10000) {
    int units = 0;
    while (units < limit && lab.advance(true)) ++units;
    return units;
}

// [SECTION] Engine ----------------------------------------------------------------------------

// operator== sees every field: one changed field makes two states unequal.
TEST(DepthLab, StateEqualityNoticesEveryField) {
    using Change = void (*)(DepthLabState&);
    const Change changes[] = {
        [](DepthLabState& s) { s.task = TaskKind::Copy; },
        [](DepthLabState& s) { s.text_path = "x.txt"; },
        [](DepthLabState& s) { s.placements[1] = false; },
        [](DepthLabState& s) { s.norm = Norm::RMSNorm; },
        [](DepthLabState& s) { s.layers = 3; },
        [](DepthLabState& s) { s.width = 32; },
        [](DepthLabState& s) { s.heads = 2; },
        [](DepthLabState& s) { s.residual_scale = true; },
        [](DepthLabState& s) { s.normformer.ffn_norm = false; },
        [](DepthLabState& s) { s.init = TransformerInit::Xavier; },
        [](DepthLabState& s) { s.steps = 101; },
        [](DepthLabState& s) { s.lr = 2e-3; },
        [](DepthLabState& s) { s.seed = 2; },
        [](DepthLabState& s) { s.measure_steps = 49; },
        [](DepthLabState& s) { s.seeds = 4; },
        [](DepthLabState& s) { s.evolution = 1; },
        [](DepthLabState& s) { s.sweep_lr_min = 2e-3; },
        [](DepthLabState& s) { s.sweep_lr_max = 0.3; },
        [](DepthLabState& s) { s.sweep_points = 5; },
        [](DepthLabState& s) { s.sweep_steps = 31; },
        [](DepthLabState& s) { s.prompt = "123"; },
        [](DepthLabState& s) { s.temperature = 0.5; },
        [](DepthLabState& s) { s.sample_lines = 2; },
        [](DepthLabState& s) { s.sample_seed = 2; },
        [](DepthLabState& s) { s.precision = Precision::F64; },
    };
    const DepthLabState base;
    EXPECT_TRUE(base == DepthLabState{});
    for (std::size_t i = 0; i < std::size(changes); ++i) {
        DepthLabState changed;
        changes[i](changed);
        EXPECT_TRUE(base != changed) << "change " << i;
    }
}

TEST(DepthLab, TrainsEveryPlacementThenSweepsThenSeedsThenRests) {
    DepthLab lab;
    lab.configure(small_state());
    DepthLabSnapshot s = lab.snapshot();
    EXPECT_TRUE(s.busy);
    ASSERT_EQ(s.runs.size(), 3u);
    ASSERT_EQ(s.sweep.size(), 6u);   // 2 learning rates × 3 placements
    ASSERT_EQ(s.seed_runs.size(), 3u);   // seed 2 of each placement, over the window of 4 steps
    EXPECT_EQ(s.seed_runs[2].seed, 2u);
    EXPECT_EQ(s.seed_runs[2].target, 4);
    EXPECT_EQ(s.vocab, 11);
    EXPECT_EQ(s.context, 12);

    // First the samples of the untrained models (one unit each), then one step of every run per unit.
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(lab.advance(true));
    s = lab.snapshot();
    for (const DepthRunView& r : s.runs) {
        EXPECT_EQ(r.run.step, 0);
        EXPECT_EQ(r.samples_step, 0);
        EXPECT_EQ(r.samples.size(), 3u);
    }
    ASSERT_TRUE(lab.advance(true));
    s = lab.snapshot();
    for (const DepthRunView& r : s.runs) EXPECT_EQ(r.run.step, 1);
    EXPECT_EQ(sweep_done(s), 0);

    // The runs' remaining 5 steps and the samples at their end, then the sweep before the seed
    // runs: a unit is one step of each of kDepthSideBySide = 6 points (both learning rates here).
    while (lab.snapshot().sweep.front().steps == 0) ASSERT_TRUE(lab.advance(true));
    s = lab.snapshot();
    for (const DepthRunView& r : s.runs) EXPECT_TRUE(r.done());
    for (const DepthSweepPoint& q : s.sweep) EXPECT_EQ(q.steps, 1);
    for (int i = 0; i < 4; ++i) ASSERT_TRUE(lab.advance(true));
    s = lab.snapshot();
    EXPECT_EQ(sweep_done(s), 6);
    EXPECT_TRUE(s.seed_runs.front().history.train_loss.empty());
    // Then one step of each placement with seed 2 per unit (3 runs ≤ 6): 4 units for the window of 4 steps.
    for (int i = 0; i < 4; ++i) ASSERT_TRUE(lab.advance(true));
    s = lab.snapshot();
    EXPECT_EQ(seed_runs_done(s), 3);
    for (const DepthSeedRun& q : s.seed_runs) EXPECT_EQ(q.history.train_loss.size(), 4u);

    const int units = run_all(lab);
    s = lab.snapshot();
    EXPECT_FALSE(s.busy);
    EXPECT_FALSE(lab.advance(true));
    EXPECT_EQ(s.work, lab.work());
    EXPECT_EQ(units, 0);   // the units above were all there was
    for (const DepthRunView& r : s.runs) {
        EXPECT_EQ(r.run.step, 6);
        EXPECT_TRUE(r.done());
        ASSERT_TRUE(r.final);
        EXPECT_TRUE(r.final->sequence_accuracy);
        EXPECT_EQ(r.samples_step, 6);   // redrawn when the run ended
    }
    EXPECT_EQ(sweep_done(s), 6);
    for (const DepthSweepPoint& q : s.sweep) EXPECT_EQ(q.steps, 5);
}

TEST(DepthLab, RunsAreTheCommandLinesRunsBitForBit) {
    const DepthLabState state = small_state();
    DepthLab lab;
    lab.configure(state);
    run_all(lab);
    const DepthLabSnapshot s = lab.snapshot();
    for (const DepthRunView& r : s.runs) {
        SCOPED_TRACE(r.placement);
        const DepthResult cli = run_depth(depth_run_config(state, r.placement));
        EXPECT_EQ(r.run.history.train_loss, cli.history.train_loss);
        EXPECT_EQ(r.run.history.ffn_grad, cli.history.ffn_grad);
        EXPECT_EQ(r.final->loss, cli.final.loss);
    }
    // Each seed run is that placement's run with its seed, over the window's steps.
    for (const DepthSeedRun& q : s.seed_runs) {
        SCOPED_TRACE(q.placement);
        DepthConfig c = depth_run_config(state, q.placement);
        c.seed = q.seed;
        const DepthResult cli = run_depth(c);
        const auto window = static_cast<std::ptrdiff_t>(depth_window(state));
        ASSERT_EQ(q.history.train_loss.size(), 4u);
        EXPECT_TRUE(std::equal(q.history.train_loss.begin(), q.history.train_loss.end(), cli.history.train_loss.begin()));
        for (std::size_t l = 0; l < q.history.ffn_grad.size(); ++l)
            EXPECT_EQ(q.history.ffn_grad[l], std::vector<double>(cli.history.ffn_grad[l].begin(),
                                                                 cli.history.ffn_grad[l].begin() + window));
    }
}

// Each sweep point, trained side by side with its learning rate's other placements, is that
// placement's sweep run trained alone: the same first loss and final (tail-mean) loss, bit for bit.
TEST(DepthLab, SweepPointsAreTheirRunsTrainedAlone) {
    for (const Precision precision : {Precision::F32, Precision::F64}) {
        SCOPED_TRACE(std::string(to_string(precision)));
        DepthLabState state = small_state();
        state.precision = precision;
        DepthLab lab;
        lab.configure(state);
        run_all(lab);
        const DepthLabSnapshot s = lab.snapshot();
        ASSERT_EQ(s.sweep.size(), 6u);
        for (const DepthSweepPoint& q : s.sweep) {
            SCOPED_TRACE(std::to_string(q.placement) + " at lr " + std::to_string(q.lr));
            DepthTrainer alone(depth_sweep_config(state, q.placement, q.lr));
            std::vector<double> losses;
            for (int k = 0; k < state.sweep_steps; ++k) losses.push_back(alone.step());
            ASSERT_EQ(q.steps, state.sweep_steps);
            EXPECT_EQ(q.first_loss, losses.front());
            double tail = 0.0;   // the mean of the last kDepthSweepTail losses, summed in order
            for (std::size_t k = losses.size() - kDepthSweepTail; k < losses.size(); ++k) tail += losses[k];
            EXPECT_EQ(q.final_loss, tail / kDepthSweepTail);
        }
    }
}

TEST(DepthLab, PausedItOnlySamplesAndStepRunsSteps) {
    DepthLab lab;
    lab.configure(small_state());
    int sampled = 0;
    while (lab.advance(false)) ++sampled;
    EXPECT_EQ(sampled, 3);
    EXPECT_EQ(lab.snapshot().runs.front().run.step, 0);
    EXPECT_TRUE(lab.step_runs());
    for (const DepthRunView& r : lab.snapshot().runs) EXPECT_EQ(r.run.step, 1);
}

TEST(DepthLab, EachSettingRestartsOnlyWhatItChanges) {
    DepthLabState state = small_state();
    DepthLab lab;
    lab.configure(state);
    while (lab.snapshot().runs.front().run.step < 4) lab.advance(true);
    const std::vector<double> loss = lab.snapshot().runs.front().run.history.train_loss;

    state.steps = 10;   // more steps: the runs continue
    lab.configure(state);
    EXPECT_EQ(lab.snapshot().runs.front().run.step, 4);
    state.temperature = 0.0;   // samples only: redrawn, no restart
    lab.configure(state);
    EXPECT_EQ(lab.snapshot().runs.front().run.step, 4);
    ASSERT_TRUE(lab.advance(false));
    EXPECT_EQ(lab.snapshot().runs.front().samples_step, 4);

    state.residual_scale = true;   // NormFormer only
    lab.configure(state);
    DepthLabSnapshot s = lab.snapshot();
    EXPECT_EQ(find_run(s, 0)->run.step, 4);
    EXPECT_EQ(find_run(s, 1)->run.step, 4);
    EXPECT_EQ(find_run(s, 2)->run.step, 0);
    while (find_run(lab.snapshot(), 2)->run.step < 4) lab.advance(true);
    const int pre_steps = find_run(lab.snapshot(), 1)->run.step;

    state.normformer.attn_norm = false;   // one of NormFormer's parts (the ablation): NormFormer only
    lab.configure(state);
    s = lab.snapshot();
    EXPECT_EQ(find_run(s, 1)->run.step, pre_steps);
    EXPECT_EQ(find_run(s, 2)->run.step, 0);

    state.seeds = 3;   // more seeds: the seed runs are planned again, the runs go on
    lab.configure(state);
    s = lab.snapshot();
    EXPECT_EQ(find_run(s, 1)->run.step, pre_steps);
    EXPECT_EQ(s.seed_runs.size(), 6u);
    EXPECT_EQ(s.seed_runs.back().seed, 3u);

    state.placements[1] = false;   // Pre-LN off: its run and its sweep points go
    lab.configure(state);
    s = lab.snapshot();
    EXPECT_EQ(find_run(s, 1), nullptr);
    EXPECT_EQ(s.sweep.size(), 4u);

    state.steps = 3;   // fewer steps than taken: from step 0 again, the same numbers
    lab.configure(state);
    EXPECT_EQ(find_run(lab.snapshot(), 0)->run.step, 0);
    while (lab.advance(true) && find_run(lab.snapshot(), 0)->run.step < 3) {
    }
    const std::vector<double> again = find_run(lab.snapshot(), 0)->run.history.train_loss;
    EXPECT_EQ(again, std::vector<double>(loss.begin(), loss.begin() + 3));

    state.lr = 2e-3;   // the learning rate: every run from step 0
    lab.configure(state);
    for (const DepthRunView& r : lab.snapshot().runs) EXPECT_EQ(r.run.step, 0);
}

// The placements' steps run side by side (the runs, the sweep's and the seeds'): one thread, two
// or three, the same numbers, the same units of work; in float32 and in float64.
TEST(DepthLab, ThreadsChangeNoNumberNorUnit) {
    for (const Precision precision : {Precision::F32, Precision::F64}) {
        DepthLabState state = small_state();
        state.precision = precision;
        DepthLab one;
        one.set_threads(1);
        one.configure(state);
        const int units = run_all(one);
        const DepthLabSnapshot a = one.snapshot();
        ASSERT_EQ(a.runs.size(), 3u);
        for (const unsigned threads : {2u, 3u}) {
            SCOPED_TRACE(std::string(to_string(precision)) + ", " + std::to_string(threads) + " threads");
            DepthLab more;
            more.set_threads(threads);
            more.configure(state);
            EXPECT_EQ(run_all(more), units);
            const DepthLabSnapshot b = more.snapshot();
            for (int p = 0; p < kDepthPlacementCount; ++p) {
                EXPECT_EQ(find_run(a, p)->run.history.train_loss, find_run(b, p)->run.history.train_loss);
                EXPECT_EQ(find_run(a, p)->run.history.ffn_grad, find_run(b, p)->run.history.ffn_grad);
                EXPECT_EQ(find_run(a, p)->final->loss, find_run(b, p)->final->loss);
            }
            ASSERT_EQ(a.seed_runs.size(), b.seed_runs.size());
            for (std::size_t i = 0; i < a.seed_runs.size(); ++i) {
                EXPECT_EQ(a.seed_runs[i].history.train_loss, b.seed_runs[i].history.train_loss);
                EXPECT_EQ(a.seed_runs[i].history.ffn_grad, b.seed_runs[i].history.ffn_grad);
            }
            ASSERT_EQ(a.sweep.size(), b.sweep.size());
            for (std::size_t i = 0; i < a.sweep.size(); ++i) {
                EXPECT_EQ(a.sweep[i].first_loss, b.sweep[i].first_loss);
                EXPECT_EQ(a.sweep[i].final_loss, b.sweep[i].final_loss);
                EXPECT_EQ(a.sweep[i].outcome, b.sweep[i].outcome);
            }
            EXPECT_EQ(a.work, b.work);
        }
    }
}

TEST(DepthLab, RestartGivesTheSameNumbers) {
    DepthLab lab;
    lab.configure(small_state());
    run_all(lab);
    const DepthLabSnapshot a = lab.snapshot();
    lab.restart();
    EXPECT_EQ(lab.snapshot().runs.front().run.step, 0);
    EXPECT_EQ(sweep_done(lab.snapshot()), 0);
    run_all(lab);
    const DepthLabSnapshot b = lab.snapshot();
    for (int p = 0; p < kDepthPlacementCount; ++p)
        EXPECT_EQ(find_run(a, p)->run.history.train_loss, find_run(b, p)->run.history.train_loss);
    for (std::size_t i = 0; i < a.sweep.size(); ++i) EXPECT_EQ(a.sweep[i].final_loss, b.sweep[i].final_loss);
}

TEST(DepthLab, SweepMarksDivergenceAtLargeLearningRates) {
    DepthLabState state = small_state();
    state.placements = {false, true, false};
    state.steps = 1;
    state.sweep_lr_min = 1e-3;
    state.sweep_lr_max = 1.0;
    state.sweep_points = 2;
    state.sweep_steps = 20;
    DepthLab lab;
    lab.configure(state);
    run_all(lab);
    const DepthLabSnapshot s = lab.snapshot();
    ASSERT_EQ(s.sweep.size(), 2u);
    EXPECT_EQ(s.sweep[0].outcome, SweepOutcome::Trained);
    EXPECT_LT(s.sweep[0].final_loss, s.sweep[0].first_loss);
    EXPECT_TRUE(s.sweep[1].outcome == SweepOutcome::Diverged || s.sweep[1].outcome == SweepOutcome::NotFinite);
    ASSERT_TRUE(divergence_lr(s, 1));
    EXPECT_DOUBLE_EQ(*divergence_lr(s, 1), 1.0);
    EXPECT_FALSE(divergence_lr(s, 0));
}

TEST(DepthLab, SweepLearningRatesAreLogSpaced) {
    DepthLabState s;
    s.sweep_lr_min = 1e-4;
    s.sweep_lr_max = 1e-1;
    s.sweep_points = 4;
    const std::vector<double> lrs = depth_sweep_lrs(s);
    ASSERT_EQ(lrs.size(), 4u);
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(std::log10(lrs[static_cast<std::size_t>(i)]), -4.0 + i, 1e-12);
}

// [SECTION] Worker ------------------------------------------------------------------------------

TEST(DepthLab, WorkerAdvancedByUnitsIsDeterministic) {
    const DepthLabState state = small_state();
    DepthLabWorker worker(state);
    std::uint64_t target = 0;
    for (int frame = 0; frame < 200; ++frame) {
        target = worker.advance(2);
        if (!worker.wait_for(target)) break;   // rests: nothing left
        EXPECT_EQ(worker.latest()->work, target);
    }
    const std::shared_ptr<const DepthLabSnapshot> s = worker.latest();
    ASSERT_TRUE(s);
    EXPECT_FALSE(s->busy);
    const DepthLabSnapshot whole = run_depth_lab(state);
    EXPECT_EQ(s->work, whole.work);
    for (int p = 0; p < kDepthPlacementCount; ++p)
        EXPECT_EQ(find_run(*s, p)->run.history.train_loss, find_run(whole, p)->run.history.train_loss);
    for (std::size_t i = 0; i < whole.sweep.size(); ++i) EXPECT_EQ(s->sweep[i].final_loss, whole.sweep[i].final_loss);
}

TEST(DepthLab, WorkerPlaysToTheEndStepsAndRestarts) {
    DepthLabState state = small_state();
    state.sweep_points = 2;
    DepthLabWorker worker(state);
    EXPECT_FALSE(worker.wait_for(~std::uint64_t{0}));   // paused: the samples, then it rests
    EXPECT_EQ(worker.latest()->runs.front().run.step, 0);
    EXPECT_EQ(worker.latest()->runs.front().samples_step, 0);

    worker.step();
    worker.wait_for(~std::uint64_t{0});
    EXPECT_FALSE(worker.playing());
    for (const DepthRunView& r : worker.latest()->runs) EXPECT_EQ(r.run.step, 1);

    worker.play();
    EXPECT_TRUE(worker.playing());
    worker.wait_for(~std::uint64_t{0});
    std::shared_ptr<const DepthLabSnapshot> s = worker.latest();
    EXPECT_FALSE(s->busy);
    EXPECT_EQ(sweep_done(*s), 6);
    for (const DepthRunView& r : s->runs) EXPECT_EQ(r.run.step, 6);

    state.steps = 8;   // more steps while playing: it trains on
    worker.configure(state);
    worker.wait_for(~std::uint64_t{0});
    for (const DepthRunView& r : worker.latest()->runs) EXPECT_EQ(r.run.step, 8);

    worker.pause();
    worker.restart();
    worker.wait_for(~std::uint64_t{0});
    s = worker.latest();
    for (const DepthRunView& r : s->runs) EXPECT_EQ(r.run.step, 0);
    EXPECT_EQ(sweep_done(*s), 0);
}

// [SECTION] Samples and errors ----------------------------------------------------------------

TEST(DepthLab, SortSamplesAreCheckedAgainstTheAnswer) {
    DepthLabState state = small_state();
    state.prompt = "314159|";
    DepthLab lab;
    lab.configure(state);
    lab.advance(false);
    const DepthLabSnapshot s = lab.snapshot();
    const DepthRunView& r = s.runs.front();
    ASSERT_EQ(r.samples.size(), 3u);
    EXPECT_EQ(r.samples[0].prompt, "314159|");
    EXPECT_EQ(r.samples[0].expected, "113459");
    EXPECT_EQ(r.samples[0].output.size(), 6u);
    EXPECT_EQ(r.samples[0].correct, r.samples[0].output == "113459");
    EXPECT_NE(r.samples[1].prompt, r.samples[0].prompt);

    state.prompt = "3141";
    lab.configure(state);
    lab.advance(false);
    const DepthLabSnapshot t = lab.snapshot();
    const DepthRunView& bad = t.runs.front();
    EXPECT_TRUE(bad.samples.empty());
    EXPECT_EQ(bad.sample_error, "the prompt needs 6 digits, as the problems the models learn (got 4)");
    state.prompt = "31415x";
    lab.configure(state);
    lab.advance(false);
    EXPECT_NE(lab.snapshot().runs.front().sample_error.find("only digits 0–9"), std::string::npos);
}

TEST(DepthLab, TextSamplesStopAfterTheirLines) {
    DepthLabState state = small_state();
    state.task = TaskKind::Text;
    state.prompt = "The lamp";
    state.sample_lines = 2;
    DepthLab lab;
    lab.configure(state);
    lab.advance(false);
    const DepthLabSnapshot s = lab.snapshot();
    const DepthRunView& r = s.runs.front();
    ASSERT_EQ(r.samples.size(), 1u);
    EXPECT_EQ(r.samples[0].prompt, "The lamp");
    EXPECT_LE(std::count(r.samples[0].output.begin(), r.samples[0].output.end(), '\n'), 2);
    EXPECT_FALSE(r.samples[0].output.empty());
    state.prompt = "The lamp€";
    lab.configure(state);
    lab.advance(false);
    EXPECT_NE(lab.snapshot().runs.front().sample_error.find("the prompt"), std::string::npos);
}

TEST(DepthLab, AMissingTextFileSaysSoAndTrainsNothing) {
    DepthLabState state = small_state();
    state.task = TaskKind::Text;
    state.text_path = "/nonexistent/notes.txt";
    DepthLab lab;
    lab.configure(state);
    const DepthLabSnapshot s = lab.snapshot();
    EXPECT_TRUE(s.runs.empty());
    EXPECT_TRUE(s.sweep.empty());
    EXPECT_NE(s.error.find("/nonexistent/notes.txt"), std::string::npos) << s.error;
    EXPECT_FALSE(lab.advance(true));
    state.text_path.clear();   // the bundled text again
    lab.configure(state);
    EXPECT_TRUE(lab.snapshot().error.empty());
    EXPECT_EQ(lab.snapshot().runs.size(), 3u);
}

// [SECTION] Claims ------------------------------------------------------------------------------

// The lab's snapshot once its runs and seed runs are trained. The sweep, which trains before the
// seeds, is shrunk to its least (2 learning rates × 5 steps) to keep the tests short.
DepthLabSnapshot trained(DepthLabState state) {
    state.sweep_points = kDepthMinSweepPoints;
    state.sweep_steps = kDepthMinSweepSteps;
    DepthLab lab;
    lab.configure(state);
    const auto all_done = [](const DepthLabSnapshot& s) {
        return std::all_of(s.runs.begin(), s.runs.end(), [](const DepthRunView& r) { return r.done(); }) &&
               seed_runs_done(s) == static_cast<int>(s.seed_runs.size());
    };
    while (!all_done(lab.snapshot()) && lab.advance(true)) {
    }
    return lab.snapshot();
}

// The measured facts of depth_lab.hpp: the defaults, the first 50 steps, seed 1 alone.
TEST(DepthLab, ClaimsAtTheDefaultsStateWhatIsMeasured) {
    if (normlab::test::kSanitized)
        GTEST_SKIP() << "a science check of the defaults' runs (minutes under ASan); the other DepthLab tests run the same engine";
    DepthLabState state;
    state.steps = 50;
    state.seeds = 1;
    const DepthLabSnapshot s = trained(state);
    ASSERT_TRUE(measured_ratio(s, 0) && measured_ratio(s, 1) && measured_ratio(s, 2));
    EXPECT_NEAR(*measured_ratio(s, 0), 1.42, 0.01);
    EXPECT_NEAR(*measured_ratio(s, 1), 1.72, 0.01);
    EXPECT_NEAR(*measured_ratio(s, 2), 3.01, 0.01);
    const std::vector<DepthClaim> claims = depth_claims(s);
    ASSERT_EQ(claims.size(), 4u);
    EXPECT_EQ(claims[0].verdict, DepthVerdict::DoesNotHold);   // Post-LN ≤ 1/1.1 (Xiong et al.)
    EXPECT_EQ(claims[0].measured, "first ÷ last 1.42, seed 1 only, steps 1–50");
    EXPECT_EQ(claims[1].verdict, DepthVerdict::Partly);        // Pre-LN: larger (≥ 1.1), not much larger (≥ 2)
    EXPECT_EQ(verdict_text(claims[1]), "◐ larger, not much");
    EXPECT_EQ(claims[2].verdict, DepthVerdict::DoesNotHold);   // NormFormer more even
    EXPECT_EQ(claims[2].measured, "NormFormer 3.01, Pre-LN 1.72 (seed 1 only, steps 1–50); more even in 0 of 1");
    EXPECT_EQ(claims[3].verdict, DepthVerdict::NotYet);        // the sweep has only begun
    EXPECT_EQ(depth_conditions(s), "6 layers · width 64 · 4 heads · LayerNorm · sort of 6 digits 0–9 · Adam lr 0.001 · "
                                   "batch 32 · seed 1 · 0.30 M parameters");
}

// The shipped scene assets/scenes/postln_xavier_init.json says, in its caption, what this model
// shows with Xavier init over its seeds: Post-LN's later layers larger over the first 10 steps in
// every seed, Pre-LN's earlier ones, and Post-LN back above 1 over 50 steps. Its runs, trained
// here over the scene's seeds (each run 10 steps; the 50-step check on seed 1 alone), must keep
// saying so, and the caption's seed range must hold these seeds' ratios.
TEST(DepthLab, TheXavierSceneShowsWhatItsCaptionSays) {
    if (normlab::test::kSanitized)
        GTEST_SKIP() << "a science check of the shipped scene's full runs (minutes under ASan); the other DepthLab tests run the same engine";
    const Scene scene = load_scene(std::string(NORMLAB_ASSETS_DIR) + "/scenes/postln_xavier_init.json");
    ASSERT_EQ(scene.lab, "depth");
    DepthLabState state = scene.session.depth;
    ASSERT_EQ(state.init, TransformerInit::Xavier);
    ASSERT_EQ(state.measure_steps, 10);
    ASSERT_GE(state.seeds, 3);
    state.steps = state.measure_steps;   // the table's numbers need only the measured steps
    const DepthLabSnapshot s = trained(state);
    const DepthRatios post = depth_ratios(s, 0), pre = depth_ratios(s, 1);
    ASSERT_TRUE(post.complete() && pre.complete());
    ASSERT_EQ(post.ratios.size(), static_cast<std::size_t>(state.seeds));
    for (double r : post.ratios) {
        EXPECT_LE(r, 1.0 / kDepthLarger);   // the later layers' larger, every seed
        EXPECT_GE(r, 0.58);                 // inside the caption's range over seeds 1–20: 0.58–1.02
        EXPECT_LE(r, 1.02);
    }
    for (double r : pre.ratios) EXPECT_GE(r, kDepthLarger);
    const std::vector<DepthClaim> claims = depth_claims(s);
    ASSERT_FALSE(claims.empty());
    EXPECT_EQ(claims[0].verdict, DepthVerdict::Holds);
    EXPECT_NE(scene.caption.find("below 1 in 19 of 20 seeds (0.58–1.02)"), std::string::npos) << scene.caption;

    DepthLabState fifty = scene.session.depth;
    fifty.placements = {true, false, false};   // Post-LN only
    fifty.measure_steps = fifty.steps = 50;
    fifty.seeds = 1;
    const std::optional<double> later = measured_ratio(trained(fifty), 0);
    ASSERT_TRUE(later);
    EXPECT_GT(*later, 1.0);   // (measured: 1.08)
}

// "NAME m ± s" in a caption: {m, s}; {0, 0} when absent.
std::pair<double, double> stated(const std::string& text, const std::string& name) {
    std::smatch m;
    if (!std::regex_search(text, m, std::regex(name + " (\\d\\.\\d\\d) ± (\\d\\.\\d\\d)"))) return {0.0, 0.0};
    return {std::stod(m[1]), std::stod(m[2])};
}

// The scene assets/scenes/postln_preln_normformer.json and the lecture's slide of it state this
// model's first ÷ last over steps 1–50, seeds 1–10 (normlab-cli depth --seeds 1-10): Pre-LN and
// NormFormer as mean ± sd. The lecture says the same numbers as the scene, and seeds 1–2 trained
// here (kept to two: 2 placements × 2 seeds × 50 steps) agree: NormFormer above Pre-LN, Pre-LN
// above kDepthLarger, each within 3 sd of the stated mean.
TEST(DepthLab, TheNormFormerSceneAndLectureSayWhatTheSeedsShow) {
    if (normlab::test::kSanitized)
        GTEST_SKIP() << "a science check of the shipped scene's full runs (minutes under ASan); the other DepthLab tests run the same engine";
    const std::string scene_path = std::string(NORMLAB_ASSETS_DIR) + "/scenes/postln_preln_normformer.json";
    const Scene scene = load_scene(scene_path);
    const Lecture lecture = load_lecture(std::string(NORMLAB_ASSETS_DIR) + "/lectures/rmsnorm_paper.json");
    const auto slide = std::find_if(lecture.slides.begin(), lecture.slides.end(), [](const LectureSlide& l) {
        return l.scene.find("postln_preln_normformer.json") != std::string::npos;
    });
    ASSERT_NE(slide, lecture.slides.end());
    const auto pre = stated(scene.caption, "Pre-LN"), nf = stated(scene.caption, "NormFormer");
    ASSERT_GT(pre.first, 0.0) << scene.caption;
    ASSERT_GT(nf.first, 0.0) << scene.caption;
    EXPECT_EQ(stated(slide->caption, "Pre-LN first ÷ last"), pre) << slide->caption;
    EXPECT_EQ(stated(slide->caption, "NormFormer"), nf) << slide->caption;
    for (const std::string& text : {scene.caption, slide->caption}) {
        EXPECT_NE(text.find("125M–2.7B parameters, pretraining"), std::string::npos) << text;
        EXPECT_NE(text.find("each added norm raises it"), std::string::npos) << text;
        EXPECT_EQ(text.find("rebalance"), std::string::npos) << text;
    }

    DepthLabState state = scene.session.depth;
    state.placements = {false, true, true};
    state.steps = state.measure_steps = 50;
    state.seeds = 2;
    const DepthLabSnapshot s = trained(state);
    const DepthRatios p = depth_ratios(s, 1), n = depth_ratios(s, 2);
    ASSERT_TRUE(p.complete() && n.complete());
    ASSERT_EQ(p.ratios.size(), 2u);
    ASSERT_EQ(n.ratios.size(), 2u);
    for (std::size_t k = 0; k < 2; ++k) {
        SCOPED_TRACE("seed " + std::to_string(p.seeds[k]) + ": Pre-LN " + std::to_string(p.ratios[k]) + ", NormFormer " +
                     std::to_string(n.ratios[k]));
        EXPECT_GT(n.ratios[k], p.ratios[k]);
        EXPECT_GT(p.ratios[k], kDepthLarger);
        EXPECT_NEAR(p.ratios[k], pre.first, 3.0 * pre.second);
        EXPECT_NEAR(n.ratios[k], nf.first, 3.0 * nf.second);
    }
    EXPECT_EQ(depth_claims(s)[2].verdict, DepthVerdict::DoesNotHold);   // NormFormer more even: in no seed
}

// A snapshot by hand: layer measures with a chosen first ÷ last, and sweep outcomes; one seed.
DepthLabSnapshot made_up(std::array<double, 3> ratio) {
    DepthLabSnapshot s;
    s.state.layers = 2;
    s.state.measure_steps = 2;
    s.state.seeds = 1;
    for (int p = 0; p < 3; ++p) {
        DepthRunView r;
        r.placement = p;
        r.run.step = 3;
        r.target_steps = 3;
        r.run.history.ffn_grad = {{ratio[static_cast<std::size_t>(p)], ratio[static_cast<std::size_t>(p)], 100.0},
                                  {1.0, 1.0, 1.0}};
        r.run.history.train_loss = {2.0, 1.5, 1.0};
        s.runs.push_back(r);
    }
    return s;
}

TEST(DepthLab, ClaimVerdictsFollowTheNumbers) {
    DepthLabSnapshot s = made_up({0.5, 2.0, 1.5});
    std::vector<DepthClaim> c = depth_claims(s);
    EXPECT_EQ(c[0].verdict, DepthVerdict::Holds);
    EXPECT_EQ(c[0].measured, "first ÷ last 0.5, seed 1 only, steps 1–2");   // step 3 (100 ÷ 1) is outside the window
    EXPECT_EQ(c[1].verdict, DepthVerdict::Holds);
    EXPECT_EQ(c[2].verdict, DepthVerdict::Holds);
    EXPECT_EQ(c[3].verdict, DepthVerdict::NotYet);

    // A run that is not learning: its ratio is shown, with the warning that it diverged.
    DepthLabSnapshot d = s;
    d.runs[0].run.history.train_loss = {2.0, 1.9, 2.1, 2.2, 2.0, 2.3, 2.4};
    EXPECT_TRUE(run_diverged(d.runs[0]));
    EXPECT_FALSE(run_diverged(d.runs[1]));
    EXPECT_EQ(depth_claims(d)[0].measured, "first ÷ last 0.5, seed 1 only, steps 1–2; but Post-LN diverged");
    d.runs[0].run.history.train_loss = {2.0, 1.9, 1.5, 1.2, 1.0, 0.9, 0.8};
    EXPECT_FALSE(run_diverged(d.runs[0]));
    d.runs[0].not_finite_at = 4;
    EXPECT_TRUE(run_diverged(d.runs[0]));

    s.sweep = {{1, 0.01, 5, 2.0, 1.0, SweepOutcome::Trained}, {2, 0.01, 5, 2.0, 1.0, SweepOutcome::Trained},
               {1, 0.1, 5, 2.0, 3.0, SweepOutcome::Diverged}, {2, 0.1, 5, 2.0, 1.2, SweepOutcome::Trained}};
    s.state.sweep_lr_max = 0.1;
    c = depth_claims(s);
    EXPECT_EQ(c[3].verdict, DepthVerdict::Holds);
    EXPECT_EQ(c[3].measured, "Pre-LN diverges from lr 0.1, NormFormer trains up to lr 0.1 (seed 1)");
    s.sweep[2].outcome = SweepOutcome::Trained;
    EXPECT_EQ(depth_claims(s)[3].verdict, DepthVerdict::NotYet);   // neither diverged: widen the sweep
    s.sweep[3].outcome = SweepOutcome::NotFinite;
    EXPECT_EQ(depth_claims(s)[3].verdict, DepthVerdict::DoesNotHold);

    s.runs.erase(s.runs.begin());   // no Post-LN run
    c = depth_claims(s);
    EXPECT_EQ(c[0].verdict, DepthVerdict::NotYet);
    EXPECT_EQ(c[0].measured, "Post-LN is not ticked");
    s.runs.front().run.history.ffn_grad.back() = {0.0, 0.0, 0.0};   // a last layer of 0: no ratio, no NaN
    EXPECT_FALSE(measured_ratio(s, 1));
    EXPECT_EQ(depth_claims(s)[1].verdict, DepthVerdict::NotYet);
}

// The thresholds, stated: "larger" at ≥ 1.1 (≤ 1/1.1 the other way), "much larger" at ≥ 2, in
// every seed. A ratio of 1.09 is not even "larger" (before: "✓" for "much larger").
TEST(DepthLab, VerdictsUseTheStatedThresholdsInEverySeed) {
    EXPECT_EQ(seeds_verdict({1.1, 1.5}, kDepthLarger), DepthVerdict::Holds);
    EXPECT_EQ(seeds_verdict({1.09, 1.5}, kDepthLarger), DepthVerdict::Mixed);
    EXPECT_EQ(seeds_verdict({1.09, 0.5}, kDepthLarger), DepthVerdict::DoesNotHold);
    EXPECT_EQ(seeds_verdict({0.9, 0.8}, 1.0 / kDepthLarger), DepthVerdict::Holds);
    EXPECT_EQ(seeds_verdict({0.95, 0.8}, 1.0 / kDepthLarger), DepthVerdict::Mixed);
    EXPECT_EQ(seeds_verdict({}, kDepthLarger), DepthVerdict::NotYet);

    const auto preln = [](double ratio) { return depth_claims(made_up({1.0, ratio, 1.0}))[1]; };
    EXPECT_EQ(preln(1.09).verdict, DepthVerdict::DoesNotHold);
    EXPECT_EQ(preln(1.5).verdict, DepthVerdict::Partly);
    EXPECT_EQ(preln(2.0).verdict, DepthVerdict::Holds);
    EXPECT_EQ(depth_claims(made_up({0.95, 1.0, 1.0}))[0].verdict, DepthVerdict::DoesNotHold);   // 0.95: about even
    EXPECT_NE(preln(1.5).claim.find("≥ 2"), std::string::npos);
    EXPECT_NE(preln(1.5).claim.find("≥ 1.1"), std::string::npos);
}

// Provisional until the window is trained (k of N steps), then until every seed is (k of n seeds);
// then the spread over the seeds and a verdict that needs every seed.
TEST(DepthLab, VerdictsWaitForTheWindowAndTheSeeds) {
    DepthLabSnapshot s = made_up({0.5, 2.5, 1.5});
    s.state.measure_steps = 3;
    s.state.steps = 50;
    for (DepthRunView& r : s.runs) {
        r.run.step = 2;   // 2 of the window's 3 steps
        for (std::vector<double>& g : r.run.history.ffn_grad) g.resize(2);
    }
    std::vector<DepthClaim> c = depth_claims(s);
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(c[static_cast<std::size_t>(i)].verdict, DepthVerdict::Provisional);
        EXPECT_EQ(verdict_text(c[static_cast<std::size_t>(i)]), "… provisional (2 of 3 steps)");
    }
    EXPECT_EQ(c[1].measured, "first ÷ last 2.5 so far (seed 1, steps 1–2 of 3)");

    for (DepthRunView& r : s.runs) {   // the window complete for seed 1; seeds 2 and 3 to come
        r.run.step = 3;
        r.run.history.ffn_grad = {{r.run.history.ffn_grad[0][0], r.run.history.ffn_grad[0][0], r.run.history.ffn_grad[0][0]},
                                  {1.0, 1.0, 1.0}};
    }
    s.state.seeds = 3;
    const auto seed_run = [](int p, std::uint64_t seed, double ratio, int steps) {
        DepthSeedRun q{p, seed, 3, {}, false};
        q.history.ffn_grad = {std::vector<double>(static_cast<std::size_t>(steps), ratio),
                              std::vector<double>(static_cast<std::size_t>(steps), 1.0)};
        q.history.train_loss.assign(static_cast<std::size_t>(steps), 1.0);
        return q;
    };
    s.seed_runs = {seed_run(1, 2, 1.5, 3), seed_run(1, 3, 2.2, 1)};   // Pre-LN: seed 2 done, seed 3 at step 1
    c = depth_claims(s);
    EXPECT_EQ(c[1].verdict, DepthVerdict::Provisional);
    EXPECT_EQ(verdict_text(c[1]), "… provisional (2 of 3 seeds)");
    EXPECT_EQ(c[1].measured, "first ÷ last 2.00 ± 0.71 (1.50–2.50) so far, 2 of 3 seeds, steps 1–3");

    s.seed_runs[1] = seed_run(1, 3, 2.2, 3);
    c = depth_claims(s);
    EXPECT_EQ(c[1].verdict, DepthVerdict::Partly);   // 2.5, 1.5, 2.2: larger in all, much larger in 2 of 3
    EXPECT_EQ(c[1].measured, "first ÷ last 2.07 ± 0.51 (1.50–2.50), seeds 1–3, steps 1–3");
    s.seed_runs[0] = seed_run(1, 2, 1.05, 3);
    c = depth_claims(s);
    EXPECT_EQ(c[1].verdict, DepthVerdict::Mixed);
    EXPECT_EQ(verdict_text(c[1]), "≈ larger in 2 of 3 seeds");
    // The even claim pairs seeds: NormFormer's seed runs are missing, so it waits.
    EXPECT_EQ(c[2].verdict, DepthVerdict::Provisional);
    s.seed_runs.push_back(seed_run(2, 2, 1.02, 3));
    s.seed_runs.push_back(seed_run(2, 3, 3.0, 3));
    c = depth_claims(s);
    EXPECT_EQ(c[2].verdict, DepthVerdict::Mixed);   // seed 1: 1.5 vs 2.5 ✓; 2: 1.02 vs 1.05 ✓; 3: 3.0 vs 2.2 ✗
    EXPECT_EQ(verdict_text(c[2]), "≈ 2 of 3 seeds");
}

// [SECTION] Plots -------------------------------------------------------------------------------

bool all_finite_or_skipped(const Plot& p) {
    for (const Series& s : p.series)
        for (double y : s.y)
            if (std::isnan(y)) return false;
    return true;
}

TEST(DepthLab, FiguresHaveOneSeriesPerRunInItsColour) {
    DepthLab lab;
    lab.configure(small_state());
    run_all(lab);
    const DepthLabSnapshot s = lab.snapshot();
    const std::vector<Plot> plots = depth_lab_plots(s);
    ASSERT_EQ(plots.size(), 4u);
    EXPECT_EQ(plots[0].name, "depth_loss");
    EXPECT_EQ(plots[1].name, "depth_layer_grads");
    EXPECT_EQ(plots[2].name, "depth_layer_grads_over_steps");
    EXPECT_EQ(plots[3].name, "depth_lr_sweep");
    for (const Plot& p : plots) EXPECT_TRUE(all_finite_or_skipped(p)) << p.name;

    ASSERT_EQ(plots[1].series.size(), 3u);
    for (int p = 0; p < 3; ++p) {
        const Series& bars = plots[1].series[static_cast<std::size_t>(p)];
        EXPECT_EQ(bars.kind, SeriesKind::Bars);
        EXPECT_EQ(bars.x, (std::vector<double>{1, 2}));
        EXPECT_EQ(bars.y, mean_layer_grads(find_run(s, p)->run.history, 4));
        EXPECT_EQ(to_hex(bars.color), to_hex(depth_placement_color(p)));
    }
    EXPECT_EQ(to_hex(depth_placement_color(0)), "#009e73");
    EXPECT_EQ(to_hex(depth_placement_color(1)), "#cc79a7");
    EXPECT_EQ(to_hex(depth_placement_color(2)), "#e69f00");
    EXPECT_EQ(plots[0].series[0].y, find_run(s, 0)->run.history.train_loss);

    // Evolution: NormFormer's two layers by default; first ÷ last of every run on request.
    EXPECT_EQ(plots[2].series.size(), 2u);
    EXPECT_EQ(plots[2].series[0].label, "layer 1");
    DepthLabSnapshot r = s;
    r.state.evolution = kDepthEvolutionRatio;
    const Plot ratio = depth_evolution_plot(r);
    ASSERT_EQ(ratio.series.size(), 3u);
    const std::vector<std::vector<double>>& g = find_run(s, 1)->run.history.ffn_grad;
    EXPECT_DOUBLE_EQ(ratio.series[1].y[1], (g[0][0] + g[0][1]) / (g[1][0] + g[1][1]));
    EXPECT_EQ(ratio.ref_lines.back().value, 1.0);
}

TEST(DepthLab, SweepFigureNeverDrawsNaNAndMarksDivergence) {
    DepthLabSnapshot s = made_up({1, 1, 1});
    s.vocab = 11;
    s.sweep = {{1, 0.01, 5, 2.3, 1.0, SweepOutcome::Trained},
               {1, 0.1, 3, 2.3, std::nan(""), SweepOutcome::NotFinite},
               {2, 0.01, 5, 2.3, 1.1, SweepOutcome::Trained},
               {2, 0.1, 5, 2.3, 9.5, SweepOutcome::Diverged},
               {0, 0.01, 0, 0.0, 0.0, SweepOutcome::Pending}};
    const Plot p = depth_sweep_plot(s);
    EXPECT_TRUE(all_finite_or_skipped(p));
    ASSERT_EQ(p.series.size(), 3u);   // Pre-LN, NormFormer (Post-LN: nothing done), the legend's key
    const Series& pre = p.series[0];
    ASSERT_EQ(pre.x.size(), 2u);
    EXPECT_DOUBLE_EQ(pre.y[1], 1.15 * 9.5);   // not finite: at the top, above every finite loss
    EXPECT_EQ(p.series[1].y[1], 9.5);
    ASSERT_EQ(p.annotations.size(), 1u);
    EXPECT_EQ(p.annotations[0].text, "✗ not finite");
    EXPECT_EQ(p.series[2].label, "diverges from here");
    EXPECT_TRUE(p.series[2].x.empty());
    int marked = 0;   // a dashed line in each diverged placement's colour, at its first diverged rate
    for (const RefLine& l : p.ref_lines)
        if (l.orientation == RefLine::Orientation::Vertical && l.value == 0.1 &&
            (to_hex(l.color) == to_hex(depth_placement_color(1)) || to_hex(l.color) == to_hex(depth_placement_color(2))))
            ++marked;
    EXPECT_EQ(marked, 2);
}

// [SECTION] Scene file ----------------------------------------------------------------------------

TEST(DepthLab, SceneFileRoundTripsAndRefusesBadValues) {
    DepthLabState a;
    a.task = TaskKind::Text;
    a.text_path = "notes.txt";
    a.placements = {true, false, true};
    a.norm = Norm::RMSNorm;
    a.width = 128;
    a.heads = 8;
    a.evolution = kDepthEvolutionRatio;
    a.prompt = "The keeper";
    a.seed = 7;
    a.seeds = 10;
    a.normformer = {false, true, true};
    const nlohmann::json j = state_to_json(a);
    DepthLabState b;
    SceneReader in(j, "labs.depth");
    state_from_json(in, b);
    EXPECT_TRUE(a == b);
    EXPECT_TRUE(in.unread_keys().empty());

    nlohmann::json bad = j;
    bad["width"] = 48;
    DepthLabState c;
    SceneReader in2(bad, "labs.depth");
    try {
        state_from_json(in2, c);
        FAIL() << "width 48 accepted";
    } catch (const InputError& e) {
        EXPECT_STREQ(e.what(), "labs.depth.width = 48 is not one of 8, 16, 32, 64, 128, 256");
    }
    for (const auto& [key, value] : {std::pair<const char*, nlohmann::json>{"normformer_parts", "ffn"}, {"seeds", 0}}) {
        nlohmann::json worse = j;
        worse[key] = value;
        DepthLabState d;
        SceneReader in3(worse, "labs.depth");
        EXPECT_THROW(state_from_json(in3, d), InputError) << key;
    }
}

}  // namespace
}  // namespace normlab
