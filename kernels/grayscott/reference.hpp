// The Gray-Scott family's plain-loop implementation: the correctness reference of every GPU
// variant and the CPU fallback backend. It also fixes what every implementation shares: the
// parameters, the boundary, the storage layout and the initial state.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace csbench::grayscott {

// The course's parameters. The GPU kernels get them as specialization constants from here, so
// this is their only definition.
inline constexpr float kFeedRate = 0.014f;
inline constexpr float kKillRate = 0.054f;
inline constexpr float kDiffusionU = 0.1f;
inline constexpr float kDiffusionV = 0.05f;
inline constexpr float kTimeStep = 1.0f;

// The 3x3 diffusion stencil, applied as sum(weight * (neighbour - centre)) over the 8 neighbours,
// in row-major order (top-left first). That is the course's form; it equals weights 0.25 at the
// corners, 0.5 at the edges and -3 at the centre. (kernels/grayscott/common.glsl has the same.)
inline constexpr float kCornerWeight = 0.25f;
inline constexpr float kEdgeWeight = 0.5f;

// Boundary: the cells around the domain read as U = 1, V = 0 and never change (the course's fixed
// border). Stored as real cells (see Layout), so no kernel needs a bounds check on its reads.
inline constexpr float kBorderU = 1.0f;
inline constexpr float kBorderV = 0.0f;

// Where the floats of one species live: a plane of rows, row -1 and row `height` being border
// rows, each row `stride` floats. The floats after a row's `width` cells are pads that hold the
// border value: the first is the row's right border, the last is the next row's left border
// (x = -1 of row y is the last pad of row y - 1). `lead` floats before row -1 hold the top-left
// corner. Rows start on 128-byte boundaries, so four cells from x = 4k load as one aligned vec4,
// and a plane is a multiple of 256 bytes, so the V plane's offset is a valid storage-buffer offset.
struct Layout {
  uint32_t width = 0;
  uint32_t height = 0;
  uint32_t stride = 0;  // floats per row: width + 1 rounded up to a multiple of 32
  uint32_t lead = 32;   // floats before row -1
  uint64_t plane = 0;   // floats per plane: lead + (height + 2) * stride, rounded up to 64

  size_t Index(int64_t x, int64_t y) const { return lead + (y + 1) * int64_t{stride} + x; }
  uint64_t cells() const { return uint64_t{width} * height; }
};

Layout MakeLayout(uint32_t width, uint32_t height);

// The state of the simulation: the U and V planes. Pads and border rows hold the border values.
struct State {
  Layout layout;
  std::vector<float> u;
  std::vector<float> v;
};

// The cells [x0, x1) x [y0, y1) that start with random concentrations.
struct Region {
  uint32_t x0 = 0;
  uint32_t y0 = 0;
  uint32_t x1 = 0;
  uint32_t y1 = 0;
};

// The benchmarks' seeded region: the middle half of the domain along each axis, so the pattern
// grows outward from it.
Region CentralRegion(uint32_t width, uint32_t height);

// U = 1, V = 0 everywhere except in `seeded`, where V is uniform in [0, 1) (from `seed`) and
// U = 1 - V.
State InitialState(uint32_t width, uint32_t height, Region seeded, uint64_t seed);

// One simulation step from `in` into `out` (same layout; out's pads must hold the border values,
// which Step never writes). Float arithmetic in the kernels' order.
void Step(const State& in, State& out);

// `steps` steps in place; `scratch` (same layout, border values in its pads) is the other buffer
// of the ping-pong.
void Simulate(State& state, State& scratch, uint32_t steps);

// The domain's cells of one plane, row-major, width * height values.
std::vector<float> Cells(const Layout& layout, std::span<const float> plane);

// Sum of the domain's cells of one plane, in double: what the host computes per downloaded image.
double CellSum(const Layout& layout, std::span<const float> plane);
// The same over rows [first_row, end_row) of the domain only (several threads sum one image).
double CellSum(const Layout& layout, std::span<const float> plane, uint32_t first_row, uint32_t end_row);

}  // namespace csbench::grayscott
