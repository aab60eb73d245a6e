// Every vector_width element width x group size on small odd domains against the plain loop, on the Vulkan
// device with validation on.
#include "bench/vector_width.hpp"

#include <gtest/gtest.h>

#include <set>

#include "harness/context.hpp"
#include "tests/bench/vulkan_environment.hpp"

namespace csbench::vector_width {
namespace {

struct Case {
  const Variant* variant;
  uint32_t workgroup;
  uint32_t count;
};

std::vector<Case> Cases() {
  std::vector<Case> cases;
  // 100004 floats: 25001 vec4 (a prime), so the last group is partial at every width; 36: fewer
  // elements than one group.
  for (uint32_t count : {100004u, 36u}) {
    for (const Variant& v : Variants()) {
      for (uint32_t wg : v.workgroups) cases.push_back({&v, wg, count});
    }
  }
  return cases;
}

class VectorWidthVariant : public ::testing::TestWithParam<Case> {};

TEST_P(VectorWidthVariant, MatchesTheReference) {
  Context* context = testing::SharedContext();
  if (context == nullptr) GTEST_SKIP() << "no Vulkan device";
  const Case& c = GetParam();
  if (c.workgroup > context->info().max_workgroup_invocations) {
    GTEST_SKIP() << context->info().name << " allows " << context->info().max_workgroup_invocations
                 << " invocations per group";
  }
  static Inputs inputs;
  GpuCase gpu(*context, *c.variant, c.workgroup, c.count, inputs);
  Comparison check = gpu.Check();
  EXPECT_TRUE(check.passed) << check.message;
  testing::ExpectNoNewValidationMessages();
}

INSTANTIATE_TEST_SUITE_P(AllVariants, VectorWidthVariant, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           const Case& c = info.param;
                           return c.variant->name + "_wg" + std::to_string(c.workgroup) + "_domain" +
                                  std::to_string(c.count);
                         });

TEST(VectorWidthTable, WidthsMatchTheirElements) {
  std::set<uint32_t> widths;
  for (const Variant& v : Variants()) {
    widths.insert(v.width);
    bool found = false;
    for (const Define& d : v.defines) {
      if (d.name == "WIDTH") found = d.value == std::to_string(v.width);
    }
    EXPECT_TRUE(found) << v.name;
  }
  EXPECT_EQ(widths, (std::set<uint32_t>{1, 2, 4}));
}

// The widths are compared at each group size, so each needs the same sizes, more than one.
TEST(VectorWidthTable, EveryWidthRunsAtTheSameGroupSizes) {
  const std::vector<uint32_t>& sizes = Variants().front().workgroups;
  EXPECT_GT(sizes.size(), 1u);
  for (const Variant& v : Variants()) EXPECT_EQ(v.workgroups, sizes) << v.name;
}

TEST(VectorWidthCheck, RejectsACountThatIsNotWholeVec4) {
  Context* context = testing::SharedContext();
  if (context == nullptr) GTEST_SKIP() << "no Vulkan device";
  static Inputs inputs;
  EXPECT_THROW(GpuCase(*context, Variants()[0], 64, 102, inputs), std::exception);
}

}  // namespace
}  // namespace csbench::vector_width
