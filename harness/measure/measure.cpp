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

void SetThroughput(benchmark::State& state, Work work) {
  double iterations = static_cast<double>(state.iterations());
  state.counters["Gelem/s"] = benchmark::Counter(work.elements * iterations * 1e-9, benchmark::Counter::kIsRate);
  state.counters["GB/s"] = benchmark::Counter(work.bytes * iterations * 1e-9, benchmark::Counter::kIsRate);
}

uint32_t BatchSize(double seconds_per_dispatch, uint32_t period, double target_seconds, uint32_t max_dispatches,
                   double round_seconds) {
  period = std::max<uint32_t>(period, 1);
  double wanted = seconds_per_dispatch > 0 ? std::ceil(target_seconds / seconds_per_dispatch) : max_dispatches;
  uint32_t n = static_cast<uint32_t>(std::clamp(wanted, 1.0, static_cast<double>(max_dispatches)));
  const uint32_t whole = (n + period - 1) / period * period;
  // Whole rounds of the rotation where they fit the time a sample may take; else the sample ends
  // within its round, and the next one goes on from there.
  if (round_seconds > 0 && seconds_per_dispatch > 0 &&
      static_cast<double>(whole) * seconds_per_dispatch > std::max(round_seconds, target_seconds)) {
    return n;
  }
  return whole;
}

uint32_t StableBatchSize(const std::function<double()>& seconds_per_dispatch, uint32_t period) {
  Record* record = CurrentRecord();
  if (record != nullptr && record->batch_size > 0) return record->batch_size;
  const uint32_t size = BatchSize(seconds_per_dispatch(), period, kBatchSeconds, kMaxBatchDispatches,
                                  MinSampleSeconds());
  if (record != nullptr) record->batch_size = size;
  return size;
}

double CalibratedSecondsPerDispatch(const std::function<double(uint32_t)>& time_dispatches, uint32_t probe,
                                    uint32_t period) {
  Spending spending(Phase::kCalibration);
  const uint32_t most = std::max({probe, period, 1u});
  uint32_t count = std::min<uint32_t>(std::max<uint32_t>(probe, 1), most);
  double seconds = time_dispatches(count);
  while (seconds < kCalibrationSeconds && count < most) {
    count = static_cast<uint32_t>(std::min<uint64_t>(uint64_t{count} * 8, most));
    seconds = time_dispatches(count);
  }
  return seconds / count;
}

namespace {

// The timed batch of the current case (CurrentCase), kept across Google Benchmark's calls of its
// benchmark: recording thousands of dispatches again for each of a benchmark's ten or so calls
// cost more host time than some of its timed loops. Freed with the case, before its buffers go.
struct KeptBatch {
  std::string key;
  uint32_t count = 0;
  // A batch of `count` for each start in the rotation it began at (one, at 0, where `count` is
  // whole rounds); at most kKeptStarts, the oldest dropped first.
  std::map<uint32_t, std::unique_ptr<TimedBatch>> batches;
  std::vector<uint32_t> order;
};

constexpr size_t kKeptStarts = 64;

KeptBatch& TheKeptBatch() {
  static KeptBatch kept;
  return kept;
}

}  // namespace

void MeasureDispatches(benchmark::State& state, Context& context, const std::string& key,
                       const std::function<void(Commands&, uint32_t)>& record, uint32_t period, Work work) {
  // A batch may outlive this call only while the case whose buffers it records is the current
  // one (ReleaseCurrentCase frees it first).
  const bool keep = CurrentCaseSlot().name == key && CurrentCaseSlot().value != nullptr;
  KeptBatch local;
  KeptBatch& kept = keep ? TheKeptBatch() : local;
  if (kept.key != key) kept = KeptBatch{.key = key};
  auto time_batch = [&](uint32_t count, uint32_t start) {
    if (kept.count != count) {
      kept.batches.clear();
      kept.order.clear();
      kept.count = count;
    }
    if (!kept.batches.contains(start)) {
      if (kept.order.size() >= kKeptStarts) {
        kept.batches.erase(kept.order.front());
        kept.order.erase(kept.order.begin());
      }
      kept.order.push_back(start);
      kept.batches[start] = std::make_unique<TimedBatch>(context, [&](Commands& c) {
        for (uint32_t i = 0; i < count; ++i) {
          if (i > 0) c.Barrier();
          record(c, start + i);
        }
      });
    }
    return kept.batches[start]->Run();
  };
  if (work.dispatches <= 0) work.dispatches = 1;  // an iteration is one dispatch, after a barrier
  // Calibrate on a short look: one dispatch, more (up to one pass over the rotation) only where
  // that was too short to time (the check before timing has already run the pipeline once; a pass
  // over a rotation of 1047 copies took lavapipe 67 s).
  MeasureTimedBatches(state, &context, time_batch, 1, period, work);
}

