// What differs between the library versions csbench builds against, in one place: Debian 12
// (Google Benchmark 1.7, Vulkan headers 1.3.239) and Debian 13 (Google Benchmark 1.9, Vulkan
// headers 1.4.309). The rest of the tree calls these and never tests a version itself. Each is
// decided by what the library offers (a member, a type), not by a version number, so a release
// between the two builds too.
#pragma once

#include <benchmark/benchmark.h>

#include <vulkan/vulkan_raii.hpp>

#include <memory>
#include <string>

namespace csbench::compat {

// Google Benchmark 1.8 replaced Run::error_occurred and error_message with skipped and
// skip_message (set by SkipWithError and SkipWithMessage alike). Templates, so that the branch a
// library lacks is never compiled.
template <typename Run>
bool Skipped(const Run& run) {
  if constexpr (requires { run.skipped; }) {
    return static_cast<bool>(run.skipped);
  } else {
    return run.error_occurred;
  }
}

template <typename Run>
const std::string& SkipMessage(const Run& run) {
  if constexpr (requires { run.skip_message; }) {
    return run.skip_message;
  } else {
    return run.error_message;
  }
}

// A run as SkipWithError leaves it (for tests of the reporters).
template <typename Run>
void MarkError(Run& run, const std::string& message) {
  if constexpr (requires { run.skip_message; }) {
    using Skip = decltype(run.skipped);  // dependent, so that 1.7 never looks the name up
    run.skipped = Skip::SkippedWithError;
    run.skip_message = message;
  } else {
    run.error_occurred = true;
    run.error_message = message;
  }
}

// Vulkan-Hpp 1.4 types the debug messenger's callback with its own enums and flags, 1.3 with the C
// ones. DebugCallback<Handler>::Call has the parameter types the header wants and calls Handler,
// written once with the C types.
using CDebugHandler = VkBool32 (*)(VkDebugUtilsMessageSeverityFlagBitsEXT, VkDebugUtilsMessageTypeFlagsEXT,
                                   const VkDebugUtilsMessengerCallbackDataEXT*, void*);
template <CDebugHandler Handler, typename Pointer = decltype(vk::DebugUtilsMessengerCreateInfoEXT::pfnUserCallback)>
struct DebugCallback;
template <CDebugHandler Handler, typename Result, typename Severity, typename Types, typename Data>
struct DebugCallback<Handler, Result (*)(Severity, Types, const Data*, void*)> {
  static VKAPI_ATTR Result VKAPI_CALL Call(Severity severity, Types types, const Data* data, void* user) {
    return Handler(static_cast<VkDebugUtilsMessageSeverityFlagBitsEXT>(severity),
                   static_cast<VkDebugUtilsMessageTypeFlagsEXT>(types),
                   reinterpret_cast<const VkDebugUtilsMessengerCallbackDataEXT*>(data), user);
  }
};

// Google Benchmark 1.9 deprecates its CSV reporter; `--benchmark_out_format=csv` is still its
// documented output, so csbench offers it for as long as the library does.
inline std::unique_ptr<benchmark::BenchmarkReporter> MakeCsvReporter() {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  return std::make_unique<benchmark::CSVReporter>();
#pragma GCC diagnostic pop
}

}  // namespace csbench::compat
