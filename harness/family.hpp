// A family declared once. Its descriptor lists the variants (kernel, defines, workgroups), the
// domains and the family's extra axis; from it follow the benchmarks' names (built once, here,
// and handed to the case), their registration, the --domain and --workgroup overrides, and the
// points the family's test checks.
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "harness/check.hpp"
#include "harness/measure.hpp"
#include "harness/naming.hpp"
#include "harness/points.hpp"
#include "harness/suite.hpp"

namespace csbench {

// How a family writes an extent in its names: "wg256x1" (kPair) or "wg256" (kCount: the
// one-dimensional families whose names never carried the "x1").
enum class Style { kPair, kCount };

std::string SizedAs(std::string_view prefix, Extent extent, Style style);

// One benchmark of a family: where it sits on the family's axes, and its name.
struct Point {
  std::string name;
  size_t variant = 0;  // index into the family's variants
  Extent workgroup;
  Extent domain;
  uint32_t extra = 0;  // the value on the family's extra axis, where it has one
};

// A family's GPU benchmark: made with its kernel and inputs, checked against the reference
// before it is timed, then timed.
class Case {
 public:
  virtual ~Case() = default;
  virtual Comparison Check() = 0;
  virtual void Measure(benchmark::State& state) = 0;
};

// An axis written after the domain, "<prefix><value>" (append's keep ratio: keep1, keep50...).
struct ExtraAxis {
  std::string prefix;
  std::vector<uint32_t> values;
};

// The descriptor. `V` is the family's variant row: at least `name` and `workgroups`
// (std::vector<Extent>); a row with its own `domains` replaces the family's for that variant.
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
  // Domains and workgroups are W x 1: the overrides with a height are not this family's.
  bool one_dimensional = true;
  ExtraAxis extra;
  // The GPU case of one point; throws (an Error, "unsupported: ..." for a device limit) when the
  // point cannot run.
  std::function<std::unique_ptr<Case>(Suite&, const V&, const Point&)> make;
  // Registers the CPU plain loop of one domain (and extra value), named point.name; none if empty.
  std::function<void(Suite&, const Point&)> plain_loop;
};

// The workgroups and domains a run uses: the command line's overrides (those of the family's
// dimensionality) where given, the descriptor's otherwise.
std::vector<Extent> Overridden(const std::vector<Extent>& built_in, const std::vector<Extent>& overrides,
                               bool one_dimensional);

template <typename V>
std::string PointName(const Family<V>& family, std::string_view variant, const Extent* workgroup, Extent domain,
                      const uint32_t* extra) {
  std::string name = Name({family.name, variant});
  if (workgroup != nullptr) name.append("/").append(SizedAs("wg", *workgroup, family.style));
  name.append("/").append(SizedAs("domain", domain, family.style));
  if (extra != nullptr) name.append("/").append(family.extra.prefix).append(std::to_string(*extra));
  return name;
}

// The clock of a benchmark timed by MeasureDispatches (or another TimedBatch): the device's
// timestamps where the run uses them, else the host's clock around submit and wait (a queue
// without timestamps, --timer=host).
Clock DeviceTimedClock(const Suite& suite);

// A point's coordinates, in the order of its name: the workgroup (GPU points), the domain, the
// extra axis.
template <typename V>
std::vector<Coordinate> CoordinatesOf(const Family<V>& family, const Point& point, bool gpu) {
  std::vector<Coordinate> axes;
  if (gpu) axes.push_back({"workgroup", SizedAs("", point.workgroup, family.style)});
  axes.push_back({"domain", SizedAs("", point.domain, family.style)});
  if (!family.extra.values.empty()) axes.push_back({family.extra.prefix, static_cast<double>(point.extra)});
  return axes;
}

// Every GPU point of `family` over `domains` (the variant's own domains where it has them and no
// override is given), in the order domain, variant, workgroup, extra value.
template <typename V>
std::vector<Point> GpuPoints(const Family<V>& family, const std::vector<Extent>& domain_overrides,
                             const std::vector<Extent>& workgroup_overrides, const std::vector<Extent>* test_domains) {
  std::vector<Point> points;
  std::vector<uint32_t> extras = family.extra.values;
  if (extras.empty()) extras.push_back(0);
  auto domains_of = [&](const V& v) {
    if (test_domains != nullptr) return *test_domains;
    const std::vector<Extent>* own = &family.domains;
    if constexpr (requires { v.domains; }) {
      if (!v.domains.empty()) own = &v.domains;
    }
    return Overridden(*own, domain_overrides, family.one_dimensional);
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
      for (Extent wg : Overridden(v.workgroups, workgroup_overrides, family.one_dimensional)) {
        for (uint32_t e : extras) {
          points.push_back({.name = PointName(family, v.name, &wg, d, family.extra.values.empty() ? nullptr : &e),
                            .variant = i,
                            .workgroup = wg,
                            .domain = d,
                            .extra = e});
        }
      }
    }
  }
  return points;
}

