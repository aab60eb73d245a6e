#version 450
// Per-tile sums: workgroup t adds the TILE = X * PER_ITEM floats of tile t (floats t * TILE up
// to the next tile, the last tile cut short at n) and writes the sum to sums[t].
// More than 65535 workgroups along x are not portable, so the groups form rows of 4096 tiles:
// tile = group.y * 4096 + group.x, and the groups of the last row past the last tile leave at
// once (the whole group: no barrier is skipped by part of one).
//
// Macros:
//   PER_ITEM  floats each invocation adds before the group combines them; it reads them X floats
//             apart, so that on every step consecutive invocations read consecutive floats.
//   SUBGROUP  each subgroup adds its invocations' sums with subgroupAdd and shared memory holds
//             one sum per subgroup, which the first subgroup adds. Otherwise a tree in shared
//             memory: each step adds the upper half of the live sums onto the lower half, a
//             barrier between steps. (Needs subgroup arithmetic in compute shaders.)
// Specialization constants: 0, 1 the workgroup's width and height (height 1; any width up to
//   the device's limit: the tree halves with rounding up, so no power of two is needed).
// Bindings: 0 values float[n], 1 sums float[ceil(n / TILE)].
// Push constants: n.
#ifndef PER_ITEM
#error "PER_ITEM must be defined"
#endif
#ifdef SUBGROUP
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#endif

layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(std430, set = 0, binding = 0) readonly buffer Values { float values[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Sums { float sums[]; };
layout(push_constant) uniform Parameters {
  uint n;
};

const uint kInvocations = gl_WorkGroupSize.x;
const uint kTile = kInvocations * PER_ITEM;
const uint kTilesPerRow = 4096;

// One slot per invocation for the tree; one per subgroup would do for SUBGROUP, but the subgroup
// size is not known when the shader is compiled, and a subgroup has at least one invocation.
shared float partial[kInvocations];

void main() {
  const uint tile = gl_WorkGroupID.y * kTilesPerRow + gl_WorkGroupID.x;
  if (tile >= (n + kTile - 1) / kTile) return;
  const uint lane = gl_LocalInvocationID.x;
  const uint first = tile * kTile + lane;
  float sum = 0.0;
  for (uint k = 0; k < PER_ITEM; ++k) {
    const uint i = first + k * kInvocations;
    if (i < n) sum += values[i];
  }
#ifdef SUBGROUP
  sum = subgroupAdd(sum);
  if (subgroupElect()) partial[gl_SubgroupID] = sum;
  // Every subgroup's sum is stored before the first subgroup reads them.
  barrier();
  if (gl_SubgroupID == 0) {
    // Mesa 22's lavapipe leaves a partial last subgroup out of gl_NumSubgroups (12 invocations in
    // subgroups of 8: 1, not 2). No subgroup holds more than gl_SubgroupSize invocations, so the
    // ceiling never exceeds the true count: the larger of the two is right there and elsewhere.
    const uint at_least = (kInvocations + gl_SubgroupSize - 1) / gl_SubgroupSize;
    const uint subgroups = max(gl_NumSubgroups, at_least);
    // Subgroups may be fewer lanes wide than there are subgroups (8 lanes, 128 subgroups of a
    // 1024-wide group): each lane first adds every gl_SubgroupSize-th sum.
    float total = 0.0;
    for (uint s = gl_SubgroupInvocationID; s < subgroups; s += gl_SubgroupSize) total += partial[s];
    total = subgroupAdd(total);
    if (subgroupElect()) sums[tile] = total;
  }
#else
  partial[lane] = sum;
  // Every invocation's sum is stored before the first step reads it, and each step's sums before
  // the next step's. live is the same in every invocation, so every barrier is reached by all.
  barrier();
  for (uint live = kInvocations; live > 1;) {
    const uint upper = (live + 1) / 2;  // slots [upper, live) move onto [0, live - upper)
    if (lane < live - upper) partial[lane] += partial[lane + upper];
    barrier();
    live = upper;
  }
  if (lane == 0) sums[tile] = partial[0];
#endif
}
