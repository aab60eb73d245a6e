#include "harness/family.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "harness/context.hpp"
#include "harness/error.hpp"

namespace csbench {

std::string SizedAs(std::string_view prefix, Extent extent, Style style) {
  if (style == Style::kCount) return fmt::format("{}{}", prefix, extent.x);
  return Sized(prefix, extent);
}

std::vector<Extent> Overridden(const std::vector<Extent>& built_in, const std::vector<Extent>& overrides,
                               bool one_dimensional) {
  if (overrides.empty()) return built_in;
  std::vector<Extent> chosen;
  for (Extent e : overrides) {
    if (!one_dimensional || e.y == 1) chosen.push_back(e);
  }
  return chosen;
}

Clock DeviceTimedClock(const Suite& suite) {
  return suite.context != nullptr && suite.context->gpu_timer() ? Clock::kDevice : Clock::kHost;
}

void RequireWorkgroup(const Context& context, Extent workgroup) {
  const DeviceInfo& info = context.info();
  const uint64_t invocations = uint64_t{workgroup.x} * workgroup.y * workgroup.z;
  RequireSupport(invocations <= info.max_workgroup_invocations,
                   fmt::format("workgroup {} has {} invocations, over the device's maxComputeWorkGroupInvocations ({})",
                               Sized("", workgroup), invocations, info.max_workgroup_invocations));
  RequireSupport(
      workgroup.x <= info.max_workgroup_size[0] && workgroup.y <= info.max_workgroup_size[1] &&
          workgroup.z <= info.max_workgroup_size[2],
      fmt::format("workgroup {} exceeds the device's maxComputeWorkGroupSize ({}x{}x{})", Sized("", workgroup),
                  info.max_workgroup_size[0], info.max_workgroup_size[1], info.max_workgroup_size[2]));
}

void RequireStorage(const Context& context, uint64_t bytes) {
  const DeviceInfo& info = context.info();
  RequireSupport(bytes <= info.max_storage_buffer_range,
                   fmt::format("a buffer of {} MiB exceeds the device's maxStorageBufferRange ({} MiB)", bytes >> 20,
                               info.max_storage_buffer_range >> 20));
  RequireMemory(context, bytes);
}

void RequireMemory(const Context& context, uint64_t bytes) {
  const DeviceInfo& info = context.info();
  RequireSupport(info.device_local_bytes == 0 || bytes <= info.device_local_bytes,
                   fmt::format("a buffer of {} MiB exceeds the device's memory ({} MiB)", bytes >> 20,
                               info.device_local_bytes >> 20));
  RequireSupport(bytes <= info.max_allocation_bytes,
                   fmt::format("a buffer of {} MiB exceeds the device's maxMemoryAllocationSize ({} MiB)", bytes >> 20,
                               info.max_allocation_bytes >> 20));
}

std::vector<Declared>& Declarations() {
  static std::vector<Declared> declared;
  return declared;
}

Declaration::Declaration(std::string name, std::function<void(Suite&)> register_all,
                         std::function<std::vector<TestPoint>()> test_points) {
  Declarations().push_back({std::move(name), std::move(register_all), std::move(test_points)});
}

void RegisterDeclared(Suite& suite, std::initializer_list<std::string_view> names) {
  static std::set<std::string> registered;
  std::vector<const Declared*> chosen;
  if (names.size() == 0) {
    for (const Declared& d : Declarations()) {
      if (!registered.contains(d.name)) chosen.push_back(&d);
    }
    std::sort(chosen.begin(), chosen.end(), [](const Declared* a, const Declared* b) { return a->name < b->name; });
  }
  for (std::string_view name : names) {
    auto it =
        std::find_if(Declarations().begin(), Declarations().end(), [&](const Declared& d) { return d.name == name; });
    Require(it != Declarations().end(), fmt::format("no family named {} is declared", name));
    chosen.push_back(&*it);
  }
  for (const Declared* d : chosen) {
    registered.insert(d->name);
    d->register_all(suite);
  }
}

}  // namespace csbench
