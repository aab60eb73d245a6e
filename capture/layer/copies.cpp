// The copies around a captured dispatch. Into the program's own command buffer, at the dispatch,
// the layer records: a barrier after everything before (all commands' writes made visible to
// transfers), a copy of each bound storage or uniform buffer's range into a host-visible staging
// buffer of its own, a barrier from those copies to the compute shader, the program's dispatch, a
// barrier from the shader's writes to transfers, the copy of each range after it, and a barrier
// that makes the copies visible to the host and keeps the program's later commands from
// overwriting a range before it is copied. The data is thus exactly what the dispatch read and
// wrote, in the program's own order of work; the submission that holds it is waited for, and the
// staging buffers read (commands.cpp). Only the captured dispatch gets any of this. A captured
// sequence gets the copies before its first dispatch, before a later one only of the bindings
// no earlier dispatch of it bound, and after its last dispatch only; the barriers around them are
// the same. An indirect dispatch's VkDispatchIndirectCommand is copied with the copies before it
// (pass 1: alone, at every indirect dispatch), so its counts are those the dispatch read.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "capture/layer/formats.hpp"
#include "capture/layer/layer.hpp"

namespace csbench::capture {

namespace {

const char* TypeName(VkDescriptorType type) {
  switch (type) {
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
      return "storage buffer";
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC:
      return "dynamic storage buffer";
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
      return "uniform buffer";
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC:
      return "dynamic uniform buffer";
    case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
      return "storage image";
    case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
      return "sampled image";
    case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
      return "combined image sampler";
    case VK_DESCRIPTOR_TYPE_SAMPLER:
      return "sampler";
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
      return "uniform texel buffer";
    case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
      return "storage texel buffer";
    default:
      return "descriptor of another kind";
  }
}

// Storage and uniform buffers: the descriptors whose bytes a capture copies.
bool IsCopied(VkDescriptorType type) {
  return type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER || type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC ||
         type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER || type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC;
}

bool Overlap(const CapturedBinding& a, const CapturedBinding& b) {
  return a.source_memory != VK_NULL_HANDLE && a.source_memory == b.source_memory &&
         a.memory_offset < b.memory_offset + b.bytes && b.memory_offset < a.memory_offset + a.bytes;
}

// The same resource: one buffer range, or one image's level and layer.
bool SameResource(const CapturedBinding& a, const CapturedBinding& b) {
  if (a.image != VK_NULL_HANDLE || b.image != VK_NULL_HANDLE)
    return a.image == b.image && a.level == b.level && a.layer == b.layer;
  return a.source == b.source && a.source_offset == b.source_offset && a.bytes == b.bytes;
}

bool Identity(const VkComponentMapping& m) {
  auto same = [](VkComponentSwizzle s, VkComponentSwizzle own) {
    return s == VK_COMPONENT_SWIZZLE_IDENTITY || s == own;
  };
  return same(m.r, VK_COMPONENT_SWIZZLE_R) && same(m.g, VK_COMPONENT_SWIZZLE_G) && same(m.b, VK_COMPONENT_SWIZZLE_B) &&
         same(m.a, VK_COMPONENT_SWIZZLE_A);
}

// A combined image sampler's part beyond the image: the layout it is read in, its view's channels
// and its sampler (the layout's immutable one, else the descriptor's) as a manifest's keys. Why not,
// or "".
std::string SampledProblem(Layer& layer, const LayoutBinding& declared, uint32_t e, const BufferDescriptor& slot,
                           const ImageView& view, bool integer, CapturedBinding& b) {
  if (slot.layout != VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL && slot.layout != VK_IMAGE_LAYOUT_GENERAL)
    return fmt::format("bound in layout {}, not the shader-read-only or the general one",
                       static_cast<int>(slot.layout));
  if (!Identity(view.components)) return "its view swizzles the image's channels";
  if (declared.type == VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE) {
    // A separate sampled image: its sampler is a descriptor of its own (AddSampler).
    b.sampled = b.separate = true;
    return "";
  }
  VkSampler handle = e < declared.immutable.size() ? declared.immutable[e] : slot.sampler;
  auto sampler = layer.samplers.find(handle);
  if (sampler == layer.samplers.end()) return "its sampler was not seen";
  SamplerMapping mapped = MapSampler(sampler->second, integer);
  if (!mapped.why.empty()) return "its sampler has " + mapped.why;
  b.sampled = true;
  b.keys = mapped.keys;
  return "";
}

// A storage image's or combined image sampler's view as one level and layer of a 2-D image in a
// listed format, in the general layout (a sampled one also in the shader-read-only one, through a
// sampler a manifest can say): what a manifest's [[image]] can replay. Anything else is a note: a
// storage image's "not captured:", which leaves the dispatch without data; a combined image
// sampler's "sampled set S binding B element E: ...", which the tool gives as the reason where the
// shader declares that slot (and ignores where not).
void AddImage(Layer& layer, const LayoutBinding& declared, const BufferDescriptor* slot, uint32_t s, uint32_t e,
              PendingCapture& capture) {
  const uint32_t binding = declared.binding;
  const bool separate = declared.type == VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
  const bool sampled = declared.type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER || separate;
  const ImageView* view = nullptr;
  const Image* image = nullptr;
  if (slot != nullptr)
    if (auto v = layer.views.find(slot->view); v != layer.views.end()) {
      view = &v->second;
      if (auto i = layer.images.find(view->image); i != layer.images.end()) image = &i->second;
    }
  std::string where = fmt::format("set {} binding {} element {}: a {}", s, binding, e,
                                  separate  ? "separate sampled image"
                                  : sampled ? "combined image sampler"
                                            : "storage image");
  auto refuse = [&](const std::string& why) {
    capture.notes.push_back(sampled ? fmt::format("sampled {}: {}", where, why)
                                    : fmt::format("not captured: {} {}", where, why));
  };
  if (image == nullptr) {
    refuse("not written or not seen");
    return;
  }
  uint32_t levels = view->range.levelCount == VK_REMAINING_MIP_LEVELS ? image->levels - view->range.baseMipLevel
                                                                      : view->range.levelCount;
  uint32_t layers = view->range.layerCount == VK_REMAINING_ARRAY_LAYERS ? image->layers - view->range.baseArrayLayer
                                                                        : view->range.layerCount;
  const FormatInfo* format = FindFormat(view->format);
  std::string why;
  if (image->type != VK_IMAGE_TYPE_2D || view->type != VK_IMAGE_VIEW_TYPE_2D || levels != 1 || layers != 1)
    why = "not a 2-D view of one level and layer";
  else if (image->samples != VK_SAMPLE_COUNT_1_BIT)
    why = "multisampled";
  else if (format == nullptr || view->format != image->format)
    why = fmt::format("of format {} (view) and {} (image): not a listed storage format", static_cast<int>(view->format),
                      static_cast<int>(image->format));
  else if (!sampled && slot->layout != VK_IMAGE_LAYOUT_GENERAL)
    why = "in a layout other than the general one";
  CapturedBinding b{.set = s, .binding = binding, .element = e};
  if (why.empty() && sampled) {
    const std::string glsl = format->glsl;
    why = SampledProblem(layer, declared, e, *slot, *view, glsl.ends_with("i"), b);
  }
  if (!why.empty()) {
    refuse(why);
    return;
  }
  b.image = view->image;
  b.layout = slot->layout;
  b.level = view->range.baseMipLevel;
  b.layer = view->range.baseArrayLayer;
  b.extent = {std::max(1u, image->extent.width >> b.level), std::max(1u, image->extent.height >> b.level), 1};
  b.format = view->format;
  b.bytes = VkDeviceSize{b.extent.width} * b.extent.height * format->bytes;
  capture.bindings.push_back(b);
}

// A separate sampler (VK_DESCRIPTOR_TYPE_SAMPLER; the layout's immutable one, else the descriptor's) as a manifest's
// keys; what a manifest cannot say is a note "sampler set S binding B element E: ...", which the tool gives as the
// reason where the shader declares that slot. Its border colour is taken as written (an integer one or a float one).
void AddSampler(Layer& layer, const LayoutBinding& declared, const BufferDescriptor* slot, uint32_t s, uint32_t e,
                PendingCapture& capture) {
  auto refuse = [&](const std::string& why) {
    capture.notes.push_back(fmt::format("sampler set {} binding {} element {}: a sampler: {}", s, declared.binding, e, why));
  };
  VkSampler handle = e < declared.immutable.size() ? declared.immutable[e]
                     : slot != nullptr              ? slot->sampler
                                                    : VK_NULL_HANDLE;
  auto sampler = layer.samplers.find(handle);
  if (sampler == layer.samplers.end()) return refuse("not written or not seen");
  const VkBorderColor border = sampler->second.border;
  const bool integer = border == VK_BORDER_COLOR_INT_TRANSPARENT_BLACK || border == VK_BORDER_COLOR_INT_OPAQUE_BLACK ||
                       border == VK_BORDER_COLOR_INT_OPAQUE_WHITE || border == VK_BORDER_COLOR_INT_CUSTOM_EXT;
  SamplerMapping mapped = MapSampler(sampler->second, integer);
  if (!mapped.why.empty()) return refuse("it has " + mapped.why);
  capture.samplers.push_back({.set = s, .binding = declared.binding, .element = e, .keys = mapped.keys});
}

// The storage and uniform buffer ranges the dispatch sees, by the pipeline's layout and the bound sets; what
// cannot be captured becomes a "not captured:" note.
void FindBindings(Layer& layer, const CommandBuffer& state, const Pipeline& pipeline, PendingCapture& capture) {
  auto layout = layer.pipeline_layouts.find(pipeline.layout);
  if (layout == layer.pipeline_layouts.end()) {
    capture.notes.push_back("not captured: the pipeline's layout was not seen");
    return;
  }
  for (uint32_t s = 0; s < layout->second.sets.size(); ++s) {
    const SetLayout& set_layout = layer.set_layouts[layout->second.sets[s]];
    const BoundSet& bound = state.sets[s];
    // A set that takes push descriptors holds what the recording pushed there (nothing pushed:
    // every slot is unwritten); any other, the bound set's descriptors.
    static const DescriptorSet kNothingPushed;
    const DescriptorSet* pushed = nullptr;
    if (set_layout.push_descriptor) {
      auto it = state.pushed.find(s);
      pushed = it == state.pushed.end() ? &kNothingPushed : &it->second;
    }
    const DescriptorSet& set = pushed != nullptr ? *pushed : layer.sets[bound.set];
    uint32_t dynamic = 0;
    for (const LayoutBinding& b : set_layout.bindings) {
      bool is_dynamic =
          b.type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC || b.type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC;
      if (b.type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE || b.type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER ||
          b.type == VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE || b.type == VK_DESCRIPTOR_TYPE_SAMPLER) {
        for (uint32_t e = 0; e < b.count; ++e) {
          auto slot = set.slots.find({b.binding, e});
          const BufferDescriptor* held = slot == set.slots.end() ? nullptr : &slot->second;
          if (b.type == VK_DESCRIPTOR_TYPE_SAMPLER) {
            AddSampler(layer, b, held, s, e, capture);
          } else {
            AddImage(layer, b, held, s, e, capture);
          }
        }
        continue;
      }
      if (!IsCopied(b.type)) {
        if (b.count > 0)
          capture.notes.push_back(
              fmt::format("binding set {} binding {}: {}: not captured", s, b.binding, TypeName(b.type)));
        dynamic += is_dynamic ? b.count : 0;
        continue;
      }
      for (uint32_t e = 0; e < b.count; ++e) {
        uint32_t extra = is_dynamic && dynamic < bound.dynamic_offsets.size() ? bound.dynamic_offsets[dynamic] : 0;
        dynamic += is_dynamic ? 1 : 0;
        auto slot = set.slots.find({b.binding, e});
        auto buffer = slot == set.slots.end() ? layer.buffers.end() : layer.buffers.find(slot->second.buffer);
        if (buffer == layer.buffers.end()) {
          capture.notes.push_back(
              fmt::format("binding set {} binding {} element {}: no buffer written there (left "
                          "unbound or partially bound): not captured",
                          s, b.binding, e));
          continue;
        }
        VkDeviceSize offset = slot->second.offset + extra;
        VkDeviceSize range =
            slot->second.range == VK_WHOLE_SIZE ? buffer->second.size - slot->second.offset : slot->second.range;
        range = std::min(range, buffer->second.size > offset ? buffer->second.size - offset : 0);
        if ((buffer->second.usage & VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT) != 0)
          capture.notes.push_back(
              fmt::format("note: set {} binding {} element {}: its buffer has a device address", s, b.binding, e));
        capture.bindings.push_back({.set = s,
                                    .binding = b.binding,
                                    .element = e,
                                    .bytes = range,
                                    .source = slot->second.buffer,
                                    .source_offset = offset,
                                    .source_memory = buffer->second.memory,
                                    .memory_offset = buffer->second.memory_offset + offset});
      }
    }
  }
  // Two bindings over the same memory: replayed as two buffers, they would not alias.
  for (size_t i = 0; i < capture.bindings.size(); ++i)
    for (size_t j = i + 1; j < capture.bindings.size(); ++j) {
      const CapturedBinding& a = capture.bindings[i];
      const CapturedBinding& b = capture.bindings[j];
      if (Overlap(a, b) || (a.image != VK_NULL_HANDLE && SameResource(a, b)))
        capture.notes.push_back(
            fmt::format("not captured: memory aliasing: set {} binding {} and set {} binding {} share memory", a.set,
                        a.binding, b.set, b.binding));
    }
}

uint32_t HostMemoryType(const Device& device, uint32_t allowed) {
  VkPhysicalDeviceMemoryProperties properties{};
  device.instance->GetPhysicalDeviceMemoryProperties(device.physical, &properties);
  const VkMemoryPropertyFlags need = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  uint32_t found = UINT32_MAX;
  for (uint32_t i = 0; i < properties.memoryTypeCount; ++i) {
    VkMemoryPropertyFlags flags = properties.memoryTypes[i].propertyFlags;
    if ((allowed & (1u << i)) == 0 || (flags & need) != need) continue;
    // Cached memory reads back faster; any coherent host-visible type will do.
    if ((flags & VK_MEMORY_PROPERTY_HOST_CACHED_BIT) != 0) return i;
    if (found == UINT32_MAX) found = i;
  }
  return found;
}

bool MakeStaging(const Device& device, CapturedBinding& binding) {
  const DeviceTable& t = device.table;
  VkBufferCreateInfo info{.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                          .size = 2 * binding.bytes,
                          .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                          .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
  if (t.CreateBuffer(device.handle, &info, nullptr, &binding.staging) != VK_SUCCESS) return false;
  VkMemoryRequirements needs{};
  t.GetBufferMemoryRequirements(device.handle, binding.staging, &needs);
  uint32_t type = HostMemoryType(device, needs.memoryTypeBits);
  VkMemoryAllocateInfo allocate{
      .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = needs.size, .memoryTypeIndex = type};
  if (type == UINT32_MAX || t.AllocateMemory(device.handle, &allocate, nullptr, &binding.memory) != VK_SUCCESS)
    return false;
  if (t.BindBufferMemory(device.handle, binding.staging, binding.memory, 0) != VK_SUCCESS) return false;
  return t.MapMemory(device.handle, binding.memory, 0, VK_WHOLE_SIZE, 0, &binding.mapped) == VK_SUCCESS;
}

void Barrier(const Device& device, VkCommandBuffer cb, VkPipelineStageFlags from, VkAccessFlags from_access,
             VkPipelineStageFlags to, VkAccessFlags to_access) {
  VkMemoryBarrier barrier{
      .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = from_access, .dstAccessMask = to_access};
  device.table.CmdPipelineBarrier(cb, from, to, 0, 1, &barrier, 0, nullptr, 0, nullptr);
}

// A sampled image's level and layer from one layout to another (the one its descriptor names and
// the transfer-source one), between the accesses of two stages.
void Transition(const Device& device, VkCommandBuffer cb, const CapturedBinding& b, VkImageLayout from,
                VkImageLayout to, VkPipelineStageFlags from_stage, VkAccessFlags from_access,
                VkPipelineStageFlags to_stage, VkAccessFlags to_access) {
  VkImageMemoryBarrier barrier{.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                               .srcAccessMask = from_access,
                               .dstAccessMask = to_access,
                               .oldLayout = from,
                               .newLayout = to,
                               .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                               .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                               .image = b.image,
                               .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, b.level, 1, b.layer, 1}};
  device.table.CmdPipelineBarrier(cb, from_stage, to_stage, 0, 0, nullptr, 0, nullptr, 1, &barrier);
}

void CopyBindings(const Device& device, VkCommandBuffer cb, const std::vector<CapturedBinding>& bindings,
                  bool after) {
  for (const CapturedBinding& b : bindings) {
    if (b.bytes == 0) continue;
    if (b.image != VK_NULL_HANDLE) {
      // A sampled image is only read: its texels after the dispatch are those before.
      if (after && b.sampled) continue;
      // A copy reads the general or the transfer-source layout: a sampled image in another is put
      // in the transfer-source one for its copy, and back.
      const bool moved = b.layout != VK_IMAGE_LAYOUT_GENERAL;
      const VkImageLayout read_in = moved ? VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL : b.layout;
      if (moved)
        Transition(device, cb, b, b.layout, read_in, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_WRITE_BIT,
                   VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
      // Rows and nothing between them (a row length of 0): the texels as a manifest's file holds them.
      VkBufferImageCopy region{.bufferOffset = after ? b.bytes : 0,
                               .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, b.level, b.layer, 1},
                               .imageExtent = b.extent};
      device.table.CmdCopyImageToBuffer(cb, b.image, read_in, b.staging, 1, &region);
      if (moved)
        // Its layout back before anything after reads it (the dispatch, the program's later commands).
        Transition(device, cb, b, read_in, b.layout, VK_PIPELINE_STAGE_TRANSFER_BIT, 0,
                   VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT);
      continue;
    }
    VkBufferCopy region{.srcOffset = b.source_offset, .dstOffset = after ? b.bytes : 0, .size = b.bytes};
    device.table.CmdCopyBuffer(cb, b.source, b.staging, 1, &region);
  }
}

// The bindings' total over --max-bytes, and staging buffers for them: whether they may be copied.
bool Stage(Layer& layer, Device& device, PendingCapture& capture, std::vector<CapturedBinding>& bindings,
           uint64_t total) {
  for (const CapturedBinding& b : bindings) total += b.bytes;
  if (total > layer.config.max_bytes)
    capture.notes.push_back(
        fmt::format("not captured: the bindings hold {} bytes, over --max-bytes={}", total, layer.config.max_bytes));
  for (const std::string& note : capture.notes)
    if (note.starts_with("not captured:")) return false;
  for (CapturedBinding& b : bindings)
    if (b.bytes > 0 && !MakeStaging(device, b)) {
      capture.notes.push_back("not captured: no host-visible memory for the copies");
      return false;
    }
  return true;
}

// The copies before a dispatch, between a barrier after everything before and one to its shader
// (which may overwrite what was just copied).
void CopyBefore(const Device& device, VkCommandBuffer cb, const std::vector<CapturedBinding>& bindings) {
  Barrier(device, cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
          VK_ACCESS_TRANSFER_READ_BIT);
  CopyBindings(device, cb, bindings, false);
  Barrier(device, cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
          VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
}

// Why a sampled image `b` bound at its slot by a later dispatch of a sequence, not declared there,
// would be read through another sampler in a replay: an image declared at that slot, or another
// sampled image bound there by an earlier dispatch. "" where neither.
std::string SampledSlotProblem(const PendingCapture& capture, const std::vector<CapturedBinding>& added,
                               const CapturedBinding& b) {
  auto held = [&](uint32_t index) -> const CapturedBinding& {
    return index < capture.bindings.size() ? capture.bindings[index] : added[index - capture.bindings.size()];
  };
  for (const auto* list : {&capture.bindings, &added})
    for (const CapturedBinding& u : *list)
      if (u.image != VK_NULL_HANDLE && u.set == b.set && u.binding == b.binding && u.element == b.element)
        return "another image is declared";
  for (const SequenceStep& step : capture.steps)
    for (const auto& [set, binding, element, index] : step.slots)
      if (set == b.set && binding == b.binding && element == b.element && held(index).sampled &&
          !SameResource(held(index), b))
        return "an earlier dispatch of the sequence bound another sampled image";
  return "";
}

}  // namespace

std::array<uint32_t, 3> CountsRead::Groups() const {
  std::array<uint32_t, 3> groups{};
  if (copy.mapped != nullptr && copy.bytes == sizeof groups) std::memcpy(groups.data(), copy.mapped, sizeof groups);
  return groups;
}

bool StageCounts(Layer& layer, const Device& device, CountsRead& read) {
  read.copy.bytes = 3 * sizeof(uint32_t);
  auto buffer = layer.buffers.find(read.copy.source);
  read.buffer_size = buffer == layer.buffers.end() ? 0 : buffer->second.size;
  if (read.copy.staging == VK_NULL_HANDLE && !MakeStaging(device, read.copy)) {
    read.copy.bytes = 0;
    return false;
  }
  return true;
}

void RecordCountsRead(const Device& device, VkCommandBuffer cb, const CountsRead& read) {
  Barrier(device, cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
          VK_ACCESS_TRANSFER_READ_BIT);
  CopyBindings(device, cb, {read.copy}, false);
  Barrier(device, cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
          VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_HOST_READ_BIT);
}

void FreeStaging(const Device& device, CapturedBinding& b) {
  if (b.staging != VK_NULL_HANDLE) device.table.DestroyBuffer(device.handle, b.staging, nullptr);
  if (b.memory != VK_NULL_HANDLE) device.table.FreeMemory(device.handle, b.memory, nullptr);
  b.staging = VK_NULL_HANDLE;
  b.memory = VK_NULL_HANDLE;
  b.mapped = nullptr;
}

void RecordCaptureBefore(Layer& layer, Device& device, VkCommandBuffer cb, PendingCapture& capture) {
  const CommandBuffer& state = layer.command_buffers[cb];
  const Pipeline& pipeline = layer.pipelines[state.pipeline];
  FindBindings(layer, state, pipeline, capture);
  if (device.buffer_device_address) capture.notes.push_back("note: the device has buffer device addresses enabled");
  if (capture.sequence)
    for (size_t i = 0; i < capture.bindings.size(); ++i) {
      const CapturedBinding& b = capture.bindings[i];
      capture.steps.back().slots.push_back({b.set, b.binding, b.element, static_cast<uint32_t>(i)});
    }
  CountsRead* counts = capture.indirect ? &capture.counts : nullptr;
  if (capture.sequence && capture.steps.back().indirect) counts = &capture.steps.back().counts;
  if (counts != nullptr && !StageCounts(layer, device, *counts))
    capture.notes.push_back("not captured: no host-visible memory for the copy of the indirect dispatch's counts");
  if (!Stage(layer, device, capture, capture.bindings, 0)) {
    // The counts are read all the same: the report gives the size the dispatch had.
    if (counts != nullptr && counts->copy.bytes > 0) RecordCountsRead(device, cb, *counts);
    return;
  }
  std::vector<CapturedBinding> copies = capture.bindings;
  if (counts != nullptr) copies.push_back(counts->copy);
  CopyBefore(device, cb, copies);
  capture.data = true;
}

void RecordSequenceStep(Layer& layer, Device& device, VkCommandBuffer cb, PendingCapture& capture) {
  const CommandBuffer& state = layer.command_buffers[cb];
  const Pipeline& pipeline = layer.pipelines[state.pipeline];
  PendingCapture own;  // this dispatch's bindings alone
  FindBindings(layer, state, pipeline, own);
  const std::string at = fmt::format("dispatch {} of the sequence", capture.steps.size() - 1);
  bool refused = false;
  auto refuse = [&](const std::string& why) {
    capture.notes.push_back(fmt::format("not captured: {}: {}", at, why));
    refused = true;
  };
  for (const std::string& note : own.notes) {
    if (note.starts_with("not captured: "))
      refuse(note.substr(14));
    else if (std::find(capture.notes.begin(), capture.notes.end(), note) == capture.notes.end())
      capture.notes.push_back(note);
  }
  // Each binding is a resource an earlier dispatch bound (at whatever slot), or a new one: a
  // range that overlaps another without being it is aliasing, which a replay would not share.
  std::vector<CapturedBinding> added;
  for (CapturedBinding b : own.bindings) {
    const std::string where = fmt::format("set {} binding {} element {}", b.set, b.binding, b.element);
    auto known = std::find_if(capture.bindings.begin(), capture.bindings.end(),
                              [&](const CapturedBinding& u) { return SameResource(u, b); });
    // A sampled image keeps one sampler and layout, and is no storage image of another dispatch.
    if (known != capture.bindings.end() && (known->sampled || b.sampled) &&
        !(known->sampled && b.sampled && known->layout == b.layout && known->keys == b.keys)) {
      refuse(
          fmt::format("{} holds the image an earlier dispatch of the sequence bound at set {} binding {} element {}, "
                      "{}: a manifest's sampled image has one sampler",
                      where, known->set, known->binding, known->element,
                      known->sampled != b.sampled ? "once as a storage image and once sampled"
                                                  : "through another sampler or in another layout"));
      continue;
    }
    // A replay reads a sampled image bound at a slot another image is declared at through that
    // image's sampler, and at any other slot through the sampler of the first image bound there.
    const bool declared_here = known != capture.bindings.end() && known->set == b.set && known->binding == b.binding &&
                               known->element == b.element;
    if (b.sampled && !declared_here) {
      std::string problem = SampledSlotProblem(capture, added, b);
      if (!problem.empty()) {
        refuse(fmt::format("{} holds a sampled image where {}: a replay would read it through another sampler", where,
                           problem));
        continue;
      }
    }
    if (known != capture.bindings.end()) {
      capture.steps.back().slots.push_back(
          {b.set, b.binding, b.element, static_cast<uint32_t>(known - capture.bindings.begin())});
      continue;
    }
    for (const CapturedBinding& u : capture.bindings)
      if (Overlap(u, b)) {
        refuse(fmt::format("{} holds memory of the buffer an earlier dispatch of the sequence bound at set {} binding "
                           "{} element {}, another range of it: aliasing, which a replay would not share",
                           where, u.set, u.binding, u.element));
        break;
      }
    // A resource is declared at the slot it was first bound at, unless an earlier one is declared
    // there: then at a binding past every one its set has held so far.
    const uint32_t slot_set = b.set, slot_binding = b.binding, slot_element = b.element;
    auto taken = [&](const CapturedBinding& u) {
      return u.set == b.set && u.binding == b.binding && u.element == b.element;
    };
    if (std::any_of(capture.bindings.begin(), capture.bindings.end(), taken) ||
        std::any_of(added.begin(), added.end(), taken)) {
      uint32_t past = 0;
      for (const SequenceStep& step : capture.steps)
        for (const auto& slot : step.slots)
          if (slot[0] == b.set) past = std::max(past, slot[1] + 1);
      for (const auto* list : {&capture.bindings, &added})
        for (const CapturedBinding& u : *list)
          if (u.set == b.set) past = std::max(past, u.binding + 1);
      for (const CapturedBinding& o : own.bindings)
        if (o.set == b.set) past = std::max(past, o.binding + 1);
      b.binding = past;
      b.element = 0;
    }
    capture.steps.back().slots.push_back(
        {slot_set, slot_binding, slot_element, static_cast<uint32_t>(capture.bindings.size() + added.size())});
    added.push_back(b);
  }
  if (refused || !capture.data) {
    capture.data = false;
    return;
  }
  uint64_t total = 0;
  for (const CapturedBinding& b : capture.bindings) total += b.bytes;
  SequenceStep& step = capture.steps.back();
  if (step.indirect && !StageCounts(layer, device, step.counts))
    capture.notes.push_back(
        fmt::format("not captured: {}: no host-visible memory for the copy of the indirect dispatch's counts", at));
  if (!Stage(layer, device, capture, added, total)) {
    // Staging made for part of them is freed with the others when the device goes.
    for (CapturedBinding& b : added)
      if (b.staging != VK_NULL_HANDLE) capture.bindings.push_back(b);
    capture.data = false;
    return;
  }
  // Bindings an earlier dispatch of the sequence bound already hold its results: only the new
  // ones are copied, as they are before this dispatch (and were before the sequence), and an
  // indirect dispatch's counts.
  std::vector<CapturedBinding> copies = added;
  if (step.indirect) copies.push_back(step.counts.copy);
  if (!copies.empty()) CopyBefore(device, cb, copies);
  capture.bindings.insert(capture.bindings.end(), added.begin(), added.end());
}

void RecordCaptureAfter(Device& device, VkCommandBuffer cb, const PendingCapture& capture) {
  Barrier(device, cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
          VK_ACCESS_TRANSFER_READ_BIT);
  CopyBindings(device, cb, capture.bindings, true);
  // The host reads the copies; the program's later commands wait for them before writing the ranges.
  Barrier(device, cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
          VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_HOST_READ_BIT);
}

void FinishCapture(Layer& layer, Device&, PendingCapture& capture) {
  if (capture.done) return;
  capture.done = true;
  if (!layer.targets_done.insert(capture.target).second) return;
  // A recording that ended before the sequence's last dispatch: its copies after were never made.
  const size_t steps = capture.last - capture.first + 1;
  if (capture.sequence && capture.steps.size() < steps) {
    capture.notes.push_back(fmt::format("not captured: the recording held {} of the sequence's {} dispatches",
                                        capture.steps.size(), steps));
    capture.data = false;
  }
  // An indirect dispatch's workgroup counts, as it read them.
  if (capture.indirect) capture.groups = capture.counts.Groups();
  for (SequenceStep& step : capture.steps)
    if (step.indirect) step.groups = step.counts.Groups();
  WriteCapture(layer, capture);
}

void ReleaseCaptures(Layer& layer, Device& device) {
  for (PendingCapture& capture : layer.captures) {
    if (capture.device != device.handle) continue;
    for (CapturedBinding& b : capture.bindings) FreeStaging(device, b);
    FreeStaging(device, capture.counts.copy);
    for (SequenceStep& step : capture.steps) FreeStaging(device, step.counts.copy);
  }
  // Kept in the list (recordings hold their indices), never reused.
  for (PooledRead& pooled : layer.reads)
    if (pooled.device == device.handle) {
      FreeStaging(device, pooled.read.copy);
      pooled = {};
    }
}

}  // namespace csbench::capture
