#version 450
// Two inputs as an array of two storage-buffer descriptors at binding 0; out at binding 1.
layout(local_size_x_id = 0) in;
layout(std430, binding = 0) readonly buffer Part { float v[]; } parts[2];
layout(std430, binding = 1) writeonly buffer Out { float result[]; };
layout(push_constant) uniform Parameters { uint n; };
void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i < n) result[i] = parts[0].v[i] + parts[1].v[i];
}
