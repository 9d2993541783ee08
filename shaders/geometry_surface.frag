#version 330 core
// Geometry view: shading of a translucent surface. Light changes only the opacity and the mix
// with white, never the hue: over a white background every pixel stays on the line from white to
// u_color.rgb, which the GUI test (tests/gui/check_screenshot.cpp) uses to find the sphere.
uniform vec4 u_color;   // rgb: the tint; a: the opacity where the light falls head-on

in vec3 v_normal;       // view space
in vec3 v_position;     // view space
out vec4 frag_color;

const vec3 kLight = vec3(-0.37, 0.56, 0.74);   // view space, unit: from the upper left, behind the viewer

void main() {
    vec3 n = normalize(v_normal);
    vec3 v = normalize(-v_position);
    if (dot(n, v) < 0.0) n = -n;   // two-sided: the sphere's inside, a disc seen from below
    float facing = dot(n, v);
    float diffuse = max(dot(n, kLight), 0.0);
    float rim = pow(1.0 - facing, 3.0);                              // the silhouette
    float highlight = pow(max(dot(reflect(-kLight, n), v), 0.0), 40.0);
    float alpha = clamp(u_color.a * (1.4 - 0.6 * diffuse) + 0.3 * rim, 0.0, 1.0);
    frag_color = vec4(mix(u_color.rgb, vec3(1.0), 0.85 * highlight), alpha);
}
