// The Geometry lab: a batch of input points in R³ (or R²), their RMSNorm images on the sphere of
// radius √n and their LayerNorm images on the circle where that sphere meets the plane Σ = 0, in a
// 3D view to orbit, zoom and drag points in; the gain stretches the sphere, ε pulls small inputs
// inside. The numbers come from normlab::compute_geometry (core/src/labs/geometry_lab.cpp).
#pragma once

#include "geometry_view.hpp"
#include "lab.hpp"

namespace normlab::ui {

inline constexpr LabInfo kGeometryInfo{
    tr_later("Geometry: RMSNorm's sphere and LayerNorm's circle"),
    "RMSNorm (paper eq. 4), g = 1, ε → 0:  y = x / RMS(x) = √n · x / ‖x‖, so ‖y‖ = √n: the sphere of radius √n\n"
    "    (the paper's \"√n-scaled unit sphere\", §4)\n"
    "LayerNorm (eq. 2–3):  y = (x − μ) / σ:  x − μ lies in the plane Σᵢ xᵢ = 0 and ‖y‖ = √n,\n"
    "    so y lies on the circle where the sphere meets that plane (n = 2: the two points ±(1, −1))\n"
    "Gain (eq. 2 and 4):  y ⊙ g stretches the sphere to the ellipsoid with semi-axes gᵢ √n\n"
    "ε:  ‖ā‖ = √n · RMS(x) / √(RMS(x)² + ε) < √n: inputs with RMS(x) near √ε or below land inside",
    "normlab::compute_geometry (core/src/labs/geometry_lab.cpp) → normlab::geometry_scene (core/src/norm/geometry.cpp)\n"
    "→ normlab::layer_forward (core/src/norm/norm.cpp), once per norm; the sets from layernorm_circle and\n"
    "unit_sphere_mesh (core/src/norm/geometry.cpp). Drawn by app/labs/geometry_lab.cpp, app/labs/geometry_view.cpp and\n"
    "shaders/geometry_*.{vert,frag}.",
};

// Display-only state of the Geometry lab; the numbers live in GeometryLabState (session.geometry).
struct GeometryUi {
    OrbitCamera camera;
    float framing = 2.5f;        // world radius the view frames at zoom 1; follows the batch, held while dragging
    int selected = 0;            // the point whose numbers the panel shows and whose paths are bold
    int dragging = -1;           // the point being dragged in the view, or −1
    bool show_sphere = true;     // RMSNorm's image set: the sphere (n = 2: the circle)
    bool show_plane = true;      // the plane Σ = 0 (n = 2: the line x₁ + x₂ = 0)
    bool show_circle = true;     // LayerNorm's image set: the circle (n = 2: its two points)
    bool show_paths = true;      // lines from each input to its images, via x − μ
    bool show_labels = true;     // the points' numbers
    GeometryRenderer renderer;   // the view's GL objects
};
using GeometryContext = LabContextOf<GeometryUi>;

// The lab's row in the table of labs (labs.cpp): all the table needs of it (LabWindow, lab.hpp).
// Its draw function reads and edits ctx.session.geometry. Its figure as it is now: the view
// projected with its camera and parts (geometry_view_plot; throws InputError when the state
// cannot be computed). A presenter slide may name figure geometry_view (the 3D view; drag to
// orbit it).
extern const LabWindow<GeometryContext> kGeometryWindow;

}  // namespace normlab::ui
