#include "harness/selection.hpp"

#include <deque>
#include <memory>
#include <utility>

#include "harness/options.hpp"

namespace csbench {
namespace {

struct Registry {
  Selection selection;
  size_t offered = 0;
  std::vector<std::string> selected;
  // Stand-ins for unselected names: they only absorb the settings callers chain onto them.
  std::deque<std::unique_ptr<benchmark::internal::Benchmark>> stand_ins;
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
  return benchmark::RegisterBenchmark(name.c_str(), std::move(fn));
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

}  // namespace csbench
