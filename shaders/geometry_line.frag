#version 330 core
// Geometry view: a ribbon's flat colour with a one-pixel smoothed edge, drawn in two passes: the
// fully covered core, which writes depth, then the edge, which does not (an edge that wrote depth
// would notch the next segment of a polyline). Inside the edge the colour is exactly v_color
// (the GUI test counts it).
uniform int u_edge;     // 0: the core pass; 1: the edge pass

in vec4 v_color;
in float v_across;      // px from the centre line, signed
flat in float v_half;   // half width (px)
out vec4 frag_color;

void main() {
    float coverage = clamp(v_half - abs(v_across) + 0.5, 0.0, 1.0);
    bool core = coverage >= 1.0;
    if (core == (u_edge == 1) || coverage * v_color.a < 0.004) discard;
    frag_color = vec4(v_color.rgb, v_color.a * coverage);
}
