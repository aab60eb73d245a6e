// The driver probes on the test device (lavapipe without a GPU): the control run, which has no
// branch between subgroups, passes on every driver, so a finding of the probe is the pattern's.
// Where the probe finds the defect, the kernels that rely on the pattern are skipped, not failed.
#include "harness/vulkan/driver_probes.hpp"

#include <gtest/gtest.h>

#include <iostream>

#include "harness/vulkan/context.hpp"
#include "tests/bench/vulkan_environment.hpp"

namespace csbench {
namespace {

TEST(SubgroupBarrierProbe, ControlPassesEverywhere) {
  Context* context = testing::SharedContext();
  if (context == nullptr) GTEST_SKIP() << "no Vulkan device";
  EXPECT_EQ(ProbeSubgroupBarrier(*context, false), "");
  testing::ExpectNoNewValidationMessages();
}

TEST(SubgroupBarrierProbe, FindingIsKeptAndNamesThePattern) {
  Context* context = testing::SharedContext();
  if (context == nullptr) GTEST_SKIP() << "no Vulkan device";
  const std::string& finding = SubgroupBarrierInBranchDefect(*context);
  // Measured once a process: the same finding, the same object.
  EXPECT_EQ(&SubgroupBarrierInBranchDefect(*context), &finding);
  EXPECT_EQ(ProbeSubgroupBarrier(*context, true), finding);
  if (!finding.empty()) {
    EXPECT_NE(finding.find("subgroupBarrier() in a branch"), std::string::npos) << finding;
  }
  std::cout << "subgroup barrier in a branch on " << context->info().name << " ("
            << context->info().driver_info << "): " << (finding.empty() ? "works" : finding) << "\n";
  testing::ExpectNoNewValidationMessages();
}

}  // namespace
}  // namespace csbench
