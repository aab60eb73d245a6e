#version 450
// copy.comp with its input in descriptor set 1: a manifest whose buffers leave out `set` puts
// them all in set 0.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(std430, set = 1, binding = 0) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { float result[]; };
layout(push_constant) uniform Parameters { uint n; };

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i < n) result[i] = 2.0 * x[i];
}
