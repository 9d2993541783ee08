// The Geometry lab's 3D view (see geometry_view.hpp).
//
// [SECTION] Colours
// [SECTION] Camera          — look-at, perspective, projection to pixels
// [SECTION] GL helpers      — shader programs, vertex layouts, saved GL state
// [SECTION] Renderer: set-up — programs, the sphere mesh, the render targets
// [SECTION] Renderer: frame  — opaque lines and markers, then translucent surfaces
#include "geometry_view.hpp"

#include "geometry_shaders.hpp"   // generated from shaders/ (cmake/EmbedShaders.cmake)

#include <normlab/norm/geometry.hpp>

#include "gl.hpp"
#include "gl_program.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <initializer_list>
#include <string>
#include <vector>

namespace normlab::ui {

// [SECTION] Colours -------------------------------------------------------------------------

Rgba to_rgba(Color c, float alpha) {
    return {static_cast<float>(c.r) / 255.0f, static_cast<float>(c.g) / 255.0f, static_cast<float>(c.b) / 255.0f,
            alpha};
}

Rgba mix(Rgba a, Rgba b, float t) {
    const auto m = [t](float x, float y) { return x + (y - x) * t; };
    return {m(a.r, b.r), m(a.g, b.g), m(a.b, b.b), m(a.a, b.a)};
}

// [SECTION] Camera --------------------------------------------------------------------------

namespace {

constexpr float kFovY = 0.52f;   // radians (≈ 30°): little perspective distortion

Eigen::Matrix4f look_at(const Eigen::Vector3f& eye, const Eigen::Vector3f& up) {
    const Eigen::Vector3f f = (-eye).normalized();   // toward the origin
    const Eigen::Vector3f s = f.cross(up).normalized();
    const Eigen::Vector3f u = s.cross(f);
    Eigen::Matrix4f m = Eigen::Matrix4f::Identity();
    m.block<1, 3>(0, 0) = s.transpose();
    m.block<1, 3>(1, 0) = u.transpose();
    m.block<1, 3>(2, 0) = -f.transpose();
    m(0, 3) = -s.dot(eye);
    m(1, 3) = -u.dot(eye);
    m(2, 3) = f.dot(eye);
    return m;
}

Eigen::Matrix4f perspective(float fovy, float aspect, float near, float far) {
    const float f = 1.0f / std::tan(0.5f * fovy);
    Eigen::Matrix4f m = Eigen::Matrix4f::Zero();
    m(0, 0) = f / aspect;
    m(1, 1) = f;
    m(2, 2) = (far + near) / (near - far);
    m(2, 3) = 2.0f * far * near / (near - far);
    m(3, 2) = -1.0f;
    return m;
}

}  // namespace

Eigen::Vector3f ViewTransform::project(const Eigen::Vector3f& world) const {
    const Eigen::Vector4f clip = proj * (view * world.homogeneous());
    if (clip.w() <= 0.0f) return {0.0f, 0.0f, clip.w()};
    return {(clip.x() / clip.w() + 1.0f) * 0.5f * size.x(), (1.0f - clip.y() / clip.w()) * 0.5f * size.y(), clip.w()};
}

Eigen::Vector3f ViewTransform::screen_delta_to_world(float dx, float dy, float depth) const {
    const float world_per_px = 2.0f * depth / (proj(1, 1) * size.y());
    const Eigen::Vector3f right = view.block<1, 3>(0, 0).transpose();
    const Eigen::Vector3f up = view.block<1, 3>(1, 0).transpose();
    return (dx * right - dy * up) * world_per_px;
}

ViewTransform orbit_view(const OrbitCamera& camera, bool top_down, float framing_radius, Eigen::Vector2f size) {
    ViewTransform t;
    t.size = size.cwiseMax(1.0f);
    const float aspect = t.size.x() / t.size.y();
    // The narrower of the two half-angles decides the distance that fits the ball.
    const float half_angle = std::min(0.5f * kFovY, std::atan(std::tan(0.5f * kFovY) * aspect));
    const float distance = framing_radius / std::sin(half_angle) / camera.zoom;
    Eigen::Vector3f eye, up;
    if (top_down) {
        eye = {0.0f, 0.0f, distance};
        up = {0.0f, 1.0f, 0.0f};
    } else {
        const float cp = std::cos(camera.pitch);
        eye = distance * Eigen::Vector3f(cp * std::cos(camera.yaw), cp * std::sin(camera.yaw), std::sin(camera.pitch));
        up = {0.0f, 0.0f, 1.0f};
    }
    t.view = look_at(eye, up);
    t.proj = perspective(kFovY, aspect, 0.02f * distance, distance + 8.0f * framing_radius);
    return t;
}

// [SECTION] GL helpers ----------------------------------------------------------------------

namespace {

// Compiles and links a vertex + fragment shader; returns the program, or 0 with `error` set.
GLuint build_program(const char* name, const char* vertex_source, const char* fragment_source, std::string& error) {
    return build_gl_program(name,   // WebGL2: "#version 300 es" (glsl_for_context)
                            {{GL_VERTEX_SHADER, {glsl_for_context(vertex_source)}, ".vert"},
                             {GL_FRAGMENT_SHADER, {glsl_for_context(fragment_source)}, ".frag"}},
                            error);
}

// One float attribute of an interleaved vertex: `count` floats at `offset` bytes.
void float_attribute(GLuint location, int count, std::size_t stride, std::size_t offset) {
    glEnableVertexAttribArray(location);
    glVertexAttribPointer(location, count, GL_FLOAT, GL_FALSE, static_cast<GLsizei>(stride),
                          reinterpret_cast<const void*>(offset));
}

// The per-vertex layouts, matching the shaders' `layout(location = k)` inputs.
struct SurfaceVertex {   // geometry_surface.vert
    float position[3];
    float normal[3];
};
struct LineVertex {      // geometry_line.vert: six per segment
    float position[3];
    float other[3];
    float side[3];       // −1 / +1, half width (px), +1 at the start / −1 at the end
    float color[4];
};
struct MarkerVertex {    // geometry_marker.vert: six per marker
    float center[3];
    float corner[2];
    float size[2];       // radius (px), outline width (px)
    float fill[4];
    float outline[4];
};

void copy3(float* out, const Eigen::Vector3f& v) { std::copy(v.data(), v.data() + 3, out); }
void copy4(float* out, Rgba c) {
    out[0] = c.r;
    out[1] = c.g;
    out[2] = c.b;
    out[3] = c.a;
}

// Makes a VAO with one dynamic vertex buffer.
void make_stream_buffers(GLuint& vao, GLuint& vbo) {
    glGenVertexArrays(1, &vao);
    glGenBuffers(1, &vbo);
    glBindVertexArray(vao);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
}

template <class Vertex>
void upload(GLuint vbo, const std::vector<Vertex>& vertices) {
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(vertices.size() * sizeof(Vertex)), vertices.data(),
                 GL_STREAM_DRAW);
}

void set_camera_uniforms(GLuint program, const ViewTransform& t) {
    glUseProgram(program);
    glUniformMatrix4fv(glGetUniformLocation(program, "u_view"), 1, GL_FALSE, t.view.data());   // column-major
    glUniformMatrix4fv(glGetUniformLocation(program, "u_proj"), 1, GL_FALSE, t.proj.data());
    const GLint viewport = glGetUniformLocation(program, "u_viewport");
    if (viewport >= 0) glUniform2f(viewport, t.size.x(), t.size.y());
}

// The GL state the view changes, saved on construction and put back on destruction.
class SavedGlState {
public:
    SavedGlState() {
        glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw_fbo_);
        glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read_fbo_);
        glGetIntegerv(GL_VIEWPORT, viewport_);
        glGetIntegerv(GL_CURRENT_PROGRAM, &program_);
        glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &vao_);
        glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &array_buffer_);
        glGetFloatv(GL_COLOR_CLEAR_VALUE, clear_color_);
        glGetIntegerv(GL_BLEND_SRC_RGB, &blend_[0]);
        glGetIntegerv(GL_BLEND_DST_RGB, &blend_[1]);
        glGetIntegerv(GL_BLEND_SRC_ALPHA, &blend_[2]);
        glGetIntegerv(GL_BLEND_DST_ALPHA, &blend_[3]);
        glGetBooleanv(GL_DEPTH_WRITEMASK, &depth_mask_);
        for (int i = 0; i < kCaps; ++i) enabled_[i] = glIsEnabled(kCapList[i]);
    }
    ~SavedGlState() {
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(draw_fbo_));
        glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(read_fbo_));
        glViewport(viewport_[0], viewport_[1], viewport_[2], viewport_[3]);
        glUseProgram(static_cast<GLuint>(program_));
        glBindVertexArray(static_cast<GLuint>(vao_));
        glBindBuffer(GL_ARRAY_BUFFER, static_cast<GLuint>(array_buffer_));
        glClearColor(clear_color_[0], clear_color_[1], clear_color_[2], clear_color_[3]);
        glBlendFuncSeparate(static_cast<GLenum>(blend_[0]), static_cast<GLenum>(blend_[1]),
                            static_cast<GLenum>(blend_[2]), static_cast<GLenum>(blend_[3]));
        glDepthMask(depth_mask_);
        for (int i = 0; i < kCaps; ++i) {
            if (enabled_[i] == GL_TRUE) {
                glEnable(kCapList[i]);
            } else {
                glDisable(kCapList[i]);
            }
        }
    }
    SavedGlState(const SavedGlState&) = delete;
    SavedGlState& operator=(const SavedGlState&) = delete;

