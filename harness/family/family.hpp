// A family declared once. Its descriptor lists the variants (kernel, defines, workgroups), the
// domains and the family's further axes; from it follow the benchmarks' names (built once, here,
// and handed to the case), their registration, the --domain and --workgroup overrides, and the
// points the family's test checks.
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "harness/base/check.hpp"
#include "harness/base/error.hpp"
#include "harness/base/naming.hpp"
#include "harness/family/suite.hpp"
#include "harness/measure/measure.hpp"
#include "harness/measure/points.hpp"
#include "harness/vulkan/limits.hpp"

namespace csbench {

// How a family writes an extent in its names: "wg256x1" (kPair) or "wg256" (kCount: the
// one-dimensional families whose names never carried the "x1").
enum class Style { kPair, kCount };

std::string SizedAs(std::string_view prefix, Extent extent, Style style);

// One benchmark of a family: where it sits on the family's axes, and its name.
struct Point {
  std::string name;
  size_t variant = 0;  // index into the family's variants
  Extent workgroup;    // 1x1x1 where the point has none (a plain loop)
  Extent domain;
  // Every coordinate in the name's order: the workgroup where the point has one, the domain, then
  // the family's further axes (Family::axes). This is what the JSON report's "axes" say.
  std::vector<Coordinate> axes;

  // A point of the family's test (TestPoints): its domain is a test domain, which a family whose
  // benchmarks check another domain (Gray-Scott's large runs check a small one) checks itself.
  bool test = false;

  // The value on axis `axis`; throws Error when the point has no such axis (or, for Number and
  // Text, when the value is of the other kind).
  const AxisValue& Value(std::string_view axis) const;
  double Number(std::string_view axis) const { return Value(axis).number(); }
  const std::string& Text(std::string_view axis) const { return Value(axis).text(); }
};

// A family's GPU benchmark: made with its kernel and inputs, checked against the reference
// before it is timed, then timed.
class Case {
 public:
  virtual ~Case() = default;
  virtual Comparison Check() = 0;
  virtual void Measure(benchmark::State& state) = 0;
};

// An axis after the domain, each value written "<prefix><value>" in names: append's keep ratio
// (keep1, keep50, keep99). A family has any number of them; the points are every combination of
// their values, the last axis varying fastest.
struct Axis {
  std::string name;    // the JSON's key, and what Point::Value finds it by
  std::string prefix;  // "" writes the value alone
  std::vector<AxisValue> values;
  // Built-in domains that take other values than `values` (Gray-Scott's 8192x8192 run has 64
  // steps, its 2048x1024 run 512). A domain of the command line (--domain) or of the test takes
  // `values`.
  std::vector<std::pair<Extent, std::vector<AxisValue>>> by_domain;
  // false: the family's test checks the first value only, since the check does not depend on
  // the axis (Gray-Scott checks the kernel, not the run length or what the host does after it).
  bool tested = true;
};

// What times a family's GPU point: it decides how the point is registered (the case's own times,
// or Google Benchmark's real-time clock) and the clock its description names.
enum class Timer {
  // The case's timed batches (MeasureDispatches, MeasureTimedRuns): the device's timestamps, or
  // the host's clock around submit and wait where the run has none (DeviceTimedClock).
  kTimestamps,
  // The host's clock around each whole run, the host's own work included (MeasureHostClocked).
  kHostClock,
  // The case's own device timer, whatever the Vulkan device's (a CUDA peer's events).
  kPeerDevice,
};

// Points of one variant, or of a family's plain loops, that a default set takes (or that a GPU's
// leaves out): those whose workgroup, domain and further axes' values are each among the values
// listed, an empty list taking every value. A variant row's
//   .cpu_default = {{.workgroups = {{16, 16}}, .domains = {{1920, 1080}, {640, 480}}}}
// puts its points at workgroup 16x16 on either domain into a CPU device's default set.
struct Pick {
  // A point without a workgroup (a plain loop, the copy command) has none of these.
  std::vector<Extent> workgroups;
  // Workgroups of the device's subgroup size divided by each divisor, one-dimensional (1: one
  // subgroup, 2: half of one), taken besides `workgroups`; a run of no subgroup size (the
  // plain_loop backend) has none of these.
  std::vector<uint32_t> subgroup_divisors;
  std::vector<Extent> domains;
  // Values of the further axes: for each axis named, a point's value there must be one of those
  // named with it ({{"mode", "compute"}, {"mode", "compute+download"}}: either mode).
  std::vector<Coordinate> axes;

