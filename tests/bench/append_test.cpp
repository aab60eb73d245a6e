// Every append variant at every keep ratio on small odd domains: its count must equal the plain
// loop's, and its kept values the plain loop's (as a multiset, or in order for the scan), on the
// Vulkan device with validation on.
#include "bench/append.hpp"

#include <gtest/gtest.h>

#include <set>

#include "harness/context.hpp"
#include "tests/bench/vulkan_environment.hpp"

namespace csbench::append {
namespace {

struct Case {
  const Variant* variant;
  uint32_t workgroup;
  uint32_t count;
  uint32_t keep_percent;
};

std::vector<Case> Cases() {
  std::vector<Case> cases;
  // 100003: a partial last tile; 37: fewer elements than one group (at 1%, likely none kept).
  for (uint32_t count : {100003u, 37u}) {
    for (const Variant& v : Variants()) {
      for (uint32_t wg : v.workgroups) {
        for (uint32_t keep : KeepPercents()) cases.push_back({&v, wg, count, keep});
      }
    }
  }
  return cases;
}

class AppendVariant : public ::testing::TestWithParam<Case> {};

TEST_P(AppendVariant, KeptValuesMatchTheReference) {
  Context* context = testing::SharedContext();
  if (context == nullptr) GTEST_SKIP() << "no Vulkan device";
  const Case& c = GetParam();
  if (c.variant->needs_subgroup_ballot && !context->info().subgroup_ballot) {
    GTEST_SKIP() << context->info().name << " has no subgroup ballot";
  }
  static Inputs inputs;
  GpuCase gpu(*context, *c.variant, c.workgroup, c.count, c.keep_percent, inputs);
  Comparison check = gpu.Check();
  EXPECT_TRUE(check.passed) << check.message;
  testing::ExpectNoNewValidationMessages();
}

INSTANTIATE_TEST_SUITE_P(AllVariants, AppendVariant, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           const Case& c = info.param;
                           return c.variant->name + "_wg" + std::to_string(c.workgroup) + "_domain" +
                                  std::to_string(c.count) + "_keep" + std::to_string(c.keep_percent);
                         });

TEST(AppendTable, OneVariantPerMethodAndOnlyTheScanOrdered) {
  std::set<Method> methods;
  for (const Variant& v : Variants()) {
    EXPECT_TRUE(methods.insert(v.method).second) << v.name;
    EXPECT_EQ(v.ordered(), v.method == Method::kScan) << v.name;
  }
  EXPECT_EQ(methods.size(), 3u);
}

TEST(AppendNames, CarryTheKeepRatio) {
  EXPECT_EQ(BenchmarkName(Variants()[1], 256, 16u << 20, 50), "append/ballot/wg256/domain16777216/keep50");
}

TEST(AppendInputs, TheRatiosShareOneInputAndKeepAboutTheirFraction) {
  Inputs inputs;
  const Inputs::Domain& data = inputs.For(100003, nullptr, CacheMode::kWarm);
  for (uint32_t keep : KeepPercents()) {
    const double kept = static_cast<double>(inputs.Kept(data, keep).size()) / data.count;
    EXPECT_NEAR(kept, keep / 100.0, 0.01) << keep << "%";
  }
  EXPECT_EQ(&inputs.Kept(data, 50), &inputs.Kept(data, 50));  // made once
}

}  // namespace
}  // namespace csbench::append
