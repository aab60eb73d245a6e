#include "harness/measure/measure.hpp"
#include "harness/measure/roofline.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <stdexcept>
#include <thread>
#include <vector>

#include "harness/base/error.hpp"
#include "harness/measure/selection.hpp"

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

TEST(BatchSize, EndsWithinTheRotationWhereWholeRoundsWouldOutlastASample) {
  // 64 ms a dispatch, 1047 copies: a whole round is 67 s; within a 0.05 s sample, one dispatch.
  EXPECT_EQ(BatchSize(64e-3, 1047, 2e-3, 10000, 0.05), 1u);
  // 10 us a dispatch, 4096 copies: a round is 41 ms, within a 0.1 s sample: whole rounds stay.
  EXPECT_EQ(BatchSize(10e-6, 4096, 2e-3, 10000, 0.1), 4096u);
  // ... but not within 0.01 s: the 2 ms batch alone.
  EXPECT_EQ(BatchSize(10e-6, 4096, 2e-3, 10000, 0.01), 200u);
  // No minimum time given: whole rounds, as before.
  EXPECT_EQ(BatchSize(64e-3, 1047), 1047u);
}

TEST(Calibration, TakesTheChecksRunOnlyWhereAFasterIterationWouldGiveTheSameBatch) {
  const double kept = MinSampleSeconds();
  SetMinSampleSeconds(0.5);
  // 0.15 s an iteration (lavapipe's Gray-Scott step): one dispatch a sample even at 19 ms.
  ASSERT_TRUE(CalibrationFromCheck(0.15, 1));
  EXPECT_DOUBLE_EQ(*CalibrationFromCheck(0.15, 1), 0.15);
  // 10 ms: 8 times faster (1.25 ms) would batch two: calibrate.
  EXPECT_FALSE(CalibrationFromCheck(10e-3, 1));
  // A GPU's 50 us kernel: calibrate. No check's run: calibrate.
  EXPECT_FALSE(CalibrationFromCheck(50e-6, 1));
  EXPECT_FALSE(CalibrationFromCheck(0.0, 1));
  // A rotation of 4 copies: at 0.15 s a round outlasts the 0.5 s sample (one dispatch), at 19 ms it
  // does not (a whole round): calibrate. At 2 s neither would: one dispatch.
  EXPECT_FALSE(CalibrationFromCheck(0.15, 4));
  EXPECT_TRUE(CalibrationFromCheck(2.0, 4));
  // A CPU device: lavapipe's 63 ms step over 4 copies at the default 0.1 s minimum time. A GPU
  // would look (8 ms a dispatch would make a round of 32 ms, within the sample); a CPU device takes
  // the check's reading, as the look would time one dispatch and stop. A check's run of 0.1 ms is
  // too short to stand for the look's (which goes on to 8 dispatches).
  SetMinSampleSeconds(0.1);
  EXPECT_FALSE(CalibrationFromCheck(63e-3, 4));
  ASSERT_TRUE(CalibrationFromCheck(63e-3, 4, true));
  EXPECT_DOUBLE_EQ(*CalibrationFromCheck(63e-3, 4, true), 63e-3);
  EXPECT_TRUE(CalibrationFromCheck(40e-3, 2, true));
  EXPECT_TRUE(CalibrationFromCheck(kCalibrationSeconds, 1, true));
  EXPECT_FALSE(CalibrationFromCheck(0.1e-3, 1, true));
  EXPECT_FALSE(CalibrationFromCheck(0.0, 1, true));
  SetMinSampleSeconds(kept);
}

