#version 450
// A driver probe: subgroup 0 alone sums the first subgroup-size slots of shared memory through a
// tree, each step ordered by subgroupMemoryBarrierShared() and subgroupBarrier(), in a branch the
// other subgroups of the workgroup skip. That is the tail of the unrolled reduction
// (reduction/tree.comp, UNROLLED), and valid Vulkan: a subgroup-scoped barrier needs only the
// subgroup's invocations. A driver that mishandles it (Mesa 25's lavapipe never finishes the
// branch) leaves the output unwritten, and csbench skips the kernels that use the pattern.
//
// Macros: EVERY_SUBGROUP  the control: every subgroup runs the tree on its own slots (no branch
//                          between subgroups), so a failure without it is the pattern's, not the
//                          probe's.
// Specialization constants: 0 local size x (at least two subgroups).
// Bindings: 0 two words per workgroup: the sum of 1..n over the first n slots, and n, the
//   subgroup size the branch ran with.
// Push constants: none.
#extension GL_KHR_shader_subgroup_basic : require

layout(local_size_x_id = 0) in;

layout(std430, binding = 0) writeonly buffer Result { uint result[]; };

shared uint slots[gl_WorkGroupSize.x];

void main() {
  const uint i = gl_LocalInvocationIndex;
  slots[i] = i + 1;
  barrier();
#ifdef EVERY_SUBGROUP
  const uint base = gl_SubgroupID * gl_SubgroupSize;
  {
#else
  const uint base = 0;
  if (gl_SubgroupID == 0) {
#endif
    const uint lane = gl_SubgroupInvocationID;
    for (uint s = gl_SubgroupSize / 2; s > 0; s >>= 1) {
      if (lane < s) slots[base + lane] += slots[base + lane + s];
      subgroupMemoryBarrierShared();
      subgroupBarrier();
    }
    if (gl_SubgroupID == 0 && lane == 0) {
      result[2 * gl_WorkGroupID.x] = slots[0];
      result[2 * gl_WorkGroupID.x + 1] = gl_SubgroupSize;
    }
  }
}