private:
    static constexpr int kCaps = 4;
    static constexpr GLenum kCapList[kCaps] = {GL_DEPTH_TEST, GL_CULL_FACE, GL_BLEND, GL_SCISSOR_TEST};
    GLint draw_fbo_ = 0, read_fbo_ = 0, viewport_[4] = {}, program_ = 0, vao_ = 0, array_buffer_ = 0;
    GLint blend_[4] = {};
    GLfloat clear_color_[4] = {};
    GLboolean depth_mask_ = GL_TRUE;
    GLboolean enabled_[kCaps] = {};
};

// Every number that decides a frame's pixels: equal keys, equal images.
std::vector<float> frame_key(const ViewScene& scene, const ViewTransform& t, int width, int height) {
    std::vector<float> key(t.view.data(), t.view.data() + 16);
    key.insert(key.end(), t.proj.data(), t.proj.data() + 16);
    const auto add = [&key](std::initializer_list<float> values) { key.insert(key.end(), values); };
    const auto add3 = [&add](const Eigen::Vector3f& v) { add({v.x(), v.y(), v.z()}); };
    const auto add_color = [&add](Rgba c) { add({c.r, c.g, c.b, c.a}); };
    add({t.size.x(), t.size.y(), static_cast<float>(width), static_cast<float>(height)});
    add_color(scene.background);
    for (const ViewEllipsoid& e : scene.ellipsoids) {
        add3(e.semi_axes);
        add_color(e.color);
    }
    for (const ViewDisc& d : scene.discs) {
        add3(d.u);
        add3(d.v);
        add_color(d.color);
    }
    for (const ViewSegment& sg : scene.segments) {
        add3(sg.a);
        add3(sg.b);
        add({sg.width_px});
        add_color(sg.color);
    }
    for (const ViewMarker& m : scene.markers) {
        add3(m.center);
        add({m.radius_px, m.outline_px});
        add_color(m.fill);
        add_color(m.outline);
    }
    // The counts too, so that parts cannot trade places unnoticed.
    add({static_cast<float>(scene.ellipsoids.size()), static_cast<float>(scene.discs.size()),
         static_cast<float>(scene.segments.size()), static_cast<float>(scene.markers.size())});
    return key;
}