TEST(Calibration, LooksLongerOnlyWhereOneDispatchIsTooShortToTime) {
  std::vector<uint32_t> asked;
  const auto timed = [&](double per_dispatch) {
    return [&asked, per_dispatch](uint32_t count) {
      asked.push_back(count);
      return count * per_dispatch;
    };
  };
  EXPECT_DOUBLE_EQ(CalibratedSecondsPerDispatch(timed(64e-3), 1, 1047), 64e-3);
  EXPECT_EQ(asked, (std::vector<uint32_t>{1}));
  asked.clear();
  EXPECT_DOUBLE_EQ(CalibratedSecondsPerDispatch(timed(5e-6), 1, 4096), 5e-6);
  EXPECT_EQ(asked, (std::vector<uint32_t>{1, 8, 64, 512}));  // 512 x 5 us: past 0.5 ms
  asked.clear();
  EXPECT_DOUBLE_EQ(CalibratedSecondsPerDispatch(timed(5e-6), 1, 9), 5e-6);
  EXPECT_EQ(asked, (std::vector<uint32_t>{1, 8, 9}));  // never past one round
}

TEST(RotationCopies, FillsTheBudget) {
  EXPECT_EQ(RotationCopies(100, 1000, CacheMode::kCold), 10u);
  EXPECT_EQ(RotationCopies(300, 1000, CacheMode::kCold), 4u);
  EXPECT_EQ(RotationCopies(2000, 1000, CacheMode::kCold), 1u);
  EXPECT_EQ(RotationCopies(100, 1000, CacheMode::kWarm), 1u);
  // 1080p RGBA float: 33 MB, nine copies to cover 256 MiB.
  EXPECT_EQ(RotationCopies(1920ull * 1080 * 16, kRooflineBytes, CacheMode::kCold), 9u);
  // A tiny input: capped, not a million copies.
  EXPECT_EQ(RotationCopies(256, kRooflineBytes, CacheMode::kCold), kMaxRotationCopies);
  EXPECT_EQ(RotationCopies(64 << 10, kRooflineBytes, CacheMode::kCold), 4096u);
  EXPECT_EQ(RotationCopies((64 << 10) + 256, kRooflineBytes, CacheMode::kCold), 4081u);
}

// Footprints of 1 MiB doubling, with the given GB/s.
std::vector<std::pair<uint64_t, double>> Curve(std::vector<double> gbs) {
  std::vector<std::pair<uint64_t, double>> rates;
  for (size_t i = 0; i < gbs.size(); ++i) rates.emplace_back((1ull << 20) << i, gbs[i]);
  return rates;
}

TEST(CacheEdgeBytes, TheLargestFootprintFasterThanMemory) {
  // Cached to 8 MiB, memory's 7.1 GB/s from 16 MiB (1 .. 256 MiB).
  const auto clean = Curve({60, 59, 58, 58.5, 8.1, 7.5, 7.2, 7.1, 7.1});
  EXPECT_EQ(CacheEdgeBytes(clean, false), 8ull << 20);
  EXPECT_EQ(CacheEdgeBytes(clean, true), 8ull << 20);
  // Memory is the better of the two largest: one slow last reading does not make 128 MiB cached.
  EXPECT_EQ(CacheEdgeBytes(Curve({60, 59, 58, 58.5, 8.1, 7.5, 7.2, 7.1, 4.0}), true), 8ull << 20);
  EXPECT_EQ(CacheEdgeBytes(Curve({5, 5, 5, 5}), true), 0u);  // nothing faster than memory
  EXPECT_EQ(CacheEdgeBytes({}, true), 0u);
}

TEST(CacheEdgeBytes, OneFastReadingAloneCountsOnlyUnconfirmed) {
  // A loaded CPU device: 9.0 GB/s at 64 MiB beside memory's 7.1, after a slower 32 MiB
  // (docs/perf-notes.md, section 29).
  const auto noisy = Curve({60, 59, 58, 58.5, 8.1, 7.5, 9.0, 7.1, 7.1});
  EXPECT_EQ(CacheEdgeBytes(noisy, false), 64ull << 20);
  EXPECT_EQ(CacheEdgeBytes(noisy, true), 8ull << 20);
  // Two fast readings in a row are a cache (a core's 32 MiB of L3), confirmed or not.
  EXPECT_EQ(CacheEdgeBytes(Curve({60, 59, 58, 58.5, 12, 11.5, 7.5, 7.1, 7.1}), true), 32ull << 20);
  // A GPU's launch-bound small footprints, its L2 showing at 32 MiB alone: kept unconfirmed.
  const auto gpu = Curve({2000, 2600, 3400, 4300, 5100, 5957, 4200, 4100, 4150, 4196});
  EXPECT_EQ(CacheEdgeBytes(gpu, false), 32ull << 20);
  EXPECT_EQ(CacheEdgeBytes(gpu, true), 0u);
  // The first footprint needs no half.
  EXPECT_EQ(CacheEdgeBytes(Curve({20, 7, 7, 7}), true), 1ull << 20);
}

