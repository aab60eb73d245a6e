// What the capture layer keeps of a program's Vulkan objects: the shaders behind each compute
// pipeline, the descriptor layouts, what each descriptor set holds, the buffers and where their
// memory is, and each command buffer's bound state and recorded dispatches. Only what a dispatch's
// capture needs is kept; everything else passes through untouched.
#pragma once

#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "capture/layer/sampler_keys.hpp"

namespace csbench::capture {

// The next layer's functions, for one instance or one device.
struct InstanceTable {
  PFN_vkGetInstanceProcAddr GetInstanceProcAddr = nullptr;
  PFN_vkDestroyInstance DestroyInstance = nullptr;
  PFN_vkGetPhysicalDeviceMemoryProperties GetPhysicalDeviceMemoryProperties = nullptr;
  PFN_vkGetPhysicalDeviceProperties GetPhysicalDeviceProperties = nullptr;
};

struct DeviceTable {
  PFN_vkGetDeviceProcAddr GetDeviceProcAddr = nullptr;
  PFN_vkDestroyDevice DestroyDevice = nullptr;
  PFN_vkCreateShaderModule CreateShaderModule = nullptr;
  PFN_vkDestroyShaderModule DestroyShaderModule = nullptr;
  PFN_vkCreateComputePipelines CreateComputePipelines = nullptr;
  PFN_vkDestroyPipeline DestroyPipeline = nullptr;
  PFN_vkCreateDescriptorSetLayout CreateDescriptorSetLayout = nullptr;
  PFN_vkCreatePipelineLayout CreatePipelineLayout = nullptr;
  PFN_vkAllocateDescriptorSets AllocateDescriptorSets = nullptr;
  PFN_vkUpdateDescriptorSets UpdateDescriptorSets = nullptr;
  PFN_vkCreateDescriptorUpdateTemplate CreateDescriptorUpdateTemplate = nullptr;
  PFN_vkCreateDescriptorUpdateTemplate CreateDescriptorUpdateTemplateKHR = nullptr;
  PFN_vkUpdateDescriptorSetWithTemplate UpdateDescriptorSetWithTemplate = nullptr;
  PFN_vkUpdateDescriptorSetWithTemplate UpdateDescriptorSetWithTemplateKHR = nullptr;
  PFN_vkCreateBuffer CreateBuffer = nullptr;
  PFN_vkDestroyBuffer DestroyBuffer = nullptr;
  PFN_vkBindBufferMemory BindBufferMemory = nullptr;
  PFN_vkBindBufferMemory2 BindBufferMemory2 = nullptr;
  PFN_vkBindBufferMemory2 BindBufferMemory2KHR = nullptr;
  PFN_vkGetBufferMemoryRequirements GetBufferMemoryRequirements = nullptr;
  PFN_vkAllocateMemory AllocateMemory = nullptr;
  PFN_vkFreeMemory FreeMemory = nullptr;
  PFN_vkMapMemory MapMemory = nullptr;
  PFN_vkBeginCommandBuffer BeginCommandBuffer = nullptr;
  PFN_vkCmdBindPipeline CmdBindPipeline = nullptr;
  PFN_vkCmdBindDescriptorSets CmdBindDescriptorSets = nullptr;
  PFN_vkCmdPushDescriptorSetKHR CmdPushDescriptorSetKHR = nullptr;
  PFN_vkCmdPushDescriptorSetWithTemplateKHR CmdPushDescriptorSetWithTemplateKHR = nullptr;
  PFN_vkCmdPushConstants CmdPushConstants = nullptr;
  PFN_vkCmdDispatch CmdDispatch = nullptr;
  PFN_vkCmdDispatchBase CmdDispatchBase = nullptr;
  PFN_vkCmdDispatchIndirect CmdDispatchIndirect = nullptr;
  PFN_vkCmdPipelineBarrier CmdPipelineBarrier = nullptr;
  PFN_vkCmdCopyBuffer CmdCopyBuffer = nullptr;
  PFN_vkCmdCopyImageToBuffer CmdCopyImageToBuffer = nullptr;
  // The program's transfer commands, counted per command buffer (capture/layer/transfers.cpp).
  PFN_vkCmdFillBuffer CmdFillBuffer = nullptr;
  PFN_vkCmdUpdateBuffer CmdUpdateBuffer = nullptr;
  PFN_vkCmdCopyBufferToImage CmdCopyBufferToImage = nullptr;
  PFN_vkCmdCopyImage CmdCopyImage = nullptr;
  PFN_vkCmdBlitImage CmdBlitImage = nullptr;
  PFN_vkCmdClearColorImage CmdClearColorImage = nullptr;
  PFN_vkCmdCopyBuffer2 CmdCopyBuffer2 = nullptr;
  PFN_vkCmdCopyBuffer2 CmdCopyBuffer2KHR = nullptr;
  PFN_vkCmdCopyImage2 CmdCopyImage2 = nullptr;
  PFN_vkCmdCopyImage2 CmdCopyImage2KHR = nullptr;
  PFN_vkCmdCopyBufferToImage2 CmdCopyBufferToImage2 = nullptr;
  PFN_vkCmdCopyBufferToImage2 CmdCopyBufferToImage2KHR = nullptr;
  PFN_vkCmdCopyImageToBuffer2 CmdCopyImageToBuffer2 = nullptr;
  PFN_vkCmdCopyImageToBuffer2 CmdCopyImageToBuffer2KHR = nullptr;
  PFN_vkCmdBlitImage2 CmdBlitImage2 = nullptr;
  PFN_vkCmdBlitImage2 CmdBlitImage2KHR = nullptr;
  PFN_vkCreateImage CreateImage = nullptr;
  PFN_vkDestroyImage DestroyImage = nullptr;
  PFN_vkCreateImageView CreateImageView = nullptr;
  PFN_vkDestroyImageView DestroyImageView = nullptr;
  PFN_vkCreateSampler CreateSampler = nullptr;
  PFN_vkDestroySampler DestroySampler = nullptr;
  PFN_vkCmdExecuteCommands CmdExecuteCommands = nullptr;
  PFN_vkQueueSubmit QueueSubmit = nullptr;
  PFN_vkQueueSubmit2 QueueSubmit2 = nullptr;
  PFN_vkQueueSubmit2 QueueSubmit2KHR = nullptr;
  PFN_vkQueueWaitIdle QueueWaitIdle = nullptr;
};

// A compute pipeline as the program made it: its SPIR-V (copied, since the module may be
// destroyed right after), entry point, specialization and layout.
struct Pipeline {
  uint32_t id = 0;  // creation order among the process's compute pipelines, from 0
  std::shared_ptr<const std::vector<uint32_t>> spirv;
  std::string entry;
  std::vector<VkSpecializationMapEntry> spec_entries;
  std::vector<uint8_t> spec_data;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  // FNV-1a of its SPIR-V, entry point and specialization: the same pipeline in both passes,
  // whatever order the program made its pipelines in.
  uint64_t signature = 0;
  bool written = false;  // its SPIR-V is in the summary's folder
};

struct LayoutBinding {
  uint32_t binding = 0;
  VkDescriptorType type = VK_DESCRIPTOR_TYPE_MAX_ENUM;
  uint32_t count = 0;
  std::vector<VkSampler> immutable;  // its immutable samplers (pImmutableSamplers), one per descriptor; or none
};

struct SetLayout {
  std::vector<LayoutBinding> bindings;  // by binding number
  bool push_descriptor = false;
};

struct PipelineLayout {
  std::vector<VkDescriptorSetLayout> sets;
};

// One buffer descriptor of a set, as the program wrote it.
struct BufferDescriptor {
  VkDescriptorType type = VK_DESCRIPTOR_TYPE_MAX_ENUM;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceSize offset = 0, range = 0;
  // A storage image's or a combined image sampler's view, the layout it is used in, and a
  // combined image sampler's sampler as written (not an immutable one).
  VkImageView view = VK_NULL_HANDLE;
  VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;
  VkSampler sampler = VK_NULL_HANDLE;
};

struct Image {
  VkImageType type = VK_IMAGE_TYPE_2D;
  VkFormat format = VK_FORMAT_UNDEFINED;
  VkExtent3D extent{};
  uint32_t levels = 1, layers = 1;
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
};

struct ImageView {
  VkImage image = VK_NULL_HANDLE;
  VkImageViewType type = VK_IMAGE_VIEW_TYPE_2D;
  VkFormat format = VK_FORMAT_UNDEFINED;
  VkImageSubresourceRange range{};
  VkComponentMapping components{};  // a sampled view may swizzle its channels
};

struct DescriptorSet {
  VkDescriptorSetLayout layout = VK_NULL_HANDLE;
  // (binding, element) -> what it holds; non-buffer descriptors keep only their type
  std::map<std::pair<uint32_t, uint32_t>, BufferDescriptor> slots;
};

struct Buffer {
  VkDeviceSize size = 0;
  VkBufferUsageFlags usage = 0;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkDeviceSize memory_offset = 0;
};

struct BoundSet {
  VkDescriptorSet set = VK_NULL_HANDLE;
  std::vector<uint32_t> dynamic_offsets;
};

// One dispatch as recorded: which pipeline, how many workgroups, and, where it is captured, the
// slots of the pending captures begun at it (a sequence's: at its first dispatch; one dispatch may
// begin several, as a dispatch selected alone and the first of a selected sequence).
struct RecordedDispatch {
  uint32_t pipeline = 0;
  std::array<uint32_t, 3> groups{};
  enum class Kind { kDirect, kIndirect, kBase } kind = Kind::kDirect;
  std::vector<int> captures;  // indices into Layer::captures; empty for a dispatch not captured
  uint32_t transfers = 0;  // the recording's transfer commands before it
  // An indirect dispatch: where its VkDispatchIndirectCommand is, and, in pass 1, its read
  // (an index into Layer::reads; -1 where none could be made).
  VkBuffer indirect = VK_NULL_HANDLE;
  VkDeviceSize indirect_offset = 0;
  int read = -1;
};

struct CommandBuffer {
  uint64_t serial = 0;       // the order of its vkBeginCommandBuffer among the process's
  uint32_t submissions = 0;  // since that begin (a secondary's: its runs, by the primaries submitted)
  VkPipeline pipeline = VK_NULL_HANDLE;
  std::array<BoundSet, 32> sets{};
  // Push descriptors (VK_KHR_push_descriptor): by set number, what the recording's pushes wrote
  // there so far, a later push replacing the slots it writes; `layout` is the set layout of the
  // pipeline layout named at the last push.
  std::map<uint32_t, DescriptorSet> pushed;
  std::array<uint8_t, 256> push{};
  uint32_t push_end = 0;  // bytes of push given so far, from 0
  std::vector<RecordedDispatch> dispatches;
  // vkCmdExecuteCommands: each secondary executed, after how many of this recording's dispatches.
  std::vector<std::pair<uint32_t, VkCommandBuffer>> executed;
  // The program's transfer commands recorded so far (copies, fills, clears), and secondaries executed.
  uint32_t transfers = 0;
};

// The copies of one binding, made around a captured dispatch.
struct CapturedBinding {
  uint32_t set = 0, binding = 0, element = 0;
  VkDeviceSize bytes = 0;
  VkBuffer source = VK_NULL_HANDLE;  // the program's buffer, and where the range starts in it
  VkDeviceSize source_offset = 0;
  VkDeviceMemory source_memory = VK_NULL_HANDLE;  // its memory, and where the range starts there
  VkDeviceSize memory_offset = 0;
  // A storage image instead: its level and layer copied, tightly packed, and what it holds.
  VkImage image = VK_NULL_HANDLE;
  // A combined image sampler's image: only read, so copied before the dispatch only (in the
  // transfer-source layout where its layout is not the general one, then put back); its sampler as
  // a manifest's keys.
  bool sampled = false;
  bool separate = false;  // a separate sampled image (texture2D): copied as a combined one's, with no sampler
  SamplerKeys keys;
  VkImageLayout layout = VK_IMAGE_LAYOUT_GENERAL;
  uint32_t level = 0, layer = 0;
  VkExtent3D extent{};
  VkFormat format = VK_FORMAT_UNDEFINED;
  VkBuffer staging = VK_NULL_HANDLE;  // before at offset 0, after at offset `bytes`
  VkDeviceMemory memory = VK_NULL_HANDLE;
  void* mapped = nullptr;
};

// The 12 bytes of an indirect dispatch's VkDispatchIndirectCommand, copied at the dispatch's place
// in its command buffer as the other bindings are (`bytes` 0 where none was read). `buffer_size`
// is the indirect buffer's size, for the manifest's comment.
struct CountsRead {
  CapturedBinding copy;
  VkDeviceSize buffer_size = 0;
  std::array<uint32_t, 3> Groups() const;  // what the copy holds, once its submission has run
};

// One dispatch of a captured sequence: what it ran, and the slots it bound: (set, binding,
// element, the capture's binding held there); an indirect one's counts as they were read.
struct SequenceStep {
  uint32_t pipeline = 0;
  std::array<uint32_t, 3> groups{};
  std::vector<uint8_t> push;
  std::vector<std::array<uint32_t, 4>> slots;
  bool indirect = false;
  CountsRead counts;
};

// A dispatch chosen for capture, from its recording to the files written after its submission.
// A sequence's capture holds each resource its dispatches bound once (at the slot it was first
// bound at, or a free binding where that slot is an earlier resource's), copied before the first
// dispatch that binds it and after the last dispatch, and one step per dispatch.
struct PendingCapture {
  uint32_t target = 0;      // its place in CSBENCH_CAPTURE_TARGETS, and its folder's number
  uint32_t submission = 0;  // which submission of its recording the data is read after
  VkDevice device = VK_NULL_HANDLE;
  VkCommandBuffer cb = VK_NULL_HANDLE;  // the command buffer of the recording it is in
  uint32_t pipeline = 0;
  std::array<uint32_t, 3> groups{};
  std::vector<uint8_t> push;
  std::vector<CapturedBinding> bindings;
  // Its separate samplers (the descriptors of type VK_DESCRIPTOR_TYPE_SAMPLER) as a manifest's keys: no data.
  struct Sampler {
    uint32_t set = 0, binding = 0, element = 0;
    SamplerKeys keys;
  };
  std::vector<Sampler> samplers;
  std::vector<std::string> notes;  // what is not captured, one line each
  bool data = false;               // copies were recorded
  bool done = false;
  bool indirect = false;  // vkCmdDispatchIndirect: `groups` are read from `counts` after it ran
  CountsRead counts;
  // A sequence: its dispatches' ordinals in the recording, the recording's transfer commands when
  // its first dispatch was recorded, and its steps so far.
  bool sequence = false;
  uint32_t first = 0, last = 0;
  uint32_t transfers = 0;
  std::vector<SequenceStep> steps;
};

struct Device {
  VkDevice handle = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  DeviceTable table;
  InstanceTable* instance = nullptr;
  bool buffer_device_address = false;  // the feature is enabled: shaders may reach memory unseen
  std::array<uint32_t, 3> max_groups{};  // maxComputeWorkGroupCount
};

struct Template {
  std::vector<VkDescriptorUpdateTemplateEntry> entries;
  VkDescriptorUpdateTemplateType type = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET;
  VkPipelineBindPoint point = VK_PIPELINE_BIND_POINT_COMPUTE;  // a push template's
};

}  // namespace csbench::capture
