// Where a run's wall time goes: each phase of a benchmark's life (making its case, checking it,
// warming the device up, guarding the clocks, calibrating, the timed loop) adds the host's wall
// time it took to one account, so that a run can say what it cost besides the timed work. The
// device's own busy time (timestamps around each submission, harness/vulkan/submission_clock.hpp)
// goes to the phase that submitted the work, in accounts of its own.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace csbench {

enum class Phase {
  kCase,         // inputs, references, device buffers, pipelines: making a benchmark's case
  kCheck,        // the run against the CPU reference before timing
  kWarmUp,       // untimed runs of the kernel before its timed loop
  kClockRaise,   // the clock probe run until the device is back at its clocks
  kGuard,        // the clock probe after a timed loop, and the loops measured again after it
  kCalibration,  // the untimed runs that size a batch
  kTimed,        // the timed loops (host wall time, waiting for the device included)
  kCeiling,      // the device's ceilings (the copy roofline) measured on first use
  kRelease,      // the previous benchmark's case freed before the next one is made
  kMeasure,      // a case's own work around its timed loop (recording a run, statistics, ...)
  kCount
};

std::string_view ToString(Phase phase);

// Adds the wall time from its construction to its destruction to `phase`, less the time of the
// Spending scopes opened inside it on the same thread (each second counts once, in the innermost
// phase). Scopes on other threads than the run's first (cases made ahead, beside the timed loop)
// go to a second account, `ahead`: they cost the run's wall time only where the first thread
// waits for them.
class Spending {
 public:
  explicit Spending(Phase phase);
  ~Spending();
  Spending(const Spending&) = delete;
  Spending& operator=(const Spending&) = delete;
  Phase phase() const { return phase_; }

 private:
  Phase phase_;
  Spending* outer_;
  double started_;  // seconds since the process began, when this scope last resumed
};

using PhaseSeconds = std::array<double, static_cast<size_t>(Phase::kCount)>;

struct TimeSpent {
  double wall_seconds = 0;  // since the process began
  PhaseSeconds seconds{};
  // The other threads' phases (work beside the timed loop), and the seconds the run's first
  // thread and the others spent waiting for the device's lock (Context::LockDevice), with the
  // number of times the others took it.
  PhaseSeconds ahead{};
  double device_wait_seconds = 0;
  double ahead_device_wait_seconds = 0;
  uint64_t ahead_device_locks = 0;
  // The device's busy time: the seconds between the timestamps around each submission, by the
  // phase the submitting thread was in (the run's first thread in `device`, the others in
  // `ahead_device`; `*_other` outside every phase). `device_timed`: whether the run's submissions
  // are timed at all (a queue with timestamps, NoteDeviceTimed); `device_unmeasured`: submissions
  // that went untimed (every pair of timestamps still in use).
  PhaseSeconds device{};
  double device_other = 0;
  PhaseSeconds ahead_device{};
  double ahead_device_other = 0;
  bool device_timed = false;
  uint64_t device_unmeasured = 0;
  double Other() const;  // wall time outside every phase: Google Benchmark, start-up, reports
  // Whether another thread than the run's first spent any time, took the device's lock or
  // submitted work.
  bool AnyAhead() const;
  // The device's busy seconds of every phase and thread, outside every phase included.
  double DeviceSeconds() const;
};

// Notes one taking of the device's lock that waited `seconds` for another thread (0 where it
// was free), on the calling thread's account.
void NoteDeviceLock(double seconds);

TimeSpent Spent();

// Seconds since the process began, on the ledger's clock.
double SecondsSinceStart();
// Whether the calling thread is the run's first (whose phases are the run's wall time).
bool OnFirstThread();

// Where the calling thread's time goes now: its innermost phase (none outside every phase), and
// whether it is the run's first thread. A submission keeps it, so that the device's time goes to
// the phase that asked for the work, whichever thread reads the timestamps later.
struct ThreadPhase {
  std::optional<Phase> phase;
  bool first = true;
};
ThreadPhase CurrentPhase();

// Notes that the run's submissions are timed by the device (TimeSpent::device_timed).
void NoteDeviceTimed();
// Adds `seconds` of the device's busy time to `where`.
void AddDeviceSeconds(const ThreadPhase& where, double seconds);
// Notes a submission that went untimed.
void NoteUnmeasuredSubmission();

// A device's seconds: tenths from a second up, three digits below, in milliseconds under one
// ("2.3 s", "0.0614 s", "0.0805 ms"): a GPU's check takes milliseconds, a timed loop's few samples less.
std::string ShortSeconds(double seconds);

// "12.3 s: case 1.2 s, check 0.3 s, ..., other 0.4 s; beside the timed loop: case 20.1 s, ...;
// device 3.1 s: timed 2.3 s, check 0.4 s, ...; beside the timed loop: case 0.2 s" (the device's
// phases that had any).
std::string ToText(const TimeSpent& spent);

}  // namespace csbench
