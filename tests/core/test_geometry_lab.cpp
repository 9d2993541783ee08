// The Geometry lab's model (core/src/labs/geometry_lab.cpp): defaults, edits that keep the shapes,
// and images on the sphere and circle, to 1e-9, through geometry_scene. No window needed.
#include <normlab/labs/geometry_lab.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace normlab {
namespace {

using Index = Eigen::Index;

void expect_shapes(const GeometryLabState& s, Index B, Index n) {
    EXPECT_EQ(s.points.rows(), B);
    EXPECT_EQ(s.points.cols(), n);
    EXPECT_EQ(s.g.size(), n);
    EXPECT_EQ(geometry_dimension(s), n);
    EXPECT_LE(s.points.cwiseAbs().maxCoeff(), kGeometryMaxCoord);
}

TEST(GeometryLab, DefaultsAreABatchOfEightInThreeDimensions) {
    const GeometryLabState s;
    expect_shapes(s, kGeometryDefaultBatch, 3);
    EXPECT_EQ(s.g, Vec::Ones(3));
    EXPECT_EQ(s.shrink, 1.0);
    EXPECT_EQ(s.eps, 1e-5);
    EXPECT_EQ(s.eps_mode, EpsMode::InsideSqrt);
    EXPECT_EQ(s.points, geometry_random_points(kGeometryDefaultBatch, 3, kGeometryDefaultSeed));
}

TEST(GeometryLab, RandomPointsAreSeededRoundedAndPrefixStable) {
    const Mat a = geometry_random_points(10, 3, 42);
    EXPECT_EQ(a, geometry_random_points(10, 3, 42));
    EXPECT_NE(a, geometry_random_points(10, 3, 43));
    EXPECT_EQ(geometry_random_points(4, 3, 42), a.topRows(4));
    for (Index i = 0; i < a.size(); ++i) {
        EXPECT_DOUBLE_EQ(a.data()[i], std::round(a.data()[i] * 100.0) / 100.0);
        EXPECT_LE(std::abs(a.data()[i]), kGeometryMaxCoord);
    }
    // Not centred: a batch where LayerNorm and RMSNorm differ.
    EXPECT_GT(geometry_random_points(32, 3, 1).mean(), 0.1);
}

TEST(GeometryLab, RandomizeKeepsShapesAndAdvancesTheSeed) {
    GeometryLabState s;
    const Mat before = s.points;
    const std::uint64_t seed = s.seed;
    geometry_randomize(s);
    expect_shapes(s, kGeometryDefaultBatch, 3);
    EXPECT_EQ(s.seed, seed + 1);
    EXPECT_NE(s.points, before);
    EXPECT_EQ(s.points, geometry_random_points(kGeometryDefaultBatch, 3, seed));
}

TEST(GeometryLab, DimensionSwitchKeepsTheSharedCoordinatesAndGain) {
    GeometryLabState s;
    s.g << 1.5, 0.5, 2.0;
    const Mat before = s.points;
    geometry_set_dimension(s, 2);
    expect_shapes(s, kGeometryDefaultBatch, 2);
    EXPECT_EQ(s.points, before.leftCols(2));
    EXPECT_EQ(s.g, (Vec(2) << 1.5, 0.5).finished());

    geometry_set_dimension(s, 3);
    expect_shapes(s, kGeometryDefaultBatch, 3);
    EXPECT_EQ(s.points.leftCols(2), before.leftCols(2));
    EXPECT_EQ(s.g, (Vec(3) << 1.5, 0.5, 1.0).finished());

    geometry_set_dimension(s, 7);   // clamped to 3: nothing changes
    expect_shapes(s, kGeometryDefaultBatch, 3);
    geometry_set_dimension(s, 0);   // clamped to 2
    expect_shapes(s, kGeometryDefaultBatch, 2);
}

TEST(GeometryLab, BatchSizeKeepsTheFirstPointsAndClamps) {
    GeometryLabState s;
    const Mat before = s.points;
    geometry_set_batch_size(s, 3);
    expect_shapes(s, 3, 3);
    EXPECT_EQ(s.points, before.topRows(3));
    geometry_set_batch_size(s, 20);
    expect_shapes(s, 20, 3);
    EXPECT_EQ(s.points.topRows(3), before.topRows(3));
    geometry_set_batch_size(s, 1000);
    expect_shapes(s, kGeometryMaxBatch, 3);
    geometry_set_batch_size(s, 0);
    expect_shapes(s, kGeometryMinBatch, 3);
}

TEST(GeometryLab, MovePointStoresTheUnshrunkPositionClamped) {
    GeometryLabState s;
    s.shrink = 0.5;
    geometry_move_point(s, 2, (Vec(3) << 1.0, -0.25, 0.5).finished());
    EXPECT_EQ(s.points.row(2), (Eigen::RowVector3d(2.0, -0.5, 1.0)));
    EXPECT_EQ(compute_geometry(s).scene.inputs.row(2), (Eigen::RowVector3d(1.0, -0.25, 0.5)));

    geometry_move_point(s, 0, (Vec(3) << 100.0, -100.0, 0.0).finished());
    EXPECT_EQ(s.points.row(0), (Eigen::RowVector3d(kGeometryMaxCoord, -kGeometryMaxCoord, 0.0)));
    expect_shapes(s, kGeometryDefaultBatch, 3);

    EXPECT_THROW(geometry_move_point(s, 8, Vec::Zero(3)), std::out_of_range);
    EXPECT_THROW(geometry_move_point(s, -1, Vec::Zero(3)), std::out_of_range);
    EXPECT_THROW(geometry_move_point(s, 0, Vec::Zero(2)), std::invalid_argument);
    EXPECT_THROW(geometry_move_point(s, 0, Vec::Constant(3, NAN)), std::invalid_argument);
}

TEST(GeometryLab, ImagesLieOnTheSphereAndCircle) {
    GeometryLabState s;
    s.eps = 0.0;
    geometry_set_batch_size(s, kGeometryMaxBatch);
    const GeometryResults r = compute_geometry(s);
    ASSERT_EQ(r.scene.rmsnorm.rows(), kGeometryMaxBatch);
    for (Index i = 0; i < kGeometryMaxBatch; ++i) {
        EXPECT_NEAR(r.scene.rmsnorm.row(i).norm(), std::sqrt(3.0), 1e-9) << "point " << i;
        EXPECT_NEAR(r.scene.layernorm.row(i).norm(), std::sqrt(3.0), 1e-9) << "point " << i;
        EXPECT_NEAR(r.scene.layernorm.row(i).sum(), 0.0, 1e-9) << "point " << i;
        EXPECT_NEAR(r.centred.row(i).sum(), 0.0, 1e-12) << "point " << i;
        EXPECT_NEAR(r.rms_radius(i), 1.0, 1e-9);
        EXPECT_NEAR(r.ln_radius(i), 1.0, 1e-9);
        // RMSNorm keeps the direction of x; LayerNorm the direction of x − μ.
        EXPECT_NEAR(r.scene.rmsnorm.row(i).normalized().dot(s.points.row(i).normalized()), 1.0, 1e-9);
        EXPECT_NEAR(r.scene.layernorm.row(i).normalized().dot(r.centred.row(i).normalized()), 1.0, 1e-9);
    }
}

TEST(GeometryLab, TwoDimensionsCollapseLayerNormToTwoPoints) {
    GeometryLabState s;
    s.eps = 0.0;
    geometry_set_dimension(s, 2);
    const GeometryResults r = compute_geometry(s);
    for (Index i = 0; i < r.scene.layernorm.rows(); ++i) {
        EXPECT_NEAR(std::abs(r.scene.layernorm(i, 0)), 1.0, 1e-9);
        EXPECT_NEAR(r.scene.layernorm(i, 0) + r.scene.layernorm(i, 1), 0.0, 1e-9);
        EXPECT_NEAR(r.scene.rmsnorm.row(i).norm(), std::sqrt(2.0), 1e-9);
    }
}

TEST(GeometryLab, GainStretchesAndShrinkWithEpsPullsInside) {
    GeometryLabState s;
    s.g << 2.0, 1.0, 0.5;
    s.eps = 0.0;
    const GeometryResults stretched = compute_geometry(s);
    for (Index i = 0; i < stretched.rms_radius.size(); ++i) EXPECT_NEAR(stretched.rms_radius(i), 1.0, 1e-9);

    // With shrink·x far below √ε every image moves inside; the innermost is the smallest input.
    s.g.setOnes();
    s.eps = 1e-4;
    s.shrink = 1e-3;
    const GeometryResults shrunk = compute_geometry(s);
    Index smallest = 0;
    shrunk.rms.minCoeff(&smallest);
    EXPECT_EQ(shrunk.rms_innermost, smallest);
    shrunk.sigma.minCoeff(&smallest);
    EXPECT_EQ(shrunk.ln_innermost, smallest);
    for (Index i = 0; i < shrunk.rms_radius.size(); ++i) {
        // With ε inside √: ‖ā‖/√n = RMS / √(RMS² + ε) for RMSNorm, σ₀ / √(σ₀² + ε) for LayerNorm.
        const double rms = shrunk.rms(i), sigma = shrunk.sigma(i);
        EXPECT_NEAR(shrunk.rms_radius(i), rms / std::sqrt(rms * rms + s.eps), 1e-12);
        EXPECT_NEAR(shrunk.ln_radius(i), sigma / std::sqrt(sigma * sigma + s.eps), 1e-12);
        EXPECT_LE(sigma, rms + 1e-15);   // centring never adds spread: LayerNorm's images are pulled in first
        EXPECT_LT(shrunk.rms_radius(i), 0.5);
        EXPECT_LT(shrunk.ln_radius(i), 0.5);
    }
    EXPECT_NEAR(shrunk.scene.inputs.norm(), 1e-3 * s.points.norm(), 1e-15);
}

TEST(GeometryLab, BrokenStatesAreRejectedWithAReason) {
    const auto message = [](const GeometryLabState& s) {
        try {
            compute_geometry(s);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    GeometryLabState s;
    s.g(1) = 0.0;
    EXPECT_EQ(message(s), "g2 must be finite and non-zero");
    s = GeometryLabState{};
    s.g = Vec::Ones(2);
    EXPECT_EQ(message(s), "g needs n = 3 entries, got 2");
    s = GeometryLabState{};
    s.shrink = 0.0;
    EXPECT_NE(message(s).find("shrink"), std::string::npos);
    s = GeometryLabState{};
    s.points = Mat::Ones(3, 4);
    s.g = Vec::Ones(4);
    EXPECT_EQ(message(s), "the geometry lab needs n = 2 or 3, got n = 4");
    s = GeometryLabState{};
    s.points(0, 0) = NAN;
    EXPECT_EQ(message(s), "an input point has a NaN or infinite coordinate");
    s = GeometryLabState{};
    s.eps = -1.0;
    EXPECT_EQ(message(s), "ε must be a finite number ≥ 0");
}

}  // namespace
// The view as a figure: an orthographic projection onto the camera's plane. Hand-worked: seen
// from +x₁ (yaw 0, pitch 0) "right" is x₂ and "up" is x₃; seen from above (n = 2) x₁, x₂ as they are.
TEST(GeometryLab, ViewFigureProjectsOntoTheCamerasPlane) {
    GeometryFigureView front;
    front.yaw = 0.0;
    front.pitch = 0.0;
    const Mat P = geometry_view_plane(3, front);
    EXPECT_NEAR((P * Eigen::Vector3d(1.5, -0.25, 2.0))(0), -0.25, 1e-15);
    EXPECT_NEAR((P * Eigen::Vector3d(1.5, -0.25, 2.0))(1), 2.0, 1e-15);
    const Mat Q = geometry_view_plane(3, GeometryFigureView{});   // the default orbit: orthonormal rows
    EXPECT_NEAR((Q * Q.transpose() - Eigen::Matrix2d::Identity()).norm(), 0.0, 1e-12);
    EXPECT_EQ(geometry_view_plane(2, front), Mat::Identity(2, 2));

    GeometryLabState s;
    const GeometryResults r = compute_geometry(s);
    const Plot p = geometry_view_plot(s, r, front);
    EXPECT_EQ(p.name, "geometry_view");
    EXPECT_TRUE(p.equal_aspect);
    const auto named = [&](const std::string& name) -> const Series& {
        for (const Series& x : p.series)
            if (series_name(x) == name) return x;
        throw std::invalid_argument("no series " + name);
    };
    // The sphere's outline (g = 1): a circle of radius √3 in the view plane.
    const Series& sphere = named("RMSNorm's image set: the sphere ‖y ⊘ g‖ = √3");
    for (std::size_t i = 0; i < sphere.x.size(); ++i) EXPECT_NEAR(std::hypot(sphere.x[i], sphere.y[i]), std::sqrt(3.0), 1e-12);
    // Inputs and images at their projections, numbered.
    const Series& inputs = named("input x");
    ASSERT_EQ(inputs.x.size(), static_cast<std::size_t>(s.points.rows()));
    EXPECT_EQ(inputs.x[2], r.scene.inputs(2, 1));
    EXPECT_EQ(inputs.y[2], r.scene.inputs(2, 2));
    EXPECT_EQ(named("LayerNorm image y").y[4], r.scene.layernorm(4, 2));
    // Every drawn series is named (its CSV rows can be told apart), and the paths hold B segments.
    for (const Series& x : p.series) EXPECT_FALSE(series_name(x).empty());
    const Series& paths = named("path x → RMSNorm image");
    EXPECT_EQ(paths.x.size(), 3u * static_cast<std::size_t>(s.points.rows() - 1));   // a, b, break per other point
    // Stretched by g: the outline becomes the ellipse of the stretched sphere (its widest reach g₂√3 here).
    s.g << 1.0, 2.0, 1.0;
    const Plot stretched = geometry_view_plot(s, compute_geometry(s), front);
    double widest = 0.0;
    for (double x : stretched.series[1].x) widest = std::max(widest, std::fabs(x));
    EXPECT_NEAR(widest, 2.0 * std::sqrt(3.0), 1e-9);
    EXPECT_NE(stretched.title.find("stretched by g"), std::string::npos);
}

}  // namespace normlab
