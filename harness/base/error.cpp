#include "harness/base/error.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <mutex>

namespace csbench {

Error::Error(std::string_view what, std::source_location where)
    : std::runtime_error(fmt::format("{} ({}:{})", what,
                                     std::filesystem::path(where.file_name()).filename().string(),
                                     where.line())) {}

void Require(bool condition, std::string_view what, std::source_location where) {
  if (!condition) throw Error(what, where);
}

void RequireSupport(bool condition, std::string_view what, std::source_location where) {
  if (!condition) throw Unsupported(what, where);
}

namespace {

struct RunStop {
  std::mutex lock;
  std::optional<std::string> why;
};

// Process-wide: whichever thread finds the device lost stops the run, and every benchmark's wrapper
// and the cases made ahead ask here before they touch the device; none of them holds the others.
RunStop& TheRunStop() {
  static RunStop stop;
  return stop;
}

}  // namespace

void StopRun(std::string_view why) {
  RunStop& stop = TheRunStop();
  std::lock_guard guard(stop.lock);
  if (!stop.why) stop.why = std::string(why);
}

std::optional<std::string> RunStopReason() {
  RunStop& stop = TheRunStop();
  std::lock_guard guard(stop.lock);
  return stop.why;
}

void ResumeRunForTest() {
  RunStop& stop = TheRunStop();
  std::lock_guard guard(stop.lock);
  stop.why.reset();
}

}  // namespace csbench
