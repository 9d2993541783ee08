// The Geometry lab's 3D view: an orbit camera and an OpenGL renderer that draws lit translucent
// surfaces, screen-space lines and round markers into an offscreen framebuffer (colour + depth,
// 4× MSAA where available, else plain), for the lab to show with ImGui::Image. Works on GL 3.3
// core. The GLSL lives in shaders/geometry_*.{vert,frag}, embedded at build time
// (cmake/EmbedShaders.cmake), so nothing is read from disk at run time.
//
// World coordinates are (x₁, x₂, x₃) with x₃ up. The renderer knows nothing of norms: the lab
// describes each frame as a ViewScene.
#pragma once

#include <normlab/base/palette.hpp>

#include <normlab/labs/geometry_lab.hpp>

#include <Eigen/Core>

#include <string>
#include <vector>

namespace normlab::ui {

// [SECTION] Scene description ---------------------------------------------------------------

struct Rgba {
    float r, g, b, a;
};
Rgba to_rgba(Color c, float alpha = 1.0f);
Rgba mix(Rgba a, Rgba b, float t);   // (1 − t)·a + t·b, every channel

struct ViewSegment {             // opaque, depth-tested, constant width on screen
    Eigen::Vector3f a, b;        // world
    float width_px;
    Rgba color;
};
struct ViewMarker {              // a disc facing the camera, constant size on screen
    Eigen::Vector3f center;      // world
    float radius_px;
    float outline_px;            // width of the outline ring, inside the radius
    Rgba fill;                   // alpha 0: a hollow ring
    Rgba outline;
};
struct ViewEllipsoid {           // the unit sphere scaled per axis, translucent and lit
    Eigen::Vector3f semi_axes;
    Rgba color;                  // a: opacity where the light falls head-on
};
struct ViewDisc {                // the filled ellipse {r·(cos t·u + sin t·v) : r ≤ 1}, translucent
    Eigen::Vector3f u, v;        // world: its two semi-axes
    Rgba color;
};

// One frame of the view. Opaque parts (segments, then markers over them) are drawn first with
// depth writes; then the translucent ones without: ellipsoids' back faces, discs, front faces.
struct ViewScene {
    std::vector<ViewEllipsoid> ellipsoids;
    std::vector<ViewDisc> discs;
    std::vector<ViewSegment> segments;
    std::vector<ViewMarker> markers;
    Rgba background{1.0f, 1.0f, 1.0f, 1.0f};
};

// [SECTION] Camera --------------------------------------------------------------------------

inline constexpr auto kDefaultYaw = static_cast<float>(kGeometryDefaultYaw);       // radians about x₃, from x₁
inline constexpr auto kDefaultPitch = static_cast<float>(kGeometryDefaultPitch);   // radians above the x₁x₂ plane
inline constexpr float kMaxPitch = 1.55f;        // just short of straight down / up
inline constexpr float kMinZoom = 0.25f, kMaxZoom = 4.0f;

// Orbits the origin; display-only state (the lab's Ui struct holds it).
struct OrbitCamera {
    float yaw = kDefaultYaw;
    float pitch = kDefaultPitch;   // in [−kMaxPitch, kMaxPitch]
    float zoom = 1.0f;             // > 1 brings the camera closer (the scene looks larger)
};

// The transforms of one frame of the view, and the conversions the overlay and picking need.
struct ViewTransform {
    Eigen::Matrix4f view = Eigen::Matrix4f::Identity();   // world → view (camera looks along −z)
    Eigen::Matrix4f proj = Eigen::Matrix4f::Identity();   // view → clip
    Eigen::Vector2f size{1.0f, 1.0f};                     // the image (px)

    // x, y: pixels from the image's top left; z: distance in front of the camera (≤ 0: behind).
    Eigen::Vector3f project(const Eigen::Vector3f& world) const;
    // The world displacement, within the view plane at distance `depth`, that moves a point by
    // (dx, dy) px on screen (y down).
    Eigen::Vector3f screen_delta_to_world(float dx, float dy, float depth) const;
};

// A perspective view that frames a ball of `framing_radius` around the origin at zoom 1.
// top_down: the n = 2 view, looking down x₃ with x₁ to the right and x₂ up (yaw and pitch unused).
ViewTransform orbit_view(const OrbitCamera& camera, bool top_down, float framing_radius, Eigen::Vector2f size);

// [SECTION] Renderer ------------------------------------------------------------------------

// Owns its GL objects, made on the first render() and released by the destructor; the app's GL
// context must be current for both (LabUis lives inside the frame loop, so it is).
class GeometryRenderer {
public:
    GeometryRenderer() = default;
    ~GeometryRenderer();
    GeometryRenderer(const GeometryRenderer&) = delete;
    GeometryRenderer& operator=(const GeometryRenderer&) = delete;

    // Draws the scene at width×height px into the offscreen texture and returns its GL name
    // (bottom row first, as GL stores it), or 0 when the GL objects cannot be made: error() then
    // says why. A frame equal to the last one (same scene, camera and size) is not drawn again.
    // Call during the ImGui frame; the GL state ImGui and the app rely on is restored.
    unsigned render(const ViewScene& scene, const ViewTransform& transform, int width, int height);

    const std::string& error() const { return error_; }
    int samples() const { return samples_; }   // MSAA samples per pixel; 0: none

private:
    bool init();
    bool resize(int width, int height);
    void release_targets();
    void draw_segments(const ViewScene& scene, const ViewTransform& t);
    void draw_markers(const ViewScene& scene, const ViewTransform& t);
    void draw_surfaces(const ViewScene& scene, const ViewTransform& t);

    bool tried_init_ = false;
    std::string error_;
    unsigned surface_program_ = 0, line_program_ = 0, marker_program_ = 0;
    unsigned sphere_vao_ = 0, sphere_vbo_ = 0, sphere_ebo_ = 0;
    int sphere_indices_ = 0;
    unsigned disc_vao_ = 0, disc_vbo_ = 0;       // rebuilt every frame
    unsigned line_vao_ = 0, line_vbo_ = 0;       // rebuilt every frame
    unsigned marker_vao_ = 0, marker_vbo_ = 0;   // rebuilt every frame
    unsigned msaa_fbo_ = 0, msaa_color_ = 0, msaa_depth_ = 0;   // multisampled target, when samples_ > 0
    unsigned fbo_ = 0, texture_ = 0, depth_ = 0;                // resolved target: the texture shown
    int width_ = 0, height_ = 0, samples_ = 0;
    std::vector<float> last_key_;   // what the texture shows (frame_key); empty: nothing yet
};

}  // namespace normlab::ui
