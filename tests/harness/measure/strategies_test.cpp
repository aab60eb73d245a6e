// The measurement strategies without a device: what each times, what it leaves untimed, and the
// counters it sets, read from a run of Google Benchmark itself.
#include <benchmark/benchmark.h>
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "harness/base/compat.hpp"
#include "harness/base/error.hpp"
#include "harness/measure/measure.hpp"
#include "harness/measure/selection.hpp"

namespace csbench {
namespace {

class Collect : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& runs) override { runs_.insert(runs_.end(), runs.begin(), runs.end()); }
  std::vector<Run> runs_;
};

// The one run of benchmark `name`, `fn`, at a fixed number of iterations. The device-timed
// strategies warm up on their own runs unless the device has just been busy: each test's `fn`
// marks it so (NoteDeviceBusy), and counts only the timed loop.
benchmark::BenchmarkReporter::Run RunOf(const std::string& name, std::function<void(benchmark::State&)> fn,
                                        benchmark::IterationCount iterations, bool manual_time) {
  auto* b = benchmark::RegisterBenchmark(name.c_str(), std::move(fn))->Iterations(iterations);
  if (manual_time) b->UseManualTime();
  Collect collect;
  // A fixed iteration count puts "/iterations:N" into the name.
  benchmark::RunSpecifiedBenchmarks(&collect, "^" + name + "/iterations:");
  EXPECT_EQ(collect.runs_.size(), 1u);
  return collect.runs_.empty() ? benchmark::BenchmarkReporter::Run{} : collect.runs_.front();
}

TEST(Strategies, APlainLoopResetsUntimedBeforeEachIterationAndAsksTheWorkAfterTheLoop) {
  int resets = 0, iterations = 0, asked = 0;
  const auto run = RunOf(
      "strategies/plain_loop",
      [&](benchmark::State& state) {
        MeasurePlainLoop(
            state, [&] { ++iterations; },
            [&] {
              ++asked;
              return Work{.elements = static_cast<double>(iterations), .bytes = 8};
            },
            [&] {
              EXPECT_EQ(resets, iterations);  // each reset comes before its iteration
              ++resets;
            });
      },
      7, false);
  EXPECT_EQ(iterations, 7);
  EXPECT_EQ(resets, 7);
  EXPECT_EQ(asked, 1);
  EXPECT_TRUE(run.counters.count("Gelem/s"));
  EXPECT_TRUE(run.counters.count("GB/s"));
  EXPECT_FALSE(run.counters.count("roofline%"));
}

TEST(Strategies, TimedRunsReportTheRunsOwnSeconds) {
  int resets = 0;
  const auto run = RunOf(
      "strategies/timed_runs",
      [&](benchmark::State& state) {
        NoteDeviceBusy();
        MeasureTimedRuns(
            state, nullptr, [&] { ++resets; }, [] { return 2e-3; }, {.elements = 1e6, .bytes = 8e6});
      },
      5, true);
  EXPECT_EQ(resets, 5);
  // 2 ms a run by the run's own clock, whatever the host's clock saw: 1e6 elements in 2 ms.
  EXPECT_NEAR(run.GetAdjustedRealTime() / benchmark::GetTimeUnitMultiplier(run.time_unit), 2e-3, 1e-12);
  EXPECT_NEAR(run.counters.at("Gelem/s").value, 0.5, 1e-9);
  EXPECT_FALSE(run.counters.count("roofline%"));  // no device, no ceiling
}

TEST(Strategies, TimedBatchesCalibrateOnTheProbeAndTimeWholeBatches) {
  std::vector<uint32_t> counts;
  const auto run = RunOf(
      "strategies/timed_batches",
      [&](benchmark::State& state) {
        NoteDeviceBusy();
        MeasureTimedBatches(
            state, nullptr, [&](uint32_t count, uint32_t start) {
              counts.push_back(count);
              EXPECT_EQ(start, 0u);  // whole rounds of the rotation: every batch begins at its start
              return count / 4096.0;  // 244 us a dispatch, exact in binary
            },
            8, 4, {.elements = 1, .bytes = 1});
      },
      24, true);
  // The probe of 8, then batches of at least 2 ms: 9 dispatches, rounded up to a multiple of the
  // period, 4. A sample's time is its batch's, shared by the batch's iterations. Without a device
  // nothing warms up or guards: the loop's two passes are the two batches.
  EXPECT_EQ(counts, (std::vector<uint32_t>{8, 12, 12}));
  EXPECT_EQ(run.counters.at("dispatches/sample").value, 12);
  EXPECT_EQ(run.iterations, 24);
  EXPECT_NEAR(run.GetAdjustedRealTime() / benchmark::GetTimeUnitMultiplier(run.time_unit), 1 / 4096.0, 1e-12);
}

TEST(Strategies, ASlowDispatchEndsItsSampleWithinTheRotationAndTheNextGoesOn) {
  // 64 ms a dispatch over a rotation of 100 copies: a whole round is 6.4 s, far beyond the minimum
  // time a sample asks for, so a sample is one dispatch (2 ms wanted), and each one starts where the
  // one before it ended. The calibration's short look times one dispatch, not a round.
  std::vector<std::pair<uint32_t, uint32_t>> batches;  // count, start
  SetMinSampleSeconds(0.05);
  const auto run = RunOf(
      "strategies/slow_rotation",
      [&](benchmark::State& state) {
        NoteDeviceBusy();
        MeasureTimedBatches(
            state, nullptr, [&](uint32_t count, uint32_t start) {
              batches.emplace_back(count, start);
              return count * 0.064;
            },
            1, 100, {.elements = 1, .bytes = 1});
      },
      3, true);
  SetMinSampleSeconds(0);
  ASSERT_EQ(batches.size(), 4u);  // the calibration, then the loop's three iterations
  EXPECT_EQ(batches[0], std::make_pair(1u, 0u));  // the calibration: one dispatch
  for (size_t i = 1; i < batches.size(); ++i) {
    EXPECT_EQ(batches[i].first, 1u);
    EXPECT_EQ(batches[i].second, i - 1) << "sample " << i;
  }
  EXPECT_EQ(run.counters.at("dispatches/sample").value, 1);
}

