#version 330 core
// Geometry view: a line segment as a screen-space ribbon of constant width in pixels (GL 3.3 core
// has no wide lines). Each segment a->b is two triangles, six vertices, expanded here.
layout(location = 0) in vec3 a_position;   // world: this vertex's end of the segment
layout(location = 1) in vec3 a_other;      // world: the other end
layout(location = 2) in vec3 a_side;       // x: -1 or +1, which edge of the ribbon; y: half width (px);
                                           // z: +1 at the segment's start, -1 at its end
layout(location = 3) in vec4 a_color;

uniform mat4 u_view;       // world -> view
uniform mat4 u_proj;       // view -> clip
uniform vec2 u_viewport;   // the target's size (px)

out vec4 v_color;
out float v_across;        // px from the centre line, signed
flat out float v_half;     // half width (px)

void main() {
    vec4 p = u_view * vec4(a_position, 1.0);
    vec4 q = u_view * vec4(a_other, 1.0);
    // Lift the ribbon toward the camera by its half width, so that a line lying on a surface
    // (LayerNorm's circle on the sphere) is not cut by it.
    float view_per_px = 2.0 * (-p.z) / (u_proj[1][1] * u_viewport.y);
    p.z += a_side.y * view_per_px;
    vec4 cp = u_proj * p;
    vec4 cq = u_proj * q;
    vec2 sp = cp.xy / cp.w * u_viewport;   // 2x pixels: only the direction matters
    vec2 sq = cq.xy / cq.w * u_viewport;
    vec2 d = sq - sp;
    vec2 dir = (dot(d, d) > 1e-12 ? normalize(d) : vec2(1.0, 0.0)) * a_side.z;   // start -> end at both ends
    vec2 normal = vec2(-dir.y, dir.x);
    float reach = a_side.y + 1.0;   // one pixel more, for the smoothed edge
    cp.xy += normal * (a_side.x * reach * 2.0 / u_viewport) * cp.w;
    gl_Position = cp;
    v_color = a_color;
    v_across = a_side.x * reach;
    v_half = a_side.y;
}
