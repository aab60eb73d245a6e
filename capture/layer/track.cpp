// The objects a capture needs to know, tracked as the program makes them: shader modules and the
// compute pipelines made of them, descriptor set and pipeline layouts, what each descriptor set
// holds (written directly, copied or through a template) and what a command buffer's pushes wrote
// (VK_KHR_push_descriptor), and the buffers with their memory.
// Buffers get the transfer-source usage added in capture mode, so that their bytes can be
// copied out around a captured dispatch.
#include <algorithm>
#include <cstring>

#include "capture/layer/layer.hpp"

namespace csbench::capture {

namespace {

VKAPI_ATTR VkResult VKAPI_CALL CreateShaderModule(VkDevice device, const VkShaderModuleCreateInfo* info,
                                                  const VkAllocationCallbacks* allocator, VkShaderModule* module) {
  Layer& layer = TheLayer();
  Device* data = LockedDeviceOf(layer, device);
  VkResult result = data->table.CreateShaderModule(device, info, allocator, module);
  if (result != VK_SUCCESS || layer.config.mode == Config::Mode::kOff) return result;
  auto words = std::make_shared<std::vector<uint32_t>>(info->pCode, info->pCode + info->codeSize / 4);
  std::lock_guard lock(layer.mutex);
  layer.modules[*module] = std::move(words);
  return result;
}

VKAPI_ATTR void VKAPI_CALL DestroyShaderModule(VkDevice device, VkShaderModule module,
                                               const VkAllocationCallbacks* allocator) {
  Layer& layer = TheLayer();
  ForgetOn(layer, device, layer.modules, module)->table.DestroyShaderModule(device, module, allocator);
}

// The module's SPIR-V: the tracked module's, or a module given inline in the stage's pNext.
std::shared_ptr<const std::vector<uint32_t>> StageCode(Layer& layer, const VkPipelineShaderStageCreateInfo& stage) {
  if (stage.module != VK_NULL_HANDLE) {
    auto it = layer.modules.find(stage.module);
    return it == layer.modules.end() ? nullptr : it->second;
  }
  for (auto* next = static_cast<const VkBaseInStructure*>(stage.pNext); next != nullptr; next = next->pNext)
    if (next->sType == VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO) {
      auto* info = reinterpret_cast<const VkShaderModuleCreateInfo*>(next);
      return std::make_shared<std::vector<uint32_t>>(info->pCode, info->pCode + info->codeSize / 4);
    }
  return nullptr;
}

uint64_t Signature(const Pipeline& pipeline) {
  uint64_t hash = 14695981039346656037ull;
  auto add = [&](const void* data, size_t size) {
    for (size_t i = 0; i < size; ++i) hash = (hash ^ static_cast<const uint8_t*>(data)[i]) * 1099511628211ull;
  };
  if (pipeline.spirv != nullptr) add(pipeline.spirv->data(), pipeline.spirv->size() * 4);
  add(pipeline.entry.data(), pipeline.entry.size() + 1);
  for (const VkSpecializationMapEntry& e : pipeline.spec_entries) {
    add(&e.constantID, 4);
    if (e.offset + e.size <= pipeline.spec_data.size()) add(pipeline.spec_data.data() + e.offset, e.size);
  }
  return hash;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateComputePipelines(VkDevice device, VkPipelineCache cache, uint32_t count,
                                                      const VkComputePipelineCreateInfo* infos,
                                                      const VkAllocationCallbacks* allocator, VkPipeline* pipelines) {
  Layer& layer = TheLayer();
  Device* data = LockedDeviceOf(layer, device);
  VkResult result = data->table.CreateComputePipelines(device, cache, count, infos, allocator, pipelines);
  if (layer.config.mode == Config::Mode::kOff) return result;
  std::lock_guard lock(layer.mutex);
  for (uint32_t i = 0; i < count; ++i) {
    if (pipelines[i] == VK_NULL_HANDLE) continue;
    const VkPipelineShaderStageCreateInfo& stage = infos[i].stage;
    Pipeline pipeline{.id = layer.next_pipeline++,
                      .spirv = StageCode(layer, stage),
                      .entry = stage.pName != nullptr ? stage.pName : "main",
                      .layout = infos[i].layout};
    if (const VkSpecializationInfo* spec = stage.pSpecializationInfo) {
      pipeline.spec_entries.assign(spec->pMapEntries, spec->pMapEntries + spec->mapEntryCount);
      auto* bytes = static_cast<const uint8_t*>(spec->pData);
      pipeline.spec_data.assign(bytes, bytes + spec->dataSize);
    }
    pipeline.signature = Signature(pipeline);
    auto [it, _] = layer.pipelines.insert_or_assign(pipelines[i], std::move(pipeline));
    layer.pipeline_by_id.push_back(&it->second);
  }
  return result;
}

VKAPI_ATTR void VKAPI_CALL DestroyPipeline(VkDevice device, VkPipeline pipeline,
                                           const VkAllocationCallbacks* allocator) {
  Layer& layer = TheLayer();
  Device* data = nullptr;
  {
    std::lock_guard lock(layer.mutex);
    data = DeviceOf(layer, device);
    auto it = layer.pipelines.find(pipeline);
    if (it != layer.pipelines.end()) {
      // Its id stays valid for the summary: the record moves to the retired list.
      auto kept = std::make_unique<Pipeline>(std::move(it->second));
      layer.pipeline_by_id[kept->id] = kept.get();
      layer.retired.push_back(std::move(kept));
      layer.pipelines.erase(it);
    }
  }
  data->table.DestroyPipeline(device, pipeline, allocator);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDescriptorSetLayout(VkDevice device, const VkDescriptorSetLayoutCreateInfo* info,
                                                         const VkAllocationCallbacks* allocator,
                                                         VkDescriptorSetLayout* layout) {
  Layer& layer = TheLayer();
  Device* data = LockedDeviceOf(layer, device);
  VkResult result = data->table.CreateDescriptorSetLayout(device, info, allocator, layout);
  if (result != VK_SUCCESS || layer.config.mode == Config::Mode::kOff) return result;
  SetLayout set;
  set.push_descriptor = (info->flags & VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR) != 0;
  for (uint32_t i = 0; i < info->bindingCount; ++i) {
    const VkDescriptorSetLayoutBinding& b = info->pBindings[i];
    LayoutBinding binding{.binding = b.binding, .type = b.descriptorType, .count = b.descriptorCount};
    // Immutable samplers are the layout's: descriptors written later do not carry them.
    if (b.pImmutableSamplers != nullptr && (b.descriptorType == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER ||
                                            b.descriptorType == VK_DESCRIPTOR_TYPE_SAMPLER))
      binding.immutable.assign(b.pImmutableSamplers, b.pImmutableSamplers + b.descriptorCount);
    set.bindings.push_back(std::move(binding));
  }
  std::sort(set.bindings.begin(), set.bindings.end(),
            [](const LayoutBinding& a, const LayoutBinding& b) { return a.binding < b.binding; });
  std::lock_guard lock(layer.mutex);
  layer.set_layouts[*layout] = std::move(set);
  return result;
}

VKAPI_ATTR VkResult VKAPI_CALL CreatePipelineLayout(VkDevice device, const VkPipelineLayoutCreateInfo* info,
                                                    const VkAllocationCallbacks* allocator, VkPipelineLayout* layout) {
  Layer& layer = TheLayer();
  Device* data = LockedDeviceOf(layer, device);
  VkResult result = data->table.CreatePipelineLayout(device, info, allocator, layout);
  if (result != VK_SUCCESS || layer.config.mode == Config::Mode::kOff) return result;
  std::lock_guard lock(layer.mutex);
  layer.pipeline_layouts[*layout].sets.assign(info->pSetLayouts, info->pSetLayouts + info->setLayoutCount);
  return result;
}

VKAPI_ATTR VkResult VKAPI_CALL AllocateDescriptorSets(VkDevice device, const VkDescriptorSetAllocateInfo* info,
                                                      VkDescriptorSet* sets) {
  Layer& layer = TheLayer();
  Device* data = LockedDeviceOf(layer, device);
  VkResult result = data->table.AllocateDescriptorSets(device, info, sets);
  if (result != VK_SUCCESS || layer.config.mode == Config::Mode::kOff) return result;
  std::lock_guard lock(layer.mutex);
  // A handle may be reused after its pool was reset: it starts empty.
  for (uint32_t i = 0; i < info->descriptorSetCount; ++i) layer.sets[sets[i]] = {.layout = info->pSetLayouts[i]};
  return result;
}

bool IsBuffer(VkDescriptorType type) {
  return type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER || type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC ||
         type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER || type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC;
}

// Writes `count` descriptors from `binding`, `element` on: a write past a binding's end goes on
// to the next binding, as Vulkan's consecutive binding updates do. `get(i)` points at the i-th
// descriptor's VkDescriptorBufferInfo or VkDescriptorImageInfo.
template <typename Get>
void WriteSlots(Layer& layer, DescriptorSet& set, uint32_t binding, uint32_t element, uint32_t count,
                VkDescriptorType type, Get get) {
  const SetLayout* layout = nullptr;
  if (auto it = layer.set_layouts.find(set.layout); it != layer.set_layouts.end()) layout = &it->second;
  for (uint32_t i = 0; i < count; ++i) {
    if (layout != nullptr)
      for (const LayoutBinding& b : layout->bindings)
        if (b.binding == binding && element >= b.count && b.count > 0) {
          ++binding;
          element = 0;
        }
    BufferDescriptor slot{.type = type};
    if (IsBuffer(type)) {
      const auto& info = *static_cast<const VkDescriptorBufferInfo*>(get(i));
      slot.buffer = info.buffer;
      slot.offset = info.offset;
      slot.range = info.range;
    } else if (type == VK_DESCRIPTOR_TYPE_SAMPLER) {
      slot.sampler = static_cast<const VkDescriptorImageInfo*>(get(i))->sampler;
    } else if (type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE || type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER ||
               type == VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE) {
      const auto& info = *static_cast<const VkDescriptorImageInfo*>(get(i));
      slot.view = info.imageView;
      slot.layout = info.imageLayout;
      if (type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER) slot.sampler = info.sampler;
    }
    set.slots[{binding, element}] = slot;
    ++element;
  }
}

// One VkWriteDescriptorSet into `set` (its dstSet's, or a push's).
void Write(Layer& layer, DescriptorSet& set, const VkWriteDescriptorSet& one) {
  WriteSlots(layer, set, one.dstBinding, one.dstArrayElement, one.descriptorCount, one.descriptorType,
             [&](uint32_t i) -> const void* {
               return IsBuffer(one.descriptorType) ? static_cast<const void*>(one.pBufferInfo + i)
                                                   : static_cast<const void*>(one.pImageInfo + i);
             });
}

// A template's entries written into `set` from the program's `bytes`.
void WriteEntries(Layer& layer, DescriptorSet& set, const Template& entries, const void* bytes) {
  for (const VkDescriptorUpdateTemplateEntry& e : entries.entries) {
    auto* base = static_cast<const uint8_t*>(bytes) + e.offset;
    WriteSlots(layer, set, e.dstBinding, e.dstArrayElement, e.descriptorCount, e.descriptorType,
               [&](uint32_t i) -> const void* { return base + i * e.stride; });
  }
}

void Update(Layer& layer, uint32_t writes, const VkWriteDescriptorSet* write, uint32_t copies,
            const VkCopyDescriptorSet* copy) {
  for (uint32_t w = 0; w < writes; ++w) Write(layer, layer.sets[write[w].dstSet], write[w]);
  for (uint32_t c = 0; c < copies; ++c) {
    const VkCopyDescriptorSet& one = copy[c];
    DescriptorSet& source = layer.sets[one.srcSet];
    DescriptorSet& target = layer.sets[one.dstSet];
    for (uint32_t i = 0; i < one.descriptorCount; ++i) {
      auto it = source.slots.find({one.srcBinding, one.srcArrayElement + i});
      if (it != source.slots.end()) target.slots[{one.dstBinding, one.dstArrayElement + i}] = it->second;
    }
  }
}

VKAPI_ATTR void VKAPI_CALL UpdateDescriptorSets(VkDevice device, uint32_t writes, const VkWriteDescriptorSet* write,
                                                uint32_t copies, const VkCopyDescriptorSet* copy) {
  Layer& layer = TheLayer();
  Device* data = nullptr;
  {
    std::lock_guard lock(layer.mutex);
    data = DeviceOf(layer, device);
    if (layer.config.mode != Config::Mode::kOff) Update(layer, writes, write, copies, copy);
  }
  data->table.UpdateDescriptorSets(device, writes, write, copies, copy);
}

VkResult CreateTemplate(PFN_vkCreateDescriptorUpdateTemplate next, VkDevice device,
                        const VkDescriptorUpdateTemplateCreateInfo* info, const VkAllocationCallbacks* allocator,
                        VkDescriptorUpdateTemplate* made) {
  VkResult result = next(device, info, allocator, made);
  Layer& layer = TheLayer();
  if (result != VK_SUCCESS || layer.config.mode == Config::Mode::kOff) return result;
  std::lock_guard lock(layer.mutex);
  Template& t = layer.templates[*made];
  t.entries.assign(info->pDescriptorUpdateEntries, info->pDescriptorUpdateEntries + info->descriptorUpdateEntryCount);
  t.type = info->templateType;
  t.point = info->pipelineBindPoint;
  return result;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDescriptorUpdateTemplate(VkDevice device,
                                                              const VkDescriptorUpdateTemplateCreateInfo* info,
                                                              const VkAllocationCallbacks* allocator,
                                                              VkDescriptorUpdateTemplate* made) {
  Layer& layer = TheLayer();
  std::unique_lock lock(layer.mutex);
  PFN_vkCreateDescriptorUpdateTemplate next = DeviceOf(layer, device)->table.CreateDescriptorUpdateTemplate;
  lock.unlock();
  return CreateTemplate(next, device, info, allocator, made);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDescriptorUpdateTemplateKHR(VkDevice device,
                                                                 const VkDescriptorUpdateTemplateCreateInfo* info,
                                                                 const VkAllocationCallbacks* allocator,
                                                                 VkDescriptorUpdateTemplate* made) {
  Layer& layer = TheLayer();
  std::unique_lock lock(layer.mutex);
  PFN_vkCreateDescriptorUpdateTemplate next = DeviceOf(layer, device)->table.CreateDescriptorUpdateTemplateKHR;
  lock.unlock();
  return CreateTemplate(next, device, info, allocator, made);
}

void UpdateWithTemplate(Layer& layer, VkDescriptorSet target, VkDescriptorUpdateTemplate made, const void* bytes) {
  auto it = layer.templates.find(made);
  if (it == layer.templates.end() || it->second.type != VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET) return;
  WriteEntries(layer, layer.sets[target], it->second, bytes);
}

VKAPI_ATTR void VKAPI_CALL UpdateDescriptorSetWithTemplate(VkDevice device, VkDescriptorSet set,
                                                           VkDescriptorUpdateTemplate made, const void* bytes) {
  Layer& layer = TheLayer();
  std::unique_lock lock(layer.mutex);
  Device* data = DeviceOf(layer, device);
  if (layer.config.mode != Config::Mode::kOff) UpdateWithTemplate(layer, set, made, bytes);
  lock.unlock();
  data->table.UpdateDescriptorSetWithTemplate(device, set, made, bytes);
}

VKAPI_ATTR void VKAPI_CALL UpdateDescriptorSetWithTemplateKHR(VkDevice device, VkDescriptorSet set,
                                                              VkDescriptorUpdateTemplate made, const void* bytes) {
  Layer& layer = TheLayer();
  std::unique_lock lock(layer.mutex);
  Device* data = DeviceOf(layer, device);
  if (layer.config.mode != Config::Mode::kOff) UpdateWithTemplate(layer, set, made, bytes);
  lock.unlock();
  data->table.UpdateDescriptorSetWithTemplateKHR(device, set, made, bytes);
}

// A push's target: the command buffer's pushed set at number `s`, its layout the one `pipeline_layout`
// has there (a push always names it), or nullptr where the push is not for compute or the layout
// was not seen.
DescriptorSet* PushedSet(Layer& layer, VkCommandBuffer cb, VkPipelineBindPoint point, VkPipelineLayout pipeline_layout,
                         uint32_t s) {
  if (layer.config.mode != Config::Mode::kCapture || point != VK_PIPELINE_BIND_POINT_COMPUTE) return nullptr;
  auto layout = layer.pipeline_layouts.find(pipeline_layout);
  if (layout == layer.pipeline_layouts.end() || s >= layout->second.sets.size()) return nullptr;
  DescriptorSet& set = layer.command_buffers[cb].pushed[s];
  set.layout = layout->second.sets[s];
  return &set;
}

VKAPI_ATTR void VKAPI_CALL CmdPushDescriptorSetKHR(VkCommandBuffer cb, VkPipelineBindPoint point,
                                                   VkPipelineLayout pipeline_layout, uint32_t s, uint32_t count,
                                                   const VkWriteDescriptorSet* writes) {
  Layer& layer = TheLayer();
  std::unique_lock lock(layer.mutex);
  Device* data = DeviceOf(layer, cb);
  if (DescriptorSet* set = PushedSet(layer, cb, point, pipeline_layout, s))
    for (uint32_t w = 0; w < count; ++w) Write(layer, *set, writes[w]);
  lock.unlock();
  data->table.CmdPushDescriptorSetKHR(cb, point, pipeline_layout, s, count, writes);
}

VKAPI_ATTR void VKAPI_CALL CmdPushDescriptorSetWithTemplateKHR(VkCommandBuffer cb, VkDescriptorUpdateTemplate made,
                                                               VkPipelineLayout pipeline_layout, uint32_t s,
                                                               const void* bytes) {
  Layer& layer = TheLayer();
  std::unique_lock lock(layer.mutex);
  Device* data = DeviceOf(layer, cb);
  // The bind point is the template's (a push template names its own).
  auto it = layer.templates.find(made);
  if (it != layer.templates.end() && it->second.type == VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_PUSH_DESCRIPTORS_KHR)
    if (DescriptorSet* set = PushedSet(layer, cb, it->second.point, pipeline_layout, s))
      WriteEntries(layer, *set, it->second, bytes);
  lock.unlock();
  data->table.CmdPushDescriptorSetWithTemplateKHR(cb, made, pipeline_layout, s, bytes);
}

VKAPI_ATTR VkResult VKAPI_CALL CreateBuffer(VkDevice device, const VkBufferCreateInfo* info,
                                            const VkAllocationCallbacks* allocator, VkBuffer* buffer) {
  Layer& layer = TheLayer();
  Device* data = LockedDeviceOf(layer, device);
  VkBufferCreateInfo changed = *info;
  // A copy out of the buffer needs the transfer-source usage; it is added in capture mode, where it
  // may change the buffer's memory requirements, which the program asks for after this.
  // Pass 1 copies only indirect dispatches' counts, so only an indirect buffer gets it there.
  if (layer.config.mode == Config::Mode::kCapture ||
      (layer.config.mode == Config::Mode::kCount && (info->usage & VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT) != 0))
    changed.usage |= VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
  VkResult result = data->table.CreateBuffer(device, &changed, allocator, buffer);
  if (result != VK_SUCCESS || layer.config.mode == Config::Mode::kOff) return result;
  std::lock_guard lock(layer.mutex);
  layer.buffers[*buffer] = {.size = info->size, .usage = info->usage};
  return result;
}

VKAPI_ATTR void VKAPI_CALL DestroyBuffer(VkDevice device, VkBuffer buffer, const VkAllocationCallbacks* allocator) {
  Layer& layer = TheLayer();
  ForgetOn(layer, device, layer.buffers, buffer)->table.DestroyBuffer(device, buffer, allocator);
}

void NoteMemory(Layer& layer, VkBuffer buffer, VkDeviceMemory memory, VkDeviceSize offset) {
  if (auto it = layer.buffers.find(buffer); it != layer.buffers.end()) {
    it->second.memory = memory;
    it->second.memory_offset = offset;
  }
}

VKAPI_ATTR VkResult VKAPI_CALL BindBufferMemory(VkDevice device, VkBuffer buffer, VkDeviceMemory memory,
                                                VkDeviceSize offset) {
  Layer& layer = TheLayer();
  Device* data = nullptr;
  {
    std::lock_guard lock(layer.mutex);
    data = DeviceOf(layer, device);
    NoteMemory(layer, buffer, memory, offset);
  }
  return data->table.BindBufferMemory(device, buffer, memory, offset);
}

VKAPI_ATTR VkResult VKAPI_CALL BindBufferMemory2(VkDevice device, uint32_t count, const VkBindBufferMemoryInfo* infos) {
  Layer& layer = TheLayer();
  Device* data = nullptr;
  {
    std::lock_guard lock(layer.mutex);
    data = DeviceOf(layer, device);
    for (uint32_t i = 0; i < count; ++i) NoteMemory(layer, infos[i].buffer, infos[i].memory, infos[i].memoryOffset);
  }
  return data->table.BindBufferMemory2 != nullptr ? data->table.BindBufferMemory2(device, count, infos)
                                                  : data->table.BindBufferMemory2KHR(device, count, infos);
}

}  // namespace

PFN_vkVoidFunction TrackedFunction(const char* name) {
  static const NamedFunction kFunctions[] = {
      CSBENCH_LAYER_FUNCTION(CreateShaderModule),
      CSBENCH_LAYER_FUNCTION(DestroyShaderModule),
      CSBENCH_LAYER_FUNCTION(CreateComputePipelines),
      CSBENCH_LAYER_FUNCTION(DestroyPipeline),
      CSBENCH_LAYER_FUNCTION(CreateDescriptorSetLayout),
      CSBENCH_LAYER_FUNCTION(CreatePipelineLayout),
      CSBENCH_LAYER_FUNCTION(AllocateDescriptorSets),
      CSBENCH_LAYER_FUNCTION(UpdateDescriptorSets),
      CSBENCH_LAYER_FUNCTION(CreateDescriptorUpdateTemplate),
      CSBENCH_LAYER_FUNCTION(CreateDescriptorUpdateTemplateKHR),
      CSBENCH_LAYER_FUNCTION(UpdateDescriptorSetWithTemplate),
      CSBENCH_LAYER_FUNCTION(UpdateDescriptorSetWithTemplateKHR),
      CSBENCH_LAYER_FUNCTION(CmdPushDescriptorSetKHR),
      CSBENCH_LAYER_FUNCTION(CmdPushDescriptorSetWithTemplateKHR),
      CSBENCH_LAYER_FUNCTION(CreateBuffer),
      CSBENCH_LAYER_FUNCTION(DestroyBuffer),
      CSBENCH_LAYER_FUNCTION(BindBufferMemory),
      CSBENCH_LAYER_FUNCTION(BindBufferMemory2),
      NamedFunction{"vkBindBufferMemory2KHR", reinterpret_cast<PFN_vkVoidFunction>(&BindBufferMemory2)},
  };
  return FindNamed(kFunctions, name);
}

}  // namespace csbench::capture
