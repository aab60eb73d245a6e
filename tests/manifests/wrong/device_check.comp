#version 450
// out = 2 x + 1 over n floats, with planted errors of four kinds for the tests of checks computed
// on the device (tests/bench/manifest_cli_test.sh), chosen by MODE:
//   0 right;
//   1 the float at index 777 1e-3 too large (fails there);
//   2 every 1000th float off by 6e-6 of its value: past half the tolerance of 1e-5, so the device
//     lists them, and within it, so the host passes them;
//   3 every float 1 too large: more than the device lists, so the host checks them all.
// Macros: MODE. Specialization constants: 0, 1 the workgroup's width and height.
// Bindings: 0 x float[], 1 out float[]. Push constants: n.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(std430, set = 0, binding = 0) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { float result[]; };
layout(push_constant) uniform Parameters {
  uint n;
};

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  float value = 2.0 * x[i] + 1.0;
#if MODE == 1
  if (i == 777) value += 1e-3;
#elif MODE == 2
  if (i % 1000 == 0) value *= 1.0 + 6e-6;
#elif MODE == 3
  value += 1.0;
#endif
  result[i] = value;
}
