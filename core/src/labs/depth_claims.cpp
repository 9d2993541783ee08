// NormLab core: the Depth lab's claims, each checked against the runs it has measured, and the
// line that says under which conditions.
#include "normlab/labs/depth_lab.hpp"

#include "normlab/base/i18n.hpp"

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
        case DepthVerdict::Holds: return tr("✓ holds here");
        case DepthVerdict::Partly: return tr("◐ larger, not much");
        case DepthVerdict::Mixed: return "≈ " + c.progress;
        case DepthVerdict::DoesNotHold: return tr("✗ not here");
        case DepthVerdict::Provisional: return tr("… provisional ({0})", c.progress);
        case DepthVerdict::NotYet: break;
    }
    return tr("… not yet");
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

constexpr const char* kXiong = tr_later("Xiong et al. 2020: at initialization (Xavier init, mean-field theory)");
constexpr const char* kShleifer = tr_later("Shleifer et al. 2021, Fig. 2: language models of 125 M–2.7 B parameters, pretraining");
constexpr const char* kShleiferLr = tr_later("Shleifer et al. 2021: language models of 125 M parameters and more");

std::string ratio_text(double r) { return format_number(r, 3); }

// spread_text (depth.hpp) of the ratios; one value alone: its ratio_text.
std::string ratios_text(const std::vector<double>& v) {
    const Spread sp = spread_of(v);
    return sp.n == 1 ? ratio_text(sp.mean) : spread_text(sp);
}

// "steps 1–50", "step 1".
std::string window_text(int n) { return n == 1 ? std::string(tr("step 1")) : tr("steps 1–{0}", n); }

// "seeds 1–5", "seed 1", or "2 of 5 seeds" while some are still training.
std::string seeds_text(const DepthRatios& d) {
    const auto n = static_cast<int>(d.ratios.size());
    if (!d.complete()) return tr("{0} of {1} seeds", n, d.planned);
    if (n == 1) return tr("seed {0} only", d.seeds.front());
    const auto [lo, hi] = std::minmax_element(d.seeds.begin(), d.seeds.end());
    return tr("seeds {0}–{1}", *lo, *hi);
}

// "; but Pre-LN diverged": a ratio from a run that is not learning says little.
std::string diverged_note(const DepthLabSnapshot& s, std::initializer_list<int> placements) {
    std::vector<std::string> names;
    for (int p : placements)
        if (const DepthRunView* r = find_run(s, p); r != nullptr && run_diverged(*r))
            names.emplace_back(display_name(kAllNormPlacements[p]));
    if (names.empty()) return "";
    return names.size() == 1 ? tr("; but {0} diverged", names[0]) : tr("; but {0} and {1} diverged", names[0], names[1]);
}

// Why a ratio is missing, in a few words.
std::string missing_ratio(const DepthLabSnapshot& s, int p) {
    const DepthRunView* r = find_run(s, p);
    const std::string name(display_name(kAllNormPlacements[p]));
    if (r == nullptr) return tr("{0} is not ticked", name);
    if (r->run.step < 1) return tr("{0}: no step yet", name);
    return tr("{0}: the measure is not finite (the loss was not finite)", name);
}

// Fills measured, verdict and progress while placement p's data is incomplete; true when it is
// complete (the caller states the verdict).
bool still_waiting(DepthClaim& c, const DepthLabSnapshot& s, int p, const DepthRatios& d) {
    if (s.state.layers < 2) {
        c.measured = tr("needs 2 layers or more");
        return true;
    }
    if (!d.so_far && d.ratios.empty()) {
        c.measured = missing_ratio(s, p);
        return true;
    }
    if (d.main_steps < d.window) {
        c.measured = tr("first ÷ last {0} so far (seed {1}, {2} of {3})", ratio_text(*d.so_far), s.state.seed,
                        window_text(d.main_steps), d.window);
        c.verdict = DepthVerdict::Provisional;
        c.progress = tr("{0} of {1} steps", d.main_steps, d.window);
        return true;
    }
    if (!d.complete()) {
        c.measured = tr("first ÷ last {0} so far, {1}, {2}", ratios_text(d.ratios), seeds_text(d), window_text(d.window));
        c.verdict = DepthVerdict::Provisional;
        c.progress = tr("{0} of {1} seeds", d.ratios.size(), d.planned);
        return true;
    }
    return d.ratios.empty();
}

