// NormLab core: the Explorer lab's edits and computation (labs/explorer_lab.hpp).
//
// [SECTION] Explorer edits
// [SECTION] Explorer results
// [SECTION] Number lists
// [SECTION] Scene file
#include "normlab/labs/explorer_lab.hpp"

#include "normlab/base/i18n.hpp"
#include "normlab/base/parse_double.hpp"
#include "normlab/base/random.hpp"
#include "normlab/base/text.hpp"
#include "normlab/labs/state_json.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace normlab {

namespace {

using Index = Eigen::Index;

Index clamp_size(Index size) { return std::clamp(size, kExplorerMinSize, kExplorerMaxSize); }

// v resized to `size`, existing entries kept, new ones set to `fill`.
Vec resized(const Vec& v, Index size, double fill) {
    Vec out = Vec::Constant(size, fill);
    const Index keep = std::min(size, v.size());
    out.head(keep) = v.head(keep);
    return out;
}

double round_to_hundredths(double v) { return std::round(v * 100.0) / 100.0 + 0.0; }   // + 0.0: no −0

}  // namespace

Index explorer_outputs(const ExplorerState& state) {
    return state.use_W ? state.W.rows() : state.x.size();
}

// [SECTION] Explorer edits ------------------------------------------------------------------

void explorer_resize(ExplorerState& state, Index m, Index n) {
    m = clamp_size(m);
    n = clamp_size(n);
    state.x = resized(state.x, m, 0.0);

    Mat W = Mat::Identity(n, m);   // new entries: identity pattern
    const Index rows = std::min(n, state.W.rows());
    const Index cols = std::min(m, state.W.cols());
    W.topLeftCorner(rows, cols) = state.W.topLeftCorner(rows, cols);
    state.W = std::move(W);

    const Index outputs = explorer_outputs(state);
    state.g = resized(state.g, outputs, 1.0);
    state.b = resized(state.b, outputs, 0.0);
}

void explorer_set_use_W(ExplorerState& state, bool use_W) {
    state.use_W = use_W;
    explorer_resize(state, state.x.size(), state.W.rows());
}

void explorer_set_m(ExplorerState& state, Index m) {
    explorer_resize(state, m, state.square_W ? m : state.W.rows());
}

void explorer_set_square_W(ExplorerState& state, bool square_W) {
    state.square_W = square_W;
    if (square_W) explorer_resize(state, state.x.size(), state.x.size());
}

void explorer_set_x(ExplorerState& state, const Vec& x) {
    if (x.size() < kExplorerMinSize || x.size() > kExplorerMaxSize) {
        throw std::invalid_argument("explorer_set_x: x needs 2 to 64 entries, got " +
                                    std::to_string(x.size()));
    }
    explorer_set_m(state, x.size());
    state.x = x;
}

Vec explorer_example_x() { return (Vec(4) << 2, 4, 6, 8).finished(); }

Vec explorer_large_x() { return (Vec(4) << 200, 300, 150, 250).finished(); }

void explorer_random_x(ExplorerState& state) {
    Rng rng(state.seed++);
    for (Index i = 0; i < state.x.size(); ++i) state.x(i) = round_to_hundredths(rng.normal(1.0, 2.0));
}

void explorer_identity_W(ExplorerState& state) {
    state.W = Mat::Identity(state.W.rows(), state.W.cols());
}

void explorer_random_W(ExplorerState& state) {
    Rng rng(state.seed++);
    const double stddev = 1.0 / std::sqrt(static_cast<double>(state.W.cols()));
    for (Index i = 0; i < state.W.rows(); ++i) {
        for (Index j = 0; j < state.W.cols(); ++j) state.W(i, j) = round_to_hundredths(rng.normal(0.0, stddev));
    }
}

// [SECTION] Explorer results ----------------------------------------------------------------

