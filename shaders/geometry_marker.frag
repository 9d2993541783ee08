#version 330 core
// Geometry view: a disc of v_size.x px radius with an outline ring v_size.y px wide and a
// one-pixel smoothed edge. Inside the ring the colour is exactly v_fill (the GUI test counts it).
in vec2 v_px;
flat in vec2 v_size;   // x: radius (px); y: outline width (px)
flat in vec4 v_fill;
flat in vec4 v_outline;
out vec4 frag_color;

void main() {
    float inside = v_size.x - length(v_px);   // px inside the edge
    float coverage = clamp(inside + 0.5, 0.0, 1.0);
    vec4 color = mix(v_fill, v_outline, clamp(v_size.y - inside + 0.5, 0.0, 1.0));
    color.a *= coverage;
    if (color.a < 0.004) discard;   // no depth written around the disc, nor for a hollow ring's hole
    frag_color = color;
}
