#include "harness/base/naming.hpp"

#include <gtest/gtest.h>

namespace csbench {
namespace {

TEST(Naming, ReductionName) {
  EXPECT_EQ(Name({"reduction", "prefetch4", Sized("wg", {8, 32}), Sized("domain", {1920, 1080})}),
            "reduction/prefetch4/wg8x32/domain1920x1080");
}

TEST(Naming, SimulationName) {
  EXPECT_EQ(Name({"run_simulation", "shared_soa", Sized("workgroup", {32, 16}), Sized("domain", {2048, 1024}),
                  "total512", "image32", "compute"}),
            "run_simulation/shared_soa/workgroup32x16/domain2048x1024/total512/image32/compute");
}

TEST(Naming, EmptyAndSingle) {
  EXPECT_EQ(Name({}), "");
  EXPECT_EQ(Name({"x"}), "x");
}

}  // namespace
}  // namespace csbench

#include "harness/run/reporters.hpp"

namespace csbench {
namespace {

TEST(Naming, ManualTimeSuffixIsDropped) {
  EXPECT_EQ(WithoutTimeSuffix("reduction/sequential/wg8x8/domain640x480/manual_time"),
            "reduction/sequential/wg8x8/domain640x480");
  EXPECT_EQ(WithoutTimeSuffix("reduction/plain_loop/domain640x480"), "reduction/plain_loop/domain640x480");
}

TEST(Naming, RealTimeSuffixIsDropped) {
  EXPECT_EQ(WithoutTimeSuffix("run_simulation/global/workgroup8x8/domain2048x1024/total512/image32/"
                              "compute+download/real_time"),
            "run_simulation/global/workgroup8x8/domain2048x1024/total512/image32/compute+download");
  // Only a trailing suffix goes: a name part that merely contains the word stays.
  EXPECT_EQ(WithoutTimeSuffix("a/real_time_b"), "a/real_time_b");
}

}  // namespace
}  // namespace csbench

#include "harness/vulkan/shader_compiler.hpp"

namespace csbench {
namespace {

TEST(ParseDefines, SpacesCommasAndBareNames) {
  auto d = ParseDefines("SLOWDOWN=256, INJECT_ERROR  A=x=y");
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0], (Define{"SLOWDOWN", "256"}));
  EXPECT_EQ(d[1], (Define{"INJECT_ERROR", "1"}));
  EXPECT_EQ(d[2], (Define{"A", "x=y"}));
  EXPECT_TRUE(ParseDefines("").empty());
}

}  // namespace
}  // namespace csbench
