#include "kernels/neighborhood3d/reference.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace csbench::neighborhood3d {
namespace {

TEST(Blur3x3x3, ImpulseSpreadsWithBinomialWeights) {
  // 64 in the middle of a 5x5x5 volume: the output is the 3x3x3 kernel ([1 2 1]^3 / 64) times 64.
  const uint32_t n = 5;
  std::vector<float> volume(n * n * n * 4, 0.0f);
  auto at = [&](uint32_t x, uint32_t y, uint32_t z) { return ((z * n + y) * n + x) * 4 + 2; };  // blue
  volume[at(2, 2, 2)] = 64.0f;
  auto out = Blur3x3x3(volume, n, n, n);
  EXPECT_FLOAT_EQ(out[at(2, 2, 2)], 8.0f);
  EXPECT_FLOAT_EQ(out[at(1, 2, 2)], 4.0f);
  EXPECT_FLOAT_EQ(out[at(1, 1, 2)], 2.0f);
  EXPECT_FLOAT_EQ(out[at(1, 1, 1)], 1.0f);
  EXPECT_FLOAT_EQ(out[at(0, 2, 2)], 0.0f);
}

TEST(Blur3x3x3, FacesAreClampedAndDepthOneIsThe2DBlur) {
  // A volume one voxel deep: the z taps all read the same slice, so the weights in z sum to 1.
  std::vector<float> row{1, 1, 1, 1, 0, 0, 0, 0};
  EXPECT_FLOAT_EQ(Blur3x3x3(row, 2, 1, 1)[0], 0.75f);
}

TEST(Blur3x3x3, RejectsBadSizes) {
  std::vector<float> volume(4 * 7);
  EXPECT_THROW(Blur3x3x3(volume, 2, 2, 2), std::invalid_argument);
}

}  // namespace
}  // namespace csbench::neighborhood3d
