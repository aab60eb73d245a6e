#version 450
// out[i] += x[i]: a kernel that adds into its output, declared without an init on purpose
// (tests/bench/manifest_cli_test.sh): it adds to the poison, and the check must say that an
// output the kernel accumulates into needs `init`.
// Specialization constants: 0, 1 the workgroup's width and height.
// Bindings: 0 x float[], 1 out float[]. Push constants: n.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(std430, set = 0, binding = 0) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 1) buffer Out { float result[]; };
layout(push_constant) uniform Parameters { uint n; };

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i < n) result[i] += x[i];
}
