#include "harness/vulkan/pipelined.hpp"

#include <algorithm>

#include "harness/base/error.hpp"
#include "harness/vulkan/commands.hpp"
#include "harness/vulkan/context.hpp"

namespace csbench {
PipelinedBatches::PipelinedBatches(Context& context, uint32_t count,
                                   const std::function<void(Commands&, uint32_t)>& record)
    : context_(&context), in_flight_(count, false) {
  Require(count > 0, "a pipeline of 0 batches");
  auto lock = context.LockDevice();
  const vk::raii::Device& device = context.device();
  command_buffers_ = CSBENCH_VK(
      vk::raii::CommandBuffers(device, vk::CommandBufferAllocateInfo{.commandPool = *context.command_pool(),
                                                                     .level = vk::CommandBufferLevel::ePrimary,
                                                                     .commandBufferCount = count}));
  for (uint32_t i = 0; i < count; ++i) {
    vk::raii::CommandBuffer& cb = command_buffers_[i];
    cb.begin(vk::CommandBufferBeginInfo{});
    Commands commands(context, cb);
    commands.Barrier();
    record(commands, i);
    commands.HostBarrier();
    cb.end();
    fences_.push_back(CSBENCH_VK(vk::raii::Fence(device, vk::FenceCreateInfo{})));
  }
}

PipelinedBatches::~PipelinedBatches() {
  auto lock = context_->LockDevice();
  std::vector<vk::Fence> pending;
  for (uint32_t i = 0; i < fences_.size(); ++i) {
    if (in_flight_[i]) pending.push_back(*fences_[i]);
  }
  // Destructors never throw: a failed wait leaves the device to Context's waitIdle.
  try {
    if (!pending.empty()) (void)context_->device().waitForFences(pending, VK_TRUE, kSubmissionTimeoutNs);
  } catch (...) {
  }
  // Freed under the lock: freeing a command buffer is a use of the context's pool.
  command_buffers_.clear();
}

void PipelinedBatches::Submit(uint32_t i) {
  context_->device().resetFences({*fences_[i]});
  vk::CommandBuffer handle = *command_buffers_[i];
  vk::SubmitInfo submit{.commandBufferCount = 1, .pCommandBuffers = &handle};
  CSBENCH_VK(context_->queue().submit(submit, *fences_[i]));
  in_flight_[i] = true;
}

void PipelinedBatches::Wait(uint32_t i) {
  vk::Result result = CSBENCH_VK(context_->device().waitForFences({*fences_[i]}, VK_TRUE, kSubmissionTimeoutNs));
  Require(result == vk::Result::eSuccess, "a pipelined batch did not finish within 5 minutes");
  in_flight_[i] = false;
}

void PipelinedBatches::Run(uint32_t depth, const std::function<void(uint32_t)>& done) {
  auto lock = context_->LockDevice();
  const uint32_t count = size();
  depth = std::clamp<uint32_t>(depth, 1, count);
  for (uint32_t i = 0; i < depth; ++i) Submit(i);
  for (uint32_t k = 0; k < count; ++k) {
    Wait(k);
    done(k);
    if (k + depth < count) Submit(k + depth);
  }
}

}  // namespace csbench
