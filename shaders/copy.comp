#version 430
// A plain copy, dst = src, float32: the bandwidth ceiling the norm kernels are measured against.
// It moves what a norm forward moves (n floats read, n written) and does nothing else.
//   dst  n  out;  src  n  in
// Defines: VEC4 (1: vec4s, needs n % 4 == 0; 0: floats), LOCAL_SIZE.
// Work split: grid-stride; neighbouring threads copy neighbouring elements.
layout(local_size_x = LOCAL_SIZE) in;

#if VEC4
#define T vec4
#else
#define T float
#endif

layout(std430, binding = 0) writeonly buffer Dst { T dst[]; };
layout(std430, binding = 1) readonly buffer Src { T src[]; };

uniform uint u_n;   // elements of T

void main() {
    const uint stride = gl_NumWorkGroups.x * uint(LOCAL_SIZE);
    for (uint i = gl_GlobalInvocationID.x; i < u_n; i += stride) dst[i] = src[i];
}
