#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "kernels/atomics/reference.hpp"

namespace csbench::atomics {
namespace {

TEST(Sum, WrapsModulo2To32LikeTheGpu) {
  std::vector<uint32_t> values{0xffffffffu, 2u, 5u};
  EXPECT_EQ(Sum(values), 6u);
}

TEST(RandomIntegers, ReproducibleBelow2To16AndNotConstant) {
  auto a = RandomIntegers(1000, 3);
  EXPECT_EQ(a, RandomIntegers(1000, 3));
  EXPECT_NE(a, RandomIntegers(1000, 4));
  uint32_t largest = 0;
  for (uint32_t v : a) largest = std::max(largest, v);
  EXPECT_LT(largest, 1u << 16);
  EXPECT_GT(largest, 1u << 15);
}

TEST(RandomHalves, ReproducibleHalvesOfBothSigns) {
  auto a = RandomHalves(10000, 3);
  EXPECT_EQ(a, RandomHalves(10000, 3));
  EXPECT_NE(a, RandomHalves(10000, 4));
  uint32_t positive = 0;
  for (float v : a) {
    ASSERT_TRUE(v == 0.5f || v == -0.5f) << v;
    positive += v > 0;
  }
  EXPECT_GT(positive, 4500u);
  EXPECT_LT(positive, 5500u);
}

// The float sum is exact up to kMaxExactFloatCount halves even when they all have one sign (the
// largest partial sums any order can reach), and the bound is tight.
TEST(Sum, FloatHalvesAreExactUpToTheBoundAndNotBeyond) {
  std::vector<float> halves(kMaxExactFloatCount, 0.5f);
  EXPECT_EQ(Sum(halves), 0x1.0p23f);
  halves.push_back(0.5f);
  EXPECT_NE(static_cast<double>(Sum(halves)), 0x1.0p23 + 0.5);
}

// Two orders of the family's inputs, the plain loop's and a pairwise tree's (as a shared-memory
// reduction adds), give the same total, equal to the exact one.
TEST(Sum, FloatHalvesDoNotDependOnTheOrder) {
  auto values = RandomHalves(1u << 20, 11);
  std::vector<float> tree = values;
  for (size_t n = tree.size(); n > 1; n /= 2) {
    for (size_t i = 0; i < n / 2; ++i) tree[i] = tree[2 * i] + tree[2 * i + 1];
  }
  double exact = 0;
  for (float v : values) exact += v;
  EXPECT_EQ(Sum(values), tree[0]);
  EXPECT_EQ(static_cast<double>(Sum(values)), exact);
}

}  // namespace
}  // namespace csbench::atomics
