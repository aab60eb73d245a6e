// The JSON context of a run: which device, driver, timer and revision produced the numbers.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "harness/base/options.hpp"

namespace csbench {

class Context;

// The key/value pairs csbench adds to Google Benchmark's context. `context` is null for the
// plain_loop backend.
std::vector<std::pair<std::string, std::string>> RunContext(const Context* context, const Options& options);

// The run's baseline key (the context's device_key): the device's vendor, device and driver
// version, or "plain_loop-<host CPU>" for the plain_loop backend (`context` null).
std::string DeviceKey(const Context* context);

}  // namespace csbench