constexpr int kSphereStacks = 48, kSphereSlices = 96;
constexpr int kDiscSegments = 128;
constexpr int kWantedSamples = 4;

// True for GL drivers that rasterize on the CPU (Mesa's llvmpipe and softpipe, SwiftShader): there
// 4× MSAA costs ~4× the frame (llvmpipe at 1100×700: 47 ms against 12 ms, measured), so the view
// relies on its shaders' own edge smoothing instead.
bool software_renderer() {
    const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    const std::string name = renderer != nullptr ? renderer : "";
    for (const char* soft : {"llvmpipe", "softpipe", "SwiftShader"})
        if (name.find(soft) != std::string::npos) return true;
    return false;
}

}  // namespace

// [SECTION] Renderer: set-up ----------------------------------------------------------------

GeometryRenderer::~GeometryRenderer() {
    if (!tried_init_) return;   // no GL object was ever made
    release_targets();
    const GLuint programs[] = {surface_program_, line_program_, marker_program_};
    for (GLuint p : programs)
        if (p != 0) glDeleteProgram(p);
    const GLuint vaos[] = {sphere_vao_, disc_vao_, line_vao_, marker_vao_};
    const GLuint buffers[] = {sphere_vbo_, sphere_ebo_, disc_vbo_, line_vbo_, marker_vbo_};
    glDeleteVertexArrays(4, vaos);   // names of 0 are ignored
    glDeleteBuffers(5, buffers);
}

