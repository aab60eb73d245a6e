#version 450
// Subgroup-shuffle throughput: each invocation runs 4 independent chains (a uvec4) of
// x = subgroupShuffleXor(x, m) + 1 for `trips` trips of 16 steps, m alternating 1 and 2 (so every
// subgroup of at least 4 invocations stays whole), then writes the XOR of its chains. The add
// costs one integer operation per shuffle, far below any GPU's integer rate against its shuffle
// rate. A chain's start depends on the invocation's subgroup lane only, so the host computes
// each lane's result from its lane (written beside it).
//
// Macros: none.
// Specialization constants: 0 local size x (a multiple of the subgroup size: whole subgroups).
// Bindings: 0 two uints per invocation: the result, and gl_SubgroupInvocationID.
// Push constants: count (invocations), trips.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_EXT_control_flow_attributes : require
layout(local_size_x_id = 0) in;

layout(std430, binding = 0) writeonly buffer Results { uint results[]; };
layout(push_constant) uniform Parameters {
  uint count;
  uint trips;
};

void main() {
  const uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  const uint index = group * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  // No early return: every invocation of a subgroup takes part in its shuffles (the grid covers
  // whole workgroups; the excess ones only skip their write).
  const uint lane = gl_SubgroupInvocationID;
  uvec4 x = uvec4(lane * 2654435761u + 1u, lane * 40503u + 7u, lane ^ 0x5bd1e995u, lane * 97u + 3u);
  for (uint t = 0; t < trips; ++t) {
    [[unroll]] for (uint s = 0; s < 16; ++s) x = subgroupShuffleXor(x, (s & 1u) == 0u ? 1u : 2u) + 1u;
  }
  if (index >= count) return;
  results[2 * index] = (x.x ^ x.y) ^ (x.z ^ x.w);
  results[2 * index + 1] = lane;
}
