// The context's submissions on the machine's device: the dispatch timeout it waits with, what it
// does once the device is lost, and the device's busy time of each submission in the time ledger.
// No driver loses its device on demand, so the loss is noted by hand (NoteDeviceLost), as a failed
// submission or wait notes it.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "harness/base/error.hpp"
#include "harness/base/ledger.hpp"
#include "harness/vulkan/buffer.hpp"
#include "harness/vulkan/commands.hpp"
#include "harness/vulkan/context.hpp"
#include "harness/vulkan/submission_clock.hpp"
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

size_t Index(Phase phase) { return static_cast<size_t>(phase); }

TEST(ContextDevice, TheDeviceBusyTimeOfEachSubmissionGoesToThePhaseThatMadeIt) {
  Context* context = testing::SharedContext();
  if (context == nullptr) GTEST_SKIP() << "no Vulkan device";
  if (context->submission_clock() == nullptr) GTEST_SKIP() << "the device's queue has no timestamps";
  Buffer buffer(*context, 64 << 20);
  const TimeSpent before = Spent();
  const auto start = std::chrono::steady_clock::now();
  {
    Spending check(Phase::kCheck);
    for (int i = 0; i < 4; ++i) context->Run([&](Commands& c) { c.Fill(buffer, 0x3f800000u + i); });
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  {
    // A phase that submits nothing.
    Spending release(Phase::kRelease);
  }
  {
    // A loop the host's clock times: its submissions go untimed by the device, and count nowhere.
    Spending timed(Phase::kTimed);
    const SubmissionClock::HostClocked host_clocked;
    context->Run([&](Commands& c) { c.Fill(buffer, 0u); });
  }
  const TimeSpent after = Spent();
  EXPECT_TRUE(after.device_timed);
  const double check = after.device[Index(Phase::kCheck)] - before.device[Index(Phase::kCheck)];
  // Four fills of 64 MiB took the device some time, and no more than the host waited for them.
  EXPECT_GT(check, 0.0);
  EXPECT_LT(check, wall);
  EXPECT_EQ(after.device[Index(Phase::kRelease)], before.device[Index(Phase::kRelease)]);
  EXPECT_EQ(after.device[Index(Phase::kTimed)], before.device[Index(Phase::kTimed)]);
  // Every submission was read once its fence signalled: nothing is left in flight.
  EXPECT_EQ(context->submission_clock()->in_flight(), 0u);
  EXPECT_EQ(after.device_unmeasured, before.device_unmeasured);
  testing::ExpectNoNewValidationMessages();
}

TEST(ContextDevice, ASubmissionThatFailsOrALostDeviceFreesItsTimestamps) {
  Context* shared = testing::SharedContext();
  if (shared == nullptr) GTEST_SKIP() << "no Vulkan device";
  if (shared->submission_clock() == nullptr) GTEST_SKIP() << "the device's queue has no timestamps";
  {
    // Two pairs: a third submission while both are taken goes untimed, and a failed one frees its pair.
    auto lock = shared->LockDevice();
    SubmissionClock clock(shared->device(), shared->command_pool(), shared->info().timestamp_valid_bits,
                          shared->info().timestamp_period_ns, 2);
    const vk::CommandBuffer caller{};
    const uint64_t untimed = Spent().device_unmeasured;
    SubmissionClock::Bracket a = clock.Around(std::span(&caller, 1));
    SubmissionClock::Bracket b = clock.Around(std::span(&caller, 1));
    ASSERT_TRUE(a.slot && b.slot);
    EXPECT_NE(*a.slot, *b.slot);
    EXPECT_EQ(a.buffers.size(), 3u);
    EXPECT_EQ(a.buffers[1], caller);
    SubmissionClock::Bracket c = clock.Around(std::span(&caller, 1));
    EXPECT_FALSE(c.slot.has_value());
    EXPECT_EQ(c.buffers.size(), 1u);
    EXPECT_EQ(Spent().device_unmeasured, untimed + 1);
    clock.Failed(a);
    SubmissionClock::Bracket d = clock.Around(std::span(&caller, 1));
    ASSERT_TRUE(d.slot.has_value());
    EXPECT_EQ(*d.slot, *a.slot);
    // Submitted and never written (the device was lost): abandoned, not waited for.
    clock.Submitted(b);
    clock.Submitted(d);
    EXPECT_EQ(clock.in_flight(), 2u);
    clock.Abandon();
    EXPECT_EQ(clock.in_flight(), 0u);
    EXPECT_TRUE(clock.Around(std::span(&caller, 1)).slot.has_value());
  }
  {
    // A context that loses its device lets go of what it had in flight.
    Context context(shared->options());
    context.Run([](Commands&) {});
    ASSERT_NE(context.submission_clock(), nullptr);
    const vk::CommandBuffer caller{};
    context.submission_clock()->Submitted(context.submission_clock()->Around(std::span(&caller, 1)));
    EXPECT_EQ(context.submission_clock()->in_flight(), 1u);
    context.NoteDeviceLost("a test's stand-in");
    EXPECT_EQ(context.submission_clock()->in_flight(), 0u);
  }
  ResumeRunForTest();
  EXPECT_NO_THROW(shared->Run([](Commands&) {}));
}

}  // namespace
}  // namespace csbench