bool GeometryRenderer::init() {
    namespace sh = normlab::shaders;
    surface_program_ = build_program("geometry_surface", sh::geometry_surface_vert, sh::geometry_surface_frag, error_);
    if (surface_program_ != 0) {
        line_program_ = build_program("geometry_line", sh::geometry_line_vert, sh::geometry_line_frag, error_);
    }
    if (line_program_ != 0) {
        marker_program_ = build_program("geometry_marker", sh::geometry_marker_vert, sh::geometry_marker_frag, error_);
    }
    if (marker_program_ == 0) return false;

    // The unit sphere: its vertices are also its normals (attributes 0 and 1 share the buffer).
    const SphereMesh mesh = unit_sphere_mesh(kSphereStacks, kSphereSlices);
    glGenVertexArrays(1, &sphere_vao_);
    glGenBuffers(1, &sphere_vbo_);
    glGenBuffers(1, &sphere_ebo_);
    glBindVertexArray(sphere_vao_);
    glBindBuffer(GL_ARRAY_BUFFER, sphere_vbo_);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(mesh.vertices.size() * sizeof(float)), mesh.vertices.data(),
                 GL_STATIC_DRAW);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, sphere_ebo_);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(mesh.indices.size() * sizeof(unsigned)),
                 mesh.indices.data(), GL_STATIC_DRAW);
    float_attribute(0, 3, 3 * sizeof(float), 0);
    float_attribute(1, 3, 3 * sizeof(float), 0);
    sphere_indices_ = static_cast<int>(mesh.indices.size());

    make_stream_buffers(disc_vao_, disc_vbo_);
    float_attribute(0, 3, sizeof(SurfaceVertex), offsetof(SurfaceVertex, position));
    float_attribute(1, 3, sizeof(SurfaceVertex), offsetof(SurfaceVertex, normal));

    make_stream_buffers(line_vao_, line_vbo_);
    float_attribute(0, 3, sizeof(LineVertex), offsetof(LineVertex, position));
    float_attribute(1, 3, sizeof(LineVertex), offsetof(LineVertex, other));
    float_attribute(2, 3, sizeof(LineVertex), offsetof(LineVertex, side));
    float_attribute(3, 4, sizeof(LineVertex), offsetof(LineVertex, color));

    make_stream_buffers(marker_vao_, marker_vbo_);
    float_attribute(0, 3, sizeof(MarkerVertex), offsetof(MarkerVertex, center));
    float_attribute(1, 2, sizeof(MarkerVertex), offsetof(MarkerVertex, corner));
    float_attribute(2, 2, sizeof(MarkerVertex), offsetof(MarkerVertex, size));
    float_attribute(3, 4, sizeof(MarkerVertex), offsetof(MarkerVertex, fill));
    float_attribute(4, 4, sizeof(MarkerVertex), offsetof(MarkerVertex, outline));
    glBindVertexArray(0);
    return true;
}

void GeometryRenderer::release_targets() {
    const GLuint fbos[] = {msaa_fbo_, fbo_};
    const GLuint renderbuffers[] = {msaa_color_, msaa_depth_, depth_};
    glDeleteFramebuffers(2, fbos);
    glDeleteRenderbuffers(3, renderbuffers);
    glDeleteTextures(1, &texture_);
    msaa_fbo_ = msaa_color_ = msaa_depth_ = fbo_ = texture_ = depth_ = 0;
    width_ = height_ = samples_ = 0;
    last_key_.clear();
}

