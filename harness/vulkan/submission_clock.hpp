// The device's busy time of every submission: a pair of timestamps around the caller's command
// buffers, read once the device has written them and added to the time ledger's phase of the
// thread that submitted them (harness/base/ledger.hpp). Context::Submit brackets each submission
// through it, where the run times by the device's timestamps.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

#include <vulkan/vulkan_raii.hpp>

#include "harness/base/ledger.hpp"

namespace csbench {

class SubmissionClock {
 public:
  // Pairs of timestamps kept, each with two command buffers recorded once.
  static constexpr uint32_t kSlots = 32;

  // `valid_bits` and `period_ns`: the queue family's timestampValidBits (above 0) and the
  // device's timestampPeriod. The command buffers come from `pool`, under the caller's lock of it.
  SubmissionClock(const vk::raii::Device& device, const vk::raii::CommandPool& pool, uint32_t valid_bits,
                  double period_ns, uint32_t slots = kSlots);
  SubmissionClock(const SubmissionClock&) = delete;
  SubmissionClock& operator=(const SubmissionClock&) = delete;

  // A submission's command buffers: a free pair's first command buffer (which resets the pair and
  // writes the first timestamp), `buffers`, and its last (the second timestamp); and the pair
  // taken, with the calling thread's phase. Where every pair is still in use, `buffers` alone,
  // noted untimed (NoteUnmeasuredSubmission).
  struct Bracket {
    std::vector<vk::CommandBuffer> buffers;
    std::optional<uint32_t> slot;
  };
  Bracket Around(std::span<const vk::CommandBuffer> buffers);
  // The bracket's submission reached the queue: its pair is read by a later Harvest.
  void Submitted(const Bracket& bracket);
  // It did not (vkQueueSubmit failed): its pair is free again, nothing counted.
  void Failed(const Bracket& bracket);
  // Adds every submitted pair the device has written to the ledger, and frees it. Never waits:
  // a pair whose submission has not finished stays for the next call.
  void Harvest();
  // Frees every pair without reading it: a lost device writes no more timestamps.
  void Abandon();
  // Pairs submitted and not yet read (for the tests).
  uint32_t in_flight() const;

  // While one lives, the calling thread's submissions go between no timestamps of ours and count
  // nowhere: a loop timed by the host's clock around submit and wait (MeasureHostClocked), whose
  // time the extra commands would lengthen.
  class HostClocked {
   public:
    HostClocked();
    ~HostClocked();
    HostClocked(const HostClocked&) = delete;
    HostClocked& operator=(const HostClocked&) = delete;

   private:
    bool outer_;
  };

 private:
  enum class State { kFree, kTaken, kSubmitted };
  struct Slot {
    State state = State::kFree;
    ThreadPhase where;
  };
  void HarvestLocked();

  vk::raii::QueryPool queries_ = nullptr;
  vk::raii::CommandBuffers first_ = nullptr;  // per slot: reset its pair, write its first timestamp
  vk::raii::CommandBuffers last_ = nullptr;   // per slot: write its second timestamp
  uint64_t mask_;
  double period_ns_;
  mutable std::mutex lock_;
  std::vector<Slot> slots_;  // under lock_
  uint32_t next_ = 0;        // where the search for a free pair begins
};

}  // namespace csbench
