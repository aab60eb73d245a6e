#include "kernels/reduction/reference.hpp"

#include <gtest/gtest.h>

namespace csbench::reduction {
namespace {

// A pixel whose luminance is exactly `l` (grey: r = g = b, weights summing to 1).
void Grey(std::vector<float>& image, uint32_t width, uint32_t x, uint32_t y, float l) {
  float* p = image.data() + (size_t{y} * width + x) * 4;
  p[0] = p[1] = p[2] = l;
  p[3] = 123.0f;  // alpha must not count
}

TEST(TileLuminance, WeightsAreRec709) {
  std::vector<float> image{1.0f, 0.0f, 0.0f, 1.0f, 0.0f, 1.0f, 0.0f, 1.0f, 0.0f, 0.0f, 1.0f, 1.0f};
  auto out = TileLuminance(image, 3, 1, 1, 1);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_FLOAT_EQ(out[0], 0.2125f);
  EXPECT_FLOAT_EQ(out[1], 0.7154f);
  EXPECT_FLOAT_EQ(out[2], 0.0721f);
}

TEST(TileLuminance, EdgeTilesAverageOverPixelsInside) {
  // 3x3 image, 2x2 tiles: tiles of 4, 2, 2 and 1 pixels.
  const uint32_t w = 3, h = 3;
  std::vector<float> image(w * h * 4);
  float value = 0.0f;
  for (uint32_t y = 0; y < h; ++y) {
    for (uint32_t x = 0; x < w; ++x) Grey(image, w, x, y, value += 1.0f);  // 1..9
  }
  auto out = TileLuminance(image, w, h, 2, 2);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_NEAR(out[0], (1 + 2 + 4 + 5) / 4.0, 1e-6);
  EXPECT_NEAR(out[1], (3 + 6) / 2.0, 1e-6);
  EXPECT_NEAR(out[2], (7 + 8) / 2.0, 1e-6);
  EXPECT_NEAR(out[3], 9.0, 1e-6);
}

TEST(TileLuminance, StudyGeometry1080pTo120x68) {
  auto image = RandomImage(1920, 1080, 1);
  EXPECT_EQ(TileLuminance(image, 1920, 1080, 16, 16).size(), 120u * 68u);
  EXPECT_EQ(TileLuminance(image, 1920, 1080, 128, 128).size(), 15u * 9u);
}

TEST(TileLuminance, RejectsBadSizes) {
  std::vector<float> image(16);
  EXPECT_THROW(TileLuminance(image, 3, 1, 1, 1), std::invalid_argument);
  EXPECT_THROW(TileLuminance(image, 2, 2, 0, 1), std::invalid_argument);
}

TEST(RandomImage, ReproducibleInRangeAndNotConstant) {
  auto a = RandomImage(64, 8, 7);
  auto b = RandomImage(64, 8, 7);
  auto c = RandomImage(64, 8, 8);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  double sum = 0;
  for (float v : a) {
    ASSERT_GE(v, 0.0f);
    ASSERT_LT(v, 1.0f);
    sum += v;
  }
  EXPECT_NEAR(sum / a.size(), 0.5, 0.05);
}

}  // namespace
}  // namespace csbench::reduction

namespace csbench::reduction {
namespace {

TEST(TotalLuminance, SumsEveryPixelOnce) {
  std::vector<float> image{1.0f, 1.0f, 1.0f, 9.0f, 0.0f, 1.0f, 0.0f, 9.0f};
  EXPECT_NEAR(TotalLuminance(image), 1.0 + 0.7154, 1e-6);
  auto random = RandomImage(16, 16, 3);
  auto tiles = TileLuminance(random, 16, 16, 16, 16);
  EXPECT_NEAR(TotalLuminance(random), tiles[0] * 256.0, 1e-3);
}

}  // namespace
}  // namespace csbench::reduction
