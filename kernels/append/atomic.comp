#version 450
// Stream compaction through an append counter, the talk's append buffer: every element of src
// above `threshold` is copied to dst[slot], its slot taken from counter[0] (which must start at
// zero), so the kept values end up packed in dst[0, counter[0]) in no particular order.
//   BALLOT 0, atomic_per_element: one atomicAdd(counter[0], 1) per kept element;
//   BALLOT 1, ballot: the talk's "aggregate the atomics": a subgroup counts its kept elements with
//     subgroupBallot, one elected lane reserves them all with one atomicAdd, and each keeping lane
//     writes at that base plus the number of keeping lanes below it. A subgroup with nothing to
//     keep makes no atomic.
// Each group covers `tiles_per_group` consecutive tiles of local-size elements (so that at most
// 65535 groups cover any domain), the whole group stepping through them together: every lane is
// active at the ballot, the ones past the end keeping nothing.
//
// Macros: BALLOT (0 or 1; 1 needs subgroup ballot operations).
// Specialization constants: 0 local size x.
// Bindings: 0 input float[], 1 output float[] (room for every element), 2 counter uint[1].
// Push constants: count, threshold, tiles_per_group, groups (unused here: scan.comp's layout).
#if BALLOT
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#endif
layout(local_size_x_id = 0) in;

layout(std430, binding = 0) readonly buffer Input { float src[]; };
layout(std430, binding = 1) writeonly buffer Output { float dst[]; };
layout(std430, binding = 2) buffer Counter { uint counter[]; };
layout(push_constant) uniform Parameters {
  uint count;
  float threshold;
  uint tiles_per_group;
  uint groups;
};

void main() {
  const uint first_tile = gl_WorkGroupID.x * tiles_per_group;
  for (uint t = 0; t < tiles_per_group; ++t) {
    const uint tile_start = (first_tile + t) * gl_WorkGroupSize.x;
    if (tile_start >= count) break;  // the same for the whole group: the last group's spare tiles
    const uint i = tile_start + gl_LocalInvocationID.x;
    const float value = i < count ? src[i] : 0.0;
    const bool keep = i < count && value > threshold;
#if BALLOT
    const uvec4 kept = subgroupBallot(keep);
    const uint n = subgroupBallotBitCount(kept);
    uint base = 0;
    // subgroupElect picks the lowest active lane, the one subgroupBroadcastFirst reads.
    if (n > 0 && subgroupElect()) base = atomicAdd(counter[0], n);
    base = subgroupBroadcastFirst(base);
    if (keep) dst[base + subgroupBallotExclusiveBitCount(kept)] = value;
#else
    if (keep) dst[atomicAdd(counter[0], 1)] = value;
#endif
  }
}