// Runs that take the given times in turn (the last one repeats).
std::function<double()> Runs(std::vector<double> seconds) {
  auto i = std::make_shared<size_t>(0);
  return [seconds, i] { return seconds[std::min((*i)++, seconds.size() - 1)]; };
}

TEST(WarmUp, GoesOnWhileRunsGetFaster) {
  // A clock ramping up: 40, 30, 20, 10 ms, then flat. The first flat run ends it.
  EXPECT_EQ(WarmUp(nullptr, Runs({0.04, 0.03, 0.02, 0.01, 0.01}), 0.05, 1.0, 0.0), 5u);
}

TEST(WarmUp, RunsAtLeastTheMinimumTime) {
  // Steady from the start, but 10 ms runs: five of them make the 50 ms minimum.
  EXPECT_EQ(WarmUp(nullptr, Runs({0.01}), 0.05, 1.0, 0.0), 5u);
}

TEST(WarmUp, OneLongRunIsEnough) {
  // The default times: a run of 10 ms or more (a whole simulation) is the only one; shorter ones
  // run until one is no faster than the one before.
  EXPECT_EQ(WarmUp(nullptr, Runs({0.02, 0.01}), 0, 0.05, 0.0), 1u);
  EXPECT_EQ(WarmUp(nullptr, Runs({kSettledRunSeconds}), 0, 0.05, 0.0), 1u);
  EXPECT_EQ(WarmUp(nullptr, Runs({0.002}), 0, 0.05, 0.0), 2u);
  EXPECT_EQ(WarmUp(nullptr, Runs({0.004, 0.002, 0.002}), 0, 0.05, 0.0), 3u);
}

TEST(WarmUp, IsNotedInTheBenchmarksRecord) {
  Record record("warm/noted", nullptr);
  RecordScope scope(&record);
  EXPECT_EQ(WarmUp(nullptr, Runs({0.004, 0.002, 0.002}), 0, 0.05, 0.0), 3u);
  ASSERT_TRUE(record.warm_up().has_value());
  EXPECT_EQ(record.warm_up()->runs, 3u);
  const double seconds = record.warm_up()->seconds;
  // A call that follows timed work closely does not warm up, and adds nothing.
  NoteDeviceBusy();
  EXPECT_EQ(WarmUp(nullptr, Runs({0.01}), 0, 0.05, 10.0), 0u);
  EXPECT_EQ(record.warm_up()->runs, 3u);
  EXPECT_EQ(record.warm_up()->seconds, seconds);
}

TEST(WarmUp, StopsAtTheMaximumTime) {
  // Forever 2% faster: the one-second cap ends it.
  double t = 0.1;
  auto faster = [&t] { return t *= 0.98; };
  EXPECT_LE(WarmUp(nullptr, faster, 0.05, 1.0, 0.0), 15u);
}

TEST(WarmUp, SkipsWhenTheDeviceWorkedMomentsAgo) {
  // Google Benchmark's next call of the same benchmark: the clocks are still up.
  NoteDeviceBusy();
  int runs = 0;
  EXPECT_EQ(WarmUp(nullptr, [&runs] { return ++runs, 0.01; }, 0.05, 1.0, 10.0), 0u);
  EXPECT_EQ(runs, 0);
  // After an idle longer than the threshold it runs again.
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(WarmUp(nullptr, [&runs] { return ++runs, 0.01; }, 0.05, 1.0, 0.01), 5u);
}

// A case that counts how many of its kind are alive and how often one was made.
struct CountedCase {
  static inline int alive = 0;
  static inline int made = 0;
  explicit CountedCase(int id) : id(id) {
    ++alive;
    ++made;
  }
  ~CountedCase() { --alive; }
  int id;
};

