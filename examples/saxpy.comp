#version 450
// saxpy: out = a * x + y over n floats, by a grid-stride loop, so that any n fits a dispatch of
// at most 65535 workgroups.
//
// The arrays are declared vec4 in every variant: a manifest gives each binding one element type
// for all its variants, and only a vec4 array lets the compiler emit one aligned 16-byte access
// (a float array with four consecutive loads per invocation usually stays four 4-byte loads). The
// price is that the arrays hold whole vec4s: n rounds up to a multiple of 4, and both variants
// compute the padding floats like the others (their inputs are initialized too), so a check of
// the whole output also covers them.
//
// Macros: PER_ITEM, the floats an invocation handles per loop step:
//   1  one float, x[i / 4][i % 4]: a scalar access (the component index is dynamic, so only
//      that float is read or written);
//   4  one vec4: x[q], a 16-byte access.
// Specialization constants: 0, 1 the workgroup's width and height (height 1 here).
// Bindings: 0 x vec4[], 1 y vec4[], 2 out vec4[]; each holds `vectors` vec4s.
// Push constants: vectors (ceil(n / 4)), a.
#ifndef PER_ITEM
#error "PER_ITEM must be defined (1 or 4)"
#endif
#if PER_ITEM != 1 && PER_ITEM != 4
#error "PER_ITEM must be 1 or 4"
#endif

layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(std430, set = 0, binding = 0) readonly buffer X { vec4 x[]; };
layout(std430, set = 0, binding = 1) readonly buffer Y { vec4 y[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Out { vec4 result[]; };
layout(push_constant) uniform Parameters {
  uint vectors;
  float a;
};

void main() {
  const uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
#if PER_ITEM == 4
  for (uint q = gl_GlobalInvocationID.x; q < vectors; q += stride) result[q] = a * x[q] + y[q];
#else
  // Consecutive invocations take consecutive floats, so a subgroup's accesses stay contiguous.
  const uint floats = 4 * vectors;
  for (uint i = gl_GlobalInvocationID.x; i < floats; i += stride) {
    const uint q = i / 4, c = i % 4;
    result[q][c] = a * x[q][c] + y[q][c];
  }
#endif
}
