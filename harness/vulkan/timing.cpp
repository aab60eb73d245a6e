#include "harness/vulkan/timing.hpp"

#include <fmt/format.h>

#include <array>
#include <chrono>

#include "harness/base/error.hpp"
#include "harness/vulkan/commands.hpp"
#include "harness/vulkan/context.hpp"

namespace csbench {

double TimestampDeltaNs(uint64_t begin, uint64_t end, uint32_t valid_bits, double period_ns) {
  Require(valid_bits > 0, "the queue has no timestamp support (timestampValidBits = 0)");
  Require(period_ns > 0.0, "timestampPeriod is not positive");
  uint64_t mask = valid_bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << valid_bits) - 1;
  begin &= mask;
  end &= mask;
  Require(end >= begin, fmt::format("timestamp went backwards ({} -> {}, {} valid bits): the counter wrapped "
                                    "or the stamps are not from one submission",
                                    begin, end, valid_bits));
  return static_cast<double>(end - begin) * period_ns;
}

TimedBatch::TimedBatch(Context& context, const std::function<void(Commands&)>& record) : context_(&context) {
  auto lock = context.LockDevice();
  const vk::raii::Device& device = context.device();
  command_buffers_ = CSBENCH_VK(vk::raii::CommandBuffers(
      device, vk::CommandBufferAllocateInfo{.commandPool = *context.command_pool(),
                                            .level = vk::CommandBufferLevel::ePrimary,
                                            .commandBufferCount = 1}));
  vk::raii::CommandBuffer& cb = command_buffers_[0];
  if (context.gpu_timer()) {
    queries_ = CSBENCH_VK(vk::raii::QueryPool(
        device, vk::QueryPoolCreateInfo{.queryType = vk::QueryType::eTimestamp, .queryCount = 2}));
  }
  cb.begin(vk::CommandBufferBeginInfo{});
  Commands commands(context, cb);
  commands.Barrier();
  if (context.gpu_timer()) {
    // Reset inside the command buffer so that each submission starts with fresh queries.
    cb.resetQueryPool(*queries_, 0, 2);
    // ALL_COMMANDS: the first stamp waits for the barrier above (earlier uploads), the last one
    // for every dispatch of the batch to finish.
    cb.writeTimestamp(vk::PipelineStageFlagBits::eAllCommands, *queries_, 0);
  }
  record(commands);
  if (context.gpu_timer()) cb.writeTimestamp(vk::PipelineStageFlagBits::eAllCommands, *queries_, 1);
  commands.HostBarrier();
  cb.end();
}

TimedBatch::~TimedBatch() {
  // Freeing the command buffer is a use of the context's pool.
  auto lock = context_->LockDevice();
  command_buffers_.clear();
}

double TimedBatch::Run() {
  auto start = std::chrono::steady_clock::now();
  context_->SubmitAndWait(command_buffers_[0]);
  auto stop = std::chrono::steady_clock::now();
  if (!context_->gpu_timer()) return std::chrono::duration<double>(stop - start).count();
  auto [result, stamps] = queries_.getResults<uint64_t>(0, 2, 2 * sizeof(uint64_t), sizeof(uint64_t),
                                                        vk::QueryResultFlagBits::e64 | vk::QueryResultFlagBits::eWait);
  Require(result == vk::Result::eSuccess, fmt::format("timestamp query returned {}", vk::to_string(result)));
  const DeviceInfo& info = context_->info();
  return TimestampDeltaNs(stamps[0], stamps[1], info.timestamp_valid_bits, info.timestamp_period_ns) * 1e-9;
}

}  // namespace csbench
