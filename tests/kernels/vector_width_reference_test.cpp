#include <gtest/gtest.h>

#include <vector>

#include "kernels/vector_width/reference.hpp"

namespace csbench::vector_width {
namespace {

TEST(Scale, MultipliesEveryElement) {
  std::vector<float> in{0.0f, 1.0f, -2.0f, 0.5f, 3.0f};
  std::vector<float> out(5);
  Scale(in, 1.5f, out);
  EXPECT_EQ(out, (std::vector<float>{0.0f, 1.5f, -3.0f, 0.75f, 4.5f}));
}

TEST(Scale, RejectsMismatchedSizes) {
  std::vector<float> in(3), out(4);
  EXPECT_THROW(Scale(in, 1, out), std::invalid_argument);
}

}  // namespace
}  // namespace csbench::vector_width
