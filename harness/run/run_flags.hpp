// The Google Benchmark flags csbench handles itself: the filter (matched against the names as
// printed, see selection.hpp), the output file (written whole, also when the run is interrupted,
// see reporters.hpp), and the range checks Google Benchmark 1.7 does not make (a negative
// repetition count aborts it).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace csbench {

struct RunFlags {
  std::optional<std::string> filter;  // --benchmark_filter; absent: the device's default set
  std::string out;                    // --benchmark_out; empty: none
  std::string out_format = "json";    // --benchmark_out_format
  std::string format = "console";     // --benchmark_format
  std::string color = "auto";         // --benchmark_color
  bool list_tests = false;            // --benchmark_list_tests
  bool min_time_given = false;        // the user chose --benchmark_min_time
  std::string min_time;               // its value, as given
};

// Takes --benchmark_filter, --benchmark_out and --benchmark_out_format out of `args`, reads (and
// leaves for Google Benchmark) the format, color, list-tests, repetition and min-time flags, and
// throws UsageError for a value out of range, naming what is valid.
RunFlags TakeRunFlags(std::vector<std::string>& args);

}  // namespace csbench
