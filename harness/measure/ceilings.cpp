#include "harness/measure/ceilings.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "harness/base/cache_file.hpp"
#include "harness/base/error.hpp"
#include "harness/base/ledger.hpp"
#include "harness/measure/measure.hpp"
#include "harness/measure/session_state.hpp"
#include "harness/vulkan/buffer.hpp"
#include "harness/vulkan/commands.hpp"
#include "harness/vulkan/context.hpp"
#include "harness/vulkan/kernel.hpp"
#include "harness/vulkan/timing.hpp"
#include "kernels/ceiling/reference.hpp"

namespace csbench {
namespace {

struct PeakPush {
  uint32_t count;
  uint32_t trips;
  float a;
  float b;
  uint32_t ia;
  uint32_t ib;
};

// Invocations of peak.comp whose results differ only by their index modulo this.
constexpr uint32_t kSeeds = 1024;

}  // namespace

std::string_view PeakName(Peak peak) {
  switch (peak) {
    case Peak::kFp32: return "fp32_fma";
    case Peak::kFp16: return "fp16_fma";
    case Peak::kInt32: return "int32_mad";
  }
  return "?";
}

std::string_view PeakUnit(Peak peak) { return peak == Peak::kInt32 ? "OP" : "FLOP"; }
std::string_view PeakRateUnit(Peak peak) { return peak == Peak::kInt32 ? "GOP/s" : "GFLOP/s"; }

uint32_t PeakInvocations(const Context& context) { return context.info().type == "cpu" ? 1u << 16 : 1u << 24; }

std::array<uint32_t, 3> GroupGrid(uint64_t groups) {
  if (groups <= kMaxGroupsPerDimension) return {static_cast<uint32_t>(std::max<uint64_t>(groups, 1)), 1, 1};
  constexpr uint64_t kRow = 32768;
  return {static_cast<uint32_t>(kRow), static_cast<uint32_t>((groups + kRow - 1) / kRow), 1};
}

PeakKernel::PeakKernel(Context& context, Peak peak, uint32_t invocations, uint32_t workgroup, uint32_t trips)
    : context_(&context), peak_(peak), invocations_(invocations), workgroup_(workgroup), trips_(trips) {
  RequireSupport(peak != Peak::kFp16 || context.info().shader_float16,
                 "float16 arithmetic in shaders (shaderFloat16)");
  const int kind = peak == Peak::kFp32 ? 0 : peak == Peak::kFp16 ? 1 : 2;
  results_ = std::make_unique<Buffer>(context, uint64_t{invocations} * sizeof(uint32_t));
  kernel_ = std::make_unique<Kernel>(context, KernelSpec{.label = std::string(PeakName(peak)),
                                                         .source = "ceiling/peak.comp",
                                                         .defines = {{"KIND", std::to_string(kind)}},
                                                         .local_size = {workgroup, 1, 1},
                                                         .bindings = 1,
                                                         .push_bytes = sizeof(PeakPush)});
  bindings_ = std::make_unique<Bindings>(kernel_->Bind({{results_.get(), 0}}));
}

PeakKernel::~PeakKernel() = default;

void PeakKernel::Record(Commands& commands) const {
  const PeakPush push{.count = invocations_,
                      .trips = trips_,
                      .a = ceiling::kA,
                      .b = ceiling::kB,
                      .ia = ceiling::kIntA,
                      .ib = ceiling::kIntB};
  commands.Dispatch(*kernel_, *bindings_, GroupGrid((uint64_t{invocations_} + workgroup_ - 1) / workgroup_), {},
                    push);
}

double PeakKernel::ops() const {
  // 16 chains of trips x 16 multiply-adds, each 2 operations.
  return static_cast<double>(invocations_) * 16.0 * trips_ * ceiling::kStepsPerTrip * 2.0;
}

Comparison PeakKernel::Check() const {
  const auto record = [&](Commands& c) { Record(c); };
  if (peak_ == Peak::kInt32) {
    std::vector<uint32_t> table(kSeeds);
    for (uint32_t s = 0; s < kSeeds; ++s) table[s] = ceiling::UintPeakResult(s, trips_);
    return CompareWords(PoisonedWords(*context_, *results_, invocations_, record),
                        [&](size_t i) { return table[i % kSeeds]; });
  }
  std::vector<float> table(kSeeds);
  for (uint32_t s = 0; s < kSeeds; ++s) {
    table[s] = peak_ == Peak::kFp32 ? ceiling::FloatPeakResult(s, trips_) : ceiling::HalfPeakResult(s, trips_);
  }
  std::vector<float> want(invocations_);
  for (size_t i = 0; i < want.size(); ++i) want[i] = table[i % kSeeds];
  // Float: the same fused operations in the same order, so only a driver's reordering of the
  // final sum differs. Float16: a device may round a float16 FMA through float first (a second
  // rounding, one float16 unit now and then); the chains damp what a step adds.
  return Compare(PoisonedRun(*context_, *results_, invocations_, record), want, peak_ == Peak::kFp32 ? 1e-5 : 4e-3);
}

EmptyDispatch::EmptyDispatch(Context& context, uint32_t workgroup) : context_(&context) {
  result_ = std::make_unique<Buffer>(context, 256);
  kernel_ = std::make_unique<Kernel>(context, KernelSpec{.label = "empty dispatch",
                                                         .source = "ceiling/empty.comp",
                                                         .local_size = {workgroup, 1, 1},
                                                         .bindings = 1,
                                                         .push_bytes = sizeof(uint32_t)});
  bindings_ = std::make_unique<Bindings>(kernel_->Bind({{result_.get(), 0}}));
}

EmptyDispatch::~EmptyDispatch() = default;

namespace {
constexpr uint32_t kEmptyValue = 0x600dcafe;
}

void EmptyDispatch::Record(Commands& commands) const {
  commands.Dispatch(*kernel_, *bindings_, {1, 1, 1}, {}, kEmptyValue);
}

Comparison EmptyDispatch::Check() const {
  const uint32_t word = PoisonedWords(*context_, *result_, 1, [&](Commands& c) { Record(c); })[0];
  Comparison c;
  c.passed = word == kEmptyValue;
  if (!c.passed) c.message = fmt::format("the dispatch wrote {:#010x}, expected {:#010x}", word, kEmptyValue);
  return c;
}

double BestBatchSeconds(Context& context, const std::function<void(Commands&)>& record, uint32_t per_batch,
                        uint32_t rounds, double budget_seconds) {
  TimedBatch batch(context, [&](Commands& c) {
    for (uint32_t i = 0; i < per_batch; ++i) {
      if (i > 0) c.Barrier();
      record(c);
    }
  });
  // The checks before this leave the GPU idle long enough to lower its clocks: raise them again
  // before the batches that count (the clock probe), then run the batch for 20 ms at least, and
  // until it is no longer 1% faster (at most 0.2 s). Not 0.2 s at least, as the benchmarks'
  // batches once ran: in batches of microseconds, a submission each, that costs a whole-suite run
  // seconds across its ceilings (docs/perf-notes.md, section 18). A CPU
  // device has no clocks to raise, so WarmUp runs nothing there: one run warms its caches. The
  // warm-up is the ceiling's, not that of the benchmark that asked for it first: not in its record.
  RecordScope no_benchmark(nullptr);
  if (WarmUp(&context, [&] { return batch.Run(); }, 0.02, 0.2, 0.0) == 0) batch.Run();
  double best = 1e30;
  double spent = 0;
  for (uint32_t r = 0; r < rounds; ++r) {
    const double seconds = batch.Run();
    best = std::min(best, seconds / per_batch);
    spent += seconds;
    if (r >= 1 && budget_seconds > 0 && spent >= budget_seconds) break;
  }
  return best;
}

double CeilingBudgetSeconds(const Context& context) { return context.info().type == "cpu" ? 0.25 : 0.05; }

double CachedCeiling(Context& context, const std::string& name, double reused_scale,
                     const std::function<double()>& measure) {
  CeilingState& ceilings = TheSession().ceilings();
  std::lock_guard guard(ceilings.measuring);
  const auto key = std::make_pair(&context, name);
  if (auto it = ceilings.values.find(key); it != ceilings.values.end()) return it->second;
  if (const std::optional<double> reused = ReusedCeiling(name)) return ceilings.values[key] = *reused * reused_scale;
  Spending spending(Phase::kCeiling);
  return ceilings.values[key] = measure();
}

namespace {

double MeasuredPeakRate(Context& context, Peak peak) {
  double rate = 0;
  try {
    const uint32_t workgroup = std::min<uint32_t>(256, context.info().max_workgroup_invocations);
    PeakKernel kernel(context, peak, PeakInvocations(context), workgroup);
    const Comparison check = kernel.Check();
    Require(check.passed, fmt::format("the {} ceiling's kernel computed wrong results: {}", PeakName(peak),
                                      check.message));
    rate = kernel.ops() / BestBatchSeconds(context, [&](Commands& c) { kernel.Record(c); }, 1, 5,
                                           CeilingBudgetSeconds(context));
    NoteCeiling(std::string(PeakName(peak)), rate * 1e-9, PeakRateUnit(peak),
                fmt::format("peak.comp, {} invocations of {}, 16 chains of {} multiply-adds (2 {} each), best of "
                            "at most 5",
                            PeakInvocations(context), workgroup, kPeakTrips * ceiling::kStepsPerTrip,
                            PeakUnit(peak)));
  } catch (const Unsupported&) {
    rate = 0;
  }
  return rate;
}

double MeasuredEmptyDispatchSeconds(Context& context) {
  EmptyDispatch empty(context);
  const Comparison check = empty.Check();
  Require(check.passed, "the empty dispatch did not run: " + check.message);
  const uint32_t per_batch = context.info().type == "cpu" ? 100 : 1000;
  const double seconds = BestBatchSeconds(context, [&](Commands& c) { empty.Record(c); }, per_batch, 3);
  NoteCeiling("dependent_dispatch", seconds * 1e6, "us",
              fmt::format("one workgroup of an empty kernel after another, a barrier between; best of 3 batches of {}",
                          per_batch));
  return seconds;
}

using Kept = KeptCeiling;
using Ceilings = CeilingState;

Ceilings& TheCeilings() { return TheSession().ceilings(); }

double Now() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

constexpr std::string_view kCacheHeader = "csbench ceilings 1";

CacheKey KeyOf(const CeilingsCache& cache) {
  return {.device_key = cache.device_key, .driver = cache.driver, .revision = cache.revision};
}

// The file's entries where its key, driver and revision are `cache`'s; none otherwise (or where
// it cannot be read: a damaged file is measured over, never trusted).
std::map<std::string, Kept> ReadCeilingsFile(const CeilingsCache& cache) {
  const auto rows = ReadCacheFile(cache.path, kCacheHeader, KeyOf(cache));
  if (!rows) return {};
  std::map<std::string, Kept> kept;
  for (const std::vector<std::string>& f : *rows) {
    if (f.size() != 6 || f[0] != "ceiling") return {};
    try {
      kept[f[1]] = {.ceiling = {.name = f[1], .value = std::stod(f[2]), .unit = f[3], .what = f[5]},
                    .measured_at = std::stod(f[4])};
    } catch (const std::exception&) {
      return {};
    }
  }
  return kept;
}

// Writes every kept entry. A folder that cannot be written costs the cache, never the run: one
// line says so.
void WriteCeilingsFile(Ceilings& c) {
  if (c.cache.path.empty() || c.write_failed) return;
  std::vector<std::string> rows;
  for (const auto& [name, k] : c.kept) {
    rows.push_back(fmt::format("ceiling\t{}\t{:.17g}\t{}\t{:.3f}\t{}", name, k.ceiling.value, k.ceiling.unit,
                               k.measured_at, k.ceiling.what));
  }
  if (!WriteCacheFile(c.cache.path, kCacheHeader, KeyOf(c.cache), rows)) {
    c.write_failed = true;
    fmt::print(stderr, "csbench: cannot write the ceilings' cache file {}; a later run will measure them again\n",
               c.cache.path);
  }
}

}  // namespace

void NoteCeiling(const std::string& name, double value, std::string_view unit, std::string_view what) {
  Ceilings& c = TheCeilings();
  std::lock_guard guard(c.noting);
  NotedCeiling noted{.name = name, .value = value, .unit = std::string(unit), .what = std::string(what)};
  c.noted[name] = noted;
  c.kept[name] = {.ceiling = std::move(noted), .measured_at = Now()};
  WriteCeilingsFile(c);
}

std::vector<NotedCeiling> NotedCeilings() {
  Ceilings& c = TheCeilings();
  std::lock_guard guard(c.noting);
  std::vector<NotedCeiling> noted;
  for (const auto& [name, ceiling] : c.noted) noted.push_back(ceiling);
  return noted;
}

std::string CeilingsCachePath(const std::string& device_key) {
  return CacheFilePath("ceilings-" + device_key + ".tsv");
}

void SetCeilingsCache(CeilingsCache cache) {
  Ceilings& c = TheCeilings();
  std::lock_guard guard(c.noting);
  c.kept = cache.path.empty() ? std::map<std::string, Kept>{} : ReadCeilingsFile(cache);
  c.cache = std::move(cache);
  c.write_failed = false;
}

bool IsSizeCeiling(std::string_view name) { return name == "last_level_cache" || name == "cold_footprint"; }

std::optional<double> ReusedCeiling(const std::string& name) {
  Ceilings& c = TheCeilings();
  std::lock_guard guard(c.noting);
  if (!c.cache.reuse && !(c.cache.reuse_sizes && IsSizeCeiling(name))) return std::nullopt;
  const auto it = c.kept.find(name);
  if (it == c.kept.end()) return std::nullopt;
  const double age = std::max(0.0, Now() - it->second.measured_at);
  if (c.cache.max_age_seconds > 0 && age > c.cache.max_age_seconds) return std::nullopt;
  NotedCeiling noted = it->second.ceiling;
  noted.age_seconds = age;
  c.noted[name] = noted;
  return noted.value;
}

double MeasuredPeak(Context& context, Peak peak) {
  // Noted in Gop/s (or Gflop/s), kept in operations a second.
  return CachedCeiling(context, std::string(PeakName(peak)), 1e9, [&] { return MeasuredPeakRate(context, peak); });
}

double MeasuredDispatchSeconds(Context& context) {
  // Noted in microseconds, kept in seconds.
  return CachedCeiling(context, "dependent_dispatch", 1e-6, [&] { return MeasuredEmptyDispatchSeconds(context); });
}

}  // namespace csbench
