// NormLab core: RMSNorm's sphere and LayerNorm's circle, computed by the engine itself.
#include "normlab/norm/geometry.hpp"

#include <cmath>
#include <stdexcept>

namespace normlab {

GeometryScene geometry_scene(const Mat& inputs, const Vec& g, double eps, EpsMode mode) {
    const Eigen::Index n = inputs.cols();
    if (n != 2 && n != 3) throw std::invalid_argument("the geometry view needs n = 2 or 3, got " + std::to_string(n));
    if (g.size() != n) throw std::invalid_argument("g needs n = " + std::to_string(n) + " entries");
    const LayerParams params{std::nullopt, g, Vec::Zero(n)};
    GeometryScene scene;
    scene.inputs = inputs;
    scene.rmsnorm = layer_forward({Norm::RMSNorm, eps, mode}, inputs, params).y;
    scene.layernorm = layer_forward({Norm::LayerNorm, eps, mode}, inputs, params).y;
    scene.g = g;
    scene.radius = std::sqrt(static_cast<double>(n));
    return scene;
}

Mat layernorm_circle(Eigen::Index n, int segments) {
    if (n == 2) return (Mat(2, 2) << 1, -1, -1, 1).finished();
    if (n != 3) throw std::invalid_argument("layernorm_circle needs n = 2 or 3");
    // Orthonormal basis of the plane Σ = 0: u = (1, −1, 0)/√2, v = (1, 1, −2)/√6.
    const Eigen::Vector3d u = Eigen::Vector3d(1, -1, 0) / std::sqrt(2.0);
    const Eigen::Vector3d v = Eigen::Vector3d(1, 1, -2) / std::sqrt(6.0);
    Mat pts(segments, 3);
    for (int i = 0; i < segments; ++i) {
        const double t = 2.0 * M_PI * i / segments;
        pts.row(i) = (std::sqrt(3.0) * (std::cos(t) * u + std::sin(t) * v)).transpose();
    }
    return pts;
}

SphereMesh unit_sphere_mesh(int stacks, int slices) {
    SphereMesh mesh;
    mesh.vertices.resize((stacks + 1) * (slices + 1), 3);
    for (int i = 0; i <= stacks; ++i) {
        const double phi = M_PI * i / stacks;  // from the +z pole
        for (int j = 0; j <= slices; ++j) {
            const double theta = 2.0 * M_PI * j / slices;
            mesh.vertices.row(i * (slices + 1) + j) << static_cast<float>(std::sin(phi) * std::cos(theta)),
                static_cast<float>(std::sin(phi) * std::sin(theta)), static_cast<float>(std::cos(phi));
        }
    }
    for (int i = 0; i < stacks; ++i)
        for (int j = 0; j < slices; ++j) {
            const unsigned a = static_cast<unsigned>(i * (slices + 1) + j), b = a + static_cast<unsigned>(slices + 1);
            mesh.indices.insert(mesh.indices.end(), {a, b, a + 1, a + 1, b, b + 1});
        }
    return mesh;
}

}  // namespace normlab
