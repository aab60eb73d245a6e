// Every group_size variant x group size on small odd domains against the plain loop, on the Vulkan
// device with validation on.
#include "bench/group_size.hpp"

#include <gtest/gtest.h>

#include <set>

#include "harness/context.hpp"
#include "tests/bench/vulkan_environment.hpp"

namespace csbench::group_size {
namespace {

struct Case {
  const Variant* variant;
  uint32_t workgroup;
  uint32_t count;
};

std::vector<Case> Cases() {
  std::vector<Case> cases;
  // 100003: a prime, so the last group is partial at every size, and at one thread per group it
  // needs more than 65535 groups: the grid-stride loop covers the rest.
  for (uint32_t count : {100003u, 37u}) {
    for (const Variant& v : Variants()) {
      for (uint32_t wg : v.workgroups) cases.push_back({&v, wg, count});
    }
  }
  return cases;
}

class GroupSizeVariant : public ::testing::TestWithParam<Case> {};

TEST_P(GroupSizeVariant, MatchesTheReference) {
  Context* context = testing::SharedContext();
  if (context == nullptr) GTEST_SKIP() << "no Vulkan device";
  const Case& c = GetParam();
  static Inputs inputs;
  GpuCase gpu(*context, *c.variant, c.workgroup, c.count, inputs);
  Comparison check = gpu.Check();
  EXPECT_TRUE(check.passed) << check.message;
  testing::ExpectNoNewValidationMessages();
}

INSTANTIATE_TEST_SUITE_P(AllVariants, GroupSizeVariant, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           const Case& c = info.param;
                           return c.variant->name + "_wg" + std::to_string(c.workgroup) + "_domain" +
                                  std::to_string(c.count);
                         });

TEST(GroupSizeTable, CoversTheTalksSizes) {
  std::set<uint32_t> sizes;
  for (const Variant& v : Variants()) sizes.insert(v.workgroups.begin(), v.workgroups.end());
  EXPECT_EQ(sizes, (std::set<uint32_t>{1, 16, 32, 64, 128, 256, 512, 1024}));
}

}  // namespace
}  // namespace csbench::group_size
