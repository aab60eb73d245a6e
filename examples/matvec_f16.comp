#version 450
// y = A x, a matrix-vector product over half-precision storage (the layout of an inference
// engine's weights): A is H rows of W float16_t, x has W float16_t, y has H floats. Each product
// is accumulated in float.
//
// A workgroup of WG_X invocations computes ROWS rows, one after another: its invocations take a
// row's columns WG_X apart (consecutive invocations read consecutive halves), then add their
// partial sums by a tree in shared memory. More rows a workgroup means fewer workgroups, each
// with more work between its launch and its end.
//
// Specialization constants: 0 the workgroup's width (WG_X), 1 ROWS, the rows a workgroup computes
// (default 1). Bindings: 0 A float16_t[W * H], 1 x float16_t[W], 2 y float[H].
// Push constants: W (columns), H (rows).
#extension GL_EXT_shader_16bit_storage : require

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint ROWS = 1;

layout(std430, set = 0, binding = 0) readonly buffer Matrix { float16_t a[]; };
layout(std430, set = 0, binding = 1) readonly buffer Vector { float16_t x[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Result { float y[]; };
layout(push_constant) uniform Parameters {
  uint columns;
  uint rows;
};

shared float partial[gl_WorkGroupSize.x];

void main() {
  const uint lane = gl_LocalInvocationID.x;
  const uint first = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * ROWS;
  for (uint r = 0; r < ROWS; ++r) {
    const uint row = first + r;
    // Every invocation takes part in the barriers below, also past the last row.
    float sum = 0.0;
    if (row < rows) {
      const uint base = row * columns;
      for (uint c = lane; c < columns; c += gl_WorkGroupSize.x) sum += float(a[base + c]) * float(x[c]);
    }
    partial[lane] = sum;
    barrier();
    for (uint half_width = gl_WorkGroupSize.x / 2; half_width > 0; half_width /= 2) {
      if (lane < half_width) partial[lane] += partial[lane + half_width];
      barrier();
    }
    if (lane == 0 && row < rows) y[row] = partial[0];
    barrier();
  }
}
