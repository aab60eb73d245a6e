#include "harness/measure/selection.hpp"

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "harness/base/error.hpp"
#include "harness/base/options.hpp"
#include "harness/measure/record.hpp"
#include "harness/measure/session_state.hpp"

namespace csbench {
namespace {

SelectionState& TheRegistry() { return TheSession().selection(); }

class Unselected : public benchmark::internal::Benchmark {
 public:
  explicit Unselected(const std::string& name) : Benchmark(name.c_str()) {}
  void Run(benchmark::State&) override {}
};

// A selected benchmark: what benchmark::RegisterBenchmark makes, made here so that its handing to
// Google Benchmark can wait for the end of its family's registration.
class Selected : public benchmark::internal::Benchmark {
 public:
  Selected(const std::string& name, std::function<void(benchmark::State&)> fn)
      : Benchmark(name.c_str()), fn_(std::move(fn)) {}
  void Run(benchmark::State& state) override { fn_(state); }

 private:
  std::function<void(benchmark::State&)> fn_;
};

// Google Benchmark takes ownership of a benchmark by raw pointer up to 1.9.1 (Debian 12's 1.7.1,
// Debian 13's 1.9.1) and by std::unique_ptr in later releases.
template <typename B>
void HandOver(std::unique_ptr<B> benchmark) {
  namespace gbi = benchmark::internal;
  if constexpr (requires(std::unique_ptr<B> b) { gbi::RegisterBenchmarkInternal(std::move(b)); }) {
    gbi::RegisterBenchmarkInternal(std::move(benchmark));
  } else {
    gbi::RegisterBenchmarkInternal(benchmark.release());
  }
}

}  // namespace

NameFilter::NameFilter(std::string pattern) : pattern_(std::move(pattern)) {
  std::string_view body = pattern_;
  if (body.starts_with('-')) {
    negative_ = true;
    body.remove_prefix(1);
  }
  if (body.empty() || body == "all") return;
  try {
    // Google Benchmark's filter is a POSIX extended regex, searched for anywhere in the name.
    regex_.emplace(std::string(body), std::regex::extended | std::regex::nosubs);
  } catch (const std::regex_error& e) {
    throw UsageError{"--benchmark_filter='" + pattern_ + "' is not a valid regular expression (POSIX extended): " +
                     e.what()};
  }
}

bool NameFilter::Matches(std::string_view name) const {
  bool hit = !regex_ || std::regex_search(name.begin(), name.end(), *regex_);
  return hit != negative_;
}

bool Selection::Selects(std::string_view name) const {
  if (among && !among->contains(name)) return false;
  if (filter) return filter->Matches(name);
  return !default_set || default_set->contains(name);
}

void SetSelection(Selection selection) {
  TheRegistry().selection = std::move(selection);
}

bool SelectionTakes(std::string_view name) { return TheRegistry().selection.Selects(name); }

Added AddRecordedBenchmark(const std::string& name, std::function<void(benchmark::State&)> fn) {
  SelectionState& registry = TheRegistry();
  ++registry.offered;
  if (!registry.selection.Selects(name)) {
    return {.benchmark = registry.stand_ins.emplace_back(std::make_unique<Unselected>(name)).get()};
  }
  auto record = std::make_shared<Record>(name, DescriptionBeingRegistered());
  record->order = registry.records.size();
  record->shader_hash = ShaderHashBeingRegistered();
  registry.records.push_back(record);
  registry.names.push_back(name);
  auto benchmark = std::make_unique<Selected>(name, [record, fn = std::move(fn)](benchmark::State& state) {
    // Once the run has stopped (a lost device) nothing more can be measured: each benchmark left
    // fails at once, named, so that the output lists what did not run and why.
    if (const std::optional<std::string> why = RunStopReason()) {
      state.SkipWithError(("not run: " + *why).c_str());
      return;
    }
    RecordScope scope(record.get());
    fn(state);
  });
  benchmark::internal::Benchmark* settings = benchmark.get();
  if (registry.open) {
    registry.pending.push_back(std::move(benchmark));
  } else {
    HandOver(std::move(benchmark));
  }
  return {.benchmark = settings, .record = record.get()};
}

benchmark::internal::Benchmark* AddBenchmark(const std::string& name, std::function<void(benchmark::State&)> fn) {
  return AddRecordedBenchmark(name, std::move(fn)).benchmark;
}

FamilyRegistration::FamilyRegistration() {
  SelectionState& registry = TheRegistry();
  offered_ = registry.offered;
  selected_ = registry.records.size();
  pending_ = registry.pending.size();
  ++registry.open;
}

void FamilyRegistration::Commit() {
  SelectionState& registry = TheRegistry();
  committed_ = true;
  if (--registry.open > 0) return;
  for (auto& benchmark : registry.pending) HandOver(std::move(benchmark));
  registry.pending.clear();
}

FamilyRegistration::~FamilyRegistration() {
  if (committed_) return;
  // The family threw: its benchmarks were never handed over; forget them.
  SelectionState& registry = TheRegistry();
  --registry.open;
  registry.pending.resize(pending_);
  registry.offered = offered_;
  registry.names.resize(selected_);
  registry.records.resize(selected_);
}

size_t OfferedCount() {
  return TheRegistry().offered;
}

size_t SelectedCount() {
  return TheRegistry().records.size();
}

const std::vector<std::string>& SelectedNames() {
  return TheRegistry().names;
}

Record* SelectedRecord(size_t index) {
  const SelectionState& registry = TheRegistry();
  return index < registry.records.size() ? registry.records[index].get() : nullptr;
}

void RunRecords(const std::vector<const Record*>& records, benchmark::BenchmarkReporter* reporter) {
  if (records.empty()) return;
  // Google Benchmark runs what a filter selects, and nothing else: the records' exact names, each
  // with the suffix Google Benchmark appends to a timed name.
  std::string spec = "^(";
  for (size_t i = 0; i < records.size(); ++i) {
    if (i > 0) spec += '|';
    for (char c : records[i]->name()) {
      if (std::string_view(".[]{}()*+?^$|\\").find(c) != std::string_view::npos) spec += '\\';
      spec += c;
    }
  }
  spec += ")(/manual_time|/real_time)?$";
  benchmark::RunSpecifiedBenchmarks(reporter, spec);
}

Record* RecordOfRun(std::string_view name, int64_t family_index) {
  const SelectionState& registry = TheRegistry();
  // Each selected benchmark is a family of its own in Google Benchmark's registry, numbered in
  // registration order; the name confirms it (a library that numbered otherwise is searched).
  if (family_index >= 0) {
    if (Record* record = SelectedRecord(static_cast<size_t>(family_index)); record && record->name() == name) {
      return record;
    }
  }
  for (const auto& record : registry.records) {
    if (record->name() == name) return record.get();
  }
  return nullptr;
}

}  // namespace csbench