// (Re)makes the render targets at width×height: a multisampled colour + depth target resolved
// into the texture when the driver offers MSAA, else the texture with its own depth buffer.
bool GeometryRenderer::resize(int width, int height) {
    release_targets();
    glGenTextures(1, &texture_);
    glBindTexture(GL_TEXTURE_2D, texture_);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    // Shown 1:1 on the pixel grid: nearest keeps the colours exact.
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glGenFramebuffers(1, &fbo_);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture_, 0);

    GLint max_samples = 0;
    glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
    samples_ = software_renderer() ? 0 : std::min(kWantedSamples, static_cast<int>(max_samples));
    if (samples_ > 1) {
        glGenRenderbuffers(1, &msaa_color_);
        glBindRenderbuffer(GL_RENDERBUFFER, msaa_color_);
        glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples_, GL_RGBA8, width, height);
        glGenRenderbuffers(1, &msaa_depth_);
        glBindRenderbuffer(GL_RENDERBUFFER, msaa_depth_);
        glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples_, GL_DEPTH_COMPONENT24, width, height);
        glGenFramebuffers(1, &msaa_fbo_);
        glBindFramebuffer(GL_FRAMEBUFFER, msaa_fbo_);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, msaa_color_);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, msaa_depth_);
        if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {   // fall back to plain
            const GLuint renderbuffers[] = {msaa_color_, msaa_depth_};
            glDeleteFramebuffers(1, &msaa_fbo_);
            glDeleteRenderbuffers(2, renderbuffers);
            msaa_fbo_ = msaa_color_ = msaa_depth_ = 0;
        }
    }
    if (msaa_fbo_ == 0) {
        samples_ = 0;
        glGenRenderbuffers(1, &depth_);
        glBindRenderbuffer(GL_RENDERBUFFER, depth_);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, width, height);
        glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth_);
    }
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
    if (const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER); status != GL_FRAMEBUFFER_COMPLETE) {
        error_ = "the offscreen framebuffer is incomplete (GL status " + std::to_string(status) + ")";
        release_targets();
        return false;
    }
    width_ = width;
    height_ = height;
    return true;
}

// [SECTION] Renderer: frame -----------------------------------------------------------------

unsigned GeometryRenderer::render(const ViewScene& scene, const ViewTransform& transform, int width, int height) {
    if (width <= 0 || height <= 0) return 0;
    const SavedGlState saved;
    if (!tried_init_) {
        tried_init_ = true;
        if (!init()) return 0;
    }
    if (marker_program_ == 0) return 0;   // init failed earlier: error_ says why
    if ((width != width_ || height != height_) && !resize(width, height)) return 0;
    // Most frames show what the last one did: then the texture already holds it.
    std::vector<float> key = frame_key(scene, transform, width, height);
    if (key == last_key_) return texture_;
    last_key_ = std::move(key);

    glBindFramebuffer(GL_FRAMEBUFFER, samples_ > 0 ? msaa_fbo_ : fbo_);
    glViewport(0, 0, width, height);
    glDisable(GL_SCISSOR_TEST);
    glClearColor(scene.background.r, scene.background.g, scene.background.b, 1.0f);
    glDepthMask(GL_TRUE);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    glEnable(GL_BLEND);
    // Alpha accumulates toward 1, so that the texture stays opaque where ImGui draws it.
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    glDisable(GL_CULL_FACE);

    draw_segments(scene, transform);
    draw_markers(scene, transform);
    glDepthMask(GL_FALSE);
    draw_surfaces(scene, transform);
    glDepthMask(GL_TRUE);

    if (samples_ > 0) {   // resolve the samples into the texture
        glBindFramebuffer(GL_READ_FRAMEBUFFER, msaa_fbo_);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo_);
        glBlitFramebuffer(0, 0, width, height, 0, 0, width, height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    }
    glBindVertexArray(0);
    return texture_;
}

void GeometryRenderer::draw_segments(const ViewScene& scene, const ViewTransform& t) {
    if (scene.segments.empty()) return;
    std::vector<LineVertex> vertices;   // 6 per segment: two triangles
    vertices.reserve(6 * scene.segments.size());
    for (const ViewSegment& s : scene.segments) {
        const auto vertex = [&](bool at_b, float side) {
            LineVertex v{};
            copy3(v.position, at_b ? s.b : s.a);
            copy3(v.other, at_b ? s.a : s.b);
            v.side[0] = side;
            v.side[1] = 0.5f * s.width_px;
            v.side[2] = at_b ? -1.0f : 1.0f;
            copy4(v.color, s.color);
            return v;
        };
        const LineVertex a0 = vertex(false, -1.0f), a1 = vertex(false, 1.0f);
        const LineVertex b0 = vertex(true, -1.0f), b1 = vertex(true, 1.0f);
        vertices.insert(vertices.end(), {a0, a1, b0, a1, b1, b0});
    }
    set_camera_uniforms(line_program_, t);
    glBindVertexArray(line_vao_);
    upload(line_vbo_, vertices);
    const GLint edge = glGetUniformLocation(line_program_, "u_edge");
    glUniform1i(edge, 0);   // the cores, writing depth
    glDrawArrays(GL_TRIANGLES, 0, static_cast<GLsizei>(vertices.size()));
    glDepthMask(GL_FALSE);
    glUniform1i(edge, 1);   // their smoothed edges, depth-tested only
    glDrawArrays(GL_TRIANGLES, 0, static_cast<GLsizei>(vertices.size()));
    glDepthMask(GL_TRUE);
}

