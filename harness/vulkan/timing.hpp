// GPU timestamps (or the host clock where a queue has none) around a pre-recorded batch of work.
#pragma once

#include <cstdint>
#include <functional>

#include <vulkan/vulkan_raii.hpp>

namespace csbench {

class Commands;
class Context;

// Nanoseconds between two raw timestamps written in one submission. Both are masked to
// `valid_bits`; the period (ns per tick) is applied in double, never truncated. Throws Error when
// the queue has no timer (valid_bits 0) or `end` is before `begin` (a wrapped counter or
// timestamps of different submissions), since neither yields a time.
double TimestampDeltaNs(uint64_t begin, uint64_t end, uint32_t valid_bits, double period_ns);

// A command buffer recorded once and submitted many times. With a GPU timer it holds a
// timestamp before and after the recorded work; otherwise Run() times submit+wait on the host.
class TimedBatch {
 public:
  TimedBatch(Context& context, const std::function<void(Commands&)>& record);
  ~TimedBatch();
  TimedBatch(const TimedBatch&) = delete;
  TimedBatch& operator=(const TimedBatch&) = delete;
  // Submits, waits and returns the seconds the recorded work took.
  double Run();

 private:
  Context* context_;
  vk::raii::CommandBuffers command_buffers_ = nullptr;
  vk::raii::QueryPool queries_ = nullptr;
};

}  // namespace csbench
