#version 450
// The read ceiling: every vec4 element [first, count) of the bound window is read once, in the
// copy kernel's grid-stride order, and folded with XOR (exact and order-free, so the check can
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
  const uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  uvec4 acc = uvec4(0);
  // Four loads issued before any is used: a read has no store to overlap with, so only loads in
  // flight hide memory latency (one load per trip reached 97% of the copy roofline on an H100).
  uint i = first + gl_GlobalInvocationID.x;
  for (; i + 3 * stride < count; i += 4 * stride) {
    const uvec4 a = src[i];
    const uvec4 b = src[i + stride];
    const uvec4 c = src[i + 2 * stride];
    const uvec4 d = src[i + 3 * stride];
    acc ^= (a ^ b) ^ (c ^ d);
  }
  for (; i < count; i += stride) acc ^= src[i];
  const uint lane = gl_LocalInvocationID.x;
  partial[lane] = acc.x ^ acc.y ^ acc.z ^ acc.w;
  barrier();
  // gl_WorkGroupSize.x is a power of two for every workgroup the roofline uses.
  for (uint s = gl_WorkGroupSize.x / 2; s > 0; s >>= 1) {
    if (lane < s) partial[lane] ^= partial[lane + s];
    barrier();
  }
  if (lane == 0) folded[gl_WorkGroupID.x] ^= partial[0];
}
