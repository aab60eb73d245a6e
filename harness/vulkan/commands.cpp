#include "harness/vulkan/commands.hpp"

#include <fmt/format.h>

#include "harness/base/error.hpp"
#include "harness/vulkan/buffer.hpp"
#include "harness/vulkan/context.hpp"
#include "harness/vulkan/kernel.hpp"

namespace csbench {

void Commands::Dispatch(const Kernel& kernel, const Bindings& bindings, std::array<uint32_t, 3> groups,
                        std::span<const uint32_t> offsets, std::span<const std::byte> push) {
  const KernelSpec& spec = kernel.spec();
  Require(push.size() == spec.push_bytes,
          fmt::format("{}: {} push-constant bytes given, the kernel takes {}", spec.label, push.size(), spec.push_bytes));
  // One offset per dynamic descriptor (the buffers; images take none), as vkCmdBindDescriptorSets
  // requires.
  std::vector<uint32_t> zeros(kernel.dynamic_slots(), 0);
  if (offsets.empty()) offsets = zeros;
  Require(offsets.size() == kernel.dynamic_slots(),
          fmt::format("{}: {} dynamic offsets given, the kernel has {} buffers", spec.label, offsets.size(),
                      kernel.dynamic_slots()));
  cb_->bindPipeline(vk::PipelineBindPoint::eCompute, kernel.pipeline());
  cb_->bindDescriptorSets(vk::PipelineBindPoint::eCompute, kernel.layout(), 0, bindings.handles(), offsets);
  if (!push.empty()) {
    cb_->pushConstants<std::byte>(kernel.layout(), vk::ShaderStageFlagBits::eCompute, 0, push);
  }
  cb_->dispatch(groups[0], groups[1], groups[2]);
}

void Commands::Barrier() {
  using S = vk::PipelineStageFlagBits;
  using A = vk::AccessFlagBits;
  vk::MemoryBarrier barrier{.srcAccessMask = A::eShaderWrite | A::eTransferWrite,
                            .dstAccessMask = A::eShaderRead | A::eShaderWrite | A::eTransferRead | A::eTransferWrite};
  cb_->pipelineBarrier(S::eComputeShader | S::eTransfer, S::eComputeShader | S::eTransfer, {}, barrier, {}, {});
}

void Commands::HostBarrier() {
  using S = vk::PipelineStageFlagBits;
  using A = vk::AccessFlagBits;
  vk::MemoryBarrier barrier{.srcAccessMask = A::eShaderWrite | A::eTransferWrite, .dstAccessMask = A::eHostRead};
  cb_->pipelineBarrier(S::eComputeShader | S::eTransfer, S::eHost, {}, barrier, {}, {});
}

void Commands::Fill(const Buffer& buffer, uint32_t word, uint64_t offset, uint64_t bytes) {
  cb_->fillBuffer(buffer.handle(), offset, bytes == 0 ? VK_WHOLE_SIZE : bytes, word);
}

void Commands::Copy(const Buffer& src, uint64_t src_offset, const Buffer& dst, uint64_t dst_offset,
                    uint64_t bytes) {
  cb_->copyBuffer(src.handle(), dst.handle(), vk::BufferCopy{.srcOffset = src_offset, .dstOffset = dst_offset, .size = bytes});
}

}  // namespace csbench
