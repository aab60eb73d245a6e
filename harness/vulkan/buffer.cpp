#include "harness/vulkan/buffer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>

#include "harness/base/error.hpp"
#include "harness/base/fork_join.hpp"
#include "harness/vulkan/commands.hpp"
#include "harness/vulkan/context.hpp"

namespace csbench {
namespace {

// The memory type of a transfer kind (Memory::kHostUncached or kHostCached), whose heap holds
// `bytes`; Unsupported where the device has none.
uint32_t ExactHostType(const Context& context, uint32_t type_bits, Memory memory, uint64_t bytes) {
  using F = vk::MemoryPropertyFlagBits;
  const vk::MemoryPropertyFlags host = F::eHostVisible | F::eHostCoherent;
  vk::MemoryPropertyFlags required = host;
  vk::MemoryPropertyFlags excluded = F::eHostCached | F::eDeviceLocal;
  std::string_view kind = "host-visible, coherent, not cached and not device-local";
  if (memory == Memory::kHostCached) {
    required |= F::eHostCached;
    excluded = F::eDeviceLocal;
    kind = "host-visible, coherent, cached and not device-local";
  }
  const auto properties = context.physical_device().getMemoryProperties();
  for (uint32_t i = 0; i < properties.memoryTypeCount; ++i) {
    const vk::MemoryPropertyFlags flags = properties.memoryTypes[i].propertyFlags;
    if (!(type_bits & (1u << i)) || (flags & required) != required || (flags & excluded)) continue;
    const uint64_t heap = properties.memoryHeaps[properties.memoryTypes[i].heapIndex].size;
    RequireSupport(bytes <= heap, fmt::format("a buffer of {} MiB in memory that is {}: its heap holds {} MiB",
                                              bytes >> 20, kind, heap >> 20));
    return i;
  }
  throw Unsupported(fmt::format("no memory type that is {}", kind));
}

}  // namespace

void CopyBytes(std::byte* to, const std::byte* from, size_t n) {
  ParallelFor(n, size_t{4} << 20, [&](size_t begin, size_t end) { std::memcpy(to + begin, from + begin, end - begin); });
}

bool EqualBytes(const std::byte* a, const std::byte* b, size_t n) {
  std::atomic<bool> differ{false};
  ParallelFor(n, size_t{4} << 20, [&](size_t begin, size_t end) {
    if (!differ.load(std::memory_order_relaxed) && std::memcmp(a + begin, b + begin, end - begin) != 0) differ = true;
  });
  return !differ;
}

Staging::Staging(Context& context) : context(context), buffer(context.TakeStaging()) {}
Staging::~Staging() { context.ReturnStaging(std::move(buffer)); }

Buffer::Buffer(Context& context, uint64_t bytes, Memory memory, bool uniform) : context_(&context), size_(bytes) {
  Require(bytes > 0, "a buffer of 0 bytes");
  const DeviceInfo& info = context.info();
  Require(bytes <= info.max_allocation_bytes,
          fmt::format("a buffer of {} MiB is larger than the device's maxMemoryAllocationSize ({} MiB)",
                      bytes >> 20, info.max_allocation_bytes >> 20));
  buffer_ = CSBENCH_VK(vk::raii::Buffer(
      context.device(),
      vk::BufferCreateInfo{.size = bytes,
                           .usage = vk::BufferUsageFlagBits::eStorageBuffer |
                                    vk::BufferUsageFlagBits::eTransferSrc |
                                    vk::BufferUsageFlagBits::eTransferDst |
                                    (uniform ? vk::BufferUsageFlagBits::eUniformBuffer : vk::BufferUsageFlags{}),
                           .sharingMode = vk::SharingMode::eExclusive}));
  auto requirements = buffer_.getMemoryRequirements();
  using F = vk::MemoryPropertyFlagBits;
  uint32_t type = 0;
  if (memory == Memory::kDevice) {
    type = context.FindMemoryType(requirements.memoryTypeBits, F::eDeviceLocal, F::eDeviceLocal);
  } else if (memory == Memory::kHost) {
    type = context.FindMemoryType(requirements.memoryTypeBits, F::eHostVisible | F::eHostCoherent,
                                  F::eHostVisible | F::eHostCoherent | F::eHostCached);
  } else {
    type = ExactHostType(context, requirements.memoryTypeBits, memory, bytes);
  }
  memory_ = CSBENCH_VK(vk::raii::DeviceMemory(
      context.device(),
      vk::MemoryAllocateInfo{.allocationSize = requirements.size, .memoryTypeIndex = type}));
  buffer_.bindMemory(*memory_, 0);
  if (memory != Memory::kDevice) mapped_ = static_cast<std::byte*>(memory_.mapMemory(0, bytes));
}

std::span<std::byte> Buffer::mapped() const {
  Require(mapped_ != nullptr, "mapped() on a device-local buffer");
  return {mapped_, size_};
}

void Buffer::Upload(std::span<const std::byte> bytes, uint64_t offset) {
  Require(offset + bytes.size() <= size_, "upload past the end of a buffer");
  if (mapped_ != nullptr) {
    std::memcpy(mapped_ + offset, bytes.data(), bytes.size());
    return;
  }
  Staging lease(*context_);
  Buffer& staging = *lease.buffer;
  for (uint64_t done = 0; done < bytes.size(); done += staging.size()) {
    uint64_t n = std::min<uint64_t>(staging.size(), bytes.size() - done);
    CopyBytes(staging.mapped_, bytes.data() + done, n);
    context_->Run([&](Commands& c) { c.Copy(staging, 0, *this, offset + done, n); });
  }
}

void Buffer::Download(std::span<std::byte> out, uint64_t offset) const {
  Require(offset + out.size() <= size_, "download past the end of a buffer");
  if (mapped_ != nullptr) {
    std::memcpy(out.data(), mapped_ + offset, out.size());
    return;
  }
  Staging lease(*context_);
  const Buffer& staging = *lease.buffer;
  for (uint64_t done = 0; done < out.size(); done += staging.size()) {
    uint64_t n = std::min<uint64_t>(staging.size(), out.size() - done);
    context_->Run([&](Commands& c) { c.Copy(*this, offset + done, staging, 0, n); });
    CopyBytes(out.data() + done, staging.mapped_, n);
  }
}

bool SameBytes(Context& context, const Buffer& a, const Buffer& b, uint64_t bytes) {
  Require(bytes <= a.size() && bytes <= b.size(), "comparing past the end of a buffer");
  Staging first(context);
  Staging second(context);
  for (uint64_t done = 0; done < bytes; done += kStagingBytes) {
    const uint64_t n = std::min<uint64_t>(kStagingBytes, bytes - done);
    context.Run([&](Commands& c) {
      c.Copy(a, done, *first.buffer, 0, n);
      c.Copy(b, done, *second.buffer, 0, n);
    });
    if (!EqualBytes(first.buffer->mapped().data(), second.buffer->mapped().data(), n)) return false;
  }
  return true;
}

}  // namespace csbench
