// The clock guard (MeasureGuarded, GuardRatio), the notes it leaves for the JSON report, and the
// ledger of where a run's time goes.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "harness/base/ledger.hpp"
#include "harness/measure/measure.hpp"
#include "harness/measure/points.hpp"
#include "harness/measure/record.hpp"
#include "harness/measure/run_notes.hpp"
#include "harness/run/json_writer.hpp"
#include "harness/vulkan/clock_probe.hpp"
#include "harness/vulkan/context.hpp"

namespace csbench {
namespace {

// A guard that reads the given ratios in turn (the last one repeats) and counts its raises.
struct FakeGuard {
  std::vector<double> ratios;
  size_t reads = 0;
  int raises = 0;
  GuardMemory memory;
  ClockGuardHooks Hooks() {
    return {.read = [this] { return ratios[std::min(reads++, ratios.size() - 1)]; },
            .raise = [this] { ++raises; },
            .memory = &memory};
  }
};

// Samples numbered by the measurement they belong to: 1.0, 1.0 for the first, 2.0, 2.0 ...
struct NumberedSamples {
  int taken = 0;
  size_t per_measurement;
  double operator()() { return 1.0 + static_cast<double>(taken++ / per_measurement); }
};

TEST(ClockGuard, MeasuresOnceWhenTheClocksAreUp) {
  FakeGuard guard{.ratios = {1.01}};
  NumberedSamples samples{.per_measurement = 2};
  RunNote note;
  EXPECT_EQ(MeasureGuarded(2, std::ref(samples), guard.Hooks(), note), (std::vector<double>{1.0, 1.0}));
  EXPECT_EQ(note.measured, 1u);
  EXPECT_FALSE(note.throttled);
  EXPECT_DOUBLE_EQ(note.clock_guard, 1.01);
  EXPECT_EQ(guard.raises, 0);
}

TEST(ClockGuard, MeasuresAgainAfterRaisingWhenTheClocksWereDown) {
  // Down after the first measurement (20% slower), up after the second.
  FakeGuard guard{.ratios = {1.20, 1.00}};
  NumberedSamples samples{.per_measurement = 3};
  RunNote note;
  EXPECT_EQ(MeasureGuarded(3, std::ref(samples), guard.Hooks(), note), (std::vector<double>{2.0, 2.0, 2.0}));
  EXPECT_EQ(note.measured, 2u);
  EXPECT_FALSE(note.throttled);
  EXPECT_EQ(guard.raises, 1);
  EXPECT_FALSE(guard.memory.still_throttled);
}

TEST(ClockGuard, StopsAfterThreeMeasurementsAndSaysTheClocksWereStillDown) {
  FakeGuard guard{.ratios = {1.20}};
  NumberedSamples samples{.per_measurement = 1};
  RunNote note;
  // Never an empty result: the last measurement's samples, marked.
  EXPECT_EQ(MeasureGuarded(1, std::ref(samples), guard.Hooks(), note), (std::vector<double>{3.0}));
  EXPECT_EQ(note.measured, kMaxMeasurements);
  EXPECT_TRUE(note.throttled);
  EXPECT_DOUBLE_EQ(note.clock_guard, 1.20);
  EXPECT_EQ(guard.raises, 2);
  EXPECT_TRUE(guard.memory.still_throttled);
  // The next loop on a device still down is measured once and marked, not three times.
  RunNote next;
  EXPECT_EQ(MeasureGuarded(1, std::ref(samples), guard.Hooks(), next).size(), 1u);
  EXPECT_EQ(next.measured, 1u);
  EXPECT_TRUE(next.throttled);
  // Once a loop finds the clocks up again, the retries come back.
  guard.ratios = {1.0};
  RunNote up;
  MeasureGuarded(1, std::ref(samples), guard.Hooks(), up);
  EXPECT_FALSE(up.throttled);
  guard.ratios = {1.3, 1.0};
  guard.reads = 0;
  RunNote again;
  MeasureGuarded(1, std::ref(samples), guard.Hooks(), again);
  EXPECT_EQ(again.measured, 2u);
}

TEST(ClockGuard, SamplesAsFastAsAProbedLoopVouchForTheClocks) {
  FakeGuard guard{.ratios = {1.02}};
  ClockGuardHooks hooks = guard.Hooks();
  Vouch variant, other_variant;  // two benchmarks' own, as their records keep them
  hooks.vouch = &variant;
  double seconds = 1.0;
  auto sample = [&] { return seconds; };
  RunNote first;
  MeasureGuarded(3, sample, hooks, first);
  EXPECT_EQ(guard.reads, 1u);
  EXPECT_TRUE(first.probed);
  // As fast (within kVouchTolerance): not probed; the note carries the reading that vouches.
  seconds = 1.0 + kVouchTolerance / 2;
  RunNote vouched;
  MeasureGuarded(3, sample, hooks, vouched);
  EXPECT_EQ(guard.reads, 1u);
  EXPECT_FALSE(vouched.probed);
  EXPECT_DOUBLE_EQ(vouched.clock_guard, 1.02);
  EXPECT_FALSE(vouched.throttled);
  // Slower than that: probed, and the probe finds the clocks down.
  seconds = 1.0 + 2 * kVouchTolerance;
  guard.ratios = {1.3};
  RunNote slower;
  MeasureGuarded(1, sample, hooks, slower);
  EXPECT_EQ(guard.reads, 2u + kMaxMeasurements - 1);
  EXPECT_TRUE(slower.probed);
  EXPECT_TRUE(slower.throttled);
  // Another benchmark's loop is probed: the vouch is per benchmark.
  guard.ratios = {1.0};
  hooks.vouch = &other_variant;
  seconds = 1.0;
  RunNote other;
  const size_t reads = guard.reads;
  MeasureGuarded(1, sample, hooks, other);
  EXPECT_EQ(guard.reads, reads + 1);
}

TEST(ClockGuard, SamplesUntilTheyAddUpToTheMinimum) {
  NumberedSamples samples{.per_measurement = 100};
  RunNote note;
  EXPECT_EQ(MeasureGuarded(1, std::ref(samples), ClockGuardHooks{}, note, 3.5).size(), 4u);
  EXPECT_EQ(MeasureGuarded(6, std::ref(samples), ClockGuardHooks{}, note, 3.5).size(), 6u);
  // A clock that reads 0 ends the sampling at `count` rather than never.
  EXPECT_EQ(MeasureGuarded(2, [] { return 0.0; }, ClockGuardHooks{}, note, 1.0).size(), 2u);
}

TEST(ClockGuard, TheToleranceIsTheBoundary) {
  FakeGuard guard{.ratios = {1 + kGuardTolerance}};
  NumberedSamples samples{.per_measurement = 1};
  RunNote note;
  MeasureGuarded(1, std::ref(samples), guard.Hooks(), note);
  EXPECT_FALSE(note.throttled);
}

TEST(ClockGuard, WithoutAGuardMeasuresOnce) {
  NumberedSamples samples{.per_measurement = 4};
  RunNote note;
  EXPECT_EQ(MeasureGuarded(4, std::ref(samples), ClockGuardHooks{}, note).size(), 4u);
  EXPECT_EQ(note.measured, 1u);
  EXPECT_EQ(note.clock_guard, 0);
  EXPECT_FALSE(note.throttled);
}

TEST(ClockGuard, RatioIsAgainstTheFastestRunEver) {
  ClockRecord record;
  EXPECT_DOUBLE_EQ(GuardRatio(2e-3, record), 1.0);  // the first reading is the fastest so far
  EXPECT_DOUBLE_EQ(GuardRatio(2.2e-3, record), 1.1);
  EXPECT_DOUBLE_EQ(GuardRatio(1e-3, record), 1.0);  // a faster run lowers the record
  EXPECT_DOUBLE_EQ(GuardRatio(2e-3, record), 2.0);
  // RaiseClocks accepting a slower device (two capped raises) leaves the guard's reference alone.
  record.best_seconds = 5e-3;
  RaiseClocks([] { return 5e-3; }, record, 0.01, 0.01);
  EXPECT_DOUBLE_EQ(record.fastest_seconds, 1e-3);
}

TEST(RunNotes, TheLastCallsAreTheReportedRuns) {
  Record record("notes/a", nullptr);
  for (uint64_t iterations : {1, 7, 70, 70, 70}) record.AddRun({.iterations = iterations});
  const std::vector<RunNote> notes = record.LastRuns(3);
  ASSERT_EQ(notes.size(), 3u);
  for (const RunNote& n : notes) EXPECT_EQ(n.iterations, 70u);
  // Asking again (a second reporter, the file and the console) finds the same runs.
  EXPECT_EQ(record.LastRuns(3).size(), 3u);
  EXPECT_EQ(record.LastRuns(9).size(), 5u);
}

TEST(RunNotes, GoIntoTheDescribedEntry) {
  const Description description{.family = "notes", .variant = "described"};
  Record record("notes/described", &description);
  const RunNote one{.iterations = 5, .clock_guard = 1.0123, .measured = 1};
  EXPECT_EQ(EntryObject(record, &one).dump(),
            R"({"family":"notes","variant":"described","clock":"device","axes":{},"clock_guard":1.0123,"measured":1})");
  const RunNote down{.iterations = 5, .clock_guard = 1.25, .measured = 3, .throttled = true};
  EXPECT_EQ(EntryObject(record, &down).dump(),
            R"({"family":"notes","variant":"described","clock":"device","axes":{},"clock_guard":1.25,"measured":3,)"
            R"("throttled":true})");
  const RunNote samples{.iterations = 5, .measured = 1, .samples = {0.5, 0.25}};
  EXPECT_EQ(EntryObject(record, &samples).dump(),
            R"({"family":"notes","variant":"described","clock":"device","axes":{},"measured":1,"samples_s":[0.5,0.25]})");
  // The case's making and the declared arithmetic follow the run's members.
  record.NoteCaseMade(0.12344, 0.03, false);
  EXPECT_EQ(EntryObject(record, &one)["case_s"], 0.1234);
  EXPECT_EQ(EntryObject(record, &one)["waited_s"], 0.1534);
  EXPECT_EQ(EntryObject(record, &one)["made_ahead"], false);
  // The warm-ups of all its calls, summed.
  EXPECT_FALSE(EntryObject(record, &one).contains("warm_up_s"));
  record.AddWarmUp(0.02, 2, 1);
  record.AddWarmUp(0.01, 1, 3);
  EXPECT_EQ(EntryObject(record, &one)["warm_up_s"], 0.03);
  EXPECT_EQ(EntryObject(record, &one)["warm_up_runs"], 3);
  EXPECT_EQ(EntryObject(record, &one)["warm_up_probes"], 4);
  // A benchmark nobody described has no object.
  EXPECT_TRUE(EntryObject(Record("notes/undescribed", nullptr), &one).is_null());
}

TEST(Ledger, EachSecondCountsOnceInTheInnermostPhase) {
  // Each phase against the wall time measured around it here, not against the sleeps' nominal
  // lengths: a loaded machine oversleeps by more than any fixed tolerance (seen: 16 ms on 2 busy
  // cores), while a sleep is never shorter than asked.
  using Clock = std::chrono::steady_clock;
  auto seconds = [](Clock::duration d) { return std::chrono::duration<double>(d).count(); };
  const TimeSpent before = Spent();
  double outer_wall = 0, inner_wall = 0;
  {
    const Clock::time_point outer_start = Clock::now();
    {
      Spending outer(Phase::kCase);
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
      {
        const Clock::time_point inner_start = Clock::now();
        {
          Spending inner(Phase::kCheck);
          std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        inner_wall = seconds(Clock::now() - inner_start);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    outer_wall = seconds(Clock::now() - outer_start);
  }
  // Another thread's phases are not the run's wall time.
  std::thread([] {
    Spending beside(Phase::kCase);
    std::this_thread::sleep_for(std::chrono::milliseconds(40));
  }).join();
  const TimeSpent after = Spent();
  const double case_s = after.seconds[static_cast<size_t>(Phase::kCase)] - before.seconds[static_cast<size_t>(Phase::kCase)];
  const double check_s =
      after.seconds[static_cast<size_t>(Phase::kCheck)] - before.seconds[static_cast<size_t>(Phase::kCheck)];
  // The inner phase's seconds are the check's alone, and the case's are the rest of the outer's:
  // counted in both, or with the other thread's 40 ms, the case would pass its bound.
  EXPECT_GE(check_s, 0.050 - 1e-3);
  EXPECT_LE(check_s, inner_wall + 1e-3);
  EXPECT_GE(case_s, 0.050 - 1e-3);
  EXPECT_LE(case_s, outer_wall - check_s + 1e-3);
  EXPECT_GE(after.Other(), 0.0);
  EXPECT_TRUE(TimeSpentObject(after).contains("check_s"));
}

TEST(Ledger, DeviceSecondsGoToThePhaseTheSubmittingThreadWasIn) {
  const auto index = [](Phase p) { return static_cast<size_t>(p); };
  // The innermost phase of the calling thread, none outside every phase.
  EXPECT_FALSE(CurrentPhase().phase.has_value());
  EXPECT_TRUE(CurrentPhase().first);
  ThreadPhase in_check;
  {
    Spending outer(Phase::kCase);
    {
      Spending inner(Phase::kCheck);
      in_check = CurrentPhase();
    }
    EXPECT_EQ(CurrentPhase().phase, Phase::kCase);
  }
  ASSERT_EQ(in_check.phase, Phase::kCheck);
  ThreadPhase beside;
  std::thread([&] {
    Spending spending(Phase::kWarmUp);
    beside = CurrentPhase();
  }).join();
  EXPECT_EQ(beside.phase, Phase::kWarmUp);
  EXPECT_FALSE(beside.first);
  const TimeSpent before = Spent();
  // Added on this thread, each to the account its submission noted (a harvest reads another
  // thread's submission as well as its own).
  AddDeviceSeconds(in_check, 0.25);
  AddDeviceSeconds(beside, 0.125);
  AddDeviceSeconds(ThreadPhase{}, 0.5);
  NoteDeviceTimed();
  NoteUnmeasuredSubmission();
  const TimeSpent after = Spent();
  EXPECT_DOUBLE_EQ(after.device[index(Phase::kCheck)] - before.device[index(Phase::kCheck)], 0.25);
  EXPECT_DOUBLE_EQ(after.ahead_device[index(Phase::kWarmUp)] - before.ahead_device[index(Phase::kWarmUp)], 0.125);
  // A phase nothing was added to has none; the other thread's seconds are not the first's.
  EXPECT_DOUBLE_EQ(after.device[index(Phase::kWarmUp)], before.device[index(Phase::kWarmUp)]);
  EXPECT_DOUBLE_EQ(after.device[index(Phase::kRelease)], before.device[index(Phase::kRelease)]);
  EXPECT_DOUBLE_EQ(after.device_other - before.device_other, 0.5);
  EXPECT_DOUBLE_EQ(after.DeviceSeconds() - before.DeviceSeconds(), 0.875);
  EXPECT_EQ(after.device_unmeasured - before.device_unmeasured, 1u);
  EXPECT_TRUE(after.device_timed);
  EXPECT_TRUE(after.AnyAhead());
  // The text and the JSON say them.
  const std::string text = ToText(after);
  EXPECT_NE(text.find("; device "), std::string::npos) << text;
  EXPECT_NE(text.find("check "), std::string::npos) << text;
  EXPECT_NE(text.find("submissions untimed"), std::string::npos) << text;
  const auto json = TimeSpentObject(after);
  ASSERT_TRUE(json.contains("device")) << json.dump();
  EXPECT_GE(json["device"]["check_s"].get<double>(), 0.25);
  EXPECT_GE(json["device"]["total_s"].get<double>(), 0.875);
  EXPECT_GE(json["device"]["ahead"]["warm_up_s"].get<double>(), 0.125);
  EXPECT_GE(json["device"]["untimed_submissions"].get<uint64_t>(), 1u);
  // A run whose submissions are not timed has no device account.
  TimeSpent untimed = after;
  untimed.device_timed = false;
  EXPECT_FALSE(TimeSpentObject(untimed).contains("device"));
  EXPECT_EQ(ToText(untimed).find("; device "), std::string::npos);
}

TEST(FairLock, AWaitingThreadGoesBeforeTheHolderTakesItAgain) {
  // The timed loop takes the device lock again right after each batch; a thread waiting for it
  // (a case made ahead) must get it in between.
  FairLock lock;
  std::vector<int> order;
  std::atomic<bool> waiting = false;
  lock.lock();
  std::thread other([&] {
    waiting = true;
    std::lock_guard guard(lock);
    order.push_back(2);
  });
  while (!waiting) std::this_thread::yield();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the other thread now waits
  order.push_back(1);
  lock.unlock();
  {
    std::lock_guard again(lock);
    order.push_back(3);
  }
  other.join();
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3}));
}

TEST(FairLock, IsRecursive) {
  // Context::Run submits through SubmitAndWait, both locking. A lock that is not recursive would
  // wait for itself: taken on a thread of its own, so that the test fails within a second
  // instead of hanging.
  // The lock outlives the test's scope: a thread stuck on it must not be left with a dangling one.
  auto lock = std::make_shared<FairLock>();
  std::promise<void> taken_twice;
  std::future<void> done = taken_twice.get_future();
  std::thread([lock, promise = std::move(taken_twice)]() mutable {
    std::lock_guard outer(*lock);
    std::lock_guard inner(*lock);
    promise.set_value();
  }).detach();
  ASSERT_EQ(done.wait_for(std::chrono::seconds(1)), std::future_status::ready) << "the second lock() never returned";
}

}  // namespace
}  // namespace csbench