namespace {

// The guard's reading after a loop, into `note`: the ratio, and whether it says the clocks were down.
void ReadGuard(const ClockGuardHooks& guard, RunNote& note) {
  note.clock_guard = guard.read ? guard.read() : 0;
  note.throttled = note.clock_guard > 1 + kGuardTolerance;
}

double g_min_sample_seconds = 0;

// Where `guard` vouches for the clocks by a loop's median sample (kVouchTolerance): `note` takes
// the reading of the loop that vouches, unprobed.
bool Vouched(const ClockGuardHooks& guard, double median, RunNote& note) {
  if (guard.memory == nullptr || guard.vouch == nullptr || guard.memory->still_throttled) return false;
  const Vouch& v = *guard.vouch;
  if (v.median <= 0 || median > v.median * (1 + kVouchTolerance)) return false;
  note.clock_guard = v.reading;
  note.throttled = false;
  note.probed = false;
  return true;
}

// A probed loop's median, kept where the probe found the clocks up and it is the benchmark's fastest.
void RememberVouch(const ClockGuardHooks& guard, double median, const RunNote& note) {
  if (note.throttled || guard.memory == nullptr || guard.vouch == nullptr || !guard.read) return;
  Vouch& v = *guard.vouch;
  if (v.median <= 0 || median < v.median) v = {.median = median, .reading = note.clock_guard};
}

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
  static GuardMemory memory;
  if (device == nullptr || device->info().type == "cpu") return {};
  return {.read = [device] { return ClockGuard(*device); },
          .raise = [device] { RaiseClocks(*device); },
          .memory = &memory,
          .vouch = vouch};
}

namespace {

// The vouch of the benchmark being measured (null outside any benchmark: every loop is probed).
Vouch* OwnVouch() {
  Record* record = CurrentRecord();
  return record != nullptr ? &record->vouch : nullptr;
}

// `label`, and the clock guard's reading where the clocks were still down.
std::string Labelled(std::string_view label, const RunNote& note) {
  if (!note.throttled) return std::string(label);
  return fmt::format("{}{}clocks down x{:.2f}", label, label.empty() ? "" : ", ", note.clock_guard);
}

// Hands `times` (from MeasureGuarded, one per pass of `batch` iterations) to Google Benchmark's
// loop, all of them as one chunk: where they add up to more than the call's iteration count
// asked for (MinSampleSeconds), the call reports them all. Notes the run.
void Report(benchmark::State& state, uint64_t batch, std::vector<double> times,
            RunNote note, const std::function<double()>& sample, std::string_view label = {}) {
  const size_t passes = times.size();
  size_t taken = 0;
  while (state.KeepRunningBatch(static_cast<benchmark::IterationCount>(batch * passes))) {
    // One chunk covers the call; should the loop ask for another, it is measured, never invented.
    double seconds = 0;
    for (size_t i = 0; i < passes; ++i, ++taken) {
      if (taken == times.size()) times.push_back(sample());
      seconds += times[taken];
    }
    state.SetIterationTime(seconds);
  }
  note.iterations = static_cast<uint64_t>(state.iterations());
  if (KeepingSamples()) note.samples = std::move(times);
  state.SetLabel(Labelled(label, note));
  if (Record* record = CurrentRecord()) record->AddRun(std::move(note));
}

// The device-timed loop of both strategies: the warm-up on `sample`, the samples Google
// Benchmark's loop will ask for (passes of `batch` iterations, at least MinSampleSeconds' worth)
// under the clock guard, handed to the loop and noted.
void GuardedLoop(benchmark::State& state, Context* device, uint64_t batch,
                 const std::function<double()>& sample, std::string_view label = {}) {
  WarmUp(device, sample);
  RunNote note;
  size_t passes = static_cast<size_t>((static_cast<uint64_t>(state.max_iterations) + batch - 1) / batch);
  // The passes the benchmark's first call took up to the minimum time, taken again by its later
  // calls: Google Benchmark asks every repetition for the first call's iteration count (one) and
  // requires the repetitions' counts to be equal.
  Record* record = CurrentRecord();
  const size_t first = record != nullptr ? record->first_passes : 0;
  passes = std::max(passes, first);
  const double min_seconds = first == 0 ? MinSampleSeconds() : 0;
  std::vector<double> times = MeasureGuarded(passes, sample, GuardOf(device, OwnVouch()), note, min_seconds);
  if (record != nullptr && first == 0 && min_seconds > 0) record->first_passes = times.size();
  Report(state, batch, std::move(times), std::move(note), sample, label);
  NoteDeviceBusy();
}

}  // namespace

