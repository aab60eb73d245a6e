#version 450
// Radix sort, step 1 of a digit: workgroup g counts the digits (key >> shift) & 255 of its block,
// the 4096 elements g * 4096 up to the next block (the last block cut short at n), and writes the
// 256 counts to counts[digit * blocks + g]: digit-major, so that one exclusive scan over the
// buffer gives every (digit, block) its first place in the output (radix_scan.comp).
// The counts are gathered in shared memory by atomic adds (their order does not matter for a
// count), zeroed by the shader itself, and every slot of counts is written: nothing needs
// clearing between passes.
//
// Specialization constants: 0 the workgroup's width (a divisor of 4096), 1 its height (1).
// Bindings: 0 keys uvec2[n] (x the key, y its payload; read here, traded with 1 after each
//   scatter, so declared neither readonly nor writeonly), 2 counts uint[256 * blocks].
// Push constants: n, shift.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(std430, set = 0, binding = 0) buffer Keys { uvec2 keys[]; };
layout(std430, set = 0, binding = 2) buffer Counts { uint counts[]; };
layout(push_constant) uniform Parameters {
  uint n;
  uint shift;
};

// The manifest's counts and groups are written with this block.
const uint kBlock = 4096;
const uint kInvocations = gl_WorkGroupSize.x;
const uint kRounds = kBlock / kInvocations;

shared uint histogram[256];

void main() {
  const uint lane = gl_LocalInvocationID.x;
  const uint block = gl_WorkGroupID.x;
  const uint blocks = (n + kBlock - 1) / kBlock;
  for (uint d = lane; d < 256; d += kInvocations) histogram[d] = 0;
  barrier();
  // Consecutive invocations read consecutive elements on every round.
  for (uint r = 0; r < kRounds; ++r) {
    const uint i = block * kBlock + r * kInvocations + lane;
    if (i < n) atomicAdd(histogram[(keys[i].x >> shift) & 255u], 1u);
  }
  barrier();
  for (uint d = lane; d < 256; d += kInvocations) counts[d * blocks + block] = histogram[d];
}
