#include "kernels/uniform_data/reference.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace csbench::uniform_data {
namespace {

TEST(Transform, EachGroupUsesItsMatrix) {
  // Two groups of one element: identity, then a translation by (1, 2, 3) (last column).
  std::vector<float> matrices{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1,
                              1, 0, 0, 1, 0, 1, 0, 2, 0, 0, 1, 3, 0, 0, 0, 1};
  std::vector<float> positions{5, 6, 7, 1, 5, 6, 7, 1};
  auto out = Transform(positions, matrices, 4, 1);
  EXPECT_EQ(out, (std::vector<float>{5, 6, 7, 1, 6, 8, 10, 1}));
}

TEST(Transform, AffineImpliesWIsOne) {
  // The 4x3 layout drops the last row and w: the translation still applies.
  std::vector<float> matrices{1, 0, 0, 1, 0, 1, 0, 2, 0, 0, 1, 3};
  std::vector<float> positions{5, 6, 7, 0, 0, 0};
  auto out = Transform(positions, matrices, 3, 2);
  EXPECT_EQ(out, (std::vector<float>{6, 8, 10, 1, 2, 3}));
}

TEST(Transform, RejectsBadSizes) {
  std::vector<float> matrices(16), positions(8);
  EXPECT_THROW(Transform(positions, matrices, 2, 1), std::invalid_argument);
  EXPECT_THROW(Transform(positions, matrices, 4, 1), std::invalid_argument);  // two matrices needed
}

}  // namespace
}  // namespace csbench::uniform_data
