#include "harness/base/options.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string_view>
#include <utility>

namespace csbench {
namespace {

template <typename T, size_t N>
T Choose(std::string_view flag, std::string_view value, const std::array<std::pair<std::string_view, T>, N>& choices) {
  std::string valid;
  for (const auto& [name, choice] : choices) {
    if (name == value) return choice;
    valid += valid.empty() ? "" : ", ";
    valid += name;
  }
  throw UsageError{fmt::format("unknown value '{}' for --{}; valid choices: {}", value, flag, valid)};
}

// Returns the value of `--name=value` when `arg` is that flag.
std::optional<std::string_view> FlagValue(std::string_view arg, std::string_view name) {
  if (!arg.starts_with("--") || !arg.substr(2).starts_with(name)) return std::nullopt;
  std::string_view rest = arg.substr(2 + name.size());
  if (!rest.starts_with('=')) return std::nullopt;
  return rest.substr(1);
}

bool EnvironmentFlag(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && std::string_view(value) != "" && std::string_view(value) != "0";
}

// --dispatch-timeout's seconds: a number above 0 and at most kMaxDispatchTimeoutSeconds.
double ParseDispatchTimeout(std::string_view value) {
  double seconds = 0;
  auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), seconds);
  if (value.empty() || error != std::errc() || end != value.data() + value.size() || !std::isfinite(seconds) ||
      seconds <= 0 || seconds > kMaxDispatchTimeoutSeconds) {
    throw UsageError{fmt::format(
        "--dispatch-timeout={} is not valid: give the seconds one submission may run, a number above 0 and at most "
        "{} (e.g. 0.5; default {})",
        value, kMaxDispatchTimeoutSeconds, kDefaultDispatchTimeoutSeconds)};
  }
  return seconds;
}

}  // namespace

