#version 450
// Scale, out[i] = a * in[i], over `count` floats read and written as ELEMENT (float, vec2 or
// vec4) per invocation and loop step: the talk's "grouped reads/writes (e.g. float4 instead of
// float)", which it expects to help vector hardware and not scalar hardware. A grid-stride loop,
// so any count fits a dispatch of at most 65535 workgroups.
//
// Macros: ELEMENT (float, vec2, vec4), WIDTH (its floats: 1, 2, 4).
// Specialization constants: 0 local size x.
// Bindings: 0 input ELEMENT[], 1 output ELEMENT[].
// Push constants: count (floats, a multiple of WIDTH), a.
layout(local_size_x_id = 0) in;

layout(std430, binding = 0) readonly buffer Input { ELEMENT src[]; };
layout(std430, binding = 1) writeonly buffer Output { ELEMENT dst[]; };
layout(push_constant) uniform Parameters {
  uint count;
  float a;
};

void main() {
  const uint elements = count / WIDTH;
  const uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint i = gl_GlobalInvocationID.x; i < elements; i += stride) dst[i] = a * src[i];
}