TEST(CurrentCase, IsMadeOncePerBenchmarkAndFreedBeforeTheNext) {
  ReleaseCurrentCase();
  CountedCase::made = 0;
  // Two benchmarks' records (a case is the record's, whatever the benchmarks' names).
  Record a("a", nullptr), b("b", nullptr);
  auto make = [](int id) {
    return [id] {
      // The previous benchmark's case is gone before this one is made (two 500 MiB inputs need
      // not fit at once).
      EXPECT_EQ(CountedCase::alive, 0);
      return std::make_unique<CountedCase>(id);
    };
  };
  EXPECT_EQ(CurrentCase(a, make(1)).id, 1);
  EXPECT_EQ(CurrentCase(a, make(2)).id, 1);  // kept: the second call of benchmark a
  EXPECT_EQ(CountedCase::made, 1);
  EXPECT_EQ(CurrentCase(b, make(3)).id, 3);
  EXPECT_EQ(CurrentCase(a, make(4)).id, 4);  // made again after another benchmark
  EXPECT_EQ(CountedCase::made, 3);
  EXPECT_EQ(CountedCase::alive, 1);
  // The key is the record, not the name: another benchmark of the same name has its own case.
  Record same_name("a", nullptr);
  EXPECT_EQ(CurrentCase(same_name, make(5)).id, 5);
  EXPECT_EQ(CountedCase::made, 4);
  ReleaseCurrentCase();
  EXPECT_EQ(CountedCase::alive, 0);
}

TEST(CurrentCase, KeepsNothingWhenMakingFails) {
  ReleaseCurrentCase();
  CountedCase::made = 0;
  Record c("c", nullptr);
  EXPECT_THROW(CurrentCase(c, []() -> std::unique_ptr<CountedCase> { throw std::runtime_error("check failed"); }),
               std::runtime_error);
  // The next call tries again rather than returning a case that was never made.
  EXPECT_EQ(CurrentCase(c, [] { return std::make_unique<CountedCase>(7); }).id, 7);
  EXPECT_EQ(CountedCase::made, 1);
  ReleaseCurrentCase();
}

TEST(CaseAhead, TheNextBenchmarksCaseIsMadeOnAnotherThreadAndTakenWhenItsTurnComes) {
  ReleaseCurrentCase();
  std::map<std::string, Record*> r;
  for (const char* name : {"ahead/a", "ahead/b", "ahead/c"}) r[name] = AddRecordedBenchmark(name, [](benchmark::State&) {}).record;
  const std::thread::id main_thread = std::this_thread::get_id();
  std::thread::id b_made_on;
  int made_by_b_maker = 0;
  RegisterPrefetch(*r["ahead/a"], [] { return std::static_pointer_cast<void>(std::make_shared<CountedCase>(1)); });
  RegisterPrefetch(*r["ahead/b"], [&]() -> std::shared_ptr<void> {
    b_made_on = std::this_thread::get_id();
    ++made_by_b_maker;
    return std::make_shared<CountedCase>(2);
  });
  // c cannot be made ahead (not registered): it is made when its turn comes.
  EnablePrefetch(true);
  bool b_made_in_turn = false;
  EXPECT_EQ(CurrentCase(*r["ahead/a"], [] { return std::make_unique<CountedCase>(1); }).id, 1);
  EXPECT_EQ(CurrentCase(*r["ahead/b"], [&] {
              b_made_in_turn = true;
              return std::make_unique<CountedCase>(20);
            }).id,
            2);
  EXPECT_FALSE(b_made_in_turn);
  EXPECT_EQ(made_by_b_maker, 1);
  EXPECT_NE(b_made_on, main_thread);
  EXPECT_EQ(CurrentCase(*r["ahead/c"], [] { return std::make_unique<CountedCase>(3); }).id, 3);
  EnablePrefetch(false);
  ReleaseCurrentCase();
}

