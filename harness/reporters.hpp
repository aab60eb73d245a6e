// Google Benchmark reporters that keep csbench's names as designed, and the run's outcome.
// Google Benchmark appends "/manual_time" to every benchmark timed with UseManualTime
// ("/real_time" with UseRealTime); csbench's names are the contract between runs, baselines and
// devices, so the suffix is dropped from what is printed and saved.
#pragma once

#include <benchmark/benchmark.h>

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "harness/run_flags.hpp"

namespace csbench {

// What a run did: the benchmarks that finished, and those that failed (a check against the
// reference, an error) or were skipped because the device cannot run them.
struct RunSummary {
  size_t finished = 0;
  std::vector<std::pair<std::string, std::string>> failed;       // name, reason
  std::vector<std::pair<std::string, std::string>> unsupported;  // name, reason
};

// Blocks SIGINT and SIGTERM in the calling thread and in every thread created after it, and
// starts the thread that handles them: on either, the output file is written with every result
// that finished and "interrupted": true in its context, and the process exits with 128 + the
// signal's number (130, 143). main calls it first, before any library starts a thread.
void HandleInterrupts();
// Where this process only launches others (harness/launcher.hpp): on SIGINT or SIGTERM,
// `forward(signal)` passes the signal on and waits for them before the process exits.
void SetInterruptForwarder(void (*forward)(int));

// Runs the registered benchmarks with reporters that print the designed names: to the console
// (or --benchmark_format) and, with --benchmark_out, to that file, written whole when the run
// ends or is interrupted.
// `args`: the flags left for Google Benchmark (the console's style reads them).
RunSummary RunBenchmarks(const RunFlags& flags, const std::vector<std::string>& args);

// "reduction/x/wg8x8/domain640x480/manual_time" -> "reduction/x/wg8x8/domain640x480"; likewise
// "/real_time".
std::string WithoutTimeSuffix(std::string name);

// The text of a JSON report that Google Benchmark's JSONReporter wrote up to some point, made
// valid: closed where it stopped, and marked "interrupted": true in its context when it is.
// An empty text (the run stopped before its context) becomes a report with no benchmarks.
std::string CompleteJson(const std::string& text, bool finalized, bool interrupted);

// Google Benchmark's JSON reporter, with each benchmark entry (iterations and aggregates alike)
// carrying the benchmark's description (harness/points.hpp) after its name, and each run of a
// timed loop its note (harness/run_notes.hpp) in the same object:
//   "csbench": {"family": "...", "variant": "...", "clock": "device", "axes": {"workgroup": "8x8", ...},
//               "clock_guard": 1.0040, "measured": 1},
std::unique_ptr<benchmark::BenchmarkReporter> MakeJsonReporter();

// `entries`, the text JSONReporter writes for one call of ReportRuns, with the "csbench" field
// after the name of entry k, the description of `names[k]` with `notes[k]`'s members where given
// (an entry whose name has no description keeps its text as it was).
std::string WithDescriptions(std::string_view entries, const std::vector<std::string>& names,
                             const std::vector<std::string>& notes = {});

}  // namespace csbench
