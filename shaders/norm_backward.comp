#version 430
// Norm backward, float32, first pass: dx of each row, and each thread's share of dg and db.
// The gradients of L = sum dy * y (RMSNorm paper eq. 8-10), with xh = (x - mean) * rstd and
// dxh = dy * g:
//   LayerNorm  dx = rstd * (dxh - mean(dxh) - xh * mean(dxh * xh))
//   RMSNorm    dx = rstd * (dxh - xh * mean(dxh * xh))                    (mean = 0)
//   pRMSNorm   dx = rstd * (dxh - [j < k] xh * (1/k) sum_j (dxh * xh))    (rstd from the first k)
//   dg = sum over rows of dy * xh,   db = sum over rows of dy              per column
//
//   dx        rows x cols   out
//   partial_g slots x cols  out: this slot's share of dg (norm_reduce_columns.comp adds the slots)
//   partial_b slots x cols  out: the same for db
//   dy, x     rows x cols   in;  g cols in;  mean, rstd rows in (from norm_forward.comp)
//
// Defines: NORM, VEC4, LOCAL_SIZE as in norm_forward.comp, and
//   MAX_ITEMS  elements (of T) per thread whose dg, db shares stay in registers
//
// Work split: as the forward (u_lanes threads per row, grid-stride over blocks of rows), but
// with fewer workgroups than blocks, so that each workgroup adds several rows into its dg, db
// shares. A slot is one row position in one workgroup: slot = workgroup * rows per group + its
// row position. While a row has at most u_lanes * MAX_ITEMS elements, a thread keeps its
// columns' shares in registers and writes them once at the end; longer rows add straight into
// the slot's row of partial_g, partial_b (each thread only ever touches its own entries there).
layout(local_size_x = LOCAL_SIZE) in;

#if VEC4
#define T vec4
#define WIDTH 4u
#else
#define T float
#define WIDTH 1u
#endif

layout(std430, binding = 0) writeonly buffer OutDx { T dx[]; };
layout(std430, binding = 1) buffer PartialG { T partial_g[]; };
layout(std430, binding = 2) buffer PartialB { T partial_b[]; };
layout(std430, binding = 3) readonly buffer InDy { T dy[]; };
layout(std430, binding = 4) readonly buffer InX { T x[]; };
layout(std430, binding = 5) readonly buffer InG { T g[]; };
layout(std430, binding = 6) readonly buffer InMean { float mean_in[]; };
layout(std430, binding = 7) readonly buffer InRstd { float rstd_in[]; };

uniform uint u_rows;    // R
uniform uint u_cols;    // C, in floats
uniform uint u_lanes;   // threads per row
uniform uint u_k;       // pRMSNorm's k; C otherwise

#if VEC4
float hsum(vec4 v) { return (v.x + v.y) + (v.z + v.w); }
// 1 for each float of element i (4 floats) that lies among the first k of its row, else 0.
vec4 first_k(uint i) { return vec4(lessThan(uvec4(4u * i) + uvec4(0u, 1u, 2u, 3u), uvec4(u_k))); }
#else
float hsum(float v) { return v; }
float first_k(uint i) { return i < u_k ? 1.0 : 0.0; }
#endif

shared vec2 s_sum[LOCAL_SIZE];

// Two sums over the u_lanes threads of this thread's row at once (see norm_forward.comp).
vec2 row_sum(vec2 v) {
    const uint tid = gl_LocalInvocationID.x;
    const uint lane = tid & (u_lanes - 1u);
    s_sum[tid] = v;
    for (uint stride = u_lanes >> 1u; stride > 0u; stride >>= 1u) {
        memoryBarrierShared();
        barrier();
        if (lane < stride) s_sum[tid] += s_sum[tid + stride];
    }
    memoryBarrierShared();
    barrier();
    const vec2 total = s_sum[tid - lane];
    memoryBarrierShared();   // the read above stays before the barrier, so the next call cannot overwrite it first
    barrier();
    return total;
}

void main() {
    const uint tid = gl_LocalInvocationID.x;
    const uint lane = tid & (u_lanes - 1u);
    const uint rows_per_group = uint(LOCAL_SIZE) / u_lanes;
    const uint cols_t = u_cols / WIDTH;
    const uint blocks = (u_rows + rows_per_group - 1u) / rows_per_group;
    const uint slot = gl_WorkGroupID.x * rows_per_group + tid / u_lanes;
    const uint slot_base = slot * cols_t;
    const bool in_registers = cols_t <= u_lanes * uint(MAX_ITEMS);

    T share_g[MAX_ITEMS], share_b[MAX_ITEMS];
    for (int j = 0; j < MAX_ITEMS; ++j) {
        share_g[j] = T(0.0);
        share_b[j] = T(0.0);
    }
    if (!in_registers)
        for (uint i = lane; i < cols_t; i += u_lanes) {
            partial_g[slot_base + i] = T(0.0);
            partial_b[slot_base + i] = T(0.0);
        }

    for (uint block = gl_WorkGroupID.x; block < blocks; block += gl_NumWorkGroups.x) {
        const uint row = block * rows_per_group + tid / u_lanes;
        const bool live = row < u_rows;
        const uint base = row * cols_t;
        const float mean = live ? mean_in[row] : 0.0;
        const float rstd = live ? rstd_in[row] : 0.0;

        // Pass 1: sum(dxh) and sum(dxh * xh) over the row.
        vec2 sums = vec2(0.0);
        if (live)
            for (uint i = lane; i < cols_t; i += u_lanes) {
                const T xh = (x[base + i] - mean) * rstd;
                const T dxh = dy[base + i] * g[i];
                sums += vec2(hsum(dxh), hsum(dxh * xh));
            }
        sums = row_sum(sums);
#if NORM == 0
        const float c1 = sums.x / float(u_cols);   // mean(dxh)
        const float c2 = sums.y / float(u_cols);   // mean(dxh * xh)
#elif NORM == 1
        const float c1 = 0.0;
        const float c2 = sums.y / float(u_cols);
#else
        const float c1 = 0.0;
        const float c2 = sums.y / float(u_k);      // only the first k entries moved rstd
#endif

        // Pass 2: dx, and this row's part of dg and db (no barriers from here on).
        if (live && in_registers) {
            for (int j = 0; j < MAX_ITEMS; ++j) {
                const uint i = lane + uint(j) * u_lanes;
                if (i >= cols_t) break;
                const T dyv = dy[base + i];
                const T xh = (x[base + i] - mean) * rstd;
#if NORM == 2
                dx[base + i] = rstd * (dyv * g[i] - c1 - xh * c2 * first_k(i));
#else
                dx[base + i] = rstd * (dyv * g[i] - c1 - xh * c2);
#endif
                share_g[j] += dyv * xh;   // eq. 9
                share_b[j] += dyv;        // eq. 10
            }
        } else if (live) {
            for (uint i = lane; i < cols_t; i += u_lanes) {
                const T dyv = dy[base + i];
                const T xh = (x[base + i] - mean) * rstd;
#if NORM == 2
                dx[base + i] = rstd * (dyv * g[i] - c1 - xh * c2 * first_k(i));
#else
                dx[base + i] = rstd * (dyv * g[i] - c1 - xh * c2);
#endif
                partial_g[slot_base + i] += dyv * xh;
                partial_b[slot_base + i] += dyv;
            }
        }
    }

    if (in_registers)
        for (int j = 0; j < MAX_ITEMS; ++j) {
            const uint i = lane + uint(j) * u_lanes;
            if (i >= cols_t) break;
            partial_g[slot_base + i] = share_g[j];
            partial_b[slot_base + i] = share_b[j];
        }
}