TEST(CaseAhead, AHostClockedCaseIsMadeAheadButNothingBesideItsLoop) {
  ReleaseCurrentCase();
  std::map<std::string, Record*> r;
  for (const char* name : {"host/a", "host/b", "host/c"}) r[name] = AddRecordedBenchmark(name, [](benchmark::State&) {}).record;
  int made_ahead = 0;
  auto maker = [&](int id) {
    return [&made_ahead, id]() -> std::shared_ptr<void> {
      ++made_ahead;
      return std::make_shared<CountedCase>(id);
    };
  };
  RegisterPrefetch(*r["host/a"], maker(1), Prefetch::kBeside);
  RegisterPrefetch(*r["host/b"], maker(2), Prefetch::kMade);
  RegisterPrefetch(*r["host/c"], maker(3), Prefetch::kBeside);
  EnablePrefetch(true);
  CurrentCase(*r["host/a"], [] { return std::make_unique<CountedCase>(10); });
  // b (host-clocked) was made ahead beside a's loop ...
  EXPECT_EQ(CurrentCase(*r["host/b"], [] { return std::make_unique<CountedCase>(20); }).id, 2);
  // ... but c is not made beside b's: it is made in its turn.
  EXPECT_EQ(CurrentCase(*r["host/c"], [] { return std::make_unique<CountedCase>(30); }).id, 30);
  EXPECT_EQ(made_ahead, 1);
  EnablePrefetch(false);
  ReleaseCurrentCase();
}

TEST(CaseAhead, TwoCasesAreMadeAheadOneAfterTheOther) {
  ReleaseCurrentCase();
  std::map<std::string, Record*> r;
  for (const char* name : {"deep/a", "deep/b", "deep/c", "deep/d"}) r[name] = AddRecordedBenchmark(name, [](benchmark::State&) {}).record;
  std::mutex lock;
  std::vector<int> started, finished;
  int most_alive = 0;
  auto maker = [&](int id) {
    return [&, id]() -> std::shared_ptr<void> {
      {
        std::lock_guard guard(lock);
        started.push_back(id);
        // One making at a time: the one before it has finished.
        EXPECT_EQ(started.size(), finished.size() + 1);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      auto made = std::make_shared<CountedCase>(id);
      std::lock_guard guard(lock);
      most_alive = std::max(most_alive, CountedCase::alive);
      finished.push_back(id);
      return made;
    };
  };
  for (int id = 1; id <= 4; ++id) RegisterPrefetch(*r[fmt::format("deep/{}", char('a' + id - 1))], maker(id));
  EnablePrefetch(true);
  EXPECT_EQ(CurrentCase(*r["deep/a"], [] { return std::make_unique<CountedCase>(10); }).id, 10);
  // b and c are both in making while a measures; d is not yet.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  {
    std::lock_guard guard(lock);
    EXPECT_EQ(started, (std::vector<int>{2, 3}));
    EXPECT_EQ(finished, (std::vector<int>{2, 3}));
  }
  EXPECT_EQ(CurrentCase(*r["deep/b"], [] { return std::make_unique<CountedCase>(20); }).id, 2);
  EXPECT_EQ(CurrentCase(*r["deep/c"], [] { return std::make_unique<CountedCase>(30); }).id, 3);
  EXPECT_EQ(CurrentCase(*r["deep/d"], [] { return std::make_unique<CountedCase>(40); }).id, 4);
  EXPECT_EQ(started, (std::vector<int>{2, 3, 4}));
  // The current case and two made ahead, never more.
  EXPECT_LE(most_alive, 3);
  EnablePrefetch(false);
  ReleaseCurrentCase();
  EXPECT_EQ(CountedCase::alive, 0);
}

