// The current case and the cases made ahead: while the device measures one benchmark, the next
// ones' cases are made on other threads, in the run's order, and the one before is freed there.
#include "harness/measure/measure.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>
#include <future>
#include <limits>
#include <map>

#include "harness/base/error.hpp"
#include "harness/base/statistics.hpp"
#include "harness/measure/measure_detail.hpp"
#include "harness/measure/record.hpp"
#include "harness/measure/roofline.hpp"
#include "harness/measure/run_notes.hpp"
#include "harness/vulkan/clock_probe.hpp"
#include "harness/vulkan/commands.hpp"
#include "harness/vulkan/context.hpp"
#include "harness/vulkan/limits.hpp"
#include "harness/vulkan/timing.hpp"

namespace csbench {

using namespace measure_detail;

CaseSlot& CurrentCaseSlot() {
  static CaseSlot slot;
  return slot;
}

namespace {

// How many cases may be in making ahead of the one being measured: two, so that a case that takes
// longer to make than the benchmark before it measures starts while the one before that measures
// (a whole-suite run then waits about a quarter less for cases, docs/perf-notes.md, section 17).
// Each is made after the one before it, on a thread of its own: at most three cases are alive at
// a time.
constexpr size_t kAheadDepth = 2;

// The cases being made ahead, in the run's order.
struct Ahead {
  bool enabled = false;
  struct Making {
    std::string name;
    std::shared_future<std::shared_ptr<void>> made;
  };
  std::deque<Making> queue;
};

Ahead& TheAhead() {
  static Ahead ahead;
  return ahead;
}

// Waits for every case being made ahead and drops them, and what they threw.
void DropAhead() {
  Ahead& ahead = TheAhead();
  for (Ahead::Making& making : ahead.queue) making.made.wait();
  ahead.queue.clear();
}

// Where `name` is in the run's order (its size where it is not there).
size_t OrderOf(const std::string& name) {
  const std::vector<std::string>& order = SelectedNames();
  return static_cast<size_t>(std::find(order.begin(), order.end(), name) - order.begin());
}

// The case made ahead for `name`, waited for (null when none was, or when its making ran out of
// memory: the caller makes it again, after freeing the case before it); rethrows what else its
// making threw.
std::shared_ptr<void> TakeAhead(const std::string& name) {
  Ahead& ahead = TheAhead();
  if (ahead.queue.empty()) return nullptr;
  if (ahead.queue.front().name != name) {
    // A benchmark the making passed by (Prefetch::kWaits) is made in its turn; else the guess
    // missed (random interleaving, a filter's order).
    const size_t at = OrderOf(name);
    if (at >= OrderOf(ahead.queue.front().name) || SelectedRecord(at)->prefetch != Prefetch::kWaits) DropAhead();
    return nullptr;
  }
  const std::shared_future<std::shared_ptr<void>> made = std::move(ahead.queue.front().made);
  ahead.queue.pop_front();
  Spending spending(Phase::kCase);  // the main thread waiting for it
  const double start = SecondsSinceStart();
  struct Waited {
    const std::string& name;
    double start;
    ~Waited() {
      if (Record* record = CurrentRecord()) record->NoteCaseWait(SecondsSinceStart() - start);
    }
  } waited{name, start};
  try {
    return made.get();
  } catch (const OutOfMemory&) {
    return nullptr;
  }
}

// The case a benchmark leaves behind when the next one begins, with the timed batch that records
// its buffers (declared after it, so freed first however a Retired goes).
struct Retired {
  std::shared_ptr<void> value;
  std::map<uint32_t, std::unique_ptr<TimedBatch>> batches;

