// csbench's own command-line flags, parsed before Google Benchmark sees the rest.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "harness/base/naming.hpp"

namespace csbench {

enum class Backend { kVulkan, kPlainLoop };
enum class TimerChoice { kAuto, kHost };
enum class CacheMode { kCold, kWarm };
// Where the device's ceilings come from: measured in this run, or read back from the cache file an
// earlier run of the same device key, driver and csbench revision wrote (harness/measure/ceilings.hpp);
// auto: read back on a GPU where measured within a day (kAutoReuseSeconds), measured on a CPU device.
enum class CeilingsMode { kAuto, kMeasure, kReuse };
// Where a user's kernel's storage buffers keep their guard regions during the check run: inside
// the bound range, where every device sees a write into them (lavapipe and NVIDIA's drivers drop
// writes past a bound range, so a guard after it sees nothing there), or after it. Inside, the
// shader's .length() includes the guard, so kAuto binds it inside unless the shader reads a
// runtime array's length.
enum class GuardPlace { kAuto, kOutside, kInside };

// Where a manifest's check expressions are computed: on the device in float64 where the expression
// and the device allow it, the host judging only the values the device finds off (kAuto), or all
// on the host (kHost: the reference the device's are tested against).
enum class CheckPlace { kAuto, kHost };

// How long one submission may run before its benchmark fails (--dispatch-timeout), in seconds: a
// shader that never ends must not hang the suite, but a CPU device on a loaded two-core machine
// takes over a minute for the Gray-Scott chapter's 512 steps in one command buffer.
inline constexpr double kDefaultDispatchTimeoutSeconds = 300;
// The longest --dispatch-timeout: an hour is already no guard against a hang.
inline constexpr double kMaxDispatchTimeoutSeconds = 3600;

// `--axis=NAME=v1,v2,...`: the values a manifest's axis NAME takes in this run, in place of its
// [axes] list (as written; numbers or names, as the axis's own).
struct AxisOverride {
  std::string name;
  std::vector<std::string> values;
};

// `--tune`: search each family and domain's points for the fastest (harness/tune/tuner.hpp).
enum class TuneStrategy { kExhaustive, kRandom, kModel };
struct TuneOptions {
  bool enabled = false;
  TuneStrategy strategy = TuneStrategy::kModel;
  // --tune-budget: evaluations (a whole number) or seconds of measuring ("30s") per family and
  // domain; 0: the strategy's own (every point for exhaustive, a sixth of the space otherwise).
  uint64_t budget_evaluations = 0;
  double budget_seconds = 0;
  uint64_t seed = 1;            // --tune-seed: the random and model-based searches' draws
  std::string out;              // --tune-out=FILE.json
  std::string header;           // --tune-header=FILE.h
  std::string cache;            // --tune-cache=FILE (default: the data folder's tune.sqlite; "off": none)
};

struct Options {
  bool list_devices = false;
  std::string device;  // index or name substring, "all" or a comma list; empty: the default choice
  // With several devices: run them at the same time (--parallel=yes). Off by default: GPUs of one
  // host that run in parallel can slow a few entries of one device severalfold for several
  // repetitions (docs/perf-notes.md, "Several GPUs of one host"), so parallel runs are not known
  // to leave numbers alone.
  bool parallel = false;
  Backend backend = Backend::kVulkan;
  TimerChoice timer = TimerChoice::kAuto;
  CacheMode cache = CacheMode::kCold;
  CeilingsMode ceilings = CeilingsMode::kAuto;  // --ceilings
  GuardPlace guard = GuardPlace::kAuto;
  CheckPlace checks = CheckPlace::kAuto;  // --checks
  // --shader-cache=off: compile every GLSL and HLSL shader in this process, and keep none
  // (harness/vulkan/spirv_cache.hpp).
  bool shader_cache = true;
  bool validation = false;  // Khronos validation layer with synchronization validation
  bool samples = false;     // --samples: each run's samples in its JSON entry
  // --test-domains: every family at the test domains its own test checks (test_domains), in
  // place of its domains.
  bool test_domains = false;
  // --with-built-ins: a run of --manifest selects among the built-in families' benchmarks too.
  bool with_built_ins = false;
  double dispatch_timeout_s = kDefaultDispatchTimeoutSeconds;  // --dispatch-timeout
  // --domain and --workgroup: replace the built-in values of every family with that axis (a
  // one-dimensional family takes those of height 1). Empty: the built-in values.
  std::vector<Extent> domains;
  std::vector<Extent> workgroups;
  // --manifest: files or folders of users' families, in the order given.
  std::vector<std::string> manifests;
  std::vector<AxisOverride> axes;  // --axis, in the order given
  TuneOptions tune;
};

std::string ToString(TuneStrategy strategy);

// csbench's default --benchmark_min_time, in seconds, written as the Google Benchmark it is built
// with reads it. main passes it unless the command line has its own.
inline constexpr const char* kDefaultMinTime = "0.1" CSBENCH_MIN_TIME_UNIT;

// Thrown for a flag value csbench does not know; main prints it and exits with code 2.
struct UsageError {
  std::string message;
};

// Takes csbench's flags out of `args` (args[0] is the program) and returns them; what stays in
// `args` is for Google Benchmark. Throws UsageError on a bad value, naming the valid choices.
Options ParseOptions(std::vector<std::string>& args);

// The help text for csbench's flags, appended to Google Benchmark's --help.
std::string OptionsHelp();

std::string ToString(Backend backend);

// Parses "WxH[,WxH...]" (or "W", meaning Wx1) for `flag`; throws UsageError naming the valid forms.
std::vector<Extent> ParseExtents(std::string_view flag, std::string_view value);
// "2560x1440,1920x1080": the form ParseExtents reads, for the JSON context.
std::string ToString(const std::vector<Extent>& extents);

}  // namespace csbench
