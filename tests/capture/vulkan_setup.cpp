#include "vulkan_setup.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace capture_program {

namespace {
const char* program_name = "capture program";
}  // namespace

void Check(VkResult result, const char* what) {
  if (result != VK_SUCCESS) {
    std::fprintf(stderr, "%s: %s failed: %d\n", program_name, what, static_cast<int>(result));
    std::exit(10);
  }
}

Gpu MakeGpu(const char* program, const char* extension) {
  program_name = program;
  Gpu gpu;
  VkApplicationInfo app{
      .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .pApplicationName = program, .apiVersion = VK_API_VERSION_1_1};
  VkInstanceCreateInfo info{.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app};
  Check(vkCreateInstance(&info, nullptr, &gpu.instance), "vkCreateInstance");
  uint32_t count = 0;
  Check(vkEnumeratePhysicalDevices(gpu.instance, &count, nullptr), "vkEnumeratePhysicalDevices");
  std::vector<VkPhysicalDevice> devices(count);
  Check(vkEnumeratePhysicalDevices(gpu.instance, &count, devices.data()), "vkEnumeratePhysicalDevices");
  for (VkPhysicalDevice physical : devices) {
    uint32_t families = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &families, nullptr);
    std::vector<VkQueueFamilyProperties> props(families);
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &families, props.data());
    for (uint32_t f = 0; f < families && gpu.physical == VK_NULL_HANDLE; ++f) {
      if ((props[f].queueFlags & VK_QUEUE_COMPUTE_BIT) != 0) {
        gpu.physical = physical;
        gpu.family = f;
        gpu.timestamp_bits = props[f].timestampValidBits;
      }
    }
    if (gpu.physical != VK_NULL_HANDLE) break;
  }
  if (gpu.physical == VK_NULL_HANDLE) {
    std::fprintf(stderr, "%s: no Vulkan device with a compute queue\n", program_name);
    std::exit(10);
  }
  if (extension != nullptr) {
    uint32_t offered = 0;
    Check(vkEnumerateDeviceExtensionProperties(gpu.physical, nullptr, &offered, nullptr),
          "vkEnumerateDeviceExtensionProperties");
    std::vector<VkExtensionProperties> names(offered);
    Check(vkEnumerateDeviceExtensionProperties(gpu.physical, nullptr, &offered, names.data()),
          "vkEnumerateDeviceExtensionProperties");
    bool found = false;
    for (const VkExtensionProperties& name : names) found = found || std::strcmp(name.extensionName, extension) == 0;
    if (!found) {
      std::fprintf(stderr, "%s: the device does not offer %s\n", program_name, extension);
      std::exit(10);
    }
  }
  float priority = 1.0f;
  VkDeviceQueueCreateInfo queue{.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                .queueFamilyIndex = gpu.family,
                                .queueCount = 1,
                                .pQueuePriorities = &priority};
  VkDeviceCreateInfo device{
      .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .queueCreateInfoCount = 1, .pQueueCreateInfos = &queue};
  if (extension != nullptr) {
    device.enabledExtensionCount = 1;
    device.ppEnabledExtensionNames = &extension;
  }
  Check(vkCreateDevice(gpu.physical, &device, nullptr, &gpu.device), "vkCreateDevice");
  vkGetDeviceQueue(gpu.device, gpu.family, 0, &gpu.queue);
  VkCommandPoolCreateInfo pool{.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                               .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                               .queueFamilyIndex = gpu.family};
  Check(vkCreateCommandPool(gpu.device, &pool, nullptr, &gpu.pool), "vkCreateCommandPool");
  return gpu;
}

void DestroyGpu(Gpu& gpu) {
  vkDestroyCommandPool(gpu.device, gpu.pool, nullptr);
  vkDestroyDevice(gpu.device, nullptr);
  vkDestroyInstance(gpu.instance, nullptr);
  gpu = Gpu{};
}

uint32_t MemoryType(const Gpu& gpu, uint32_t type_bits, VkMemoryPropertyFlags want) {
  VkPhysicalDeviceMemoryProperties memory;
  vkGetPhysicalDeviceMemoryProperties(gpu.physical, &memory);
  for (uint32_t t = 0; t < memory.memoryTypeCount; ++t)
    if ((type_bits & (1u << t)) != 0 && (memory.memoryTypes[t].propertyFlags & want) == want) return t;
  Check(VK_ERROR_FEATURE_NOT_PRESENT, "a memory type");
  return 0;
}

Buffer MakeBuffer(const Gpu& gpu, VkDeviceSize bytes, VkBufferUsageFlags usage, VkMemoryPropertyFlags want) {
  Buffer out;
  VkBufferCreateInfo info{.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                          .size = bytes,
                          .usage = usage,
                          .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
  Check(vkCreateBuffer(gpu.device, &info, nullptr, &out.buffer), "vkCreateBuffer");
  VkMemoryRequirements needs;
  vkGetBufferMemoryRequirements(gpu.device, out.buffer, &needs);
  VkMemoryAllocateInfo allocate{.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                .allocationSize = needs.size,
                                .memoryTypeIndex = MemoryType(gpu, needs.memoryTypeBits, want)};
  Check(vkAllocateMemory(gpu.device, &allocate, nullptr, &out.memory), "vkAllocateMemory");
  Check(vkBindBufferMemory(gpu.device, out.buffer, out.memory, 0), "vkBindBufferMemory");
  if ((want & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) != 0)
    Check(vkMapMemory(gpu.device, out.memory, 0, VK_WHOLE_SIZE, 0, &out.data), "vkMapMemory");
  return out;
}

void FreeBuffer(const Gpu& gpu, Buffer& buffer) {
  vkDestroyBuffer(gpu.device, buffer.buffer, nullptr);
  vkFreeMemory(gpu.device, buffer.memory, nullptr);
  buffer = Buffer{};
}

}  // namespace capture_program