// How many of the ratios are beyond the threshold, for a Mixed verdict: "3 of 5 seeds".
std::string agreeing(const std::vector<double>& ratios, double threshold) {
    return tr("{0} of {1} seeds", count_beyond(ratios, threshold), ratios.size());
}

DepthClaim postln_claim(const DepthLabSnapshot& s) {
    DepthClaim c;
    c.claim = tr("Post-LN: later layers get larger gradients (first ÷ last ≤ 1/{0})", ratio_text(kDepthLarger));
    // Xiong et al.'s analysis is of initialization with Xavier init: say what the runs here are.
    c.source = s.state.init == TransformerInit::Xavier ? tr("{0}; here: Xavier init too, measured while training", tr(kXiong))
                                                       : tr("{0}; here: uniform ±1/√n init, measured while training", tr(kXiong));
    const DepthRatios d = depth_ratios(s, 0);
    if (still_waiting(c, s, 0, d)) return c;
    const double threshold = 1.0 / kDepthLarger;
    c.measured = tr("first ÷ last {0}, {1}, {2}", ratios_text(d.ratios), seeds_text(d), window_text(d.window)) +
                 diverged_note(s, {0});
    c.verdict = seeds_verdict(d.ratios, threshold);
    c.progress = agreeing(d.ratios, threshold);
    return c;
}

DepthClaim preln_claim(const DepthLabSnapshot& s) {
    DepthClaim c;
    c.claim = tr("Pre-LN: early layers get much larger gradients (first ÷ last ≥ {0}; larger: ≥ {1})",
                 ratio_text(kDepthMuchLarger), ratio_text(kDepthLarger));
    c.source = tr(kShleifer);
    const DepthRatios d = depth_ratios(s, 1);
    if (still_waiting(c, s, 1, d)) return c;
    c.measured = tr("first ÷ last {0}, {1}, {2}", ratios_text(d.ratios), seeds_text(d), window_text(d.window)) +
                 diverged_note(s, {1});
    c.verdict = seeds_verdict(d.ratios, kDepthMuchLarger);
    c.progress = agreeing(d.ratios, kDepthMuchLarger);
    if (c.verdict != DepthVerdict::Holds) {   // larger, at least, in every seed?
        const DepthVerdict larger = seeds_verdict(d.ratios, kDepthLarger);
        if (larger == DepthVerdict::Holds) c.verdict = DepthVerdict::Partly;
        if (larger == DepthVerdict::DoesNotHold) c.verdict = DepthVerdict::DoesNotHold;
        if (larger == DepthVerdict::Mixed) c.progress = tr("larger in {0}", agreeing(d.ratios, kDepthLarger));
    }
    return c;
}

