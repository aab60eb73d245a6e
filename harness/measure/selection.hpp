// Which benchmarks a run selects. csbench matches --benchmark_filter itself, against the names as
// printed and saved, and registers with Google Benchmark only what it selects: Google Benchmark's
// own filter sees "/manual_time" at the end of every GPU-timed name, so a user's `$` would match
// nothing. A name enters Google Benchmark's registry only through AddBenchmark().
#pragma once

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace csbench {

// A --benchmark_filter value, with Google Benchmark's meaning: a POSIX extended regex searched
// for in the name; "" and "all" select everything; a leading '-' selects what does not match.
class NameFilter {
 public:
  // Throws UsageError when `pattern` is not a valid regex.
  explicit NameFilter(std::string pattern);
  bool Matches(std::string_view name) const;
  const std::string& pattern() const { return pattern_; }

 private:
  std::string pattern_;
  bool negative_ = false;
  std::optional<std::regex> regex_;  // empty: everything
};

// What AddBenchmark() lets through: the user's filter, or else the run's default set, the names
// the families' descriptors choose for the device (a CPU device's quick set; on a GPU, all but a
// few) or the manifests' families' names. With neither, everything.
struct Selection {
  std::optional<NameFilter> filter;
  std::optional<std::set<std::string, std::less<>>> default_set;  // used only without a filter
  // Where given, nothing else is selected, filter or not: a run of --manifest, the manifests'
  // benchmarks (the built-in families join by --with-built-ins).
  std::optional<std::set<std::string, std::less<>>> among;
  bool Selects(std::string_view name) const;
};

// Sets the run's selection; main calls it before the families register.
void SetSelection(Selection selection);
// Whether the run's selection takes `name`: for a family whose registration costs more than its
// names (a peer that starts another API's driver), to skip that cost where nothing of it runs.
bool SelectionTakes(std::string_view name);

// Registers `fn` under `name` with Google Benchmark if the selection takes it, with the
// benchmark's record (harness/measure/record.hpp): described by the Describing scope the
// registration stands in, if any, and the current record whenever `fn` runs. Otherwise returns a
// stand-in that accepts the same settings (UseManualTime(), Unit(), ...) and never runs.
benchmark::internal::Benchmark* AddBenchmark(const std::string& name, std::function<void(benchmark::State&)> fn);

class Record;
// AddBenchmark, with the selected benchmark's record (null where the selection does not take it).
struct Added {
  benchmark::internal::Benchmark* benchmark = nullptr;
  Record* record = nullptr;
};
Added AddRecordedBenchmark(const std::string& name, std::function<void(benchmark::State&)> fn);

// One family's registration as a whole: the benchmarks it adds are handed to Google Benchmark
// by Commit(); without it (the family threw halfway), the destructor takes back everything the
// family added, so that a family is registered whole or not at all. Registrations may nest: the
// outermost one's Commit() hands over what every committed inner one added.
class FamilyRegistration {
 public:
  FamilyRegistration();
  FamilyRegistration(const FamilyRegistration&) = delete;
  FamilyRegistration& operator=(const FamilyRegistration&) = delete;
  ~FamilyRegistration();
  void Commit();

 private:
  size_t offered_ = 0, selected_ = 0, pending_ = 0;
  bool committed_ = false;
};

// How many names the families offered, and how many of them were selected.
size_t OfferedCount();
size_t SelectedCount();
// The selected names, in the order they run.
const std::vector<std::string>& SelectedNames();

// The record of the `index`-th selected benchmark (SelectedNames' order), or null past the end.
Record* SelectedRecord(size_t index);
// The record of the selected benchmark a reported run of `name` belongs to (Google Benchmark's
// family index, confirmed by the name), or null for a name never registered here.
Record* RecordOfRun(std::string_view name, int64_t family_index);

// Runs the benchmarks of `records` (selected ones), and only those, in the run's order, reporting
// to `reporter`: how a search measures the points it chose (harness/tune/).
void RunRecords(const std::vector<const Record*>& records, benchmark::BenchmarkReporter* reporter);

}  // namespace csbench
