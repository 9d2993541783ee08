// NormLab core: the Geometry lab's state and results (see geometry_lab.hpp).
//
// [SECTION] Random points
// [SECTION] Edits
// [SECTION] Results
// [SECTION] Scene file
#include "normlab/labs/geometry_lab.hpp"

#include "normlab/base/random.hpp"
#include "normlab/labs/state_json.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace normlab {

namespace {

using Index = Eigen::Index;

constexpr double kRandomMean = 0.4, kRandomStd = 1.1;

// N(0.4, 1.1²), clamped to [−4, 4], rounded to 0.01 (+ 0.0: no −0).
double random_coordinate(Rng& rng) {
    const double v = std::clamp(rng.normal(kRandomMean, kRandomStd), -kGeometryMaxCoord, kGeometryMaxCoord);
    return std::round(v * 100.0) / 100.0 + 0.0;
}

// The seed of the next draw, advancing state.seed.
std::uint64_t take_seed(GeometryLabState& state) { return state.seed++; }

void check_state(const GeometryLabState& s) {
    const Index n = s.points.cols();
    if (n != 2 && n != 3) {
        throw std::invalid_argument("the geometry lab needs n = 2 or 3, got n = " + std::to_string(n));
    }
    if (s.points.rows() < kGeometryMinBatch || s.points.rows() > kGeometryMaxBatch) {
        throw std::invalid_argument("the batch needs 1 to 32 points, got " + std::to_string(s.points.rows()));
    }
    if (!s.points.allFinite()) throw std::invalid_argument("an input point has a NaN or infinite coordinate");
    if (s.g.size() != n) {
        throw std::invalid_argument("g needs n = " + std::to_string(n) + " entries, got " + std::to_string(s.g.size()));
    }
    for (Index j = 0; j < n; ++j) {
        if (s.g(j) == 0.0 || !std::isfinite(s.g(j))) {
            throw std::invalid_argument("g" + std::to_string(j + 1) + " must be finite and non-zero");
        }
    }
    if (!(s.shrink >= kGeometryMinShrink && s.shrink <= 1.0)) {
        throw std::invalid_argument("shrink must lie in [1e-4, 1], got " + std::to_string(s.shrink));
    }
    if (!(s.eps >= 0.0) || !std::isfinite(s.eps)) throw std::invalid_argument("ε must be a finite number ≥ 0");
}

}  // namespace

// [SECTION] Random points -------------------------------------------------------------------

Mat geometry_random_points(Index B, Index n, std::uint64_t seed) {
    Rng rng(seed);
    Mat points(B, n);   // B×n, filled row by row so that a prefix of the batch does not depend on B
    for (Index i = 0; i < B; ++i)
        for (Index j = 0; j < n; ++j) points(i, j) = random_coordinate(rng);
    return points;
}

Index geometry_dimension(const GeometryLabState& state) { return state.points.cols(); }

// [SECTION] Edits ---------------------------------------------------------------------------

void geometry_set_dimension(GeometryLabState& state, Index n) {
    n = std::clamp<Index>(n, 2, 3);
    const Index old_n = state.points.cols();
    if (n == old_n) return;
    const Index B = state.points.rows();
    Mat points(B, n);   // B×n
    Vec g = Vec::Ones(n);
    const Index keep = std::min(n, old_n);
    points.leftCols(keep) = state.points.leftCols(keep);
    g.head(std::min(keep, state.g.size())) = state.g.head(std::min(keep, state.g.size()));
    if (n > old_n) {
        Rng rng(take_seed(state));
        for (Index i = 0; i < B; ++i) points(i, 2) = random_coordinate(rng);
    }
    state.points = std::move(points);
    state.g = std::move(g);
}

void geometry_set_batch_size(GeometryLabState& state, Index B) {
    B = std::clamp(B, kGeometryMinBatch, kGeometryMaxBatch);
    const Index old_B = state.points.rows();
    if (B == old_B) return;
    const Index n = state.points.cols();
    Mat points(B, n);   // B×n
    const Index keep = std::min(B, old_B);
    points.topRows(keep) = state.points.topRows(keep);
    if (B > old_B) points.bottomRows(B - old_B) = geometry_random_points(B - old_B, n, take_seed(state));
    state.points = std::move(points);
}

