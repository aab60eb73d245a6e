// The rule that decides when an idled GPU is back at its clocks, on fake probes.
#include "harness/vulkan/clock_probe.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <vector>

namespace csbench {
namespace {

// A probe whose runs take the given times in turn (the last one repeats).
std::function<double()> Probe(std::vector<double> seconds) {
  auto i = std::make_shared<size_t>(0);
  return [seconds, i] { return seconds[std::min((*i)++, seconds.size() - 1)]; };
}

TEST(RaiseClocks, FirstRaiseOutlastsAPlateauAndRecordsTheBest) {
  // 2.3x slow for three runs, 0.69 s (a clock step that a 0.2 s warm-up takes for the top), then
  // at full speed. The first raise runs its whole second and records the fast time.
  ClockRecord record;
  std::vector<double> runs(3, 0.23);
  runs.push_back(0.1);
  EXPECT_EQ(RaiseClocks(Probe(runs), record, 1.0, 1.0), 7u);  // 3 x 0.23 + 4 x 0.1 > 1 s, flat
  EXPECT_DOUBLE_EQ(record.best_seconds, 0.1);
}

TEST(RaiseClocks, LaterRaisesStopAtTheRecord) {
  ClockRecord record{.best_seconds = 0.01};
  // At the clocks at once: one run.
  EXPECT_EQ(RaiseClocks(Probe({0.0102}), record), 1u);
  // A plateau at 2.3x for 40 runs, then the clocks: every plateau run goes on.
  std::vector<double> runs(40, 0.023);
  runs.push_back(0.0101);
  EXPECT_EQ(RaiseClocks(Probe(runs), record), 41u);
  EXPECT_DOUBLE_EQ(record.best_seconds, 0.01);  // within tolerance: the record stays
  // A run that beats the record lowers it.
  EXPECT_EQ(RaiseClocks(Probe({0.02, 0.008}), record), 2u);
  EXPECT_DOUBLE_EQ(record.best_seconds, 0.008);
}

TEST(RaiseClocks, TwoCappedRaisesInARowLowerTheRecord) {
  // A device that stays 56% slower (throttled): each raise ends at the cap (1/8 s here: eight
  // runs); after the second, its best is the record and the next raise takes one run.
  ClockRecord record{.best_seconds = 0.01};
  EXPECT_EQ(RaiseClocks(Probe({1.0 / 64}), record, 1.0, 1.0 / 8), 8u);
  EXPECT_DOUBLE_EQ(record.best_seconds, 0.01);
  EXPECT_EQ(record.capped, 1u);
  EXPECT_EQ(RaiseClocks(Probe({1.0 / 64}), record, 1.0, 1.0 / 8), 8u);
  EXPECT_DOUBLE_EQ(record.best_seconds, 1.0 / 64);
  EXPECT_EQ(RaiseClocks(Probe({1.0 / 64}), record, 1.0, 1.0 / 8), 1u);
}

TEST(RaiseClocks, AReachedRecordResetsTheCapCount) {
  ClockRecord record{.best_seconds = 0.01};
  RaiseClocks(Probe({1.0 / 64}), record, 1.0, 1.0 / 8);
  EXPECT_EQ(record.capped, 1u);
  RaiseClocks(Probe({0.01}), record, 1.0, 1.0 / 8);
  EXPECT_EQ(record.capped, 0u);
  RaiseClocks(Probe({1.0 / 64}), record, 1.0, 1.0 / 8);
  EXPECT_DOUBLE_EQ(record.best_seconds, 0.01);  // one capped raise alone keeps the record
}

}  // namespace
}  // namespace csbench
