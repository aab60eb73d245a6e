#version 450
// Parallel reduction of an RGBA float image to per-tile average luminance through a tree in
// shared memory: the kernels of "Compute Shader Optimizations for AMD GPUs: Parallel Reduction"
// (2014) and its 2015 follow-up, made correct by the Vulkan memory model.
//
// Macros (besides FETCH_X, FETCH_Y of common.glsl):
//   INTERLEAVED  stride-doubling tree (partial[2*s*i] += partial[2*s*i + s]); otherwise the
//                sequential tree (partial[i] += partial[i + s]), which keeps active invocations
//                and shared-memory addresses contiguous.
//   UNROLLED     loops unrolled at pipeline creation, and no workgroup barrier once the live
//                values fit in one subgroup. The studies dropped barriers there altogether
//                ("warp-synchronous"), which Vulkan leaves undefined; here subgroup 0 finishes
//                with subgroup-scoped barriers, the spec-correct form of the same saving.
//   SHARED_2X    each invocation stores two partial sums (first and second half of its fetches),
//                so the first tree step runs on all invocations.
// Specialization constants: see common.glsl (x * y a power of two); 5 the device's subgroup size.
// Bindings and push constants: see common.glsl.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_shader_subgroup_basic : require

#include "reduction/common.glsl"

layout(constant_id = 5) const uint kSubgroupSize = 32;

#ifdef SHARED_2X
const uint kSlots = 2 * kThreads;
#else
const uint kSlots = kThreads;
#endif
shared float partial[kSlots];

void main() {
  const uint i = gl_LocalInvocationIndex;
#ifdef SHARED_2X
  partial[2 * i] = FetchSum(0, kFetches / 2);
  partial[2 * i + 1] = FetchSum(kFetches / 2, kFetches);
#else
  partial[i] = FetchSum(0, kFetches);
#endif
  // Every store above must land before any invocation reads a neighbour's slot. (barrier() in a
  // Vulkan compute shader orders workgroup memory too: acquire-release on shared memory.)
  barrier();

#if defined(INTERLEAVED)
  for (uint s = 1; s < kSlots; s *= 2) {
    uint index = 2 * s * i;
    if (index < kSlots) partial[index] += partial[index + s];
    barrier();
  }
  if (i == 0) WriteTile(partial[0]);
#elif defined(UNROLLED)
  const uint kTail = kSlots < kSubgroupSize ? kSlots : kSubgroupSize;
  [[unroll]] for (uint s = kSlots / 2; s >= kTail; s >>= 1) {
    if (i < s) partial[i] += partial[i + s];
    barrier();
  }
  // gl_SubgroupSize is uniform, so both branches are in uniform control flow.
  if (gl_SubgroupSize >= kTail) {
    if (gl_SubgroupID == 0) {
      const uint lane = gl_SubgroupInvocationID;
      [[unroll]] for (uint s = kTail / 2; s > 0; s >>= 1) {
        if (lane < s) partial[lane] += partial[lane + s];
        // Lanes of one subgroup are not guaranteed to run in lockstep: order the shared-memory
        // accesses within the subgroup before the next step reads them.
        subgroupMemoryBarrierShared();
        subgroupBarrier();
      }
      if (lane == 0) WriteTile(partial[0]);
    }
  } else {
    // The driver runs this pipeline with subgroups smaller than it reported: stay on workgroup barriers.
    [[unroll]] for (uint s = kTail / 2; s > 0; s >>= 1) {
      if (i < s) partial[i] += partial[i + s];
      barrier();
    }
    if (i == 0) WriteTile(partial[0]);
  }
#else
  for (uint s = kSlots / 2; s > 0; s >>= 1) {
    if (i < s) partial[i] += partial[i + s];
    barrier();
  }
  if (i == 0) WriteTile(partial[0]);
#endif
}
