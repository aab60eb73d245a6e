#include "kernels/neighborhood/reference.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace csbench::neighborhood {
namespace {

TEST(Blur3x3, ConstantImageStaysConstant) {
  std::vector<float> image(7 * 5 * 4, 0.375f);
  for (float v : Blur3x3(image, 7, 5)) EXPECT_FLOAT_EQ(v, 0.375f);
}

TEST(Blur3x3, ImpulseSpreadsWithBinomialWeights) {
  // One pixel of 16 in the middle of a 5x5 image: the output is the 3x3 kernel times 16.
  std::vector<float> image(5 * 5 * 4, 0.0f);
  image[(2 * 5 + 2) * 4 + 1] = 16.0f;  // green only
  auto out = Blur3x3(image, 5, 5);
  auto green = [&](int x, int y) { return out[(y * 5 + x) * 4 + 1]; };
  EXPECT_FLOAT_EQ(green(2, 2), 4.0f);
  EXPECT_FLOAT_EQ(green(1, 2), 2.0f);
  EXPECT_FLOAT_EQ(green(3, 3), 1.0f);
  EXPECT_FLOAT_EQ(green(0, 0), 0.0f);
  EXPECT_FLOAT_EQ(out[(2 * 5 + 2) * 4 + 0], 0.0f);  // channels do not mix
}

TEST(Blur3x3, EdgesAreClamped) {
  // A 1x1 image: all nine taps read the one pixel.
  std::vector<float> image{0.5f, 0.25f, 0.125f, 1.0f};
  auto out = Blur3x3(image, 1, 1);
  EXPECT_EQ(out, image);
  // Corner of a 2x1 image [a b]: (w0 + w1) a + w2 b along x, all rows the same.
  std::vector<float> row{1, 1, 1, 1, 0, 0, 0, 0};
  EXPECT_FLOAT_EQ(Blur3x3(row, 2, 1)[0], 0.75f);
}

TEST(Blur3x3, RejectsBadSizes) {
  std::vector<float> image(12);
  EXPECT_THROW(Blur3x3(image, 2, 2), std::invalid_argument);
}

TEST(BorderOverhead, TheArticlesFigures) {
  // 2D: border over interior pixels, 56% / 27% / 13%.
  EXPECT_NEAR(BorderPerInterior(8, 8), 36.0 / 64, 1e-12);
  EXPECT_NEAR(BorderPerInterior(16, 16), 68.0 / 256, 1e-12);
  EXPECT_NEAR(BorderPerInterior(32, 32), 132.0 / 1024, 1e-12);
  // 3D: border over all loaded voxels, 70% / 48%; over the interior they are 237% and 95%.
  EXPECT_NEAR(BorderPerLoaded(4, 4, 4), 152.0 / 216, 1e-12);
  EXPECT_NEAR(BorderPerLoaded(8, 8, 8), 488.0 / 1000, 1e-12);
  EXPECT_NEAR(BorderPerInterior(4, 4, 4), 152.0 / 64, 1e-12);
}

}  // namespace
}  // namespace csbench::neighborhood
