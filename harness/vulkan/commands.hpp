// Recording of dispatches, barriers, fills and copies into a command buffer.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <type_traits>

#include <vulkan/vulkan_raii.hpp>

namespace csbench {

class Bindings;
class Buffer;
class Context;
class Kernel;

class Commands {
 public:
  Commands(Context& context, const vk::raii::CommandBuffer& command_buffer)
      : context_(&context), cb_(&command_buffer) {}

  // One dispatch of `groups` workgroups. `offsets` are the dynamic offsets of the bindings
  // (one per binding, or empty for all zero); `push` the push-constant bytes.
  void Dispatch(const Kernel& kernel, const Bindings& bindings, std::array<uint32_t, 3> groups,
                std::span<const uint32_t> offsets = {}, std::span<const std::byte> push = {});
  // Push constants from a struct (or std::array) of plain values; a span goes to the overload above.
  template <typename Push>
    requires(!std::is_convertible_v<const Push&, std::span<const std::byte>> && std::is_trivially_copyable_v<Push>)
  void Dispatch(const Kernel& kernel, const Bindings& bindings, std::array<uint32_t, 3> groups,
                std::span<const uint32_t> offsets, const Push& push) {
    Dispatch(kernel, bindings, groups, offsets, std::as_bytes(std::span(&push, 1)));
  }

  // Makes every earlier shader or transfer write visible to every later shader or transfer
  // access. Between two dispatches it also makes the second wait for the first, so a timed batch
  // measures kernels one after another, never overlapped. The host is not in it: a barrier that
  // also made the writes available to the host would add about a microsecond to each dependent
  // dispatch on a GPU (docs/perf-notes.md, section 13), which no application pays between two
  // kernels.
  void Barrier();
  // Makes every earlier shader or transfer write available to the host's reads: the end of every
  // command buffer csbench submits (Context::Run, TimedBatch, PipelinedBatches), before the fence
  // the host waits on.
  void HostBarrier();

  // Fills `bytes` bytes (0: to the end) from `offset` with the 32-bit word `word`.
  void Fill(const Buffer& buffer, uint32_t word, uint64_t offset = 0, uint64_t bytes = 0);
  void Copy(const Buffer& src, uint64_t src_offset, const Buffer& dst, uint64_t dst_offset, uint64_t bytes);

  const vk::raii::CommandBuffer& raw() const { return *cb_; }

 private:
  Context* context_;
  const vk::raii::CommandBuffer* cb_;
};

}  // namespace csbench
