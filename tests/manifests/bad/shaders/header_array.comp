#version 450
// out = 2 * x over n floats, its output block with a header before the array (a count the kernel
// writes): `buffer Y { uint count; float y[]; }`, which the bad header_*.toml manifests declare wrongly.
// Specialization constants: 0, 1 the workgroup's width and height.
// Bindings: 0 x float[] (read), 1 { uint count; float result[]; } (written). Push constants: n.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(std430, set = 0, binding = 0) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint count; float result[]; };
layout(push_constant) uniform Parameters { uint n; };

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i == 0) count = n;
  if (i < n) result[i] = 2.0 * x[i];
}
