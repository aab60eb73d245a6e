#include "harness/vulkan/context.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <chrono>
#include <iostream>

#include "harness/base/compat.hpp"
#include "harness/base/error.hpp"
#include "harness/base/host.hpp"
#include "harness/base/ledger.hpp"
#include "harness/vulkan/buffer.hpp"
#include "harness/vulkan/clock_probe.hpp"
#include "harness/vulkan/commands.hpp"
#include "harness/vulkan/device_choice.hpp"
#include "harness/vulkan/kernel.hpp"
#include "harness/vulkan/submission_clock.hpp"

namespace csbench {
namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

std::string TypeName(vk::PhysicalDeviceType type) {
  switch (type) {
    case vk::PhysicalDeviceType::eDiscreteGpu: return "discrete";
    case vk::PhysicalDeviceType::eIntegratedGpu: return "integrated";
    case vk::PhysicalDeviceType::eVirtualGpu: return "virtual";
    case vk::PhysicalDeviceType::eCpu: return "cpu";
    default: return "other";
  }
}

// The first queue family with compute and a timer; else the first with compute.
std::optional<uint32_t> ChooseQueueFamily(const std::vector<vk::QueueFamilyProperties>& families) {
  std::optional<uint32_t> untimed;
  for (uint32_t i = 0; i < families.size(); ++i) {
    if (!(families[i].queueFlags & vk::QueueFlagBits::eCompute)) continue;
    if (families[i].timestampValidBits > 0) return i;
    if (!untimed) untimed = i;
  }
  return untimed;
}

bool HasExtension(const vk::raii::PhysicalDevice& device, std::string_view name) {
  auto extensions = device.enumerateDeviceExtensionProperties();
  return std::any_of(extensions.begin(), extensions.end(),
                     [&](const vk::ExtensionProperties& e) { return std::string_view(e.extensionName.data()) == name; });
}

DeviceInfo InfoOf(const vk::raii::PhysicalDevice& device, uint32_t index) {
  auto chain = device.getProperties2<vk::PhysicalDeviceProperties2, vk::PhysicalDeviceSubgroupProperties,
                                     vk::PhysicalDeviceDriverProperties>();
  const auto& props = chain.get<vk::PhysicalDeviceProperties2>().properties;
  const auto& subgroup = chain.get<vk::PhysicalDeviceSubgroupProperties>();
  const auto& driver = chain.get<vk::PhysicalDeviceDriverProperties>();
  DeviceInfo info;
  info.index = index;
  info.name = props.deviceName.data();
  info.type = TypeName(props.deviceType);
  info.driver_name = driver.driverName.data();
  info.driver_info = driver.driverInfo.data();
  info.vendor_id = props.vendorID;
  info.device_id = props.deviceID;
  info.driver_version = props.driverVersion;
  info.api_version = props.apiVersion;
  info.subgroup_size = subgroup.subgroupSize;
  // A subgroup operation class in compute shaders (with the basic operations every one needs).
  const auto in_compute = [&](vk::SubgroupFeatureFlagBits operations) {
    const vk::SubgroupFeatureFlags needed = operations | vk::SubgroupFeatureFlagBits::eBasic;
    return (subgroup.supportedStages & vk::ShaderStageFlagBits::eCompute) &&
           (subgroup.supportedOperations & needed) == needed;
  };
  info.subgroup_arithmetic = in_compute(vk::SubgroupFeatureFlagBits::eArithmetic);
  info.subgroup_ballot = in_compute(vk::SubgroupFeatureFlagBits::eBallot);
  info.subgroup_shuffle_relative = in_compute(vk::SubgroupFeatureFlagBits::eShuffleRelative);
  info.subgroup_shuffle = in_compute(vk::SubgroupFeatureFlagBits::eShuffle);
  if (subgroup.supportedStages & vk::ShaderStageFlagBits::eCompute) {
    info.subgroup_operations = static_cast<uint32_t>(subgroup.supportedOperations);
  }
  info.timestamp_period_ns = static_cast<double>(props.limits.timestampPeriod);
  info.max_workgroup_invocations = props.limits.maxComputeWorkGroupInvocations;
  info.max_workgroup_size = props.limits.maxComputeWorkGroupSize;
  info.max_workgroup_count = props.limits.maxComputeWorkGroupCount;
  info.max_push_constant_bytes = props.limits.maxPushConstantsSize;
  info.max_storage_buffers_per_stage = props.limits.maxPerStageDescriptorStorageBuffers;
  info.max_dynamic_storage_buffers = props.limits.maxDescriptorSetStorageBuffersDynamic;
  info.max_shared_memory_bytes = props.limits.maxComputeSharedMemorySize;
  info.max_storage_buffer_range = props.limits.maxStorageBufferRange;
  info.max_uniform_buffer_range = props.limits.maxUniformBufferRange;
  info.min_uniform_buffer_offset_alignment = props.limits.minUniformBufferOffsetAlignment;
  info.max_dynamic_uniform_buffers = props.limits.maxDescriptorSetUniformBuffersDynamic;
  info.min_storage_buffer_offset_alignment = props.limits.minStorageBufferOffsetAlignment;
  info.min_subgroup_size = info.max_subgroup_size = info.subgroup_size;
  if (info.api_version >= VK_API_VERSION_1_3 || HasExtension(device, VK_EXT_SUBGROUP_SIZE_CONTROL_EXTENSION_NAME)) {
    auto sizes = device.getProperties2<vk::PhysicalDeviceProperties2, vk::PhysicalDeviceSubgroupSizeControlProperties>();
    const auto& control = sizes.get<vk::PhysicalDeviceSubgroupSizeControlProperties>();
    info.min_subgroup_size = control.minSubgroupSize;
    info.max_subgroup_size = control.maxSubgroupSize;
  }
  auto maintenance = device.getProperties2<vk::PhysicalDeviceProperties2,
                                           vk::PhysicalDeviceMaintenance3Properties>();
  info.max_allocation_bytes =
      maintenance.get<vk::PhysicalDeviceMaintenance3Properties>().maxMemoryAllocationSize;
  auto memory = device.getMemoryProperties();
  for (uint32_t i = 0; i < memory.memoryHeapCount; ++i) {
    if (memory.memoryHeaps[i].flags & vk::MemoryHeapFlagBits::eDeviceLocal) {
      info.device_local_bytes = std::max<uint64_t>(info.device_local_bytes, memory.memoryHeaps[i].size);
    }
  }
  // Known, and missing until the device says otherwise (a 1.1 device has no 1.2 feature query).
  for (const char* capability :
       {"StorageBuffer16BitAccess", "UniformAndStorageBuffer16BitAccess", "StoragePushConstant16",
        "StorageBuffer8BitAccess", "UniformAndStorageBuffer8BitAccess", "StoragePushConstant8", "Float16", "Int8",
        "Int64Atomics", "VulkanMemoryModel", "RuntimeDescriptorArray", "UniformBufferArrayNonUniformIndexing",
        "SampledImageArrayNonUniformIndexing", "StorageBufferArrayNonUniformIndexing",
        "StorageImageArrayNonUniformIndexing"}) {
    info.capability_features[capability] = false;
  }
  if (info.api_version >= VK_API_VERSION_1_2) {
    auto features = device.getFeatures2<vk::PhysicalDeviceFeatures2, vk::PhysicalDeviceVulkan11Features,
                                        vk::PhysicalDeviceVulkan12Features>();
    info.storage_buffer_16bit = features.get<vk::PhysicalDeviceVulkan11Features>().storageBuffer16BitAccess;
    info.shader_float16 = features.get<vk::PhysicalDeviceVulkan12Features>().shaderFloat16;
    const auto& v11 = features.get<vk::PhysicalDeviceVulkan11Features>();
    const auto& v12 = features.get<vk::PhysicalDeviceVulkan12Features>();
    auto& c = info.capability_features;
    c["StorageBuffer16BitAccess"] = v11.storageBuffer16BitAccess;
    c["UniformAndStorageBuffer16BitAccess"] = v11.uniformAndStorageBuffer16BitAccess;
    c["StoragePushConstant16"] = v11.storagePushConstant16;
    c["StorageBuffer8BitAccess"] = v12.storageBuffer8BitAccess;
    c["UniformAndStorageBuffer8BitAccess"] = v12.uniformAndStorageBuffer8BitAccess;
    c["StoragePushConstant8"] = v12.storagePushConstant8;
    c["Float16"] = v12.shaderFloat16;
    c["Int8"] = v12.shaderInt8;
    c["Int64Atomics"] = v12.shaderBufferInt64Atomics;
    c["VulkanMemoryModel"] = v12.vulkanMemoryModel;
    // Descriptor indexing: a runtime-sized array of descriptors, and indices that differ between
    // the invocations of a subgroup (nonuniformEXT). Enabled with the rest of the 1.2 features.
    c["RuntimeDescriptorArray"] = v12.runtimeDescriptorArray;
    c["UniformBufferArrayNonUniformIndexing"] = v12.shaderUniformBufferArrayNonUniformIndexing;
    c["SampledImageArrayNonUniformIndexing"] = v12.shaderSampledImageArrayNonUniformIndexing;
    c["StorageBufferArrayNonUniformIndexing"] = v12.shaderStorageBufferArrayNonUniformIndexing;
    c["StorageImageArrayNonUniformIndexing"] = v12.shaderStorageImageArrayNonUniformIndexing;
    info.shared_int64_atomics = v12.shaderSharedInt64Atomics;
  }
  if (info.api_version >= VK_API_VERSION_1_3) {
    info.integer_dot_product = device.getFeatures2<vk::PhysicalDeviceFeatures2, vk::PhysicalDeviceVulkan13Features>()
                                   .get<vk::PhysicalDeviceVulkan13Features>()
                                   .shaderIntegerDotProduct;
  }
  {
    const vk::PhysicalDeviceFeatures core = device.getFeatures();
    auto& c = info.capability_features;
    c["Float64"] = core.shaderFloat64;
    c["Int64"] = core.shaderInt64;
    c["Int16"] = core.shaderInt16;
    c["StorageImageReadWithoutFormat"] = core.shaderStorageImageReadWithoutFormat;
    c["StorageImageWriteWithoutFormat"] = core.shaderStorageImageWriteWithoutFormat;
    c["StorageImageExtendedFormats"] = core.shaderStorageImageExtendedFormats;
    info.storage_image_read_without_format = core.shaderStorageImageReadWithoutFormat;
    info.storage_image_write_without_format = core.shaderStorageImageWriteWithoutFormat;
  }
  // Vulkan 1.3 has it among its features; before, the extension does (its feature struct is
  // Vulkan 1.3's, under the extension's name).
  if (info.api_version >= VK_API_VERSION_1_3) {
    info.robust_image_access = device.getFeatures2<vk::PhysicalDeviceFeatures2, vk::PhysicalDeviceVulkan13Features>()
                                   .get<vk::PhysicalDeviceVulkan13Features>()
                                   .robustImageAccess;
  } else if (HasExtension(device, VK_EXT_IMAGE_ROBUSTNESS_EXTENSION_NAME)) {
    info.robust_image_access =
        device.getFeatures2<vk::PhysicalDeviceFeatures2, vk::PhysicalDeviceImageRobustnessFeaturesEXT>()
            .get<vk::PhysicalDeviceImageRobustnessFeaturesEXT>()
            .robustImageAccess;
  }
  info.pipeline_executable_info = HasExtension(device, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
  if (info.pipeline_executable_info) {
    auto features = device.getFeatures2<vk::PhysicalDeviceFeatures2,
                                        vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR>();
    info.pipeline_executable_info =
        features.get<vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR>().pipelineExecutableInfo;
  }
  info.float_atomic_add = HasExtension(device, VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
  if (info.float_atomic_add) {
    auto features =
        device.getFeatures2<vk::PhysicalDeviceFeatures2, vk::PhysicalDeviceShaderAtomicFloatFeaturesEXT>();
    const auto& atomic = features.get<vk::PhysicalDeviceShaderAtomicFloatFeaturesEXT>();
    info.float_atomic_add = atomic.shaderBufferFloat32AtomicAdd;
    info.float32_atomics = atomic.shaderBufferFloat32Atomics;
    info.float64_atomic_add = atomic.shaderBufferFloat64AtomicAdd;
    info.shared_float32_atomic_add = atomic.shaderSharedFloat32AtomicAdd;
  }
  auto families = device.getQueueFamilyProperties();
  if (auto family = ChooseQueueFamily(families)) {
    info.queue_family = *family;
    info.timestamp_valid_bits = families[*family].timestampValidBits;
  }
  return info;
}

uint32_t InstanceApiVersion(const vk::raii::Context& loader) {
  return std::min(loader.enumerateInstanceVersion(), VK_API_VERSION_1_3);
}

vk::raii::Instance MakeInstance(const vk::raii::Context& loader, bool validation) {
  vk::ApplicationInfo app{.pApplicationName = "csbench",
                          .applicationVersion = 1,
                          .pEngineName = "csbench",
                          .engineVersion = 1,
                          .apiVersion = InstanceApiVersion(loader)};
  std::vector<const char*> layers;
  std::vector<const char*> extensions;
  // Synchronization validation catches missing barriers between dispatches, the class of bug a
  // benchmark harness is most likely to have.
  std::array enables{vk::ValidationFeatureEnableEXT::eSynchronizationValidation};
  vk::ValidationFeaturesEXT features{};
  features.setEnabledValidationFeatures(enables);
  vk::InstanceCreateInfo create{.pApplicationInfo = &app};
  if (validation) {
    auto available = loader.enumerateInstanceLayerProperties();
    bool found = std::any_of(available.begin(), available.end(), [](const vk::LayerProperties& p) {
      return std::string_view(p.layerName.data()) == kValidationLayer;
    });
    Require(found, fmt::format("validation was asked for but {} is not installed "
                               "(Debian package vulkan-validationlayers)",
                               kValidationLayer));
    layers.push_back(kValidationLayer);
    extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    create.pNext = &features;
  }
  create.setPEnabledLayerNames(layers);
  create.setPEnabledExtensionNames(extensions);
  return CSBENCH_VK(vk::raii::Instance(loader, create));
}

std::atomic<uint32_t> g_validation_messages{0};

VKAPI_ATTR VkBool32 VKAPI_CALL OnValidationMessage(
    VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT,
    const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
  if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
    ++g_validation_messages;
    std::cerr << "csbench: validation: " << data->pMessage << "\n";
  }
  return VK_FALSE;
}

}  // namespace

std::string DeviceInfo::ApiVersionString() const {
  return fmt::format("{}.{}.{}", VK_API_VERSION_MAJOR(api_version), VK_API_VERSION_MINOR(api_version),
                     VK_API_VERSION_PATCH(api_version));
}

std::string DeviceInfo::Key() const {
  if (type == "cpu") {
    // llvmpipe reports driverVersion 1 on every Mesa release, and one vendor/device id on every
    // host: only the version string and the host name what it runs at.
    std::string driver = driver_info.empty() ? driver_name + "-" + std::to_string(driver_version) : driver_info;
    return CpuDeviceKey(fmt::format("{:04x}-{:04x}", vendor_id, device_id), driver);
  }
  return fmt::format("{:04x}-{:04x}-{}", vendor_id, device_id, driver_version);
}

std::vector<DeviceInfo> ListDevices() {
  vk::raii::Context loader;
  vk::raii::Instance instance = MakeInstance(loader, false);
  std::vector<DeviceInfo> infos;
  auto devices = CSBENCH_VK(instance.enumeratePhysicalDevices());
  for (uint32_t i = 0; i < devices.size(); ++i) infos.push_back(InfoOf(devices[i], i));
  return infos;
}

struct Context::Messenger {
  vk::raii::DebugUtilsMessengerEXT handle;
};

Context::Context(const Options& options) : options_(options) {
  instance_ = MakeInstance(loader_, options.validation);
  if (options.validation) {
    vk::DebugUtilsMessengerCreateInfoEXT create{
        .messageSeverity = vk::DebugUtilsMessageSeverityFlagBitsEXT::eWarning |
                           vk::DebugUtilsMessageSeverityFlagBitsEXT::eError,
        .messageType = vk::DebugUtilsMessageTypeFlagBitsEXT::eGeneral |
                       vk::DebugUtilsMessageTypeFlagBitsEXT::eValidation |
                       vk::DebugUtilsMessageTypeFlagBitsEXT::ePerformance,
        .pfnUserCallback = &compat::DebugCallback<OnValidationMessage>::Call};
    messenger_ = std::make_unique<Messenger>(
        Messenger{CSBENCH_VK(vk::raii::DebugUtilsMessengerEXT(instance_, create))});
  }
  auto devices = CSBENCH_VK(instance_.enumeratePhysicalDevices());
  std::vector<DeviceInfo> infos;
  for (uint32_t i = 0; i < devices.size(); ++i) infos.push_back(InfoOf(devices[i], i));
  uint32_t chosen = ChooseDevice(infos, options.device);
  physical_device_ = std::move(devices[chosen]);
  info_ = infos[chosen];
  Require(info_.api_version >= VK_API_VERSION_1_1,
          fmt::format("{} supports Vulkan {} only; csbench needs 1.1 or newer", info_.name,
                      info_.ApiVersionString()));
  auto families = physical_device_.getQueueFamilyProperties();
  Require(ChooseQueueFamily(families).has_value(), fmt::format("{} has no compute queue", info_.name));
  use_gpu_timer_ = info_.timestamp_valid_bits > 0 && options.timer == TimerChoice::kAuto;

  // Enable what the device offers of the 1.1-1.3 feature sets (16-bit storage, float16, subgroup
  // size control, descriptor indexing...), except robustBufferAccess: bounds checks on every load would be measured.
  auto features = physical_device_.getFeatures2<vk::PhysicalDeviceFeatures2, vk::PhysicalDeviceVulkan11Features,
                                                vk::PhysicalDeviceVulkan12Features,
                                                vk::PhysicalDeviceVulkan13Features>();
  features.get<vk::PhysicalDeviceFeatures2>().features.robustBufferAccess = VK_FALSE;
  if (info_.api_version < VK_API_VERSION_1_3) features.unlink<vk::PhysicalDeviceVulkan13Features>();
  if (info_.api_version < VK_API_VERSION_1_2) {
    features.unlink<vk::PhysicalDeviceVulkan12Features>();
    features.unlink<vk::PhysicalDeviceVulkan11Features>();
  }
  // Pipeline statistics (registers, spills) cost nothing unless a pipeline asks to capture them.
  vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR executable_features{.pipelineExecutableInfo = VK_TRUE};
  std::vector<const char*> device_extensions;
  if (info_.pipeline_executable_info) {
    device_extensions.push_back(VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    executable_features.pNext = features.get<vk::PhysicalDeviceFeatures2>().pNext;
    features.get<vk::PhysicalDeviceFeatures2>().pNext = &executable_features;
  }
  // Float atomics on storage buffers and shared memory, which the atomics family's float variants
  // and users' shaders use; they skip where the device lacks them. The features asked for are
  // those the device offers (image and 16-bit ones are not).
  vk::PhysicalDeviceShaderAtomicFloatFeaturesEXT atomic_float_features{
      .shaderBufferFloat32Atomics = info_.float32_atomics,
      .shaderBufferFloat32AtomicAdd = info_.float_atomic_add,
      .shaderBufferFloat64AtomicAdd = info_.float64_atomic_add,
      .shaderSharedFloat32AtomicAdd = info_.shared_float32_atomic_add};
  if (info_.float_atomic_add || info_.float32_atomics || info_.float64_atomic_add || info_.shared_float32_atomic_add) {
    device_extensions.push_back(VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
    atomic_float_features.pNext = features.get<vk::PhysicalDeviceFeatures2>().pNext;
    features.get<vk::PhysicalDeviceFeatures2>().pNext = &atomic_float_features;
  }
  // Robust image access, so that a kernel's image reads past the edge are defined (0, or the
  // sampler's border) on every device. A 1.3 device has it among the Vulkan 1.3 features copied
  // above; an older one through VK_EXT_image_robustness.
  vk::PhysicalDeviceImageRobustnessFeaturesEXT image_robustness_features{.robustImageAccess = VK_TRUE};
  if (info_.robust_image_access && info_.api_version < VK_API_VERSION_1_3) {
    device_extensions.push_back(VK_EXT_IMAGE_ROBUSTNESS_EXTENSION_NAME);
    image_robustness_features.pNext = features.get<vk::PhysicalDeviceFeatures2>().pNext;
    features.get<vk::PhysicalDeviceFeatures2>().pNext = &image_robustness_features;
  }
  float priority = 1.0f;
  vk::DeviceQueueCreateInfo queue_create{
      .queueFamilyIndex = info_.queue_family, .queueCount = 1, .pQueuePriorities = &priority};
  vk::DeviceCreateInfo device_create{.pNext = &features.get<vk::PhysicalDeviceFeatures2>(),
                                     .queueCreateInfoCount = 1,
                                     .pQueueCreateInfos = &queue_create};
  device_create.setPEnabledExtensionNames(device_extensions);
  device_ = CSBENCH_VK(vk::raii::Device(physical_device_, device_create));
  queue_ = CSBENCH_VK(vk::raii::Queue(device_, info_.queue_family, 0));
  command_pool_ = CSBENCH_VK(vk::raii::CommandPool(
      device_, vk::CommandPoolCreateInfo{.flags = vk::CommandPoolCreateFlagBits::eResetCommandBuffer,
                                         .queueFamilyIndex = info_.queue_family}));
  fence_ = CSBENCH_VK(vk::raii::Fence(device_, vk::FenceCreateInfo{}));
  if (use_gpu_timer_) {
    submission_clock_ = std::make_unique<SubmissionClock>(device_, command_pool_, info_.timestamp_valid_bits,
                                                          info_.timestamp_period_ns);
  }
}

Context::OwnKernel& Context::OwnKernelFor(const std::string& key,
                                          const std::function<std::unique_ptr<Kernel>()>& make) {
  std::lock_guard lock(own_kernels_lock_);
  std::unique_ptr<OwnKernel>& slot = own_kernels_[key];
  // Made under the lock: two threads asking for one new kernel make it once.
  if (!slot) {
    auto made = std::make_unique<OwnKernel>();
    made->kernel = make();
    slot = std::move(made);
  }
  return *slot;
}

Context::~Context() {
  // Destructors never throw: a lost device answers the wait with VK_ERROR_DEVICE_LOST, and its
  // objects may be destroyed all the same.
  try {
    if (*device_) device_.waitIdle();
  } catch (const vk::SystemError&) {
  }
}

void FairLock::lock() {
  std::unique_lock guard(mutex_);
  if (depth_ > 0 && owner_ == std::this_thread::get_id()) {
    ++depth_;
    return;
  }
  const uint64_t ticket = next_++;
  if (serving_ == ticket) {
    NoteDeviceLock(0);
  } else {
    const auto start = std::chrono::steady_clock::now();
    turn_.wait(guard, [&] { return serving_ == ticket; });
    NoteDeviceLock(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  owner_ = std::this_thread::get_id();
  depth_ = 1;
}

void FairLock::unlock() {
  std::lock_guard guard(mutex_);
  if (--depth_ > 0) return;
  owner_ = {};
  ++serving_;
  turn_.notify_all();
}

std::unique_ptr<Buffer> Context::TakeStaging() {
  {
    std::lock_guard guard(staging_lock_);
    if (!staging_.empty()) {
      std::unique_ptr<Buffer> kept = std::move(staging_.back());
      staging_.pop_back();
      return kept;
    }
  }
  return std::make_unique<Buffer>(*this, kStagingBytes, Memory::kHost);
}

void Context::ReturnStaging(std::unique_ptr<Buffer> buffer) {
  std::lock_guard guard(staging_lock_);
  if (buffer != nullptr && staging_.size() < 2) staging_.push_back(std::move(buffer));
}

uint32_t ValidationMessages() { return g_validation_messages.load(); }

void Context::SubmitAndWait(const vk::raii::CommandBuffer& command_buffer) {
  auto lock = LockDevice();
  // Reset before the submission, not after the wait: a wait that throws (the dispatch timeout)
  // leaves the fence signalled, and the next submission must not find it so (its wait would
  // return before the device has run it).
  device_.resetFences({*fence_});
  vk::CommandBuffer handle = *command_buffer;
  Submit(vk::SubmitInfo{.commandBufferCount = 1, .pCommandBuffers = &handle}, *fence_);
  const vk::Fence fence = *fence_;
  WaitForFences(std::span(&fence, 1));
}

uint64_t Context::dispatch_timeout_ns() const {
  return std::max<uint64_t>(1, static_cast<uint64_t>(options_.dispatch_timeout_s * 1e9));
}

std::string Context::device_lost() const {
  std::lock_guard guard(lost_lock_);
  return device_lost_;
}

void Context::NoteDeviceLost(std::string_view why) {
  {
    std::lock_guard guard(lost_lock_);
    if (device_lost_.empty()) device_lost_ = std::string(why);
  }
  if (submission_clock_) submission_clock_->Abandon();
  StopRun(fmt::format("the device was lost ({})", why));
}

void Context::Submit(const vk::SubmitInfo& submit, vk::Fence fence) {
  auto lock = LockDevice();
  // A lost device stays lost: a submission to it fails, or hangs on some drivers.
  if (const std::string lost = device_lost(); !lost.empty()) {
    throw DeviceLost(fmt::format("not submitted: the device was lost earlier in this run ({})", lost));
  }
  SubmissionClock::Bracket bracket;
  vk::SubmitInfo timed = submit;
  if (submission_clock_ && submit.commandBufferCount > 0) {
    bracket = submission_clock_->Around(std::span(submit.pCommandBuffers, submit.commandBufferCount));
    timed.setCommandBuffers(bracket.buffers);
  }
  try {
    queue_.submit(timed, fence);
  } catch (...) {
    // Whatever failed, the bracket's pair is free again; then the error is said in csbench's terms.
    if (submission_clock_) submission_clock_->Failed(bracket);
    try {
      throw;
    } catch (const vk::DeviceLostError& e) {
      NoteDeviceLost(fmt::format("vkQueueSubmit: {}", e.what()));
      throw DeviceLost(fmt::format("the device was lost at a submission: {}", e.what()));
    } catch (const vk::SystemError& e) {
      throw Error(fmt::format("vkQueueSubmit failed: {}", e.what()));
    }
  }
  if (submission_clock_) submission_clock_->Submitted(bracket);
}

void Context::WaitForFences(std::span<const vk::Fence> fences) {
  auto lock = LockDevice();
  vk::Result result = vk::Result::eSuccess;
  try {
    result = device_.waitForFences(vk::ArrayProxy<const vk::Fence>(static_cast<uint32_t>(fences.size()), fences.data()),
                                   VK_TRUE, dispatch_timeout_ns());
    if (result == vk::Result::eSuccess) {
      if (submission_clock_) submission_clock_->Harvest();
      return;
    }
    // The benchmark fails, but its buffers and command buffers cannot be freed while the device
    // still reads them (lavapipe crashes the process), nor a fence reused before it signals: wait
    // for the device first. A GPU that hangs ends in VK_ERROR_DEVICE_LOST from its driver.
    fmt::print(stderr, "csbench: a submission has run for {} s (--dispatch-timeout); waiting for the device to "
               "finish it\n", dispatch_timeout_s());
    device_.waitIdle();
    if (submission_clock_) submission_clock_->Harvest();
  } catch (const vk::DeviceLostError& e) {
    NoteDeviceLost(fmt::format("waiting for a submission: {}", e.what()));
    throw DeviceLost(fmt::format("the device was lost while a submission ran: {}", e.what()));
  } catch (const vk::SystemError& e) {
    throw Error(fmt::format("vkWaitForFences failed: {}", e.what()));
  }
  throw Error(fmt::format("a submission did not finish within {} s (--dispatch-timeout): the device is too slow for "
                          "this benchmark at this timeout, or hung",
                          dispatch_timeout_s()));
}

void Context::Run(const std::function<void(Commands&)>& record) {
  auto lock = LockDevice();
  auto buffers = CSBENCH_VK(vk::raii::CommandBuffers(
      device_, vk::CommandBufferAllocateInfo{.commandPool = *command_pool_,
                                             .level = vk::CommandBufferLevel::ePrimary,
                                             .commandBufferCount = 1}));
  vk::raii::CommandBuffer& command_buffer = buffers[0];
  command_buffer.begin(vk::CommandBufferBeginInfo{.flags = vk::CommandBufferUsageFlagBits::eOneTimeSubmit});
  Commands commands(*this, command_buffer);
  // Barriers on both ends: this submission sees what earlier ones wrote, and the host sees what
  // this one wrote once the fence has signalled.
  commands.Barrier();
  record(commands);
  commands.HostBarrier();
  command_buffer.end();
  SubmitAndWait(command_buffer);
}

uint32_t Context::FindMemoryType(uint32_t type_bits, vk::MemoryPropertyFlags required,
                                 vk::MemoryPropertyFlags preferred) const {
  auto memory = physical_device_.getMemoryProperties();
  std::optional<uint32_t> fallback;
  for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
    if (!(type_bits & (1u << i))) continue;
    auto flags = memory.memoryTypes[i].propertyFlags;
    if ((flags & required) != required) continue;
    if ((flags & preferred) == preferred) return i;
    if (!fallback) fallback = i;
  }
  Require(fallback.has_value(), fmt::format("no memory type with {}", vk::to_string(required)));
  return *fallback;
}

}  // namespace csbench
