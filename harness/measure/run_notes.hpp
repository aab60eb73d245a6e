// What a benchmark's timed loops, its case and its declared arithmetic leave behind for its
// record (harness/measure/record.hpp) and the JSON report: the clock guard's reading after each
// loop, how many times the loop was measured, and (on request) the raw samples.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace csbench {

struct RunNote {
  uint64_t iterations = 0;  // the call's iteration count: a note belongs to the run that has it
  // The clock probe's time after the loop over its fastest (harness/vulkan/clock_probe.hpp); 0 where
  // nothing guards the clocks (a CPU device, a plain loop).
  double clock_guard = 0;
  uint32_t measured = 1;   // 1, or more where the guard found the clocks down and the loop ran again
  bool throttled = false;  // the clocks were still down after the last measurement
  // Whether the probe ran after this loop; false where the loop's samples vouched for the clocks
  // (MeasureGuarded) and clock_guard is the reading of the loop that vouches.
  bool probed = true;
  // The seconds of each sample (a batch of `dispatches/sample` iterations, or one run), in the
  // order taken; empty unless --samples asked for them.
  std::vector<double> samples;
};

// What making a benchmark's case cost: making it (inputs, references, buffers, pipelines) and
// checking it, on whichever thread, and how long the run's first thread waited for it (all of it
// where it was made in turn; where made ahead, only what the timed loop before did not cover).
struct CaseNote {
  double case_seconds = 0;
  double check_seconds = 0;
  double waited_seconds = 0;
  bool ahead = false;  // made on the thread ahead (harness/measure/measure.hpp)
};
// What warming the device up before a benchmark's timed loops cost over all its calls (WarmUp):
// the seconds, the clock probe's included, and the benchmark's own runs.
struct WarmUpNote {
  double seconds = 0;
  uint32_t runs = 0;
  uint32_t probes = 0;  // the clock probe's runs in raising the clocks first
};
// What a benchmark declares of its arithmetic, and the bound that binds it (SetBoundPercent).
struct IntensityNote {
  double ops_per_element = 0;
  std::string unit;  // "FLOP" or "OP"
  double bytes_per_element = 0;
  std::string memory_ceiling;   // "copy" or "read"
  std::string compute_ceiling;  // "fp32_fma", "fp16_fma", "int32_mad"
  std::string binds;            // "memory" or "compute": the longer of the two at the ceilings
  double dispatch_share = 0;    // of the bound, the part the dependent dispatches' cost takes
  bool lower_bound = false;     // the kernel does more arithmetic than declared
};

// Whether timed loops keep their samples (--samples).
void KeepSamples(bool keep);
bool KeepingSamples();

// The fastest loop of a benchmark that the clock probe found the clocks up after: the median of
// its samples and the probe's reading (MeasureGuarded).
struct Vouch {
  double median = 0;
  double reading = 0;
};

}  // namespace csbench
