// NormLab core: `normlab-cli eval` with "dtype" and "accumulate" (see format_eval.hpp).
//
// [SECTION] Request  — the two keys taken out, the rest read by eval's parser
// [SECTION] Result   — the format's numbers beside float64's, the events as flags
#include "normlab/norm/format_eval.hpp"

#include "normlab/norm/eval.hpp"
#include "normlab/norm/number_format.hpp"

#include <cmath>

namespace normlab {

using nlohmann::json;

namespace {

// [SECTION] Request -------------------------------------------------------------------------

struct FormatChoice {
    NumberFormat format = NumberFormat::Float64;
    Arithmetic arithmetic = Arithmetic::Same;
    bool arithmetic_given = false;
};

// Reads and removes dtype and accumulate from the request object (eval's own parser then reads
// the rest, and refuses any key it does not know).
FormatChoice take_format_keys(json& request) {
    FormatChoice choice;
    if (!request.is_object()) return choice;   // eval's parser says what is wrong
    if (request.contains("dtype")) {
        const std::string name = read_string(request["dtype"], "dtype");
        const std::optional<NumberFormat> f = parse_number_format(name);
        if (!f)
            throw InputError("unknown dtype " + quote_for_message(name) +
                             " (expected one of: float64, float32, float16, bfloat16)");
        choice.format = *f;
        request.erase("dtype");
    }
    if (request.contains("accumulate")) {
        const std::string name = read_string(request["accumulate"], "accumulate");
        const std::optional<Arithmetic> a = parse_arithmetic(name);
        if (!a) throw InputError("unknown accumulate " + quote_for_message(name) + " (expected one of: same, float32)");
        if (choice.format == NumberFormat::Float64)
            throw InputError("accumulate applies with dtype float32, float16 or bfloat16 (dtype is float64, which "
                             "computes as eval always has)");
        choice.arithmetic = *a;
        choice.arithmetic_given = true;
        request.erase("accumulate");
    }
    return choice;
}

void check_format_request(const EvalRequest& req, const json& request, NumberFormat format) {
    const std::string dtype(to_string(format));
    if (!format_norm_supported(req.spec.norm))
        throw InputError("dtype " + dtype + " computes layernorm, rmsnorm, prmsnorm or l2norm (got norm " +
                         std::string(to_string(req.spec.norm)) + ")");
    for (const char* key : {"W", "dy"})
        if (request.contains(key))
            throw InputError(std::string(key) + " is not taken with dtype " + dtype +
                             ": the format's forward is of a = x only (use dtype float64)");
}

// [SECTION] Result --------------------------------------------------------------------------

json number_or_null(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

json rows_json(const Mat& m) {
    json out = json::array();
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
        json row = json::array();
        for (Eigen::Index j = 0; j < m.cols(); ++j) row.push_back(number_or_null(m(i, j)));
        out.push_back(row);
    }
    return out;
}

json flags_json(const std::vector<FormatEvent>& events) {
    json out = json::array();
    for (const FormatEvent& e : events) {
        json flag = {{"kind", to_string(e.kind)}};
        if (e.case_index >= 0) flag["case"] = e.case_index;
        flag["where"] = e.where;
        flag["value"] = e.value ? number_or_null(*e.value) : json(nullptr);
        flag["more"] = e.more;
        flag["message"] = e.message;
        out.push_back(flag);
    }
    return out;
}

json stats_json(const FormatResult& r, Norm norm) {
    const char* stat_key = norm == Norm::LayerNorm ? "var" : norm == Norm::L2Norm ? "sum_squares" : "mean_square";
    json out = json::array();
    for (const FormatCaseStats& s : r.stats) {
        json entry;
        if (norm == Norm::LayerNorm) entry["mean"] = number_or_null(s.mean);
        entry[stat_key] = number_or_null(s.stat);
        entry["denom"] = number_or_null(s.denom);
        out.push_back(entry);
    }
    return out;
}

json format_result(const EvalRequest& req, const FormatChoice& choice) {
    const NormSpec& spec = req.spec;
    const FormatResult r = format_forward(spec, req.x, req.params.g, req.params.b, choice.format, choice.arithmetic);
    json out;
    out["norm"] = to_string(spec.norm);
    out["eps"] = spec.eps;
    out["eps_mode"] = to_string(spec.eps_mode);
    if (spec.norm == Norm::PRMSNorm) {
        out["p"] = spec.p;
        out["k_rounding"] = to_string(spec.rounding);
        out["k"] = r.k;
    }
    out["dtype"] = to_string(choice.format);
    out["accumulate"] = to_string(choice.arithmetic);
    out["eps_used"] = r.eps_used;
    out["x_stored"] = rows_json(r.x_stored);
    out["y"] = rows_json(r.y);
    out["y_float64"] = rows_json(r.ref_stored);
    out["y_float64_exact"] = rows_json(r.ref_original);
    out["ulps"] = rows_json(r.ulps_stored);
    out["ulps_exact"] = rows_json(r.ulps_original);
    out["stats"] = stats_json(r, spec.norm);
    out["flags"] = flags_json(r.events);
    std::vector<std::string> notes = req.notes;
    if (choice.arithmetic_given && compute_format(choice.format, Arithmetic::Float32) == choice.format)
        notes.push_back("accumulate makes no difference for " + std::string(to_string(choice.format)) +
                        ": its operations are float32 either way.");
    if (!notes.empty()) out["notes"] = notes;
    return out;
}

}  // namespace

json evaluate_request_with_format(std::string_view text) {
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
        throw InputError("request is empty: expected one JSON object on stdin");
    json request = parse_json(text, "request");
    const FormatChoice choice = take_format_keys(request);
    const EvalRequest req = parse_eval_request(request);
    if (choice.format == NumberFormat::Float64) return evaluate(req);
    check_format_request(req, request, choice.format);
    return format_result(req, choice);
}

}  // namespace normlab
