#include "harness/vulkan/timing.hpp"

#include <gtest/gtest.h>

#include "harness/base/error.hpp"

namespace csbench {
namespace {

TEST(TimestampDeltaNs, AppliesAFractionalPeriodInDouble) {
  // 1000 ticks of 0.52 ns: an integer period would give 0 or 1000.
  EXPECT_DOUBLE_EQ(TimestampDeltaNs(5000, 6000, 64, 0.52), 520.0);
  EXPECT_DOUBLE_EQ(TimestampDeltaNs(0, 3, 64, 83.333), 249.999);
}

TEST(TimestampDeltaNs, MasksToTheValidBits) {
  // Bits above the valid 36 are garbage and must not count.
  const uint64_t garbage = uint64_t{0xabc} << 40;
  EXPECT_DOUBLE_EQ(TimestampDeltaNs(garbage | 100, (garbage ^ (uint64_t{1} << 50)) | 350, 36, 1.0), 250.0);
}

TEST(TimestampDeltaNs, RejectsABackwardsDelta) {
  EXPECT_THROW(TimestampDeltaNs(200, 100, 64, 1.0), Error);
  // A 32-bit counter that wrapped between the stamps reads as backwards.
  EXPECT_THROW(TimestampDeltaNs(0xfffffff0u, 0x10u, 32, 1.0), Error);
}

TEST(TimestampDeltaNs, RejectsAQueueWithoutTimer) {
  EXPECT_THROW(TimestampDeltaNs(1, 2, 0, 1.0), Error);
  EXPECT_THROW(TimestampDeltaNs(1, 2, 64, 0.0), Error);
}

TEST(TimestampDeltaNs, ZeroDeltaIsZero) { EXPECT_DOUBLE_EQ(TimestampDeltaNs(42, 42, 64, 1.5), 0.0); }

}  // namespace
}  // namespace csbench
