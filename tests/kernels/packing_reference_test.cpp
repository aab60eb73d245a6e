#include "kernels/packing/reference.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace csbench::packing {
namespace {

TEST(Half, KnownEncodings) {
  EXPECT_EQ(FloatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(FloatToHalf(-2.0f), 0xc000);
  EXPECT_EQ(FloatToHalf(0.5f), 0x3800);
  EXPECT_EQ(FloatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(FloatToHalf(1e6f), 0x7c00);              // overflow: infinity
  EXPECT_EQ(FloatToHalf(std::ldexp(1.0f, -24)), 0x0001);  // smallest subnormal
  EXPECT_EQ(HalfToFloat(0x3555), 0.333251953125f);
  EXPECT_TRUE(std::isnan(HalfToFloat(0x7fc0)));
}

TEST(Half, RoundsToNearestEven) {
  // 1 + 2^-11 lies halfway between 1 and 1 + 2^-10: ties go to the even mantissa (1).
  EXPECT_EQ(FloatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3c00);
  EXPECT_EQ(FloatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);
  EXPECT_EQ(FloatToHalf(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)), 0x3c01);
}

TEST(Half, RoundTripOfUnitIntervalIsWithinHalfAnUlp) {
  for (float v = 0.001f; v < 1.0f; v += 0.0137f) {
    float back = HalfToFloat(FloatToHalf(v));
    EXPECT_LE(std::abs(back - v), v * std::ldexp(1.0f, -11)) << v;
  }
}

}  // namespace
}  // namespace csbench::packing
