#version 450
// An update in place: x[i] = a * x[i] + b over n floats, the buffer both read and written.
// Specialization constants: 0, 1 the workgroup's width and height (height 1 here).
// Bindings: 0 x float[n]. Push constants: n, a, b.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(std430, set = 0, binding = 0) buffer X { float x[]; };
layout(push_constant) uniform Parameters {
  uint n;
  float a;
  float b;
};

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i < n) x[i] = a * x[i] + b;
}
