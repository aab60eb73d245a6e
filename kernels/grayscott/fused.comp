#version 450
// Several Gray-Scott steps per dispatch (temporal blocking with overlapped tiles). A workgroup
// loads an input tile of kCols x kRows cells once from device memory, advances it up to STEPS
// steps on chip, and writes only the cells at least STEPS cells inside the tile's edge: after s
// steps a cell is exact when its s-neighbourhood was in the tile, so the ring of STEPS cells is
// computed but never written (the overlap with the neighbouring tiles, recomputed there). Output
// tile: (kCols - 2 STEPS) x (kRows - 2 STEPS).
//
// Work-item (i, j) owns column i, rows j * CELLS_Y .. + CELLS_Y - 1 of the tile, and keeps its
// cells in registers from the load to the final store. Each step it publishes them to shared
// memory, then reads back only what it does not hold: the left and right columns of its strip and
// the rows above and below it, walking the strip top to bottom with three rows in registers. Per
// cell and step that is one shared store and about 2 (CELLS_Y + 2) / CELLS_Y + 2 / CELLS_Y shared
// loads of a (U, V) pair, against nine in a one-cell-per-work-item tile. Every work-item
// computes every step, also where its result is already invalid (the ring), so control flow
// stays uniform and no lane idles at the barrier for another's branch.
//
// Two shared buffers, one barrier per step: step s writes buffer s % 2, and a work-item can only
// write that buffer again at step s + 2, after the barrier of step s + 1, which every work-item
// reaches only once it has finished reading step s. With SINGLE_BUFFER, one buffer and a second
// barrier per step: a tile twice as large in the same shared memory, for one more wait per step.
//
// Boundary: cells outside the domain keep U = 1, V = 0. Loads clamp to the stored border ring
// (x in -1..width, y in -1..height), which holds exactly those values, so a tile reaching past
// the domain loads border values there; and a step leaves every cell outside the domain as it
// was. Cells at the edge of the tile read a clamped (wrong) neighbour: they are in the ring.
//
// The update is common.glsl's. The stencil is grouped by rows, not summed in the reference's
// order: each row's left + right is made once and used by the three cells it neighbours, 7
// instructions a component in place of 16. The sum is the same one regrouped, so a fused step
// differs from the plain loop by rounding only (within the check's bound; docs/perf-notes.md,
// "Several steps per pass (4)").
//
// Macros: STEPS    the most steps one dispatch advances (the halo width, fixed at compile time);
//                  the push constant `steps` (1..STEPS) is this dispatch's count, so the last
//                  pass of a run that is not a multiple of STEPS does fewer;
//         CELLS_Y  rows per work-item;
//         SINGLE_BUFFER  one shared buffer, two barriers per step (default: two, one barrier);
//         INJECT_ERROR (common.glsl).
// Specialization constants: see common.glsl; 0, 1 (the workgroup) also size the tile:
//   kCols = local size x, kRows = local size y * CELLS_Y. Shared memory: 16 * kCols * kRows bytes
//   (8 * kCols * kRows with SINGLE_BUFFER).
// Bindings and push constants: see common.glsl (steps: this dispatch's step count).
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require

#include "grayscott/common.glsl"

#ifndef STEPS
#error STEPS must be defined
#endif
#ifndef CELLS_Y
#error CELLS_Y must be defined
#endif

// Named copies of the local size: GLSL sizes a shared array only with constants.
layout(constant_id = 0) const uint kGroupCols = 32;
layout(constant_id = 1) const uint kGroupRows = 8;

const int kCols = int(kGroupCols);
const int kRows = int(kGroupRows) * CELLS_Y;
const uint kTileCells = kGroupCols * kGroupRows * CELLS_Y;
const ivec2 kOutputs = ivec2(kCols, kRows) - 2 * STEPS;
#ifdef SINGLE_BUFFER
const int kBuffers = 1;
#else
const int kBuffers = 2;
#endif

// (U, V) pairs, row-major: a work-item's 8-byte accesses along a row are consecutive.
shared vec2 tile[kBuffers * kTileCells];

