// Every barriers variant (barriers per element, work) x group size on small odd domains against the plain loop, on the
// Vulkan device with validation on.
#include "bench/barriers.hpp"

#include <gtest/gtest.h>

#include <set>

#include "harness/context.hpp"
#include "tests/bench/vulkan_environment.hpp"

namespace csbench::barriers {
namespace {

struct Case {
  const Variant* variant;
  uint32_t workgroup;
  uint32_t count;
};

std::vector<Case> Cases() {
  std::vector<Case> cases;
  // 10007: a partial last group at both sizes; 37: fewer elements than one group.
  for (uint32_t count : {10007u, 37u}) {
    for (const Variant& v : Variants()) {
      for (uint32_t wg : v.workgroups) cases.push_back({&v, wg, count});
    }
  }
  return cases;
}

class BarriersVariant : public ::testing::TestWithParam<Case> {};

TEST_P(BarriersVariant, MatchesTheReference) {
  Context* context = testing::SharedContext();
  if (context == nullptr) GTEST_SKIP() << "no Vulkan device";
  const Case& c = GetParam();
  static Inputs inputs;
  GpuCase gpu(*context, *c.variant, c.workgroup, c.count, inputs);
  Comparison check = gpu.Check();
  EXPECT_TRUE(check.passed) << check.message;
  testing::ExpectNoNewValidationMessages();
}

INSTANTIATE_TEST_SUITE_P(AllVariants, BarriersVariant, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           const Case& c = info.param;
                           return c.variant->name + "_wg" + std::to_string(c.workgroup) + "_domain" +
                                  std::to_string(c.count);
                         });

TEST(BarriersTable, OneTwoAndSixteenBarriersAtBothSizesForEveryKindOfWork) {
  std::set<std::pair<uint32_t, uint32_t>> rounds_and_work;
  for (const Variant& v : Variants()) {
    EXPECT_EQ(v.workgroups, (std::vector<uint32_t>{64, 1024})) << v.name;
    rounds_and_work.insert({v.rounds, static_cast<uint32_t>(v.work)});
  }
  EXPECT_EQ(rounds_and_work.size(), 9u);
}

}  // namespace
}  // namespace csbench::barriers
