#include <gtest/gtest.h>

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

}  // namespace
}  // namespace csbench::atomics
