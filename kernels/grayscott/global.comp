#version 450
// One Gray-Scott step with one work-item per output cell, its 3x3 (U, V) inputs read from device
// memory: the course's step before the shared-memory chapter. Reuse of a cell by its 8 neighbours
// is left to the GPU's caches.
//
// Macros: INJECT_ERROR (common.glsl).
// Specialization constants: see common.glsl (0, 1: the workgroup, one work-item per cell).
// Bindings and push constants: see common.glsl.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require

#include "grayscott/common.glsl"

vec2 Load(ivec2 cell) {
  const int i = Index(cell);
  return vec2(u_in[i], v_in[i]);
}

void main() {
  const ivec2 cell = ivec2(gl_GlobalInvocationID.xy);
  if (any(greaterThanEqual(cell, Domain()))) return;
  const vec2 uv = Load(cell);
  vec2 laplacian = vec2(0.0);
  [[unroll]] for (int dy = -1; dy <= 1; ++dy) {
    [[unroll]] for (int dx = -1; dx <= 1; ++dx) {
      if (dx == 0 && dy == 0) continue;
      laplacian += Weight(dx, dy) * (Load(cell + ivec2(dx, dy)) - uv);
    }
  }
  const vec2 next = Update(uv, laplacian);
  const int i = Index(cell);
  u_out[i] = next.x;
  v_out[i] = next.y;
}
