#version 450
// The read ceiling: every vec4 element [first, count) of the bound window is read once, a block
// of 8 x the workgroup's size per workgroup and trip, and folded with XOR (exact and order-free, so the check can
// compare bit for bit and no compiler can drop a load). Each workgroup folds its invocations in
// shared memory and one invocation XORs the result into the workgroup's own word, so a dispatch
// writes 4 bytes per workgroup, nothing next to what it reads. Copies larger than the device's
// maxStorageBufferRange are read in windows, one dispatch each, into the same words.
//
// Macros: none.
// Specialization constants: 0 local size x.
// Bindings: 0 source uvec4[], 1 one uint per workgroup.
// Push constants: count, first (vec4 elements of the window).
layout(local_size_x_id = 0) in;

layout(std430, binding = 0) readonly buffer Source { uvec4 src[]; };
layout(std430, binding = 1) buffer Folded { uint folded[]; };
layout(push_constant) uniform Parameters {
  uint count;
  uint first;
};

shared uint partial[gl_WorkGroupSize.x];

void main() {
  // Each workgroup reads whole blocks of kLoads x its size elements, kLoads loads issued before any
  // is used: a read has no store to overlap with, so only loads in flight hide memory latency
  // (a grid-stride loop of one load per trip reached 97% of the copy roofline on an H100, while a
  // reduction reading four pixels per invocation reached 103%).
  const uint kLoads = 8;
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
  if (lane == 0) folded[gl_WorkGroupID.x] ^= partial[0];
}