void geometry_randomize(GeometryLabState& state) {
    state.points = geometry_random_points(state.points.rows(), state.points.cols(), take_seed(state));
}

void geometry_move_point(GeometryLabState& state, Index i, const Vec& shown) {
    if (i < 0 || i >= state.points.rows()) {
        throw std::out_of_range("no point " + std::to_string(i + 1) + " in a batch of " +
                                std::to_string(state.points.rows()));
    }
    if (shown.size() != state.points.cols()) {
        throw std::invalid_argument("a point needs n = " + std::to_string(state.points.cols()) + " coordinates, got " +
                                    std::to_string(shown.size()));
    }
    if (!shown.allFinite()) throw std::invalid_argument("a point's coordinates must be finite");
    state.points.row(i) = (shown / state.shrink).cwiseMax(-kGeometryMaxCoord).cwiseMin(kGeometryMaxCoord).transpose();
}

// [SECTION] Results -------------------------------------------------------------------------

GeometryResults compute_geometry(const GeometryLabState& state) {
    check_state(state);
    const Index n = state.points.cols();
    const double sqrt_n = std::sqrt(static_cast<double>(n));
    GeometryResults r;
    r.scene = geometry_scene(state.shrink * state.points, state.g, state.eps, state.eps_mode);
    const Mat& x = r.scene.inputs;                     // B×n
    r.centred = x.colwise() - x.rowwise().mean();      // B×n: x − μ·1
    r.rms = x.rowwise().norm() / sqrt_n;               // B
    r.sigma = r.centred.rowwise().norm() / sqrt_n;     // B
    const Eigen::RowVectorXd inv_g = state.g.cwiseInverse().transpose();   // 1×n
    r.rms_radius = (r.scene.rmsnorm.array().rowwise() * inv_g.array()).matrix().rowwise().norm() / sqrt_n;
    r.ln_radius = (r.scene.layernorm.array().rowwise() * inv_g.array()).matrix().rowwise().norm() / sqrt_n;
    r.rms_radius.minCoeff(&r.rms_innermost);
    r.ln_radius.minCoeff(&r.ln_innermost);
    return r;
}

// [SECTION] Scene file ---------------------------------------------------------------------

nlohmann::json state_to_json(const GeometryLabState& state) {
    return {{"points", mat_to_json(state.points)},
            {"g", vec_to_json(state.g)},
            {"eps", state.eps},
            {"eps_mode", std::string(to_string(state.eps_mode))},
            {"shrink", state.shrink},
            {"seed", state.seed}};
}

void state_from_json(SceneReader& in, GeometryLabState& state) {
    if (in.read("points", state.points)) {
        const Index n = state.points.cols(), B = state.points.rows();
        if (n != 2 && n != 3) in.fail("points", "has " + std::to_string(n) + " coordinates per point, expected 2 or 3");
        if (B < kGeometryMinBatch || B > kGeometryMaxBatch)
            in.fail("points", "has " + std::to_string(B) + " points, expected 1 to 32");
        for (Index i = 0; i < B; ++i)
            for (Index j = 0; j < n; ++j)
                if (std::abs(state.points(i, j)) > kGeometryMaxCoord)
                    throw InputError(in.path_of("points") + "[" + std::to_string(i) + "][" + std::to_string(j) +
                                     "] = " + nlohmann::json(state.points(i, j)).dump() + " is outside [−4, 4]");
    }
    const Index n = state.points.cols();
    if (in.read("g", state.g)) {
        if (state.g.size() != n)
            in.fail("g", "has " + std::to_string(state.g.size()) + " entries, expected n = " + std::to_string(n));
        in.check_entries("g", state.g, kGeometryGainRule);
    } else if (state.g.size() != n) {
        state.g = Vec::Ones(n);
    }
    in.read("eps", state.eps, kGeometryEpsRule);
    in.read("eps_mode", state.eps_mode);
    in.read("shrink", state.shrink, kGeometryShrinkRule);
    in.read("seed", state.seed);
}

}  // namespace normlab
