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
  // Destructors never throw: past the timeout, WaitForFences has waited for the device to finish
  // before it throws, and a lost device leaves nothing to wait for.
  try {
    if (!pending.empty()) context_->WaitForFences(pending);
  } catch (...) {
  }
  // Freed under the lock: freeing a command buffer is a use of the context's pool.
  command_buffers_.clear();
}

void PipelinedBatches::Submit(uint32_t i) {
  context_->device().resetFences({*fences_[i]});
  vk::CommandBuffer handle = *command_buffers_[i];
  context_->Submit(vk::SubmitInfo{.commandBufferCount = 1, .pCommandBuffers = &handle}, *fences_[i]);
  in_flight_[i] = true;
}

void PipelinedBatches::Wait(uint32_t i) {
  const vk::Fence fence = *fences_[i];
  context_->WaitForFences(std::span(&fence, 1));
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
