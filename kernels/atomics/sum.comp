#version 450
// The sum of `count` 32-bit values of TYPE in one of four ways, from the talk's "atomic
// operations cost performance; many problems can be recast as more efficient parallel reduce".
// uint sums wrap modulo 2^32; float sums depend on the order of the additions except on inputs
// like the family's (kernels/atomics/reference.hpp). Every invocation first adds its elements of
// a grid-stride loop (one element each where the dispatch has an invocation per element), then:
//   MODE 0, per_element: one atomicAdd to dst[0] per element, in the loop itself;
//   MODE 1, per_group: a shared-memory tree, then one atomicAdd per group;
//   MODE 2, per_subgroup: subgroupAdd, then one atomicAdd per subgroup;
//   MODE 3, partials: a shared-memory tree, then dst[group] = the group's sum, no atomic (the
//     first pass of the two-pass reduction; the second is this mode with one group).
//
// Macros: MODE (0-3), TYPE (uint or float; float in modes 0-2 needs the device's
//   shaderBufferFloat32AtomicAdd of VK_EXT_shader_atomic_float).
// Specialization constants: 0 local size x (a power of two).
// Bindings: 0 input TYPE[], 1 output TYPE[] (modes 0-2: dst[0], which must start at zero).
// Push constants: count.
#extension GL_KHR_shader_subgroup_basic : enable
#extension GL_KHR_shader_subgroup_arithmetic : enable
// enable, not require: the capability lands in the SPIR-V only where a float atomicAdd is used.
#extension GL_EXT_shader_atomic_float : enable
layout(local_size_x_id = 0) in;

layout(std430, binding = 0) readonly buffer Input { TYPE src[]; };
layout(std430, binding = 1) buffer Output { TYPE dst[]; };
layout(push_constant) uniform Parameters {
  uint count;
};

#if MODE == 1 || MODE == 3
shared TYPE partial[gl_WorkGroupSize.x];

TYPE GroupSum(TYPE value) {
  const uint i = gl_LocalInvocationID.x;
  partial[i] = value;
  barrier();
  for (uint s = gl_WorkGroupSize.x / 2; s > 0; s /= 2) {
    if (i < s) partial[i] += partial[i + s];
    barrier();  // this level's sums before the next level reads them
  }
  return partial[0];
}
#endif

void main() {
  const uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  TYPE sum = TYPE(0);
  for (uint i = gl_GlobalInvocationID.x; i < count; i += stride) {
#if MODE == 0
    atomicAdd(dst[0], src[i]);
#else
    sum += src[i];
#endif
  }
#if MODE == 1
  sum = GroupSum(sum);
  if (gl_LocalInvocationID.x == 0) atomicAdd(dst[0], sum);
#elif MODE == 2
  sum = subgroupAdd(sum);
  if (subgroupElect()) atomicAdd(dst[0], sum);
#elif MODE == 3
  sum = GroupSum(sum);
  if (gl_LocalInvocationID.x == 0) dst[gl_WorkGroupID.x] = sum;
#endif
}
