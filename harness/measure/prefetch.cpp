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
#include <utility>

#include "harness/base/error.hpp"
#include "harness/base/statistics.hpp"
#include "harness/measure/measure_detail.hpp"
#include "harness/measure/record.hpp"
#include "harness/measure/roofline.hpp"
#include "harness/measure/run_notes.hpp"
#include "harness/measure/session_state.hpp"
#include "harness/vulkan/clock_probe.hpp"
#include "harness/vulkan/commands.hpp"
#include "harness/vulkan/context.hpp"
#include "harness/vulkan/limits.hpp"
#include "harness/vulkan/timing.hpp"

namespace csbench {

using namespace measure_detail;

void Retired::Free() {
  Spending spending(Phase::kRelease);
  batches.clear();
  value.reset();
}

namespace {

// How many cases may be in making ahead of the one being measured: two, so that a case that takes
// longer to make than the benchmark before it measures starts while the one before that measures
// (a whole-suite run then waits about a quarter less for cases, docs/perf-notes.md, section 17).
// Each is made after the one before it, on a thread of its own: at most three cases are alive at
// a time.
constexpr size_t kAheadDepth = 2;

CaseState& TheCases() { return TheSession().cases(); }

// Waits for every case being made ahead and drops them, and what they threw.
void DropAhead() {
  CaseState& cases = TheCases();
  for (CaseState::Making& making : cases.ahead) making.made.wait();
  cases.ahead.clear();
}

// The case made ahead for `record`, waited for (null when none was, or when its making ran out of
// memory: the caller makes it again, after freeing the case before it); rethrows what else its
// making threw.
std::shared_ptr<void> TakeAhead(const Record& record) {
  CaseState& cases = TheCases();
  if (cases.ahead.empty()) return nullptr;
  if (cases.ahead.front().record != &record) {
    // A benchmark the making passed by (Prefetch::kWaits) is made in its turn; else the guess
    // missed (random interleaving, a filter's order).
    if (record.order >= cases.ahead.front().record->order || record.prefetch != Prefetch::kWaits) DropAhead();
    return nullptr;
  }
  const std::shared_future<std::shared_ptr<void>> made = std::move(cases.ahead.front().made);
  cases.ahead.pop_front();
  Spending spending(Phase::kCase);  // the main thread waiting for it
  const double start = SecondsSinceStart();
  struct Waited {
    double start;
    ~Waited() {
      if (Record* record = CurrentRecord()) record->NoteCaseWait(SecondsSinceStart() - start);
    }
  } waited{start};
  try {
    return made.get();
  } catch (const OutOfMemory&) {
    return nullptr;
  }
}

// Frees the case left for the next making (CaseState::left_to_free), on the calling thread.
void FreeLeft(const std::shared_ptr<Retired>& left) {
  if (left) left->Free();
}

Retired TakeKeptCase() {
  CaseState& cases = TheCases();
  Retired retired{.value = std::move(cases.slot.value), .batches = std::move(cases.kept.batches)};
  cases.kept = KeptBatch{};
  cases.slot = CaseSlot{};
  return retired;
}

// Starts making the cases of the benchmarks after `current` in the run's order, up to kAheadDepth
// ahead, where every benchmark measured while one is made lets it be (Prefetch::kBeside) and the
// one made may be made ahead. The first making started frees `retired` first, and the case left
// for it (freeing a case's buffers and pipelines on the first thread costs a whole-suite run
// seconds, docs/perf-notes.md, sections 10 and 32). Where none starts, `retired` is left for the
// next making (a host-clocked benchmark lets none beside its loop); where none will start (no
// cases made ahead, a stopped run) or others are still ahead, it is freed here.
void StartAheadOf(const Record& current, Retired retired) {
  CaseState& cases = TheCases();
  auto leftover = retired.empty() ? nullptr : std::make_shared<Retired>(std::move(retired));
  // A stopped run (a lost device) makes nothing more: every benchmark left is skipped. A record
  // the selection did not make (a test's own) has no place in the run's order: nothing after it.
  if (cases.ahead_enabled && !RunStopReason() && SelectedRecord(current.order) == &current &&
      current.prefetch == Prefetch::kBeside) {
    size_t next = cases.ahead.empty() ? current.order + 1 : cases.ahead.back().record->order + 1;
    for (; cases.ahead.size() < kAheadDepth; ++next) {
      const Record* before = SelectedRecord(next - 1);
      Record* record = SelectedRecord(next);
      if (before == nullptr || record == nullptr ||
          (before->prefetch != Prefetch::kBeside && before->prefetch != Prefetch::kWaits)) {
        break;
      }
      if (record->prefetch == Prefetch::kWaits) continue;  // passed by: made in its turn
      if (record->prefetch == Prefetch::kNo || !record->make_ahead) break;
      std::shared_future<std::shared_ptr<void>> previous;
      if (!cases.ahead.empty()) previous = cases.ahead.back().made;
      auto made = std::async(std::launch::async, [to_free = std::move(leftover), previous, record,
                                                  left = std::exchange(cases.left_to_free, nullptr),
                                                  make = record->make_ahead] {
        FreeLeft(left);
        if (to_free) to_free->Free();
        if (previous.valid()) previous.wait();  // one making at a time, in the run's order
        // What the making notes (its time, its check's) is the next benchmark's.
        RecordScope scope(record);
        return make();
      });
      cases.ahead.push_back({record, made.share()});
    }
  }
  if (!leftover) return;
  // With makings still ahead (a plain loop passed by), three cases are alive already.
  if (!cases.ahead_enabled || RunStopReason() || !cases.ahead.empty()) {
    leftover->Free();
    return;
  }
  FreeLeft(std::exchange(cases.left_to_free, std::move(leftover)));  // one waits at a time
}

void ReleaseKeptCase() { TakeKeptCase().Free(); }

// Makes a case on the first thread. The case left for the next making stays where there is memory
// for both: a Gray-Scott variant's two host-clocked modes come first and let no making beside
// their loops, and its other modes are made in turn, so the variant before's simulation (1.5 GiB
// at 8192x8192) would be freed here. It is freed first only where this making runs out of memory,
// which is then made again.
std::shared_ptr<void> MakeInTurn(const std::function<std::shared_ptr<void>()>& make) {
  CaseState& cases = TheCases();
  if (!cases.left_to_free) return make();
  try {
    return make();
  } catch (const OutOfMemory&) {
    FreeLeft(std::exchange(cases.left_to_free, nullptr));
    return make();
  }
}

}  // namespace

void RegisterPrefetch(Record& record, std::function<std::shared_ptr<void>()> make, Prefetch prefetch) {
  if (prefetch == Prefetch::kNo) return;
  record.prefetch = prefetch;
  record.make_ahead = std::move(make);
}

void EnablePrefetch(bool enable) { TheCases().ahead_enabled = enable; }

void PassedByAhead(Record& record) { record.prefetch = Prefetch::kWaits; }

void FinishAhead() {
  CaseState& cases = TheCases();
  if (cases.ahead.empty()) return;
  Spending spending(Phase::kCase);
  const double start = SecondsSinceStart();
  for (CaseState::Making& making : cases.ahead) making.made.wait();
  if (Record* record = CurrentRecord()) record->AddCaseWait(SecondsSinceStart() - start);
}

std::shared_ptr<void> CaseFor(const Record& record, const std::function<std::shared_ptr<void>()>& make) {
  CaseSlot& slot = TheCases().slot;
  if (slot.record == &record && slot.value) return slot.value;
  Retired retired = TakeKeptCase();
  std::shared_ptr<void> made = TakeAhead(record);
  if (!made) {
    retired.Free();  // before making this one: one case's memory at a time
    made = MakeInTurn(make);
  }
  slot.value = made;
  slot.record = &record;
  StartAheadOf(record, std::move(retired));
  return made;
}

void ReleaseCurrentCase() {
  DropAhead();
  FreeLeft(std::exchange(TheCases().left_to_free, nullptr));
  ReleaseKeptCase();
}

}  // namespace csbench
