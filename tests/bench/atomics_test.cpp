// Every atomics variant on small odd domains: its sum must equal the plain loop's exactly, on the
// Vulkan device with validation on.
#include "bench/atomics.hpp"

#include <gtest/gtest.h>

#include <set>

#include "harness/context.hpp"
#include "tests/bench/vulkan_environment.hpp"

namespace csbench::atomics {
namespace {

struct Case {
  const Variant* variant;
  uint32_t workgroup;
  uint32_t count;
};

std::vector<Case> Cases() {
  std::vector<Case> cases;
  // 100003: a partial last group; 37: fewer elements than one group.
  for (uint32_t count : {100003u, 37u}) {
    for (const Variant& v : Variants()) {
      for (uint32_t wg : v.workgroups) cases.push_back({&v, wg, count});
    }
  }
  return cases;
}

class AtomicsVariant : public ::testing::TestWithParam<Case> {};

TEST_P(AtomicsVariant, SumMatchesTheReference) {
  Context* context = testing::SharedContext();
  if (context == nullptr) GTEST_SKIP() << "no Vulkan device";
  const Case& c = GetParam();
  if (c.variant->needs_subgroup_arithmetic && !context->info().subgroup_arithmetic) {
    GTEST_SKIP() << context->info().name << " has no subgroup arithmetic";
  }
  static Inputs inputs;
  GpuCase gpu(*context, *c.variant, c.workgroup, c.count, inputs);
  Comparison check = gpu.Check();
  EXPECT_TRUE(check.passed) << check.message;
  testing::ExpectNoNewValidationMessages();
}

INSTANTIATE_TEST_SUITE_P(AllVariants, AtomicsVariant, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           const Case& c = info.param;
                           return c.variant->name + "_wg" + std::to_string(c.workgroup) + "_domain" +
                                  std::to_string(c.count);
                         });

TEST(AtomicsTable, OneVariantPerPlaceOfTheAtomics) {
  std::set<Atomics> places;
  for (const Variant& v : Variants()) EXPECT_TRUE(places.insert(v.atomics).second) << v.name;
  EXPECT_EQ(places.size(), 4u);
}

}  // namespace
}  // namespace csbench::atomics
