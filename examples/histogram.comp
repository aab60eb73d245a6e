#version 450
// A 256-bin histogram of n uints (the bin is the value's low byte), by atomic adds into a
// histogram the manifest starts from zero (`init = "zero"` on an output): the kernel adds to what
// is there, so a poisoned output would stay NaN-like garbage and the check would say so.
//
// Macros: PRIVATE (0 or 1):
//   0  every invocation adds 1 to the global bin of its value: 256 hot counters for the whole
//      device, contended by every workgroup;
//   1  each workgroup counts into its own 256 bins in shared memory, then adds its non-zero bins
//      to the global histogram: at most 256 global atomics a workgroup.
// Specialization constants: 0 the workgroup's width (height 1). Each invocation takes items
// ITEMS apart (a grid-stride loop), so any n fits a dispatch of at most 65535 workgroups.
// Bindings: 0 values uint[n], 1 bins uint[256]. Push constants: n.
#ifndef PRIVATE
#error "PRIVATE must be defined (0 or 1)"
#endif

layout(local_size_x_id = 0) in;

layout(std430, set = 0, binding = 0) readonly buffer Values { uint values[]; };
layout(std430, set = 0, binding = 1) buffer Bins { uint bins[]; };
layout(push_constant) uniform Parameters { uint n; };

#if PRIVATE
shared uint local_bins[256];
#endif

void main() {
  const uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
#if PRIVATE
  for (uint b = gl_LocalInvocationID.x; b < 256; b += gl_WorkGroupSize.x) local_bins[b] = 0;
  barrier();
  for (uint i = gl_GlobalInvocationID.x; i < n; i += stride) atomicAdd(local_bins[values[i] & 255u], 1u);
  barrier();
  for (uint b = gl_LocalInvocationID.x; b < 256; b += gl_WorkGroupSize.x) {
    if (local_bins[b] != 0) atomicAdd(bins[b], local_bins[b]);
  }
#else
  for (uint i = gl_GlobalInvocationID.x; i < n; i += stride) atomicAdd(bins[values[i] & 255u], 1u);
#endif
}