void main() {
  const ivec2 item = ivec2(gl_LocalInvocationID.xy);
  // The tile's first cell: tiles step by their output size and start STEPS cells before it.
  const ivec2 origin = ivec2(gl_WorkGroupID.xy) * kOutputs - STEPS;
  const int x = origin.x + item.x;
  const int first_row = item.y * CELLS_Y;  // in the tile
  const int y0 = origin.y + first_row;

  // All loads first, independent of each other: 2 * CELLS_Y requests in flight per work-item.
  vec2 uv[CELLS_Y];
  const int load_x = clamp(x, -1, int(width));
  [[unroll]] for (int r = 0; r < CELLS_Y; ++r) {
    const int i = Index(ivec2(load_x, clamp(y0 + r, -1, int(height))));
    uv[r] = vec2(u_in[i], v_in[i]);
  }
  const bool column_inside = x >= 0 && x < int(width);
  // Which of the strip's cells a step updates (the others are outside the domain and keep their
  // border value): fixed for the whole dispatch, so worked out once, not per step.
  bool inside[CELLS_Y];
  [[unroll]] for (int r = 0; r < CELLS_Y; ++r) inside[r] = column_inside && y0 + r >= 0 && y0 + r < int(height);

  // Offsets in the tile from a strip's cell to its neighbours, clamped at the tile's edge (the
  // clamped reads only feed ring cells).
  const int own = first_row * kCols + item.x;
  const int left = item.x > 0 ? -1 : 0;
  const int right = item.x < kCols - 1 ? 1 : 0;
  const int above = item.y > 0 ? -kCols : 0;
  const int below = item.y < int(kGroupRows) - 1 ? kCols : 0;

  // The centre's weight: the eight neighbours' weights, each subtracted from the centre (a local:
  // GLSL folds no float arithmetic on specialization constants; the driver does once they are set).
  const float center_weight = 4.0 * (kCornerWeight + kEdgeWeight);

  for (int s = 0; s < int(steps); ++s) {
    const int b = int(kTileCells) * (s % kBuffers) + own;
    [[unroll]] for (int r = 0; r < CELLS_Y; ++r) tile[b + r * kCols] = uv[r];
    // Every cell of this step's state is in the buffer before any work-item reads a neighbour.
    barrier();
    // The Laplacian grouped by rows: wc (h_above + h_below) + we ((c_above + c_below) + h_mid)
    // - 4 (wc + we) c, with h = left + right of a row, made once per row and used by three cells.
    vec2 top_h = tile[b + above + left] + tile[b + above + right], top_c = tile[b + above];
    vec2 mid_h = tile[b + left] + tile[b + right], mid_c = uv[0];
    [[unroll]] for (int r = 0; r < CELLS_Y; ++r) {
      const int next = r + 1 < CELLS_Y ? b + (r + 1) * kCols : b + (CELLS_Y - 1) * kCols + below;
      const vec2 bot_h = tile[next + left] + tile[next + right];
      const vec2 bot_c = r + 1 < CELLS_Y ? uv[r + 1] : tile[next];
      const vec2 laplacian = kCornerWeight * (top_h + bot_h) + kEdgeWeight * ((top_c + bot_c) + mid_h) -
                             center_weight * mid_c;
      uv[r] = inside[r] ? Update(mid_c, laplacian) : mid_c;
      top_h = mid_h;
      top_c = mid_c;
      mid_h = bot_h;
      mid_c = bot_c;
    }
#ifdef SINGLE_BUFFER
    // The next step overwrites the buffer: every work-item has read this step's cells first.
    barrier();
#endif
  }

  // The output tile, where it is inside the domain.
  if (item.x < STEPS || item.x >= kCols - STEPS || !column_inside) return;
  [[unroll]] for (int r = 0; r < CELLS_Y; ++r) {
    const int row = first_row + r;
    const int y = y0 + r;
    if (row < STEPS || row >= kRows - STEPS || y >= int(height)) continue;
    const int i = Index(ivec2(x, y));
    u_out[i] = uv[r].x;
    v_out[i] = uv[r].y;
  }
}
