#include "harness/family/family.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "harness/base/error.hpp"
#include "harness/measure/selection.hpp"
#include "harness/vulkan/context.hpp"

namespace csbench {
namespace {

// The families skipped this run, in the order they failed. A process-wide list because
// registration is: each family registers once per process, from main or a test.
std::vector<SkippedFamily>& Skipped() {
  static std::vector<SkippedFamily> skipped;
  return skipped;
}

}  // namespace

std::string SizedAs(std::string_view prefix, Extent extent, Style style) {
  if (style == Style::kCount) return fmt::format("{}{}", prefix, extent.x);
  return Sized(prefix, extent);
}

std::vector<Extent> Overridden(const std::vector<Extent>& built_in, const std::vector<Extent>& overrides,
                               bool one_dimensional, bool three_dimensional) {
  if (overrides.empty()) return built_in;
  std::vector<Extent> chosen;
  for (Extent e : overrides) {
    if ((!one_dimensional || e.y == 1) && (three_dimensional || e.z == 1)) chosen.push_back(e);
  }
  return chosen;
}

const AxisValue& Point::Value(std::string_view axis) const {
  for (const Coordinate& c : axes) {
    if (c.axis == axis) return c.value;
  }
  throw Error(fmt::format("{} has no axis {}", name, axis));
}

Point MakePoint(const Naming& naming, size_t variant, std::string_view variant_name, const Extent* workgroup,
                Extent domain, const std::vector<Coordinate>& further) {
  Point point{.name = Name({naming.family, variant_name}), .variant = variant, .domain = domain};
  if (workgroup != nullptr) {
    point.workgroup = *workgroup;
    point.name.append("/").append(SizedAs(naming.workgroup_prefix, *workgroup, naming.style));
    point.axes.push_back({"workgroup", SizedAs("", *workgroup, naming.style)});
  }
  point.name.append("/").append(SizedAs("domain", domain, naming.style));
  point.axes.push_back({"domain", SizedAs("", domain, naming.style)});
  for (size_t i = 0; i < further.size(); ++i) {
    point.name.append("/").append((*naming.axes)[i].prefix).append(Spelled(further[i].value));
    point.axes.push_back(further[i]);
  }
  return point;
}

bool Pick::Takes(const Point& point, uint32_t subgroup_size) const {
  auto has = [](const auto& list, const auto& value) { return std::find(list.begin(), list.end(), value) != list.end(); };
  if (!workgroups.empty() || !subgroup_divisors.empty()) {
    const bool has_workgroup =
        std::any_of(point.axes.begin(), point.axes.end(), [](const Coordinate& c) { return c.axis == "workgroup"; });
    std::vector<Extent> listed = workgroups;
    for (uint32_t divisor : subgroup_divisors) {
      if (subgroup_size > 1) listed.push_back({subgroup_size / divisor});
    }
    if (!has_workgroup || !has(listed, point.workgroup)) return false;
  }
  if (!domains.empty() && !has(domains, point.domain)) return false;
  for (const Coordinate& named : axes) {
    const bool matched = std::any_of(axes.begin(), axes.end(), [&](const Coordinate& value) {
      return value.axis == named.axis && has(point.axes, value);
    });
    if (!matched) return false;
  }
  return true;
}

RunDevice RunDeviceOf(const Context* context) {
  if (context == nullptr) return {};
  const DeviceInfo& info = context->info();
  return {.kind = info.type == "cpu" ? DeviceKind::kCpu : DeviceKind::kGpu, .subgroup_size = info.subgroup_size};
}

Clock DeviceTimedClock(const Suite& suite) {
  return suite.context != nullptr && suite.context->gpu_timer() ? Clock::kDevice : Clock::kHost;
}

Clock ClockOf(const Suite& suite, Timer timer) {
  switch (timer) {
    case Timer::kTimestamps: return DeviceTimedClock(suite);
    case Timer::kHostClock: return Clock::kHost;
    case Timer::kPeerDevice: return Clock::kDevice;
  }
  return Clock::kHost;
}

benchmark::internal::Benchmark* RegisterTimedCase(const std::string& name, Timer timer, benchmark::TimeUnit unit,
                                                  std::function<std::unique_ptr<Case>()> make) {
  // Made ahead, and the next made beside it, only where Vulkan's timestamps time it; a host-clocked
  // case may be made ahead, beside another's loop (RegisterPrefetch).
  const Prefetch prefetch = timer == Timer::kTimestamps  ? Prefetch::kBeside
                            : timer == Timer::kHostClock ? Prefetch::kMade
                                                         : Prefetch::kNo;
  auto* b = RegisterCheckedCase(name, std::move(make), prefetch)->Unit(unit);
  // Google Benchmark's real time where the host's clock times the run: its loop's own timing is
  // the measurement. Otherwise the case hands each sample's time over (SetIterationTime).
  return timer == Timer::kHostClock ? b->UseRealTime() : b->UseManualTime();
}

// Process-wide: each family declares itself from its own file, by name, before main (a static
// initializer), and only a function-local static is certain to exist by then.
std::vector<Declared>& Declarations() {
  static std::vector<Declared> declared;
  return declared;
}

Declaration::Declaration(std::string name, std::function<void(Suite&)> register_all,
                         std::function<std::vector<TestPoint>()> test_points,
                         std::function<std::vector<Offered>(const Options&, const RunDevice&)> offered) {
  Declarations().push_back({std::move(name), std::move(register_all), std::move(test_points), std::move(offered)});
}

std::vector<std::string> DefaultSet(const Options& options, const RunDevice& device) {
  std::vector<std::string> names;
  for (const Declared& d : Declarations()) {
    if (!d.offered) continue;
    std::vector<Offered> offered;
    // A family that cannot say what it offers is skipped here and at its registration.
    if (!Guarded(d.name, [&] { offered = d.offered(options, device); })) continue;
    for (const Offered& o : offered) {
      if (o.by_default) names.push_back(o.name);
    }
  }
  return names;
}

void RegisterInOrder(Suite& suite, std::span<const std::string_view> order) {
  std::vector<const Declared*> chosen;
  for (std::string_view name : order) {
    for (const Declared& d : Declarations()) {
      if (d.name == name) chosen.push_back(&d);
    }
  }
  std::vector<const Declared*> others;
  for (const Declared& d : Declarations()) {
    if (std::find(order.begin(), order.end(), d.name) == order.end()) others.push_back(&d);
  }
  std::sort(others.begin(), others.end(), [](const Declared* a, const Declared* b) { return a->name < b->name; });
  chosen.insert(chosen.end(), others.begin(), others.end());
  for (const Declared* d : chosen) RegisterGuarded(d->name, [&] { d->register_all(suite); });
}

const std::vector<SkippedFamily>& SkippedFamilies() { return Skipped(); }

void SkipFamily(const std::string& family, const std::string& why) {
  for (const SkippedFamily& s : Skipped()) {
    if (s.family == family) return;
  }
  fmt::print(stderr, "csbench: family {} skipped, not registered: {}\n", family, why);
  Skipped().push_back({family, why});
}

bool Guarded(const std::string& family, const std::function<void()>& step) {
  for (const SkippedFamily& s : Skipped()) {
    if (s.family == family) return false;
  }
  try {
    step();
    return true;
  } catch (const std::exception& e) {
    SkipFamily(family, e.what());
  } catch (...) {
    SkipFamily(family, "an exception that is not a std::exception");
  }
  return false;
}

bool RegisterGuarded(const std::string& family, const std::function<void()>& register_all) {
  return Guarded(family, [&] {
    FamilyRegistration whole;
    register_all();
    whole.Commit();
  });
}

}  // namespace csbench
