// The JSON context of a run: which device, driver, timer and revision produced the numbers.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "harness/options.hpp"

namespace csbench {

class Context;

// The key/value pairs csbench adds to Google Benchmark's context. `context` is null for the
// plain_loop backend.
std::vector<std::pair<std::string, std::string>> RunContext(const Context* context, const Options& options);

// The run's baseline key (the context's device_key): the device's vendor, device and driver
// version, or "plain_loop-<host CPU>" for the plain_loop backend (`context` null).
std::string DeviceKey(const Context* context);

// The host CPU's model name, for the plain_loop backend's device entry.
std::string HostCpuName();

// The CPUs this process may run on (its affinity mask), which a CPU Vulkan driver spreads its
// work over; LP_NUM_THREADS, where set to a number, is llvmpipe's own choice and wins.
unsigned HostCpuCount();

// The key of a device whose speed is the host CPU's: "<ids>-<driver>-<host CPU>-<N>cpu", each part
// FileSafe. `ids` is "vendor-device", `driver` the driver's version string, less a distribution's
// packaging revision ("Mesa 25.0.7-2+deb13u1" keys as Mesa 25.0.7).
std::string CpuDeviceKey(const std::string& ids, const std::string& driver);

// Lowercase letters, digits and '-' only, for file names.
std::string FileSafe(const std::string& text);

}  // namespace csbench
