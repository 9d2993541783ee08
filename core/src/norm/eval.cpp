// NormLab core: `normlab-cli eval` and the JSON readers (see eval.hpp for the request format).
//
// [SECTION] Message helpers  — plurals, names of choices, the path of a parse error
// [SECTION] JSON readers     — parse_json (with the path of an overflowing number), numbers, lists
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
std::string count(Eigen::Index n, std::string_view one, std::string_view many) {
    return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}
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

std::string element(const std::string& path, std::size_t i) { return path + "[" + std::to_string(i) + "]"; }

// Where the parser is, one frame per open list or object, so that a number the parser
// rejects (1e999, NaN) can be named by its path: x[0][1]. It also refuses a key that an object
// already has (nlohmann would keep the last value silently): `labs.explorer.x is given twice`.
// It also enforces parse_json's limits: depth and the number of values.
class ParsePath {
public:
    explicit ParsePath(std::string_view what) : what_(what) {}

    void on_event(json::parse_event_t event, const json& parsed) {
        if (event != json::parse_event_t::key && event != json::parse_event_t::object_end &&
            event != json::parse_event_t::array_end && ++values_ > kMaxJsonValues)
            throw InputError(what_ + " holds more than " + std::to_string(kMaxJsonValues) + " values (the limit)");
        switch (event) {
            case json::parse_event_t::object_start: open(false); break;
            case json::parse_event_t::array_start: open(true); break;
            case json::parse_event_t::key: {
                Frame& f = frames_.back();
                f.key = parsed.get<std::string>();
                if (!f.keys.insert(f.key).second)
                    throw InputError(path() + " is given twice (each key may appear once in an object)");
                break;
            }
            case json::parse_event_t::value: next(); break;
            case json::parse_event_t::object_end:
            case json::parse_event_t::array_end:
                frames_.pop_back();
                next();
                break;
        }
    }

    // "x[0][1]"; a key that is not a plain name is quoted: x["a b"][0]. Empty at the top level.
    std::string path() const {
        std::string out;
        for (const Frame& f : frames_) {
            if (f.list)
                out = element(out, f.index);
            else if (plain_name(f.key))
                out += (out.empty() ? "" : ".") + f.key;
            else
                out += "[" + quote_for_message(f.key) + "]";
        }
        return out;
    }

private:
    struct Frame {
        bool list;
        std::size_t index;                     // lists: the element being parsed
        std::string key;                       // objects: the member being parsed
        std::unordered_set<std::string> keys;  // objects: the keys so far
    };

    void open(bool list) {
        if (frames_.size() >= static_cast<std::size_t>(kMaxJsonDepth)) {
            std::string where = path();
            if (where.size() > 60) where = where.substr(0, 48) + "…";   // x[0][0][0]… 64 deep says little more
            throw InputError((where.empty() ? what_ : where) + " is nested deeper than " +
                             std::to_string(kMaxJsonDepth) + " levels (the limit)");
        }
        frames_.push_back({list, 0, {}, {}});
    }

    // A value is complete: the enclosing list moves on to its next element.
    void next() {
        if (!frames_.empty() && frames_.back().list) ++frames_.back().index;
    }

    static bool plain_name(const std::string& key) {
        if (key.empty()) return false;
        for (char c : key)
            if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
        return true;
    }

    std::vector<Frame> frames_;
    std::string what_;
    std::size_t values_ = 0;
};

// NaN, Infinity, -inf, …: a non-finite number spelled as JavaScript or C print it, which JSON
// has no syntax for, when the word the parser stopped at (its last byte read is text[last]) is
// one; "" otherwise.
std::string non_finite_word(std::string_view text, std::size_t last) {
    const auto in_word = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '+' || c == '-'; };
    if (last >= text.size() || !in_word(text[last])) return "";
    std::size_t begin = last, end = last;
    while (begin > 0 && in_word(text[begin - 1])) --begin;
    while (end < text.size() && (in_word(text[end]) || std::isdigit(static_cast<unsigned char>(text[end])))) ++end;
    const std::string_view word = text.substr(begin, end - begin);
    std::string bare(word.substr(word.front() == '+' || word.front() == '-' ? 1 : 0));
    for (char& c : bare) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return bare == "nan" || bare == "inf" || bare == "infinity" ? std::string(word) : "";
}

}  // namespace

// [SECTION] JSON readers --------------------------------------------------------------------

std::string quote_for_message(std::string_view s) {
    constexpr std::size_t kMax = 40;
    std::size_t cut = s.size();
    if (s.size() > kMax) {
        cut = utf8_floor(s, kMax);
    }
    const std::string literal =
        json(std::string(s.substr(0, cut))).dump(-1, ' ', false, json::error_handler_t::replace);
    return cut == s.size() ? literal : literal.substr(0, literal.size() - 1) + "...\"";
}

