#version 450
// One Gray-Scott step through shared memory, as in the course's "Shared memory" chapter: each
// work-item loads one (U, V) cell of its workgroup's tile into shared memory; after the barrier the
// work-items of the tile's one-cell border exit, and the inner ones compute their cell from shared
// memory. Workgroups overlap by that border: a workgroup of X x Y work-items writes (X-2) x (Y-2)
// cells, so a side below 3 writes nothing (the host refuses it).
//
// Macros: SOA  the chapter's fix, shared float [2][ROWS][COLS]: species apart, rows contiguous, so
//              work-items along x touch consecutive words. Without it, the chapter's first version,
//              shared vec2 [COLS][ROWS]: (U, V) interleaved and columns contiguous, so neighbours
//              along x are 2 * ROWS words apart, which is a multiple of the bank count for most
//              power-of-two ROWS (bank conflicts; kept as the chapter's measured lesson).
//         INJECT_ERROR (common.glsl).
// Specialization constants: see common.glsl; 0, 1 also size the shared tile.
// Bindings and push constants: see common.glsl.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require

#include "grayscott/common.glsl"

// Named copies of the local size: GLSL sizes a shared array only with constants.
layout(constant_id = 0) const uint kGroupCols = 8;
layout(constant_id = 1) const uint kGroupRows = 8;

const int kBorder = 1;
const ivec2 kGroup = ivec2(kGroupCols, kGroupRows);
const ivec2 kOutputs = kGroup - 2 * kBorder;

#ifdef SOA
shared float uv_cache[2][kGroupRows][kGroupCols];
void SetCache(ivec2 item, vec2 uv) {
  uv_cache[0][item.y][item.x] = uv.x;
  uv_cache[1][item.y][item.x] = uv.y;
}
vec2 GetCache(ivec2 item) { return vec2(uv_cache[0][item.y][item.x], uv_cache[1][item.y][item.x]); }
#else
shared vec2 uv_cache[kGroupCols][kGroupRows];
void SetCache(ivec2 item, vec2 uv) { uv_cache[item.x][item.y] = uv; }
vec2 GetCache(ivec2 item) { return uv_cache[item.x][item.y]; }
#endif

void main() {
  const ivec2 item = ivec2(gl_LocalInvocationID.xy);
  // The cell this work-item loads: workgroups step by their output size, and local (0, 0) sits
  // on the cell above and left of the first output, so cells run from -1 (a border cell).
  const ivec2 cell = ivec2(gl_WorkGroupID.xy) * kOutputs + item - kBorder;
  // Border cells are stored, so only work-items past the far border have nothing to load. They
  // stay until the barrier, which every work-item of the workgroup must reach.
  vec2 uv = vec2(0.0);
  if (all(lessThanEqual(cell, Domain()))) {
    const int i = Index(cell);
    uv = vec2(u_in[i], v_in[i]);
    SetCache(item, uv);
  }
  // Every store above lands before any work-item reads a neighbour's slot.
  barrier();
  const bool output_item = all(greaterThanEqual(item, ivec2(kBorder))) && all(lessThan(item, kGroup - kBorder));
  if (!output_item || any(greaterThanEqual(cell, Domain()))) return;

  vec2 laplacian = vec2(0.0);
  [[unroll]] for (int dy = -1; dy <= 1; ++dy) {
    [[unroll]] for (int dx = -1; dx <= 1; ++dx) {
      if (dx == 0 && dy == 0) continue;
      laplacian += Weight(dx, dy) * (GetCache(item + ivec2(dx, dy)) - uv);
    }
  }
  const vec2 next = Update(uv, laplacian);
  const int i = Index(cell);
  u_out[i] = next.x;
  v_out[i] = next.y;
}