// Registers every point of `family`: the GPU cases (with a device), each checked before it is
// timed, and after each domain's GPU cases its plain loops.
template <typename V>
void RegisterFamily(Suite& suite, const Family<V>& family) {
  const std::vector<Point> gpu = GpuPoints(family, suite.options.domains, suite.options.workgroups, nullptr);
  std::vector<Extent> domains;
  for (const Point& p : gpu) {
    if (std::find(domains.begin(), domains.end(), p.domain) == domains.end()) domains.push_back(p.domain);
  }
  if (gpu.empty()) domains = Overridden(family.domains, suite.options.domains, family.one_dimensional);
  for (Extent d : domains) {
    if (suite.context != nullptr) {
      for (const Point& p : gpu) {
        if (!(p.domain == d)) continue;
        Describe(p.name, {.family = family.name,
                          .variant = family.variants[p.variant].name,
                          .clock = DeviceTimedClock(suite),
                          .axes = CoordinatesOf(family, p, true)});
        RegisterGpuCase(p.name, [&suite, &family, p] { return family.make(suite, family.variants[p.variant], p); });
      }
    }
    if (!family.plain_loop) continue;
    std::vector<uint32_t> extras = family.extra.values;
    if (extras.empty()) extras.push_back(0);
    for (uint32_t e : extras) {
      const Point point{.name = PointName(family, "plain_loop", nullptr, d, family.extra.values.empty() ? nullptr : &e),
                        .domain = d,
                        .extra = e};
      // Described before the family registers it: a family that registers a second loop of the
      // point (atomics' float loop) starts from this description.
      Describe(point.name, {.family = family.name,
                            .variant = "plain_loop",
                            .clock = Clock::kHost,
                            .axes = CoordinatesOf(family, point, false)});
      family.plain_loop(suite, point);
    }
  }
}

// A point of a family's test: its name, as a test name, and how to make its case.
struct TestPoint {
  std::string name;
  std::function<std::unique_ptr<Case>(Suite&)> make;
};

// A test point as GoogleTest prints its parameter: its benchmark name.
inline void PrintTo(const TestPoint& point, std::ostream* os) { *os << point.name; }

// Every variant x workgroup x extra value of `family` on its test domains.
template <typename V>
std::vector<TestPoint> TestPoints(const Family<V>& family) {
  std::vector<TestPoint> tests;
  for (const Point& p : GpuPoints(family, {}, {}, &family.test_domains)) {
    tests.push_back({p.name, [&family, p](Suite& suite) { return family.make(suite, family.variants[p.variant], p); }});
  }
  return tests;
}

// Device limits a point must fit, checked before anything is made: each throws Unsupported
// (error.hpp) naming the limit, so that the benchmark is skipped, not failed.
void RequireWorkgroup(const Context& context, Extent workgroup);
// A buffer of `bytes` bound whole to a kernel: maxStorageBufferRange, and RequireMemory.
void RequireStorage(const Context& context, uint64_t bytes);
// A buffer of `bytes`: maxMemoryAllocationSize and the device's memory.
void RequireMemory(const Context& context, uint64_t bytes);

// The families, each declared once in its own file by a static Declaration (a namespace-scope
// object, so that nothing else need name the family).
struct Declared {
  std::string name;
  std::function<void(Suite&)> register_all;
  std::function<std::vector<TestPoint>()> test_points;  // empty: the family has its own test
};
std::vector<Declared>& Declarations();

struct Declaration {
  Declaration(std::string name, std::function<void(Suite&)> register_all,
              std::function<std::vector<TestPoint>()> test_points = {});
};

// Registers the declared families `names`, in that order, or (with no names) every declared
// family not registered yet, in name order. Throws Error for a name nobody declared.
void RegisterDeclared(Suite& suite, std::initializer_list<std::string_view> names);

// Declares a family from its descriptor function: registration and test points follow.
template <typename V>
Declaration Declare(const Family<V>& (*descriptor)()) {
  return Declaration(
      descriptor().name, [descriptor](Suite& suite) { RegisterFamily(suite, descriptor()); },
      [descriptor] { return TestPoints(descriptor()); });
}

}  // namespace csbench
