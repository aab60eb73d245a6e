#version 450
// Parallel reduction of an RGBA float image to per-tile average luminance with subgroup
// arithmetic, which the 2014 hardware of the studies could not expose: each subgroup sums its
// invocations' fetches with subgroupAdd, and shared memory holds one value per subgroup.
//
// Macros: FETCH_X, FETCH_Y, TILES_PER_GROUP (common.glsl).
// Specialization constants: see common.glsl (x * y a power of two).
// Bindings and push constants: see common.glsl.
// Needs subgroup basic and arithmetic operations in compute shaders.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

#include "reduction/common.glsl"

// One slot per subgroup; subgroups are at least 1 invocation wide, so kThreads slots suffice.
shared float partial[kThreads];

void ReduceTile() {
  float sum = subgroupAdd(FetchSum(0, kFetches));
  if (subgroupElect()) partial[gl_SubgroupID] = sum;
  barrier();
  // Fold the per-subgroup sums until one is left. One round suffices where the subgroups are
  // at most as many as a subgroup's lanes (32 subgroups of 32 on 1024 threads); narrow-subgroup
  // devices (8 lanes: 128 subgroups) need more. `live` and gl_SubgroupSize are uniform.
  uint live = gl_NumSubgroups;
  while (live > 1) {
    uint k = gl_SubgroupID * gl_SubgroupSize + gl_SubgroupInvocationID;
    float value = k < live ? partial[k] : 0.0;
    barrier();  // every read above before any write below
    value = subgroupAdd(value);
    if (subgroupElect() && gl_SubgroupID * gl_SubgroupSize < live) partial[gl_SubgroupID] = value;
    barrier();
    live = (live + gl_SubgroupSize - 1) / gl_SubgroupSize;
  }
  if (gl_LocalInvocationIndex == 0) WriteTile(partial[0]);
}

void main() {
#ifdef TILES_PER_GROUP
  // tiles_x and the loop bound are uniform, so every invocation reaches the same barriers.
  for (uint k = 0; k < TILES_PER_GROUP; ++k) {
    tile_x = gl_WorkGroupID.x + k * gl_NumWorkGroups.x;
    if (tile_x >= tiles_x) break;
    // The previous tile's partial[0] was read (WriteTile) before this tile's subgroups write it.
    if (k > 0) barrier();
    ReduceTile();
  }
#else
  ReduceTile();
#endif
}
