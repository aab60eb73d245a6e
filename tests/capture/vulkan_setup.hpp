// The Vulkan set-up the capture test's programs (capture_demo, vkfft_driver) share, written as an
// application would write it, without csbench: an instance, the first device with a compute queue,
// that queue and a command pool; buffers bound to memory of the properties asked for. A failed call
// prints the program's name, the call and its VkResult, and exits 10.
#pragma once

#include <vulkan/vulkan.h>

namespace capture_program {

// Exits 10 with "<program>: <what> failed: <result>" unless `result` is VK_SUCCESS.
void Check(VkResult result, const char* what);

struct Gpu {
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t family = 0;
  uint32_t timestamp_bits = 0;  // the queue family's timestampValidBits: 0, no timestamps
  VkCommandPool pool = VK_NULL_HANDLE;  // its command buffers can be reset one by one
};

// A Vulkan 1.1 instance for `program` (also the name failures start with), the first device with a
// compute queue (none: exit 10), one queue of the first such family and a command pool. The device
// extension `extension` is enabled where given; a device that does not offer it exits 10 with
// "<program>: the device does not offer <extension>".
Gpu MakeGpu(const char* program, const char* extension = nullptr);
void DestroyGpu(Gpu& gpu);

struct Buffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  void* data = nullptr;  // mapped whole, where the memory is host-visible
};

// The first memory type of `type_bits` that has every property of `want` (none: exit 10).
uint32_t MemoryType(const Gpu& gpu, uint32_t type_bits, VkMemoryPropertyFlags want);

// A buffer of `bytes` for `usage`, in memory with the properties `want`.
Buffer MakeBuffer(const Gpu& gpu, VkDeviceSize bytes, VkBufferUsageFlags usage, VkMemoryPropertyFlags want);
void FreeBuffer(const Gpu& gpu, Buffer& buffer);

}  // namespace capture_program
