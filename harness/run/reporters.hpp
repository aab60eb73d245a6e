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

#include "harness/run/run_flags.hpp"

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
// Where this process only launches others (harness/run/launcher.hpp): on SIGINT or SIGTERM,
// `forward(signal)` passes the signal on and waits for them before the process exits.
void SetInterruptForwarder(void (*forward)(int));

// Runs the registered benchmarks with reporters that print the designed names: to the console
// (or --benchmark_format) and, with --benchmark_out, to that file, written whole when the run
// ends or is interrupted; JSON by the run's one writer (harness/run/json_writer.hpp).
// `args`: the flags left for Google Benchmark (the console's style reads them).
RunSummary RunBenchmarks(const RunFlags& flags, const std::vector<std::string>& args);

// "reduction/x/wg8x8/domain640x480/manual_time" -> "reduction/x/wg8x8/domain640x480"; likewise
// "/real_time".
std::string WithoutTimeSuffix(std::string name);

}  // namespace csbench
