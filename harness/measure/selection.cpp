#include "harness/measure/selection.hpp"

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "harness/base/error.hpp"
#include "harness/base/options.hpp"
#include "harness/measure/record.hpp"

namespace csbench {
namespace {

struct Registry {
  Selection selection;
  size_t offered = 0;
  std::vector<std::string> selected;
  // The selected benchmarks' records, in registration order (Google Benchmark's family index).
  std::vector<std::shared_ptr<Record>> records;
  // Stand-ins for unselected names: they only absorb the settings callers chain onto them.
  std::deque<std::unique_ptr<benchmark::internal::Benchmark>> stand_ins;
  // A family being registered (FamilyRegistration): its benchmarks wait here, settings and all,
  // until the whole family has registered, so that a family that throws halfway leaves nothing.
  // Registrations may nest (a declaration that registers two families guards each): the
  // outermost one hands the benchmarks over.
  int open = 0;
  std::vector<std::unique_ptr<benchmark::internal::Benchmark>> pending;
};

Registry& TheRegistry() {
  static Registry registry;
  return registry;
}

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
  if (filter) return filter->Matches(name);
  return !default_set || default_set->contains(name);
}

void SetSelection(Selection selection) {
  TheRegistry().selection = std::move(selection);
}

benchmark::internal::Benchmark* AddBenchmark(const std::string& name, std::function<void(benchmark::State&)> fn) {
  Registry& registry = TheRegistry();
  ++registry.offered;
  if (!registry.selection.Selects(name)) {
    return registry.stand_ins.emplace_back(std::make_unique<Unselected>(name)).get();
  }
  registry.selected.push_back(name);
  auto record = std::make_shared<Record>(name, DescriptionBeingRegistered());
  registry.records.push_back(record);
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
  return settings;
}

FamilyRegistration::FamilyRegistration() {
  Registry& registry = TheRegistry();
  offered_ = registry.offered;
  selected_ = registry.selected.size();
  pending_ = registry.pending.size();
  ++registry.open;
}

void FamilyRegistration::Commit() {
  Registry& registry = TheRegistry();
  committed_ = true;
  if (--registry.open > 0) return;
  for (auto& benchmark : registry.pending) HandOver(std::move(benchmark));
  registry.pending.clear();
}

FamilyRegistration::~FamilyRegistration() {
  if (committed_) return;
  // The family threw: its benchmarks were never handed over; forget them.
  Registry& registry = TheRegistry();
  --registry.open;
  registry.pending.resize(pending_);
  registry.offered = offered_;
  registry.selected.resize(selected_);
  registry.records.resize(selected_);
}

size_t OfferedCount() {
  return TheRegistry().offered;
}

size_t SelectedCount() {
  return TheRegistry().selected.size();
}

const std::vector<std::string>& SelectedNames() {
  return TheRegistry().selected;
}

Record* SelectedRecord(size_t index) {
  const Registry& registry = TheRegistry();
  return index < registry.records.size() ? registry.records[index].get() : nullptr;
}

Record* RecordOfRun(std::string_view name, int64_t family_index) {
  const Registry& registry = TheRegistry();
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
