#version 450
// Strided shared-memory reads: each invocation sums ACCESSES words of a 4096-word shared array,
// starting at (its local index * stride) and stepping by one word, so that at stride s the 32
// invocations of a warp read words s apart: an s-way bank conflict for s up to 32 (32 banks of
// 32-bit words), none at stride 1. The array is filled from the first 4096 input words once per
// group; the sums are the output, so no read can be dropped.
//
// Macros: ACCESSES (shared reads per invocation).
// Specialization constants: 0 local size x, 3 stride (words).
// Bindings: 0 input float[4096], 1 output float[] (one per invocation).
// Push constants: count (invocations that write; the dispatch may round up).
#extension GL_EXT_control_flow_attributes : require
layout(local_size_x_id = 0) in;
layout(constant_id = 3) const uint kStride = 1;

layout(std430, binding = 0) readonly buffer Input { float src[]; };
layout(std430, binding = 1) writeonly buffer Output { float dst[]; };
layout(push_constant) uniform Parameters {
  uint count;
};

const uint kWords = 4096;  // 16 KiB: the shared memory every Vulkan device has
shared float data[kWords];

void main() {
  for (uint k = gl_LocalInvocationID.x; k < kWords; k += gl_WorkGroupSize.x) data[k] = src[k];
  barrier();  // every word written before any invocation reads its strided words
  const uint base = gl_LocalInvocationID.x * kStride;
  float sum = 0.0;
  [[unroll]] for (uint a = 0; a < ACCESSES; ++a) sum += data[(base + a) & (kWords - 1)];
  const uint i = gl_WorkGroupID.x * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  if (i < count) dst[i] = sum;
}
