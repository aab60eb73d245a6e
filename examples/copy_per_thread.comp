#version 450
// A copy, out = in, of n uints: each invocation copies PER_THREAD consecutive uints, so that a
// workgroup covers 32 * PER_THREAD of them. The local size is a literal, 32: the shader is
// written for one width, as many projects' kernels are. Specialization constant 0 is not the
// workgroup's width here but the uints each invocation copies: csbench must leave it alone
// unless the manifest sets it ([specialization]).
// Specialization constants: 0 PER_THREAD (default 4).
// Bindings: 0 src uint[n], 1 dst uint[n]. Push constants: n.
layout(local_size_x = 32) in;
layout(constant_id = 0) const uint PER_THREAD = 4;

layout(std430, set = 0, binding = 0) readonly buffer Src { uint src[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Dst { uint dst[]; };
layout(push_constant) uniform Parameters { uint n; };

void main() {
  // Consecutive invocations take consecutive uints on each step, so that a warp's accesses stay
  // contiguous; an invocation's PER_THREAD uints are 32 apart.
  // Groups in rows of gl_NumWorkGroups.x: a dispatch portably has at most 65535 along x.
  const uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  const uint base = group * 32 * PER_THREAD + gl_LocalInvocationID.x;
  for (uint k = 0; k < PER_THREAD; ++k) {
    const uint i = base + k * 32;
    if (i < n) dst[i] = src[i];
  }
}