namespace {

void check_explorer(const ExplorerState& s) {
    const auto in_range = [](Index size) { return size >= kExplorerMinSize && size <= kExplorerMaxSize; };
    const Index outputs = explorer_outputs(s);
    if (!in_range(s.x.size()) || !in_range(s.W.rows()) || s.W.cols() != s.x.size() ||
        s.g.size() != outputs || s.b.size() != outputs) {
        throw std::invalid_argument("compute_explorer: inconsistent shapes (m = " +
                                    std::to_string(s.x.size()) + ", W " + std::to_string(s.W.rows()) +
                                    "×" + std::to_string(s.W.cols()) + ", g " +
                                    std::to_string(s.g.size()) + ", b " + std::to_string(s.b.size()) + ")");
    }
    if (!(s.delta > 0) || !(s.eps >= 0)) {
        throw std::invalid_argument("compute_explorer: needs δ > 0 and ε ≥ 0");
    }
}

// LayerNorm and RMSNorm of the state's layer with δ applied to x or W.
std::pair<LayerForward, LayerForward> forward_both(const ExplorerState& s, double delta) {
    // Without W, "scale W" scales the implicit identity: a' = δx either way.
    const bool scale_x = s.target == ScaleTarget::X || !s.use_W;
    const Mat x = (scale_x ? delta : 1.0) * s.x.transpose();   // 1×m
    LayerParams params;
    if (s.use_W) params.W = (scale_x ? 1.0 : delta) * s.W;     // n×m
    params.g = s.g;
    params.b = s.b;

    NormSpec spec;
    spec.eps = s.eps;
    spec.eps_mode = s.eps_mode;
    spec.norm = Norm::LayerNorm;
    LayerForward layernorm = layer_forward(spec, x, params);
    spec.norm = Norm::RMSNorm;
    LayerForward rmsnorm = layer_forward(spec, x, params);
    return {std::move(layernorm), std::move(rmsnorm)};
}

}  // namespace

ExplorerResults compute_explorer(const ExplorerState& state) {
    check_explorer(state);
    ExplorerResults r;
    std::tie(r.layernorm, r.rmsnorm) = forward_both(state, state.delta);
    std::tie(r.layernorm_ref, r.rmsnorm_ref) = forward_both(state, 1.0);
    r.stats = case_stats(r.layernorm.a).front();
    r.layernorm_shift = (r.layernorm.y - r.layernorm_ref.y).cwiseAbs().maxCoeff();
    r.rmsnorm_shift = (r.rmsnorm.y - r.rmsnorm_ref.y).cwiseAbs().maxCoeff();
    return r;
}

// [SECTION] Number lists --------------------------------------------------------------------

ParsedList parse_number_list(std::string_view text, Index min_count, Index max_count, const NumberRule& rule) {
    const std::string ascii = ascii_minus(text);
    std::string_view rest = trim_spaces(ascii);
    if (rest.size() >= 2 && rest.front() == '[' && rest.back() == ']') {
        rest = trim_spaces(rest.substr(1, rest.size() - 2));
    }

    std::vector<double> values;
    ParsedList out;
    // The messages in the UI's language (tr; the CLI's stay English).
    const auto fail = [&](std::string message) {
        out.error = std::move(message);
        return out;
    };
    // Hard separators (, ;) delimit fields; each field holds one or more space-separated numbers.
    while (true) {
        const std::size_t end = rest.find_first_of(",;");
        std::string_view field = trim_spaces(rest.substr(0, end));
        if (field.empty()) {
            if (end == std::string_view::npos && values.empty()) return fail(tr("no numbers given"));
            return fail(tr("entry {0} is empty (two separators in a row?)", values.size() + 1));
        }
        while (!field.empty()) {
            std::size_t len = 0;
            while (len < field.size() && !is_ascii_space(field[len])) ++len;
            const std::string_view token = field.substr(0, len);
            const std::string_view digits = token.front() == '+' ? token.substr(1) : token;
            double v = 0;
            const auto [ptr, ec] = parse_double(digits.data(), digits.data() + digits.size(), v);
            const std::size_t n = values.size() + 1;
            if (ec == std::errc::result_out_of_range)
                return fail(tr("entry {0} (\"{1}\") is out of the double range", n, token));
            if (ec != std::errc() || ptr != digits.data() + digits.size())
                return fail(tr("entry {0} (\"{1}\") is not a number", n, token));
            if (!std::isfinite(v)) return fail(tr("entry {0} (\"{1}\") is not finite", n, token));
            if (std::string problem = number_problem(tr("entry {0}", n), v, rule); !problem.empty())
                return fail(std::move(problem));
            values.push_back(v);
            field = trim_spaces(field.substr(len));
        }
        if (end == std::string_view::npos) break;
        rest = rest.substr(end + 1);
    }
    const auto count = static_cast<Index>(values.size());
    if (count < min_count || count > max_count) {
        out.error = tr("need {0} to {1} numbers, got {2}", min_count, max_count, count);
        return out;
    }
    out.values = Eigen::Map<const Vec>(values.data(), count);
    return out;
}

