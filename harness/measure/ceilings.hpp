// The device's compute ceilings and the cost of a dispatch, measured once per run, lazily, the
// way the memory ceilings are (harness/measure/roofline.hpp), and every ceiling a run measured, for the
// JSON report's context ("ceilings"). The ceiling family (bench/ceiling.cpp) measures the same
// kernels as benchmarks, with every repetition and check.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/base/check.hpp"

namespace csbench {

class Bindings;
class Buffer;
class Commands;
class Context;
class Kernel;

// The peaks a kernel's declared arithmetic is judged against.
enum class Peak {
  kFp32,   // float fused multiply-adds, 2 FLOP each
  kFp16,   // packed float16 fused multiply-adds (f16vec2), 2 FLOP per half
  kInt32,  // 32-bit integer multiply-adds, 2 operations each
};
// "fp32_fma", "fp16_fma", "int32_mad": the ceiling's name in the JSON and the benchmark's variant.
std::string_view PeakName(Peak peak);
// "FLOP" or "OP": what the peak's operations are.
std::string_view PeakUnit(Peak peak);
// "GFLOP/s" or "GOP/s": the unit its rates are written in.
std::string_view PeakRateUnit(Peak peak);

// Trips (of 16 steps) each invocation of a peak kernel runs, and the invocations of the measured
// ceiling: 2^24 on a GPU (about 2 ms a dispatch at an H200's FP32 rate, 60 waves of its
// workgroups, so the last wave's tail costs under 2%), 2^16 on a CPU device.
inline constexpr uint32_t kPeakTrips = 16;
uint32_t PeakInvocations(const Context& context);

// A 2D grid of `groups` workgroups: at most 65535 along x (Vulkan's minimum limit), in whole
// rows of 32768 beyond that.
std::array<uint32_t, 3> GroupGrid(uint64_t groups);

// peak.comp for one peak: `invocations` invocations of `workgroup`, each running 16 chains for
// `trips` trips.
class PeakKernel {
 public:
  // Throws Unsupported where the device lacks float16 arithmetic (kFp16).
  PeakKernel(Context& context, Peak peak, uint32_t invocations, uint32_t workgroup, uint32_t trips = kPeakTrips);
  ~PeakKernel();
  void Record(Commands& commands) const;
  // Runs once into a poisoned output and compares each invocation's result with the host's
  // (kernels/ceiling/reference.hpp): exact for integers, within rounding for floats.
  Comparison Check() const;
  // Operations one dispatch does (FLOP, or integer operations).
  double ops() const;

 private:
  Context* context_;
  Peak peak_;
  uint32_t invocations_;
  uint32_t workgroup_;
  uint32_t trips_;
  std::unique_ptr<Buffer> results_;
  std::unique_ptr<Kernel> kernel_;
  std::unique_ptr<Bindings> bindings_;
};

// One workgroup of empty.comp: the cheapest dispatch that still does something to check.
class EmptyDispatch {
 public:
  EmptyDispatch(Context& context, uint32_t workgroup = 64);
  ~EmptyDispatch();
  void Record(Commands& commands) const;
  Comparison Check() const;

 private:
  Context* context_;
  std::unique_ptr<Buffer> result_;
  std::unique_ptr<Kernel> kernel_;
  std::unique_ptr<Bindings> bindings_;
};

// The best seconds per recording of at most `rounds` timed batches of `per_batch` recordings of
// `record`, one after another (a barrier between), after the device's clocks are raised: at
// least two, and no more once the batches have taken `budget_seconds` (0: all `rounds`).
double BestBatchSeconds(Context& context, const std::function<void(Commands&)>& record, uint32_t per_batch,
                        uint32_t rounds, double budget_seconds = 0);
// The seconds of batches a ceiling may take beyond its first two: 0.25 s on a CPU device (where
// one 256 MiB copy takes 10-20 ms and a read kernel's pass over it 100 ms), 0.05 s on a GPU
// (whose batches last about 2 ms).
double CeilingBudgetSeconds(const Context& context);

// Operations per second of `peak`, measured on first call (checked, then the best of a few
// batches); 0 where the device cannot run it.
double MeasuredPeak(Context& context, Peak peak);
// The device time one dependent dispatch adds to a command buffer (an empty dispatch after
// another, a barrier between), measured on first call.
double MeasuredDispatchSeconds(Context& context);

// A ceiling the run measured, for the JSON's context: {"value": ..., "unit": ..., "what": ...}
// under "ceilings"."<name>". The latest note of a name counts.
struct NotedCeiling {
  std::string name;
  double value = 0;
  std::string unit;
  std::string what;
  double age_seconds = -1;  // reused from the cache file, measured this long ago; -1: measured in this run
};
void NoteCeiling(const std::string& name, double value, std::string_view unit, std::string_view what);
// Every ceiling noted, in name order.
std::vector<NotedCeiling> NotedCeilings();

// The ceilings' cache file, one per device key under the user's cache folder
// ($XDG_CACHE_HOME/csbench, else ~/.cache/csbench): every ceiling a run measures is written there
// with the device key, driver version, csbench revision and the time it was measured, and
// `--ceilings=reuse` (or `auto` on a GPU, for a ceiling measured within a day) takes a ceiling
// from it instead of measuring it where all three match.
struct CeilingsCache {
  std::string path;  // empty: no cache file (no cache folder)
  std::string device_key;
  std::string driver;
  std::string revision;
  bool reuse = false;
  // Where not reuse: still reuse the sizes (IsSizeCeiling), which are the hardware's and not its
  // load's: `--ceilings=auto` on a CPU device measures every rate and takes the cache's size.
  bool reuse_sizes = false;
  double max_age_seconds = 0;  // where reuse or reuse_sizes: the oldest a reused ceiling may be; 0: any age
};
// The ceilings that are sizes, not rates: the last-level cache the copies show and the cold
// rotation's footprint taken from it.
bool IsSizeCeiling(std::string_view name);
// The oldest a ceiling `--ceilings=auto` reuses may be: a day.
inline constexpr double kAutoReuseSeconds = 24 * 3600;
// "$XDG_CACHE_HOME/csbench/ceilings-<key>.tsv" (or under ~/.cache); empty where neither is set.
std::string CeilingsCachePath(const std::string& device_key);
// Reads the file (its entries of the same key, driver and revision are kept, whatever the mode).
void SetCeilingsCache(CeilingsCache cache);
// Where the cache reuses and the file has `name` (no older than max_age_seconds): its value,
// noted (NoteCeiling) with its age.
std::optional<double> ReusedCeiling(const std::string& name);

// Ceiling `name` of `context`, from the run's one cache of ceilings (session.hpp): kept from its
// first call; else the cache file's where --ceilings=reuse finds it there (times `reused_scale`,
// from the unit it was noted in to the one it is kept in); else `measure()`'s, which notes it.
double CachedCeiling(Context& context, const std::string& name, double reused_scale,
                     const std::function<double()>& measure);

}  // namespace csbench
