#version 450
// BabelStream's five kernels on float arrays: copy c = a, mul c = s * a, add c = a + b,
// triad c = a + s * b, and dot, the sum of a * b. A grid-stride loop, so any length fits a
// dispatch of at most 65535 workgroups. dot writes one partial sum per workgroup (a tree in
// shared memory); the host adds the partials, as BabelStream's host does.
//
// Macros: OP, one of COPY (0), MUL (1), ADD (2), TRIAD (3), DOT (4).
// Specialization constants: 0 local size x (a power of two, 1 to 1024).
// Bindings: 0 a float[], 1 b float[], 2 c float[] (dot: one partial per workgroup).
// Push constants: count, scalar.
#define COPY 0
#define MUL 1
#define ADD 2
#define TRIAD 3
#define DOT 4
#ifndef OP
#error "OP must be defined"
#endif

layout(local_size_x_id = 0) in;

layout(std430, binding = 0) readonly buffer A { float a[]; };
layout(std430, binding = 1) readonly buffer B { float b[]; };
layout(std430, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform Parameters {
  uint count;
  float scalar;
};

#if OP == DOT
shared float partial[gl_WorkGroupSize.x];
#endif

void main() {
  const uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
#if OP == DOT
  float sum = 0.0;
  for (uint i = gl_GlobalInvocationID.x; i < count; i += stride) sum += a[i] * b[i];
  const uint lane = gl_LocalInvocationID.x;
  partial[lane] = sum;
  // Every invocation's sum is in shared memory before the tree reads it, and each level of the
  // tree before the next.
  for (uint half_size = gl_WorkGroupSize.x / 2; half_size > 0; half_size /= 2) {
    barrier();
    if (lane < half_size) partial[lane] += partial[lane + half_size];
  }
  if (lane == 0) c[gl_WorkGroupID.x] = partial[0];
#else
  for (uint i = gl_GlobalInvocationID.x; i < count; i += stride) {
#if OP == COPY
    c[i] = a[i];
#elif OP == MUL
    c[i] = scalar * a[i];
#elif OP == ADD
    c[i] = a[i] + b[i];
#elif OP == TRIAD
    c[i] = a[i] + scalar * b[i];
#endif
  }
#endif
}
