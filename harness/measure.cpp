#include "harness/measure.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>

#include "harness/clock_probe.hpp"
#include "harness/commands.hpp"
#include "harness/context.hpp"
#include "harness/error.hpp"
#include "harness/family.hpp"
#include "harness/roofline.hpp"
#include "harness/timing.hpp"

namespace csbench {

void SetThroughput(benchmark::State& state, Work work) {
  double iterations = static_cast<double>(state.iterations());
  state.counters["Gelem/s"] = benchmark::Counter(work.elements * iterations * 1e-9, benchmark::Counter::kIsRate);
  state.counters["GB/s"] = benchmark::Counter(work.bytes * iterations * 1e-9, benchmark::Counter::kIsRate);
}

uint32_t BatchSize(double seconds_per_dispatch, uint32_t period, double target_seconds, uint32_t max_dispatches) {
  period = std::max<uint32_t>(period, 1);
  double wanted = seconds_per_dispatch > 0 ? std::ceil(target_seconds / seconds_per_dispatch) : max_dispatches;
  uint32_t n = static_cast<uint32_t>(std::clamp(wanted, 1.0, static_cast<double>(max_dispatches)));
  return (n + period - 1) / period * period;
}

uint32_t StableBatchSize(const std::string& key, double seconds_per_dispatch, uint32_t period) {
  static std::map<std::string, uint32_t> sizes;
  auto [it, inserted] = sizes.try_emplace(key, 0);
  if (inserted) it->second = BatchSize(seconds_per_dispatch, period);
  return it->second;
}

void MeasureDispatches(benchmark::State& state, Context& context, const std::string& key,
                       const std::function<void(Commands&, uint32_t)>& record, uint32_t period, Work work) {
  // The latest batch recorded, by its dispatch count: the calibration's, then the timed size's.
  std::unique_ptr<TimedBatch> batch;
  uint32_t recorded = 0;
  auto time_batch = [&](uint32_t count) {
    if (batch == nullptr || recorded != count) {
      batch.reset();
      batch = std::make_unique<TimedBatch>(context, [&](Commands& c) {
        for (uint32_t i = 0; i < count; ++i) {
          if (i > 0) c.Barrier();
          record(c, i);
        }
      });
      recorded = count;
    }
    return batch->Run();
  };
  // Calibrate on one pass over the rotation (the check before timing has already run the
  // pipeline once; on a slow device, lavapipe reads 7680x4320 in about a second, each pass
  // counts).
  MeasureTimedBatches(state, &context, key, time_batch, std::max<uint32_t>(period, 1), period, work);
}

void MeasureTimedBatches(benchmark::State& state, Context* device, const std::string& key,
                         const std::function<double(uint32_t)>& time_batch, uint32_t probe, uint32_t period,
                         Work work) {
  const double per_dispatch = time_batch(probe) / probe;
  const uint32_t batch = StableBatchSize(key, per_dispatch, period);
  // Warm a GPU up on batches of the timed size.
  WarmUp(device, [&] { return time_batch(batch); });
  while (state.KeepRunningBatch(batch)) {
    state.SetIterationTime(time_batch(batch));
  }
  NoteDeviceBusy();
  state.counters["dispatches/sample"] = batch;
  SetThroughput(state, work);
  if (device != nullptr) SetRooflinePercent(state, work, *device);
}

void MeasureTimedRuns(benchmark::State& state, Context* device, const std::function<void()>& reset,
                      const std::function<double()>& run, Work work, bool roofline) {
  WarmUp(device, [&] {
    reset();
    return run();
  });
  for (auto _ : state) {
    // Untimed: the iteration's time is the run's alone (UseManualTime).
    reset();
    state.SetIterationTime(run());
  }
  NoteDeviceBusy();
  SetThroughput(state, work);
  if (roofline && device != nullptr) SetRooflinePercent(state, work, *device);
}

void MeasureHostClocked(benchmark::State& state, Context* device, const std::function<void()>& reset,
                        const std::function<void()>& run, Work work) {
  WarmUp(device, [&] {
    reset();
    const auto start = std::chrono::steady_clock::now();
    run();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  });
  for (auto _ : state) {
    state.PauseTiming();
    reset();
    state.ResumeTiming();
    run();
  }
  NoteDeviceBusy();
  SetThroughput(state, work);
  if (device != nullptr) SetRooflinePercent(state, work, *device);
  state.SetLabel("host clock");
}

void MeasurePlainLoop(benchmark::State& state, const std::function<void()>& iteration,
                      const std::function<Work()>& work, const std::function<void()>& untimed_reset) {
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
  return AddBenchmark(name, [measure = std::move(measure)](benchmark::State& state) {
           RunGuarded(state, [&] { measure(state); });
         })
      ->Unit(benchmark::kMillisecond);
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
  if (device != nullptr) RaiseClocks(*device);
  double elapsed = 0;
  double previous = 0;
  for (uint32_t runs = 1;; ++runs) {
    const double seconds = run();
    elapsed += seconds;
    const bool improving = previous == 0 || seconds < previous * 0.99;
    if ((elapsed >= min_seconds && !improving) || elapsed >= max_seconds) return runs;
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
  SetRooflinePercent(state, work, MeasuredRoofline(context).ceiling_gbs(work.read_only));
}

uint32_t RotationCopies(uint64_t bytes, uint64_t budget_bytes, CacheMode cache) {
  if (cache == CacheMode::kWarm || bytes == 0 || bytes >= budget_bytes) return 1;
  return static_cast<uint32_t>(std::min<uint64_t>((budget_bytes + bytes - 1) / bytes, kMaxRotationCopies));
}

uint64_t RotatingInput::Stride(const Context& context, uint64_t bytes) {
  const uint64_t align = std::max<uint64_t>(context.info().min_storage_buffer_offset_alignment, 256);
  return (bytes + align - 1) / align * align;
}

RotatingInput::RotatingInput(Context& context, std::span<const std::byte> data, CacheMode cache, uint32_t copies)
    : slice_bytes_(data.size()), stride_(Stride(context, data.size())) {
  // A domain too large for the device skips its benchmark, naming the limit.
  RequireMemory(context, stride_);
  copies_ = copies > 0 ? copies : RotationCopies(stride_, kBudgetBytes, cache);
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

void ReleaseCurrentCase() {
  CaseSlot& slot = CurrentCaseSlot();
  slot.value.reset();
  slot.name.clear();
}

std::vector<float> PoisonedRun(Context& context, const Buffer& output, size_t floats,
                               const std::function<void(Commands&)>& record) {
  context.Run([&](Commands& c) {
    c.Fill(output, kPoison);
    c.Barrier();
    record(c);
  });
  std::vector<float> got(floats);
  output.Download(std::as_writable_bytes(std::span(got)));
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
