#version 450
// Pass 2 of image_sum: one workgroup adds the n tile sums of pass 1 into total.
//
// Macros:
//   SERIAL  the first invocation adds the tiles in order, alone (the reference).
//           Otherwise each of the group's X * Y invocations adds every (X * Y)-th tile, and the
//           group adds those sums by a tree in shared memory.
// Specialization constants: 0, 1 the workgroup's width and height: the family's workgroups, used
//   here as X * Y invocations in a row.
// Bindings: 1 tiles float[n] (written by pass 1, so neither readonly nor writeonly), 2 total, one
//   float.
// Push constants: n, the number of tiles.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(std430, set = 0, binding = 1) buffer Tiles { float tiles[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Total { float total; };
layout(push_constant) uniform Parameters {
  uint n;
};

const uint kInvocations = gl_WorkGroupSize.x * gl_WorkGroupSize.y;

#ifndef SERIAL
shared float partial[kInvocations];
#endif

void main() {
  const uint lane = gl_LocalInvocationIndex;
#ifdef SERIAL
  if (lane != 0) return;
  float sum = 0.0;
  for (uint t = 0; t < n; ++t) sum += tiles[t];
  total = sum;
#else
  float sum = 0.0;
  for (uint t = lane; t < n; t += kInvocations) sum += tiles[t];
  partial[lane] = sum;
  barrier();
  for (uint live = kInvocations; live > 1;) {
    const uint upper = (live + 1) / 2;
    if (lane < live - upper) partial[lane] += partial[lane + upper];
    barrier();
    live = upper;
  }
  if (lane == 0) total = partial[0];
#endif
}
