#include "harness/run/report.hpp"

#include <fmt/format.h>


#include "harness/base/host.hpp"
#include "harness/base/revision.hpp"
#include "harness/vulkan/context.hpp"

namespace csbench {

std::string DeviceKey(const Context* context) {
  return context == nullptr ? "plain_loop-" + FileSafe(HostCpuName()) : context->info().Key();
}

std::vector<std::pair<std::string, std::string>> RunContext(const Context* context, const Options& options) {
  std::vector<std::pair<std::string, std::string>> kv;
  kv.emplace_back("csbench_revision", Revision());
  kv.emplace_back("cache", options.cache == CacheMode::kCold ? "cold" : "warm");
  // Whether the Khronos validation layer ran beside the benchmarks (--validation): it slows the
  // host side of a run, and its messages are counted in the exit code.
  kv.emplace_back("validation", options.validation ? "on" : "off");
  // Debian's Google Benchmark is a debug build (library_build_type); what that does and does not
  // touch, said where the numbers are.
  kv.emplace_back("library_build_type_effect",
                  "none on GPU entries (device timestamps); host-timed entries run Google Benchmark's inline "
                  "iteration loop compiled with csbench's Release flags, the library's own code once per batch");
  if (context == nullptr) {
    kv.emplace_back("backend", "plain_loop");
    kv.emplace_back("device", HostCpuName());
    kv.emplace_back("device_key", DeviceKey(context));
    kv.emplace_back("timer", "host");
    return kv;
  }
  const DeviceInfo& d = context->info();
  kv.emplace_back("backend", "vulkan");
  // What a CPU device's speed depends on, and what its key names; recorded for every device.
  kv.emplace_back("host_cpu", HostCpuName());
  kv.emplace_back("host_cpus", std::to_string(HostCpuCount()));
  kv.emplace_back("device", d.name);
  kv.emplace_back("device_type", d.type);
  kv.emplace_back("vendor_id", fmt::format("0x{:04x}", d.vendor_id));
  kv.emplace_back("device_id", fmt::format("0x{:04x}", d.device_id));
  kv.emplace_back("driver_version", std::to_string(d.driver_version));
  kv.emplace_back("driver_name", d.driver_name);
  kv.emplace_back("driver_info", d.driver_info);
  kv.emplace_back("api_version", d.ApiVersionString());
  kv.emplace_back("subgroup_size", std::to_string(d.subgroup_size));
  kv.emplace_back("timestamp_period_ns", fmt::format("{}", d.timestamp_period_ns));
  kv.emplace_back("timestamp_valid_bits", std::to_string(d.timestamp_valid_bits));
  // GPU timestamps time the dispatches alone; host: submit+wait on the CPU clock.
  kv.emplace_back("timer", context->gpu_timer() ? "gpu" : "host");
  kv.emplace_back("device_key", DeviceKey(context));
  // Two GPUs of one model share a key; the index (as --list-devices prints it) tells them apart.
  kv.emplace_back("device_index", std::to_string(d.index));
  return kv;
}

}  // namespace csbench
