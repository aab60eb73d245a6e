// The warm-up before a timed loop: the device's clocks raised and the kernel run until its time
// stops improving, unless the device was busy a moment ago.
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
#include "harness/measure/record.hpp"
#include "harness/measure/roofline.hpp"
#include "harness/measure/run_notes.hpp"
#include "harness/vulkan/clock_probe.hpp"
#include "harness/vulkan/commands.hpp"
#include "harness/vulkan/context.hpp"
#include "harness/vulkan/limits.hpp"
#include "harness/vulkan/timing.hpp"

namespace csbench {

namespace {

std::chrono::steady_clock::time_point g_device_busy;  // the end of the latest timed device work

}  // namespace

void NoteDeviceBusy() { g_device_busy = std::chrono::steady_clock::now(); }

uint32_t WarmUp(Context* device, const std::function<double()>& run, double min_seconds, double max_seconds,
                double min_idle_seconds) {
  const std::chrono::duration<double> idle = std::chrono::steady_clock::now() - g_device_busy;
  // A CPU device has no clocks of its own to raise, and one run there can take a second.
  if (device != nullptr && device->info().type == "cpu") return 0;
  if (idle.count() < min_idle_seconds) return 0;
  Spending spending(Phase::kWarmUp);
  // The benchmark's record keeps what its warm-ups cost, the probe's included.
  struct Noted {
    double start = SecondsSinceStart();
    uint32_t runs = 0;
    uint32_t probes = 0;
    ~Noted() {
      if (Record* record = CurrentRecord()) record->AddWarmUp(SecondsSinceStart() - start, runs, probes);
    }
  } noted;
  if (device != nullptr) noted.probes = RaiseClocks(*device);
  double elapsed = 0;
  double previous = 0;
  for (uint32_t& runs = noted.runs;;) {
    const double seconds = run();
    ++runs;
    elapsed += seconds;
    const bool improving = previous == 0 || seconds < previous * 0.99;
    if ((elapsed >= min_seconds && !improving) || elapsed >= max_seconds) return runs;
    // One run this long has kept the device busy far past a first dispatch's costs, at the clocks
    // the probe raised: a second (whole Gray-Scott simulations of 10-50 ms) would only repeat it.
    if (runs == 1 && elapsed >= min_seconds && seconds >= kSettledRunSeconds) return runs;
    previous = seconds;
  }
}

}  // namespace csbench
