#include "harness/measure.hpp"

#include <gtest/gtest.h>

namespace csbench {
namespace {

TEST(BatchSize, FillsTheTargetTime) {
  EXPECT_EQ(BatchSize(10e-6, 1), 200u);     // 10 us kernels: 200 per 2 ms sample
  EXPECT_EQ(BatchSize(1.0, 1), 1u);         // a one-second kernel is its own sample
  EXPECT_EQ(BatchSize(1e-9, 1), 10000u);    // capped
  EXPECT_EQ(BatchSize(0.0, 1), 10000u);     // a zero reading does not divide by zero
}

TEST(BatchSize, IsAMultipleOfTheRotation) {
  EXPECT_EQ(BatchSize(10e-6, 53), 212u);
  EXPECT_EQ(BatchSize(1.0, 53), 53u);
}

TEST(RotationCopies, FillsTheBudget) {
  EXPECT_EQ(RotationCopies(100, 1000, CacheMode::kCold), 10u);
  EXPECT_EQ(RotationCopies(300, 1000, CacheMode::kCold), 4u);
  EXPECT_EQ(RotationCopies(2000, 1000, CacheMode::kCold), 1u);
  EXPECT_EQ(RotationCopies(100, 1000, CacheMode::kWarm), 1u);
  // 1080p RGBA float: 33 MB, nine copies to cover 256 MiB.
  EXPECT_EQ(RotationCopies(1920ull * 1080 * 16, RotatingInput::kBudgetBytes, CacheMode::kCold), 9u);
}

}  // namespace
}  // namespace csbench
