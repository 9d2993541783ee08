#version 330 core
// Geometry view: a lit translucent surface - the unit sphere scaled per axis (RMSNorm's sphere,
// stretched by the gain to an ellipsoid) or a flat disc (the plane sum x_i = 0).
layout(location = 0) in vec3 a_position;   // model space
layout(location = 1) in vec3 a_normal;     // model space, unit length

uniform mat4 u_view;    // world -> view
uniform mat4 u_proj;    // view -> clip
uniform vec3 u_scale;   // per-axis scale, model -> world (the ellipsoid's semi-axes)

out vec3 v_normal;      // view space
out vec3 v_position;    // view space

void main() {
    vec4 p = u_view * vec4(a_position * u_scale, 1.0);
    v_position = p.xyz;
    // Normals transform by the inverse transpose of diag(u_scale): divide, then renormalize.
    v_normal = mat3(u_view) * normalize(a_normal / u_scale);
    gl_Position = u_proj * p;
}
