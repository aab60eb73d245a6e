// csbench: compute-shader variants measured through Vulkan, each checked against its CPU
// reference first. Google Benchmark's flags apply; csbench's own are in OptionsHelp().
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "bench/families.hpp"
#include "harness/context.hpp"
#include "harness/error.hpp"
#include "harness/measure.hpp"
#include "harness/report.hpp"
#include "harness/reporters.hpp"

namespace {

void PrintHelp() {
  benchmark::PrintDefaultHelp();
  fmt::print("\n{}", csbench::OptionsHelp());
}

int ListDevicesCommand() {
  try {
    for (const csbench::DeviceInfo& d : csbench::ListDevices()) {
      fmt::print("{}: {}\n   type {}, driver {} ({}), Vulkan {}, vendor 0x{:04x} device 0x{:04x}\n"
                 "   subgroup size {}, timestamp period {} ns, {} valid timestamp bits on queue family {}\n",
                 d.index, d.name, d.type, d.driver_name, d.driver_info, d.ApiVersionString(), d.vendor_id,
                 d.device_id, d.subgroup_size, d.timestamp_period_ns, d.timestamp_valid_bits, d.queue_family);
    }
    return 0;
  } catch (const std::exception& e) {
    fmt::print(stderr, "csbench: cannot list Vulkan devices: {}\n", e.what());
    return 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv, argv + argc);
  csbench::Options options;
  try {
    options = csbench::ParseOptions(args);
  } catch (const csbench::UsageError& e) {
    fmt::print(stderr, "csbench: {}\n", e.message);
    return 2;
  }
  // csbench's default minimum time is shorter than Google Benchmark's 0.5 s: a GPU sample is a
  // batch of at least 2 ms timed by the device's clock, so 0.1 s is 50 samples or more, and the
  // whole suite stays within minutes. --benchmark_min_time overrides it.
  if (std::none_of(args.begin(), args.end(),
                   [](const std::string& a) { return a.starts_with("--benchmark_min_time"); })) {
    args.insert(args.begin() + 1, std::string("--benchmark_min_time=") + csbench::kDefaultMinTime);
  }
  std::vector<char*> rest;
  for (auto& a : args) rest.push_back(a.data());
  int rest_count = static_cast<int>(rest.size());
  benchmark::Initialize(&rest_count, rest.data(), &PrintHelp);
  if (benchmark::ReportUnrecognizedArguments(rest_count, rest.data())) return 2;
  if (options.list_devices) return ListDevicesCommand();

  std::unique_ptr<csbench::Context> context;
  if (options.backend == csbench::Backend::kVulkan) {
    try {
      context = std::make_unique<csbench::Context>(options);
    } catch (const std::exception& e) {
      // A --device that names nothing is a usage error; a machine without Vulkan is not.
      if (!options.device.empty()) {
        fmt::print(stderr, "csbench: {}\n", e.what());
        return 2;
      }
      fmt::print(stderr, "csbench: no usable Vulkan device ({}); running the plain_loop benchmarks only\n", e.what());
    }
  } else {
    fmt::print(stderr, "csbench: --backend=plain_loop; running the plain_loop benchmarks only\n");
  }

  auto suite = std::make_unique<csbench::Suite>();
  suite->context = context.get();
  suite->options = options;
  if (context == nullptr) suite->options.backend = csbench::Backend::kPlainLoop;
  for (const auto& [key, value] : csbench::RunContext(context.get(), options)) {
    benchmark::AddCustomContext(key, value);
  }
  for (const auto& a : args) {
    if (a.starts_with("--benchmark_min_time=")) benchmark::AddCustomContext("min_time", a.substr(21));
  }
  if (!options.domains.empty()) benchmark::AddCustomContext("domain_override", csbench::ToString(options.domains));
  if (!options.workgroups.empty()) {
    benchmark::AddCustomContext("workgroup_override", csbench::ToString(options.workgroups));
  }
  csbench::RegisterFamilies(*suite);
  csbench::RunBenchmarks(args);
  csbench::ReleaseCurrentCase();
  benchmark::Shutdown();
  // The families' device buffers go before the device, and the validation layer reports leaks
  // when the device goes: count messages only after both.
  suite.reset();
  context.reset();
  if (options.validation && csbench::ValidationMessages() > 0) {
    fmt::print(stderr, "csbench: {} validation messages\n", csbench::ValidationMessages());
    return 3;
  }
  return 0;
}
