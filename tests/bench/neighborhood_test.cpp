// Every neighborhood variant x workgroup on small odd-sized images against the plain loop, on the
// Vulkan device with validation (synchronization validation included) on.
#include "bench/neighborhood.hpp"

#include <gtest/gtest.h>

#include <set>

#include "harness/context.hpp"
#include "tests/bench/vulkan_environment.hpp"

namespace csbench::neighborhood {
namespace {

struct Case {
  const Variant* variant;
  Extent3 workgroup;
  Extent3 domain;
};

std::vector<Case> Cases() {
  std::vector<Case> cases;
  // 67x45: partial groups on the right and bottom edges for every group size. 13x7: smaller than
  // one group, so clamped loads meet the image edge on all four sides of one tile.
  for (Extent3 domain : {Extent3{67, 45}, Extent3{13, 7}}) {
    for (const Variant& v : Variants()) {
      for (Extent3 wg : v.workgroups) cases.push_back({&v, wg, domain});
    }
  }
  return cases;
}

class NeighborhoodVariant : public ::testing::TestWithParam<Case> {};

TEST_P(NeighborhoodVariant, MatchesTheReference) {
  Context* context = testing::SharedContext();
  if (context == nullptr) GTEST_SKIP() << "no Vulkan device";
  const Case& c = GetParam();
  static Inputs inputs;
  GpuCase gpu(*context, *c.variant, c.workgroup, c.domain, inputs);
  Comparison check = gpu.Check();
  EXPECT_TRUE(check.passed) << check.message;
  testing::ExpectNoNewValidationMessages();
}

INSTANTIATE_TEST_SUITE_P(AllVariants, NeighborhoodVariant, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           const Case& c = info.param;
                           return c.variant->name + "_" + Sized3("wg", c.workgroup) + "_" + Sized3("domain", c.domain);
                         });

TEST(NeighborhoodTable, NamesFollowTheIssue) {
  const Variant& v = Variants().at(1);
  EXPECT_EQ(BenchmarkName(ThisFamily(), v, {16, 16, 1}, {1920, 1080, 1}),
            "neighborhood/shared_tile/wg16x16/domain1920x1080");
  std::set<std::string> names;
  for (const Variant& variant : Variants()) EXPECT_TRUE(names.insert(variant.name).second) << variant.name;
}

TEST(NeighborhoodCheck, CatchesAWrongKernel) {
  Context* context = testing::SharedContext();
  if (context == nullptr) GTEST_SKIP() << "no Vulkan device";
  Variant wrong{.name = "direct_injected_error", .source = "neighborhood/blur.comp",
                .defines = {{"INJECT_ERROR", "1"}}, .workgroups = {{8, 8}}};
  static Inputs inputs;
  GpuCase gpu(*context, wrong, {8, 8, 1}, {13, 7, 1}, inputs);
  Comparison check = gpu.Check();
  EXPECT_FALSE(check.passed);
  EXPECT_NEAR(check.max_relative_error, 1e-4, 2e-5);
  testing::ExpectNoNewValidationMessages();
}

}  // namespace
}  // namespace csbench::neighborhood
