#include "harness/vulkan/kernel.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>
#include <string_view>

#include "harness/base/error.hpp"
#include "harness/vulkan/buffer.hpp"
#include "harness/vulkan/context.hpp"
#include "harness/vulkan/image.hpp"

namespace csbench {
namespace {

void CheckLocalSize(const DeviceInfo& info, const KernelSpec& spec) {
  const auto& size = spec.local_size;
  uint64_t invocations = uint64_t{size[0]} * size[1] * size[2];
  Require(invocations > 0, fmt::format("{}: local size {}x{}x{} is empty", spec.label, size[0], size[1], size[2]));
  RequireSupport(invocations <= info.max_workgroup_invocations,
          fmt::format("{}: a workgroup of {}x{}x{} = {} invocations exceeds the device's "
                      "maxComputeWorkGroupInvocations ({})",
                      spec.label, size[0], size[1], size[2], invocations, info.max_workgroup_invocations));
  for (int i = 0; i < 3; ++i) {
    RequireSupport(size[i] <= info.max_workgroup_size[i],
            fmt::format("{}: workgroup size {} in dimension {} exceeds the device's maxComputeWorkGroupSize ({})",
                        spec.label, size[i], i, info.max_workgroup_size[i]));
  }
}

// The kernel's descriptors by (set, binding): its slots, or its storage buffers at 0..n-1 of set 0.
std::vector<DescriptorSlot> SlotsOf(const KernelSpec& spec) {
  if (!spec.slots.empty()) return spec.slots;
  std::vector<DescriptorSlot> slots;
  for (uint32_t i = 0; i < spec.bindings; ++i) slots.push_back({.set = 0, .binding = i});
  return slots;
}

vk::DescriptorType TypeOf(DescriptorSlot::Kind kind) {
  switch (kind) {
    case DescriptorSlot::Kind::kUniformBuffer: return vk::DescriptorType::eUniformBufferDynamic;
    case DescriptorSlot::Kind::kStorageImage: return vk::DescriptorType::eStorageImage;
    case DescriptorSlot::Kind::kCombinedImageSampler: return vk::DescriptorType::eCombinedImageSampler;
    case DescriptorSlot::Kind::kSampledImage: return vk::DescriptorType::eSampledImage;
    case DescriptorSlot::Kind::kSampler: return vk::DescriptorType::eSampler;
    case DescriptorSlot::Kind::kStorageBuffer: break;
  }
  return vk::DescriptorType::eStorageBufferDynamic;
}

// Buffers are bound dynamic (each dispatch passes an offset); images have no dynamic form.
bool IsDynamic(DescriptorSlot::Kind kind) {
  return kind == DescriptorSlot::Kind::kStorageBuffer || kind == DescriptorSlot::Kind::kUniformBuffer;
}

std::string_view KindName(DescriptorSlot::Kind kind) {
  switch (kind) {
    case DescriptorSlot::Kind::kUniformBuffer: return "uniform buffer";
    case DescriptorSlot::Kind::kStorageImage: return "storage image";
    case DescriptorSlot::Kind::kCombinedImageSampler: return "sampled image";
    case DescriptorSlot::Kind::kSampledImage: return "separate sampled image";
    case DescriptorSlot::Kind::kSampler: return "sampler";
    case DescriptorSlot::Kind::kStorageBuffer: break;
  }
  return "storage buffer";
}

}  // namespace

PipelineObjects BuildPipeline(Context& context, const KernelSpec& spec, vk::PipelineCreateFlags flags) {
  const std::vector<uint32_t>& spirv =
      spec.spirv != nullptr ? *spec.spirv : CompileKernel(spec.source, spec.defines, spec.label);
  const vk::raii::Device& device = context.device();
  PipelineObjects objects;

  const std::vector<DescriptorSlot> slots = SlotsOf(spec);
  const uint32_t sets = slots.empty() ? 1 : slots.back().set + 1;
  std::vector<vk::DescriptorSetLayout> set_layouts;
  for (uint32_t set = 0; set < sets; ++set) {
    std::vector<vk::DescriptorSetLayoutBinding> bindings;
    for (const DescriptorSlot& slot : slots) {
      if (slot.set != set) continue;
      // The elements of an array of descriptors follow their binding's first: one layout binding
      // of as many descriptors. A runtime-sized array (`bufs[]`) gets a fixed count too, that of
      // the elements given: they are known when the pipeline is made, and every one is written,
      // so no variable descriptor count (nor partially bound) is needed.
      if (!bindings.empty() && bindings.back().binding == slot.binding) {
        bindings.back().descriptorCount = std::max(bindings.back().descriptorCount, slot.element + 1);
        continue;
      }
      bindings.push_back({.binding = slot.binding,
                          .descriptorType = TypeOf(slot.kind),
                          .descriptorCount = slot.element + 1,
                          .stageFlags = vk::ShaderStageFlagBits::eCompute});
    }
    vk::DescriptorSetLayoutCreateInfo set_create{};
    set_create.setBindings(bindings);
    objects.set_layouts.push_back(CSBENCH_VK(vk::raii::DescriptorSetLayout(device, set_create)));
    set_layouts.push_back(*objects.set_layouts.back());
  }

  vk::PushConstantRange push{.stageFlags = vk::ShaderStageFlagBits::eCompute, .offset = 0, .size = spec.push_bytes};
  vk::PipelineLayoutCreateInfo layout_create{};
  layout_create.setSetLayouts(set_layouts);
  if (spec.push_bytes > 0) layout_create.setPushConstantRanges(push);
  objects.layout = CSBENCH_VK(vk::raii::PipelineLayout(device, layout_create));

  // The specialization: the local size where the shader takes it from constants, the built-in
  // kernels' constants 3, 4, ..., then a user's own by id (each id once: the last given wins).
  std::map<uint32_t, SpecializationValue> by_id;
  for (size_t i = 0; i < 3; ++i) {
    if (spec.local_size_ids[i]) by_id[*spec.local_size_ids[i]] = {*spec.local_size_ids[i], 4, spec.local_size[i]};
  }
  for (size_t i = 0; i < spec.constants.size(); ++i) {
    const auto id = static_cast<uint32_t>(3 + i);
    by_id[id] = {id, 4, spec.constants[i]};
  }
  for (const SpecializationValue& v : spec.specialization) by_id[v.id] = v;
  std::vector<std::byte> data;
  std::vector<vk::SpecializationMapEntry> entries;
  for (const auto& [id, v] : by_id) {
    // Little-endian hosts (every one Vulkan runs on here): the low `size` bytes of the bits.
    entries.push_back({.constantID = id, .offset = static_cast<uint32_t>(data.size()), .size = v.size});
    const auto* bytes = reinterpret_cast<const std::byte*>(&v.bits);
    data.insert(data.end(), bytes, bytes + v.size);
  }
  vk::SpecializationInfo specialization{};
  specialization.setMapEntries(entries);
  specialization.setData<std::byte>(data);

  vk::raii::ShaderModule module = CSBENCH_VK(vk::raii::ShaderModule(
      device, vk::ShaderModuleCreateInfo{.codeSize = spirv.size() * 4, .pCode = spirv.data()}));
  vk::PipelineShaderStageRequiredSubgroupSizeCreateInfo required{.requiredSubgroupSize = spec.required_subgroup_size};
  vk::ComputePipelineCreateInfo pipeline_create{
      .flags = flags,
      .stage = {.pNext = spec.required_subgroup_size != 0 ? &required : nullptr,
                .flags = spec.full_subgroups ? vk::PipelineShaderStageCreateFlagBits::eRequireFullSubgroups
                                             : vk::PipelineShaderStageCreateFlags{},
                .stage = vk::ShaderStageFlagBits::eCompute,
                .module = *module,
                .pName = spec.entry.c_str(),
                .pSpecializationInfo = &specialization},
      .layout = *objects.layout};
  objects.pipeline = CSBENCH_VK(vk::raii::Pipeline(device, nullptr, pipeline_create));
  return objects;
}

Kernel::Kernel(Context& context, const KernelSpec& spec) : context_(&context), spec_(spec) {
  CheckLocalSize(context.info(), spec);
  const DeviceInfo& info = context.info();
  if (spec.required_subgroup_size != 0 || spec.full_subgroups) {
    RequireSupport(info.api_version >= VK_API_VERSION_1_3,
                   fmt::format("{}: a required subgroup size or full subgroups need Vulkan 1.3's subgroup size "
                               "control, and the device has {}",
                               spec.label, info.ApiVersionString()));
  }
  if (spec.required_subgroup_size != 0) {
    // Checked here: a driver may accept a size outside its own range.
    const uint32_t size = spec.required_subgroup_size;
    RequireSupport(size >= info.min_subgroup_size && size <= info.max_subgroup_size && (size & (size - 1)) == 0,
                   fmt::format("{}: subgroup size {} is outside the device's {} to {}", spec.label, size,
                               info.min_subgroup_size, info.max_subgroup_size));
  }
  Require(spec.max_sets > 0, fmt::format("{}: a kernel for no descriptor sets (max_sets 0)", spec.label));
  objects_ = BuildPipeline(context, spec);
  slots_ = SlotsOf(spec);
  // Each Bind takes one descriptor per slot: max_sets Bindings alive at once take max_sets of each.
  std::map<vk::DescriptorType, uint32_t> counts;
  for (const DescriptorSlot& slot : slots_) {
    counts[TypeOf(slot.kind)] += spec.max_sets;
    if (IsDynamic(slot.kind)) ++dynamic_slots_;
  }
  std::vector<vk::DescriptorPoolSize> sizes;
  for (const auto& [type, count] : counts) sizes.push_back({.type = type, .descriptorCount = count});
  if (sizes.empty()) sizes.push_back({.type = vk::DescriptorType::eStorageBufferDynamic, .descriptorCount = 1});
  vk::DescriptorPoolCreateInfo pool_create{.flags = vk::DescriptorPoolCreateFlagBits::eFreeDescriptorSet,
                                           .maxSets = spec.max_sets * static_cast<uint32_t>(objects_.set_layouts.size())};
  pool_create.setPoolSizes(sizes);
  pool_ = CSBENCH_VK(vk::raii::DescriptorPool(context.device(), pool_create));
}

Bindings Kernel::Bind(const std::vector<BufferRange>& buffers) const {
  Require(buffers.size() == slots_.size(),
          fmt::format("{}: {} buffers bound, the kernel has {} bindings", spec_.label, buffers.size(), slots_.size()));
  const DeviceInfo& info = context_->info();
  std::vector<vk::DescriptorSetLayout> set_layouts;
  for (const auto& layout : objects_.set_layouts) set_layouts.push_back(*layout);
  vk::DescriptorSetAllocateInfo allocate{.descriptorPool = *pool_};
  allocate.setSetLayouts(set_layouts);
  auto sets = CSBENCH_VK(vk::raii::DescriptorSets(context_->device(), allocate));
  // The writes point into these: reserved up front, so that no push_back moves them.
  std::vector<vk::DescriptorBufferInfo> buffer_infos;
  std::vector<vk::DescriptorImageInfo> image_infos;
  buffer_infos.reserve(buffers.size());
  image_infos.reserve(buffers.size());
  std::vector<vk::WriteDescriptorSet> writes;
  for (size_t i = 0; i < buffers.size(); ++i) {
    const auto& b = buffers[i];
    const DescriptorSlot& slot = slots_[i];
    vk::WriteDescriptorSet write{.dstSet = *sets[slot.set],
                                 .dstBinding = slot.binding,
                                 .dstArrayElement = slot.element,
                                 .descriptorCount = 1,
                                 .descriptorType = TypeOf(slot.kind)};
    const std::string where =
        fmt::format("{}: the {} at set {} binding {}{}", spec_.label, KindName(slot.kind), slot.set, slot.binding,
                    slot.element != 0 ? fmt::format(" element {}", slot.element) : "");
    if (IsDynamic(slot.kind)) {
      Require(b.buffer != nullptr, fmt::format("{} was given no buffer", where));
      uint64_t range = b.range == 0 ? b.buffer->size() : b.range;
      const bool uniform = slot.kind == DescriptorSlot::Kind::kUniformBuffer;
      const uint64_t most = uniform ? info.max_uniform_buffer_range : info.max_storage_buffer_range;
      RequireSupport(range <= most, fmt::format("{}: binding {} MiB exceeds the device's {} ({} MiB)", spec_.label,
                                                range >> 20, uniform ? "maxUniformBufferRange" : "maxStorageBufferRange",
                                                most >> 20));
      buffer_infos.push_back({.buffer = b.buffer->handle(), .offset = 0, .range = range});
      write.pBufferInfo = &buffer_infos.back();
    } else if (slot.kind == DescriptorSlot::Kind::kSampler) {
      Require(b.sampler != nullptr, fmt::format("{} was given no sampler", where));
      image_infos.push_back({.sampler = b.sampler->handle()});
      write.pImageInfo = &image_infos.back();
    } else {
      Require(b.image != nullptr, fmt::format("{} was given no image", where));
      const Image& image = *b.image;
      const std::string format = vk::to_string(image.format());
      vk::Sampler sampler;
      if (slot.kind == DescriptorSlot::Kind::kStorageImage) {
        Require(image.storage(), fmt::format("{} was given a {} image made without storage usage", where, format));
      } else if (slot.kind == DescriptorSlot::Kind::kSampledImage) {
        Require(image.sampled(), fmt::format("{} was given a {} image made without sampled usage", where, format));
      } else {
        Require(b.sampler != nullptr, fmt::format("{} was given no sampler", where));
        Require(image.sampled(), fmt::format("{} was given a {} image made without sampled usage", where, format));
        const SamplerSpec& sampling = b.sampler->spec();
        // Vulkan samples only 1-D and 2-D views with unnormalized coordinates (VkSamplerCreateInfo's
        // unnormalizedCoordinates): a 3-D image would be read as the driver likes.
        Require(
            !sampling.unnormalized || (!image.three_d() && !image.arrayed()),
            fmt::format("{}: a sampler with unnormalized coordinates on a 3-D or arrayed image, which Vulkan forbids",
                        where));
        RequireSupport(!sampling.linear || SupportOf(*context_, image.format()).linear_filter,
                       fmt::format("linear filtering of {} images ({})", format, where));
        sampler = b.sampler->handle();
      }
      image_infos.push_back(
          {.sampler = sampler, .imageView = image.view(b.level), .imageLayout = vk::ImageLayout::eGeneral});
      write.pImageInfo = &image_infos.back();
    }
    writes.push_back(write);
  }
  context_->device().updateDescriptorSets(writes, {});
  std::vector<vk::raii::DescriptorSet> owned;
  for (auto& set : sets) owned.push_back(std::move(set));
  return Bindings(std::move(owned));
}

}  // namespace csbench
