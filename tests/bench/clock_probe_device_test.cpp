// The clock probe's kernel on the test device (lavapipe without a GPU): it compiles, sizes
// itself and times a run; RaiseClocks and WarmUp leave a CPU device alone.
#include <gtest/gtest.h>

#include "harness/measure/measure.hpp"
#include "harness/vulkan/clock_probe.hpp"
#include "harness/vulkan/context.hpp"
#include "tests/bench/vulkan_environment.hpp"

namespace csbench {
namespace {

TEST(ClockProbe, SizesItselfAndRuns) {
  Context* context = testing::SharedContext();
  if (context == nullptr) return;
  ClockProbe probe(*context);
  EXPECT_GE(probe.iterations(), 256u);
  EXPECT_GT(probe.Run(), 0.0);
  if (context->info().type == "cpu") {
    EXPECT_EQ(RaiseClocks(*context), 0u);
  }
  testing::ExpectNoNewValidationMessages();
}

TEST(WarmUp, RunsNothingOnACpuDevice) {
  Context* context = testing::SharedContext();
  if (context == nullptr || context->info().type != "cpu") GTEST_SKIP() << "needs a CPU Vulkan device";
  uint32_t runs = 0;
  EXPECT_EQ(WarmUp(context, [&runs] { return ++runs, 0.01; }, 0.05, 1.0, 0.0), 0u);
  EXPECT_EQ(runs, 0u);
}

}  // namespace
}  // namespace csbench
