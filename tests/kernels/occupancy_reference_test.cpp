#include "kernels/occupancy/reference.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

namespace csbench::occupancy {
namespace {

TEST(LiveValues, NoRoundsAveragesTheStartingValues) {
  // Seeds of 0: value k starts at fract(0.1234 k); the output is their average.
  std::vector<float> seeds(64 * 4, 0.0f);
  auto out = LiveValues(seeds, 64, 8, 0);
  double want = 0;
  for (int k = 0; k < 8; ++k) want += std::fmod(0.1234 * k, 1.0);
  EXPECT_NEAR(out[0], want / 8, 1e-6);
  EXPECT_NEAR(out[63], want / 8, 1e-6);
}

TEST(LiveValues, EqualSeedsGiveEqualResults) {
  // Every invocation starts from the same seed, so partners exchange equal values and every
  // invocation must end with the same result, whatever its partners were.
  std::vector<float> seeds(64 * 4, 0.25f);
  auto out = LiveValues(seeds, 64, 16, 16);
  for (float v : out) EXPECT_FLOAT_EQ(v, out[0]);
}

TEST(LiveValues, PartnersExchange) {
  // One invocation differs: after one round (partner = i ^ 1) its partner's result moves, and
  // an invocation outside the pair does not.
  std::vector<float> seeds(64 * 4, 0.25f);
  auto before = LiveValues(seeds, 64, 8, 1);
  seeds[0] = 0.75f;
  auto after = LiveValues(seeds, 64, 8, 1);
  EXPECT_NE(after[1], before[1]);
  EXPECT_FLOAT_EQ(after[2], before[2]);
}

TEST(LiveValues, RejectsBadSizes) {
  std::vector<float> seeds(64 * 4);
  EXPECT_THROW(LiveValues(seeds, 64, 4, 1), std::invalid_argument);
  EXPECT_THROW(LiveValues(seeds, 32, 8, 1), std::invalid_argument);
}

}  // namespace
}  // namespace csbench::occupancy