std::string format_number_list(const Vec& values) {
    std::string out;
    char buf[32];
    for (Index i = 0; i < values.size(); ++i) {
        std::snprintf(buf, sizeof buf, "%.6g", values(i));
        if (i > 0) out += ", ";
        out += buf;
    }
    return out;
}

// [SECTION] Scene file ---------------------------------------------------------------------

nlohmann::json state_to_json(const ExplorerState& state) {
    return {{"x", vec_to_json(state.x)},
            {"W", mat_to_json(state.W)},
            {"use_W", state.use_W},
            {"square_W", state.square_W},
            {"g", vec_to_json(state.g)},
            {"b", vec_to_json(state.b)},
            {"delta", state.delta},
            {"delta_scales", state.target == ScaleTarget::X ? "x" : "W"},
            {"eps", state.eps},
            {"eps_mode", std::string(to_string(state.eps_mode))},
            {"seed", state.seed}};
}

// A key the file leaves out takes a value that fits the keys it has: W the identity n×m with
// n = m (as the Explorer's "square W"), square_W whether W is square, g ones and b zeros of the
// outputs' number.
void state_from_json(SceneReader& in, ExplorerState& state) {
    const auto size_text = [](Index k) { return std::to_string(k) + (k == 1 ? " entry" : " entries"); };
    if (in.read("x", state.x) && (state.x.size() < kExplorerMinSize || state.x.size() > kExplorerMaxSize))
        in.fail("x", "has " + size_text(state.x.size()) + ", expected 2 to 64");
    const Index m = state.x.size();
    if (in.read("W", state.W)) {
        if (state.W.rows() < kExplorerMinSize || state.W.rows() > kExplorerMaxSize)
            in.fail("W", "has " + std::to_string(state.W.rows()) + " rows, expected 2 to 64");
        if (state.W.cols() != m)
            in.fail("W", "has " + std::to_string(state.W.cols()) + " columns, " + in.path_of("x") + " has " + size_text(m));
    } else if (state.W.cols() != m) {
        state.W = Mat::Identity(m, m);
    }
    in.read("use_W", state.use_W);
    if (!in.read("square_W", state.square_W)) state.square_W = state.W.rows() == state.W.cols();
    const Index n = explorer_outputs(state);
    const std::string expected = state.use_W ? "n = " + std::to_string(n) + " (the rows of W)"
                                             : "m = " + std::to_string(n) + " (the entries of x; use_W is false)";
    for (const auto& [key, v, fill] : {std::tuple{"g", &state.g, 1.0}, std::tuple{"b", &state.b, 0.0}}) {
        if (in.read(key, *v)) {
            if (v->size() != n) in.fail(key, "has " + size_text(v->size()) + ", expected " + expected);
        } else if (v->size() != n) {
            *v = Vec::Constant(n, fill);
        }
    }
    for (const auto& [key, values] :
         {std::pair{"x", Mat(state.x)}, std::pair{"W", state.W}, std::pair{"g", Mat(state.g)}, std::pair{"b", Mat(state.b)}})
        in.check_entries(key, values, kExplorerEntryRule);
    in.read("delta", state.delta, kExplorerDeltaRule);
    in.read_choice("delta_scales", state.target, std::array<std::string_view, 2>{"x", "W"},
                   std::array<ScaleTarget, 2>{ScaleTarget::X, ScaleTarget::W});
    in.read("eps", state.eps, kLabEpsRule);
    in.read("eps_mode", state.eps_mode);
    in.read("seed", state.seed);
}

}  // namespace normlab
