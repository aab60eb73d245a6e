// Shared by the Gray-Scott kernels: parameters, storage, the stencil and the update.
//
// One dispatch is one simulation step from the "in" planes to the "out" planes. The planes use
// the layout of kernels/grayscott/reference.hpp (Layout): border rows and pads around the domain
// hold the boundary value U = 1, V = 0, so cell (-1, y) or (x, height) is read like any other cell
// and no read needs a bounds check. Kernels never write a border cell with anything but its value.
//
// Macros: STORAGE_TYPE  the element type of the bindings (float, or vec4 for kernels that move
//                       four cells at a time; rows start 128-byte aligned, so x = 4k is aligned);
//         INJECT_ERROR  scales every new V by 1.0001, which the reference check must catch (tests
//                       only, never in the variant table).
// Specialization constants: 0, 1 the workgroup's work-items along x, y (the local size);
//   3 feed rate, 4 kill rate, 5 D_u, 6 D_v, 7 time step, 8 corner weight, 9 edge weight:
//   set from kernels/grayscott/reference.hpp, their only definition (the defaults here are copies).
// Bindings: 0 U in, 1 V in (read), 2 U out, 3 V out (written); one plane each.
// Push constants: width, height (the domain), stride (floats per row), lead (floats before row -1),
//   steps (the steps this dispatch advances: 1, except in kernels that fuse several, fused.comp);
//   group_mask (the bits of the workgroup ID a kernel's tile is taken from, fused_shuffle.comp:
//   all ones in a simulation, which the other kernels do not read).

#ifndef STORAGE_TYPE
#define STORAGE_TYPE float
#endif

layout(local_size_x_id = 0, local_size_y_id = 1) in;

layout(constant_id = 3) const float kFeedRate = 0.014;
layout(constant_id = 4) const float kKillRate = 0.054;
layout(constant_id = 5) const float kDiffusionU = 0.1;
layout(constant_id = 6) const float kDiffusionV = 0.05;
layout(constant_id = 7) const float kTimeStep = 1.0;
layout(constant_id = 8) const float kCornerWeight = 0.25;
layout(constant_id = 9) const float kEdgeWeight = 0.5;

layout(std430, binding = 0) readonly buffer UIn { STORAGE_TYPE u_in[]; };
layout(std430, binding = 1) readonly buffer VIn { STORAGE_TYPE v_in[]; };
layout(std430, binding = 2) writeonly buffer UOut { STORAGE_TYPE u_out[]; };
layout(std430, binding = 3) writeonly buffer VOut { STORAGE_TYPE v_out[]; };

layout(push_constant) uniform Parameters {
  uint width;
  uint height;
  uint stride;
  uint lead;
  uint steps;
  uint group_mask;
};

ivec2 Domain() { return ivec2(width, height); }

// The float index of cell `cell` in a plane; -1 and width/height are border cells.
int Index(ivec2 cell) { return int(lead) + (cell.y + 1) * int(stride) + cell.x; }

// Weight of the neighbour at offset (dx, dy), both in -1..1, not both 0.
float Weight(int dx, int dy) { return (dx != 0 && dy != 0) ? kCornerWeight : kEdgeWeight; }

// The reaction and the step, in the reference's operation order (reference.cpp, Step).
vec2 Update(vec2 uv, vec2 laplacian) {
  const float u = uv.x;
  const float v = uv.y;
  const float uv_square = u * v * v;
  const float du = kDiffusionU * laplacian.x - uv_square + kFeedRate * (1.0 - u);
  const float dv = kDiffusionV * laplacian.y + uv_square - (kFeedRate + kKillRate) * v;
  vec2 next = vec2(u + du * kTimeStep, v + dv * kTimeStep);
#ifdef INJECT_ERROR
  next.y *= 1.0001;
#endif
  return next;
}
