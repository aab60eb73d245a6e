#include "kernels/grayscott/reference.hpp"

#include <stdexcept>
#include <utility>

#include "kernels/random.hpp"

namespace csbench::grayscott {
namespace {

constexpr uint64_t RoundUp(uint64_t value, uint64_t multiple) { return (value + multiple - 1) / multiple * multiple; }

void RequireSameLayout(const State& a, const State& b) {
  const Layout &x = a.layout, &y = b.layout;
  if (x.width != y.width || x.height != y.height || x.stride != y.stride || x.lead != y.lead || x.plane != y.plane ||
      a.u.size() != x.plane || a.v.size() != x.plane || b.u.size() != y.plane || b.v.size() != y.plane) {
    throw std::invalid_argument("grayscott: states of different layouts");
  }
}

}  // namespace

Layout MakeLayout(uint32_t width, uint32_t height) {
  if (width == 0 || height == 0) throw std::invalid_argument("grayscott: empty domain");
  Layout layout;
  layout.width = width;
  layout.height = height;
  layout.stride = static_cast<uint32_t>(RoundUp(uint64_t{width} + 1, 32));
  layout.plane = RoundUp(layout.lead + (uint64_t{height} + 2) * layout.stride, 64);
  return layout;
}

Region CentralRegion(uint32_t width, uint32_t height) {
  return {width / 4, height / 4, width - width / 4, height - height / 4};
}

State InitialState(uint32_t width, uint32_t height, Region seeded, uint64_t seed) {
  if (seeded.x1 > width || seeded.y1 > height || seeded.x0 > seeded.x1 || seeded.y0 > seeded.y1) {
    throw std::invalid_argument("grayscott: seeded region outside the domain");
  }
  State state;
  state.layout = MakeLayout(width, height);
  state.u.assign(state.layout.plane, kBorderU);
  state.v.assign(state.layout.plane, kBorderV);
  const uint32_t region_width = seeded.x1 - seeded.x0;
  std::vector<float> noise(size_t{region_width} * (seeded.y1 - seeded.y0));
  FillUniform(noise, seed);
  for (uint32_t y = seeded.y0; y < seeded.y1; ++y) {
    for (uint32_t x = seeded.x0; x < seeded.x1; ++x) {
      const float v = noise[size_t{y - seeded.y0} * region_width + (x - seeded.x0)];
      const size_t i = state.layout.Index(x, y);
      state.v[i] = v;
      state.u[i] = 1.0f - v;
    }
  }
  return state;
}

void Step(const State& in, State& out) {
  RequireSameLayout(in, out);
  const Layout& l = in.layout;
  constexpr float kWeights[3][3] = {{kCornerWeight, kEdgeWeight, kCornerWeight},
                                    {kEdgeWeight, 0.0f, kEdgeWeight},
                                    {kCornerWeight, kEdgeWeight, kCornerWeight}};
  for (uint32_t y = 0; y < l.height; ++y) {
    const float* u_rows[3] = {&in.u[l.Index(0, int64_t{y} - 1)], &in.u[l.Index(0, y)], &in.u[l.Index(0, y + 1)]};
    const float* v_rows[3] = {&in.v[l.Index(0, int64_t{y} - 1)], &in.v[l.Index(0, y)], &in.v[l.Index(0, y + 1)]};
    float* u_out = &out.u[l.Index(0, y)];
    float* v_out = &out.v[l.Index(0, y)];
    for (uint32_t x = 0; x < l.width; ++x) {
      const float u = u_rows[1][x];
      const float v = v_rows[1][x];
      float laplacian_u = 0.0f;
      float laplacian_v = 0.0f;
      for (int dy = 0; dy < 3; ++dy) {
        for (int dx = 0; dx < 3; ++dx) {
          if (dy == 1 && dx == 1) continue;
          laplacian_u += kWeights[dy][dx] * (u_rows[dy][int64_t{x} + dx - 1] - u);
          laplacian_v += kWeights[dy][dx] * (v_rows[dy][int64_t{x} + dx - 1] - v);
        }
      }
      const float uv_square = u * v * v;
      const float du = kDiffusionU * laplacian_u - uv_square + kFeedRate * (1.0f - u);
      const float dv = kDiffusionV * laplacian_v + uv_square - (kFeedRate + kKillRate) * v;
      u_out[x] = u + du * kTimeStep;
      v_out[x] = v + dv * kTimeStep;
    }
  }
}

void Simulate(State& state, State& scratch, uint32_t steps) {
  for (uint32_t i = 0; i < steps; ++i) {
    Step(state, scratch);
    std::swap(state.u, scratch.u);
    std::swap(state.v, scratch.v);
  }
}

std::vector<float> Cells(const Layout& layout, std::span<const float> plane) {
  if (plane.size() < layout.plane) throw std::invalid_argument("grayscott: plane smaller than its layout");
  std::vector<float> cells;
  cells.reserve(layout.cells());
  for (uint32_t y = 0; y < layout.height; ++y) {
    const float* row = &plane[layout.Index(0, y)];
    cells.insert(cells.end(), row, row + layout.width);
  }
  return cells;
}

double CellSum(const Layout& layout, std::span<const float> plane) { return CellSum(layout, plane, 0, layout.height); }

double CellSum(const Layout& layout, std::span<const float> plane, uint32_t first_row, uint32_t end_row) {
  if (plane.size() < layout.plane) throw std::invalid_argument("grayscott: plane smaller than its layout");
  if (first_row > end_row || end_row > layout.height) throw std::invalid_argument("grayscott: rows outside the domain");
  double sum = 0.0;
  for (uint32_t y = first_row; y < end_row; ++y) {
    const float* row = &plane[layout.Index(0, y)];
    // Eight independent float partials per row: the compiler turns them into one vector add per
    // eight cells, where a single accumulator would wait on each add's latency. The host sums one
    // image while the device computes the next, so this loop is on the measured path (run on
    // several threads, each a band of rows: bench/grayscott.cpp, MeasureImages).
    float partial[8] = {};
    uint32_t x = 0;
    for (; x + 8 <= layout.width; x += 8) {
      for (int k = 0; k < 8; ++k) partial[k] += row[x + k];
    }
    for (; x < layout.width; ++x) partial[0] += row[x];
    for (float p : partial) sum += p;
  }
  return sum;
}

}  // namespace csbench::grayscott