void GeometryRenderer::draw_markers(const ViewScene& scene, const ViewTransform& t) {
    if (scene.markers.empty()) return;
    std::vector<MarkerVertex> vertices;   // 6 per marker: two triangles
    vertices.reserve(6 * scene.markers.size());
    for (const ViewMarker& m : scene.markers) {
        const auto corner = [&](float x, float y) {
            MarkerVertex v{};
            copy3(v.center, m.center);
            v.corner[0] = x;
            v.corner[1] = y;
            v.size[0] = m.radius_px;
            v.size[1] = m.outline_px;
            copy4(v.fill, m.fill);
            copy4(v.outline, m.outline);
            return v;
        };
        const MarkerVertex c00 = corner(-1, -1), c10 = corner(1, -1), c01 = corner(-1, 1), c11 = corner(1, 1);
        vertices.insert(vertices.end(), {c00, c10, c11, c00, c11, c01});
    }
    set_camera_uniforms(marker_program_, t);
    glBindVertexArray(marker_vao_);
    upload(marker_vbo_, vertices);
    glDrawArrays(GL_TRIANGLES, 0, static_cast<GLsizei>(vertices.size()));
}

void GeometryRenderer::draw_surfaces(const ViewScene& scene, const ViewTransform& t) {
    set_camera_uniforms(surface_program_, t);
    const GLint scale = glGetUniformLocation(surface_program_, "u_scale");
    const GLint color = glGetUniformLocation(surface_program_, "u_color");
    const auto draw_ellipsoids = [&](GLenum culled) {
        glEnable(GL_CULL_FACE);
        glCullFace(culled);
        glBindVertexArray(sphere_vao_);
        for (const ViewEllipsoid& e : scene.ellipsoids) {
            glUniform3f(scale, e.semi_axes.x(), e.semi_axes.y(), e.semi_axes.z());
            glUniform4f(color, e.color.r, e.color.g, e.color.b, e.color.a);
            glDrawElements(GL_TRIANGLES, sphere_indices_, GL_UNSIGNED_INT, nullptr);
        }
        glDisable(GL_CULL_FACE);
    };

    draw_ellipsoids(GL_FRONT);   // far half first
    if (!scene.discs.empty()) {
        std::vector<SurfaceVertex> vertices;   // per disc: kDiscSegments triangles around its centre
        vertices.reserve(3 * kDiscSegments * scene.discs.size());
        for (const ViewDisc& d : scene.discs) {
            const Eigen::Vector3f normal = d.u.cross(d.v).normalized();
            const auto vertex = [&](const Eigen::Vector3f& p) {
                SurfaceVertex v{};
                copy3(v.position, p);
                copy3(v.normal, normal);
                return v;
            };
            for (int i = 0; i < kDiscSegments; ++i) {
                const auto point = [&](int k) {
                    const float a = 6.2831853f * static_cast<float>(k) / kDiscSegments;
                    return Eigen::Vector3f(std::cos(a) * d.u + std::sin(a) * d.v);
                };
                vertices.insert(vertices.end(),
                                {vertex(Eigen::Vector3f::Zero()), vertex(point(i)), vertex(point(i + 1))});
            }
        }
        glBindVertexArray(disc_vao_);
        upload(disc_vbo_, vertices);
        glUniform3f(scale, 1.0f, 1.0f, 1.0f);
        std::size_t first = 0;
        for (const ViewDisc& d : scene.discs) {
            glUniform4f(color, d.color.r, d.color.g, d.color.b, d.color.a);
            glDrawArrays(GL_TRIANGLES, static_cast<GLint>(first), 3 * kDiscSegments);
            first += 3 * kDiscSegments;
        }
    }
    draw_ellipsoids(GL_BACK);    // near half last
}

}  // namespace normlab::ui
