// The clock guard around a device-timed loop: probing that the clocks were up, raising them and
// measuring again where they were down, and a benchmark's vouch that spares later probes.
#include "harness/measure/session_state.hpp"
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

namespace measure_detail {

void ReadGuard(const ClockGuardHooks& guard, RunNote& note) {
  note.clock_guard = guard.read ? guard.read() : 0;
  note.throttled = note.clock_guard > 1 + kGuardTolerance;
}

bool Vouched(const ClockGuardHooks& guard, double median, RunNote& note) {
  if (guard.memory == nullptr || guard.vouch == nullptr || guard.memory->still_throttled) return false;
  const Vouch& v = *guard.vouch;
  if (v.median <= 0 || median > v.median * (1 + kVouchTolerance)) return false;
  note.clock_guard = v.reading;
  note.throttled = false;
  note.probed = false;
  return true;
}

void RememberVouch(const ClockGuardHooks& guard, double median, const RunNote& note) {
  if (note.throttled || guard.memory == nullptr || guard.vouch == nullptr || !guard.read) return;
  Vouch& v = *guard.vouch;
  if (v.median <= 0 || median < v.median) v = {.median = median, .reading = note.clock_guard};
}

}  // namespace measure_detail

using namespace measure_detail;

namespace {

double g_min_sample_seconds = 0;

}  // namespace

void SetMinSampleSeconds(double seconds) { g_min_sample_seconds = std::max(seconds, 0.0); }
double MinSampleSeconds() { return g_min_sample_seconds; }

std::vector<double> MeasureGuarded(size_t count, const std::function<double()>& sample, const ClockGuardHooks& guard,
                                   RunNote& note, double min_seconds) {
  std::vector<double> times;
  for (note.measured = 1;; ++note.measured) {
    {
      Spending spending(note.measured == 1 ? Phase::kTimed : Phase::kGuard);
      times.clear();
      double sum = 0;
      // At least one sample; past `count`, only while they add time (a clock that reads 0 would
      // never reach min_seconds).
      while (times.empty() || times.size() < count || (sum < min_seconds && times.back() > 0)) {
        times.push_back(sample());
        sum += times.back();
      }
    }
    const double median = Median(times);
    if (note.measured == 1 && Vouched(guard, median, note)) break;
    ReadGuard(guard, note);
    RememberVouch(guard, median, note);
    if (!note.throttled || note.measured >= kMaxMeasurements || (guard.memory && guard.memory->still_throttled)) {
      break;
    }
    if (guard.raise) guard.raise();
  }
  if (guard.memory) guard.memory->still_throttled = note.throttled;
  return times;
}

ClockGuardHooks GuardOf(Context* device, Vouch* vouch) {
  if (device == nullptr || device->info().type == "cpu") return {};
  return {.read = [device] { return ClockGuard(*device); },
          .raise = [device] { RaiseClocks(*device); },
          .memory = &TheSession().cases().clock_guard,
          .vouch = vouch};
}

}  // namespace csbench
