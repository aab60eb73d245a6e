#version 450
// Shared-memory read bandwidth: each workgroup fills 32 KiB of shared memory (2048 uvec4 from a
// hash of their index), then each invocation reads 16 uvec4 per trip for `trips` trips and adds
// them up (wrap-around: exact, order-free, and no load can be dropped). Within a trip, loads are
// 64 elements apart from a base that moves by 64 each trip, so consecutive invocations read
// consecutive 16-byte words (no bank conflict on any GPU) and the offsets within a trip are
// constants. Each invocation writes the XOR of its sum's components.
//
// Macros: none.
// Specialization constants: 0 local size x.
// Bindings: 0 one uint per invocation.
// Push constants: count (invocations), trips.
#extension GL_EXT_control_flow_attributes : require
layout(local_size_x_id = 0) in;

layout(std430, binding = 0) writeonly buffer Results { uint results[]; };
layout(push_constant) uniform Parameters {
  uint count;
  uint trips;
};

const uint kElements = 2048;
shared uvec4 tile[kElements];

// The same function as kernels/ceiling/reference.cpp's.
uvec4 Word(uint i) {
  uint h = i * 2654435761u + 0x9e3779b9u;
  h ^= h >> 15;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  return uvec4(h, h * 3u + 1u, h ^ 0x27d4eb2fu, h + i);
}

void main() {
  const uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  const uint index = group * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  const uint lane = gl_LocalInvocationID.x;
  for (uint i = lane; i < kElements; i += gl_WorkGroupSize.x) tile[i] = Word(i);
  barrier();
  uvec4 sum = uvec4(0);
  for (uint t = 0; t < trips; ++t) {
    const uint base = (lane & 63u) + (t & 15u) * 64u;
    [[unroll]] for (uint k = 0; k < 16; ++k) sum += tile[base + k * 64u];
  }
  if (index < count) results[index] = (sum.x ^ sum.y) ^ (sum.z ^ sum.w);
}
