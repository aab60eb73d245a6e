#version 450
// out[i] = 2 * x[i] for every i below out.length(): a kernel that takes its size from the array's
// length (tests/bench/manifest_cli_test.sh). Its guard must stay after the bound range
// (--guard=auto), or .length() would count the guard and the kernel would write into it.
// Specialization constants: 0 the workgroup's width. Bindings: 0 x float[], 1 out float[].
layout(local_size_x_id = 0) in;

layout(std430, set = 0, binding = 0) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { float result[]; };

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i < result.length()) result[i] = 2.0 * x[i];
}
