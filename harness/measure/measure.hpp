// The timed loop every GPU benchmark shares, the throughput counters, and input rotation.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/base/check.hpp"
#include "harness/base/ledger.hpp"
#include "harness/base/options.hpp"
#include "harness/measure/ceilings.hpp"
#include "harness/measure/record.hpp"
#include "harness/measure/run_notes.hpp"
#include "harness/measure/selection.hpp"
#include "harness/vulkan/buffer.hpp"

namespace csbench {

class Commands;
class Context;

// What one iteration processes: elements of the domain, and compulsory bytes (each input read
// once, each output written once).
struct Work {
  double elements = 0;
  double bytes = 0;
  // A kernel that only reads (its writes are a few bytes per workgroup): `roofline%` is then
  // against the device's read ceiling, not its copy roofline, so that no kernel sits above its
  // own ceiling.
  bool read_only = false;
  // The arithmetic one iteration does, where the family declares it (0: none declared): operations
  // of `peak`'s kind (FLOP, or integer operations), counted as the kernel's algorithm needs them.
  // With it the run reports `bound%` (SetBoundPercent) and the entry's intensity.
  double ops = 0;
  Peak peak = Peak::kFp32;
  // The kernel does more arithmetic than `ops` (a fused Gray-Scott pass recomputes its halo): its
  // arithmetic rate is a lower bound, and the JSON says so.
  bool ops_lower_bound = false;
  // The bytes the memory bound is taken over, where they are not `bytes` (negative): a kernel that
  // fuses several steps moves one step's compulsory bytes per `steps` steps, so its memory bound
  // is `steps` times the one-step roofline.
  double bound_bytes = -1;
  // One iteration's seconds by the device's clock where the benchmark already ran one before its
  // timing (a manifest case's check run); 0: none. MeasureTimedBatches takes it for the batch's
  // calibration where no faster reading could change the batch (CalibrationFromCheck).
  double checked_seconds = 0;
  // Dependent dispatches one iteration makes (each after a barrier): each adds the device's
  // dispatch cost (MeasuredDispatchSeconds) to the bound. MeasureDispatches counts 1 where 0.
  double dispatches = 0;
  // false: `roofline%` says nothing of the kernel (a host transfer is not a device copy).
  bool roofline = true;
  // Bytes that stay resident from one iteration to the next (a state stepped in place, arrays
  // never rotated); 0: the kernel streams beyond the caches. Below the DRAM ceilings' own size,
  // its memory bound is a copy of the same footprint (MeasuredResidentCopy), which a cache holds
  // as it holds the kernel's.
  double footprint = 0;
};

// Sets the `Gelem/s` and `GB/s` rate counters for state.iterations() iterations of `work`.
void SetThroughput(benchmark::State& state, Work work);

// Sets `roofline%`: the compulsory GB/s of `work` as a percentage of `roofline_gbs`.
void SetRooflinePercent(benchmark::State& state, Work work, double roofline_gbs);
// The same against the device's own ceiling for `work`: the read ceiling for a read-only kernel,
// else the copy roofline (measured on first use).
void SetRooflinePercent(benchmark::State& state, Work work, Context& context);

// Where `work` declares its arithmetic: `bound%`, the share of the time the kernel would take at
// the bound that binds it (the dependent dispatches' cost, plus the longer of its bytes at the
// memory ceiling and its operations at the compute peak) in the time it took, and the intensity
// of the benchmark being measured for its record (Record::NoteIntensity).
void SetBoundPercent(benchmark::State& state, Work work, Context& context);

// How many dispatches one timed batch holds: enough for the batch to last `target_seconds`
// (so that submission and timestamp overheads vanish in it), at most `max_dispatches`, and a
// multiple of `period` (the number of rotated inputs, so every batch cycles through all of them)
// unless whole rounds would last longer than `round_seconds` (the minimum time a sample asks for;
// 0: always whole rounds): the batch then ends within a round, and the samples go on through the
// rotation one after another.
inline constexpr double kBatchSeconds = 2e-3;
inline constexpr uint32_t kMaxBatchDispatches = 10000;
uint32_t BatchSize(double seconds_per_dispatch, uint32_t period, double target_seconds = kBatchSeconds,
                   uint32_t max_dispatches = kMaxBatchDispatches, double round_seconds = 0);

// BatchSize() the first time the benchmark being measured asks (its record keeps it), the same
// number after that: Google Benchmark requires every repetition of a benchmark to run the same
// number of iterations, and KeepRunningBatch rounds them up to whole batches.
// `seconds_per_dispatch` is asked only then: the calibration runs once per benchmark. Outside any
// benchmark (no current record) it is asked every time. Whole rounds of the rotation are kept
// within MinSampleSeconds().
uint32_t StableBatchSize(const std::function<double()>& seconds_per_dispatch, uint32_t period);

// The calibration's short look: `time_dispatches(count)` (seconds of `count` dispatches back to
// back) for `probe` dispatches, then eight times as many while that took less than
// kCalibrationSeconds, at most max(probe, period) (one round of the rotation): seconds a dispatch.
inline constexpr double kCalibrationSeconds = 0.5e-3;
double CalibratedSecondsPerDispatch(const std::function<double(uint32_t)>& time_dispatches, uint32_t probe,
                                    uint32_t period);

// Warms `device` (null: no probe, as for tests) up for a timed loop of `run` (which returns the
// seconds one untimed run took, on whichever clock the caller times with). A GPU lowers its
// clocks while the host works (a CPU reference, a plain-loop benchmark) and takes a few hundred
// milliseconds of load to raise them again, in steps (an H100 or H200 idles at 345 MHz and runs
// at 1980): a sample taken before that measures the power state, not the kernel. First the
// device's clock probe runs until it is as fast as its best (RaiseClocks): a step can last
// longer than any fixed warm-up time (a GPU can run a kernel at less than half its speed for
// several repetitions after a 0.2 s warm-up on the kernel itself: docs/perf-notes.md,
// "Regression verdicts at suite scale (3)"). Then `run` runs for at least `min_seconds`, and
// until a run is no longer 1% faster than the one before, for at most `max_seconds` (caches, the
// kernel's own ramp): twice where neither time is reached, since the clocks are the probe's
// business and the clock guard after the loop (MeasureGuarded) catches what the probe missed;
// once where the first run lasts kSettledRunSeconds (a whole Gray-Scott simulation; host-clocked
// loops too: their first repetitions are no more often slow than their later ones,
// docs/perf-notes.md, section 18). Nothing runs when the device finished timed work less than
// `min_idle_seconds` ago (NoteDeviceBusy): Google Benchmark calls a benchmark again right after
// its previous call, with the clocks still up. Nothing runs on a CPU device (lavapipe): it has
// no clocks of its own to raise, and one run there can take a second.
// Returns the number of runs of `run` (0: none).
inline constexpr double kSettledRunSeconds = 0.01;
uint32_t WarmUp(Context* device, const std::function<double()>& run, double min_seconds = 0,
                double max_seconds = 0.05, double min_idle_seconds = 0.01);
// Marks the end of timed device work; every timed loop that begins with WarmUp ends with it.
void NoteDeviceBusy();

// The measurement strategies. Each owns its warm-up, its timing and its counters, so that every
// benchmark timed one way is timed alike: the Vulkan variants, the CUDA peers and a user's
// kernels are compared as equals, and a stored baseline stays comparable with a new run.
//
// Device-timed: the benchmark is registered under UseManualTime and each sample's time comes from
// the device (timestamps, CUDA events; the host's clock around submit and wait where the run has
// no timestamps).
//
// Times dispatches under UseManualTime. `record(commands, i)` records the i-th dispatch of a
// batch; the harness puts a barrier between dispatches, so each is timed on its own and none
// overlaps the next. One benchmark iteration is one dispatch; a batch of BatchSize() of them is
// one GPU-timed sample, and its time is handed to SetIterationTime for all of them. Sets the
// throughput counters and `roofline%` (the device's copy bandwidth is measured on first use).
// Called from the benchmark whose case is current (CaseFor), the timed batch is kept across the
// benchmark's calls, with its case; elsewhere it is made for the call.
void MeasureDispatches(benchmark::State& state, Context& context,
                       const std::function<void(Commands&, uint32_t)>& record, uint32_t period, Work work);

// What MeasureGuarded asks of the device's clocks (GuardOf(device, vouch) for the real ones; a
// test's own for a test). Empty functions: nothing guards (a CPU device, no device).
struct GuardMemory {
  bool still_throttled = false;  // the previous guarded loop ended with the clocks down
};
struct ClockGuardHooks {
  std::function<double()> read;   // the probe's time over its fastest (ClockGuard)
  std::function<void()> raise;    // the clocks raised again (RaiseClocks)
  GuardMemory* memory = nullptr;  // shared by the loops of one device
  Vouch* vouch = nullptr;         // the benchmark's own (its record's; null: every loop is probed)
};
ClockGuardHooks GuardOf(Context* device, Vouch* vouch = nullptr);

// The measurements a guarded loop may take: the first, and two more where the guard finds the
// clocks down.
inline constexpr uint32_t kMaxMeasurements = 3;
// A loop whose median sample is within this of its benchmark's fastest probed loop (one the
// probe found the clocks up after) is not probed: slower clocks or a second process on the
// device slow the kernel's own samples (by a quarter or more beside a second process on a GPU,
// docs/perf-notes.md, section 10), so
// samples as fast as a loop the probe vouched for cannot have been taken with the clocks down
// by more than the probe's tolerance and this.
inline constexpr double kVouchTolerance = 0.02;

// Takes `count` samples (each `sample()`'s seconds), and more until they add up to
// `min_seconds`, then reads the clock guard: where the probe runs more than kGuardTolerance
// slower than its fastest, the clocks were down (throttled, or another process on the device),
// and the samples are taken again after raising them, at most kMaxMeasurements times in all, or
// only once where the previous guarded loop of the device also ended with the clocks down (a
// device that stays slow costs one measurement a loop, not three). The probe is skipped where
// the samples vouch for the clocks (kVouchTolerance); the note then carries the reading of the
// loop that vouches, and `probed` false. The last samples are returned, never none; `note` says
// what the guard read, how many times the samples were taken, and whether the clocks were still
// down.
std::vector<double> MeasureGuarded(size_t count, const std::function<double()>& sample, const ClockGuardHooks& guard,
                                   RunNote& note, double min_seconds = 0);

// The least measured time of a reported run of a device-timed loop: each Google Benchmark call
// takes samples until they add up to --benchmark_min_time (where it is given in seconds) and
// reports them all, so the first call of a benchmark is already long enough for Google Benchmark
// to keep (no call only to find the iteration count, no 40% margin on top of the minimum). 0:
// Google Benchmark's iteration count alone (the default; tests).
void SetMinSampleSeconds(double seconds);
double MinSampleSeconds();

// MeasureDispatches over any timer of batches: `time_batch(count, start)` runs `count`
// dispatches back to back, the i-th on copy `start + i` (modulo `period`, the number of rotated
// inputs), and returns their seconds by the device's clock. Calibrates the batch by a short look
// from `probe` dispatches (CalibratedSecondsPerDispatch; the benchmark's first call only), warms
// `device` up (null: no clock probe) on batches of the timed size, takes as many
// batches as Google Benchmark's loop will ask for under the clock guard (MeasureGuarded), hands
// them to the loop, and sets `dispatches/sample`, the throughput counters and, with a device,
// `roofline%`. The guard's reading (and, with --samples, the batches' times) go into the run's
// note (harness/measure/run_notes.hpp), and a loop still measured with the clocks down is labelled so.
// How much faster than the check's run an iteration could still be (a GPU's first run of a pipeline
// on cold caches, and on clocks not yet raised): a check's reading stands for the calibration only
// where this many times faster would give the same batch.
inline constexpr double kCheckedRunSlack = 8;
// `checked_seconds` where it decides the batch (the same batch at a kCheckedRunSlack times faster
// iteration); nullopt: calibrate. On a CPU device (`cpu_device`), which has no clocks to raise and
// compiled the pipeline when it was made, the check's run is the look's first reading: where it
// took at least kCalibrationSeconds, the look would time that one dispatch again and stop (on
// lavapipe the two took the same time within 1.2x: grayscott_image's step at 2048x1024, 95 and 91
// ms, 63 and 63 ms, 60 and 73 ms; docs/perf-notes.md, section 29).
std::optional<double> CalibrationFromCheck(double checked_seconds, uint32_t period, bool cpu_device = false);
void MeasureTimedBatches(benchmark::State& state, Context* device,
                         const std::function<double(uint32_t, uint32_t)>& time_batch, uint32_t probe, uint32_t period,
                         Work work);

// Times whole runs under UseManualTime, one iteration a run (Gray-Scott's steps, its CUDA peer's):
// `reset()`, untimed, restores the initial state, and `run()` runs and returns its seconds by the
// device's clock. Warms `device` up on runs first, and measures under the clock guard as
// MeasureTimedBatches does. Sets the throughput counters, `label` (with the guard's reading
// where the clocks were still down), and `roofline%` where `work.roofline` (and a device) says so.
void MeasureTimedRuns(benchmark::State& state, Context* device, const std::function<void()>& reset, const std::function<double()>& run, Work work,
                      std::string_view label = {});

// Host-clocked: the benchmark is registered under UseRealTime, since what it measures includes
// the host's own work (a download and what the host does with it), which no device timer sees.
//
// Times whole runs by the host's clock, one iteration a run: `reset()` is untimed (the timer is
// paused around it), `run()` is timed from its first submission until it returns. Warms `device`
// up on runs, each timed by the host's clock. The clock guard runs after the loop and marks it
// when the clocks were down (Google Benchmark's clock timed it: it cannot be taken again). Sets
// the throughput counters, `roofline%` (with a device) and the label "host clock".
void MeasureHostClocked(benchmark::State& state, Context* device, const std::function<void()>& reset,
                        const std::function<void()>& run, Work work);

// Plain CPU loops: the host's clock (Google Benchmark's own), in milliseconds.
//
// Times `iteration`, the plain loop of one point, by Google Benchmark's clock: one iteration a
// call, after `untimed_reset()` where given (the timer paused around it). A call's results must
// escape (benchmark::DoNotOptimize) in `iteration`; memory is clobbered after each call, so that
// what it wrote counts as used. No warm-up: the host runs at its own clocks, and Google
// Benchmark's calls before the timed one warm the caches. `work` is asked after the loop (append
// counts what the last run kept); sets the throughput counters.
void MeasurePlainLoop(benchmark::State& state, const std::function<void()>& iteration,
                      const std::function<Work()>& work, const std::function<void()>& untimed_reset = {});
void MeasurePlainLoop(benchmark::State& state, const std::function<void()>& iteration, Work work,
                      const std::function<void()>& untimed_reset = {});

// Registers the plain loop `name`: `measure` runs guarded (an Error skips the benchmark with its
// message, RunGuarded), in milliseconds.
benchmark::internal::Benchmark* AddPlainLoop(const std::string& name,
                                             std::function<void(benchmark::State&)> measure);

// Number of copies of an input of `bytes` bytes that fill `budget_bytes` (at least one; one when
// the cache is meant to stay warm), at most kMaxRotationCopies: an input smaller than the budget
// over that (64 KiB of the 256 MiB budget) is not rotated past the last-level cache, and its
// dispatch is mostly launch anyway. Uncapped, a 256-byte input took a million copies: the command
// buffer that makes them crashed Mesa 25's lavapipe, and every batch was rounded up to a million
// dispatches. No built-in family's default domain is that small.
inline constexpr uint32_t kMaxRotationCopies = 4096;
uint32_t RotationCopies(uint64_t bytes, uint64_t budget_bytes, CacheMode cache);
// RotationCopies over the device's cold footprint (ColdFootprintBytes, harness/measure/roofline.hpp:
// a multiple of its last-level cache, measured once per run); 1 under --cache=warm, measuring nothing.
uint32_t ColdCopies(Context& context, uint64_t bytes, CacheMode cache);

// Copies of one input laid out in one buffer, so that successive dispatches read different
// memory and a seed-size domain measures memory, not the last-level cache. The copies span the
// device's cold footprint (ColdFootprintBytes: on a GPU at least 256 MiB, five times the largest
// last-level cache of current GPUs).
class RotatingInput {
 public:
  // `copies`: how many (0: as many as fill the cold footprint, ColdCopies); a kernel with several inputs rotates
  // them all with one count, so that one period of its batch cycles through every copy of each.
  RotatingInput(Context& context, std::span<const std::byte> data, CacheMode cache, uint32_t copies = 0);

