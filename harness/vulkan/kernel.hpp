// A compute pipeline built from a kernel source, its defines and its local size, with the
// descriptor layout for its storage buffers.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <vulkan/vulkan_raii.hpp>

#include "harness/vulkan/shader_compiler.hpp"

namespace csbench {

class Buffer;
class Context;

// The most workgroups one dimension of a dispatch may count on every device: Vulkan's minimum
// for maxComputeWorkGroupCount, and lavapipe's value. Kernels over larger domains loop (a
// grid-stride loop, or several tiles per group).
inline constexpr uint32_t kMaxGroupsPerDimension = 65535;

// Groups of `workgroup` invocations for one invocation per item, at most kMaxGroupsPerDimension.
constexpr uint32_t CappedGroups(uint64_t items, uint32_t workgroup) {
  const uint64_t groups = (items + workgroup - 1) / workgroup;
  return groups < kMaxGroupsPerDimension ? static_cast<uint32_t>(groups) : kMaxGroupsPerDimension;
}

struct KernelSpec {
  std::string label;   // the variant, for messages
  std::string source;  // relative to kernels/, e.g. "reduction/tree.comp"
  std::vector<Define> defines;
  std::array<uint32_t, 3> local_size{1, 1, 1};  // specialization constants 0, 1, 2
  std::vector<uint32_t> constants;              // specialization constants 3, 4, ...
  uint32_t bindings = 1;                        // storage buffers at bindings 0..n-1
  uint32_t push_bytes = 0;
};

// Binding i of a kernel: `range` bytes of `buffer`, starting at the dispatch's dynamic offset.
struct BufferRange {
  const Buffer* buffer = nullptr;
  uint64_t range = 0;  // 0: the whole buffer
};

// A descriptor set with a kernel's buffers bound. Storage buffers are dynamic, so one set serves
// every slice of a rotated input: each dispatch passes its offsets.
class Bindings {
 public:
  explicit Bindings(vk::raii::DescriptorSet set) : set_(std::move(set)) {}
  vk::DescriptorSet handle() const { return *set_; }

 private:
  vk::raii::DescriptorSet set_;
};

// The Vulkan objects of `spec`'s pipeline, built alike for a Kernel and for a pipeline that only
// captures the driver's statistics (harness/vulkan/pipeline_stats.hpp): the same SPIR-V, layout
// (dynamic storage buffers at bindings 0..n-1, the push range) and specialization, so that the
// statistics describe the pipeline the benchmark runs.
struct PipelineObjects {
  vk::raii::DescriptorSetLayout set_layout = nullptr;
  vk::raii::PipelineLayout layout = nullptr;
  vk::raii::Pipeline pipeline = nullptr;
};
PipelineObjects BuildPipeline(Context& context, const KernelSpec& spec, vk::PipelineCreateFlags flags = {});

class Kernel {
 public:
  // Compiles (cached per run) and creates the pipeline. Throws Error when the local size exceeds
  // the device's limits or the source does not compile.
  Kernel(Context& context, const KernelSpec& spec);

  Bindings Bind(const std::vector<BufferRange>& buffers) const;

  const KernelSpec& spec() const { return spec_; }
  vk::Pipeline pipeline() const { return *objects_.pipeline; }
  vk::PipelineLayout layout() const { return *objects_.layout; }

 private:
  Context* context_;
  KernelSpec spec_;
  PipelineObjects objects_;
  vk::raii::DescriptorPool pool_ = nullptr;
};

}  // namespace csbench
