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

// With a kept best (an earlier process's), the first raise stops once a run is within the
// tolerance of it and the settling time has passed, instead of holding the device a second.
TEST(RaiseClocks, AKeptBestEndsTheFirstRaiseOnceReached) {
  ClockRecord record{.kept = {.iterations = 512, .best_seconds = 0.01}};
  // Three slow runs (the clocks coming up), then at the kept best: settling 0.05 s is five runs.
  std::vector<double> runs(3, 0.03);
  runs.push_back(0.0101);
  EXPECT_EQ(RaiseClocks(Probe(runs), record, 1.0, 1.0, 0.03, 0.05), 9u);
  EXPECT_DOUBLE_EQ(record.best_seconds, 0.01);  // the kept best, not the slower run
  EXPECT_DOUBLE_EQ(record.kept.best_seconds, 0.01);
  EXPECT_EQ(record.kept.misses, 0u);
  EXPECT_DOUBLE_EQ(record.fastest_seconds, 0.0101);  // the guard's reference: this process's own
  // Without settling: the reaching run ends it.
  ClockRecord at_once{.kept = {.iterations = 512, .best_seconds = 0.01}};
  EXPECT_EQ(RaiseClocks(Probe({0.0102}), at_once, 1.0, 1.0, 0.03, 0), 1u);
}

TEST(RaiseClocks, AFasterRunThanTheKeptBestIsKept) {
  ClockRecord record{.kept = {.iterations = 512, .best_seconds = 0.01, .misses = 1}};
  EXPECT_EQ(RaiseClocks(Probe({0.0099}), record, 1.0, 1.0, 0.03, 0), 1u);
  EXPECT_DOUBLE_EQ(record.best_seconds, 0.0099);
  EXPECT_DOUBLE_EQ(record.kept.best_seconds, 0.0099);
  EXPECT_EQ(record.kept.misses, 0u);  // reached: the misses start again
  // A later raise that beats the record lowers the kept best too.
  RaiseClocks(Probe({0.009}), record);
  EXPECT_DOUBLE_EQ(record.kept.best_seconds, 0.009);
}

// A kept best from a slower moment (a shared device) must not end a raise at clocks still
// coming up: a run that beats it by more than the tolerance hands the raise to the rule of a
// process alone (a second at least, until no longer improving), and the faster best is kept.
TEST(RaiseClocks, AKeptBestBeatenByMoreThanTheToleranceIsReplacedAndTheRaiseGoesOn) {
  ClockRecord record{.kept = {.iterations = 512, .best_seconds = 0.02}};
  // Within tolerance of the slow kept best at the first run, then faster: 0.015, then 0.01.
  std::vector<double> runs = {0.0201, 0.015};
  runs.insert(runs.end(), 100, 0.01);
  const uint32_t count = RaiseClocks(Probe(runs), record, 1.0, 1.0, 0.03, 0.1);
  EXPECT_GE(0.0201 + 0.015 + (count - 2) * 0.01, 1.0);  // ran its second
  EXPECT_DOUBLE_EQ(record.best_seconds, 0.01);
  EXPECT_DOUBLE_EQ(record.kept.best_seconds, 0.01);
}

// A kept best the device cannot reach (from a faster moment, or another card of the model): the
// first raise ends at the cap (twice the first raise's second) with its own best as the record,
// as a process alone would; the second such process in a row replaces the kept best.
TEST(RaiseClocks, AnUnreachableKeptBestCostsTwoCappedProcesses) {
  // Times in powers of two, so that the sums are exact: the cap is 2 x 1/8 s, 16 runs of 1/64 s.
  const KeptClock kept{.iterations = 512, .best_seconds = 1.0 / 128};
  ClockRecord one{.kept = kept};
  EXPECT_EQ(RaiseClocks(Probe({1.0 / 64}), one, 1.0 / 8, 1.0), 16u);
  EXPECT_DOUBLE_EQ(one.best_seconds, 1.0 / 64);
  EXPECT_DOUBLE_EQ(one.kept.best_seconds, 1.0 / 128);  // one miss keeps it
  EXPECT_EQ(one.kept.misses, 1u);
  ClockRecord two{.kept = one.kept};  // the next process reads what the first wrote
  EXPECT_EQ(RaiseClocks(Probe({1.0 / 64}), two, 1.0 / 8, 1.0), 16u);
  EXPECT_DOUBLE_EQ(two.kept.best_seconds, 1.0 / 64);
  EXPECT_EQ(two.kept.misses, 0u);
  ClockRecord three{.kept = two.kept};
  EXPECT_EQ(RaiseClocks(Probe({1.0 / 64}), three, 1.0 / 8, 1.0, 0.03, 0), 1u);
}

TEST(RaiseClocks, NothingKeptIsTheRuleOfAProcessAloneAndLeavesItsBestToKeep) {
  ClockRecord record;
  std::vector<double> runs(3, 0.23);
  runs.push_back(0.1);
  EXPECT_EQ(RaiseClocks(Probe(runs), record, 1.0, 1.0), 7u);
  EXPECT_DOUBLE_EQ(record.kept.best_seconds, 0.1);
  EXPECT_EQ(record.kept.misses, 0u);
}

}  // namespace
}  // namespace csbench
