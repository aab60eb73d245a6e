// Every occupancy variant x workgroup against the plain loop on a small domain, on the Vulkan
// device with validation on; the pipeline statistics where the driver exposes them.
#include "bench/occupancy.hpp"

#include <gtest/gtest.h>

#include "harness/context.hpp"
#include "harness/pipeline_stats.hpp"
#include "tests/bench/vulkan_environment.hpp"

namespace csbench::occupancy {
namespace {

struct Case {
  const Variant* variant;
  uint32_t workgroup;
};

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (const Variant& v : Variants()) {
    for (uint32_t wg : v.workgroups) cases.push_back({&v, wg});
  }
  return cases;
}

class OccupancyVariant : public ::testing::TestWithParam<Case> {};

TEST_P(OccupancyVariant, MatchesTheReference) {
  Context* context = testing::SharedContext();
  if (context == nullptr) GTEST_SKIP() << "no Vulkan device";
  const Case& c = GetParam();
  static Inputs inputs;
  // Two 1024-invocation groups: results must not depend on the group size.
  GpuCase gpu(*context, *c.variant, c.workgroup, 2048, inputs);
  Comparison check = gpu.Check();
  EXPECT_TRUE(check.passed) << check.message;
  testing::ExpectNoNewValidationMessages();
}

INSTANTIATE_TEST_SUITE_P(AllVariants, OccupancyVariant, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return info.param.variant->name + "_wg" + std::to_string(info.param.workgroup);
                         });

TEST(OccupancyTable, NamesAndSharedMemory) {
  EXPECT_EQ(BenchmarkName(Variants().at(1), 1024, 1u << 20), "occupancy/live32/wg1024/domain1048576");
  // 32 bytes per invocation: 32 KiB for the article's 1024-invocation group.
  for (const Variant& v : Variants()) EXPECT_EQ(v.workgroups.front() * 32, 32768u) << v.name;
}

TEST(PipelineStatistics, ReportedWhereExposed) {
  Context* context = testing::SharedContext();
  if (context == nullptr) GTEST_SKIP() << "no Vulkan device";
  static Inputs inputs;
  GpuCase gpu(*context, Variants().at(0), 64, 2048, inputs);
  auto stats = PipelineStatistics(*context, gpu.spec());
  if (!context->info().pipeline_executable_info) {
    EXPECT_TRUE(stats.empty());
    GTEST_SKIP() << context->info().name << " does not expose VK_KHR_pipeline_executable_properties";
  }
  EXPECT_FALSE(stats.empty());
  for (const auto& s : stats) std::cout << "  " << s.executable << " / " << s.name << " = " << s.value << "\n";
  testing::ExpectNoNewValidationMessages();
}

}  // namespace
}  // namespace csbench::occupancy
