// Every bank_conflicts variant on small odd domains against the plain loop, on the Vulkan device
// with validation on.
#include "bench/bank_conflicts.hpp"

#include <gtest/gtest.h>

#include <set>

#include "harness/context.hpp"
#include "tests/bench/vulkan_environment.hpp"

namespace csbench::bank_conflicts {
namespace {

struct Case {
  const Variant* variant;
  Extent workgroup;
  Extent domain;
};

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (const Variant& v : Variants()) {
    for (Extent wg : v.workgroups) {
      if (v.stride == 0) {
        // Partial tiles on both edges, and a matrix smaller than one tile.
        cases.push_back({&v, wg, {333, 187}});
        cases.push_back({&v, wg, {5, 3}});
      } else {
        cases.push_back({&v, wg, {1001, 1}});  // a partial last group
      }
    }
  }
  return cases;
}

class BankConflictsVariant : public ::testing::TestWithParam<Case> {};

TEST_P(BankConflictsVariant, MatchesTheReference) {
  Context* context = testing::SharedContext();
  if (context == nullptr) GTEST_SKIP() << "no Vulkan device";
  const Case& c = GetParam();
  static Inputs inputs;
  GpuCase gpu(*context, *c.variant, c.workgroup, c.domain, inputs);
  Comparison check = gpu.Check();
  EXPECT_TRUE(check.passed) << check.message;
  testing::ExpectNoNewValidationMessages();
}

INSTANTIATE_TEST_SUITE_P(AllVariants, BankConflictsVariant, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           const Case& c = info.param;
                           return c.variant->name + "_wg" + std::to_string(c.workgroup.x) + "x" +
                                  std::to_string(c.workgroup.y) + "_domain" + std::to_string(c.domain.x) + "x" +
                                  std::to_string(c.domain.y);
                         });

TEST(BankConflictsTable, StridesDoubleFrom1To32AndTheTileIsPaddedOnce) {
  std::set<uint32_t> strides;
  std::set<std::string> names;
  for (const Variant& v : Variants()) {
    EXPECT_TRUE(names.insert(v.name).second) << v.name;
    if (v.stride != 0) strides.insert(v.stride);
  }
  EXPECT_EQ(strides, (std::set<uint32_t>{1, 2, 4, 8, 16, 32}));
  EXPECT_TRUE(names.count("transpose_tile32x32"));
  EXPECT_TRUE(names.count("transpose_tile32x33"));
}

}  // namespace
}  // namespace csbench::bank_conflicts
