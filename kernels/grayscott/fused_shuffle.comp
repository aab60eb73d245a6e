#version 450
// Several Gray-Scott steps per dispatch, with the horizontal neighbours taken from the next lanes
// of the subgroup instead of shared memory. The tiling is fused.comp's: a workgroup loads a tile
// once, advances it up to STEPS steps on chip, and writes all but its ring of STEPS cells (the
// overlap that the neighbouring tiles write). Output tile: (kCols - 2 STEPS) x (kRows - 2 STEPS).
//
// Layout: one subgroup is one row of the workgroup (the workgroup's x size must be the subgroup
// size; the host refuses other sizes), and each work-item owns two neighbouring columns, so one
// subgroup spans the tile's kCols = 2 x subgroup-size columns. Lane l of subgroup k owns columns
// 2l and 2l + 1 and rows k * CELLS_Y .. + CELLS_Y - 1, kept in registers from the load to the
// final store. The tile position comes from gl_SubgroupInvocationID and gl_SubgroupID, not from
// the local invocation ID, so it holds however the device numbers its subgroups.
//
// Each step:
//   - left and right neighbours of a row: the lane to the left shuffles up its right cell, the
//     lane to the right shuffles down its left cell (4 shuffles a row of two cells). The lanes at
//     the subgroup's ends get an undefined value from the shuffle; they hold the tile's two edge
//     columns, which are ring cells, and a ring cell's error moves inward one cell a step, so it
//     never reaches the output (at least STEPS cells in);
//   - the rows just above and below a work-item's strip belong to the subgroups above and below:
//     every work-item publishes its first and last rows in shared memory (2 x 16 bytes), and
//     after the barrier reads its neighbours'. The first and last subgroups read their own rows
//     there instead (ring cells again).
// Shared memory: 32 bytes a work-item and buffer (fused.comp: 8 bytes a cell), so a 64x96 tile of
// 256 work-items takes 16 KiB with two buffers, not 48, and a device whose driver gives an SM a
// small shared-memory carve-out can hold several tiles at once.
//
// Two shared buffers, one barrier per step, as in fused.comp: step s writes buffer s % 2, and a
// work-item writes it again only at step s + 2, after the barrier of step s + 1, which every
// work-item reaches only once it has read step s.
//
// Boundary, update and stencil: as fused.comp (cells outside the domain keep U = 1, V = 0; the
// Laplacian grouped by rows; common.glsl's update).
//
// Macros: STEPS    the most steps one dispatch advances (the halo width), even; the push constant
//                  `steps` (1..STEPS) is this dispatch's count;
//         CELLS_X  must be 2 (the columns a work-item owns);
//         CELLS_Y  rows per work-item;
//         INJECT_ERROR (common.glsl).
// Specialization constants: see common.glsl; 0 (the workgroup's x: the subgroup size) and 1 (its
//   y: subgroups a workgroup) size the tile: kCols = 2 x local size x, kRows = local size y x
//   CELLS_Y.
// Bindings and push constants: see common.glsl. group_mask: the workgroup's tile is that of its
//   ID with only these bits (all ones in a simulation). The instruction-mix ceiling
//   (ceiling/fused6_shuffle12_on_chip) dispatches this same pipeline over a large domain's grid with
//   a mask of 15, on a domain of 16 x 16 tiles: every workgroup then runs a simulation's
//   instructions on one of those tiles, which the L2 keeps, and the result is that domain's pass.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require

// The planes as (even, odd) pairs of floats: a work-item's two cells.
#define STORAGE_TYPE vec2
#include "grayscott/common.glsl"

#ifndef STEPS
#error STEPS must be defined
#endif
#ifndef CELLS_Y
#error CELLS_Y must be defined
#endif
#if !defined(CELLS_X) || CELLS_X != 2
#error fused_shuffle.comp gives every work-item two columns: CELLS_X must be 2
#endif
#if STEPS % 2 != 0
#error STEPS must be even: a tile then starts at an even column, so every pair of cells is aligned
#endif

layout(constant_id = 0) const uint kGroupCols = 32;
layout(constant_id = 1) const uint kGroupRows = 8;

const int kCols = int(kGroupCols) + int(kGroupCols);
const int kRows = int(kGroupRows) * CELLS_Y;
const uint kItems = kGroupCols * kGroupRows;

// A row of a work-item's two cells: (U, V) of its left cell, then (U, V) of its right cell.
shared vec4 first_rows[2 * kItems];
shared vec4 last_rows[2 * kItems];

// Each of the row's two cells' left neighbour plus right neighbour, as (U, V, U, V).
vec4 Across(vec4 row) {
  const vec2 left = subgroupShuffleUp(row.zw, 1);     // the left lane's right cell
  const vec2 right = subgroupShuffleDown(row.xy, 1);  // the right lane's left cell
  return vec4(left + row.zw, row.xy + right);
}

