#include <gtest/gtest.h>

#include "kernels/group_size/reference.hpp"

namespace csbench::group_size {
namespace {

TEST(ScaleAdd, ScalesThenAdds) {
  std::vector<float> in{0.0f, 1.0f, -2.0f, 0.5f};
  std::vector<float> out(4);
  ScaleAdd(in, 1.5f, 0.25f, out);
  EXPECT_FLOAT_EQ(out[0], 0.25f);
  EXPECT_FLOAT_EQ(out[1], 1.75f);
  EXPECT_FLOAT_EQ(out[2], -2.75f);
  EXPECT_FLOAT_EQ(out[3], 1.0f);
}

TEST(ScaleAdd, RejectsMismatchedSizes) {
  std::vector<float> in(3), out(2);
  EXPECT_THROW(ScaleAdd(in, 1, 0, out), std::invalid_argument);
}

TEST(RandomFloats, ReproducibleInUnitIntervalAndNotConstant) {
  auto a = RandomFloats(1000, 7);
  EXPECT_EQ(a, RandomFloats(1000, 7));
  EXPECT_NE(a, RandomFloats(1000, 8));
  for (float v : a) {
    EXPECT_GE(v, 0.0f);
    EXPECT_LT(v, 1.0f);
  }
}

}  // namespace
}  // namespace csbench::group_size
