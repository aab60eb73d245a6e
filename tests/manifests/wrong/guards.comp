#version 450
// saxpy (out = a * x + y over n floats) with planted writes outside what the manifest allows, for
// the check's guard regions (tests/bench/manifest_cli_test.sh).
// Macros: OVERRUN_BY (optional): the last invocation also writes out[n - 1 + OVERRUN_BY], past
// the end of out; WRITE_INPUT_AT (optional): that invocation also writes 0 into x, an input.
// Specialization constants: 0, 1 the workgroup's width and height.
// Bindings: 0 x float[], 1 y float[], 2 out float[]. Push constants: n, a.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(std430, set = 0, binding = 0) buffer X { float x[]; };
layout(std430, set = 0, binding = 1) readonly buffer Y { float y[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Out { float result[]; };
layout(push_constant) uniform Parameters {
  uint n;
  float a;
};

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  result[i] = a * x[i] + y[i];
#ifdef OVERRUN_BY
  if (i == n - 1) result[i + OVERRUN_BY] = 1.0;
#endif
#ifdef WRITE_INPUT_AT
  if (i == WRITE_INPUT_AT) x[i] = 0.0;
#endif
}
