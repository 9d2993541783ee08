#version 430
// Norm backward, float32, second pass: dg and db as the sums of the first pass's slots.
//   dg  cols         out: sum over slots of partial_g
//   db  cols         out: sum over slots of partial_b
//   partial_g, partial_b  slots x cols  in (norm_backward.comp)
//
// Defines: VEC4 as in norm_forward.comp.
// Work split: a workgroup is 64 columns (of T) by 4 threads; the 4 threads of a column take every
// 4th slot, then add their sums through shared memory. Neighbouring threads read neighbouring
// columns, so each slot's row is read in whole cache lines.
layout(local_size_x = 64, local_size_y = 4) in;

#if VEC4
#define T vec4
#define WIDTH 4u
#else
#define T float
#define WIDTH 1u
#endif

layout(std430, binding = 0) writeonly buffer OutDg { T dg[]; };
layout(std430, binding = 1) writeonly buffer OutDb { T db[]; };
layout(std430, binding = 2) readonly buffer PartialG { T partial_g[]; };
layout(std430, binding = 3) readonly buffer PartialB { T partial_b[]; };

uniform uint u_cols;    // C, in floats
uniform uint u_slots;   // rows of partial_g and partial_b

shared T s_g[4][64];
shared T s_b[4][64];

void main() {
    const uint cols_t = u_cols / WIDTH;
    const uint col = gl_GlobalInvocationID.x;
    const uint part = gl_LocalInvocationID.y;
    T sum_g = T(0.0), sum_b = T(0.0);
    if (col < cols_t)
        for (uint s = part; s < u_slots; s += 4u) {
            sum_g += partial_g[s * cols_t + col];
            sum_b += partial_b[s * cols_t + col];
        }
    s_g[part][gl_LocalInvocationID.x] = sum_g;
    s_b[part][gl_LocalInvocationID.x] = sum_b;
    memoryBarrierShared();
    barrier();
    if (part == 0u && col < cols_t) {
        const uint c = gl_LocalInvocationID.x;
        dg[col] = (s_g[0][c] + s_g[1][c]) + (s_g[2][c] + s_g[3][c]);
        db[col] = (s_b[0][c] + s_b[1][c]) + (s_b[2][c] + s_b[3][c]);
    }
}
