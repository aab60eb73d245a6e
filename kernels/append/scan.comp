#version 450
// Stream compaction with no atomics, by a prefix sum of keep flags, in three passes; the talk's
// alternative to append buffers, and unlike them it keeps the input order. Group g covers
// `tiles_per_group` consecutive tiles of local-size elements, the same tiles in passes 1 and 3.
//   PASS 1: counts[g] = the number of kept elements in group g's tiles;
//   PASS 2 (one group): counts[] becomes its exclusive prefix sum, looping over it one tile at a
//     time, and counter[0] the total kept;
//   PASS 3: group g scans its tiles' keep flags in shared memory, one tile at a time, and writes
//     each kept element to dst[counts[g] + the kept elements before it in the group's tiles].
//
// Macros: PASS (1, 2 or 3).
// Specialization constants: 0 local size x (a power of two).
// Bindings (every pass binds all four): 0 input float[], 1 output float[] (room for every
// element), 2 counter uint[1], 3 counts uint[groups].
// Push constants: count, threshold, tiles_per_group, groups (of passes 1 and 3).
layout(local_size_x_id = 0) in;

layout(std430, binding = 0) readonly buffer Input { float src[]; };
layout(std430, binding = 1) writeonly buffer Output { float dst[]; };
layout(std430, binding = 2) writeonly buffer Counter { uint counter[]; };
layout(std430, binding = 3) buffer Counts { uint counts[]; };
layout(push_constant) uniform Parameters {
  uint count;
  float threshold;
  uint tiles_per_group;
  uint groups;
};

shared uint partial[gl_WorkGroupSize.x];

// The inclusive prefix sum of `value` over the group's invocations (Hillis-Steele: log2(local
// size) steps), and in `total` the sum of them all. Call from uniform control flow.
uint GroupScan(uint value, out uint total) {
  const uint i = gl_LocalInvocationID.x;
  partial[i] = value;
  barrier();
  for (uint offset = 1; offset < gl_WorkGroupSize.x; offset *= 2) {
    const uint add = i >= offset ? partial[i - offset] : 0;
    barrier();  // every read of this step before any write of it
    partial[i] += add;
    barrier();  // every write of this step before the next step reads
  }
  const uint inclusive = partial[i];
  total = partial[gl_WorkGroupSize.x - 1];
  barrier();  // every read before the next call overwrites the array
  return inclusive;
}

#if PASS == 1 || PASS == 3
// This invocation's element of the tile starting at `tile_start`, and whether it is kept (not
// past the end, and above the threshold).
bool Keep(uint tile_start, out float value) {
  const uint i = tile_start + gl_LocalInvocationID.x;
  value = i < count ? src[i] : 0.0;
  return i < count && value > threshold;
}
#endif

void main() {
  uint total;
#if PASS == 1
  uint mine = 0;
  for (uint t = 0; t < tiles_per_group; ++t) {
    const uint tile_start = (gl_WorkGroupID.x * tiles_per_group + t) * gl_WorkGroupSize.x;
    if (tile_start >= count) break;  // the same for the whole group: the last group's spare tiles
    float value;
    if (Keep(tile_start, value)) ++mine;
  }
  GroupScan(mine, total);
  if (gl_LocalInvocationID.x == 0) counts[gl_WorkGroupID.x] = total;
#elif PASS == 2
  uint carry = 0;  // the kept elements of the groups before this tile of counts
  for (uint first = 0; first < groups; first += gl_WorkGroupSize.x) {
    const uint k = first + gl_LocalInvocationID.x;
    const uint n = k < groups ? counts[k] : 0;
    const uint inclusive = GroupScan(n, total);
    if (k < groups) counts[k] = carry + inclusive - n;
    carry += total;
  }
  if (gl_LocalInvocationID.x == 0) counter[0] = carry;
#elif PASS == 3
  uint next = counts[gl_WorkGroupID.x];  // where this group's next kept element goes
  for (uint t = 0; t < tiles_per_group; ++t) {
    const uint tile_start = (gl_WorkGroupID.x * tiles_per_group + t) * gl_WorkGroupSize.x;
    if (tile_start >= count) break;
    float value;
    const bool keep = Keep(tile_start, value);
    const uint inclusive = GroupScan(keep ? 1 : 0, total);
    if (keep) dst[next + inclusive - 1] = value;
    next += total;
  }
#endif
}
