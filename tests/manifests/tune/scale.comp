#version 450
// out = 3 * x, by FACTOR invocations' worth of elements an invocation. A test kernel of the
// tuner (tests/bench/tune_cli_test.sh): its axes are FACTOR (elements an invocation) and SKIP,
// which, when 1, leaves every other element unwritten: faster, and wrong, so it must fail its
// check and never win.
// Macros: FACTOR (1, 2, 4), SKIP (0 or 1). Specialization constant 0: the workgroup's width.
// Bindings: 0 x float[n], 1 out float[n]. Push constant: n.
layout(local_size_x_id = 0) in;
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) writeonly buffer Out { float result[]; };
layout(push_constant) uniform Push { uint n; };

void main() {
  const uint first = gl_GlobalInvocationID.x * FACTOR;
  for (uint k = 0; k < FACTOR; ++k) {
    const uint i = first + k;
    if (i >= n || (SKIP == 1 && (i & 1u) == 1u)) continue;
    result[i] = 3.0 * x[i];
  }
}
