// NormLab core: the Geometry lab's 3D view as a 2D figure (see geometry_lab.hpp, Figure).
//
// [SECTION] Projection — the orbit's view plane
// [SECTION] Parts      — axes, image sets, paths, points as series
// [SECTION] Figure
#include "normlab/labs/geometry_lab.hpp"

#include "normlab/base/i18n.hpp"
#include "normlab/base/text.hpp"

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace normlab {

using Eigen::Index;

// [SECTION] Projection ----------------------------------------------------------------------

double geometry_framing_radius(const GeometryLabState& state) {
    const double sphere = 1.5 * std::sqrt(static_cast<double>(geometry_dimension(state)));
    return std::max(sphere, 0.8 * state.points.rowwise().norm().maxCoeff());
}

Mat geometry_view_plane(Index n, const GeometryFigureView& view) {
    if (n == 2) return Mat::Identity(2, 2);
    const double cp = std::cos(view.pitch);
    const Eigen::Vector3d eye(cp * std::cos(view.yaw), cp * std::sin(view.yaw), std::sin(view.pitch));
    const Eigen::Vector3d forward = -eye;   // toward the origin, as the app's camera looks
    const Eigen::Vector3d right = forward.cross(Eigen::Vector3d::UnitZ()).normalized();
    const Eigen::Vector3d up = right.cross(forward);
    Mat plane(2, 3);
    plane.row(0) = right.transpose();
    plane.row(1) = up.transpose();
    return plane;
}

// [SECTION] Parts ---------------------------------------------------------------------------

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int kLoopPoints = 128;

// c moved a fraction t of the way to white (the view's faded outlines and paths).
Color toward_white(Color c, double t) {
    const auto ch = [t](std::uint8_t v) { return static_cast<std::uint8_t>(std::lround(v + (255.0 - v) * t)); };
    return {ch(c.r), ch(c.g), ch(c.b)};
}

Series line_series(std::string label, std::string data_name, Color color, double width) {
    Series s;
    s.label = std::move(label);
    s.data_name = std::move(data_name);
    s.color = color;
    s.width = width;
    return s;
}

Series point_series(std::string label, Color color, Marker marker, double size) {
    Series s;
    s.label = std::move(label);
    s.color = color;
    s.kind = SeriesKind::Scatter;
    s.marker = marker;
    s.marker_size = size;
    return s;
}

void push(Series& s, const Eigen::Vector2d& p) {
    s.x.push_back(p.x());
    s.y.push_back(p.y());
}

// A segment a → b (2D), then a break, so that one series holds many segments.
void push_segment(Series& s, const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
    push(s, a);
    push(s, b);
    s.x.push_back(kNaN);
    s.y.push_back(kNaN);
}

// The outline of {A u : ‖u‖ ≤ 1} (A: 2×n), an ellipse: S (cos t, sin t) with S = (A Aᵀ)^½.
Series& add_ellipse(Series& s, const Mat& A) {
    const Eigen::Matrix2d M = A * A.transpose();
    const Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> eig(M);
    const Eigen::Matrix2d S =
        eig.eigenvectors() * eig.eigenvalues().cwiseMax(0.0).cwiseSqrt().asDiagonal() * eig.eigenvectors().transpose();
    for (int i = 0; i <= kLoopPoints; ++i) {
        const double t = 2.0 * M_PI * i / kLoopPoints;
        push(s, S * Eigen::Vector2d(std::cos(t), std::sin(t)));
    }
    return s;
}

// The image sets and the plane Σ = 0 (under the paths and points).
void add_sets(Plot& p, const Mat& P, const GeometryResults& r, const GeometryFigureView& view, double axis) {
    const Index n = P.cols();
    const double radius = r.scene.radius;   // √n
    const Vec& g = r.scene.g;
    if (view.sphere) {
        Series s = line_series(n == 3 ? tr("RMSNorm's image set: the sphere ‖y ⊘ g‖ = √3") : tr("RMSNorm's image set: the circle ‖y ⊘ g‖ = √2"),
                               "", toward_white(norm_color(Norm::RMSNorm), 0.35), 2.0);
        p.series.push_back(add_ellipse(s, P * (radius * g).asDiagonal()));
    }
    if (view.plane) {
        Series s = line_series(n == 3 ? tr("the plane Σ = 0 (x − μ lies in it)") : tr("the line x₁ + x₂ = 0 (x − μ lies on it)"), "",
                               toward_white(norm_color(Norm::LayerNorm), 0.55), 2.0);
        if (n == 3) {   // the view's disc: semi-axes u, v in the plane, 1.3 radii long
            Mat uv(3, 2);
            uv.col(0) = Eigen::Vector3d(1, -1, 0).normalized() * 1.3 * radius;
            uv.col(1) = Eigen::Vector3d(1, 1, -2).normalized() * 1.3 * radius;
            add_ellipse(s, P * uv);
        } else {
            const Vec d = Eigen::Vector2d(1, -1).normalized() * axis;
            push_segment(s, P * (-d), P * d);
        }
        p.series.push_back(std::move(s));
    }
    if (view.circle) {
        const Mat set = layernorm_circle(n, kLoopPoints);   // 128×3, or 2×2: the points ±(1, −1)
        const std::string label = n == 3 ? tr("LayerNorm's image set: the circle in Σ = 0") : tr("LayerNorm's image set: ±(1, −1)");
        Series s = n == 3 ? line_series(label, "", norm_color(Norm::LayerNorm), 3.0)
                          : point_series(label, norm_color(Norm::LayerNorm), Marker::Ring, 18.0);
        for (Index i = 0; i < set.rows(); ++i) push(s, P * set.row(i).transpose().cwiseProduct(g));
        if (n == 3) push(s, P * set.row(0).transpose().cwiseProduct(g));   // closed
        p.series.push_back(std::move(s));
    }
}

// Each input's paths: x → its RMSNorm image, x → x − μ → its LayerNorm image (the selected
// point's in full colour, the others faded), and the feet x − μ.
void add_paths(Plot& p, const Mat& P, const GeometryResults& r, Index selected) {
    const Color rms = norm_color(Norm::RMSNorm), ln = norm_color(Norm::LayerNorm);
    Series to_rms = line_series("", "path x → RMSNorm image", toward_white(rms, 0.55), 1.5);
    Series to_ln = line_series("", "path x → x − μ → LayerNorm image", toward_white(ln, 0.6), 1.5);
    Series sel_rms = line_series("", "path x → RMSNorm image (selected point)", toward_white(rms, 0.1), 2.5);
    Series sel_ln = line_series("", "path x → x − μ → LayerNorm image (selected point)", toward_white(ln, 0.1), 2.5);
    Series feet = point_series("", toward_white(ln, 0.3), Marker::Ring, 9.0);
    feet.data_name = "x − μ";
    for (Index i = 0; i < r.scene.inputs.rows(); ++i) {
        const bool bold = i == selected;
        const Eigen::Vector2d x = P * r.scene.inputs.row(i).transpose(), foot = P * r.centred.row(i).transpose();
        push_segment(bold ? sel_rms : to_rms, x, P * r.scene.rmsnorm.row(i).transpose());
        push_segment(bold ? sel_ln : to_ln, x, foot);
        push_segment(bold ? sel_ln : to_ln, foot, P * r.scene.layernorm.row(i).transpose());
        push(feet, foot);
    }
    for (Series* s : {&to_rms, &to_ln, &sel_rms, &sel_ln, &feet})
        if (!s->x.empty()) p.series.push_back(std::move(*s));
}

}  // namespace