namespace {

// A whole number from 1 to `most` for --flag.
uint64_t ParseWhole(std::string_view flag, std::string_view value, uint64_t most) {
  uint64_t n = 0;
  bool ok = !value.empty() && value.size() <= 20;
  for (char c : value) {
    if (c < '0' || c > '9' || n > (most - static_cast<uint64_t>(c - '0')) / 10) {
      ok = false;
      break;
    }
    n = n * 10 + static_cast<uint64_t>(c - '0');
  }
  if (!ok || n == 0) throw UsageError{fmt::format("bad value '{}' for --{}: expected a whole number from 1 to {}", value, flag, most)};
  return n;
}

// "NAME=v1,v2": an axis and its values, each value non-empty.
AxisOverride ParseAxisOverride(std::string_view value) {
  const size_t equals = value.find('=');
  const std::string_view name = value.substr(0, equals);
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  const bool named = !name.empty() && name.size() <= 64 && letter(name[0]) &&
                     std::all_of(name.begin(), name.end(), [&](char c) { return letter(c) || (c >= '0' && c <= '9'); });
  if (equals == std::string_view::npos || !named) {
    throw UsageError{fmt::format("bad value '{}' for --axis: expected --axis=NAME=v1,v2,... (NAME an axis of a "
                                 "manifest's [axes], e.g. --axis=ROWS=2,4)",
                                 value)};
  }
  AxisOverride axis{.name = std::string(name)};
  std::string_view rest = value.substr(equals + 1);
  while (true) {
    const size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    const bool good = !item.empty() && item.size() <= 64 && std::all_of(item.begin(), item.end(), [&](char c) {
      return letter(c) || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '+';
    });
    if (!good) {
      throw UsageError{fmt::format("bad value '{}' for --axis={}: each value is a number or a name of letters, "
                                   "digits, '_', '-' and '.', e.g. --axis={}=2,4",
                                   item, axis.name, axis.name)};
    }
    if (std::find(axis.values.begin(), axis.values.end(), item) != axis.values.end()) {
      throw UsageError{fmt::format("--axis={}: {} is given twice", axis.name, item)};
    }
    axis.values.emplace_back(item);
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  return axis;
}

// --tune-budget=N (evaluations) or Ns (seconds of measuring).
void ParseTuneBudget(std::string_view value, TuneOptions& tune) {
  if (value.ends_with('s')) {
    const std::string number(value.substr(0, value.size() - 1));
    char* end = nullptr;
    const double seconds = number.empty() ? 0 : std::strtod(number.c_str(), &end);
    if (number.empty() || end != number.c_str() + number.size() || !(seconds > 0) || seconds > 1e6) {
      throw UsageError{fmt::format("bad value '{}' for --tune-budget: expected evaluations (--tune-budget=200) or "
                                   "seconds of measuring (--tune-budget=60s)",
                                   value)};
    }
    tune.budget_seconds = seconds;
    return;
  }
  tune.budget_evaluations = ParseWhole("tune-budget", value, 1000000);
}

}  // namespace

Options ParseOptions(std::vector<std::string>& args) {
  static constexpr std::array kBackends{std::pair{std::string_view("vulkan"), Backend::kVulkan},
                                        std::pair{std::string_view("plain_loop"), Backend::kPlainLoop}};
  static constexpr std::array kTimers{std::pair{std::string_view("auto"), TimerChoice::kAuto},
                                      std::pair{std::string_view("host"), TimerChoice::kHost}};
  static constexpr std::array kParallel{std::pair{std::string_view("yes"), true},
                                        std::pair{std::string_view("no"), false}};
  static constexpr std::array kCaches{std::pair{std::string_view("cold"), CacheMode::kCold},
                                      std::pair{std::string_view("warm"), CacheMode::kWarm}};
  static constexpr std::array kCeilings{std::pair{std::string_view("auto"), CeilingsMode::kAuto},
                                        std::pair{std::string_view("measure"), CeilingsMode::kMeasure},
                                        std::pair{std::string_view("reuse"), CeilingsMode::kReuse}};
  static constexpr std::array kOnOff{std::pair{std::string_view("on"), true},
                                     std::pair{std::string_view("off"), false}};
  static constexpr std::array kGuards{std::pair{std::string_view("auto"), GuardPlace::kAuto},
                                      std::pair{std::string_view("outside"), GuardPlace::kOutside},
                                      std::pair{std::string_view("inside"), GuardPlace::kInside}};
  static constexpr std::array kChecks{std::pair{std::string_view("auto"), CheckPlace::kAuto},
                                      std::pair{std::string_view("host"), CheckPlace::kHost}};
  static constexpr std::array kStrategies{std::pair{std::string_view("exhaustive"), TuneStrategy::kExhaustive},
                                          std::pair{std::string_view("random"), TuneStrategy::kRandom},
                                          std::pair{std::string_view("model"), TuneStrategy::kModel}};
  Options options;
  options.validation = EnvironmentFlag("CSBENCH_VALIDATION");
  std::vector<std::string> rest;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string_view arg = args[i];
    if (i == 0) {
      rest.emplace_back(arg);
    } else if (arg == "--list-devices") {
      options.list_devices = true;
    } else if (arg == "--validation") {
      options.validation = true;
    } else if (arg == "--samples") {
      options.samples = true;
    } else if (arg == "--test-domains") {
      options.test_domains = true;
    } else if (arg == "--with-built-ins") {
      options.with_built_ins = true;
    } else if (auto device = FlagValue(arg, "device")) {
      if (device->empty()) throw UsageError{"--device needs an index or a name substring"};
      options.device = *device;
    } else if (auto backend = FlagValue(arg, "backend")) {
      options.backend = Choose("backend", *backend, kBackends);
    } else if (auto timer = FlagValue(arg, "timer")) {
      options.timer = Choose("timer", *timer, kTimers);
    } else if (auto parallel = FlagValue(arg, "parallel")) {
      options.parallel = Choose("parallel", *parallel, kParallel);
    } else if (auto cache = FlagValue(arg, "cache")) {
      options.cache = Choose("cache", *cache, kCaches);
    } else if (auto ceilings = FlagValue(arg, "ceilings")) {
      options.ceilings = Choose("ceilings", *ceilings, kCeilings);
    } else if (auto shader_cache = FlagValue(arg, "shader-cache")) {
      options.shader_cache = Choose("shader-cache", *shader_cache, kOnOff);
    } else if (auto guard = FlagValue(arg, "guard")) {
      options.guard = Choose("guard", *guard, kGuards);
    } else if (auto checks = FlagValue(arg, "checks")) {
      options.checks = Choose("checks", *checks, kChecks);
    } else if (auto domains = FlagValue(arg, "domain")) {
      options.domains = ParseExtents("domain", *domains);
    } else if (auto workgroups = FlagValue(arg, "workgroup")) {
      options.workgroups = ParseExtents("workgroup", *workgroups);
    } else if (auto timeout = FlagValue(arg, "dispatch-timeout")) {
      options.dispatch_timeout_s = ParseDispatchTimeout(*timeout);
    } else if (auto manifest = FlagValue(arg, "manifest")) {
      if (manifest->empty()) throw UsageError{"--manifest needs a file or a folder: --manifest=PATH"};
      options.manifests.emplace_back(*manifest);
    } else if (auto axis = FlagValue(arg, "axis")) {
      options.axes.push_back(ParseAxisOverride(*axis));
      for (size_t k = 0; k + 1 < options.axes.size(); ++k) {
        if (options.axes[k].name == options.axes.back().name) {
          throw UsageError{fmt::format("--axis={}: the axis is given twice", options.axes.back().name)};
        }
      }
    } else if (arg == "--tune") {
      options.tune.enabled = true;
    } else if (auto strategy = FlagValue(arg, "tune-strategy")) {
      options.tune.strategy = Choose("tune-strategy", *strategy, kStrategies);
    } else if (auto budget = FlagValue(arg, "tune-budget")) {
      ParseTuneBudget(*budget, options.tune);
    } else if (auto seed = FlagValue(arg, "tune-seed")) {
      options.tune.seed = ParseWhole("tune-seed", *seed, ~uint64_t{0});
    } else if (auto out = FlagValue(arg, "tune-out")) {
      if (out->empty()) throw UsageError{"--tune-out needs a file: --tune-out=best.json"};
      options.tune.out = *out;
    } else if (auto header = FlagValue(arg, "tune-header")) {
      if (header->empty()) throw UsageError{"--tune-header needs a file: --tune-header=best.h"};
      options.tune.header = *header;
    } else if (auto cache = FlagValue(arg, "tune-cache")) {
      if (cache->empty()) throw UsageError{"--tune-cache needs a file, or off"};
      options.tune.cache = *cache;
    } else if (arg == "--device" || arg == "--backend" || arg == "--timer" || arg == "--cache" || arg == "--domain" ||
               arg == "--workgroup" || arg == "--parallel" || arg == "--manifest" || arg == "--guard" || arg == "--checks" ||
               arg == "--dispatch-timeout" || arg == "--ceilings" || arg == "--axis" || arg == "--tune-strategy" ||
               arg == "--tune-budget" || arg == "--tune-seed" || arg == "--tune-out" || arg == "--tune-header" ||
               arg == "--tune-cache" || arg == "--shader-cache") {
      throw UsageError{fmt::format("{} needs a value: {}=...", arg, arg)};
    } else {
      rest.emplace_back(arg);
    }
  }
  args = std::move(rest);
  if (!options.tune.enabled && (!options.tune.out.empty() || !options.tune.header.empty())) {
    throw UsageError{"--tune-out and --tune-header write a search's results: give --tune as well"};
  }
  if (options.with_built_ins && options.manifests.empty()) {
    throw UsageError{"--with-built-ins adds the built-in families to a run of --manifest: give --manifest as well"};
  }
  if (options.test_domains && !options.domains.empty()) {
    throw UsageError{"--test-domains and --domain both choose the domains: give one of them"};
  }
  return options;
}

