// Every neighborhood3d variant x workgroup on small odd-sized volumes against the plain loop, on
// the Vulkan device with validation (synchronization validation included) on.
#include "bench/neighborhood3d.hpp"

#include <gtest/gtest.h>

#include "harness/context.hpp"
#include "tests/bench/vulkan_environment.hpp"

namespace csbench::neighborhood3d {
namespace {

struct Case {
  const Variant* variant;
  Extent3 workgroup;
  Extent3 domain;
};

std::vector<Case> Cases() {
  std::vector<Case> cases;
  // 19x11x7: partial groups on every face for both group sizes; 3x5x2: smaller than one group.
  for (Extent3 domain : {Extent3{19, 11, 7}, Extent3{3, 5, 2}}) {
    for (const Variant& v : Variants()) {
      for (Extent3 wg : v.workgroups) cases.push_back({&v, wg, domain});
    }
  }
  return cases;
}

class Neighborhood3dVariant : public ::testing::TestWithParam<Case> {};

TEST_P(Neighborhood3dVariant, MatchesTheReference) {
  Context* context = testing::SharedContext();
  if (context == nullptr) GTEST_SKIP() << "no Vulkan device";
  const Case& c = GetParam();
  static neighborhood::Inputs inputs(&ThisFamily());
  neighborhood::GpuCase gpu(*context, *c.variant, c.workgroup, c.domain, inputs);
  Comparison check = gpu.Check();
  EXPECT_TRUE(check.passed) << check.message;
  testing::ExpectNoNewValidationMessages();
}

INSTANTIATE_TEST_SUITE_P(AllVariants, Neighborhood3dVariant, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           const Case& c = info.param;
                           return c.variant->name + "_" + neighborhood::Sized3("wg", c.workgroup) + "_" +
                                  neighborhood::Sized3("domain", c.domain);
                         });

TEST(Neighborhood3dTable, NamesFollowTheIssue) {
  EXPECT_EQ(neighborhood::BenchmarkName(ThisFamily(), Variants().at(0), {4, 4, 4}, {128, 128, 128}),
            "neighborhood3d/direct/wg4x4x4/domain128x128x128");
}

}  // namespace
}  // namespace csbench::neighborhood3d
