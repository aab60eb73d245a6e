#include <gtest/gtest.h>

#include <vector>

#include "kernels/bank_conflicts/reference.hpp"

namespace csbench::bank_conflicts {
namespace {

TEST(Transpose, SwapsRowsAndColumns) {
  // 3 wide, 2 high -> 2 wide, 3 high.
  std::vector<float> in{1, 2, 3, 4, 5, 6};
  std::vector<float> out(6);
  Transpose(in, 3, 2, out);
  EXPECT_EQ(out, (std::vector<float>{1, 4, 2, 5, 3, 6}));
}

TEST(Transpose, RejectsMismatchedSizes) {
  std::vector<float> in(6), out(5);
  EXPECT_THROW(Transpose(in, 3, 2, out), std::invalid_argument);
}

TEST(StridedSums, ReadsFromLocalIndexTimesStrideAndWraps) {
  std::vector<float> words(kSharedWords);
  for (uint32_t i = 0; i < kSharedWords; ++i) words[i] = static_cast<float>(i);
  std::vector<float> out(6);
  // Workgroup 4, stride 2000, 2 reads: invocation i starts at (i % 4) * 2000 mod 4096.
  StridedSums(words, 4, 2000, 2, out);
  EXPECT_EQ(out[0], 0 + 1);
  EXPECT_EQ(out[1], 2000 + 2001);
  EXPECT_EQ(out[2], 4000 + 4001);
  EXPECT_EQ(out[3], (6000 - 4096) + (6001 - 4096));
  EXPECT_EQ(out[4], out[0]);  // the next group starts over
  EXPECT_EQ(out[5], out[1]);
}

TEST(StridedSums, NeedsTheWholeSharedArray) {
  std::vector<float> words(100), out(1);
  EXPECT_THROW(StridedSums(words, 1, 1, 1, out), std::invalid_argument);
}

}  // namespace
}  // namespace csbench::bank_conflicts
