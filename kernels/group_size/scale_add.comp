#version 450
// Scale-and-add, out[i] = a * in[i] + b over `count` floats: a memory-bound kernel whose speed
// depends on how the dispatch feeds the machine (threads per group), not on its arithmetic.
// A grid-stride loop, so any count fits a dispatch of at most 65535 workgroups (lavapipe's
// maxComputeWorkGroupCount); below 256 threads per group an invocation visits several elements.
//
// Macros: none.
// Specialization constants: 0 local size x (1 to 1024).
// Bindings: 0 input float[], 1 output float[].
// Push constants: count, a, b.
layout(local_size_x_id = 0) in;

layout(std430, binding = 0) readonly buffer Input { float src[]; };
layout(std430, binding = 1) writeonly buffer Output { float dst[]; };
layout(push_constant) uniform Parameters {
  uint count;
  float a;
  float b;
};

void main() {
  const uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  for (uint i = gl_GlobalInvocationID.x; i < count; i += stride) dst[i] = a * src[i] + b;
}
