#version 450
// out[i] = float(k[i]) + y[i] over n elements (tests/bench/manifest_cli_test.sh): the inputs come
// from init expressions, and the check recomputes k's.
// Specialization constants: 0 the workgroup's width. Bindings: 0 k uint[n], 1 y float[n], 2 out float[n].
// Push constants: n.
layout(local_size_x_id = 0) in;

layout(std430, set = 0, binding = 0) readonly buffer K { uint k[]; };
layout(std430, set = 0, binding = 1) readonly buffer Y { float y[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Out { float result[]; };
layout(push_constant) uniform Parameters { uint n; };

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i < n) result[i] = float(k[i]) + y[i];
}
