#version 450
// copy.comp with its output declared readonly: a manifest that marks it output is refused.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(std430, set = 0, binding = 0) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 1) readonly buffer Out { float result[]; };
layout(push_constant) uniform Parameters { uint n; };

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i < n && result[i] != x[i]) return;
}
