// The clock probe's kernel on the test device (lavapipe without a GPU): it compiles, sizes
// itself and times a run; RaiseClocks and WarmUp leave a CPU device alone; a kept record sizes
// the probe and is written back by its raise.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "harness/measure/measure.hpp"
#include "harness/vulkan/clock_keep.hpp"
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

TEST(ClockProbe, TakesItsSizeFromTheKeptRecordAndWritesItsRaiseBack) {
  Context* context = testing::SharedContext();
  if (context == nullptr) return;
  const std::filesystem::path folder = std::filesystem::temp_directory_path() / "csbench-clock-probe-keep";
  std::filesystem::remove_all(folder);
  const ClockKeep keep{.path = (folder / "clock-key.tsv").string(), .key = {.device_key = "key"}};
  // A best no device reaches, missed once before: this raise ends at the cap (2 s) and, the
  // second miss in a row, keeps its own best instead.
  ASSERT_TRUE(WriteKeptClock(keep, {.iterations = 512, .best_seconds = 1e-12, .misses = 1}));
  SetClockKeep(keep);
  {
    ClockProbe probe(*context);
    EXPECT_EQ(probe.iterations(), 512u);  // not sized again: the kept best is of 512
    EXPECT_GT(probe.Raise(), 0u);
  }
  SetClockKeep({});
  const std::optional<KeptClock> kept = ReadKeptClock(keep, 256, 1u << 22);
  ASSERT_TRUE(kept);
  EXPECT_EQ(kept->iterations, 512u);
  EXPECT_GT(kept->best_seconds, 1e-9);
  EXPECT_EQ(kept->misses, 0u);
  std::filesystem::remove_all(folder);
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