std::string describe_json(const json& value) {
    switch (value.type()) {
        case json::value_t::null: return "null";
        case json::value_t::boolean: return value.get<bool>() ? "boolean true" : "boolean false";
        case json::value_t::string: return "string " + quote_for_message(value.get_ref<const std::string&>());
        case json::value_t::number_integer:
        case json::value_t::number_unsigned:
        case json::value_t::number_float: return "number " + value.dump();
        case json::value_t::array: return "a list";
        case json::value_t::object: return "an object";
        case json::value_t::binary:
        case json::value_t::discarded: break;
    }
    return "an invalid value";
}

json parse_json(std::string_view text, std::string_view what) {
    ParsePath where(what);
    const json::parser_callback_t track = [&where](int, json::parse_event_t event, json& parsed) {
        where.on_event(event, parsed);
        return true;
    };
    try {
        return json::parse(text.begin(), text.end(), track);
    } catch (const json::out_of_range&) {
        // nlohmann's only out_of_range while parsing: a number that overflows a double (406).
        const std::string path = where.path();
        throw InputError((path.empty() ? std::string(what) : path) + " is not finite (it overflows the double range)");
    } catch (const json::parse_error& e) {
        // e.what() = "[json.exception.parse_error.101] parse error at line 1, column 7: ...";
        // the lexer escapes control characters, so the message is one line.
        const std::string message = e.what();
        const std::string word =
            message.find("while parsing value") == std::string::npos || e.byte == 0 ? "" : non_finite_word(text, e.byte - 1);
        if (!word.empty()) {
            const std::string path = where.path();
            throw InputError((path.empty() ? std::string(what) : path) + " is not finite (got " + word +
                             ", which is not valid JSON)");
        }
        const std::size_t tag_end = message.find("] ");
        throw InputError(std::string(what) + " is not valid JSON: " +
                         (tag_end == std::string::npos ? message : message.substr(tag_end + 2)));
    }
}

std::string read_string(const json& value, const std::string& path) {
    if (!value.is_string()) throw InputError(path + " is not a string (got " + describe_json(value) + ")");
    return value.get<std::string>();
}

double read_number(const json& value, const std::string& path) {
    if (!value.is_number()) throw InputError(path + " is not a number (got " + describe_json(value) + ")");
    const double v = value.get<double>();
    if (!std::isfinite(v)) throw InputError(path + " is not finite");
    return v;
}

Vec read_vector(const json& value, const std::string& path) {
    if (!value.is_array()) throw InputError(path + " is not a list of numbers (got " + describe_json(value) + ")");
    if (value.empty()) throw InputError(path + " is empty");
    Vec v(static_cast<Eigen::Index>(value.size()));
    for (std::size_t i = 0; i < value.size(); ++i)
        v(static_cast<Eigen::Index>(i)) = read_number(value[i], element(path, i));
    return v;
}

namespace {
enum class FlatList { OneRow, Error };  // what a flat list of numbers means

// R lists of C numbers → R×C; rows are checked in order, so the first bad entry is named.
Mat read_lists(const json& value, const std::string& path, FlatList flat) {
    if (!value.is_array()) throw InputError(path + " is not a list (got " + describe_json(value) + ")");
    if (value.empty()) throw InputError(path + " is empty");
    if (flat == FlatList::OneRow && !value[0].is_array()) return read_vector(value, path).transpose();

    const std::string first = element(path, 0);
    Mat out;  // R×C, sized from the first row
    for (std::size_t i = 0; i < value.size(); ++i) {
        const std::string row = element(path, i);
        const Vec v = read_vector(value[i], row);
        if (i == 0)
            out.resize(static_cast<Eigen::Index>(value.size()), v.size());
        else if (v.size() != out.cols())
            throw InputError(row + " has " + entries(v.size()) + ", " + first + " has " + std::to_string(out.cols()));
        out.row(static_cast<Eigen::Index>(i)) = v.transpose();
    }
    return out;
}
}  // namespace

Mat read_matrix(const json& value, const std::string& path) { return read_lists(value, path, FlatList::Error); }

Mat read_rows(const json& value, const std::string& path) { return read_lists(value, path, FlatList::OneRow); }

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
        out.push_back(finite(v(i), element(path, static_cast<std::size_t>(i)), reason));
    return out;
}

// Nested lists, one per row, even for a single row.
json to_json(const Mat& m, const std::string& path, const std::string& reason) {
    json out = json::array();
    for (Eigen::Index i = 0; i < m.rows(); ++i)
        out.push_back(to_json(Vec(m.row(i).transpose()), element(path, static_cast<std::size_t>(i)), reason));
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
        const std::string path = element("norm_stats.groups", i);
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
        const std::string path = element("stats", i);
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
