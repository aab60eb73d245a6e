#include "harness/base/half.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace csbench {
namespace {

TEST(Half, KnownValues) {
  EXPECT_EQ(FloatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(FloatToHalf(-2.0f), 0xc000);
  EXPECT_EQ(FloatToHalf(65504.0f), 0x7bff);     // the largest half
  EXPECT_EQ(FloatToHalf(65520.0f), 0x7c00);     // rounds past it: infinity
  EXPECT_EQ(FloatToHalf(0x1.0p-24f), 0x0001);   // the smallest subnormal
  EXPECT_EQ(FloatToHalf(0x1.0p-26f), 0x0000);   // below half of it: zero
  EXPECT_EQ(FloatToHalf(0.1f), 0x2e66);
  // Near 1 a half's step is 2^-10: a tie rounds to the even neighbour, more than half a step up.
  EXPECT_EQ(FloatToHalf(1.0f + 0x1.0p-11f), 0x3c00);
  EXPECT_EQ(FloatToHalf(1.0f + 0x1.8p-11f), 0x3c01);
  EXPECT_EQ(FloatToHalf(1.0f + 0x1.8p-10f), 0x3c02);
  EXPECT_TRUE(std::isnan(HalfToFloat(FloatToHalf(std::numeric_limits<float>::quiet_NaN()))));
  EXPECT_EQ(HalfToFloat(0x3555), 0x1.554p-2f);
  EXPECT_EQ(HalfToFloat(0x8001), -0x1.0p-24f);
}

TEST(Half, EveryHalfSurvivesTheRoundTrip) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const float f = HalfToFloat(static_cast<uint16_t>(h));
    if (std::isnan(f)) continue;
    ASSERT_EQ(FloatToHalf(f), h) << std::hex << h;
  }
}

}  // namespace
}  // namespace csbench