TEST(Strategies, HostClockedRunsSayWhichClock) {
  int resets = 0, runs = 0;
  const auto run = RunOf(
      "strategies/host_clocked",
      [&](benchmark::State& state) {
        NoteDeviceBusy();
        MeasureHostClocked(
            state, nullptr, [&] { ++resets; }, [&] { ++runs; }, {.elements = 1, .bytes = 1});
      },
      3, false);
  EXPECT_EQ(resets, 3);
  EXPECT_EQ(runs, 3);
  EXPECT_EQ(run.report_label, "host clock");
}

TEST(Strategies, AFirstCallSamplesUntilTheMinimumTimeAndGoogleBenchmarkKeepsIt) {
  // Without a fixed iteration count Google Benchmark's first call asks for one iteration; with
  // MinSampleSeconds the call takes runs of 2 ms until they add up to 10 ms, reports all five,
  // and Google Benchmark keeps that call: no second call to find the count.
  SetMinSampleSeconds(0.01);
  int calls = 0, runs = 0;
  benchmark::RegisterBenchmark("strategies/min_sample_seconds",
                               [&](benchmark::State& state) {
                                 ++calls;
                                 NoteDeviceBusy();
                                 MeasureTimedRuns(
                                     state, nullptr, [] {},
                                     [&] {
                                       ++runs;
                                       return 2e-3;
                                     },
                                     {.elements = 1, .bytes = 1});
                               })
      ->UseManualTime()
      ->MinTime(0.01);
  Collect collect;
  benchmark::RunSpecifiedBenchmarks(&collect, "^strategies/min_sample_seconds/");
  SetMinSampleSeconds(0);
  ASSERT_EQ(collect.runs_.size(), 1u);
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(runs, 5);
  EXPECT_EQ(collect.runs_.front().iterations, 5);
  EXPECT_NEAR(collect.runs_.front().GetAdjustedRealTime() / benchmark::GetTimeUnitMultiplier(collect.runs_.front().time_unit),
              2e-3, 1e-12);
}

TEST(Strategies, EveryRepetitionTakesTheFirstCallsCount) {
  // Google Benchmark asks each repetition for the first call's count (one iteration) and requires
  // equal counts: the later repetitions take the first call's five runs, however long theirs are.
  SetMinSampleSeconds(0.01);
  int runs = 0;
  // Registered as every benchmark is (AddBenchmark): its record keeps the first call's count.
  AddBenchmark("strategies/repetitions_alike",
               [&](benchmark::State& state) {
                 NoteDeviceBusy();
                 MeasureTimedRuns(
                     state, nullptr, [] {}, [&] { return ++runs <= 5 ? 2e-3 : 1e-3; },
                     {.elements = 1, .bytes = 1});
               })
      ->UseManualTime()
      ->MinTime(0.01)
      ->Repetitions(3);
  Collect collect;
  benchmark::RunSpecifiedBenchmarks(&collect, "^strategies/repetitions_alike/");
  SetMinSampleSeconds(0);
  size_t iteration_runs = 0;
  for (const auto& run : collect.runs_) {
    if (run.run_type != benchmark::BenchmarkReporter::Run::RT_Iteration) continue;
    ++iteration_runs;
    EXPECT_EQ(run.iterations, 5);
  }
  EXPECT_EQ(iteration_runs, 3u);
  EXPECT_EQ(runs, 15);
}

TEST(Strategies, AStoppedRunSkipsEveryBenchmarkLeftNamingWhy) {
  // A benchmark registered as every one is (AddBenchmark) runs until the run stops (a lost
  // device, StopRun); after that it fails at once with the reason, and its body never runs.
  int bodies = 0;
  AddBenchmark("strategies/stopped_run", [&](benchmark::State& state) {
    ++bodies;
    for (auto _ : state) {
    }
  })->Iterations(1);
  Collect before;
  benchmark::RunSpecifiedBenchmarks(&before, "^strategies/stopped_run/");
  ASSERT_EQ(before.runs_.size(), 1u);
  EXPECT_FALSE(compat::Skipped(before.runs_.front()));
  EXPECT_EQ(bodies, 1);
  StopRun("the device was lost (a test's stand-in)");
  StopRun("a later reason, not kept");
  Collect after;
  benchmark::RunSpecifiedBenchmarks(&after, "^strategies/stopped_run/");
  ResumeRunForTest();
  ASSERT_EQ(after.runs_.size(), 1u);
  EXPECT_TRUE(compat::Skipped(after.runs_.front()));
  EXPECT_EQ(std::string(compat::SkipMessage(after.runs_.front())), "not run: the device was lost (a test's stand-in)");
  EXPECT_EQ(bodies, 1);
  EXPECT_FALSE(RunStopReason().has_value());
}

}  // namespace
}  // namespace csbench
