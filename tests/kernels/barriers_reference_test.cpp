#include <gtest/gtest.h>

#include <vector>

#include "kernels/barriers/reference.hpp"

namespace csbench::barriers {
namespace {

TEST(Exchange, OneRoundAveragesWithTheNextLaneAndWrapsInTheGroup) {
  std::vector<float> in{1, 3, 5, 7, 9};
  std::vector<float> out(5);
  // Groups of 2: {1, 3}, {5, 7}, {9, 0 past the end}.
  Exchange(in, 2, 1, Work::kNone, out);
  EXPECT_EQ(out, (std::vector<float>{2, 2, 6, 6, 4.5f}));
}

TEST(Exchange, RoundsRepeat) {
  std::vector<float> in{0, 4, 0, 0};
  std::vector<float> out(4);
  Exchange(in, 4, 2, Work::kNone, out);
  // After one round {2, 2, 0, 0}; after two {2, 1, 0, 1}.
  EXPECT_EQ(out, (std::vector<float>{2, 1, 0, 1}));
}

TEST(Exchange, UnevenWorkDiffersByLaneEvenWorkDoesNot) {
  std::vector<float> in(64, 0.0f);
  std::vector<float> even(64), uneven(64);
  Exchange(in, 64, 1, Work::kEven, even);
  Exchange(in, 64, 1, Work::kUneven, uneven);
  EXPECT_NE(even, uneven);
  EXPECT_GT(even[0], 0.0f);  // the work is folded into the result
}

TEST(Exchange, RejectsBadSizes) {
  std::vector<float> in(4), out(3);
  EXPECT_THROW(Exchange(in, 4, 1, Work::kNone, out), std::invalid_argument);
  EXPECT_THROW(Exchange(in, 0, 1, Work::kNone, in), std::invalid_argument);
}

}  // namespace
}  // namespace csbench::barriers
