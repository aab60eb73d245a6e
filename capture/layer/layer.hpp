// The capture layer's process-wide state and the functions its entry points share. One lock
// guards all of it: the layer's work is small beside the calls it wraps, and a program's threads
// seldom record at the same instant.
#pragma once

#include <atomic>
#include <cstring>
#include <filesystem>

#include "capture/layer/state.hpp"

namespace csbench::capture {

// A function of the layer by its Vulkan name, for the loader's GetProcAddr calls.
struct NamedFunction {
  const char* name;
  PFN_vkVoidFunction function;
};
#define CSBENCH_LAYER_FUNCTION(name) \
  csbench::capture::NamedFunction { "vk" #name, reinterpret_cast<PFN_vkVoidFunction>(&name) }
template <size_t N>
PFN_vkVoidFunction FindNamed(const NamedFunction (&table)[N], const char* name) {
  for (const NamedFunction& f : table)
    if (std::strcmp(f.name, name) == 0) return f.function;
  return nullptr;
}

// What the capture tool asks of this run, from the environment (capture/layer/config.cpp).
struct Config {
  enum class Mode { kOff, kCount, kCapture } mode = Mode::kOff;
  std::filesystem::path dir;  // where the summary or the captures go
  // Count: the global dispatch indices (from 0, in submission order) whose places are noted.
  std::set<uint64_t> nth;
  // Capture: a target is either a place (the Nth dispatch): a recording (the serial of its
  // vkBeginCommandBuffer), a dispatch in it (ordinal from 0) and the submission of that recording
  // after which its data is read; or a key: the first dispatch to run of a pipeline (by its
  // signature) at these workgroup counts, whatever recording it is in. Keys do not depend on the
  // order a program's threads record or make pipelines in, so pass 2 finds them where places move.
  // A sequence is a place too: its recording, its first and last dispatches there, the submission.
  struct Target {
    bool by_key = false;
    bool sequence = false;
    uint64_t serial = 0;
    uint32_t ordinal = 0, last = 0, submission = 1;
    uint64_t signature = 0;
    std::array<uint32_t, 3> groups{};
  };
  std::vector<Target> targets;
  uint64_t max_bytes = 256ull << 20;
};
Config ReadConfig();

// Where a dispatch was: its recording, its place there, and the submission of that recording.
struct Locator {
  uint64_t serial = 0;
  uint32_t ordinal = 0, submission = 0;
  uint64_t index = 0;  // among every dispatch submitted, from 0
};

struct DispatchKey {
  uint32_t pipeline = 0;
  std::array<uint32_t, 3> groups{};
  auto operator<=>(const DispatchKey&) const = default;
};

struct KeyCount {
  uint64_t count = 0;
  Locator first;
  uint64_t indirect = 0;        // of `count`, indirect dispatches, by the counts read as they ran
  bool first_indirect = false;  // the first was one: pass 2 finds it by its place
};

// Pass 1: an indirect dispatch's counts read, its staging reused once the recording that held it
// is begun again.
struct PooledRead {
  VkDevice device = VK_NULL_HANDLE;
  CountsRead read;
  bool free = false;
};

// Pass 1: submissions of one recording that ran two or more dispatches, by their pipelines in
// order: how often, where the first ran, and whether transfer commands were recorded among them.
struct RunCount {
  uint64_t count = 0;
  Locator first;
  uint32_t dispatches = 0;
  bool transfers = false;
};

struct Layer {
  std::mutex mutex;
  Config config;
  std::unordered_map<void*, std::unique_ptr<InstanceTable>> instances;  // by dispatch key
  std::unordered_map<void*, std::unique_ptr<Device>> devices;           // by dispatch key
  std::unordered_map<VkInstance, InstanceTable*> instance_of;
  std::unordered_map<VkPhysicalDevice, InstanceTable*> physical_of;

  std::unordered_map<VkShaderModule, std::shared_ptr<const std::vector<uint32_t>>> modules;
  std::unordered_map<VkPipeline, Pipeline> pipelines;
  std::vector<const Pipeline*> pipeline_by_id;  // kept alive in retired when destroyed
  std::vector<std::unique_ptr<Pipeline>> retired;
  uint32_t next_pipeline = 0;
  std::unordered_map<VkDescriptorSetLayout, SetLayout> set_layouts;
  std::unordered_map<VkPipelineLayout, PipelineLayout> pipeline_layouts;
  std::unordered_map<VkDescriptorSet, DescriptorSet> sets;
  std::unordered_map<VkDescriptorUpdateTemplate, Template> templates;
  std::unordered_map<VkBuffer, Buffer> buffers;
  std::unordered_map<VkImage, Image> images;
  std::unordered_map<VkImageView, ImageView> views;
  std::unordered_map<VkSampler, SamplerSettings> samplers;
  std::unordered_map<VkCommandBuffer, CommandBuffer> command_buffers;
  uint64_t next_serial = 0;

  // Count mode.
  uint64_t dispatches = 0;
  std::map<DispatchKey, KeyCount> keys;
  std::map<uint32_t, uint64_t> indirect, based;  // by pipeline
  std::map<uint32_t, uint64_t> unread;           // indirect dispatches whose counts were not read
  std::vector<PooledRead> reads;
  std::array<uint32_t, 3> max_groups{};  // the last device's maxComputeWorkGroupCount
  std::map<uint64_t, std::pair<DispatchKey, Locator>> nth;
  std::map<std::vector<uint32_t>, RunCount> runs;  // by the pipelines of the run (the first 64)
  std::set<std::string> notes;
  bool summary_dirty = false;

  // Capture mode.
  std::vector<PendingCapture> captures;
  std::set<uint32_t> targets_done;  // written: no further dispatch is taken for them

  ~Layer();
};

Layer& TheLayer();

inline void* DispatchKeyOf(const void* handle) { return *static_cast<void* const*>(handle); }
Device* DeviceOf(Layer& layer, const void* dispatchable);
// DeviceOf under the layer's mutex, for a call that needs only the device's table.
Device* LockedDeviceOf(Layer& layer, const void* dispatchable);
// For a vkDestroy* call: under the layer's mutex, the device, with `handle` dropped from `tracked`.
template <class Map, class Handle>
Device* ForgetOn(Layer& layer, VkDevice device, Map& tracked, Handle handle) {
  std::lock_guard lock(layer.mutex);
  tracked.erase(handle);
  return DeviceOf(layer, device);
}

// capture/layer/output.cpp
void WriteSummary(Layer& layer);
void WritePipeline(const Layer& layer, const Pipeline& pipeline);
void WriteCapture(const Layer& layer, const PendingCapture& capture);

// capture/layer/track.cpp and capture/layer/commands.cpp: the intercepted device functions by
// name, or nullptr.
PFN_vkVoidFunction TrackedFunction(const char* name);
PFN_vkVoidFunction ImageFunction(const char* name);
PFN_vkVoidFunction CommandFunction(const char* name);
PFN_vkVoidFunction TransferFunction(const char* name);

// capture/layer/copies.cpp: records the copies around a captured dispatch and reads them back.
// RecordCaptureBefore takes the dispatch's bindings; RecordSequenceStep a later dispatch of a
// sequence's, copying only those no earlier dispatch of it bound (or refusing the sequence).
void RecordCaptureBefore(Layer& layer, Device& device, VkCommandBuffer cb, PendingCapture& capture);
void RecordSequenceStep(Layer& layer, Device& device, VkCommandBuffer cb, PendingCapture& capture);
void RecordCaptureAfter(Device& device, VkCommandBuffer cb, const PendingCapture& capture);
// An indirect dispatch's counts: StageCounts makes the host-visible copy of the 12 bytes at
// read.copy's source and offset; RecordCountsRead records that copy alone (pass 1), between a
// barrier after everything before and one to the host that also keeps the program's later commands
// from writing the bytes before they are copied.
bool StageCounts(Layer& layer, const Device& device, CountsRead& read);
void RecordCountsRead(const Device& device, VkCommandBuffer cb, const CountsRead& read);
void FreeStaging(const Device& device, CapturedBinding& binding);
void FinishCapture(Layer& layer, Device& device, PendingCapture& capture);
// Frees the staging copies of the device's captures (kept until then: a command buffer submitted
// again still copies into them).
void ReleaseCaptures(Layer& layer, Device& device);

}  // namespace csbench::capture
