#include "harness/base/fork_join.hpp"

#include <gtest/gtest.h>

#include <atomic>
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
