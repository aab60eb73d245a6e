// A compute pipeline built from a kernel source, its defines and its local size, with the
// descriptor layout for its buffers and images.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <vulkan/vulkan_raii.hpp>

#include "harness/vulkan/shader_compiler.hpp"

namespace csbench {

class Buffer;
class Context;
class Image;
class Sampler;

// The most workgroups one dimension of a dispatch may count on every device: Vulkan's minimum
// for maxComputeWorkGroupCount, and lavapipe's value. Kernels over larger domains loop (a
// grid-stride loop, or several tiles per group).
inline constexpr uint32_t kMaxGroupsPerDimension = 65535;

// Groups of `workgroup` invocations for one invocation per item, at most kMaxGroupsPerDimension.
constexpr uint32_t CappedGroups(uint64_t items, uint32_t workgroup) {
  const uint64_t groups = (items + workgroup - 1) / workgroup;
  return groups < kMaxGroupsPerDimension ? static_cast<uint32_t>(groups) : kMaxGroupsPerDimension;
}

// A descriptor a user's kernel binds (the built-in kernels bind storage buffers at 0..n-1 of set 0).
// Buffers are dynamic descriptors, so that one set serves every slice of a rotated input; images
// (a storage image, a sampled image with its sampler, a separate sampled image, a separate sampler)
// have no dynamic form, and take no offset.
struct DescriptorSlot {
  enum class Kind { kStorageBuffer, kUniformBuffer, kStorageImage, kCombinedImageSampler, kSampledImage, kSampler };
  uint32_t set = 0;
  uint32_t binding = 0;
  Kind kind = Kind::kStorageBuffer;
  // The element of an array of descriptors: a binding's slots are its elements 0..N-1, each its
  // own slot, and the layout's binding has N descriptors.
  uint32_t element = 0;
};

// A specialization constant's value as the pipeline takes it: `size` bytes of `bits` (4 for a
// bool, as VkBool32; 1, 2, 4 or 8 for the sized scalars).
struct SpecializationValue {
  uint32_t id = 0;
  uint32_t size = 4;
  uint64_t bits = 0;
};

struct KernelSpec {
  std::string label;   // the variant, for messages
  std::string source;  // relative to kernels/, e.g. "reduction/tree.comp"
  std::vector<Define> defines;
  // The workgroup's size: checked against the device's limits, and written into the
  // specialization constants `local_size_ids` name (nullopt: the shader fixes that dimension
  // itself, as a literal or a define). The built-in kernels take it in constants 0, 1, 2.
  std::array<uint32_t, 3> local_size{1, 1, 1};
  std::array<std::optional<uint32_t>, 3> local_size_ids{0u, 1u, 2u};
  std::vector<uint32_t> constants;  // specialization constants 3, 4, ... (32-bit)
  // Other specialization constants by id (a user's shader's own); an id here wins over the above.
  std::vector<SpecializationValue> specialization;
  uint32_t bindings = 1;  // storage buffers at bindings 0..n-1 of set 0, where `slots` is empty
  // The descriptors by (set, binding, element), in that order; empty: `bindings` storage buffers.
  std::vector<DescriptorSlot> slots;
  uint32_t push_bytes = 0;
  // How many Bindings of the kernel may be alive at once: Bind allocates one descriptor set per set
  // number from a pool sized by it, and a Bindings gives its sets back when it is destroyed.
  uint32_t max_sets = 16;
  // SPIR-V compiled already (a user's shader, compiled by the manifest's loader); null: `source`
  // is compiled with `defines` (CompileKernel). It must outlive the kernel.
  const std::vector<uint32_t>* spirv = nullptr;
  std::string entry = "main";  // the entry point
  // The subgroup size the pipeline must run with (0: the driver's choice), and whether every
  // subgroup of a workgroup must be full: a user's shader whose sizes were computed for one
  // subgroup size. Both need Vulkan 1.3's subgroup size control (Kernel checks).
  uint32_t required_subgroup_size = 0;
  bool full_subgroups = false;
};

// Slot i of a kernel: `range` bytes of `buffer`, starting at the dispatch's dynamic offset; for a
// slot of an image kind, `image` (in VK_IMAGE_LAYOUT_GENERAL, as every Image is) and, for a
// combined image sampler, `sampler`, where `buffer` is unused.
struct BufferRange {
  const Buffer* buffer = nullptr;
  uint64_t range = 0;  // 0: the whole buffer
  const Image* image = nullptr;
  const Sampler* sampler = nullptr;
  uint32_t level = 0;  // the image's mip level the slot's view shows
};

// A descriptor set with a kernel's buffers and images bound. Buffers are dynamic, so one set
// serves every slice of a rotated input: each dispatch passes its offsets.
class Bindings {
 public:
  explicit Bindings(std::vector<vk::raii::DescriptorSet> sets) : sets_(std::move(sets)) {}
  // One set per set number from 0, in order (a set the shader leaves empty has one too).
  std::vector<vk::DescriptorSet> handles() const {
    std::vector<vk::DescriptorSet> handles;
    for (const auto& set : sets_) handles.push_back(*set);
    return handles;
  }

 private:
  std::vector<vk::raii::DescriptorSet> sets_;
};

// The Vulkan objects of `spec`'s pipeline, built alike for a Kernel and for a pipeline that only
// captures the driver's statistics (harness/vulkan/pipeline_stats.hpp): the same SPIR-V, layout
// (dynamic storage buffers at bindings 0..n-1, the push range) and specialization, so that the
// statistics describe the pipeline the benchmark runs.
struct PipelineObjects {
  std::vector<vk::raii::DescriptorSetLayout> set_layouts;  // per set number from 0
  vk::raii::PipelineLayout layout = nullptr;
  vk::raii::Pipeline pipeline = nullptr;
};
PipelineObjects BuildPipeline(Context& context, const KernelSpec& spec, vk::PipelineCreateFlags flags = {});

class Kernel {
 public:
  // Compiles (cached per run) and creates the pipeline. Throws Error when the local size exceeds
  // the device's limits or the source does not compile.
  Kernel(Context& context, const KernelSpec& spec);

  // One BufferRange per slot, in slot order. At most spec().max_sets Bindings alive at once.
  Bindings Bind(const std::vector<BufferRange>& buffers) const;

  const KernelSpec& spec() const { return spec_; }
  // The descriptors a Bind takes a BufferRange for, in (set, binding) order.
  size_t slots() const { return slots_.size(); }
  // Those of them that take a dynamic offset (the buffers): a dispatch passes one offset for each,
  // in slot order, skipping the images.
  uint32_t dynamic_slots() const { return dynamic_slots_; }
  vk::Pipeline pipeline() const { return *objects_.pipeline; }
  vk::PipelineLayout layout() const { return *objects_.layout; }

 private:
  Context* context_;
  KernelSpec spec_;
  PipelineObjects objects_;
  std::vector<DescriptorSlot> slots_;  // by (set, binding)
  uint32_t dynamic_slots_ = 0;
  vk::raii::DescriptorPool pool_ = nullptr;
};

}  // namespace csbench
