// The capture layer's entry: the loader's negotiation (the library's only export), the
// instance and device chains, and the configuration csbench-capture gives through the
// environment. The layer is off unless CSBENCH_CAPTURE_MODE is set: loaded into a program
// without it, every call passes through.
#include "capture/layer/layer.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <sstream>

namespace csbench::capture {

namespace {

uint64_t ParseNumber(const char* text, uint64_t fallback) {
  if (text == nullptr || *text == '\0') return fallback;
  char* end = nullptr;
  uint64_t value = std::strtoull(text, &end, 10);
  return *end == '\0' ? value : fallback;
}

}  // namespace

Config ReadConfig() {
  Config config;
  const char* mode = std::getenv("CSBENCH_CAPTURE_MODE");
  const char* dir = std::getenv("CSBENCH_CAPTURE_DIR");
  if (mode == nullptr || dir == nullptr || *dir == '\0') return config;
  // The processes a program starts inherit the environment (a wrapper script's program, a
  // launcher's children): the first of them to make a Vulkan instance claims the folder, and the
  // others pass every call through rather than write over its files.
  std::error_code ignored;
  std::filesystem::create_directories(dir, ignored);
  int claim = open((std::filesystem::path(dir) / "claimed").c_str(), O_CREAT | O_EXCL | O_WRONLY, 0644);
  if (claim < 0) return config;
  std::string pid = std::to_string(getpid()) + "\n";
  ssize_t written = write(claim, pid.data(), pid.size());
  (void)written;
  close(claim);
  if (std::strcmp(mode, "count") == 0) config.mode = Config::Mode::kCount;
  if (std::strcmp(mode, "capture") == 0) config.mode = Config::Mode::kCapture;
  config.dir = dir;
  config.max_bytes = ParseNumber(std::getenv("CSBENCH_CAPTURE_MAX_BYTES"), config.max_bytes);
  if (const char* nth = std::getenv("CSBENCH_CAPTURE_NTH")) {
    std::istringstream in(nth);
    for (std::string item; std::getline(in, item, ',');) config.nth.insert(ParseNumber(item.c_str(), 0));
  }
  // at:SERIAL:ORDINAL:SUBMISSION, seq:SERIAL:FIRST:LAST:SUBMISSION (a sequence: its first and last
  // dispatches' ordinals) or key:SIGNATURE(hex):X:Y:Z, separated by commas; a target the
  // layer cannot read keeps its place in the list (its folder number) and matches nothing.
  if (const char* targets = std::getenv("CSBENCH_CAPTURE_TARGETS")) {
    std::istringstream in(targets);
    for (std::string item; std::getline(in, item, ',');) {
      Config::Target target{.serial = UINT64_MAX};
      std::istringstream parts(item);
      std::string kind;
      std::getline(parts, kind, ':');
      std::vector<std::string> fields;
      for (std::string field; std::getline(parts, field, ':');) fields.push_back(field);
      if (kind == "at" && fields.size() == 3) {
        target.serial = ParseNumber(fields[0].c_str(), UINT64_MAX);
        target.ordinal = static_cast<uint32_t>(ParseNumber(fields[1].c_str(), 0));
        target.last = target.ordinal;
        target.submission = static_cast<uint32_t>(ParseNumber(fields[2].c_str(), 1));
      } else if (kind == "seq" && fields.size() == 4) {
        target.sequence = true;
        target.serial = ParseNumber(fields[0].c_str(), UINT64_MAX);
        target.ordinal = static_cast<uint32_t>(ParseNumber(fields[1].c_str(), 0));
        target.last = static_cast<uint32_t>(ParseNumber(fields[2].c_str(), 0));
        target.submission = static_cast<uint32_t>(ParseNumber(fields[3].c_str(), 1));
      } else if (kind == "key" && fields.size() == 4) {
        target.by_key = true;
        target.signature = std::strtoull(fields[0].c_str(), nullptr, 16);
        for (int d = 0; d < 3; ++d) target.groups[d] = static_cast<uint32_t>(ParseNumber(fields[d + 1].c_str(), 0));
      }
      config.targets.push_back(target);
    }
  }
  return config;
}

Layer& TheLayer() {
  // Never destroyed before the program's last Vulkan call: a function-local static outlives the
  // calls made from other static destructors that run after it is made.
  static Layer layer{.config = ReadConfig()};
  return layer;
}

Layer::~Layer() {
  // A program that exits without destroying its device still leaves a summary.
  if (config.mode == Config::Mode::kCount) WriteSummary(*this);
}

Device* DeviceOf(Layer& layer, const void* dispatchable) {
  auto it = layer.devices.find(DispatchKeyOf(dispatchable));
  return it == layer.devices.end() ? nullptr : it->second.get();
}

Device* LockedDeviceOf(Layer& layer, const void* dispatchable) {
  std::lock_guard lock(layer.mutex);
  return DeviceOf(layer, dispatchable);
}

namespace {

template <typename Info>
Info* FindLink(const void* next, VkStructureType type) {
  auto* info = static_cast<Info*>(const_cast<void*>(next));
  while (info != nullptr && !(info->sType == type && info->function == VK_LAYER_LINK_INFO))
    info = static_cast<Info*>(const_cast<void*>(info->pNext));
  return info;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateInstance(const VkInstanceCreateInfo* info, const VkAllocationCallbacks* allocator,
                                              VkInstance* instance) {
  auto* link = FindLink<VkLayerInstanceCreateInfo>(info->pNext, VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO);
  if (link == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  PFN_vkGetInstanceProcAddr next = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  auto create = reinterpret_cast<PFN_vkCreateInstance>(next(VK_NULL_HANDLE, "vkCreateInstance"));
  VkResult result = create(info, allocator, instance);
  if (result != VK_SUCCESS) return result;
  auto table = std::make_unique<InstanceTable>();
  table->GetInstanceProcAddr = next;
  table->DestroyInstance = reinterpret_cast<PFN_vkDestroyInstance>(next(*instance, "vkDestroyInstance"));
  table->GetPhysicalDeviceMemoryProperties =
      reinterpret_cast<PFN_vkGetPhysicalDeviceMemoryProperties>(next(*instance, "vkGetPhysicalDeviceMemoryProperties"));
  table->GetPhysicalDeviceProperties =
      reinterpret_cast<PFN_vkGetPhysicalDeviceProperties>(next(*instance, "vkGetPhysicalDeviceProperties"));
  auto enumerate = reinterpret_cast<PFN_vkEnumeratePhysicalDevices>(next(*instance, "vkEnumeratePhysicalDevices"));
  Layer& layer = TheLayer();
  std::lock_guard lock(layer.mutex);
  uint32_t count = 0;
  if (enumerate(*instance, &count, nullptr) == VK_SUCCESS) {
    std::vector<VkPhysicalDevice> physical(count);
    if (enumerate(*instance, &count, physical.data()) >= VK_SUCCESS)
      for (uint32_t i = 0; i < count; ++i) layer.physical_of[physical[i]] = table.get();
  }
  layer.instance_of[*instance] = table.get();
  layer.instances[DispatchKeyOf(*instance)] = std::move(table);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyInstance(VkInstance instance, const VkAllocationCallbacks* allocator) {
  Layer& layer = TheLayer();
  std::unique_ptr<InstanceTable> table;
  {
    std::lock_guard lock(layer.mutex);
    auto it = layer.instances.find(DispatchKeyOf(instance));
    if (it == layer.instances.end()) return;
    table = std::move(it->second);
    layer.instances.erase(it);
    layer.instance_of.erase(instance);
    std::erase_if(layer.physical_of, [&](const auto& entry) { return entry.second == table.get(); });
  }
  table->DestroyInstance(instance, allocator);
}

// Whether the device is made with bufferDeviceAddress on, through a features struct in pNext.
bool EnablesDeviceAddress(const VkDeviceCreateInfo* info) {
  for (auto* next = static_cast<const VkBaseInStructure*>(info->pNext); next != nullptr; next = next->pNext) {
    if (next->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES &&
        reinterpret_cast<const VkPhysicalDeviceVulkan12Features*>(next)->bufferDeviceAddress)
      return true;
    if (next->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES &&
        reinterpret_cast<const VkPhysicalDeviceBufferDeviceAddressFeatures*>(next)->bufferDeviceAddress)
      return true;
  }
  return false;
}

#define CSBENCH_LOAD(name) t.name = reinterpret_cast<PFN_vk##name>(next(*device, "vk" #name))
#define CSBENCH_LOAD_AS(field, name) t.field = reinterpret_cast<decltype(t.field)>(next(*device, name))

void LoadDeviceTable(DeviceTable& t, PFN_vkGetDeviceProcAddr next, const VkDevice* device) {
  t.GetDeviceProcAddr = next;
  CSBENCH_LOAD(DestroyDevice);
  CSBENCH_LOAD(CreateShaderModule);
  CSBENCH_LOAD(DestroyShaderModule);
  CSBENCH_LOAD(CreateComputePipelines);
  CSBENCH_LOAD(DestroyPipeline);
  CSBENCH_LOAD(CreateDescriptorSetLayout);
  CSBENCH_LOAD(CreatePipelineLayout);
  CSBENCH_LOAD(AllocateDescriptorSets);
  CSBENCH_LOAD(UpdateDescriptorSets);
  CSBENCH_LOAD(CreateDescriptorUpdateTemplate);
  CSBENCH_LOAD_AS(CreateDescriptorUpdateTemplateKHR, "vkCreateDescriptorUpdateTemplateKHR");
  CSBENCH_LOAD(UpdateDescriptorSetWithTemplate);
  CSBENCH_LOAD_AS(UpdateDescriptorSetWithTemplateKHR, "vkUpdateDescriptorSetWithTemplateKHR");
  CSBENCH_LOAD(CreateBuffer);
  CSBENCH_LOAD(DestroyBuffer);
  CSBENCH_LOAD(BindBufferMemory);
  CSBENCH_LOAD(BindBufferMemory2);
  CSBENCH_LOAD_AS(BindBufferMemory2KHR, "vkBindBufferMemory2KHR");
  CSBENCH_LOAD(GetBufferMemoryRequirements);
  CSBENCH_LOAD(AllocateMemory);
  CSBENCH_LOAD(FreeMemory);
  CSBENCH_LOAD(MapMemory);
  CSBENCH_LOAD(BeginCommandBuffer);
  CSBENCH_LOAD(CmdBindPipeline);
  CSBENCH_LOAD(CmdBindDescriptorSets);
  CSBENCH_LOAD(CmdPushDescriptorSetKHR);
  CSBENCH_LOAD(CmdPushDescriptorSetWithTemplateKHR);
  CSBENCH_LOAD(CmdPushConstants);
  CSBENCH_LOAD(CmdDispatch);
  CSBENCH_LOAD(CmdDispatchBase);
  CSBENCH_LOAD(CmdDispatchIndirect);
  CSBENCH_LOAD(CmdPipelineBarrier);
  CSBENCH_LOAD(CmdCopyBuffer);
  CSBENCH_LOAD(CmdCopyImageToBuffer);
  CSBENCH_LOAD(CmdFillBuffer);
  CSBENCH_LOAD(CmdUpdateBuffer);
  CSBENCH_LOAD(CmdCopyBufferToImage);
  CSBENCH_LOAD(CmdCopyImage);
  CSBENCH_LOAD(CmdBlitImage);
  CSBENCH_LOAD(CmdClearColorImage);
  CSBENCH_LOAD(CmdCopyBuffer2);
  CSBENCH_LOAD_AS(CmdCopyBuffer2KHR, "vkCmdCopyBuffer2KHR");
  CSBENCH_LOAD(CmdCopyImage2);
  CSBENCH_LOAD_AS(CmdCopyImage2KHR, "vkCmdCopyImage2KHR");
  CSBENCH_LOAD(CmdCopyBufferToImage2);
  CSBENCH_LOAD_AS(CmdCopyBufferToImage2KHR, "vkCmdCopyBufferToImage2KHR");
  CSBENCH_LOAD(CmdCopyImageToBuffer2);
  CSBENCH_LOAD_AS(CmdCopyImageToBuffer2KHR, "vkCmdCopyImageToBuffer2KHR");
  CSBENCH_LOAD(CmdBlitImage2);
  CSBENCH_LOAD_AS(CmdBlitImage2KHR, "vkCmdBlitImage2KHR");
  CSBENCH_LOAD(CreateImage);
  CSBENCH_LOAD(DestroyImage);
  CSBENCH_LOAD(CreateImageView);
  CSBENCH_LOAD(CreateSampler);
  CSBENCH_LOAD(DestroySampler);
  CSBENCH_LOAD(DestroyImageView);
  CSBENCH_LOAD(CmdExecuteCommands);
  CSBENCH_LOAD(QueueSubmit);
  CSBENCH_LOAD(QueueSubmit2);
  CSBENCH_LOAD_AS(QueueSubmit2KHR, "vkQueueSubmit2KHR");
  CSBENCH_LOAD(QueueWaitIdle);
  // A device of Vulkan 1.0 may offer these by their extensions' names only.
  if (t.CmdDispatchBase == nullptr) CSBENCH_LOAD_AS(CmdDispatchBase, "vkCmdDispatchBaseKHR");
  if (t.QueueSubmit2 == nullptr) t.QueueSubmit2 = t.QueueSubmit2KHR;
  if (t.UpdateDescriptorSetWithTemplate == nullptr)
    t.UpdateDescriptorSetWithTemplate = t.UpdateDescriptorSetWithTemplateKHR;
  if (t.CreateDescriptorUpdateTemplate == nullptr)
    t.CreateDescriptorUpdateTemplate = t.CreateDescriptorUpdateTemplateKHR;
}

#undef CSBENCH_LOAD
#undef CSBENCH_LOAD_AS

VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(VkPhysicalDevice physical, const VkDeviceCreateInfo* info,
                                            const VkAllocationCallbacks* allocator, VkDevice* device) {
  auto* link = FindLink<VkLayerDeviceCreateInfo>(info->pNext, VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO);
  if (link == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  PFN_vkGetInstanceProcAddr next_instance = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  PFN_vkGetDeviceProcAddr next_device = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  auto create = reinterpret_cast<PFN_vkCreateDevice>(next_instance(VK_NULL_HANDLE, "vkCreateDevice"));
  VkResult result = create(physical, info, allocator, device);
  if (result != VK_SUCCESS) return result;
  auto data = std::make_unique<Device>();
  data->handle = *device;
  data->physical = physical;
  LoadDeviceTable(data->table, next_device, device);
  data->buffer_device_address = EnablesDeviceAddress(info);
  Layer& layer = TheLayer();
  std::lock_guard lock(layer.mutex);
  auto instance = layer.physical_of.find(physical);
  data->instance = instance == layer.physical_of.end() ? nullptr : instance->second;
  if (data->instance != nullptr && data->instance->GetPhysicalDeviceProperties != nullptr) {
    VkPhysicalDeviceProperties properties{};
    data->instance->GetPhysicalDeviceProperties(physical, &properties);
    std::copy_n(properties.limits.maxComputeWorkGroupCount, 3, data->max_groups.begin());
    layer.max_groups = data->max_groups;
  }
  layer.devices[DispatchKeyOf(*device)] = std::move(data);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL DestroyDevice(VkDevice device, const VkAllocationCallbacks* allocator) {
  Layer& layer = TheLayer();
  PFN_vkDestroyDevice destroy = nullptr;
  {
    std::lock_guard lock(layer.mutex);
    auto it = layer.devices.find(DispatchKeyOf(device));
    if (it == layer.devices.end()) return;
    destroy = it->second->table.DestroyDevice;
    if (layer.config.mode == Config::Mode::kCount) WriteSummary(layer);
    ReleaseCaptures(layer, *it->second);
    layer.devices.erase(it);
  }
  destroy(device, allocator);
}

PFN_vkVoidFunction OwnDeviceFunction(const char* name) {
  if (std::strcmp(name, "vkDestroyDevice") == 0) return reinterpret_cast<PFN_vkVoidFunction>(&DestroyDevice);
  if (PFN_vkVoidFunction f = TrackedFunction(name)) return f;
  if (PFN_vkVoidFunction f = ImageFunction(name)) return f;
  if (PFN_vkVoidFunction f = TransferFunction(name)) return f;
  return CommandFunction(name);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* name);

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetInstanceProcAddr(VkInstance instance, const char* name) {
  if (std::strcmp(name, "vkGetInstanceProcAddr") == 0)
    return reinterpret_cast<PFN_vkVoidFunction>(&GetInstanceProcAddr);
  if (std::strcmp(name, "vkCreateInstance") == 0) return reinterpret_cast<PFN_vkVoidFunction>(&CreateInstance);
  if (std::strcmp(name, "vkDestroyInstance") == 0) return reinterpret_cast<PFN_vkVoidFunction>(&DestroyInstance);
  if (std::strcmp(name, "vkCreateDevice") == 0) return reinterpret_cast<PFN_vkVoidFunction>(&CreateDevice);
  if (std::strcmp(name, "vkGetDeviceProcAddr") == 0) return reinterpret_cast<PFN_vkVoidFunction>(&GetDeviceProcAddr);
  if (instance != VK_NULL_HANDLE)
    if (PFN_vkVoidFunction own = OwnDeviceFunction(name)) return own;
  if (instance == VK_NULL_HANDLE) return nullptr;
  Layer& layer = TheLayer();
  PFN_vkGetInstanceProcAddr next = nullptr;
  {
    std::lock_guard lock(layer.mutex);
    auto it = layer.instances.find(DispatchKeyOf(instance));
    if (it == layer.instances.end()) return nullptr;
    next = it->second->GetInstanceProcAddr;
  }
  return next(instance, name);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL GetDeviceProcAddr(VkDevice device, const char* name) {
  if (std::strcmp(name, "vkGetDeviceProcAddr") == 0) return reinterpret_cast<PFN_vkVoidFunction>(&GetDeviceProcAddr);
  Layer& layer = TheLayer();
  PFN_vkGetDeviceProcAddr next = nullptr;
  {
    std::lock_guard lock(layer.mutex);
    Device* data = DeviceOf(layer, device);
    if (data == nullptr) return nullptr;
    next = data->table.GetDeviceProcAddr;
  }
  // A function the driver does not offer stays absent, wrapped or not.
  PFN_vkVoidFunction down = next(device, name);
  if (down == nullptr) return nullptr;
  if (PFN_vkVoidFunction own = OwnDeviceFunction(name)) return own;
  return down;
}

}  // namespace

}  // namespace csbench::capture

// Exported by hand: the Vulkan headers of Debian 13 no longer define VK_LAYER_EXPORT.
extern "C" __attribute__((visibility("default"))) VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface* version) {
  if (version == nullptr || version->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT) return VK_ERROR_INITIALIZATION_FAILED;
  if (version->loaderLayerInterfaceVersion > 2) version->loaderLayerInterfaceVersion = 2;
  if (version->loaderLayerInterfaceVersion < 2) return VK_ERROR_INITIALIZATION_FAILED;
  version->pfnGetInstanceProcAddr = &csbench::capture::GetInstanceProcAddr;
  version->pfnGetDeviceProcAddr = &csbench::capture::GetDeviceProcAddr;
  version->pfnGetPhysicalDeviceProcAddr = nullptr;
  return VK_SUCCESS;
}