DepthClaim even_claim(const DepthLabSnapshot& s) {
    DepthClaim c;
    c.claim = tr("NormFormer: more even across layers than Pre-LN (first ÷ last nearer 1)");
    c.source = tr(kShleifer);
    const DepthRatios pre = depth_ratios(s, 1), nf = depth_ratios(s, 2);
    if (s.state.layers < 2 || !pre.so_far || !nf.so_far) {
        still_waiting(c, s, !pre.so_far ? 1 : 2, !pre.so_far ? pre : nf);
        return c;
    }
    if (!pre.complete() || !nf.complete()) {   // the less advanced of the two says how far
        const auto shown = [](const DepthRatios& d) { return d.ratios.empty() ? ratio_text(*d.so_far) : ratios_text(d.ratios); };
        const DepthRatios& behind = nf.main_steps < pre.main_steps || (nf.main_steps == pre.main_steps && nf.ratios.size() < pre.ratios.size()) ? nf : pre;
        const bool steps = behind.main_steps < behind.window;
        c.measured = steps ? tr("NormFormer {0}, Pre-LN {1} so far ({2} of {3})", shown(nf), shown(pre),
                                window_text(behind.main_steps), behind.window)
                           : tr("NormFormer {0}, Pre-LN {1} so far ({2}, {3})", shown(nf), shown(pre), seeds_text(behind),
                                window_text(behind.window));
        c.verdict = DepthVerdict::Provisional;
        c.progress = steps ? tr("{0} of {1} steps", behind.main_steps, behind.window)
                           : tr("{0} of {1} seeds", behind.ratios.size(), behind.planned);
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
    c.measured = tr("NormFormer {0}, Pre-LN {1} ({2}, {3}); more even in {4} of {5}", ratios_text(nf.ratios),
                    ratios_text(pre.ratios), seeds_text(nf), window_text(nf.window), more_even, paired) +
                 diverged_note(s, {1, 2});
    c.verdict = paired == 0 ? DepthVerdict::NotYet
                : more_even == paired ? DepthVerdict::Holds
                : more_even == 0      ? DepthVerdict::DoesNotHold
                                      : DepthVerdict::Mixed;
    c.progress = tr("{0} of {1} seeds", more_even, paired);
    return c;
}

DepthClaim lr_claim(const DepthLabSnapshot& s) {
    DepthClaim c;
    c.claim = tr("NormFormer: trains at learning rates where Pre-LN diverges");
    c.source = tr(kShleiferLr);
    if (!find_run(s, 1) || !find_run(s, 2)) {
        c.measured = missing_ratio(s, !find_run(s, 1) ? 1 : 2);
        return c;
    }
    const int done = sweep_done(s), total = static_cast<int>(s.sweep.size());
    if (total == 0 || done < total) {
        c.measured = tr("sweep: {0} of {1} trainings (after the runs)", done, total);
        return c;
    }
    const std::optional<double> pre = divergence_lr(s, 1), nf = divergence_lr(s, 2);
    const std::string top = format_number(s.state.sweep_lr_max, 3);
    const auto from = [&top](const char* who, const std::optional<double>& lr) {
        return lr ? tr("{0} diverges from lr {1}", who, format_number(*lr, 3)) : tr("{0} trains up to lr {1}", who, top);
    };
    c.measured = tr("{0}, {1} (seed {2})", from("Pre-LN", pre), from("NormFormer", nf), s.state.seed);
    if (!pre && !nf) {
        c.measured = tr("neither diverges up to lr {0}: raise the sweep's largest learning rate", top);
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
        task = tr("text {0} ({1} symbols, context {2})", slash == std::string::npos ? src : src.substr(slash + 1), s.vocab,
                  s.context);
    } else {
        const TaskSpec spec = default_depth_config(st.task, NormPlacement::PreLN).task;
        task = tr("{0} of {1} digits 0–{2}", to_string(st.task), spec.length, spec.digits - 1);
    }
    std::string out = (st.layers == 1 ? std::string(tr("1 layer")) : tr("{0} layers", st.layers)) + dot +
                      tr("width {0}", st.width) + dot +
                      (st.heads == 1 ? std::string(tr("1 head")) : tr("{0} heads", st.heads)) + dot +
                      std::string(display_name(st.norm)) + dot + task + dot + tr("Adam lr {0}", format_number(st.lr, 3)) +
                      dot + tr("batch {0}", default_depth_config(st.task, NormPlacement::PreLN).batch_size) + dot +
                      (st.seeds > 1 ? tr("seeds {0}–{1}", st.seed, st.seed + static_cast<std::uint64_t>(st.seeds) - 1)
                                    : tr("seed {0}", st.seed));
    if (!s.runs.empty()) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.2f", static_cast<double>(s.runs.front().parameters) / 1e6);
        out += dot + tr("{0} M parameters", buf);
    }
    if (st.residual_scale && st.placements[2]) out += dot + tr("NormFormer with λ");
    if (st.normformer != NormFormerParts{} && st.placements[2]) out += dot + tr("NormFormer's parts: {0}", to_string(st.normformer));
    if (st.init != TransformerInit::Uniform) out += dot + tr("{0} init", display_name(st.init));
    return out;
}

}  // namespace normlab
