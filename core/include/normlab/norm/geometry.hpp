// NormLab core: the geometry of normalization, for the 3D view (n = 2 or 3).
//
// With g = 1, b = 0 and ε → 0, RMSNorm maps Rⁿ onto the sphere of radius √n; LayerNorm maps it
// onto the (n−2)-sphere of radius √n inside the hyperplane Σ = 0 (n = 3: a circle; n = 2: the two
// points ±(1, −1)). A gain g stretches both by g per axis; ε pulls small inputs inside.
#pragma once

#include "normlab/norm/norm.hpp"

#include <vector>

namespace normlab {

struct GeometryScene {
    Mat inputs;      // B×n input points x (n = 2 or 3)
    Mat rmsnorm;     // B×n their RMSNorm images  y = x/RMS(x) ⊙ g
    Mat layernorm;   // B×n their LayerNorm images y = (x − μ)/σ ⊙ g
    Vec g;           // n
    double radius;   // √n: the sphere's (and LayerNorm circle's) radius before the gain
};

// Images of a batch under both norms (b = 0). Throws std::invalid_argument unless n ∈ {2, 3}
// and g has n entries.
GeometryScene geometry_scene(const Mat& inputs, const Vec& g, double eps, EpsMode mode = EpsMode::InsideSqrt);

// `segments` points (segments×n) on LayerNorm's image set for g = 1: for n = 3 the circle of
// radius √3 in the plane x₁ + x₂ + x₃ = 0; for n = 2 just the two points ±(1, −1).
Mat layernorm_circle(Eigen::Index n, int segments);

// A unit sphere as a triangle mesh: vertices (V×3, also the normals) and triangle indices.
struct SphereMesh {
    Eigen::Matrix<float, Eigen::Dynamic, 3, Eigen::RowMajor> vertices;
    std::vector<unsigned> indices;
};
SphereMesh unit_sphere_mesh(int stacks, int slices);

}  // namespace normlab
