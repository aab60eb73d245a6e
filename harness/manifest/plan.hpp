// The plan stage of a manifest case: what one variant runs at one point, made once from the
// evaluated point (harness/manifest/evaluate.cpp) and then executed by its case
// (harness/manifest/gpu_case.hpp). The sequence's dispatches in order, each with its pass, its
// values, its kernel (one pipeline per pass and specialization), its push constant bytes, the
// arrangement of the resources' slots it runs under (a pass's swaps trade slots after each of its
// repetitions) and the uniform buffer of each [[uniform]] its shader declares; the samplers of the
// sampled slots. The plan owns the kernels, uniform buffers and samplers; the case owns the
// resources (buffers and images) and hands the plan, through Bind, where each resource is.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "harness/manifest/manifest.hpp"
#include "harness/measure/points.hpp"
#include "harness/vulkan/commands.hpp"
#include "harness/vulkan/image.hpp"
#include "harness/vulkan/kernel.hpp"

namespace csbench::manifest_detail {

class Plan {
 public:
  // At the point's workgroup, with its values. Throws Unsupported where the device cannot run the plan (a workgroup, a count of descriptors,
  // push constant bytes or workgroups beyond its limits). `subgroup`: the subgroup size the
  // point requires of its pipelines (0: none); `image_copies`: the copies of the input images the
  // timed loop rotates over, each bound by a descriptor set of its own.
  Plan(Context& context, const Manifest& m, const ManifestVariant& variant, Extent workgroup,
       const PointValues& values, uint32_t subgroup, uint32_t image_copies);
  ~Plan();
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;

  // The dispatches a run of the sequence records.
  size_t size() const { return dispatches_.size(); }

  // Descriptor sets for every dispatch, resource r (buffers, then images) bound to `range(r)`: one
  // per kernel, arrangement and uniform contents (a ping-pong of a thousand steps binds two).
  using Sets = std::map<std::string, std::unique_ptr<Bindings>>;
  Sets Bind(const std::function<BufferRange(size_t)>& range) const;

  // Records the sequence under `sets` (Bind's), a barrier between dispatches; `offset(r)` the
  // dynamic offset of resource r's slice.
  void Record(Commands& c, const Sets& sets, const std::function<uint32_t(size_t)>& offset) const;

 private:
  // One dispatch of the sequence: its pass, values, kernel and push bytes, the arrangement of the
  // resources' slots it runs under, and the uniform buffer of each [[uniform]] its shader declares.
  struct Planned {
    const ManifestVariant* pass = nullptr;
    const PointValues* values = nullptr;
    Kernel* kernel = nullptr;
    std::vector<std::byte> push;
    size_t arrangement = 0;
    std::vector<const Buffer*> uniforms;  // per [[uniform]]; null where the pass does not declare it
  };
  // What sits at a slot the kernel binds: a resource (buffers, then images) or a [[uniform]].
  struct Slot {
    SlotPlace place;
    DescriptorSlot::Kind kind = DescriptorSlot::Kind::kStorageBuffer;
    size_t uniform = 0;  // kUniformBuffer's [[uniform]]
  };

  size_t ResourceNamed(const std::string& name) const;

  // The sequence's dispatches in order, and the arrangements of slots they run under: each starts
  // from the declared one, and a pass's swaps trade slots after each of its repetitions.
  void PlanDispatches();

  // The slots `pass`'s shader declares, by (set, binding, element), with what each takes.
  std::vector<Slot> SlotsOf(const ManifestVariant& pass) const;

  // A pipeline per pass and specialization (a pass's constants may depend on P), each with
  // descriptor sets enough for every arrangement and each of `copies` copies it is bound under.
  void MakeKernels(uint32_t subgroup, uint32_t copies);

  // A uniform buffer for each [[uniform]] a dispatch's shader declares, one per distinct contents.
  void MakeUniforms();

  // The samplers of the sampled slots: each described by the image declared at that slot.
  void MakeSamplers();

  // The bindings of dispatch `d`: for each slot its kernel binds, the resource the dispatch's
  // arrangement puts there (its range from `range`), a uniform buffer, and a sampled slot's sampler.
  std::unique_ptr<Bindings> BindingsFor(size_t d, const std::function<BufferRange(size_t)>& range) const;

  // What dispatch `d`'s descriptor sets depend on: its kernel, its arrangement and its uniform buffers.
  std::string BindingKey(size_t d) const;

  // Dispatch `d` with `bindings`; `offset(r)` the dynamic offset of resource r's slice.
  void DispatchOne(Commands& c, size_t d, const Bindings& bindings, const std::function<uint32_t(size_t)>& offset) const;

  Context* context_;
  const Manifest* manifest_;
  const ManifestVariant* variant_;
  Extent workgroup_;  // the point's
  const PointValues* values_;
  std::vector<Planned> dispatches_;
  std::vector<std::vector<std::vector<SlotPlace>>> arrangements_;  // per arrangement, per resource its slots
  std::map<std::string, std::unique_ptr<Kernel>> kernels_;
  std::map<const Kernel*, std::vector<Slot>> kernel_slots_;
  std::vector<std::unique_ptr<Buffer>> uniforms_;
  std::map<SlotPlace, std::unique_ptr<Sampler>> samplers_;
};

}  // namespace csbench::manifest_detail
