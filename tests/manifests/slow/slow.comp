#version 450
// out = 2 * x over n floats, after a long chain of dependent integer steps per element, so that
// one dispatch lasts seconds on a CPU device: the case a short --dispatch-timeout must stop. The
// chain is finite: lavapipe ends a loop after 65535 iterations, counted over the loops nested in
// it too (two nested loops of 1792 ran no longer than one of 65535), so the length comes from 16
// steps written out in each of TRIPS iterations of one loop. Its result reaches the output, so no
// compiler drops it; it adds 0 unless the chain ends on 0.
// Macros: TRIPS, the loop's iterations (at most 65535). Specialization constants: 0, 1 the
// workgroup's width and height. Bindings: 0 x float[] (read), 1 out float[] (written). Push
// constants: n.
layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(std430, set = 0, binding = 0) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { float result[]; };
layout(push_constant) uniform Parameters { uint n; };

#define STEP h = (h * 1664525u + 1013904223u) ^ (h >> 13);
#define STEP4 STEP STEP STEP STEP

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  uint h = floatBitsToUint(x[i]);
  for (uint a = 0u; a < TRIPS; ++a) {
    STEP4 STEP4 STEP4 STEP4
  }
  result[i] = 2.0 * x[i] + (h == 0u ? 1.0 : 0.0);
}