std::string ToString(TuneStrategy strategy) {
  switch (strategy) {
    case TuneStrategy::kExhaustive: return "exhaustive";
    case TuneStrategy::kRandom: return "random";
    case TuneStrategy::kModel: return "model";
  }
  return "model";
}

std::string OptionsHelp() {
  return R"(csbench flags:
  --list-devices            list the Vulkan devices (index, name, type, driver, API version,
                            subgroup size, timestamp period) and exit
  --device=<index|name>     run on this device (default: the first discrete GPU, else an
                            integrated GPU, else a CPU device)
  --device=all|<a,b,...>    run on each device (all: every GPU, or every device where there
                            are only CPU devices), one process per device; give each its own
                            output file with {device} (index) or {device_key} in --benchmark_out
  --parallel=yes|no         with several devices, run them at the same time (default: no, one
                            after another: parallel runs disturbed some numbers on two H200s)
  --backend=vulkan|plain_loop
                            plain_loop runs only the CPU reference implementations
  --timer=auto|host         auto: GPU timestamps where the queue has them, else the host clock
  --cache=cold|warm         cold (default): rotate inputs so that no run is served from the
                            last-level cache; warm: reuse one input
  --ceilings=auto|measure|reuse
                            the memory and compute ceilings that roofline% and bound% are
                            judged against (only those the run's benchmarks need). auto
                            (default): on a GPU, reuse those an earlier run of the same device,
                            driver and csbench revision measured within the last day, measuring
                            the rest; on a CPU device, measure; measure: measure all in this
                            run; reuse: take them from the cache file at any age, measuring only
                            what is missing. The cache file is under $XDG_CACHE_HOME/csbench
                            (~/.cache/csbench); the JSON's "ceilings" say which were reused, and
                            their age
  --shader-cache=on|off     on (default): the SPIR-V compiled from GLSL and HLSL is kept under
                            $XDG_CACHE_HOME/csbench/spirv (~/.cache/csbench/spirv) and taken
                            by a later run of the same executable whose shader, its includes,
                            defines and options are the same; off: every shader compiled
                            in this run, none kept. The JSON's "shader_cache" counts both
  --guard=auto|inside|outside
                            a manifest's check run gives each storage buffer a guard region of
                            its own pattern, and a write into it fails the check: inside the
                            bound range (seen on every device; .length() then includes it) or
                            after it (lavapipe and NVIDIA drop such writes unseen); auto
                            (default): inside unless the shader reads an array's .length()
  --checks=auto|host        auto (default): a manifest's check expressions are computed on the
                            device, in float64, where the expression and the device allow it,
                            and the host judges the values the device finds off; host: every
                            check computed on the host. Each benchmark's JSON entry counts its
                            checks of each kind (checks_on_device, checks_on_host)
  --validation              enable the Khronos validation layer (also CSBENCH_VALIDATION=1)
  --samples                 write each run's samples (seconds of each timed batch, or of each
                            run) into the JSON entry: "csbench": {"samples_s": [...]}
  --domain=WxH[,WxH...]     replace the built-in domains of every family (one-dimensional
                            families: W or Wx1 elements; WxHxD for a three-dimensional family
                            or a manifest's); plain loops follow
  --workgroup=XxY[,XxY...]  replace the built-in workgroups of every family that has them
                            (one-dimensional families: X or Xx1; XxYxZ as --domain); a
                            workgroup or domain the device cannot run skips that benchmark,
                            naming the limit
  --test-domains            run every selected family (built-in or a manifest's) at the small
                            domains its own test checks, its test_domains, in place of its
                            domains (not with --domain)
  --dispatch-timeout=SECONDS
                            how long one submission may run (default 300, at most 3600;
                            fractions allowed): one that runs longer fails its benchmark,
                            after the device has finished it, and the suite goes on. A lost
                            device ends the run: the benchmarks after it are marked not run,
                            and the exit code is 1
  --axis=NAME=v1,v2,...     the values a manifest's axis NAME ([axes]) takes in this run, in
                            place of its own list; repeatable, one axis each. A name no
                            manifest has, or a value of no use at some point, exits with code 2
  --tune                    search each family and domain of the selection for its fastest
                            point instead of measuring every one: each candidate is checked,
                            then looked at briefly, then the best are raced with repetitions;
                            prints the winner, its interval, the runners-up tied with it (U
                            test) and the space's spread (docs/tuning.md)
  --tune-strategy=exhaustive|random|model
                            which points a search looks at (default model: random points
                            first, then those a model of the measured ones predicts fastest)
  --tune-budget=N|Ns        looks per family and domain (N), or seconds of measuring (Ns)
  --tune-seed=N             the searches' random draws (default 1)
  --tune-out=FILE.json      the winners and their tied sets by device key, family and domain
                            (merged into FILE where it holds other devices')
  --tune-header=FILE.h      the winners as a C/C++ header of constant tables
  --tune-cache=FILE|off     every measured point is kept here, by device, driver, revision,
                            SPIR-V and point, so that a search resumes (default:
                            $XDG_DATA_HOME/csbench/tune.sqlite, ~/.local/share/csbench)
  --manifest=PATH           measure the family a TOML manifest declares (a folder: each of its
                            *.toml); repeatable. Only the manifests' benchmarks run, all of
                            them or those --benchmark_filter matches. A bad manifest exits
                            with code 2, naming the file, the key and the line
                            (docs/your-own-kernels.md)
  --with-built-ins          with --manifest: the built-in families' benchmarks join the
                            selection (their default set, or those the filter matches)

Unless told otherwise (--benchmark_repetitions, --benchmark_min_time), a run of the default set
(no --benchmark_filter, no --manifest) repeats each benchmark 3 times for at least 0.05 s each, so
that scripts/findings.py measures a spread; a run with a filter runs each benchmark once for at
least 0.1 s. On a GPU, the next benchmark's case is made on a second thread while the device
measures the current one (CSBENCH_PREFETCH=0 turns that off). Each timed loop is followed by the
clock guard: a loop measured with the clocks down is measured again, at most three times, and
marked "clocks down" when they stay down.
)";
}

std::vector<Extent> ParseExtents(std::string_view flag, std::string_view value) {
  auto bad = [&](std::string_view why) {
    return UsageError{
        fmt::format("bad value '{}' for --{} ({}); valid forms: --{}=W, --{}=WxH, --{}=WxHxD, --{}=WxH,WxH,... "
                    "with each size a whole number from 1 to 2^31-1, e.g. --{}=2560x1440,256",
                    value, flag, why, flag, flag, flag, flag, flag)};
  };
  auto number = [&](std::string_view digits) -> uint32_t {
    if (digits.empty()) throw bad("a size is missing");
    uint64_t n = 0;
    for (char c : digits) {
      if (c < '0' || c > '9') throw bad(fmt::format("'{}' is not a whole number", digits));
      n = n * 10 + static_cast<uint64_t>(c - '0');
      if (n > 0x7fffffff) throw bad(fmt::format("{} is too large", digits));
    }
    if (n == 0) throw bad("a size of 0");
    return static_cast<uint32_t>(n);
  };
  std::vector<Extent> extents;
  size_t start = 0;
  while (true) {
    const size_t comma = value.find(',', start);
    const std::string_view item = value.substr(start, comma == std::string_view::npos ? value.npos : comma - start);
    // One to three sizes, x first.
    std::vector<uint32_t> sizes;
    size_t from = 0;
    while (true) {
      const size_t x = item.find('x', from);
      sizes.push_back(number(item.substr(from, x == std::string_view::npos ? item.npos : x - from)));
      if (x == std::string_view::npos) break;
      from = x + 1;
    }
    if (sizes.size() > 3) throw bad(fmt::format("'{}' has {} sizes, at most three", item, sizes.size()));
    extents.push_back({sizes[0], sizes.size() > 1 ? sizes[1] : 1u, sizes.size() > 2 ? sizes[2] : 1u});
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return extents;
}

std::string ToString(const std::vector<Extent>& extents) {
  std::string text;
  for (const Extent& e : extents) {
    if (!text.empty()) text += ',';
    text += e.z == 1 ? fmt::format("{}x{}", e.x, e.y) : fmt::format("{}x{}x{}", e.x, e.y, e.z);
  }
  return text;
}

std::string ToString(Backend backend) { return backend == Backend::kVulkan ? "vulkan" : "plain_loop"; }

}  // namespace csbench