TEST(CaseAhead, APlainLoopIsPassedByAndItsLoopWaitsForTheCasesAhead) {
  ReleaseCurrentCase();
  std::map<std::string, Record*> r;
  for (const char* name : {"pass/a", "pass/plain", "pass/b"}) r[name] = AddRecordedBenchmark(name, [](benchmark::State&) {}).record;
  std::atomic<bool> b_made{false};
  RegisterPrefetch(*r["pass/a"], [] { return std::static_pointer_cast<void>(std::make_shared<CountedCase>(1)); });
  PassedByAhead(*r["pass/plain"]);
  RegisterPrefetch(*r["pass/b"], [&]() -> std::shared_ptr<void> {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    b_made = true;
    return std::make_shared<CountedCase>(2);
  });
  EnablePrefetch(true);
  CurrentCase(*r["pass/a"], [] { return std::make_unique<CountedCase>(10); });
  // The plain loop's case is made in its turn, and b's making (started beside a) goes on.
  EXPECT_EQ(CurrentCase(*r["pass/plain"], [] { return std::make_unique<CountedCase>(30); }).id, 30);
  FinishAhead();  // what the plain loop does before its loop
  EXPECT_TRUE(b_made);
  EXPECT_EQ(CurrentCase(*r["pass/b"], [] { return std::make_unique<CountedCase>(20); }).id, 2);
  EnablePrefetch(false);
  ReleaseCurrentCase();
}

TEST(CaseAhead, ACaseThatRanOutOfMemoryAheadIsMadeAgainInItsTurn) {
  ReleaseCurrentCase();
  std::map<std::string, Record*> r;
  for (const char* name : {"oom/a", "oom/b"}) r[name] = AddRecordedBenchmark(name, [](benchmark::State&) {}).record;
  RegisterPrefetch(*r["oom/a"], [] { return std::static_pointer_cast<void>(std::make_shared<CountedCase>(1)); });
  RegisterPrefetch(*r["oom/b"], []() -> std::shared_ptr<void> { throw OutOfMemory("vkAllocateMemory failed"); });
  EnablePrefetch(true);
  CurrentCase(*r["oom/a"], [] { return std::make_unique<CountedCase>(1); });
  // Made alone, after a's case is freed.
  EXPECT_EQ(CurrentCase(*r["oom/b"], [] {
              EXPECT_EQ(CountedCase::alive, 0);
              return std::make_unique<CountedCase>(2);
            }).id,
            2);
  EnablePrefetch(false);
  ReleaseCurrentCase();
}

// A case that notes the thread it was freed on, by id.
struct FreedCase {
  static inline std::mutex lock;
  static inline std::map<int, std::thread::id> freed_on;
  explicit FreedCase(int id) : id(id) {}
  ~FreedCase() {
    std::lock_guard guard(lock);
    freed_on[id] = std::this_thread::get_id();
  }
  static bool Freed(int id) {
    std::lock_guard guard(lock);
    return freed_on.contains(id);
  }
  int id;
};

// Records named `prefix`/a, /b, ... in the run's order, each made ahead (where it may be) as a
// FreedCase of id 1, 2, ... with the Prefetch given; the first two made in their turn as 10, 20.
// Prefetch on, every case freed before, and the notes of frees cleared.
std::map<std::string, Record*> LeftCaseRun(const std::string& prefix, const std::vector<Prefetch>& prefetch) {
  ReleaseCurrentCase();
  FreedCase::freed_on.clear();
  std::map<std::string, Record*> r;
  for (size_t i = 0; i < prefetch.size(); ++i) {
    const std::string name = fmt::format("{}/{}", prefix, char('a' + i));
    r[name] = AddRecordedBenchmark(name, [](benchmark::State&) {}).record;
    const int id = static_cast<int>(i) + 1;
    RegisterPrefetch(*r[name], [id] { return std::static_pointer_cast<void>(std::make_shared<FreedCase>(id)); },
                     prefetch[i]);
  }
  EnablePrefetch(true);
  EXPECT_EQ(CurrentCase(*r[prefix + "/a"], [] { return std::make_unique<FreedCase>(10); }).id, 10);
  EXPECT_EQ(CurrentCase(*r[prefix + "/b"], [] { return std::make_unique<FreedCase>(20); }).id, 2);
  return r;
}