void main() {
  const int lane = int(gl_SubgroupInvocationID);
  const int strip = int(gl_SubgroupID);
  // The tile's first cell: tiles step by their output size and start STEPS cells before it.
  // (Two scalars, not a constant vector: the validation layer's specialization of a vector of
  // specialization-constant expressions such as kCols produced invalid SPIR-V.)
  const int outputs_x = kCols - 2 * STEPS;
  const int outputs_y = kRows - 2 * STEPS;
  const uvec2 group = gl_WorkGroupID.xy & group_mask;
  const ivec2 origin = ivec2(int(group.x) * outputs_x, int(group.y) * outputs_y) - STEPS;
  const int column = 2 * lane;  // of the work-item's left cell, in the tile
  const int x = origin.x + column;
  const int first_row = strip * CELLS_Y;
  const int y0 = origin.y + first_row;

  // All loads first, independent of each other: 2 * CELLS_Y requests of 8 bytes in flight per
  // work-item, a subgroup's request one contiguous 256-byte row segment. A work-item's left column
  // is even, so its two cells are one aligned pair (rows and the lead are multiples of 32 floats).
  // A pair outside the domain on the left (x <= -2) or right (x >= width) is two border cells,
  // which hold U = 1, V = 0: not loaded. A pair whose right cell is the border column x = width
  // loads it, stored like any border cell. Rows clamp to the stored border rows.
  vec4 rows[CELLS_Y];
  const bool pair_inside = x >= 0 && x < int(width);
  const int load_x = pair_inside ? x : 0;
  [[unroll]] for (int r = 0; r < CELLS_Y; ++r) {
    const int i = Index(ivec2(load_x, clamp(y0 + r, -1, int(height)))) / 2;
    const vec2 u = u_in[i];
    const vec2 v = v_in[i];
    rows[r] = pair_inside ? vec4(u.x, v.x, u.y, v.y) : vec4(1.0, 0.0, 1.0, 0.0);
  }
  // Which cells a step updates (the others are outside the domain and keep their border value).
  const bool left_inside = x >= 0 && x < int(width);
  const bool right_inside = x + 1 >= 0 && x + 1 < int(width);
  bool row_inside[CELLS_Y];
  [[unroll]] for (int r = 0; r < CELLS_Y; ++r) row_inside[r] = y0 + r >= 0 && y0 + r < int(height);

  const int own = strip * int(kGroupCols) + lane;
  const int above = strip > 0 ? own - int(kGroupCols) : own;
  const int below = strip < int(kGroupRows) - 1 ? own + int(kGroupCols) : own;
  const float center_weight = 4.0 * (kCornerWeight + kEdgeWeight);

  for (int s = 0; s < int(steps); ++s) {
    const int b = int(kItems) * (s % 2);
    first_rows[b + own] = rows[0];
    last_rows[b + own] = rows[CELLS_Y - 1];
    // Every strip's end rows of this step are in the buffer before any work-item reads them.
    barrier();
    // The Laplacian grouped by rows, as in fused.comp: wc (h_above + h_below) + we ((c_above +
    // c_below) + h_mid) - 4 (wc + we) c, with h = left + right neighbour.
    vec4 top_c = last_rows[b + above];
    vec4 top_h = Across(top_c);
    vec4 mid_c = rows[0];
    vec4 mid_h = Across(mid_c);
    [[unroll]] for (int r = 0; r < CELLS_Y; ++r) {
      const vec4 bot_c = r + 1 < CELLS_Y ? rows[r + 1] : first_rows[b + below];
      const vec4 bot_h = Across(bot_c);
      const vec4 laplacian = kCornerWeight * (top_h + bot_h) + kEdgeWeight * ((top_c + bot_c) + mid_h) -
                             center_weight * mid_c;
      const vec2 left_next = Update(mid_c.xy, laplacian.xy);
      const vec2 right_next = Update(mid_c.zw, laplacian.zw);
      rows[r] = vec4(row_inside[r] && left_inside ? left_next : mid_c.xy,
                     row_inside[r] && right_inside ? right_next : mid_c.zw);
      top_c = mid_c;
      top_h = mid_h;
      mid_c = bot_c;
      mid_h = bot_h;
    }
  }

  // The output tile, where it is inside the domain (a column at least STEPS in has x >= 0). Both
  // cells of a pair are written together (one 8-byte store a plane), except where only one is
  // output: the left cell at the domain's right edge (odd width), or either at the output's edge
  // for an odd STEPS.
  const bool write_left = column >= STEPS && column < kCols - STEPS && x < int(width);
  const bool write_right = column + 1 >= STEPS && column + 1 < kCols - STEPS && x + 1 < int(width);
  [[unroll]] for (int r = 0; r < CELLS_Y; ++r) {
    const int row = first_row + r;
    const int y = y0 + r;
    if (row < STEPS || row >= kRows - STEPS || y >= int(height)) continue;
    const int i = Index(ivec2(x, y)) / 2;
    if (write_left && write_right) {
      u_out[i] = rows[r].xz;
      v_out[i] = rows[r].yw;
    } else if (write_left) {
      u_out[i].x = rows[r].x;
      v_out[i].x = rows[r].y;
    } else if (write_right) {
      u_out[i].y = rows[r].z;
      v_out[i].y = rows[r].w;
    }
  }
}
