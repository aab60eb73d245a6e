// Every reduction variant x workgroup on two small odd-sized domains against the CPU reference,
// on the Vulkan device with validation (synchronization validation included) on.
#include "bench/reduction.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <set>

#include "harness/context.hpp"
#include "tests/bench/vulkan_environment.hpp"

namespace csbench::reduction {
namespace {

struct Case {
  const Variant* variant;
  Extent workgroup;
  Extent domain;
};

std::vector<Case> Cases() {
  std::vector<Case> cases;
  // Odd sizes: partial tiles on both edges, and one domain smaller than a prefetch16 tile.
  for (Extent domain : {Extent{333, 187}, Extent{97, 61}}) {
    for (const Variant& v : Variants()) {
      for (Extent wg : v.workgroups) cases.push_back({&v, wg, domain});
    }
  }
  return cases;
}

class ReductionVariant : public ::testing::TestWithParam<Case> {};

TEST_P(ReductionVariant, MatchesTheReference) {
  Context* context = testing::SharedContext();
  if (context == nullptr) GTEST_SKIP() << "no Vulkan device";
  const Case& c = GetParam();
  if (c.variant->needs_subgroup_arithmetic && !context->info().subgroup_arithmetic) {
    GTEST_SKIP() << context->info().name << " has no subgroup arithmetic";
  }
  static Inputs inputs;
  GpuCase gpu(*context, *c.variant, c.workgroup, c.domain, inputs);
  Comparison check = gpu.Check();
  EXPECT_TRUE(check.passed) << check.message;
  EXPECT_LE(check.max_relative_error, kTolerance);
  testing::ExpectNoNewValidationMessages();
}

INSTANTIATE_TEST_SUITE_P(AllVariants, ReductionVariant, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           const Case& c = info.param;
                           return c.variant->name + "_wg" + std::to_string(c.workgroup.x) + "x" +
                                  std::to_string(c.workgroup.y) + "_domain" + std::to_string(c.domain.x) + "x" +
                                  std::to_string(c.domain.y);
                         });

TEST(ReductionTable, WorkgroupsArePowersOfTwoAndNamesUnique) {
  std::set<std::string> names;
  for (const Variant& v : Variants()) {
    EXPECT_TRUE(names.insert(v.name).second) << v.name;
    EXPECT_FALSE(v.workgroups.empty()) << v.name;
    for (Extent wg : v.workgroups) {
      EXPECT_TRUE(std::has_single_bit(wg.x * wg.y)) << v.name;
      EXPECT_GE(wg.x * wg.y, 16u) << v.name;
      EXPECT_LE(wg.x * wg.y, 1024u) << v.name;
    }
  }
}

TEST(ReductionTable, StudyGeometry) {
  // The 2015 follow-up's shapes: 16x64 invocations fetching 8x2 reduce 1080p to 15x9.
  for (const Variant& v : Variants()) {
    if (v.name != "prefetch16") continue;
    Extent tile{v.workgroups[0].x * v.fetch.x, v.workgroups[0].y * v.fetch.y};
    EXPECT_EQ((1920 + tile.x - 1) / tile.x, 15u);
    EXPECT_EQ((1080 + tile.y - 1) / tile.y, 9u);
  }
}

TEST(ReductionCheck, CatchesAWrongKernel) {
  // The check must be able to fail: an output off by 1e-4 (ten times the tolerance) must not pass.
  Context* context = testing::SharedContext();
  if (context == nullptr) GTEST_SKIP() << "no Vulkan device";
  Variant wrong{.name = "sequential_injected_error", .source = "reduction/tree.comp",
                .defines = {{"INJECT_ERROR", "1"}}, .workgroups = {{8, 8}}};
  static Inputs inputs;
  GpuCase gpu(*context, wrong, {8, 8}, {97, 61}, inputs);
  Comparison check = gpu.Check();
  EXPECT_FALSE(check.passed);
  EXPECT_NEAR(check.max_relative_error, 1e-4, 2e-5);
  testing::ExpectNoNewValidationMessages();
}

}  // namespace
}  // namespace csbench::reduction
