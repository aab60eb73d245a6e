#version 450
// The read ceiling: every vec4 element [first, count) of the bound window is read once, a block
// of LOADS x the workgroup's size per workgroup and trip, and folded with XOR (exact and
// order-free, so the check can compare bit for bit and no compiler can drop a load). Each
// workgroup folds its invocations in shared memory and one invocation stores the result in the
// workgroup's own word, so a dispatch writes 4 bytes per workgroup, nothing next to what it
// reads. Copies larger than the device's maxStorageBufferRange are read in windows, one dispatch
// each, the later ones XORing into the same words (`accumulate`). The first window only stores:
// reading the word back first costs each workgroup one more round trip to memory at its end,
// which shows in a small read's time: a reduction of a small image then beats this read of it
// (docs/perf-notes.md, section 13).
//
// Macros: LOADS  elements each invocation loads a trip before it uses any (8 unless defined: the
//                roofline's; a read of a small image does better with fewer, so more invocations).
// Specialization constants: 0 local size x.
// Bindings: 0 source uvec4[], 1 one uint per workgroup.
// Push constants: count, first (vec4 elements of the window); accumulate (0: store the folded
//   word, else XOR it into the stored one).
layout(local_size_x_id = 0) in;

layout(std430, binding = 0) readonly buffer Source { uvec4 src[]; };
layout(std430, binding = 1) buffer Folded { uint folded[]; };
layout(push_constant) uniform Parameters {
  uint count;
  uint first;
  uint accumulate;
};

#ifndef LOADS
#define LOADS 8
#endif

shared uint partial[gl_WorkGroupSize.x];

void main() {
  // Each workgroup reads whole blocks of kLoads x its size elements, kLoads loads issued before any
  // is used: a read has no store to overlap with, so only loads in flight hide memory latency
  // (a grid-stride loop of one load per trip stays below the copy roofline, where a reduction
  // reading four pixels per invocation reaches it: docs/perf-notes.md, "A read ceiling for kernels
  // that only read").
  const uint kLoads = LOADS;
  const uint lane = gl_LocalInvocationID.x;
  const uint block = gl_WorkGroupSize.x * kLoads;
  uvec4 acc = uvec4(0);
  for (uint b = gl_WorkGroupID.x; first + b * block < count; b += gl_NumWorkGroups.x) {
    const uint start = first + b * block + lane;
    if (first + (b + 1) * block <= count) {
      uvec4 v[kLoads];
      for (uint k = 0; k < kLoads; ++k) v[k] = src[start + k * gl_WorkGroupSize.x];
      for (uint k = 0; k < kLoads; ++k) acc ^= v[k];
    } else {
      for (uint k = 0; k < kLoads; ++k) {
        const uint i = start + k * gl_WorkGroupSize.x;
        if (i < count) acc ^= src[i];
      }
    }
  }
  partial[lane] = acc.x ^ acc.y ^ acc.z ^ acc.w;
  barrier();
  // gl_WorkGroupSize.x is a power of two for every workgroup the roofline uses.
  for (uint s = gl_WorkGroupSize.x / 2; s > 0; s >>= 1) {
    if (lane < s) partial[lane] ^= partial[lane + s];
    barrier();
  }
  if (lane == 0) folded[gl_WorkGroupID.x] = accumulate != 0 ? folded[gl_WorkGroupID.x] ^ partial[0] : partial[0];
}
