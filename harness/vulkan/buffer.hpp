// Storage buffers in device memory, and host-visible ones for transfers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include <vulkan/vulkan_raii.hpp>

namespace csbench {

class Context;

enum class Memory {
  kDevice,
  kHost,
  // The host-visible, not device-local memory types a transfer can go through, each exactly
  // (Unsupported where the device has none, or its heap is smaller than the buffer): system
  // memory the CPU writes without caching (write-combined), and system memory it caches.
  kHostUncached,
  kHostCached,
};

// Transfers larger than this go through the staging buffer in pieces, so that a 530 MB image
// does not need a second 530 MB of host-visible memory.
inline constexpr uint64_t kStagingBytes = 64ull << 20;

class Buffer {
 public:
  // kDevice: device-local storage buffer (also a copy source and destination).
  // kHost: host-visible, coherent, mapped for the buffer's lifetime; cached where the device
  // offers it, since the host reads results back from it. The other host kinds are mapped too.
  // `uniform`: also usable as a uniform buffer (a manifest's [[uniform]]).
  Buffer(Context& context, uint64_t bytes, Memory memory = Memory::kDevice, bool uniform = false);

  uint64_t size() const { return size_; }
  // The mapped bytes of a kHost buffer; Error for a device buffer.
  std::span<std::byte> mapped() const;

  // Copies `bytes` into this buffer at `offset` through a staging buffer (or directly when
  // mapped) and waits.
  void Upload(std::span<const std::byte> bytes, uint64_t offset = 0);
  // Copies `out.size()` bytes from `offset` into `out` and waits.
  void Download(std::span<std::byte> out, uint64_t offset = 0) const;

  vk::Buffer handle() const { return *buffer_; }

 private:
  Context* context_;
  uint64_t size_;
  vk::raii::Buffer buffer_ = nullptr;
  vk::raii::DeviceMemory memory_ = nullptr;
  std::byte* mapped_ = nullptr;
};

// memcpy on the host's threads for pieces of several MiB: one thread copying a 64 MiB piece out of
// host-visible memory set the pace of a 512 MiB check's download (buffers' and images' transfers).
void CopyBytes(std::byte* to, const std::byte* from, size_t n);
// Whether n bytes at a and b are the same, compared on the host's threads as CopyBytes copies.
bool EqualBytes(const std::byte* a, const std::byte* b, size_t n);

// A staging buffer of the context's (Context::TakeStaging), given back when the transfer is done.
struct Staging {
  explicit Staging(Context& context);
  ~Staging();
  Staging(const Staging&) = delete;
  Staging& operator=(const Staging&) = delete;

  Context& context;
  std::unique_ptr<Buffer> buffer;
};

// Whether the first `bytes` of `a` and `b` are equal, compared piece by piece through two staging
// buffers: a check of a 512 MiB copy needs no 1 GiB of host memory.
bool SameBytes(Context& context, const Buffer& a, const Buffer& b, uint64_t bytes);

}  // namespace csbench
