#include "harness/vulkan/kernel.hpp"

#include <fmt/format.h>

#include "harness/base/error.hpp"
#include "harness/vulkan/buffer.hpp"
#include "harness/vulkan/context.hpp"

namespace csbench {
namespace {

constexpr uint32_t kSetsPerKernel = 16;

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

}  // namespace

PipelineObjects BuildPipeline(Context& context, const KernelSpec& spec, vk::PipelineCreateFlags flags) {
  const std::vector<uint32_t>& spirv = CompileKernel(spec.source, spec.defines, spec.label);
  const vk::raii::Device& device = context.device();
  PipelineObjects objects;

  std::vector<vk::DescriptorSetLayoutBinding> bindings;
  for (uint32_t i = 0; i < spec.bindings; ++i) {
    bindings.push_back({.binding = i,
                        .descriptorType = vk::DescriptorType::eStorageBufferDynamic,
                        .descriptorCount = 1,
                        .stageFlags = vk::ShaderStageFlagBits::eCompute});
  }
  vk::DescriptorSetLayoutCreateInfo set_create{};
  set_create.setBindings(bindings);
  objects.set_layout = CSBENCH_VK(vk::raii::DescriptorSetLayout(device, set_create));

  vk::PushConstantRange push{.stageFlags = vk::ShaderStageFlagBits::eCompute, .offset = 0, .size = spec.push_bytes};
  vk::DescriptorSetLayout set_layout = *objects.set_layout;
  vk::PipelineLayoutCreateInfo layout_create{.setLayoutCount = 1, .pSetLayouts = &set_layout};
  if (spec.push_bytes > 0) layout_create.setPushConstantRanges(push);
  objects.layout = CSBENCH_VK(vk::raii::PipelineLayout(device, layout_create));

  std::vector<uint32_t> values(spec.local_size.begin(), spec.local_size.end());
  values.insert(values.end(), spec.constants.begin(), spec.constants.end());
  std::vector<vk::SpecializationMapEntry> entries;
  for (uint32_t i = 0; i < values.size(); ++i) {
    entries.push_back({.constantID = i, .offset = i * 4u, .size = 4});
  }
  vk::SpecializationInfo specialization{};
  specialization.setMapEntries(entries);
  specialization.setData<uint32_t>(values);

  vk::raii::ShaderModule module = CSBENCH_VK(vk::raii::ShaderModule(
      device, vk::ShaderModuleCreateInfo{.codeSize = spirv.size() * 4, .pCode = spirv.data()}));
  vk::ComputePipelineCreateInfo pipeline_create{
      .flags = flags,
      .stage = {.stage = vk::ShaderStageFlagBits::eCompute,
                .module = *module,
                .pName = "main",
                .pSpecializationInfo = &specialization},
      .layout = *objects.layout};
  objects.pipeline = CSBENCH_VK(vk::raii::Pipeline(device, nullptr, pipeline_create));
  return objects;
}

Kernel::Kernel(Context& context, const KernelSpec& spec) : context_(&context), spec_(spec) {
  CheckLocalSize(context.info(), spec);
  objects_ = BuildPipeline(context, spec);
  vk::DescriptorPoolSize pool_size{.type = vk::DescriptorType::eStorageBufferDynamic,
                                   .descriptorCount = kSetsPerKernel * spec.bindings};
  pool_ = CSBENCH_VK(vk::raii::DescriptorPool(
      context.device(), vk::DescriptorPoolCreateInfo{.flags = vk::DescriptorPoolCreateFlagBits::eFreeDescriptorSet,
                                                     .maxSets = kSetsPerKernel,
                                                     .poolSizeCount = 1,
                                                     .pPoolSizes = &pool_size}));
}

Bindings Kernel::Bind(const std::vector<BufferRange>& buffers) const {
  Require(buffers.size() == spec_.bindings,
          fmt::format("{}: {} buffers bound, the kernel has {} bindings", spec_.label, buffers.size(), spec_.bindings));
  const DeviceInfo& info = context_->info();
  vk::DescriptorSetLayout set_layout = *objects_.set_layout;
  auto sets = CSBENCH_VK(vk::raii::DescriptorSets(
      context_->device(),
      vk::DescriptorSetAllocateInfo{.descriptorPool = *pool_, .descriptorSetCount = 1, .pSetLayouts = &set_layout}));
  std::vector<vk::DescriptorBufferInfo> infos;
  for (const auto& b : buffers) {
    uint64_t range = b.range == 0 ? b.buffer->size() : b.range;
    RequireSupport(range <= info.max_storage_buffer_range,
            fmt::format("{}: binding {} MiB exceeds the device's maxStorageBufferRange ({} MiB)", spec_.label,
                        range >> 20, info.max_storage_buffer_range >> 20));
    infos.push_back({.buffer = b.buffer->handle(), .offset = 0, .range = range});
  }
  std::vector<vk::WriteDescriptorSet> writes;
  for (uint32_t i = 0; i < infos.size(); ++i) {
    writes.push_back({.dstSet = *sets[0],
                      .dstBinding = i,
                      .descriptorCount = 1,
                      .descriptorType = vk::DescriptorType::eStorageBufferDynamic,
                      .pBufferInfo = &infos[i]});
  }
  context_->device().updateDescriptorSets(writes, {});
  return Bindings(std::move(sets[0]));
}

}  // namespace csbench