TEST(CaseAhead, TheCaseBeforeAHostClockedOneIsFreedByTheNextMakingNotOnTheFirstThread) {
  // As a Gray-Scott variant's modes: a device-timed one, then a host-clocked one (nothing made
  // beside its loop), then the next variant's.
  auto r = LeftCaseRun("left", {Prefetch::kBeside, Prefetch::kMade, Prefetch::kBeside, Prefetch::kMade});
  const std::thread::id first = std::this_thread::get_id();
  // Nothing is made beside b's loop: a's case waits for the next making instead of being freed here.
  EXPECT_FALSE(FreedCase::Freed(10));
  // c is made in its turn while a's case waits (b's is freed first, as before); c's loop lets d
  // be made beside it, and that making frees a's case first.
  EXPECT_EQ(CurrentCase(*r["left/c"], [] {
              EXPECT_FALSE(FreedCase::Freed(10));
              EXPECT_TRUE(FreedCase::Freed(2));
              return std::make_unique<FreedCase>(30);
            }).id,
            30);
  EXPECT_EQ(CurrentCase(*r["left/d"], [] { return std::make_unique<FreedCase>(40); }).id, 4);
  ASSERT_TRUE(FreedCase::Freed(10));
  EXPECT_NE(FreedCase::freed_on[10], first);
  EXPECT_EQ(FreedCase::freed_on[2], first);
  EnablePrefetch(false);
  ReleaseCurrentCase();
  EXPECT_TRUE(FreedCase::Freed(30));
  EXPECT_TRUE(FreedCase::Freed(4));
}

TEST(CaseAhead, TheCaseLeftForTheNextMakingIsFreedFirstWhereACaseMadeInTurnRunsOutOfMemory) {
  auto r = LeftCaseRun("left_oom", {Prefetch::kBeside, Prefetch::kMade, Prefetch::kBeside});
  EXPECT_FALSE(FreedCase::Freed(10));
  // c's making runs out of memory while a's case waits: a's is freed, and c made again.
  int tries = 0;
  EXPECT_EQ(CurrentCase(*r["left_oom/c"], [&tries] {
              if (++tries == 1) throw OutOfMemory("vkAllocateMemory failed");
              EXPECT_TRUE(FreedCase::Freed(10));
              return std::make_unique<FreedCase>(30);
            }).id,
            30);
  EXPECT_EQ(tries, 2);
  EnablePrefetch(false);
  ReleaseCurrentCase();
}

TEST(CaseAhead, TheCaseLeftForTheNextMakingIsFreedAtTheRunsEnd) {
  LeftCaseRun("left_end", {Prefetch::kBeside, Prefetch::kMade});
  EXPECT_FALSE(FreedCase::Freed(10));
  EnablePrefetch(false);
  ReleaseCurrentCase();
  EXPECT_TRUE(FreedCase::Freed(10));
  EXPECT_TRUE(FreedCase::Freed(2));
}

TEST(CaseAhead, AMissedGuessIsDroppedAndWhatItThrewIsNotLost) {
  ReleaseCurrentCase();
  std::map<std::string, Record*> r;
  for (const char* name : {"miss/a", "miss/b"}) r[name] = AddRecordedBenchmark(name, [](benchmark::State&) {}).record;
  RegisterPrefetch(*r["miss/a"], [] { return std::static_pointer_cast<void>(std::make_shared<CountedCase>(1)); });
  RegisterPrefetch(*r["miss/b"], []() -> std::shared_ptr<void> { throw std::runtime_error("b's check failed"); });
  EnablePrefetch(true);
  CurrentCase(*r["miss/a"], [] { return std::make_unique<CountedCase>(1); });
  // b's making failed on the other thread: its turn rethrows it, and keeps nothing.
  EXPECT_THROW(CurrentCase(*r["miss/b"], [] { return std::make_unique<CountedCase>(2); }), std::runtime_error);
  // a again (random interleaving): made in its turn, after dropping nothing.
  EXPECT_EQ(CurrentCase(*r["miss/a"], [] { return std::make_unique<CountedCase>(7); }).id, 7);
  EnablePrefetch(false);
  ReleaseCurrentCase();
  EXPECT_EQ(CountedCase::alive, 0);
}

}  // namespace
}  // namespace csbench