  // The bytes between copies of a slice of `bytes`: the device's dynamic-offset alignment, at
  // least 256.
  static uint64_t Stride(const Context& context, uint64_t bytes);

  const Buffer& buffer() const { return *buffer_; }
  uint64_t slice_bytes() const { return slice_bytes_; }
  uint32_t copies() const { return copies_; }
  // The dynamic offset of copy `i % copies()`.
  uint32_t Offset(uint32_t i) const { return static_cast<uint32_t>((i % copies_) * stride_); }

 private:
  std::unique_ptr<Buffer> buffer_;
  uint64_t slice_bytes_;
  uint64_t stride_;
  uint32_t copies_;
};

// The run every check makes: `output` filled with kPoison (so a value the kernel never writes
// cannot pass), then `record`'s dispatch, then the first `floats` floats of `output`, downloaded.
std::vector<float> PoisonedRun(Context& context, const Buffer& output, size_t floats,
                               const std::function<void(Commands&)>& record);

// PoisonedRun of `words` 32-bit words, as integers (a kernel that writes uints or float bits).
std::vector<uint32_t> PoisonedWords(Context& context, const Buffer& output, size_t words,
                                    const std::function<void(Commands&)>& record);

// Runs `body`; an Error (or any exception) becomes state.SkipWithError, so the suite goes on.
void RunGuarded(benchmark::State& state, const std::function<void()>& body);

// Google Benchmark calls a benchmark's function several times: with a growing iteration count
// until the minimum time is reached, then once per repetition. What a benchmark needs before its
// timed loop (kernel, inputs of up to half a gigabyte, output, the check against the CPU
// reference) is made on the first of those calls and kept for the calls of the same benchmark
// that follow; the first call of another benchmark frees it. With random interleaving, each
// repetition makes (and checks) its case again. Where cases are made ahead (RegisterPrefetch),
// the next two benchmarks' cases are alive beside the current one: three cases at most.
struct CaseSlot {
  const Record* record = nullptr;  // the benchmark whose case it is
  std::shared_ptr<void> value;
};
// Frees the kept case; main calls it before the device goes.
void ReleaseCurrentCase();

// The case of the benchmark of `record` (a selected one), type-erased: the kept one; else the one
// made ahead for it (Prefetch), waited for; else `make()`'s, made after the previous case is
// freed. A new case starts the making of the next selected benchmark's case ahead, where both may
// (Prefetch).
std::shared_ptr<void> CaseFor(const Record& record, const std::function<std::shared_ptr<void>()>& make);

// The case of the benchmark of `record` (CaseFor): `make()` returns a std::unique_ptr or
// std::shared_ptr, and throws when the case cannot be made or fails its check; nothing is kept then.
template <typename Make>
auto& CurrentCase(const Record& record, Make make) {
  using Case = typename decltype(make())::element_type;
  std::shared_ptr<void> value =
      CaseFor(record, [&]() -> std::shared_ptr<void> { return std::shared_ptr<Case>(make()); });
  return *static_cast<Case*>(value.get());
}

// Making the next benchmark's case ahead. Making a case (inputs, references, device buffers,
// pipelines, the check against the CPU reference) takes about a third of a whole-suite run's wall
// time with the device idle (docs/perf-notes.md, section 10): on a second host thread it is done
// while the device measures the benchmark before. The device's queue and command pool are taken
// under one lock (Context::LockDevice), so the second thread's submissions (uploads, the check's
// dispatch) run between two timed batches, never during one.
//
// How a benchmark takes part in it: Prefetch (harness/measure/record.hpp).
// Gives `record` (a selected benchmark's) its making for the thread ahead (kMade or kBeside), whose
// making touches the device only through Context. The next case is made ahead while a kBeside
// benchmark measures.
void RegisterPrefetch(Record& record, std::function<std::shared_ptr<void>()> make,
                      Prefetch prefetch = Prefetch::kBeside);
// Whether cases are made ahead: main turns it on for a GPU (not for a CPU device, whose device is
// the host's cores, nor where CSBENCH_PREFETCH=0 says not to).
void EnablePrefetch(bool enable);
// Marks `record` (a selected benchmark's) Prefetch::kWaits: cases after it may be made ahead beside
// the loops before it (AddPlainLoop does).
void PassedByAhead(Record& record);
// Waits until every case in making ahead is made (the wait is the current benchmark's): a loop on
// the host's cores calls it first (MeasurePlainLoop does).
void FinishAhead();

// Registers one benchmark whose case must pass its check before it is timed: `make()` builds the
// case (kernel, inputs, output: anything with Check() returning a Comparison and
// Measure(state)). A failure of either skips the benchmark. The caller picks the clock and says
// whether the case may be made ahead (RegisterPrefetch).
template <typename Make>
benchmark::internal::Benchmark* RegisterCheckedCase(const std::string& name, Make make,
                                                   Prefetch prefetch = Prefetch::kNo) {
  using Case = typename decltype(make())::element_type;
  std::function<std::shared_ptr<void>()> made_and_checked = [make]() -> std::shared_ptr<void> {
    const double start = SecondsSinceStart();
    std::shared_ptr<Case> made = [&] {
      Spending spending(Phase::kCase);
      return std::shared_ptr<Case>(make());
    }();
    const double made_at = SecondsSinceStart();
    Comparison check = [&] {
      Spending spending(Phase::kCheck);
      return made->Check();
    }();
    // The record of the benchmark it is made for: current on whichever thread makes it.
    if (Record* record = CurrentRecord()) {
      record->NoteCaseMade(made_at - start, SecondsSinceStart() - made_at, !OnFirstThread());
    }
    if (!check.passed) throw std::runtime_error(check.message);
    return made;
  };
  const Added added = AddRecordedBenchmark(name, [made_and_checked](benchmark::State& state) {
    RunGuarded(state, [&] {
      auto& gpu = *static_cast<Case*>(CaseFor(*CurrentRecord(), made_and_checked).get());
      Spending spending(Phase::kMeasure);
      gpu.Measure(state);
    });
  });
  if (prefetch != Prefetch::kNo && added.record != nullptr) RegisterPrefetch(*added.record, made_and_checked, prefetch);
  return added.benchmark;
}

}  // namespace csbench