  void Free() {
    Spending spending(Phase::kRelease);
    batches.clear();
    value.reset();
  }
};

Retired TakeKeptCase() {
  CaseSlot& slot = CurrentCaseSlot();
  Retired retired{.value = std::move(slot.value), .batches = std::move(TheKeptBatch().batches)};
  TheKeptBatch() = KeptBatch{};
  slot.value.reset();
  slot.name.clear();
  return retired;
}

// Starts making the cases of the benchmarks after `name` in the run's order, up to kAheadDepth
// ahead, where every benchmark measured while one is made lets it be (Prefetch::kBeside) and the
// one made may be made ahead. The first making started frees `retired` first (freeing a case's
// buffers and pipelines on the first thread costs a whole-suite run seconds, docs/perf-notes.md,
// section 10); where none starts, it is freed here.
void StartAheadOf(const std::string& name, Retired retired) {
  Ahead& ahead = TheAhead();
  const size_t at = OrderOf(name);
  const Record* current = SelectedRecord(at);
  auto leftover = std::make_shared<Retired>(std::move(retired));
  // A stopped run (a lost device) makes nothing more: every benchmark left is skipped.
  if (ahead.enabled && !RunStopReason() && current != nullptr && current->prefetch == Prefetch::kBeside) {
    size_t next = ahead.queue.empty() ? at + 1 : OrderOf(ahead.queue.back().name) + 1;
    for (; ahead.queue.size() < kAheadDepth; ++next) {
      const Record* before = SelectedRecord(next - 1);
      Record* record = SelectedRecord(next);
      if (before == nullptr || record == nullptr ||
          (before->prefetch != Prefetch::kBeside && before->prefetch != Prefetch::kWaits)) {
        break;
      }
      if (record->prefetch == Prefetch::kWaits) continue;  // passed by: made in its turn
      if (record->prefetch == Prefetch::kNo || !record->make_ahead) break;
      std::shared_future<std::shared_ptr<void>> previous;
      if (!ahead.queue.empty()) previous = ahead.queue.back().made;
      auto made = std::async(std::launch::async, [to_free = std::move(leftover), previous, record,
                                                  make = record->make_ahead] {
        if (to_free) to_free->Free();
        if (previous.valid()) previous.wait();  // one making at a time, in the run's order
        // What the making notes (its time, its check's) is the next benchmark's.
        RecordScope scope(record);
        return make();
      });
      ahead.queue.push_back({record->name(), made.share()});
    }
  }
  if (leftover) leftover->Free();  // no making started: freed here
}

void ReleaseKeptCase() { TakeKeptCase().Free(); }

}  // namespace

void RegisterPrefetch(const std::string& name, std::function<std::shared_ptr<void>()> make, Prefetch prefetch) {
  if (prefetch == Prefetch::kNo) return;
  // The latest registration of the name: a benchmark registers its making right after itself.
  const std::vector<std::string>& order = SelectedNames();
  const auto it = std::find(order.rbegin(), order.rend(), name);
  if (it == order.rend()) return;  // not selected: never made
  Record* record = SelectedRecord(static_cast<size_t>(order.rend() - it) - 1);
  record->prefetch = prefetch;
  record->make_ahead = std::move(make);
}

void EnablePrefetch(bool enable) { TheAhead().enabled = enable; }

void PassedByAhead(const std::string& name) {
  const std::vector<std::string>& order = SelectedNames();
  const auto it = std::find(order.rbegin(), order.rend(), name);
  if (it == order.rend()) return;
  SelectedRecord(static_cast<size_t>(order.rend() - it) - 1)->prefetch = Prefetch::kWaits;
}

void FinishAhead() {
  Ahead& ahead = TheAhead();
  if (ahead.queue.empty()) return;
  Spending spending(Phase::kCase);
  const double start = SecondsSinceStart();
  for (Ahead::Making& making : ahead.queue) making.made.wait();
  if (Record* record = CurrentRecord()) record->AddCaseWait(SecondsSinceStart() - start);
}

std::shared_ptr<void> CaseFor(const std::string& name, const std::function<std::shared_ptr<void>()>& make) {
  CaseSlot& slot = CurrentCaseSlot();
  if (slot.name == name && slot.value) return slot.value;
  Retired retired = TakeKeptCase();
  std::shared_ptr<void> made = TakeAhead(name);
  if (!made) {
    retired.Free();  // before making this one: one case's memory at a time
    made = make();
  }
  slot.value = made;
  slot.name = name;
  StartAheadOf(name, std::move(retired));
  return made;
}

void ReleaseCurrentCase() {
  DropAhead();
  ReleaseKeptCase();
}

}  // namespace csbench
