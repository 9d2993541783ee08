#version 430
// Norm forward, float32: LayerNorm, RMSNorm or pRMSNorm of each row of x (RMSNorm paper,
// Zhang & Sennrich 2019, eq. 2-4), with the per-row statistics saved for the backward.
//
//   y    rows x cols  out: (x - mean) * rstd * g + b
//   mean rows         out: LayerNorm: the row's mean; RMSNorm, pRMSNorm: 0
//   rstd rows         out: 1 / sqrt(var + eps), eps inside the square root, where var is
//                          LayerNorm: (1/C) sum_j (x_j - mean)^2   (biased variance, eq. 3)
//                          RMSNorm:   (1/C) sum_j x_j^2            (eq. 4)
//                          pRMSNorm:  (1/k) sum_{j<k} x_j^2, k = ceil(C p) (core's partial_k)
//   x    rows x cols  in (row-major);  g, b  cols in (gain, bias)
//
// Defines, set by app/gpu_runner.cpp right after the #version line:
//   NORM        0 LayerNorm, 1 RMSNorm, 2 pRMSNorm
//   VEC4        1: each thread moves vec4s (needs cols % 4 == 0); 0: floats
//   LOCAL_SIZE  threads per workgroup (a power of two): 256 on a GPU, 8 on llvmpipe (gpu_runner.hpp)
//
// Work split: u_lanes threads (a power of two <= LOCAL_SIZE) share one row, so a workgroup holds
// LOCAL_SIZE / u_lanes rows (several short rows per workgroup, one long row). Sums over a row go
// through shared memory (a tree over its u_lanes threads): no subgroup operations, which
// llvmpipe lacks. Each row is read three times (LayerNorm: mean, variance, output); the second
// and third reads hit the cache, as in llm.c's layernorm_forward_kernel3.
layout(local_size_x = LOCAL_SIZE) in;

#if VEC4
#define T vec4
#define WIDTH 4u
#else
#define T float
#define WIDTH 1u
#endif

layout(std430, binding = 0) writeonly buffer OutY { T y[]; };
layout(std430, binding = 1) writeonly buffer OutMean { float mean_out[]; };
layout(std430, binding = 2) writeonly buffer OutRstd { float rstd_out[]; };
layout(std430, binding = 3) readonly buffer InX { T x[]; };
layout(std430, binding = 4) readonly buffer InG { T g[]; };
layout(std430, binding = 5) readonly buffer InB { T b[]; };

uniform uint u_rows;    // R
uniform uint u_cols;    // C, in floats
uniform uint u_lanes;   // threads per row
uniform uint u_k;       // entries the RMS runs over: pRMSNorm's k; C otherwise
uniform float u_eps;    // epsilon

shared float s_sum[LOCAL_SIZE];

#if VEC4
float hsum(vec4 v) { return (v.x + v.y) + (v.z + v.w); }
// 1 for each float of element i (4 floats) that lies among the first k of its row, else 0.
vec4 first_k(uint i) { return vec4(lessThan(uvec4(4u * i) + uvec4(0u, 1u, 2u, 3u), uvec4(u_k))); }
#else
float hsum(float v) { return v; }
float first_k(uint i) { return i < u_k ? 1.0 : 0.0; }
#endif

// The sum of v over the u_lanes threads of this thread's row, returned to each of them.
// Every thread of the workgroup calls it, in uniform control flow (it holds barriers).
float row_sum(float v) {
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
    const float total = s_sum[tid - lane];
    memoryBarrierShared();   // the read above stays before the barrier, so the next call cannot overwrite it first
    barrier();
    return total;
}

void main() {
    const uint tid = gl_LocalInvocationID.x;
    const uint lane = tid & (u_lanes - 1u);
    const uint rows_per_group = uint(LOCAL_SIZE) / u_lanes;
    const uint cols_t = u_cols / WIDTH;                 // row length in units of T
    const uint blocks = (u_rows + rows_per_group - 1u) / rows_per_group;
    // Grid-stride over blocks of rows: the loop bound is the same for the whole workgroup.
    for (uint block = gl_WorkGroupID.x; block < blocks; block += gl_NumWorkGroups.x) {
        const uint row = block * rows_per_group + tid / u_lanes;
        const bool live = row < u_rows;   // the last block may be part empty; its threads still meet every barrier
        const uint base = row * cols_t;

        float mean = 0.0;
#if NORM == 0
        float sum = 0.0;
        if (live)
            for (uint i = lane; i < cols_t; i += u_lanes) sum += hsum(x[base + i]);
        mean = row_sum(sum) / float(u_cols);                              // eq. 3: mu
#endif

        float squares = 0.0;
        if (live) {
#if NORM == 2
            const uint end = (u_k + WIDTH - 1u) / WIDTH;                 // pRMSNorm: the first k only
            for (uint i = lane; i < end; i += u_lanes) {
                const T v = x[base + i] * first_k(i);
                squares += dot(v, v);
            }
#else
            for (uint i = lane; i < cols_t; i += u_lanes) {
                const T d = x[base + i] - mean;
                squares += dot(d, d);
            }
#endif
        }
#if NORM == 2
        const float var = row_sum(squares) / float(u_k);
#else
        const float var = row_sum(squares) / float(u_cols);               // eq. 3: sigma^2; eq. 4: RMS^2
#endif
        const float rstd = inversesqrt(var + u_eps);

        if (live) {
            for (uint i = lane; i < cols_t; i += u_lanes) y[base + i] = (x[base + i] - mean) * rstd * g[i] + b[i];
            if (lane == 0u) {
                mean_out[row] = mean;
                rstd_out[row] = rstd;
            }
        }
    }
}
