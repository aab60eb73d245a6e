// The console a person reads. Google Benchmark's own console reporter prints every rate counter
// with a second "/s" (`Gelem/s=0.0642011/s`), six or seven digits where a run's noise allows
// three, and a CPU column that for a GPU entry is only the host's submit-and-wait time. This one
// prints counters once-suffixed with three significant digits, the device time of GPU entries,
// `[k/N]` before every result line, the min/median/max lines of repetitions, and on a terminal a
// live status line with an estimate of the time left. The JSON and CSV reporters are untouched.
#pragma once

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace csbench {

struct ConsoleStyle {
  bool color = false;    // ANSI colors
  bool tabular = false;  // --benchmark_counters_tabular: counters in aligned columns
  bool live = false;     // a status line rewritten with '\r' (only for a terminal)
  // Width of the name column; 0 takes Google Benchmark's, which counts the "/manual_time" that
  // csbench strips from the names.
  std::size_t name_width = 0;
};

class ConsoleReporter : public benchmark::BenchmarkReporter {
 public:
  // `total`: how many benchmarks the run selected (the N of `[k/N]`); 0 when unknown.
  ConsoleReporter(std::size_t total, ConsoleStyle style);

  // A line printed under the run's header (before any status line).
  void AddHeaderNote(std::string note) { notes_.push_back(std::move(note)); }

  bool ReportContext(const Context& context) override;
  void ReportRuns(const std::vector<Run>& runs) override;
  void Finalize() override;

 private:
  void PrintHeader(const Run& run);
  void PrintRun(const Run& run);
  void PrintChapterLines();
  void ClearStatus();
  void PrintStatus(const std::string& last_name);
  std::string Prefix() const;
  std::string Paint(const char* color, const std::string& text) const;

  std::size_t total_;
  ConsoleStyle style_;
  std::size_t name_width_ = 0;
  std::size_t done_ = 0;                   // benchmarks reported so far (the k of [k/N])
  std::string current_;                    // the benchmark whose lines are being printed
  std::optional<std::string> header_key_;  // what the last printed header was for
  std::string chapter_;                    // time:/thrpt: lines waiting for the aggregates
  bool status_shown_ = false;
  std::vector<std::string> notes_;
  std::chrono::steady_clock::time_point start_;
};

// A counter value with `digits` significant digits (more when the integer part is longer, up to
// 99999), no trailing zeros; SI suffixes k, M, G, T from 1e5 up; an exponent below 1e-4.
//   0.0642011 -> "0.0642", 1.02822 -> "1.03", 55 -> "55", 1234.6 -> "1235", 2073600 -> "2.07M"
std::string SignificantDigits(double value, int digits = 3);

// Seconds in the unit that fits: 0.004785 -> "4.79 ms", 1.79e-6 -> "1.79 us".
std::string FormatSeconds(double seconds);

// One counter as the console prints it, without the name: rates are already per second in their
// names (Gelem/s, GB/s), so no unit is appended; a percentage aggregate (the coefficient of
// variation) is shown in percent.
std::string FormatCounter(const benchmark::Counter& counter, bool percentage);

// The order counters are shown in: throughput first (Gelem/s, GB/s, roofline%), then
// dispatches/sample, then the rest by name.
std::vector<std::string> CounterOrder(const benchmark::UserCounters& counters);

// The console's style from Google Benchmark's flags in `args`: --benchmark_color (auto: colors
// on a terminal) and --benchmark_counters_tabular. `to_terminal`: the console is a terminal,
// which also turns the live status line on.
ConsoleStyle ConsoleStyleFromFlags(const std::vector<std::string>& args, bool to_terminal);

}  // namespace csbench
