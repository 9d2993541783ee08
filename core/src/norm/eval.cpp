// NormLab core: `normlab-cli eval` (see eval.hpp for the request format).
//
// [SECTION] Message helpers  — plurals, names of choices
// [SECTION] eval request     — key by key, in the order a user reads them
// [SECTION] eval result      — JSON output, every entry checked finite
#include "normlab/norm/eval.hpp"

#include "normlab/base/text.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iterator>
#include <unordered_set>

namespace normlab {

using nlohmann::json;

// [SECTION] Message helpers -----------------------------------------------------------------

namespace {

// "1 entry", "3 entries"; "1 row", "2 rows".
std::string count(Eigen::Index n, std::string_view one, std::string_view many) { return count_text(n, one, many); }
std::string entries(Eigen::Index n) { return count(n, "entry", "entries"); }

// "a, b, c" from a list of names.
template <class Names>
std::string join(const Names& names) {
    std::string out;
    for (std::string_view name : names) out += (out.empty() ? "" : ", ") + std::string(name);
    return out;
}

// The norms' names for messages, the real norms first and none last.
std::string norm_names() {
    std::string out;
    for (Norm norm : kAllNorms)
        if (norm != Norm::None) out += std::string(to_string(norm)) + ", ";
    return out + std::string(to_string(Norm::None));
}


}  // namespace

// [SECTION] eval request --------------------------------------------------------------------

namespace {

constexpr std::string_view kRequestKeys[] = {"norm", "eps", "eps_mode", "p", "k_rounding", "x", "W", "g", "b", "dy"};

PartialRounding read_rounding(const json& value) {
    const std::string name = read_string(value, "k_rounding");
    if (const auto rounding = parse_rounding(name)) return *rounding;
    throw InputError("unknown k_rounding " + quote_for_message(name) + " (expected one of: ceil, floor)");
}

// g or b: n numbers, or `fill` when absent.
Vec read_layer_vector(const json& request, const char* key, Eigen::Index n, double fill) {
    if (!request.contains(key)) return Vec::Constant(n, fill);
    const Vec v = read_vector(request[key], key);
    if (v.size() != n)
        throw InputError(std::string(key) + " has " + entries(v.size()) + ", expected n = " + std::to_string(n));
    return v;
}

}  // namespace

EvalRequest parse_eval_request(const json& request) {
    if (!request.is_object()) throw InputError("request is not a JSON object (got " + describe_json(request) + ")");
    for (const auto& item : request.items()) {
        if (std::find(std::begin(kRequestKeys), std::end(kRequestKeys), item.key()) == std::end(kRequestKeys))
            throw InputError("unknown key " + quote_for_message(item.key()) + " (expected: " + join(kRequestKeys) +
                             ")");
    }

    EvalRequest req;
    NormSpec& spec = req.spec;
    if (!request.contains("norm")) throw InputError("norm is missing (expected one of: " + norm_names() + ")");
    const std::string norm_name = read_string(request["norm"], "norm");
    const std::optional<Norm> norm = parse_norm(norm_name);
    if (!norm)
        throw InputError("unknown norm " + quote_for_message(norm_name) + " (expected one of: " + norm_names() + ")");
    spec.norm = *norm;

    if (request.contains("eps")) {
        spec.eps = read_number(request["eps"], "eps");
        if (spec.eps < 0.0) throw InputError("eps = " + request["eps"].dump() + " must be ≥ 0");
    }
    if (request.contains("eps_mode")) {
        const std::string name = read_string(request["eps_mode"], "eps_mode");
        const std::optional<EpsMode> mode = parse_eps_mode(name);
        const std::string_view modes[] = {to_string(EpsMode::InsideSqrt), to_string(EpsMode::AddToRms)};
        if (!mode)
            throw InputError("unknown eps_mode " + quote_for_message(name) + " (expected one of: " + join(modes) + ")");
        spec.eps_mode = *mode;
    }
    if (request.contains("p")) {
        spec.p = read_number(request["p"], "p");
        if (!(spec.p > 0.0 && spec.p <= 1.0))
            throw InputError("p = " + request["p"].dump() + " is out of range (0, 1]");
    }
    if (request.contains("k_rounding")) spec.rounding = read_rounding(request["k_rounding"]);
    if (spec.norm == Norm::WeightNorm && request.contains("eps") && spec.eps > 0.0)
        req.notes.push_back("eps was ignored: weightnorm divides each w_i by ‖w_i‖ with no ε (Salimans & Kingma 2016).");
    if (spec.norm != Norm::PRMSNorm)
        for (const char* key : {"p", "k_rounding"})
            if (request.contains(key))
                req.notes.push_back(std::string(key) + " applies to prmsnorm only and was ignored for " +
                                    std::string(to_string(spec.norm)) + ".");

    if (!request.contains("x")) throw InputError("x is missing (expected B lists of m numbers, or m numbers)");
    req.x = read_rows(request["x"], "x");
    const Eigen::Index cases = req.x.rows();
    Eigen::Index n = req.x.cols();
    if (request.contains("W")) {
        const Mat W = read_matrix(request["W"], "W");
        if (W.cols() != req.x.cols())
            throw InputError("W has " + count(W.cols(), "column", "columns") + ", x has " + entries(req.x.cols()));
        n = W.rows();
        req.params.W = W;
    }
    req.params.g = read_layer_vector(request, "g", n, 1.0);
    req.params.b = read_layer_vector(request, "b", n, 0.0);

    if (request.contains("dy")) {
        const Mat dy = read_rows(request["dy"], "dy");
        if (dy.rows() != cases)
            throw InputError("dy has " + count(dy.rows(), "row", "rows") + ", x has " + count(cases, "case", "cases"));
        if (dy.cols() != n)
            throw InputError("dy has " + entries(dy.cols()) + " per case, expected n = " + std::to_string(n));
        req.dy = dy;
    }
    return req;
}

// [SECTION] eval result ---------------------------------------------------------------------

namespace {

constexpr const char* kOverflow = "the computation overflows the double range";

// Why a result entry is not finite. With ε = 0 a group whose statistic is 0 divides by zero;
// name the first such group in the norm's own terms. Otherwise the numbers overflowed.
std::string non_finite_reason(const NormSpec& spec, const NormCache& cache) {
    for (std::size_t i = 0; i < cache.groups.size(); ++i) {
        if (cache.groups[i].denom != 0.0) continue;
        const std::string id = std::to_string(i);
        switch (spec.norm) {
            case Norm::LayerNorm: return "case " + id + " has zero spread and eps = 0";
            case Norm::RMSNorm:
            case Norm::L2Norm: return "case " + id + " is all zeros and eps = 0";
            case Norm::PRMSNorm:
                return "the first k = " + std::to_string(cache.k) + " entries of case " + id +
                       " are all zeros and eps = 0";
            case Norm::BatchNorm: return "feature " + id + " has zero spread over the batch and eps = 0";
            case Norm::WeightNorm: return "row " + id + " of W is all zeros (weightnorm divides by ‖w_i‖)";
            case Norm::None: break;
        }
    }
    return kOverflow;
}

double finite(double v, const std::string& path, const std::string& reason) {
    if (!std::isfinite(v)) throw InputError(path + " is not finite: " + reason);
    return v;
}

json to_json(const Vec& v, const std::string& path, const std::string& reason) {
    json out = json::array();
    for (Eigen::Index i = 0; i < v.size(); ++i)
        out.push_back(finite(v(i), element_path(path, static_cast<std::size_t>(i)), reason));
    return out;
}

// Nested lists, one per row, even for a single row.
json to_json(const Mat& m, const std::string& path, const std::string& reason) {
    json out = json::array();
    for (Eigen::Index i = 0; i < m.rows(); ++i)
        out.push_back(to_json(Vec(m.row(i).transpose()), element_path(path, static_cast<std::size_t>(i)), reason));
    return out;
}

// The statistics the norm divided by, named for what they run over (docs/ARCHITECTURE.md, "The
// science"): LayerNorm's μ and σ₀ per case, RMSNorm's RMS per case, pRMSNorm's RMS over the first
// k entries, L2-Norm's ‖a‖, BatchNorm's μ and σ₀ per feature over the batch, WeightNorm's ‖w_i‖.
// denom is what ā divided by (σ₀ with ε in its place). Null for none.
json norm_stats(const NormSpec& spec, const NormCache& cache) {
    if (spec.norm == Norm::None) return nullptr;
    const bool centred = spec.norm == Norm::LayerNorm || spec.norm == Norm::BatchNorm;
    const bool euclid = spec.norm == Norm::L2Norm || spec.norm == Norm::WeightNorm;
    const char* sigma_key = centred ? "std" : euclid ? "norm" : "rms";
    std::string over;
    switch (spec.norm) {
        case Norm::LayerNorm: over = "each case, over its n entries: mean and population std"; break;
        case Norm::RMSNorm: over = "each case, over its n entries: RMS"; break;
        case Norm::PRMSNorm: over = "each case, over its first k = " + std::to_string(cache.k) + " entries: RMS"; break;
        case Norm::L2Norm: over = "each case, over its n entries: Euclidean norm"; break;
        case Norm::BatchNorm: over = "each feature, over the B cases of the batch: mean and population std"; break;
        case Norm::WeightNorm: over = "each row w_i of W: its Euclidean norm (no ε)"; break;
        case Norm::None: break;
    }
    json groups = json::array();
    for (std::size_t i = 0; i < cache.groups.size(); ++i) {
        const GroupStats& g = cache.groups[i];
        const std::string path = element_path("norm_stats.groups", i);
        json entry;
        if (centred) entry["mean"] = finite(g.mean, path + ".mean", kOverflow);
        entry[sigma_key] = finite(g.sigma0, path + "." + sigma_key, kOverflow);
        entry["denom"] = finite(g.denom, path + ".denom", kOverflow);
        groups.push_back(entry);
    }
    const char* per = spec.norm == Norm::BatchNorm ? "feature" : spec.norm == Norm::WeightNorm ? "weight_row" : "case";
    json out = {{"per", per}, {"over", over}, {"groups", groups}};
    if (spec.norm == Norm::PRMSNorm) out["k"] = cache.k;
    return out;
}

}  // namespace

json evaluate(const EvalRequest& req) {
    const NormSpec& spec = req.spec;
    const bool partial = spec.norm == Norm::PRMSNorm;
    const LayerForward fwd = layer_forward(spec, req.x, req.params);
    const std::string reason = non_finite_reason(spec, fwd.cache);

    json out;
    out["norm"] = to_string(spec.norm);
    out["eps"] = spec.norm == Norm::WeightNorm ? 0.0 : spec.eps;   // in force: weightnorm has none
    out["eps_mode"] = to_string(spec.eps_mode);
    if (partial) {
        out["p"] = spec.p;
        out["k_rounding"] = to_string(spec.rounding);
        out["k"] = fwd.cache.k;
    }
    out["a"] = to_json(fwd.a, "a", "x Wᵀ overflows the double range");
    out["y"] = to_json(fwd.y, "y", reason);

    // Per case statistics of a; var alone may exceed the double range (σ ≳ 1.3e154).
    std::vector<std::string> notes = req.notes;
    std::vector<std::size_t> huge_var;  // cases whose var is printed as null
    out["stats"] = json::array();
    // pRMSNorm's rms is that of the first k entries, the RMS it divides by (the others: all n).
    const std::vector<CaseStats> stats = case_stats(fwd.a);
    for (std::size_t i = 0; i < stats.size(); ++i) {
        const CaseStats& s = stats[i];
        const std::string path = element_path("stats", i);
        json entry = {{"mean", finite(s.mean, path + ".mean", kOverflow)},
                      {"std", finite(s.std, path + ".std", kOverflow)},
                      {"rms", finite(partial ? fwd.cache.groups[i].sigma0 : s.rms, path + ".rms", kOverflow)}};
        if (std::isfinite(s.var)) {
            entry["var"] = s.var;
        } else {
            entry["var"] = nullptr;
            huge_var.push_back(i);
        }
        if (partial) entry["k"] = fwd.cache.k;
        out["stats"].push_back(entry);
    }
    out["norm_stats"] = norm_stats(spec, fwd.cache);
    if (spec.norm == Norm::BatchNorm)
        notes.push_back("stats describe each case of a; batchnorm normalises each feature over the batch, with the "
                        "per-feature statistics in norm_stats.");
    if (!huge_var.empty()) {
        std::string cases;
        for (std::size_t i : huge_var) cases += (cases.empty() ? "" : ", ") + std::to_string(i);
        notes.push_back("stats var is null for " + std::string(huge_var.size() == 1 ? "case " : "cases ") + cases +
                        ": the variance exceeds the double range; std = sqrt(var) is given and finite.");
    }

    if (req.dy) {
        const LayerGrads grads = layer_backward(spec, req.x, req.params, fwd, *req.dy);
        json grad;
        grad["x"] = to_json(grads.dx, "grad.x", reason);
        grad["g"] = to_json(grads.dg, "grad.g", reason);
        grad["b"] = to_json(grads.db, "grad.b", reason);
        if (grads.dW) grad["W"] = to_json(*grads.dW, "grad.W", reason);
        out["grad"] = grad;
    }
    if (!notes.empty()) out["notes"] = notes;
    return out;
}

json evaluate_request(std::string_view text) {
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
        throw InputError("request is empty: expected one JSON object on stdin");
    return evaluate(parse_eval_request(parse_json(text, "request")));
}

}  // namespace normlab