#include "kernels/ceiling/reference.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace csbench::ceiling {
namespace {

TEST(RoundToHalf, NearestFloat16TiesToEven) {
  EXPECT_EQ(RoundToHalf(1.0), 1.0f);
  // float16 has 11 significant bits: 2^-10 apart at 1.
  EXPECT_EQ(RoundToHalf(1.0 + std::ldexp(1.0, -11)), 1.0f);                         // a tie: to even
  EXPECT_EQ(RoundToHalf(1.0 + 3 * std::ldexp(1.0, -11)), 1.0f + std::ldexp(1.0f, -9));  // a tie: to even
  EXPECT_EQ(RoundToHalf(1.0 + 0.6 * std::ldexp(1.0, -10)), 1.0f + std::ldexp(1.0f, -10));
  EXPECT_EQ(RoundToHalf(-2.3), -2.30078125f);
  // Subnormal: multiples of 2^-24.
  EXPECT_EQ(RoundToHalf(3.4 * std::ldexp(1.0, -24)), 3 * std::ldexp(1.0f, -24));
  EXPECT_EQ(RoundToHalf(0.0), 0.0f);
}

TEST(PeakResults, FollowTheChains) {
  // One trip is 16 steps of x = x a + b on each of 16 chains: the float chain by hand.
  float x = FloatStart(5, 3);
  for (int i = 0; i < 16; ++i) x = std::fma(x, kA, kB);
  float sum = 0;
  for (uint32_t c = 0; c < 4; ++c) {
    float quad[4];
    for (uint32_t k = 0; k < 4; ++k) {
      quad[k] = FloatStart(5, 4 * c + k);
      for (int i = 0; i < 16; ++i) quad[k] = std::fma(quad[k], kA, kB);
    }
    sum += (quad[0] + quad[1]) + (quad[2] + quad[3]);
  }
  EXPECT_EQ(FloatPeakResult(5, 1), sum);
  EXPECT_NE(FloatPeakResult(5, 1), FloatPeakResult(5, 2));
  EXPECT_NE(FloatPeakResult(5, 1), FloatPeakResult(6, 1));
  // The chains head for b / (1 - a) = 0.5 each: 16 chains sum to about 8 after many trips.
  EXPECT_NEAR(FloatPeakResult(700, 400), 8.0f, 1e-3);
  // Float16 chains stay within float16's rounding of the float ones.
  EXPECT_NEAR(HalfPeakResult(700, 16), FloatPeakResult(700, 16), 0.05);
  EXPECT_NE(HalfPeakResult(700, 16), FloatPeakResult(700, 16));
  // Integers: the XOR of 16 wrap-around chains, by hand for one trip.
  uint32_t folded = 0;
  for (uint32_t c = 0; c < 16; ++c) {
    uint32_t v = UintStart(9, c);
    for (int i = 0; i < 16; ++i) v = v * kIntA + kIntB;
    folded ^= v;
  }
  EXPECT_EQ(UintPeakResult(9, 1), folded);
}

TEST(ShuffleResult, SwapsWithinGroupsOfFour) {
  // Masks 1 and 2 carry each lane's words around its group of four: lanes of one group end
  // with different results, and lane 4 starts a group of its own.
  EXPECT_NE(ShuffleResult(0, 1), ShuffleResult(1, 1));
  EXPECT_NE(ShuffleResult(4, 1), ShuffleResult(0, 1));
  EXPECT_EQ(ShuffleResult(0, 1), ShuffleResult(0, 1));
}

TEST(SharedResult, DependsOnTheLaneWithin64AndTheTrips) {
  EXPECT_EQ(SharedResult(3, 16), SharedResult(67, 16));  // lanes 64 apart read the same words
  EXPECT_NE(SharedResult(3, 16), SharedResult(4, 16));
  EXPECT_NE(SharedResult(3, 16), SharedResult(3, 15));
}

}  // namespace
}  // namespace csbench::ceiling
