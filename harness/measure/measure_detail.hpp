// What the measuring loops share between their files: the timed batch kept across a benchmark's
// calls (measure.cpp records it, prefetch.cpp frees it with its case) and the clock guard's
// reading of a loop (clock_guard.cpp, read by the host-clocked loop too).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "harness/measure/measure.hpp"
#include "harness/measure/run_notes.hpp"
#include "harness/vulkan/timing.hpp"

namespace csbench::measure_detail {

// The timed batch of the current case (CurrentCase), kept across Google Benchmark's calls of its
// benchmark: recording thousands of dispatches again for each of a benchmark's ten or so calls
// cost more host time than some of its timed loops. Freed with the case, before its buffers go.
struct KeptBatch {
  const Record* record = nullptr;  // the benchmark whose case it records
  uint32_t count = 0;
  // A batch of `count` for each start in the rotation it began at (one, at 0, where `count` is
  // whole rounds); at most kKeptStarts, the oldest dropped first.
  std::map<uint32_t, std::unique_ptr<TimedBatch>> batches;
  std::vector<uint32_t> order;
};

inline constexpr size_t kKeptStarts = 64;

// The case a benchmark leaves behind when the next one begins, with the timed batch that records
// its buffers (declared after it, so freed first however a Retired goes); prefetch.cpp frees it.
struct Retired {
  std::shared_ptr<void> value;
  std::map<uint32_t, std::unique_ptr<TimedBatch>> batches;

  bool empty() const { return !value && batches.empty(); }
  void Free();  // on the calling thread, as the run's release
};

// The guard's reading after a loop, into `note`: the ratio, and whether it says the clocks were down.
void ReadGuard(const ClockGuardHooks& guard, RunNote& note);

// Where `guard` vouches for the clocks by a loop's median sample (kVouchTolerance): `note` takes
// the reading of the loop that vouches, unprobed.
bool Vouched(const ClockGuardHooks& guard, double median, RunNote& note);

// A probed loop's median, kept where the probe found the clocks up and it is the benchmark's fastest.
void RememberVouch(const ClockGuardHooks& guard, double median, const RunNote& note);

}  // namespace csbench::measure_detail
