// NormLab core: the Geometry lab's state — a batch of input points in R² or R³, the gain g, ε and
// a "shrink" factor — and the numbers the lab shows: the images of geometry_scene (geometry.hpp)
// plus what the captions read off them.
//
// [SECTION] State    — the batch, g, ε, shrink; limits of the controls
// [SECTION] Edits    — dimension, batch size, randomise, drag; each keeps the shapes consistent
// [SECTION] Results  — RMSNorm and LayerNorm images, projections onto Σ = 0, radii
// [SECTION] Figure   — the 3D view projected onto its view plane, as a 2D figure (geometry_figure.cpp)
//
// Data flows one way: the app edits a GeometryLabState, calls compute_geometry() each frame and
// draws the result; the camera and other display-only state stay in the app.
#pragma once

#include "normlab/norm/geometry.hpp"
#include "normlab/norm/norm.hpp"
#include "normlab/base/number_rule.hpp"
#include "normlab/plot/plot.hpp"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>

namespace normlab {

class SceneReader;   // state_json.hpp

// [SECTION] State ---------------------------------------------------------------------------

inline constexpr Eigen::Index kGeometryMinBatch = 1;
inline constexpr Eigen::Index kGeometryMaxBatch = 32;
inline constexpr Eigen::Index kGeometryDefaultBatch = 8;
inline constexpr double kGeometryMaxCoord = 4.0;     // every stored |x_ij| ≤ 4
inline constexpr double kGeometryMinShrink = 1e-4;   // shrink ∈ [1e-4, 1]
inline constexpr double kGeometryMinGain = 0.25;     // the g sliders' range
inline constexpr double kGeometryMaxGain = 2.0;
inline constexpr double kGeometryMinEps = 1e-8;      // the ε slider's range (log scale)
inline constexpr double kGeometryMaxEps = 1.0;
inline constexpr std::uint64_t kGeometryDefaultSeed = 8;   // the default batch's seed
// What the lab's fields accept (the GUI and scene files alike).
inline constexpr NumberRule kGeometryCoordRule{-kGeometryMaxCoord, kGeometryMaxCoord};
inline constexpr NumberRule kGeometryShrinkRule{kGeometryMinShrink, 1.0};
inline constexpr NumberRule kGeometryGainRule{kGeometryMinGain, kGeometryMaxGain};
inline constexpr NumberRule kGeometryEpsRule{kGeometryMinEps, kGeometryMaxEps};

// B points x (rows of B×n), x_ij ~ N(0.4, 1.1²) (normlab::Rng, the same everywhere), clamped
// to [−4, 4] and rounded to 0.01: not centred, so that LayerNorm and RMSNorm differ, and both
// inside and outside the sphere of radius √n. B and n are taken as given (n ∈ {2, 3} for the lab).
Mat geometry_random_points(Eigen::Index B, Eigen::Index n, std::uint64_t seed);

// Invariants (kept by the edits below, checked by compute_geometry):
//   points is B×n with n ∈ {2, 3}, B ∈ [1, 32], |x_ij| ≤ 4; g has n non-zero entries;
//   shrink ∈ [1e-4, 1]; eps ∈ [1e-8, 1].
struct GeometryLabState {
    Mat points = geometry_random_points(kGeometryDefaultBatch, 3, kGeometryDefaultSeed);   // B×n inputs x
    Vec g = Vec::Ones(3);                     // n: gain; stretches the sphere to an ellipsoid
    double eps = 1e-5;                        // ε ∈ [1e-8, 1]: pulls inputs with RMS(x) ≲ √ε inside
    EpsMode eps_mode = EpsMode::InsideSqrt;
    double shrink = 1.0;                      // the norms see shrink·x: scales every input toward 0
    std::uint64_t seed = kGeometryDefaultSeed + 1;   // seed of the next random draw; each use advances it
};

// n, the dimension: 2 or 3.
Eigen::Index geometry_dimension(const GeometryLabState& state);

// Scene file (scene.hpp, state_json.hpp): every field by name; missing keys keep `state`'s values
// (a g of the wrong length then becomes ones).
nlohmann::json state_to_json(const GeometryLabState& state);
void state_from_json(SceneReader& in, GeometryLabState& state);

// [SECTION] Edits ---------------------------------------------------------------------------

// Switches to n = 2 or 3 (other values are clamped). 3 → 2 drops x₃ and g₃; 2 → 3 keeps x₁, x₂,
// draws each x₃ as geometry_random_points does (uses state.seed and advances it) and sets g₃ = 1.
void geometry_set_dimension(GeometryLabState& state, Eigen::Index n);

// Resizes the batch to B points (clamped to [1, 32]), keeping the first ones; new points are
// drawn as geometry_random_points does (uses state.seed and advances it).
void geometry_set_batch_size(GeometryLabState& state, Eigen::Index B);

// A new batch of the same B and n from state.seed, which advances.
void geometry_randomize(GeometryLabState& state);

// Moves point i so that the point the norms see, shrink·x_i, is at `shown` (n entries): stores
// x_i = shown / shrink, each entry clamped to [−4, 4]. Throws std::out_of_range for a bad i and
// std::invalid_argument for a wrong length or a non-finite entry.
void geometry_move_point(GeometryLabState& state, Eigen::Index i, const Vec& shown);

// [SECTION] Results -------------------------------------------------------------------------

struct GeometryResults {
    GeometryScene scene;   // inputs: the shown inputs shrink·x (B×n); rmsnorm, layernorm: images (B×n)
    Mat centred;           // B×n: x − mean(x)·1, each shown input projected onto the plane Σ = 0
                           //      (LayerNorm's first step; for n = 2 the line x₁ + x₂ = 0)
    Vec rms;               // B: RMS(x) = √mean(x²) of each shown input, without ε
    Vec sigma;             // B: σ₀ = √mean((x − μ)²), LayerNorm's spread without ε (0 on the diagonal x₁ = … = xₙ)
    Vec rms_radius;        // B: ‖y_RMS ⊘ g‖ / √n: 1 on the sphere, < 1 where ε pulls the image inside
    Vec ln_radius;         // B: ‖y_LN ⊘ g‖ / √n: 1 on the circle, < 1 where ε pulls it inside
    Eigen::Index rms_innermost = 0;   // the point whose RMSNorm image lies deepest inside (smallest rms_radius)
    Eigen::Index ln_innermost = 0;    // the same for LayerNorm (smallest ln_radius)
};

// The images of the shown inputs under both norms, through geometry_scene with the state's g,
// ε and ε placement. Throws std::invalid_argument, naming the problem, when an invariant is broken.
GeometryResults compute_geometry(const GeometryLabState& state);

// [SECTION] Figure --------------------------------------------------------------------------

// The view's default orbit (radians): yaw about x₃ from the x₁ axis, pitch above the x₁x₂ plane.
inline constexpr double kGeometryDefaultYaw = -0.30;
inline constexpr double kGeometryDefaultPitch = 0.42;

// The world radius the view frames at zoom 1: the sphere (g = 1) and, roughly, every stored point
// (1.5·√n, or 0.8 × the largest ‖x‖), so that shrinking (s·x) moves the points, not the camera.
// The axes run over ± kGeometryAxisReach × it.
double geometry_framing_radius(const GeometryLabState& state);
inline constexpr double kGeometryAxisReach = 0.8;

// What the view shows (display state in the app; the defaults in exports).
struct GeometryFigureView {
    double yaw = kGeometryDefaultYaw, pitch = kGeometryDefaultPitch;   // n = 3 only; n = 2 is seen from above
    bool sphere = true, plane = true, circle = true, paths = true, labels = true;
    Eigen::Index selected = 0;   // the point whose paths are drawn bold (none: out of range)
};

// The view plane of an orbit seen from (cos p cos y, cos p sin y, sin p) with x₃ up, as rows:
// right (2×3: row 0) and up (row 1), orthonormal; n = 2: the identity (x₁ right, x₂ up).
Mat geometry_view_plane(Eigen::Index n, const GeometryFigureView& view);

// The 3D view as a 2D figure, "geometry_view": every part orthographically projected onto the
// view plane (geometry_view_plane), one data unit as long across as up (Plot::equal_aspect):
// the axes (x₁, x₂, x₃ at their ends), RMSNorm's image set (the outline of the ellipsoid g ⊙ the
// sphere of radius √n; n = 2 an ellipse), the plane Σ = 0 (the outline of the view's disc; n = 2
// the line), LayerNorm's image set (its circle; n = 2 its two points as rings), the paths
// x → RMSNorm image and x → x − μ → LayerNorm image, the images and the inputs x numbered 1..B.
// Each part is one series (segments broken by NaN), named for the CSV.
Plot geometry_view_plot(const GeometryLabState& state, const GeometryResults& r, const GeometryFigureView& view = {});

}  // namespace normlab
