// Raising a GPU's clocks before a timed loop, checked against a fixed probe kernel.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "harness/vulkan/clock_keep.hpp"

namespace csbench {

class Context;

// What a process knows of its device's clocks: the probe's best time so far (0: not measured
// yet) and how many raises in a row ended at the cap without reaching it.
struct ClockRecord {
  double best_seconds = 0;
  uint32_t capped = 0;
  // The fastest run of the process: the clock guard's reference, which a device that stays
  // slower never lowers (best_seconds follows it, to bound the cost of raising). It is never
  // taken from `kept`: the guard asks whether a loop ran at the clocks this process saw, and a
  // kept best comes from another moment, maybe another card of the same model (two GPUs of one
  // model share a device key); a device a few percent slower today would have every loop
  // marked throttled and measured three times.
  double fastest_seconds = 0;
  // What an earlier process kept (clock_keep.hpp; best_seconds 0: nothing), and, after each
  // raise, what is to be kept for the next: the process's best where faster than the kept one.
  KeptClock kept;
};

// Runs `probe` (one fixed piece of work; returns its seconds) until the device is back at its
// clocks, and returns the number of runs.
//
// The first raise of a process with nothing kept runs for at least `first_seconds` and then
// until a run is no longer 1% faster than the best before it, for at most twice `first_seconds`,
// and records the best. With a kept best (record.kept) it runs until one run is within
// `tolerance` of it, then on for `settle_seconds` (the guard's reference is the best of those
// runs, not of one), for at most twice `first_seconds` as well, and takes the kept best as the
// record (or its own, where faster). Where a run beats the kept best by more than `tolerance`,
// the kept best came from a slower moment (a shared or throttled device): the raise goes on by
// the rule of nothing kept, so that a slow kept best never stops a raise before the clocks are
// up. A first raise that ends at the cap records its own best (as with nothing kept) and counts
// a miss in record.kept; the second miss in a row makes its best the kept one, so that a kept
// best from a faster moment costs two capped raises of two processes, not one each for ever.
//
// After that it runs until one run is within `tolerance` of the record (lowering the record when
// a run beats it), for at most `max_seconds`. Two capped raises in a row make the latest raise's
// best the record: a device that stays slower (throttled, or shared with other work) then costs
// two capped raises, not one per benchmark. After every raise, record.kept.best_seconds is the
// record where that is faster. Times are the probe's own, so a fake probe can test the rule.
uint32_t RaiseClocks(const std::function<double()>& probe, ClockRecord& record, double first_seconds = 1.0,
                     double max_seconds = 1.0, double tolerance = 0.03, double settle_seconds = 0.1);

// The clock guard's rule: a probe run `seconds` long against the record. Returns the ratio of
// the run to the fastest run recorded (1: the device is at its best clocks; 1.10: 10% slower),
// lowering the record when the run beats it.
double GuardRatio(double seconds, ClockRecord& record);

// How much slower than its fastest the probe may run before a measurement counts as made with
// the clocks down: above the probe's own run-to-run spread at full clocks.
inline constexpr double kGuardTolerance = 0.05;

// The probe of a device: kernels/harness/clock_probe.comp on every invocation of 1024 groups,
// eight dispatches a run, sized on first use so that one run lasts about 2 ms at the clocks of
// that moment: as long as a timed batch, so that what slows a batch (lower clocks, another
// process sharing the device) slows the probe too. Where the process has a clock keep
// (SetClockKeep) holding a record of this device, the probe takes its size from there instead,
// so that its times are those of the kept best's work, and each raise writes the record back
// where it changed.
class ClockProbe {
 public:
  explicit ClockProbe(Context& context);
  ~ClockProbe();
  // Runs the probe once and returns its seconds (the GPU's timestamps, else the host clock).
  double Run();
  // Raises the device's clocks with RaiseClocks and this device's record.
  uint32_t Raise();
  // Runs the probe once (after raising the clocks the first time) and returns GuardRatio().
  double Guard();
  uint32_t iterations() const { return iterations_; }

 private:
  struct Resources;
  std::unique_ptr<Resources> resources_;
  uint32_t iterations_ = 0;
  ClockRecord record_;
};

// The context's probe (made on first use) raising its clocks; 0 runs on a CPU device, which has
// no clocks of its own to raise.
uint32_t RaiseClocks(Context& context);

// The context's probe run once as the clock guard: its GuardRatio(), or 0 on a CPU device.
double ClockGuard(Context& context);

}  // namespace csbench
