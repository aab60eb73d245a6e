#include "harness/base/fork_join.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <stdexcept>
#include <thread>
#include <vector>

namespace csbench {
namespace {

TEST(ForkJoin, RunsEveryPartOnceAndTheCallerRunsPartZero) {
  for (uint32_t threads : {1u, 2u, 5u}) {
    ForkJoin pool(threads);
    EXPECT_EQ(pool.threads(), threads);
    for (int round = 0; round < 50; ++round) {
      std::vector<std::atomic<int>> calls(threads);
      std::vector<std::thread::id> ids(threads);
      pool.Run([&](uint32_t part) {
        ++calls[part];
        ids[part] = std::this_thread::get_id();
      });
      for (uint32_t part = 0; part < threads; ++part) EXPECT_EQ(calls[part].load(), 1) << part;
      EXPECT_EQ(ids[0], std::this_thread::get_id());
      for (uint32_t part = 1; part < threads; ++part) EXPECT_NE(ids[part], std::this_thread::get_id());
    }
  }
}

TEST(ForkJoin, ZeroThreadsIsOne) { EXPECT_EQ(ForkJoin(0).threads(), 1u); }

TEST(ForkJoin, PartsRunAtTheSameTime) {
  // Every part waits until all have started: a pool that ran them one after another would hang
  // here, so the wait is bounded and the test fails instead.
  ForkJoin pool(4);
  std::atomic<uint32_t> started{0};
  std::atomic<bool> all_met{true};
  pool.Run([&](uint32_t) {
    ++started;
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (started.load() < 4) {
      if (std::chrono::steady_clock::now() > give_up) {
        all_met = false;
        return;
      }
      std::this_thread::yield();
    }
  });
  EXPECT_TRUE(all_met.load());
}

TEST(ForkJoin, RethrowsAPartsExceptionAfterAllFinished) {
  ForkJoin pool(3);
  std::atomic<int> finished{0};
  EXPECT_THROW(pool.Run([&](uint32_t part) {
    if (part == 2) throw std::runtime_error("part 2");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ++finished;
  }),
               std::runtime_error);
  EXPECT_EQ(finished.load(), 2);
  // The pool still works after a failed run.
  std::atomic<int> calls{0};
  pool.Run([&](uint32_t) { ++calls; });
  EXPECT_EQ(calls.load(), 3);
}

TEST(ForkJoin, MeasuredPathThreadsIsBetweenOneAndEight) {
  const uint32_t threads = MeasuredPathThreads();
  EXPECT_GE(threads, 1u);
  EXPECT_LE(threads, 8u);
}

}  // namespace
}  // namespace csbench

namespace csbench {
namespace {

TEST(Scans, FirstWhereFindsTheLeastIndexWhateverTheThreads) {
  const size_t n = 1'000'003;
  EXPECT_EQ(FirstWhere(n, [](size_t i) { return i >= 777'777 || i == 900'000; }), 777'777u);
  EXPECT_EQ(FirstWhere(n, [](size_t i) { return i % 250'000 == 3 && i > 10; }), 250'003u);
  EXPECT_EQ(FirstWhere(n, [](size_t) { return false; }), n);  // none: n
  EXPECT_EQ(FirstWhere(0, [](size_t) { return true; }), 0u);
}

TEST(Scans, WorstOfKeepsTheFirstOfTheGreatestAndCountsNaNAsInfinite) {
  const size_t n = 500'000;
  Worst w = WorstOf(n, [](size_t i) { return i == 123 || i == 400'000 ? 2.0 : i == 7 ? 1.0 : 0.0; });
  EXPECT_EQ(w.error, 2.0);
  EXPECT_EQ(w.index, 123u);
  w = WorstOf(n, [](size_t i) { return i == 300'001 ? std::nan("") : 0.5; });
  EXPECT_TRUE(std::isinf(w.error));
  EXPECT_EQ(w.index, 300'001u);
  w = WorstOf(n, [](size_t) { return 0.0; });
  EXPECT_EQ(w.error, 0.0);
  EXPECT_EQ(w.index, 0u);
}

TEST(Scans, OrderedSumAddsInAFixedOrder) {
  const size_t n = 3 * kScanGrain + 17;
  // Values whose sum depends on the order of additions in double: the same result every call.
  auto value = [](size_t i) { return i % 2 == 0 ? 1e16 : -1e16 + 1.0 * static_cast<double>(i % 7); };
  const double first = OrderedSum(n, value);
  for (int k = 0; k < 5; ++k) EXPECT_EQ(OrderedSum(n, value), first);
  EXPECT_EQ(OrderedSum(1000, [](size_t i) { return static_cast<double>(i); }), 499500.0);
}

}  // namespace
}  // namespace csbench