// [SECTION] Figure --------------------------------------------------------------------------

Plot geometry_view_plot(const GeometryLabState& state, const GeometryResults& r, const GeometryFigureView& view) {
    const Index n = geometry_dimension(state);
    const Mat P = geometry_view_plane(n, view);   // 2×n
    const double axis = kGeometryAxisReach * geometry_framing_radius(state);
    Plot p;
    p.name = "geometry_view";
    const bool stretched = !(r.scene.g.array() == 1.0).all();
    if (n == 3) {
        p.title = stretched ? tr("RMSNorm maps x onto the sphere of radius √3, LayerNorm onto its circle in Σ = 0, each "
                                 "stretched by g")
                            : tr("RMSNorm maps x onto the sphere of radius √3, LayerNorm onto its circle in Σ = 0");
    } else {
        p.title = stretched ? tr("RMSNorm maps x onto the circle of radius √2, LayerNorm onto the points ±(1, −1), each "
                                 "stretched by g")
                            : tr("RMSNorm maps x onto the circle of radius √2, LayerNorm onto the points ±(1, −1)");
    }
    const auto degrees = [](double rad) { return format_number(rad * 180.0 / M_PI, 3) + "°"; };
    p.caption = n == 3 ? tr("The 3D view projected orthographically onto its view plane (yaw {0}, pitch {1}); depth is "
                            "not drawn.",
                            degrees(view.yaw), degrees(view.pitch))
                       : std::string(tr("The plane of x₁ and x₂, seen from above."));
    p.x.label = n == 3 ? tr("across the view (yaw {0}, pitch {1})", degrees(view.yaw), degrees(view.pitch)) : "x₁";
    p.y.label = n == 3 ? tr("up the view") : "x₂";
    p.equal_aspect = true;

    Series axes = line_series("", "axes", colors::kGrey, 1.25);
    for (Index k = 0; k < n; ++k) {
        const Vec e = Vec::Unit(n, k) * axis;
        push_segment(axes, P * (-e), P * e);
        const Eigen::Vector2d end = P * (Vec::Unit(n, k) * (axis + 0.1 * axis));
        p.annotations.push_back({end.x(), end.y(), "x" + subscript(static_cast<long long>(k) + 1)});
    }
    p.series.push_back(std::move(axes));
    add_sets(p, P, r, view, axis);
    if (view.paths) add_paths(p, P, r, view.selected);

    Series rms = point_series(tr("RMSNorm image y"), norm_color(Norm::RMSNorm), Marker::Circle, 9.0);
    Series ln = point_series(tr("LayerNorm image y"), norm_color(Norm::LayerNorm), Marker::Circle, 9.0);
    Series inputs = point_series(tr("input x"), colors::kSummedInput, Marker::Circle, 11.0);
    rms.halo = ln.halo = inputs.halo = true;
    for (Index i = 0; i < r.scene.inputs.rows(); ++i) {
        push(rms, P * r.scene.rmsnorm.row(i).transpose());
        push(ln, P * r.scene.layernorm.row(i).transpose());
        const Eigen::Vector2d x = P * r.scene.inputs.row(i).transpose();
        push(inputs, x);
        if (view.labels) p.annotations.push_back({x.x(), x.y(), std::to_string(i + 1)});
    }
    for (Series* s : {&rms, &ln, &inputs}) p.series.push_back(std::move(*s));
    return p;
}

}  // namespace normlab