void MeasureTimedBatches(benchmark::State& state, Context* device,
                         const std::function<double(uint32_t, uint32_t)>& time_batch, uint32_t probe, uint32_t period,
                         Work work) {
  period = std::max<uint32_t>(period, 1);
  const uint32_t batch = StableBatchSize(
      [&] { return CalibratedSecondsPerDispatch([&](uint32_t count) { return time_batch(count, 0); }, probe, period); },
      period);
  // Where a batch is not whole rounds of the rotation, each sample goes on where the one before
  // ended, through the benchmark's calls, so that consecutive dispatches never read one copy.
  Record* record = CurrentRecord();
  uint32_t local_start = 0;
  uint32_t& start = record != nullptr ? record->rotation_start : local_start;
  GuardedLoop(state, device, batch, [&] {
    const double seconds = time_batch(batch, start % period);
    start = static_cast<uint32_t>((uint64_t{start} + batch) % period);
    return seconds;
  });
  state.counters["dispatches/sample"] = batch;
  SetThroughput(state, work);
  if (device != nullptr) {
    SetRooflinePercent(state, work, *device);
    SetBoundPercent(state, work, *device);
  }
}

void MeasureTimedRuns(benchmark::State& state, Context* device,
                      const std::function<void()>& reset, const std::function<double()>& run, Work work,
                      std::string_view label) {
  // Untimed: each sample's time is its run's alone (UseManualTime).
  const auto sample = [&] {
    reset();
    return run();
  };
  GuardedLoop(state, device, 1, sample, label);
  SetThroughput(state, work);
  if (device != nullptr) {
    SetRooflinePercent(state, work, *device);
    SetBoundPercent(state, work, *device);
  }
}

