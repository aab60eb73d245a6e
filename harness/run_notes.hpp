// What a timed loop learned besides its time, kept for the JSON report: the clock guard's reading
// after the loop, how many times the loop was measured, and (on request) the raw samples.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace csbench {

struct RunNote {
  uint64_t iterations = 0;  // the call's iteration count: a note belongs to the run that has it
  // The clock probe's time after the loop over its fastest (harness/clock_probe.hpp); 0 where
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

// Whether timed loops keep their samples (--samples).
void KeepSamples(bool keep);
bool KeepingSamples();

// Adds the note of one call of benchmark `name` (Google Benchmark calls a benchmark several times:
// to find its iteration count, then once per repetition).
void AddRunNote(const std::string& name, RunNote note);

// The notes of the last `runs` calls of `name`, oldest first, and forgets every note of it: the
// reported runs of a benchmark are its last calls (the iteration count is searched in the first
// repetition only). A note whose iterations differ from its run's is not that run's: the caller
// checks.
std::vector<RunNote> TakeRunNotes(const std::string& name, size_t runs);

// The note as the members of the JSON entry's "csbench" object, without braces:
// "clock_guard": 1.012, "measured": 1 (and "probed": false, "throttled": true, "samples_s": [...]
// where they apply).
std::string ToJsonMembers(const RunNote& note);

}  // namespace csbench
