#include "harness/report.hpp"

#include <fmt/format.h>

#include <sched.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <regex>
#include <thread>

#include "harness/context.hpp"
#include "harness/revision.hpp"

namespace csbench {

std::string HostCpuName() {
  // Read once a process: the run's context and its baseline key both name the host CPU.
  static const std::string name = [] {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
      if (line.starts_with("model name")) {
        auto colon = line.find(':');
        if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
      }
    }
    return std::string("unknown cpu");
  }();
  return name;
}

unsigned HostCpuCount() {
  if (const char* threads = std::getenv("LP_NUM_THREADS"); threads != nullptr) {
    unsigned n = 0;
    auto [end, error] = std::from_chars(threads, threads + std::strlen(threads), n);
    if (error == std::errc() && *end == '\0' && n > 0) return n;
  }
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) return static_cast<unsigned>(CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

std::string CpuDeviceKey(const std::string& ids, const std::string& driver) {
  // A distribution's packaging revision ("25.0.7-2+deb13u1") rebuilds the same upstream release:
  // without it, a stable update keeps the key and the baseline.
  static const std::regex kRevision(R"((\d+\.\d+(?:\.\d+)?)-[0-9][0-9A-Za-z.+~]*)");
  return fmt::format("{}-{}-{}-{}cpu", ids, FileSafe(std::regex_replace(driver, kRevision, "$1")),
                     FileSafe(HostCpuName()), HostCpuCount());
}

std::string FileSafe(const std::string& text) {
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c)) {
      out += static_cast<char>(std::tolower(c));
    } else if (!out.empty() && out.back() != '-') {
      out += '-';
    }
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

std::string DeviceKey(const Context* context) {
  return context == nullptr ? "plain_loop-" + FileSafe(HostCpuName()) : context->info().Key();
}

std::vector<std::pair<std::string, std::string>> RunContext(const Context* context, const Options& options) {
  std::vector<std::pair<std::string, std::string>> kv;
  kv.emplace_back("csbench_revision", Revision());
  kv.emplace_back("cache", options.cache == CacheMode::kCold ? "cold" : "warm");
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