void MeasureHostClocked(benchmark::State& state, Context* device,
                        const std::function<void()>& reset,
                        const std::function<void()>& run, Work work) {
  const auto warm_up_run = [&] {
    reset();
    const auto start = std::chrono::steady_clock::now();
    run();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  WarmUp(device, warm_up_run);
  std::vector<double> times;  // each run's seconds, for the guard's vouch
  {
    Spending spending(Phase::kTimed);
    for (auto _ : state) {
      state.PauseTiming();
      reset();
      state.ResumeTiming();
      const auto start = std::chrono::steady_clock::now();
      run();
      times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
  }
  // Google Benchmark's own clock timed the loop, so it cannot be measured again: the guard only
  // marks a loop that ended with the clocks down.
  RunNote note;
  note.iterations = static_cast<uint64_t>(state.iterations());
  const ClockGuardHooks guard = GuardOf(device, OwnVouch());
  if (times.empty()) {
    ReadGuard(guard, note);
  } else if (const double median = Median(times); !Vouched(guard, median, note)) {
    ReadGuard(guard, note);
    RememberVouch(guard, median, note);
  }
  state.SetLabel(Labelled("host clock", note));
  if (Record* record = CurrentRecord()) record->AddRun(std::move(note));
  NoteDeviceBusy();
  SetThroughput(state, work);
  if (device != nullptr) {
    SetRooflinePercent(state, work, *device);
    SetBoundPercent(state, work, *device);
  }
}

void MeasurePlainLoop(benchmark::State& state, const std::function<void()>& iteration,
                      const std::function<Work()>& work, const std::function<void()>& untimed_reset) {
  FinishAhead();  // the host's cores are the loop's alone
  Spending spending(Phase::kTimed);
  for (auto _ : state) {
    if (untimed_reset) {
      state.PauseTiming();
      untimed_reset();
      state.ResumeTiming();
    }
    iteration();
    benchmark::ClobberMemory();
  }
  SetThroughput(state, work());
}

void MeasurePlainLoop(benchmark::State& state, const std::function<void()>& iteration, Work work,
                      const std::function<void()>& untimed_reset) {
  MeasurePlainLoop(state, iteration, [work] { return work; }, untimed_reset);
}

benchmark::internal::Benchmark* AddPlainLoop(const std::string& name,
                                             std::function<void(benchmark::State&)> measure) {
  auto* benchmark = AddBenchmark(name, [measure = std::move(measure)](benchmark::State& state) {
                      RunGuarded(state, [&] { measure(state); });
                    })->Unit(benchmark::kMillisecond);
  PassedByAhead(name);
  return benchmark;
}

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

void SetRooflinePercent(benchmark::State& state, Work work, double roofline_gbs) {
  if (roofline_gbs <= 0) return;
  double iterations = static_cast<double>(state.iterations());
  state.counters["roofline%"] =
      benchmark::Counter(work.bytes * iterations * 1e-9 / roofline_gbs * 100, benchmark::Counter::kIsRate);
}

void SetRooflinePercent(benchmark::State& state, Work work, Context& context) {
  if (!work.roofline) return;
  SetRooflinePercent(state, work, MemoryCeilingGBs(context, work.read_only));
}

void SetBoundPercent(benchmark::State& state, Work work, Context& context) {
  if (work.ops <= 0) return;
  const double bytes = work.bound_bytes >= 0 ? work.bound_bytes : work.bytes;
  const double peak = MeasuredPeak(context, work.peak);
  const double one_dispatch = MeasuredDispatchSeconds(context);
  // The DRAM ceilings are measured one dispatch (or copy command) at a time, each moving twice the
  // ceiling's copy bytes: net of one dispatch's cost, since the bound adds the kernel's own.
  const double ceiling_bytes = 2.0 * static_cast<double>(CeilingCopyBytes(context));
  const double measured_gbs = MemoryCeilingGBs(context, work.read_only);
  if (measured_gbs <= 0 || peak <= 0) return;
  double memory_gbs = ceiling_bytes / std::max(ceiling_bytes / (measured_gbs * 1e9) - one_dispatch, 1e-9) * 1e-9;
  std::string memory_ceiling = work.read_only ? "read" : "copy";
  if (work.footprint > 0) {
    const double resident = MeasuredResidentCopy(context, work.footprint, one_dispatch);
    if (resident > memory_gbs) {
      memory_gbs = resident;
      memory_ceiling = ResidentCopyName(work.footprint);
    }
  }
  const double memory_seconds = bytes / (memory_gbs * 1e9);
  const double compute_seconds = work.ops / peak;
  const double dispatch_seconds = work.dispatches > 0 ? work.dispatches * one_dispatch : 0;
  const double bound_seconds = dispatch_seconds + std::max(memory_seconds, compute_seconds);
  const double iterations = static_cast<double>(state.iterations());
  // A rate: the bound's seconds for every iteration over the loop's seconds.
  state.counters["bound%"] = benchmark::Counter(bound_seconds * iterations * 100, benchmark::Counter::kIsRate);
  if (Record* record = CurrentRecord()) {
    record->NoteIntensity({.ops_per_element = work.ops / work.elements,
                           .unit = std::string(PeakUnit(work.peak)),
                           .bytes_per_element = bytes / work.elements,
                           .memory_ceiling = memory_ceiling,
                           .compute_ceiling = std::string(PeakName(work.peak)),
                           .binds = compute_seconds > memory_seconds ? "compute" : "memory",
                           .dispatch_share = dispatch_seconds / bound_seconds,
                           .lower_bound = work.ops_lower_bound});
  }
}

uint32_t RotationCopies(uint64_t bytes, uint64_t budget_bytes, CacheMode cache) {
  if (cache == CacheMode::kWarm || bytes == 0 || bytes >= budget_bytes) return 1;
  return static_cast<uint32_t>(std::min<uint64_t>((budget_bytes + bytes - 1) / bytes, kMaxRotationCopies));
}

uint32_t ColdCopies(Context& context, uint64_t bytes, CacheMode cache) {
  return cache == CacheMode::kWarm ? 1 : RotationCopies(bytes, ColdFootprintBytes(context), cache);
}

uint64_t RotatingInput::Stride(const Context& context, uint64_t bytes) {
  const uint64_t align = std::max<uint64_t>(context.info().min_storage_buffer_offset_alignment, 256);
  return (bytes + align - 1) / align * align;
}

RotatingInput::RotatingInput(Context& context, std::span<const std::byte> data, CacheMode cache, uint32_t copies)
    : slice_bytes_(data.size()), stride_(Stride(context, data.size())) {
  // A domain too large for the device skips its benchmark, naming the limit.
  RequireMemory(context, stride_);
  copies_ = copies > 0 ? copies : ColdCopies(context, stride_, cache);
  RequireMemory(context, stride_ * copies_);
  buffer_ = std::make_unique<Buffer>(context, stride_ * copies_);
  buffer_->Upload(data, 0);
  if (copies_ > 1) {
    context.Run([&](Commands& c) {
      for (uint32_t i = 1; i < copies_; ++i) c.Copy(*buffer_, 0, *buffer_, i * stride_, slice_bytes_);
    });
  }
}

CaseSlot& CurrentCaseSlot() {
  static CaseSlot slot;
  return slot;
}

namespace {

// How many cases may be in making ahead of the one being measured: two, so that a case that takes
// longer to make than the benchmark before it measures starts while the one before that measures
// (a whole-suite run's waits for cases: 17.6 -> 13.4 s, modelled on its H200 record). Each is made
// after the one before it, on a thread of its own: at most three cases are alive at a time.
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
// buffers and pipelines took 14 s of a 403 s H200 run on the first thread); where none starts, it
// is freed here.
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

namespace {

// `output` poisoned, `record`'s dispatch, then the first out.size() bytes of `output` into `out`.
void PoisonedDownload(Context& context, const Buffer& output, std::span<std::byte> out,
                      const std::function<void(Commands&)>& record) {
  context.Run([&](Commands& c) {
    c.Fill(output, kPoison);
    c.Barrier();
    record(c);
  });
  output.Download(out);
}

}  // namespace

std::vector<float> PoisonedRun(Context& context, const Buffer& output, size_t floats,
                               const std::function<void(Commands&)>& record) {
  std::vector<float> got(floats);
  PoisonedDownload(context, output, std::as_writable_bytes(std::span(got)), record);
  return got;
}

std::vector<uint32_t> PoisonedWords(Context& context, const Buffer& output, size_t words,
                                    const std::function<void(Commands&)>& record) {
  std::vector<uint32_t> got(words);
  PoisonedDownload(context, output, std::as_writable_bytes(std::span(got)), record);
  return got;
}

void RunGuarded(benchmark::State& state, const std::function<void()>& body) {
  try {
    body();
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

}  // namespace csbench
