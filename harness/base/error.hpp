// Errors raised by the harness. Every failure carries what was called and where, so that a
// benchmark can hand a one-line reason to state.SkipWithError and the suite can go on.
#pragma once

#include <optional>
#include <source_location>
#include <stdexcept>
#include <string>
#include <string_view>

namespace csbench {

class Error : public std::runtime_error {
 public:
  explicit Error(std::string_view what,
                 std::source_location where = std::source_location::current());
};

// Throws Error when `condition` is false; `what` says which requirement failed.
void Require(bool condition, std::string_view what,
             std::source_location where = std::source_location::current());

// The prefix of every Unsupported message, by which the run's summary and the family tests tell
// a skip from a failure.
inline constexpr std::string_view kUnsupportedPrefix = "unsupported: ";

// What the device cannot do (a feature it lacks, a limit a benchmark exceeds): the benchmark is
// skipped with the reason, and, unlike other Errors, the run does not fail for it.
class Unsupported : public Error {
 public:
  explicit Unsupported(std::string_view what, std::source_location where = std::source_location::current())
      : Error(std::string(kUnsupportedPrefix) + std::string(what), where) {}
};

// Throws Unsupported when `condition` is false; `what` names the feature or limit.
void RequireSupport(bool condition, std::string_view what,
                    std::source_location where = std::source_location::current());

// The device was lost (VK_ERROR_DEVICE_LOST): unlike other Errors, no later benchmark of the run
// can use it, so the run stops (StopRun).
class DeviceLost : public Error {
 public:
  using Error::Error;
};

// The device or the host ran out of memory for an allocation (VK_ERROR_OUT_OF_DEVICE_MEMORY,
// VK_ERROR_OUT_OF_HOST_MEMORY): a case made ahead beside others (harness/measure/measure.hpp) is
// then made again alone.
class OutOfMemory : public Error {
 public:
  using Error::Error;
};

// Notes why no further benchmark of this run can run (a lost device); the first reason stays.
// Every benchmark that starts after it is skipped with "not run: <why>" (AddBenchmark,
// harness/measure/selection.hpp), the output file says "stopped": <why> in its context, and the
// process exits with code 1; like an interrupt, the run ends with a whole file of what finished.
void StopRun(std::string_view why);
// The reason StopRun noted, if any.
std::optional<std::string> RunStopReason();
// Forgets the reason, for the tests that stop a run and go on.
void ResumeRunForTest();

// Runs `call` (a lambda around a Vulkan-Hpp call) and turns vk::SystemError into Error with
// the call's text, its VkResult name, file and line (OutOfMemory where memory ran out).
#define CSBENCH_VK(call)                                                          \
  [&]() -> decltype(auto) {                                                       \
    try {                                                                         \
      return (call);                                                              \
    } catch (const vk::OutOfDeviceMemoryError& e) {                               \
      throw ::csbench::OutOfMemory(std::string(#call) + " failed: " + e.what());  \
    } catch (const vk::OutOfHostMemoryError& e) {                                 \
      throw ::csbench::OutOfMemory(std::string(#call) + " failed: " + e.what());  \
    } catch (const vk::SystemError& e) {                                          \
      throw ::csbench::Error(std::string(#call) + " failed: " + e.what());        \
    }                                                                             \
  }()

}  // namespace csbench
