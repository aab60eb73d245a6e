// Every uniform_data variant x workgroup against the plain loop on an odd element count (a
// partial last group), on the Vulkan device with validation on.
#include "bench/uniform_data.hpp"

#include <gtest/gtest.h>

#include "harness/context.hpp"
#include "tests/bench/vulkan_environment.hpp"

namespace csbench::uniform_data {
namespace {

struct Case {
  const Variant* variant;
  uint32_t workgroup;
  uint32_t count;
};

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (uint32_t count : {1000u, 37u}) {
    for (const Variant& v : Variants()) {
      for (uint32_t wg : v.workgroups) cases.push_back({&v, wg, count});
    }
  }
  return cases;
}

class UniformDataVariant : public ::testing::TestWithParam<Case> {};

TEST_P(UniformDataVariant, MatchesTheReference) {
  Context* context = testing::SharedContext();
  if (context == nullptr) GTEST_SKIP() << "no Vulkan device";
  const Case& c = GetParam();
  static Inputs inputs;
  GpuCase gpu(*context, *c.variant, c.workgroup, c.count, inputs);
  Comparison check = gpu.Check();
  EXPECT_TRUE(check.passed) << check.message;
  testing::ExpectNoNewValidationMessages();
}

INSTANTIATE_TEST_SUITE_P(AllVariants, UniformDataVariant, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           const Case& c = info.param;
                           return c.variant->name + "_wg" + std::to_string(c.workgroup) + "_domain" +
                                  std::to_string(c.count);
                         });

TEST(UniformDataTable, Names) {
  EXPECT_EQ(BenchmarkName(Variants().at(1), 256, 1u << 21), "uniform_data/per_lane_4x4/wg256/domain2097152");
}

}  // namespace
}  // namespace csbench::uniform_data
