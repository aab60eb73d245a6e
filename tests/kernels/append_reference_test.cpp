#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <utility>
#include <vector>

#include "harness/base/check.hpp"
#include "kernels/append/reference.hpp"
#include "kernels/random.hpp"

namespace csbench::append {
namespace {

TEST(AppendCompact, KeepsTheValuesAboveTheThresholdInOrder) {
  const std::vector<float> values{0.2f, 0.9f, 0.5f, 0.7f, 0.1f, 0.95f};
  EXPECT_EQ(Compact(values, 0.5f), (std::vector<float>{0.9f, 0.7f, 0.95f}));  // 0.5 itself is not above
  EXPECT_TRUE(Compact(values, 0.99f).empty());
  std::vector<float> out(values.size(), -1.0f);
  EXPECT_EQ(Compact(values, 0.0f, out), 6u);
  EXPECT_EQ(out, values);
}

TEST(AppendThreshold, KeepsTheNamedFractionOfUniformValues) {
  std::vector<float> values(1 << 20);
  FillUniform(values, 7);
  for (uint32_t percent : {1u, 50u, 99u}) {
    const double kept = static_cast<double>(Compact(values, Threshold(percent)).size()) / values.size();
    EXPECT_NEAR(kept, percent / 100.0, 0.002) << percent << "%";
  }
}

TEST(AppendKeptMismatch, AcceptsAnyOrderUnlessOrdered) {
  const std::vector<float> want{0.5f, 0.75f, 0.875f};
  const std::vector<float> shuffled{0.875f, 0.5f, 0.75f};
  EXPECT_EQ(KeptMismatch(want, want, true), "");
  EXPECT_EQ(KeptMismatch(shuffled, want, false), "");
  EXPECT_EQ(KeptMismatch(shuffled, want, true), "kept value 0 is 0.875 (0x3f600000), the reference's 0.5 (0x3f000000)");
}

TEST(AppendKeptMismatch, RejectsAValueChangedAndOneDuplicated) {
  const std::vector<float> want{0.5f, 0.75f, 0.875f, 0.9375f};
  // One value changed (0.75 -> 0.625): the sizes agree, the multisets do not.
  EXPECT_EQ(KeptMismatch(std::vector<float>{0.9375f, 0.5f, 0.625f, 0.875f}, want, false),
            "the kept values are not the reference's (as a multiset): 0.75 (0x3f400000) is missing, 0.625 "
            "(0x3f200000) is extra");
  // One value written twice, another never (two lanes got the same slot): the same set of
  // distinct values but one fewer, so comparing sets alone would pass it.
  EXPECT_EQ(KeptMismatch(std::vector<float>{0.875f, 0.5f, 0.9375f, 0.5f}, want, false),
            "the kept values are not the reference's (as a multiset): 0.75 (0x3f400000) is missing, 0.5 "
            "(0x3f000000) is extra");
  EXPECT_EQ(KeptMismatch(std::vector<float>{0.5f, 0.75f, 0.875f}, want, false), "3 values kept, the reference keeps 4");
}

TEST(AppendKeptMismatch, ComparesLargeMultisetsOnEveryBit) {
  // Enough random values that the multiset comparison's sort sees every byte of the patterns.
  std::vector<float> want(100003);
  FillUniform(want, 11);
  std::vector<float> got(want.rbegin(), want.rend());
  std::swap(got[5], got[70000]);
  EXPECT_EQ(KeptMismatch(got, want, false), "");
  // The lowest bit of one value flipped: missing and extra, whichever byte the sort looks at.
  got[123] = std::bit_cast<float>(std::bit_cast<uint32_t>(got[123]) ^ 1u);
  EXPECT_NE(KeptMismatch(got, want, false), "");
}

TEST(AppendKeptMismatch, APoisonedSlotNeverMatches) {
  const float poison = std::bit_cast<float>(kPoison);
  ASSERT_TRUE(std::isnan(poison));
  const std::vector<float> want{0.5f, 0.75f};
  EXPECT_NE(KeptMismatch(std::vector<float>{0.75f, poison}, want, false), "");
  EXPECT_NE(KeptMismatch(std::vector<float>{0.5f, poison}, want, true), "");
}

}  // namespace
}  // namespace csbench::append
