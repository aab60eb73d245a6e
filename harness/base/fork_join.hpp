// A fixed set of host threads that run the parts of one piece of work together: host-side work
// on a benchmark's measured path (the Gray-Scott host sums) that one thread would leave bound by
// a single core's memory bandwidth.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace csbench {

class ForkJoin {
 public:
  // `threads` parts per Run (at least 1): the calling thread runs part 0 and threads - 1 workers,
  // started here and kept until destruction, run the others.
  explicit ForkJoin(uint32_t threads);
  ~ForkJoin();
  ForkJoin(const ForkJoin&) = delete;
  ForkJoin& operator=(const ForkJoin&) = delete;

  uint32_t threads() const { return threads_; }

  // Calls part(i) once for every i in [0, threads()), at the same time on the pool's threads, and
  // returns when all have returned. An exception from a part is rethrown here (the first one),
  // after every part has finished.
  void Run(const std::function<void(uint32_t)>& part);

 private:
  void Work(uint32_t index);

  uint32_t threads_;
  std::mutex mutex_;
  std::condition_variable start_;
  std::condition_variable done_;
  const std::function<void(uint32_t)>* part_ = nullptr;
  uint64_t generation_ = 0;  // one more at every Run: a worker runs each generation once
  uint32_t running_ = 0;     // workers not yet finished with this generation
  bool stopping_ = false;
  std::exception_ptr error_;
  std::vector<std::jthread> workers_;  // last: joined before the members they use go
};

// Host threads for work on a benchmark's measured path: half the host's hardware threads, at
// most 8, at least 1. Half leaves the others to the Vulkan driver's threads and a CPU device's
// (lavapipe) own workers; 8 is about where one socket's memory bandwidth stops growing.
uint32_t MeasuredPathThreads();

// Calls body(begin, end) for consecutive ranges that cover [0, n), at the same time on up to the
// host's hardware threads (threads of this call, the calling one among them), each range at least
// `grain` items and, but for the last, a multiple of `align`; returns when all have returned and
// rethrows the first exception. For work off the measured path (a case's references and checks).
void ParallelFor(size_t n, size_t grain, const std::function<void(size_t, size_t)>& body, size_t align = 1);

// The scans below over a case's outputs (a check's), on every host thread: ranges of at least
// this many items.
inline constexpr size_t kScanGrain = size_t{1} << 16;

// The least i in [0, n) where found(i) holds; n where none does.
size_t FirstWhere(size_t n, const std::function<bool(size_t)>& found);
// The same, a range at a time: first(begin, end) returns the least i in [begin, end) it finds, or
// `end` (a loop of its own per range, for scans that a call per item would slow down).
size_t FirstInRanges(size_t n, const std::function<size_t(size_t, size_t)>& first);

// The greatest error(i) over [0, n) and its least index, a NaN counting as infinite; {0, 0} where
// every error is 0 (or n is 0), as one loop that keeps the first strictly greater error gives.
struct Worst {
  double error = 0;
  size_t index = 0;
};
Worst WorstOf(size_t n, const std::function<double(size_t)>& error);

// The sum of value(i) over [0, n) in double: each kScanGrain items summed on a host thread, the
// sums added in order, so the result does not depend on the number of threads.
double OrderedSum(size_t n, const std::function<double(size_t)>& value);

}  // namespace csbench
