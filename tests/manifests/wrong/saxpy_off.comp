#version 450
// saxpy (out = a * x + y over n floats) with a planted error for the manifest tests: with
// WRONG_AT defined, the float at that index gets 1e-3 more, so its check must fail there.
// Macros: WRONG_AT (optional), the index made wrong.
// Specialization constants: 0, 1 the workgroup's width and height.
// Bindings: 0 x float[], 1 y float[], 2 out float[]. Push constants: n, a.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(std430, set = 0, binding = 0) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 1) readonly buffer Y { float y[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Out { float result[]; };
layout(push_constant) uniform Parameters {
  uint n;
  float a;
};

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  float value = a * x[i] + y[i];
#ifdef WRONG_AT
  if (i == WRONG_AT) value += 1e-3;
#endif
  result[i] = value;
}