  // Whether the pick takes `point` on a device of `subgroup_size` invocations (0: none).
  bool Takes(const Point& point, uint32_t subgroup_size) const;
};

// Every point of a variant: `.cpu_default = kEveryPoint`.
inline const std::vector<Pick> kEveryPoint = {Pick{}};

// The kind of machine a run's default set (no --benchmark_filter, no --manifest) is chosen for.
enum class DeviceKind {
  kNone,  // the plain_loop backend: its plain loops, those a CPU device's default set takes
  kCpu,   // a CPU Vulkan device (lavapipe, SwiftShader): the quick set the descriptors pick
  kGpu,   // every benchmark but those the descriptors leave out on a GPU
};

struct RunDevice {
  DeviceKind kind = DeviceKind::kNone;
  uint32_t subgroup_size = 0;  // 0: none (the plain_loop backend)
};

// The run's device: `context`'s, or the plain_loop backend's where it is null.
RunDevice RunDeviceOf(const Context* context);

// The descriptor. `V` is the family's variant row: at least `name` and `workgroups`
// (std::vector<Extent>; empty: the variant has no workgroup axis, as the copy command of the
// roofline, and no --workgroup applies to it). A row with its own `domains` replaces the
// family's for that variant; its own `test_domains` replace the family's test domains, and its
// `test_workgroups` are checked by the test besides its workgroups.
// A row's `timer` (Timer), where it has one, times its points where the family has no `timer`.
// The default sets: a row's `cpu_default` (std::vector<Pick>) picks its points that a CPU
// device's default set takes (none without one); its `gpu_leaves_out` those a GPU's leaves out
// (none without one).
// The `make` of a family whose case class is built from (suite, variant, point):
// `.make = MakeCase<GpuCase>`.
template <typename C>
inline constexpr auto MakeCase = [](Suite& suite, const auto& variant, const Point& point) -> std::unique_ptr<Case> {
  return std::make_unique<C>(suite, variant, point);
};

template <typename V>
struct Family {
  std::string name;
  std::vector<V> variants;
  std::vector<Extent> domains;
  // Small, odd domains on which the family's test checks every variant x workgroup.
  std::vector<Extent> test_domains;
  Style style = Style::kPair;
  // Gray-Scott's names write "workgroup32x16", the others' "wg8x8".
  std::string workgroup_prefix = "wg";
  // Domains and workgroups are W x 1: the overrides with a height are not this family's.
  bool one_dimensional = true;
  // Domains and workgroups may have a depth: the overrides with one are this family's (else only
  // those of depth 1 are).
  bool three_dimensional = false;
  // false: --domain and --workgroup leave the family at its own sizes (the roofline is a ceiling
  // measured beyond the caches; a CUDA peer is the peer of the built-in runs).
  bool takes_overrides = true;
  // The axes after the domain, in the order the names write them.
  std::vector<Axis> axes;
  // What times each GPU point (Gray-Scott's: its mode); empty: the row's `timer`, or
  // Timer::kTimestamps for a row without one.
  std::function<Timer(const Point&)> timer;
  // The GPU benchmarks' time unit (a plain loop picks its own).
  benchmark::TimeUnit unit = benchmark::kMicrosecond;
  // Lines (key, value) of the run's JSON context that the family's benchmarks are read with,
  // added as it registers on a device (Gray-Scott's clock of each mode).
  std::function<std::vector<std::pair<std::string, std::string>>(const Context&)> context_lines;
  // The GPU case of one point; throws (an Error, "unsupported: ..." for a device limit) when the
  // point cannot run.
  std::function<std::unique_ptr<Case>(Suite&, const V&, const Point&)> make;
  // Registers the CPU plain loop of one domain (and combination of the further axes), named
  // point.name; none at all if empty. Its point's `variant` is the index of its name in
  // plain_loop_variants.
  std::function<void(Suite&, const Point&)> plain_loop;
  // The plain loops' variant names, each registered at every plain-loop point (atomics sums uints
  // in plain_loop and floats in plain_loop_float).
  std::vector<std::string> plain_loop_variants = {"plain_loop"};
  // Whether the plain loops run at a point (Gray-Scott's in mode compute only: the host has
  // nothing to download); empty: at every one.
  std::function<bool(const Point&)> plain_loop_at;
  // The plain loops' points that a CPU device's (and the plain_loop backend's) default set takes.
  std::vector<Pick> plain_loop_cpu_default;
  // The plain loops' points that a GPU's default set leaves out.
  std::vector<Pick> plain_loop_gpu_leaves_out;
  // Points of every variant and of the plain loops that a GPU's default set leaves out.
  std::vector<Pick> gpu_leaves_out;
  // Whether a GPU point exists at all (a manifest's [tune] restrict); empty: every point does.
  std::function<bool(const Point&)> point_at;
  // The hash of the SPIR-V a GPU point runs (its record's, the tune cache's key: a manifest's
  // family gives it); empty: not known, and such points are measured, never cached.
  std::function<std::string(const Point&)> shader_hash;
};

// The workgroups and domains a run uses: the command line's overrides (those of the family's
// dimensionality) where given, the descriptor's otherwise.
std::vector<Extent> Overridden(const std::vector<Extent>& built_in, const std::vector<Extent>& overrides,
                               bool one_dimensional, bool three_dimensional = false);

// The test domains --test-domains puts `family` at (null: without it, or where the family takes
// no overrides or has none).
template <typename V>
const std::vector<Extent>* RunTestDomains(const Family<V>& family, const Options& options) {
  return options.test_domains && family.takes_overrides && !family.test_domains.empty() ? &family.test_domains
                                                                                       : nullptr;
}

// Every combination of the axes' values, as coordinates, the last axis varying fastest; one empty
// combination for no axes. `built_in`: the domain of the family's own list that the values are
// for (Axis::by_domain); null for another. `test`: an untested axis takes its first value only.
std::vector<std::vector<Coordinate>> Combinations(const std::vector<Axis>& axes, const Extent* built_in = nullptr,
                                                  bool test = false);

// How a family writes a point's name.
struct Naming {
  std::string_view family;
  Style style = Style::kPair;
  std::string_view workgroup_prefix = "wg";
  const std::vector<Axis>* axes = nullptr;  // the prefixes of the further axes
};

// The point of `variant` (named `variant_name`) at `workgroup` (none: a plain loop, a variant
// without workgroups), `domain` and the further axes' values `further`, with its name and
// coordinates.
Point MakePoint(const Naming& naming, size_t variant, std::string_view variant_name, const Extent* workgroup,
                Extent domain, const std::vector<Coordinate>& further);

template <typename V>
Naming NamingOf(const Family<V>& family) {
  return {.family = family.name, .style = family.style, .workgroup_prefix = family.workgroup_prefix, .axes = &family.axes};
}

// The clock of a benchmark timed by MeasureDispatches (or another TimedBatch): the device's
// timestamps where the run uses them, else the host's clock around submit and wait (a queue
// without timestamps, --timer=host).
Clock DeviceTimedClock(const Suite& suite);

// The clock `timer` times a point of `suite`'s run by.
Clock ClockOf(const Suite& suite, Timer timer);

// Registers the checked case of a GPU point under `timer`'s clock (manual time for the case's own
// times, real time for the host's) and `unit`.
benchmark::internal::Benchmark* RegisterTimedCase(const std::string& name, Timer timer, benchmark::TimeUnit unit,
                                                  std::function<std::unique_ptr<Case>()> make);

// Every GPU point of `family` over `domains` (the variant's own domains where it has them and no
// override is given), in the order domain, variant, workgroup, further axes. With
// `test_domains`, the points of the family's test: on those domains (or the variant's own test
// domains), at the variant's workgroups and test workgroups, untested axes at their first value.
template <typename V>
std::vector<Point> GpuPoints(const Family<V>& family, const std::vector<Extent>& domain_overrides,
                             const std::vector<Extent>& workgroup_overrides, const std::vector<Extent>* test_domains) {
  std::vector<Point> points;
  const bool test = test_domains != nullptr;
  const std::vector<Extent> no_overrides;
  const std::vector<Extent>& domains_given = family.takes_overrides ? domain_overrides : no_overrides;
  const std::vector<Extent>& workgroups_given = family.takes_overrides ? workgroup_overrides : no_overrides;
  auto domains_of = [&](const V& v) {
    if constexpr (requires { v.test_domains; }) {
      if (test && !v.test_domains.empty()) return v.test_domains;
    }
    if (test) return *test_domains;
    const std::vector<Extent>* own = &family.domains;
    if constexpr (requires { v.domains; }) {
      if (!v.domains.empty()) own = &v.domains;
    }
    return Overridden(*own, domains_given, family.one_dimensional, family.three_dimensional);
  };
  auto workgroups_of = [&](const V& v) {
    std::vector<Extent> workgroups =
        Overridden(v.workgroups, workgroups_given, family.one_dimensional, family.three_dimensional);
    if constexpr (requires { v.test_workgroups; }) {
      if (test) workgroups.insert(workgroups.end(), v.test_workgroups.begin(), v.test_workgroups.end());
    }
    return workgroups;
  };
  std::vector<Extent> all_domains;  // in first-seen order
  for (const V& v : family.variants) {
    for (Extent d : domains_of(v)) {
      if (std::find(all_domains.begin(), all_domains.end(), d) == all_domains.end()) all_domains.push_back(d);
    }
  }
  for (Extent d : all_domains) {
    for (size_t i = 0; i < family.variants.size(); ++i) {
      const V& v = family.variants[i];
      const std::vector<Extent> mine = domains_of(v);
      if (std::find(mine.begin(), mine.end(), d) == mine.end()) continue;
      const bool built_in = !test && domains_given.empty();
      const auto combinations = Combinations(family.axes, built_in ? &d : nullptr, test);
      auto add = [&](const Extent* wg) {
        for (const std::vector<Coordinate>& further : combinations) {
          points.push_back(MakePoint(NamingOf(family), i, v.name, wg, d, further));
          points.back().test = test;
          if (family.point_at && !family.point_at(points.back())) points.pop_back();
        }
      };
      if (v.workgroups.empty()) {
        add(nullptr);
        continue;
      }
      for (Extent wg : workgroups_of(v)) add(&wg);
    }
  }
  return points;
}

// Every benchmark `family` offers under the run's `options` (its --domain and --workgroup), in the
// order they register: domain by domain, the GPU points (where `gpu`: with a Vulkan device), then
// the plain loops. `visit(point, plain_loop)` gets each.
template <typename V, typename Visit>
void ForEachBenchmark(const Family<V>& family, const Options& options, bool gpu, Visit visit) {
  const std::vector<Point> points = GpuPoints(family, options.domains, options.workgroups, RunTestDomains(family, options));
  std::vector<Extent> domains;
  for (const Point& p : points) {
    if (std::find(domains.begin(), domains.end(), p.domain) == domains.end()) domains.push_back(p.domain);
  }
  const std::vector<Extent> no_overrides;
  const std::vector<Extent>& domains_given = family.takes_overrides ? options.domains : no_overrides;
  if (points.empty()) {
    domains = RunTestDomains(family, options) != nullptr
                  ? family.test_domains
                  : Overridden(family.domains, domains_given, family.one_dimensional, family.three_dimensional);
  }
  for (Extent d : domains) {
    if (gpu) {
      for (const Point& p : points) {
        if (p.domain == d) visit(p, false);
      }
    }
    if (!family.plain_loop) continue;
    for (const std::vector<Coordinate>& further : Combinations(family.axes, domains_given.empty() ? &d : nullptr)) {
      for (size_t i = 0; i < family.plain_loop_variants.size(); ++i) {
        const Point p = MakePoint(NamingOf(family), i, family.plain_loop_variants[i], nullptr, d, further);
        if (!family.plain_loop_at || family.plain_loop_at(p)) visit(p, true);
      }
    }
  }
}

// What times GPU point `p` of `family`: the family's `timer`, else its row's, else the device's
// timestamps.
template <typename V>
Timer TimerOf(const Family<V>& family, const Point& p) {
  if (family.timer) return family.timer(p);
  const V& row = family.variants[p.variant];
  if constexpr (requires { row.timer; }) return row.timer;
  return Timer::kTimestamps;
}

// Whether the default set of `device` takes point `p` of `family` (one of its plain loops' where
// `plain_loop`): on a GPU, every point but those the family's gpu_leaves_out picks and the row's
// (the plain loops': plain_loop_gpu_leaves_out); otherwise those the row's cpu_default (the plain
// loops': plain_loop_cpu_default) picks.
template <typename V>
bool InDefaultSet(const Family<V>& family, const Point& p, bool plain_loop, const RunDevice& device) {
  auto picked = [&](const std::vector<Pick>& picks) {
    return std::any_of(picks.begin(), picks.end(), [&](const Pick& pick) { return pick.Takes(p, device.subgroup_size); });
  };
  if (device.kind == DeviceKind::kGpu) {
    if (picked(family.gpu_leaves_out)) return false;
    if (plain_loop) return !picked(family.plain_loop_gpu_leaves_out);
    const V& row = family.variants[p.variant];
    if constexpr (requires { row.gpu_leaves_out; }) return !picked(row.gpu_leaves_out);
    return true;
  }
  if (plain_loop) return picked(family.plain_loop_cpu_default);
  const V& row = family.variants[p.variant];
  if constexpr (requires { row.cpu_default; }) return picked(row.cpu_default);
  return false;
}

// A benchmark a family registers, and whether the run's default set takes it.
struct Offered {
  std::string name;
  bool by_default = false;
};

// Every benchmark `family` registers in a run of `options` on `device`, in registration order.
template <typename V>
std::vector<Offered> OfferedBy(const Family<V>& family, const Options& options, const RunDevice& device) {
  std::vector<Offered> offered;
  ForEachBenchmark(family, options, device.kind != DeviceKind::kNone, [&](const Point& p, bool plain_loop) {
    offered.push_back({p.name, InDefaultSet(family, p, plain_loop, device)});
  });
  return offered;
}

// Registers every point of `family`: the GPU cases (with a device), each checked before it is
// timed, and after each domain's GPU cases its plain loops. Each is described (points.hpp) as it
// is registered: the description goes into its record (harness/measure/record.hpp).
template <typename V>
void RegisterFamily(Suite& suite, const Family<V>& family) {
  if (suite.context != nullptr && family.context_lines) {
    for (const auto& [key, value] : family.context_lines(*suite.context)) benchmark::AddCustomContext(key, value);
  }
  ForEachBenchmark(family, suite.options, suite.context != nullptr, [&](const Point& p, bool plain_loop) {
    if (plain_loop) {
      // Described around the family's registration of it: its record takes the description.
      const Describing described({.family = family.name,
                                  .variant = family.plain_loop_variants[p.variant],
                                  .clock = Clock::kHost,
                                  .axes = p.axes});
      family.plain_loop(suite, p);
      return;
    }
    const Timer timer = TimerOf(family, p);
    std::function<std::string()> shader_hash;
    if (family.shader_hash) shader_hash = [&family, p] { return family.shader_hash(p); };
    const Describing described({.family = family.name,
                                .variant = family.variants[p.variant].name,
                                .clock = ClockOf(suite, timer),
                                .axes = p.axes},
                               std::move(shader_hash));
    RegisterTimedCase(p.name, timer, family.unit,
                      [&suite, &family, p] { return family.make(suite, family.variants[p.variant], p); });
  });
}

// A point of a family's test: its name, as a test name, and how to make its case.
struct TestPoint {
  std::string name;
  std::function<std::unique_ptr<Case>(Suite&)> make;
};

// A test point as GoogleTest prints its parameter: its benchmark name.
inline void PrintTo(const TestPoint& point, std::ostream* os) { *os << point.name; }

// Every variant x workgroup x combination of the further axes of `family` on its test domains.
template <typename V>
std::vector<TestPoint> TestPoints(const Family<V>& family) {
  std::vector<TestPoint> tests;
  for (const Point& p : GpuPoints(family, {}, {}, &family.test_domains)) {
    tests.push_back({p.name, [&family, p](Suite& suite) { return family.make(suite, family.variants[p.variant], p); }});
  }
  return tests;
}

// The families, each declared once in its own file by a static Declaration (a namespace-scope
// object, so that nothing else need name the family).
struct Declared {
  std::string name;
  std::function<void(Suite&)> register_all;
  std::function<std::vector<TestPoint>()> test_points;  // empty: the family has its own test
  // What register_all registers in a run of these options on that device (OfferedBy), and which
  // of it the default set takes; empty: nothing the default set takes.
  std::function<std::vector<Offered>(const Options&, const RunDevice&)> offered;
};
std::vector<Declared>& Declarations();

struct Declaration {
  Declaration(std::string name, std::function<void(Suite&)> register_all,
              std::function<std::vector<TestPoint>()> test_points = {},
              std::function<std::vector<Offered>(const Options&, const RunDevice&)> offered = {});
};

// The names of every declared family's benchmarks that the default set of `device` takes in a
// run of `options`.
std::vector<std::string> DefaultSet(const Options& options, const RunDevice& device);

// A family that could not be registered: its name and why (the exception's message).
struct SkippedFamily {
  std::string family;
  std::string why;
};
// The families skipped in this process, each once, in the order they failed. main names them at
// the end of the run and exits 1.
const std::vector<SkippedFamily>& SkippedFamilies();
// Skips `family` for `why`: one line on stderr the first time, and an entry of SkippedFamilies().
void SkipFamily(const std::string& family, const std::string& why);
// Runs `step` of `family` (describing or registering it); an exception skips the family
// (SkipFamily) and returns false, and so does a family already skipped, without running `step`.
bool Guarded(const std::string& family, const std::function<void()>& step);
// Runs `register_all`, which registers `family`'s benchmarks, as a whole (FamilyRegistration):
// an exception leaves none of them registered and skips the family.
bool RegisterGuarded(const std::string& family, const std::function<void()>& register_all);

// Registers every declared family: those of `order` first, in that order, then the others in
// name order. A name of `order` that nobody declared is passed over: a family built only with
// some toolkit (the CUDA peers).
void RegisterInOrder(Suite& suite, std::span<const std::string_view> order);

// The family `descriptor()` describes, checked to be the one declared as `name`.
template <typename V>
const Family<V>& Described(const std::string& name, const Family<V>& (*descriptor)()) {
  const Family<V>& family = descriptor();
  Require(family.name == name, "declared as " + name + ", but its descriptor names the family " + family.name);
  return family;
}

// Declares the family `name` from its descriptor function: registration, test points and default
// sets follow. The descriptor is first called when one of those is asked for, never while the
// program starts: one that throws skips its family (Guarded), where it would abort the process
// before main.
template <typename V>
Declaration Declare(std::string name, const Family<V>& (*descriptor)()) {
  return Declaration(
      name, [name, descriptor](Suite& suite) { RegisterFamily(suite, Described(name, descriptor)); },
      [name, descriptor] { return TestPoints(Described(name, descriptor)); },
      [name, descriptor](const Options& options, const RunDevice& device) {
        return OfferedBy(Described(name, descriptor), options, device);
      });
}

}  // namespace csbench
