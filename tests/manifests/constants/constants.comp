#version 450
// Writes its specialization constants into its output, so that a test sees the values the
// pipeline ran with (tests/bench/manifest_cli_test.sh): out[i] = x[i] * SCALE + OFFSET, plus 1000
// where FLAG is true. The local size is a literal 32; constant 0 is OFFSET, not a workgroup size,
// and must keep its default (7) unless the manifest sets it.
// Specialization constants: 0 OFFSET (uint, 7), 1 SCALE (float, 1.0), 2 FLAG (bool, false),
// 3 SHIFT (int, -2): added to OFFSET.
// Bindings: 0 x float[n], 1 out float[n]. Push constants: n.
layout(local_size_x = 32) in;
layout(constant_id = 0) const uint OFFSET = 7;
layout(constant_id = 1) const float SCALE = 1.0;
layout(constant_id = 2) const bool FLAG = false;
layout(constant_id = 3) const int SHIFT = -2;

layout(std430, set = 0, binding = 0) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { float result[]; };
layout(push_constant) uniform Parameters { uint n; };

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i < n) result[i] = x[i] * SCALE + float(int(OFFSET) + SHIFT) + (FLAG ? 1000.0 : 0.0);
}
