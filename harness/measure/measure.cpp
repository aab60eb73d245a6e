// The measuring loops: device-timed batches and runs, host-clocked runs and plain host loops,
// each warmed up, sampled to the minimum time under the clock guard and handed to Google
// Benchmark's loop with its counters; and the batch size a device-timed loop takes.
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
#include "harness/measure/session_state.hpp"
#include "harness/vulkan/clock_probe.hpp"
#include "harness/vulkan/commands.hpp"
#include "harness/vulkan/context.hpp"
#include "harness/vulkan/limits.hpp"
#include "harness/vulkan/submission_clock.hpp"
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

using namespace measure_detail;

void MeasureDispatches(benchmark::State& state, Context& context,
                       const std::function<void(Commands&, uint32_t)>& record, uint32_t period, Work work) {
  // A batch may outlive this call only while the case whose buffers it records is the current
  // one (ReleaseCurrentCase frees it first).
  CaseState& cases = TheSession().cases();
  const Record* benchmark = CurrentRecord();
  const bool keep = benchmark != nullptr && cases.slot.record == benchmark && cases.slot.value != nullptr;
  KeptBatch local;
  KeptBatch& kept = keep ? cases.kept : local;
  if (kept.record != benchmark) kept = KeptBatch{.record = benchmark};
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
  // over a rotation of a thousand copies takes a CPU device about a minute).
  MeasureTimedBatches(state, &context, time_batch, 1, period, work);
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

std::optional<double> CalibrationFromCheck(double checked_seconds, uint32_t period, bool cpu_device) {
  if (checked_seconds <= 0) return std::nullopt;
  if (cpu_device) return checked_seconds >= kCalibrationSeconds ? std::optional(checked_seconds) : std::nullopt;
  const auto batch = [&](double seconds) {
    return BatchSize(seconds, period, kBatchSeconds, kMaxBatchDispatches, MinSampleSeconds());
  };
  if (batch(checked_seconds / kCheckedRunSlack) != batch(checked_seconds)) return std::nullopt;
  return checked_seconds;
}

void MeasureTimedBatches(benchmark::State& state, Context* device,
                         const std::function<double(uint32_t, uint32_t)>& time_batch, uint32_t probe, uint32_t period,
                         Work work) {
  period = std::max<uint32_t>(period, 1);
  // An iteration the check's run took so long that the calibration's look could only give the
  // same batch (one dispatch a sample, on a CPU device nearly always) is not looked at again: on
  // lavapipe that look was a sample's worth of device time a benchmark.
  const uint32_t batch = StableBatchSize(
      [&] {
        const bool cpu = device != nullptr && device->info().type == "cpu";
        if (const std::optional<double> checked = CalibrationFromCheck(work.checked_seconds, period, cpu)) {
          return *checked;
        }
        return CalibratedSecondsPerDispatch([&](uint32_t count) { return time_batch(count, 0); }, probe, period);
      },
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
    const SubmissionClock::HostClocked host_clocked;
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
  const Added added = AddRecordedBenchmark(name, [measure = std::move(measure)](benchmark::State& state) {
    RunGuarded(state, [&] { measure(state); });
  });
  if (added.record != nullptr) PassedByAhead(*added.record);
  return added.benchmark->Unit(benchmark::kMillisecond);
}

void RunGuarded(benchmark::State& state, const std::function<void()>& body) {
  try {
    body();
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}

}  // namespace csbench
