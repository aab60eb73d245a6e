#include "harness/base/check.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <span>
#include <string>
#include <vector>

namespace csbench {
namespace {

// `got` against {1, 2, 4} at a relative tolerance of 1e-5.
Comparison AgainstOneTwoFour(std::vector<float> got) { return Compare(got, std::vector<float>{1.0f, 2.0f, 4.0f}, 1e-5); }

TEST(Compare, PassesWithinTolerance) {
  const Comparison c = AgainstOneTwoFour({1.0f, 2.00001f, 4.0f});
  EXPECT_TRUE(c.passed);
  EXPECT_EQ(c.worst_index, 1u);
  EXPECT_NEAR(c.max_relative_error, 5e-6, 1e-6);
}

TEST(Compare, FailsAndNamesTheWorstIndex) {
  const Comparison c = AgainstOneTwoFour({1.0f, 2.0f, 4.4f});
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.worst_index, 2u);
  EXPECT_NE(c.message.find("index 2"), std::string::npos) << c.message;
}

TEST(Compare, PoisonNeverPasses) {
  std::vector<float> want{0.5f, 0.5f};
  std::vector<float> got{0.5f, std::bit_cast<float>(kPoison)};
  ASSERT_TRUE(std::isnan(got[1]));
  Comparison c = Compare(got, want, 1.0);
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.worst_index, 1u);
}

TEST(CompareMade, ComparesWithTheReferenceMadeRangeByRange) {
  // Over three of the comparison's ranges (2^20 values each), the worst in the last one.
  std::vector<float> got(size_t{5} << 19);
  for (size_t i = 0; i < got.size(); ++i) got[i] = static_cast<float>(i % 1000);
  const auto want = [](size_t begin, std::span<float> out) {
    for (size_t k = 0; k < out.size(); ++k) out[k] = static_cast<float>((begin + k) % 1000);
  };
  EXPECT_TRUE(CompareMade(got, want, 0.0).passed);
  got[(size_t{5} << 19) - 3] = 1e6f;
  const Comparison c = CompareMade(got, want, 1e-5);
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.worst_index, (size_t{5} << 19) - 3);
  // The message names the reference's value at the worst index, made again for it.
  const std::string expected_want = fmt::format("want {}", static_cast<float>(((size_t{5} << 19) - 3) % 1000));
  EXPECT_NE(c.message.find(expected_want), std::string::npos) << c.message;
}

TEST(Compare, SizeMismatchFails) {
  std::vector<float> a{1.0f};
  std::vector<float> b{1.0f, 1.0f};
  EXPECT_FALSE(Compare(a, b, 1.0).passed);
}

}  // namespace
}  // namespace csbench

namespace csbench {
namespace {

TEST(CompareWords, NamesTheFirstWrongInvocationAtItsStride) {
  // Two words per invocation: the result, then a word the comparison skips.
  const std::vector<uint32_t> got = {10, 99, 11, 99, 13, 99, 12, 99};
  const Comparison c = CompareWords(got, [](size_t i) { return static_cast<uint32_t>(10 + i); }, 2);
  EXPECT_FALSE(c.passed);
  EXPECT_EQ(c.worst_index, 2u);
  EXPECT_EQ(c.message, "invocation 2 wrote 0x0000000d, expected 0x0000000c");
  EXPECT_TRUE(CompareWords(std::vector<uint32_t>{10, 11, 12}, [](size_t i) { return static_cast<uint32_t>(10 + i); })
                  .passed);
}

}  // namespace
}  // namespace csbench
