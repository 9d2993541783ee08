// NormLab core: the Depth lab's claims, each checked against the runs it has measured, and the
// line that says under which conditions.
#include "normlab/labs/depth_lab.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <string>

namespace normlab {

// [SECTION] Claims --------------------------------------------------------------------------

namespace {
// How many ratios lie beyond the threshold: ≥ it when it is above 1, ≤ it when below.
long count_beyond(const std::vector<double>& ratios, double threshold) {
    return std::count_if(ratios.begin(), ratios.end(),
                         [threshold](double r) { return threshold > 1.0 ? r >= threshold : r <= threshold; });
}
}  // namespace

DepthVerdict seeds_verdict(const std::vector<double>& ratios, double threshold) {
    if (ratios.empty()) return DepthVerdict::NotYet;
    const long n = count_beyond(ratios, threshold);
    if (n == static_cast<long>(ratios.size())) return DepthVerdict::Holds;
    return n == 0 ? DepthVerdict::DoesNotHold : DepthVerdict::Mixed;
}

std::string verdict_text(const DepthClaim& c) {
    switch (c.verdict) {
        case DepthVerdict::Holds: return "✓ holds here";
        case DepthVerdict::Partly: return "◐ larger, not much";
        case DepthVerdict::Mixed: return "≈ " + c.progress;
        case DepthVerdict::DoesNotHold: return "✗ not here";
        case DepthVerdict::Provisional: return "… provisional (" + c.progress + ")";
        case DepthVerdict::NotYet: break;
    }
    return "… not yet";
}

DepthRatios depth_ratios(const DepthLabSnapshot& s, int p) {
    DepthRatios d;
    d.window = depth_window(s.state);
    d.planned = std::max(s.state.seeds, 1);
    const DepthRunView* r = find_run(s, p);
    if (r == nullptr) return d;
    d.main_steps = std::min(d.window, r->run.step);
    if (d.main_steps < 1) return d;
    const double main = window_ratio(r->run.history, d.main_steps);
    if (std::isfinite(main)) d.so_far = main;
    if (d.main_steps < d.window) return d;
    if (d.so_far) {
        d.ratios.push_back(main);
        d.seeds.push_back(s.state.seed);
    } else {
        ++d.failed;
    }
    for (const DepthSeedRun& q : s.seed_runs) {
        if (q.placement != p || !q.done()) continue;
        const double ratio = q.not_finite ? NAN : window_ratio(q.history, d.window);
        if (static_cast<int>(q.history.train_loss.size()) < d.window || !std::isfinite(ratio)) {
            d.failed += q.not_finite || !std::isfinite(ratio);
            continue;   // trained for a shorter window: not counted (it trains again)
        }
        d.ratios.push_back(ratio);
        d.seeds.push_back(q.seed);
    }
    return d;
}

std::optional<double> measured_ratio(const DepthLabSnapshot& s, int p) {
    const DepthRunView* r = find_run(s, p);
    if (r == nullptr || r->run.step < 1) return std::nullopt;
    const int n = std::min(std::max(s.state.measure_steps, 1), r->run.step);
    const double ratio = window_ratio(r->run.history, n);
    if (!std::isfinite(ratio)) return std::nullopt;
    return ratio;
}

namespace {

constexpr const char* kXiong = "Xiong et al. 2020: at initialization (Xavier init, mean-field theory)";
constexpr const char* kShleifer = "Shleifer et al. 2021, Fig. 2: language models of 125 M–2.7 B parameters, pretraining";
constexpr const char* kShleiferLr = "Shleifer et al. 2021: language models of 125 M parameters and more";

std::string ratio_text(double r) { return format_number(r, 3); }

// "1.77 ± 0.09 (1.65–1.90)"; one value alone: "1.77".
std::string ratios_text(const std::vector<double>& v) {
    const Spread sp = spread_of(v);
    return sp.n == 1 ? ratio_text(sp.mean) : spread_text(sp);
}

// "steps 1–50", "step 1".
std::string window_text(int n) { return n == 1 ? "step 1" : "steps 1–" + std::to_string(n); }

// "seeds 1–5", "seed 1", or "2 of 5 seeds" while some are still training.
std::string seeds_text(const DepthRatios& d) {
    const auto n = static_cast<int>(d.ratios.size());
    if (!d.complete()) return std::to_string(n) + " of " + std::to_string(d.planned) + " seeds";
    if (n == 1) return "seed " + std::to_string(d.seeds.front()) + " only";
    const auto [lo, hi] = std::minmax_element(d.seeds.begin(), d.seeds.end());
    return "seeds " + std::to_string(*lo) + "–" + std::to_string(*hi);
}

// "; but Pre-LN diverged": a ratio from a run that is not learning says little.
std::string diverged_note(const DepthLabSnapshot& s, std::initializer_list<int> placements) {
    std::string names;
    for (int p : placements)
        if (const DepthRunView* r = find_run(s, p); r != nullptr && run_diverged(*r))
            names += (names.empty() ? "" : " and ") + std::string(display_name(kAllNormPlacements[p]));
    return names.empty() ? "" : "; but " + names + " diverged";
}

// Why a ratio is missing, in a few words.
std::string missing_ratio(const DepthLabSnapshot& s, int p) {
    const DepthRunView* r = find_run(s, p);
    const std::string name(display_name(kAllNormPlacements[p]));
    if (r == nullptr) return name + " is not ticked";
    if (r->run.step < 1) return name + ": no step yet";
    return name + ": the measure is not finite (the loss was not finite)";
}

// Fills measured, verdict and progress while placement p's data is incomplete; true when it is
// complete (the caller states the verdict).
bool still_waiting(DepthClaim& c, const DepthLabSnapshot& s, int p, const DepthRatios& d) {
    if (s.state.layers < 2) {
        c.measured = "needs 2 layers or more";
        return true;
    }
    if (!d.so_far && d.ratios.empty()) {
        c.measured = missing_ratio(s, p);
        return true;
    }
    if (d.main_steps < d.window) {
        c.measured = "first ÷ last " + ratio_text(*d.so_far) + " so far (seed " + std::to_string(s.state.seed) + ", " +
                     window_text(d.main_steps) + " of " + std::to_string(d.window) + ")";
        c.verdict = DepthVerdict::Provisional;
        c.progress = std::to_string(d.main_steps) + " of " + std::to_string(d.window) + " steps";
        return true;
    }
    if (!d.complete()) {
        c.measured = "first ÷ last " + ratios_text(d.ratios) + " so far, " + seeds_text(d) + ", " + window_text(d.window);
        c.verdict = DepthVerdict::Provisional;
        c.progress = std::to_string(d.ratios.size()) + " of " + std::to_string(d.planned) + " seeds";
        return true;
    }
    return d.ratios.empty();
}

// How many of the ratios are beyond the threshold, for a Mixed verdict: "3 of 5 seeds".
std::string agreeing(const std::vector<double>& ratios, double threshold) {
    return std::to_string(count_beyond(ratios, threshold)) + " of " + std::to_string(ratios.size()) + " seeds";
}

DepthClaim postln_claim(const DepthLabSnapshot& s) {
    DepthClaim c;
    c.claim = "Post-LN: later layers get larger gradients (first ÷ last ≤ 1/" + ratio_text(kDepthLarger) + ")";
    // Xiong et al.'s analysis is of initialization with Xavier init: say what the runs here are.
    c.source = std::string(kXiong) + (s.state.init == TransformerInit::Xavier ? "; here: Xavier init too, " : "; here: uniform ±1/√n init, ") +
               "measured while training";
    const DepthRatios d = depth_ratios(s, 0);
    if (still_waiting(c, s, 0, d)) return c;
    const double threshold = 1.0 / kDepthLarger;
    c.measured = "first ÷ last " + ratios_text(d.ratios) + ", " + seeds_text(d) + ", " + window_text(d.window) +
                 diverged_note(s, {0});
    c.verdict = seeds_verdict(d.ratios, threshold);
    c.progress = agreeing(d.ratios, threshold);
    return c;
}

DepthClaim preln_claim(const DepthLabSnapshot& s) {
    DepthClaim c;
    c.claim = "Pre-LN: early layers get much larger gradients (first ÷ last ≥ " + ratio_text(kDepthMuchLarger) +
              "; larger: ≥ " + ratio_text(kDepthLarger) + ")";
    c.source = kShleifer;
    const DepthRatios d = depth_ratios(s, 1);
    if (still_waiting(c, s, 1, d)) return c;
    c.measured = "first ÷ last " + ratios_text(d.ratios) + ", " + seeds_text(d) + ", " + window_text(d.window) +
                 diverged_note(s, {1});
    c.verdict = seeds_verdict(d.ratios, kDepthMuchLarger);
    c.progress = agreeing(d.ratios, kDepthMuchLarger);
    if (c.verdict != DepthVerdict::Holds) {   // larger, at least, in every seed?
        const DepthVerdict larger = seeds_verdict(d.ratios, kDepthLarger);
        if (larger == DepthVerdict::Holds) c.verdict = DepthVerdict::Partly;
        if (larger == DepthVerdict::DoesNotHold) c.verdict = DepthVerdict::DoesNotHold;
        if (larger == DepthVerdict::Mixed) c.progress = "larger in " + agreeing(d.ratios, kDepthLarger);
    }
    return c;
}

DepthClaim even_claim(const DepthLabSnapshot& s) {
    DepthClaim c;
    c.claim = "NormFormer: more even across layers than Pre-LN (first ÷ last nearer 1)";
    c.source = kShleifer;
    const DepthRatios pre = depth_ratios(s, 1), nf = depth_ratios(s, 2);
    if (s.state.layers < 2 || !pre.so_far || !nf.so_far) {
        still_waiting(c, s, !pre.so_far ? 1 : 2, !pre.so_far ? pre : nf);
        return c;
    }
    if (!pre.complete() || !nf.complete()) {   // the less advanced of the two says how far
        const auto shown = [](const DepthRatios& d) { return d.ratios.empty() ? ratio_text(*d.so_far) : ratios_text(d.ratios); };
        const DepthRatios& behind = nf.main_steps < pre.main_steps || (nf.main_steps == pre.main_steps && nf.ratios.size() < pre.ratios.size()) ? nf : pre;
        const bool steps = behind.main_steps < behind.window;
        c.measured = "NormFormer " + shown(nf) + ", Pre-LN " + shown(pre) + " so far (" +
                     (steps ? window_text(behind.main_steps) + " of " + std::to_string(behind.window) : seeds_text(behind) + ", " + window_text(behind.window)) + ")";
        c.verdict = DepthVerdict::Provisional;
        c.progress = steps ? std::to_string(behind.main_steps) + " of " + std::to_string(behind.window) + " steps"
                           : std::to_string(behind.ratios.size()) + " of " + std::to_string(behind.planned) + " seeds";
        return c;
    }
    // Seed by seed: both placements trained on the same data from the same seed.
    std::size_t more_even = 0, paired = 0;
    for (std::size_t i = 0; i < pre.seeds.size(); ++i)
        for (std::size_t j = 0; j < nf.seeds.size(); ++j)
            if (pre.seeds[i] == nf.seeds[j]) {
                ++paired;
                more_even += std::fabs(std::log(nf.ratios[j])) < std::fabs(std::log(pre.ratios[i]));
            }
    c.measured = "NormFormer " + ratios_text(nf.ratios) + ", Pre-LN " + ratios_text(pre.ratios) + " (" +
                 seeds_text(nf) + ", " + window_text(nf.window) + "); more even in " + std::to_string(more_even) + " of " +
                 std::to_string(paired) + diverged_note(s, {1, 2});
    c.verdict = paired == 0 ? DepthVerdict::NotYet
                : more_even == paired ? DepthVerdict::Holds
                : more_even == 0      ? DepthVerdict::DoesNotHold
                                      : DepthVerdict::Mixed;
    c.progress = std::to_string(more_even) + " of " + std::to_string(paired) + " seeds";
    return c;
}

DepthClaim lr_claim(const DepthLabSnapshot& s) {
    DepthClaim c;
    c.claim = "NormFormer: trains at learning rates where Pre-LN diverges";
    c.source = kShleiferLr;
    if (!find_run(s, 1) || !find_run(s, 2)) {
        c.measured = missing_ratio(s, !find_run(s, 1) ? 1 : 2);
        return c;
    }
    const int done = sweep_done(s), total = static_cast<int>(s.sweep.size());
    if (total == 0 || done < total) {
        c.measured = "sweep: " + std::to_string(done) + " of " + std::to_string(total) + " trainings (after the runs)";
        return c;
    }
    const std::optional<double> pre = divergence_lr(s, 1), nf = divergence_lr(s, 2);
    const std::string top = format_number(s.state.sweep_lr_max, 3);
    const auto from = [&top](const char* who, const std::optional<double>& lr) {
        return std::string(who) + (lr ? " diverges from lr " + format_number(*lr, 3) : " trains up to lr " + top);
    };
    c.measured = from("Pre-LN", pre) + ", " + from("NormFormer", nf) + " (seed " + std::to_string(s.state.seed) + ")";
    if (!pre && !nf) {
        c.measured = "neither diverges up to lr " + top + ": raise the sweep's largest learning rate";
        return c;
    }
    c.verdict = pre && (!nf || *nf > *pre) ? DepthVerdict::Holds : DepthVerdict::DoesNotHold;
    return c;
}

}  // namespace

std::vector<DepthClaim> depth_claims(const DepthLabSnapshot& s) {
    return {postln_claim(s), preln_claim(s), even_claim(s), lr_claim(s)};
}

std::string depth_conditions(const DepthLabSnapshot& s) {
    const DepthLabState& st = s.state;
    const std::string dot = " · ";
    std::string task;
    if (st.task == TaskKind::Text) {
        const std::string& src = s.source;
        const std::size_t slash = src.find_last_of('/');
        task = "text " + (slash == std::string::npos ? src : src.substr(slash + 1)) + " (" + std::to_string(s.vocab) +
               " symbols, context " + std::to_string(s.context) + ")";
    } else {
        const TaskSpec spec = default_depth_config(st.task, NormPlacement::PreLN).task;
        task = std::string(to_string(st.task)) + " of " + std::to_string(spec.length) + " digits 0–" +
               std::to_string(spec.digits - 1);
    }
    std::string out = std::to_string(st.layers) + (st.layers == 1 ? " layer" : " layers") + dot + "width " +
                      std::to_string(st.width) + dot + std::to_string(st.heads) + (st.heads == 1 ? " head" : " heads") +
                      dot + std::string(display_name(st.norm)) + dot + task + dot + "Adam lr " +
                      format_number(st.lr, 3) + dot + "batch " +
                      std::to_string(default_depth_config(st.task, NormPlacement::PreLN).batch_size) + dot +
                      (st.seeds > 1 ? "seeds " + std::to_string(st.seed) + "–" + std::to_string(st.seed + static_cast<std::uint64_t>(st.seeds) - 1)
                                    : "seed " + std::to_string(st.seed));
    if (!s.runs.empty()) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.2f M parameters", static_cast<double>(s.runs.front().parameters) / 1e6);
        out += dot + buf;
    }
    if (st.residual_scale && st.placements[2]) out += dot + "NormFormer with λ";
    if (st.normformer != NormFormerParts{} && st.placements[2]) out += dot + "NormFormer's parts: " + to_string(st.normformer);
    if (st.init != TransformerInit::Uniform) out += dot + std::string(display_name(st.init)) + " init";
    return out;
}

}  // namespace normlab
