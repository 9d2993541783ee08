// Geometry: RMSNorm's images lie on the sphere of radius √n, LayerNorm's on the circle Σ = 0.
#include "normlab/norm/geometry.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace normlab {
namespace {

Mat random_points(Eigen::Index B, Eigen::Index n, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(-5.0, 5.0);
    Mat m(B, n);
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = u(rng);
    return m;
}

TEST(Geometry, RmsNormImagesLieOnSphereLayerNormOnCircle) {
    const GeometryScene s = geometry_scene(random_points(50, 3, 1), Vec::Ones(3), 1e-15);
    for (Eigen::Index i = 0; i < 50; ++i) {
        EXPECT_NEAR(s.rmsnorm.row(i).norm(), std::sqrt(3.0), 1e-9);
        EXPECT_NEAR(s.layernorm.row(i).norm(), std::sqrt(3.0), 1e-9);
        EXPECT_NEAR(s.layernorm.row(i).sum(), 0.0, 1e-9);
    }
    EXPECT_DOUBLE_EQ(s.radius, std::sqrt(3.0));
}

TEST(Geometry, TwoDimensionalLayerNormCollapsesToTwoPoints) {
    const GeometryScene s = geometry_scene(random_points(40, 2, 2), Vec::Ones(2), 1e-15);
    for (Eigen::Index i = 0; i < 40; ++i) {
        EXPECT_NEAR(std::abs(s.layernorm(i, 0)), 1.0, 1e-9);
        EXPECT_NEAR(s.layernorm(i, 0), -s.layernorm(i, 1), 1e-9);
        EXPECT_NEAR(s.rmsnorm.row(i).norm(), std::sqrt(2.0), 1e-9);
    }
}

TEST(Geometry, GainStretchesToEllipsoidAndEpsPullsInside) {
    const Vec g = (Vec(3) << 2.0, 1.0, 0.5).finished();
    const GeometryScene s = geometry_scene(random_points(20, 3, 3), g, 1e-15);
    for (Eigen::Index i = 0; i < 20; ++i) {
        // (y/g) is on the sphere: Σ (y_j / (g_j √3))² = 1.
        EXPECT_NEAR((s.rmsnorm.row(i).array() / g.transpose().array()).matrix().norm(), std::sqrt(3.0), 1e-9);
    }
    const Mat tiny = Mat::Constant(1, 3, 1e-3);
    const GeometryScene e = geometry_scene(tiny, Vec::Ones(3), 1e-4);
    EXPECT_LT(e.rmsnorm.row(0).norm(), 0.5 * std::sqrt(3.0));
}

TEST(Geometry, CircleAndMesh) {
    const Mat c = layernorm_circle(3, 64);
    for (Eigen::Index i = 0; i < c.rows(); ++i) {
        EXPECT_NEAR(c.row(i).norm(), std::sqrt(3.0), 1e-12);
        EXPECT_NEAR(c.row(i).sum(), 0.0, 1e-12);
    }
    const SphereMesh m = unit_sphere_mesh(8, 16);
    EXPECT_EQ(m.vertices.rows(), 9 * 17);
    EXPECT_EQ(m.indices.size(), 8u * 16u * 6u);
    for (Eigen::Index i = 0; i < m.vertices.rows(); ++i) EXPECT_NEAR(m.vertices.row(i).norm(), 1.0f, 1e-6f);
    EXPECT_THROW(geometry_scene(Mat::Ones(2, 4), Vec::Ones(4), 0.0), std::invalid_argument);
}

}  // namespace
}  // namespace normlab
