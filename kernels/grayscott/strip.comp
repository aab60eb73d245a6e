#version 450
// One Gray-Scott step where each work-item computes a strip of CELLS_X x CELLS_Y cells (ours,
// aimed at the memory roofline). It walks its strip top to bottom keeping three rows of (U, V) in
// registers, so each input row is loaded once per strip instead of three times, and with
// CELLS_X = 4 a row is one aligned vec4 per species plus the two scalar neighbours. Load
// instructions per output cell and species: 9 in `global`, (CELLS_Y + 2) * 3 / (CELLS_X * CELLS_Y)
// here (0.94 for 4 x 8). No shared memory, no barrier. Device memory then sees each cell about
// once per step: strips above and below read a row twice, from cache when they run close together.
//
// Macros: CELLS_X  1 (float loads) or 4 (vec4 loads);
//         CELLS_Y  rows per work-item;
//         INJECT_ERROR (common.glsl).
// Specialization constants: see common.glsl (0, 1: the workgroup in work-items).
// Bindings and push constants: see common.glsl; CELLS_X = 4 binds them as vec4 arrays.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require

#if CELLS_X == 4
#define STORAGE_TYPE vec4
#define Cells vec4
#elif CELLS_X == 1
#define Cells float
#else
#error CELLS_X must be 1 or 4
#endif

#include "grayscott/common.glsl"

// One row of a strip and its two horizontal neighbours, for one species.
struct Row {
  float left;
  Cells center;
  float right;
};

#if CELLS_X == 4
Row LoadRow(int q, bool v_plane) {
  // Rows start 128-byte aligned and x0 is a multiple of 4: the strip is element q of the vec4
  // view, and its neighbours are the last lane of q - 1 and the first of q + 1.
  if (v_plane) return Row(v_in[q - 1].w, v_in[q], v_in[q + 1].x);
  return Row(u_in[q - 1].w, u_in[q], u_in[q + 1].x);
}
Cells Left(Row r) { return vec4(r.left, r.center.xyz); }
Cells Right(Row r) { return vec4(r.center.yzw, r.right); }
#else
Row LoadRow(int q, bool v_plane) {
  if (v_plane) return Row(v_in[q - 1], v_in[q], v_in[q + 1]);
  return Row(u_in[q - 1], u_in[q], u_in[q + 1]);
}
Cells Left(Row r) { return r.left; }
Cells Right(Row r) { return r.right; }
#endif

// The stencil over one species in the reference's order (rows top to bottom, left to right).
Cells Laplacian(Row top, Row mid, Row bottom) {
  const Cells c = mid.center;
  Cells sum = Cells(0.0);
  sum += kCornerWeight * (Left(top) - c);
  sum += kEdgeWeight * (top.center - c);
  sum += kCornerWeight * (Right(top) - c);
  sum += kEdgeWeight * (Left(mid) - c);
  sum += kEdgeWeight * (Right(mid) - c);
  sum += kCornerWeight * (Left(bottom) - c);
  sum += kEdgeWeight * (bottom.center - c);
  sum += kCornerWeight * (Right(bottom) - c);
  return sum;
}

void main() {
  const ivec2 first = ivec2(gl_GlobalInvocationID.xy) * ivec2(CELLS_X, CELLS_Y);
  if (any(greaterThanEqual(first, Domain()))) return;
  // Index in elements of the storage type: Index() counts floats.
  const int row_step = int(stride) / CELLS_X;
  int q = Index(first + ivec2(0, -1)) / CELLS_X;
  Row u_top = LoadRow(q, false), v_top = LoadRow(q, true);
  q += row_step;
  Row u_mid = LoadRow(q, false), v_mid = LoadRow(q, true);
  const int rows = min(CELLS_Y, int(height) - first.y);
#if CELLS_X == 4
  // Lanes past the domain's right edge are pads: they keep their border value.
  const bvec4 inside = lessThan(first.x + ivec4(0, 1, 2, 3), ivec4(width));
#endif
  [[unroll]] for (int r = 0; r < CELLS_Y; ++r) {
    if (r >= rows) break;
    const Row u_bottom = LoadRow(q + row_step, false), v_bottom = LoadRow(q + row_step, true);
    const Cells lap_u = Laplacian(u_top, u_mid, u_bottom);
    const Cells lap_v = Laplacian(v_top, v_mid, v_bottom);
#if CELLS_X == 4
    vec4 next_u, next_v;
    [[unroll]] for (int k = 0; k < 4; ++k) {
      const vec2 next = Update(vec2(u_mid.center[k], v_mid.center[k]), vec2(lap_u[k], lap_v[k]));
      next_u[k] = next.x;
      next_v[k] = next.y;
    }
    u_out[q] = mix(u_mid.center, next_u, inside);
    v_out[q] = mix(v_mid.center, next_v, inside);
#else
    const vec2 next = Update(vec2(u_mid.center, v_mid.center), vec2(lap_u, lap_v));
    u_out[q] = next.x;
    v_out[q] = next.y;
#endif
    u_top = u_mid;
    v_top = v_mid;
    u_mid = u_bottom;
    v_mid = v_bottom;
    q += row_step;
  }
}
