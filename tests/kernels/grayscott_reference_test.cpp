#include "kernels/grayscott/reference.hpp"

#include <gtest/gtest.h>

#include <numeric>
#include <stdexcept>

namespace csbench::grayscott {
namespace {

// A domain filled with (u, v) everywhere inside its border.
State Uniform(uint32_t width, uint32_t height, float u, float v) {
  State state = InitialState(width, height, {}, 1);
  for (uint32_t y = 0; y < height; ++y) {
    for (uint32_t x = 0; x < width; ++x) {
      state.u[state.layout.Index(x, y)] = u;
      state.v[state.layout.Index(x, y)] = v;
    }
  }
  return state;
}

State OneStep(const State& in) {
  State out = InitialState(in.layout.width, in.layout.height, {}, 1);
  Step(in, out);
  return out;
}

TEST(Layout, PadsHoldEveryBorderCell) {
  const Layout l = MakeLayout(2048, 1024);
  EXPECT_EQ(l.stride, 2080u);  // 2049 rounded up to 32 floats
  EXPECT_EQ(l.stride % 32, 0u);
  EXPECT_EQ(l.lead % 32, 0u);
  EXPECT_EQ(l.plane % 64, 0u);
  EXPECT_GE(l.plane, l.lead + (1024u + 2) * l.stride);
  // The left border of a row is the last pad of the row above; the corners exist.
  EXPECT_EQ(l.Index(-1, 5), l.Index(l.stride - 1, 4));
  EXPECT_EQ(l.Index(-1, -1), l.lead - 1);
  EXPECT_LT(l.Index(2048, 1024), l.plane);
  // Rows start 128-byte aligned, so x = 4k is a vec4 boundary.
  EXPECT_EQ(l.Index(0, 7) % 32, 0u);
  EXPECT_EQ(MakeLayout(31, 1).stride, 32u);
  EXPECT_EQ(MakeLayout(32, 1).stride, 64u);  // 32 cells need a pad after them
  EXPECT_THROW(MakeLayout(0, 4), std::invalid_argument);
}

TEST(InitialState, SeedsOnlyTheRegion) {
  const Region region = CentralRegion(16, 8);
  EXPECT_EQ(region.x0, 4u);
  EXPECT_EQ(region.y0, 2u);
  EXPECT_EQ(region.x1, 12u);
  EXPECT_EQ(region.y1, 6u);
  const State s = InitialState(16, 8, region, 42);
  double v_sum = 0;
  for (size_t i = 0; i < s.layout.plane; ++i) {
    const int64_t row = static_cast<int64_t>(i) - s.layout.lead;
    const int64_t y = row < 0 ? -2 : row / s.layout.stride - 1;
    const int64_t x = row < 0 ? 0 : row % s.layout.stride;
    const bool seeded = x >= region.x0 && x < region.x1 && y >= region.y0 && y < region.y1;
    if (seeded) {
      ASSERT_GE(s.v[i], 0.0f);
      ASSERT_LT(s.v[i], 1.0f);
      ASSERT_FLOAT_EQ(s.u[i] + s.v[i], 1.0f);
      v_sum += s.v[i];
    } else {
      ASSERT_EQ(s.u[i], kBorderU) << "float " << i;
      ASSERT_EQ(s.v[i], kBorderV) << "float " << i;
    }
  }
  EXPECT_NEAR(v_sum / 32, 0.5, 0.2);  // random, not constant
  const State again = InitialState(16, 8, region, 42);
  EXPECT_EQ(s.v, again.v);
  EXPECT_NE(s.v, InitialState(16, 8, region, 43).v);
  EXPECT_THROW(InitialState(16, 8, {0, 0, 17, 8}, 1), std::invalid_argument);
}

TEST(Step, TheBorderValueIsAFixedPoint) {
  const State s = InitialState(9, 7, {}, 1);
  const State next = OneStep(s);
  EXPECT_EQ(next.u, s.u);
  EXPECT_EQ(next.v, s.v);
}

TEST(Step, ReactionOnAUniformInterior) {
  // Away from the border the Laplacian is 0 and only the reaction acts:
  // du = -u v^2 + F (1 - u), dv = u v^2 - (F + k) v, with u = 0.5, v = 0.25.
  const State next = OneStep(Uniform(9, 9, 0.5f, 0.25f));
  const size_t centre = next.layout.Index(4, 4);
  EXPECT_NEAR(next.u[centre], 0.5 - 0.5 * 0.0625 + 0.014 * 0.5, 1e-7);  // 0.47575
  EXPECT_NEAR(next.v[centre], 0.25 + 0.5 * 0.0625 - 0.068 * 0.25, 1e-7);  // 0.26425
}

TEST(Step, CellsOutsideReadAsUOneVZero) {
  // Cell (0, 4) has the border on its left: two corners (0.25) and one edge (0.5) read U = 1, V = 0.
  const State next = OneStep(Uniform(9, 9, 0.5f, 0.25f));
  const size_t edge = next.layout.Index(0, 4);
  const double laplacian_u = (0.25 + 0.5 + 0.25) * (1.0 - 0.5);
  const double laplacian_v = (0.25 + 0.5 + 0.25) * (0.0 - 0.25);
  EXPECT_NEAR(next.u[edge], 0.47575 + 0.1 * laplacian_u, 1e-7);
  EXPECT_NEAR(next.v[edge], 0.26425 + 0.05 * laplacian_v, 1e-7);
  // The corner cell has five outside neighbours: 3 corners and 2 edges.
  const size_t corner = next.layout.Index(8, 8);
  EXPECT_NEAR(next.u[corner], 0.47575 + 0.1 * (3 * 0.25 + 2 * 0.5) * 0.5, 1e-7);
}

TEST(Step, StencilWeightsAreCornerQuarterEdgeHalfCentreMinusThree) {
  // One V spike of 0.5 at (3, 3) on U = 1: the neighbours get D_v * weight * 0.5 and the spike
  // loses D_v * 3 * 0.5, gains u v^2 and decays by (F + k) v; U there loses u v^2.
  State s = InitialState(7, 7, {}, 1);
  s.u[s.layout.Index(3, 3)] = 1.0f;
  s.v[s.layout.Index(3, 3)] = 0.5f;
  const State next = OneStep(s);
  const Layout& l = next.layout;
  EXPECT_NEAR(next.v[l.Index(2, 2)], 0.05 * 0.25 * 0.5, 1e-8);
  EXPECT_NEAR(next.v[l.Index(3, 2)], 0.05 * 0.5 * 0.5, 1e-8);
  EXPECT_NEAR(next.v[l.Index(4, 3)], 0.05 * 0.5 * 0.5, 1e-8);
  EXPECT_NEAR(next.v[l.Index(4, 4)], 0.05 * 0.25 * 0.5, 1e-8);
  EXPECT_NEAR(next.v[l.Index(3, 3)], 0.5 - 0.05 * 3 * 0.5 + 0.25 - 0.068 * 0.5, 1e-7);
  EXPECT_NEAR(next.u[l.Index(3, 3)], 1.0 - 0.25, 1e-7);
  EXPECT_EQ(next.v[l.Index(1, 3)], 0.0f);  // two cells away: untouched after one step
}

TEST(Simulate, KeepsPadsAndGrowsThePattern) {
  State s = InitialState(40, 30, CentralRegion(40, 30), 7);
  State scratch = InitialState(40, 30, {}, 1);
  const State start = s;
  Simulate(s, scratch, 25);
  for (int64_t y = -1; y <= 30; ++y) {
    for (int64_t x : {-1, 40}) {
      ASSERT_EQ(s.u[s.layout.Index(x, y)], kBorderU);
      ASSERT_EQ(s.v[s.layout.Index(x, y)], kBorderV);
    }
  }
  // V has spread outside the seeded region.
  EXPECT_EQ(start.v[s.layout.Index(8, 15)], 0.0f);
  EXPECT_GT(s.v[s.layout.Index(8, 15)], 0.0f);
}

TEST(Cells, RowMajorDomainOnly) {
  State s = InitialState(5, 3, {0, 0, 5, 3}, 3);
  const std::vector<float> cells = Cells(s.layout, s.v);
  ASSERT_EQ(cells.size(), 15u);
  EXPECT_EQ(cells[7], s.v[s.layout.Index(2, 1)]);
  const double want = std::accumulate(cells.begin(), cells.end(), 0.0);
  EXPECT_NEAR(CellSum(s.layout, s.v), want, 1e-6 * want);
  const State big = InitialState(1000, 3, {0, 0, 1000, 3}, 3);
  const std::vector<float> big_cells = Cells(big.layout, big.v);
  const double big_want = std::accumulate(big_cells.begin(), big_cells.end(), 0.0);
  EXPECT_NEAR(CellSum(big.layout, big.v), big_want, 1e-6 * big_want);
}

TEST(Cells, BandsOfRowsSumToTheWhole) {
  // What several host threads do with one image: each sums a band of rows.
  const State s = InitialState(37, 11, {0, 0, 37, 11}, 4);
  const std::vector<float> cells = Cells(s.layout, s.u);
  const double whole = CellSum(s.layout, s.u);
  double bands = 0.0;
  for (uint32_t part = 0; part < 4; ++part) bands += CellSum(s.layout, s.u, 11 * part / 4, 11 * (part + 1) / 4);
  EXPECT_NEAR(bands, whole, 1e-9 * whole);
  // One row alone: its 37 cells, and nothing of the pads beside it.
  const double row3 = std::accumulate(cells.begin() + 3 * 37, cells.begin() + 4 * 37, 0.0);
  EXPECT_NEAR(CellSum(s.layout, s.u, 3, 4), row3, 1e-6 * row3);
  EXPECT_EQ(CellSum(s.layout, s.u, 5, 5), 0.0);
  EXPECT_THROW(CellSum(s.layout, s.u, 0, 12), std::invalid_argument);
  EXPECT_THROW(CellSum(s.layout, s.u, 6, 5), std::invalid_argument);
}

TEST(Step, RejectsDifferentLayouts) {
  const State a = InitialState(8, 8, {}, 1);
  State b = InitialState(9, 8, {}, 1);
  EXPECT_THROW(Step(a, b), std::invalid_argument);
}

}  // namespace
}  // namespace csbench::grayscott
