#version 450
// The plain copy kernel of the roofline: dst[i] = src[i] over vec4 elements [first, count) of the
// bound window, a grid-stride loop so that any count fits a dispatch of at most 65535 workgroups.
// Copies larger than the device's maxStorageBufferRange are split into windows, one dispatch each.
//
// Macros: none.
// Specialization constants: 0 local size x.
// Bindings: 0 source vec4[], 1 destination vec4[].
// Push constants: count, first (vec4 elements of the window).
layout(local_size_x_id = 0) in;

layout(std430, binding = 0) readonly buffer Source { vec4 src[]; };
layout(std430, binding = 1) writeonly buffer Destination { vec4 dst[]; };
layout(push_constant) uniform Parameters {
  uint count;
  uint first;
};

void main() {
  const uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint i = first + gl_GlobalInvocationID.x; i < count; i += stride) dst[i] = src[i];
}
