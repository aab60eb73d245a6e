// Every atomics variant, uint and float, on small odd domains: its sum must equal the plain
// loop's exactly, on the Vulkan device with validation on.
#include "bench/atomics.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <utility>

#include "harness/context.hpp"
#include "kernels/atomics/reference.hpp"
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
  if (c.variant->needs_float_atomic_add() && !context->info().float_atomic_add) {
    GTEST_SKIP() << context->info().name << " has no float atomicAdd (VK_EXT_shader_atomic_float)";
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

TEST(AtomicsTable, OneVariantPerPlaceOfTheAtomicsAndElement) {
  std::set<std::pair<Atomics, Element>> rows;
  std::set<std::string> names;
  for (const Variant& v : Variants()) {
    EXPECT_TRUE(rows.insert({v.atomics, v.element}).second) << v.name;
    EXPECT_TRUE(names.insert(v.name).second) << v.name;
  }
  EXPECT_EQ(rows.size(), 8u);
}

// A float row differs from its uint row in the element alone, so their ratio prices float atomics.
TEST(AtomicsTable, EveryFloatRowMirrorsAUintRow) {
  for (const Variant& f : Variants()) {
    if (f.element != Element::kFloat) continue;
    auto uint_row = std::find_if(Variants().begin(), Variants().end(),
                                 [&](const Variant& u) { return f.name == u.name + "_float"; });
    ASSERT_NE(uint_row, Variants().end()) << f.name;
    EXPECT_EQ(uint_row->element, Element::kUint);
    EXPECT_EQ(uint_row->atomics, f.atomics) << f.name;
    EXPECT_EQ(uint_row->source, f.source) << f.name;
    EXPECT_EQ(uint_row->workgroups, f.workgroups) << f.name;
    EXPECT_EQ(uint_row->needs_subgroup_arithmetic, f.needs_subgroup_arithmetic) << f.name;
    // Only the rows with float atomics need the extension; two_pass_float runs everywhere.
    EXPECT_EQ(f.needs_float_atomic_add(), !f.two_pass()) << f.name;
    EXPECT_FALSE(uint_row->needs_float_atomic_add()) << uint_row->name;
  }
}

TEST(AtomicsInputs, RefuseAFloatCountWhoseSumCouldRound) {
  Inputs inputs;
  EXPECT_THROW(inputs.For(kMaxExactFloatCount + 1, Element::kFloat, nullptr, CacheMode::kWarm), std::exception);
}

}  // namespace
}  // namespace csbench::atomics
