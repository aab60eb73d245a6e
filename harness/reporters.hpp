// Google Benchmark reporters that keep csbench's names as designed. Google Benchmark appends
// "/manual_time" to every benchmark timed with UseManualTime ("/real_time" with UseRealTime);
// csbench's names are the contract between runs, baselines and devices, so the suffix is dropped
// from what is printed and saved.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace csbench {

// Runs the registered benchmarks as benchmark::RunSpecifiedBenchmarks would with `args` (the
// flags Google Benchmark parsed), with reporters that print the designed names. Handles
// --benchmark_list_tests, --benchmark_format, --benchmark_out and --benchmark_out_format.
void RunBenchmarks(const std::vector<std::string>& args);

// "reduction/x/wg8x8/domain640x480/manual_time" -> "reduction/x/wg8x8/domain640x480"; likewise
// "/real_time".
std::string WithoutTimeSuffix(std::string name);

}  // namespace csbench
