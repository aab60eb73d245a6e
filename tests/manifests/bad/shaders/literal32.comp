#version 450
// copy.comp with a literal local size of 32: the manifest cannot list another workgroup.
layout(local_size_x = 32) in;

layout(std430, set = 0, binding = 0) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { float result[]; };
layout(push_constant) uniform Parameters { uint n; };

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i < n) result[i] = 2.0 * x[i];
}
