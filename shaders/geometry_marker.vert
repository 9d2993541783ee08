#version 330 core
// Geometry view: a round marker (input point or image) as a camera-facing square of constant
// size in pixels; geometry_marker.frag cuts the disc out of it.
layout(location = 0) in vec3 a_center;    // world
layout(location = 1) in vec2 a_corner;    // (+-1, +-1): which corner of the square
layout(location = 2) in vec2 a_size;      // x: radius (px); y: outline width (px)
layout(location = 3) in vec4 a_fill;
layout(location = 4) in vec4 a_outline;

uniform mat4 u_view;       // world -> view
uniform mat4 u_proj;       // view -> clip
uniform vec2 u_viewport;   // the target's size (px)

out vec2 v_px;             // px from the centre
flat out vec2 v_size;
flat out vec4 v_fill;
flat out vec4 v_outline;

void main() {
    vec4 c = u_view * vec4(a_center, 1.0);
    // Bring the marker forward by its radius: one on a surface shows whole, not half sunk in it.
    float view_per_px = 2.0 * (-c.z) / (u_proj[1][1] * u_viewport.y);
    c.z += a_size.x * view_per_px;
    vec4 clip = u_proj * c;
    float half_px = a_size.x + 1.0;   // one pixel more, for the smoothed edge
    clip.xy += a_corner * half_px * 2.0 / u_viewport * clip.w;
    gl_Position = clip;
    v_px = a_corner * half_px;
    v_size = a_size;
    v_fill = a_fill;
    v_outline = a_outline;
}
