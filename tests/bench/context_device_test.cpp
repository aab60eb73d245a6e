// The context's submissions on the machine's device: the dispatch timeout it waits with, and what
// it does once the device is lost. No driver loses its device on demand, so the loss is noted by
// hand (NoteDeviceLost), as a failed submission or wait notes it.
#include <gtest/gtest.h>

#include <string>

#include "harness/base/error.hpp"
#include "harness/vulkan/commands.hpp"
#include "harness/vulkan/context.hpp"
#include "tests/bench/vulkan_environment.hpp"

namespace csbench {
namespace {

TEST(ContextDevice, WaitsWithTheDispatchTimeoutOfItsOptions) {
  Context* shared = testing::SharedContext();
  if (shared == nullptr) return;
  EXPECT_EQ(shared->dispatch_timeout_ns(), 300'000'000'000ull);
  Options options = shared->options();
  options.dispatch_timeout_s = 0.25;
  Context context(options);
  EXPECT_EQ(context.dispatch_timeout_ns(), 250'000'000ull);
  // A submission well within it finishes as before.
  EXPECT_NO_THROW(context.Run([](Commands&) {}));
}

TEST(ContextDevice, ALostDeviceSubmitsNothingMoreAndStopsTheRun) {
  Context* shared = testing::SharedContext();
  if (shared == nullptr) return;
  {
    // A context of its own: a lost one stays lost.
    Context context(shared->options());
    context.Run([](Commands&) {});
    EXPECT_EQ(context.device_lost(), "");
    EXPECT_FALSE(RunStopReason().has_value());
    context.NoteDeviceLost("a test's stand-in");
    context.NoteDeviceLost("a later reason, not kept");
    EXPECT_EQ(context.device_lost(), "a test's stand-in");
    EXPECT_EQ(RunStopReason().value_or(""), "the device was lost (a test's stand-in)");
    try {
      context.Run([](Commands&) {});
      ADD_FAILURE() << "a lost device took a submission";
    } catch (const DeviceLost& e) {
      EXPECT_NE(std::string(e.what()).find("not submitted: the device was lost earlier in this run (a test's stand-in)"),
                std::string::npos)
          << e.what();
    }
    // Its destructor waits for the device and must not throw, lost or not.
  }
  ResumeRunForTest();
  // The shared context, never lost, still runs.
  EXPECT_EQ(shared->device_lost(), "");
  EXPECT_NO_THROW(shared->Run([](Commands&) {}));
}

}  // namespace
}  // namespace csbench
