// A manifest case's plan (harness/manifest/plan.hpp): its dispatches in order, their kernels,
// uniform buffers and samplers, and how each is bound and recorded.
#include "harness/manifest/plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <span>
#include <string>
#include <utility>

#include "harness/base/error.hpp"
#include "harness/manifest/case_parts.hpp"
#include "harness/manifest/stage.hpp"
#include "harness/vulkan/context.hpp"
#include "harness/vulkan/limits.hpp"
#include "harness/vulkan/shader_compiler.hpp"

namespace csbench::manifest_detail {

Plan::Plan(Context& context, const Manifest& m, const ManifestVariant& variant, Extent workgroup,
           const PointValues& values, uint32_t subgroup, uint32_t image_copies)
    : context_(&context), manifest_(&m), variant_(&variant), workgroup_(workgroup), values_(&values) {
  PlanDispatches();
  MakeKernels(subgroup, image_copies);
  MakeUniforms();
  MakeSamplers();
}

Plan::~Plan() = default;

size_t Plan::ResourceNamed(const std::string& name) const {
  const size_t n = manifest_->buffers.size();
  for (size_t r = 0; r < n; ++r) {
    if (manifest_->buffers[r].name == name) return r;
  }
  for (size_t k = 0; k < manifest_->images.size(); ++k) {
    if (manifest_->images[k].name == name) return n + k;
  }
  return n + manifest_->images.size();
}

Plan::Sets Plan::Bind(const std::function<BufferRange(size_t)>& range) const {
  Sets sets;
  for (size_t d = 0; d < dispatches_.size(); ++d) {
    std::unique_ptr<Bindings>& set = sets[BindingKey(d)];
    if (!set) set = BindingsFor(d, range);
  }
  return sets;
}

void Plan::Record(Commands& c, const Sets& sets, const std::function<uint32_t(size_t)>& offset) const {
  for (size_t d = 0; d < dispatches_.size(); ++d) {
    if (d > 0) c.Barrier();
    DispatchOne(c, d, *sets.at(BindingKey(d)), offset);
  }
}

void Plan::PlanDispatches() {
  std::vector<const PointValues*> values;
  if (values_->passes.empty()) {
    values.push_back(values_);
  } else {
    for (const PointValues& p : values_->passes) values.push_back(&p);
  }
  std::vector<std::vector<SlotPlace>> arrangement = DeclaredSlots(*manifest_);
  for (const PointValues* p : values) {
    Planned planned;
    planned.pass = variant_->passes.empty() ? variant_ : &variant_->passes[p->pass];
    planned.values = p;
    // The pass's binds hold for its dispatch alone; its swaps trade the arrangement's slots.
    const std::vector<std::vector<SlotPlace>> bound = WithBinds(*manifest_, *planned.pass, arrangement);
    auto known = std::find(arrangements_.begin(), arrangements_.end(), bound);
    planned.arrangement = static_cast<size_t>(known - arrangements_.begin());
    if (known == arrangements_.end()) arrangements_.push_back(bound);
    if (p->push_bytes.empty()) {
      for (const PushValue& v : p->push) {
        const auto* bytes = reinterpret_cast<const std::byte*>(&v.bits);
        planned.push.insert(planned.push.end(), bytes, bytes + 4);
      }
    } else {
      planned.push = p->push_bytes;
    }
    dispatches_.push_back(std::move(planned));
    for (const auto& [a, b] : dispatches_.back().pass->swaps) {
      std::swap(arrangement[ResourceNamed(a)], arrangement[ResourceNamed(b)]);
    }
  }
}

std::vector<Plan::Slot> Plan::SlotsOf(const ManifestVariant& pass) const {
  const Manifest& m = *manifest_;
  std::vector<Slot> slots;
  // The kind of each slot is that of the resource the pass's own arrangement puts there.
  const std::vector<std::vector<SlotPlace>> bound = WithBinds(m, pass, DeclaredSlots(m));
  for (const SlotPlace& place : pass.declared) {
    Slot slot{.place = place};
    for (size_t u = 0; u < m.uniforms.size(); ++u) {
      if (m.uniforms[u].set == place.set && m.uniforms[u].binding == place.binding &&
          m.uniforms[u].element == place.element) {
        slot.kind = DescriptorSlot::Kind::kUniformBuffer;
        slot.uniform = u;
      }
    }
    for (size_t k = 0; k < m.images.size(); ++k) {
      const std::vector<SlotPlace>& at = bound[m.buffers.size() + k];
      if (std::find(at.begin(), at.end(), place) != at.end()) {
        const ManifestImage& image = m.images[k];
        slot.kind = !image.sampled   ? DescriptorSlot::Kind::kStorageImage
                    : image.separate ? DescriptorSlot::Kind::kSampledImage
                                     : DescriptorSlot::Kind::kCombinedImageSampler;
      }
    }
    for (const ManifestSampler& s : m.samplers) {
      if (s.slot == place) slot.kind = DescriptorSlot::Kind::kSampler;
    }
    slots.push_back(slot);
  }
  return slots;
}

void Plan::MakeKernels(uint32_t subgroup, uint32_t copies) {
  const DeviceInfo& info = context_->info();
  auto key_of = [](const Planned& d) {
    std::string key = fmt::format("{}", static_cast<const void*>(d.pass));
    for (uint64_t bits : d.values->constants) key += fmt::format("/{}", bits);
    return key;
  };
  // The descriptor sets each kernel is bound with: one per arrangement and uniform contents, per
  // copy of the input images, and the check run's.
  std::map<std::string, std::set<std::string>> combinations;
  for (const Planned& d : dispatches_) {
    std::string combination = std::to_string(d.arrangement);
    for (const std::vector<std::byte>& block : d.values->uniforms) {
      combination += '/';
      combination += BytesText(block);
    }
    combinations[key_of(d)].insert(combination);
  }
  for (Planned& d : dispatches_) {
    const std::string key = key_of(d);
    if (auto made = kernels_.find(key); made != kernels_.end()) {
      d.kernel = made->second.get();
      continue;
    }
    const ManifestVariant& v = *d.pass;
    const PointValues& values = *d.values;
    // z: the point's where it has one and the shader takes it (a constant or a macro), else the
    // shader's own (a workgroup of two dimensions leaves it).
    const bool z_taken = v.local_size_ids[2].has_value() || v.workgroup_defines.size() >= 3;
    RequireSupport(v.is_pass || workgroup_.z == 1 || z_taken || workgroup_.z == v.local_size_z,
                   fmt::format("variant {}'s shader fixes its local size z at {}: workgroup {} cannot run it", v.name,
                               v.local_size_z, Sized("", workgroup_)));
    std::array<uint32_t, 3> local{workgroup_.x, workgroup_.y,
                                  workgroup_.z != 1 || z_taken ? workgroup_.z : v.local_size_z};
    for (size_t i = 0; i < 2; ++i) {
      const uint32_t asked = local[i];
      if (v.is_pass && v.literal_local_size[i] != 0) {
        // A pass of a literal size runs at it.
        local[i] = v.literal_local_size[i];
        continue;
      }
      RequireSupport(v.literal_local_size[i] == 0 || asked == v.literal_local_size[i],
                     fmt::format("variant {}'s shader fixes its local size {} at {}: workgroup {} cannot run it",
                                 v.name, "xy"[i], v.literal_local_size[i], Sized("", workgroup_)));
    }
    if (v.is_pass && !z_taken) local[2] = v.local_size_z;
    RequireWorkgroup(*context_, {local[0], local[1], local[2]});
    const std::vector<Slot> slots = SlotsOf(v);
    const auto buffers = static_cast<uint32_t>(std::count_if(slots.begin(), slots.end(), [](const Slot& s) {
      return s.kind == DescriptorSlot::Kind::kStorageBuffer;
    }));
    const auto uniforms = static_cast<uint32_t>(std::count_if(slots.begin(), slots.end(), [](const Slot& s) {
      return s.kind == DescriptorSlot::Kind::kUniformBuffer;
    }));
    RequireSupport(buffers <= info.max_dynamic_storage_buffers && buffers <= info.max_storage_buffers_per_stage,
                   fmt::format("{} storage buffers exceed the device's maxDescriptorSetStorageBuffersDynamic ({}) or "
                               "maxPerStageDescriptorStorageBuffers ({})",
                               buffers, info.max_dynamic_storage_buffers, info.max_storage_buffers_per_stage));
    RequireSupport(uniforms <= info.max_dynamic_uniform_buffers,
                   fmt::format("{} uniform buffers exceed the device's maxDescriptorSetUniformBuffersDynamic ({})",
                               uniforms, info.max_dynamic_uniform_buffers));
    KernelSpec spec{.label = v.name,
                    .source = v.source.string(),
                    .defines = v.defines,
                    .local_size = local,
                    .local_size_ids = v.local_size_ids,
                    .bindings = buffers,
                    .push_bytes = static_cast<uint32_t>(d.push.size()),
                    .spirv = &CompileShader(SourceOf(v, workgroup_, true)),
                    .entry = v.entry};
    // Sizes computed for the device's subgroup size hold only where the pipeline runs with it.
    if (v.uses_subgroup_size && v.require_subgroup_size && info.min_subgroup_size < info.max_subgroup_size) {
      spec.required_subgroup_size = info.subgroup_size;
    }
    // A point of the /sg<N> axis runs at N, required of the pipeline (Kernel checks it against the
    // device's range itself: a driver may accept an impossible one).
    if (subgroup != 0) spec.required_subgroup_size = subgroup;
    spec.full_subgroups = v.full_subgroups;
    for (size_t i = 0; i < v.constants.size(); ++i) {
      spec.specialization.push_back({.id = v.constants[i].id, .size = v.constants[i].bytes, .bits = values.constants[i]});
    }
    for (const Slot& slot : slots) {
      spec.slots.push_back(
          {.set = slot.place.set, .binding = slot.place.binding, .kind = slot.kind, .element = slot.place.element});
    }
    // The timed sets (one per dispatch and copy at most) and the check run's.
    spec.max_sets = static_cast<uint32_t>(combinations[key].size()) * (copies + 1);
    kernels_[key] = std::make_unique<Kernel>(*context_, spec);
    kernel_slots_[kernels_[key].get()] = slots;
    d.kernel = kernels_[key].get();
  }
  for (const Planned& d : dispatches_) {
    const uint32_t push_bytes = static_cast<uint32_t>(d.push.size());
    RequireSupport(push_bytes <= info.max_push_constant_bytes,
                   fmt::format("{} bytes of push constants exceed the device's maxPushConstantsSize ({})", push_bytes,
                               info.max_push_constant_bytes));
    for (size_t i = 0; i < 3; ++i) {
      RequireSupport(d.values->groups[i] <= info.max_workgroup_count[i],
                     fmt::format("{} workgroups in dimension {} exceed the device's maxComputeWorkGroupCount ({})",
                                 d.values->groups[i], "xyz"[i], info.max_workgroup_count[i]));
    }
  }
}

void Plan::MakeUniforms() {
  std::map<std::string, const Buffer*> made;
  for (Planned& d : dispatches_) {
    d.uniforms.assign(manifest_->uniforms.size(), nullptr);
    for (size_t u = 0; u < d.values->uniforms.size(); ++u) {
      const std::vector<std::byte>& block = d.values->uniforms[u];
      if (block.empty()) continue;  // a pass that does not declare it
      auto [at, fresh] = made.emplace(BytesText(block), nullptr);
      if (fresh) {
        uniforms_.push_back(std::make_unique<Buffer>(*context_, block.size(), Memory::kDevice, true));
        uniforms_.back()->Upload(block);
        at->second = uniforms_.back().get();
      }
      d.uniforms[u] = at->second;
    }
  }
}

std::unique_ptr<Bindings> Plan::BindingsFor(size_t d, const std::function<BufferRange(size_t)>& range) const {
  const Planned& planned = dispatches_[d];
  const std::vector<std::vector<SlotPlace>>& arrangement = arrangements_[planned.arrangement];
  std::vector<BufferRange> ranges;
  for (const Slot& slot : kernel_slots_.at(planned.kernel)) {
    if (slot.kind == DescriptorSlot::Kind::kUniformBuffer) {
      ranges.push_back({planned.uniforms[slot.uniform], 0});
      continue;
    }
    if (slot.kind == DescriptorSlot::Kind::kSampler) {
      ranges.push_back({.sampler = samplers_.at(slot.place).get()});
      continue;
    }
    size_t r = 0;
    while (r < arrangement.size() &&
           std::find(arrangement[r].begin(), arrangement[r].end(), slot.place) == arrangement[r].end()) {
      ++r;
    }
    BufferRange bound = range(r);
    if (slot.kind == DescriptorSlot::Kind::kCombinedImageSampler) bound.sampler = samplers_.at(slot.place).get();
    ranges.push_back(bound);
  }
  return std::make_unique<Bindings>(planned.kernel->Bind(ranges));
}

std::string Plan::BindingKey(size_t d) const {
  const Planned& planned = dispatches_[d];
  std::string key = fmt::format("{}/{}", static_cast<const void*>(planned.kernel), planned.arrangement);
  for (const Buffer* u : planned.uniforms) key += fmt::format("/{}", static_cast<const void*>(u));
  return key;
}

void Plan::DispatchOne(Commands& c, size_t d, const Bindings& bindings, const std::function<uint32_t(size_t)>& offset) const {
  const Planned& planned = dispatches_[d];
  const std::vector<std::vector<SlotPlace>>& arrangement = arrangements_[planned.arrangement];
  std::vector<uint32_t> offsets;
  for (const Slot& slot : kernel_slots_.at(planned.kernel)) {
    if (slot.kind == DescriptorSlot::Kind::kUniformBuffer) {
      offsets.push_back(0);
    } else if (slot.kind == DescriptorSlot::Kind::kStorageBuffer) {
      size_t r = 0;
      while (r < arrangement.size() &&
             std::find(arrangement[r].begin(), arrangement[r].end(), slot.place) == arrangement[r].end()) {
        ++r;
      }
      offsets.push_back(offset(r));
    }
  }
  const auto& groups = planned.values->groups;
  c.Dispatch(*planned.kernel, bindings,
             {static_cast<uint32_t>(groups[0]), static_cast<uint32_t>(groups[1]), static_cast<uint32_t>(groups[2])},
             offsets, std::span<const std::byte>(planned.push));
}

namespace {

// A sampler's keys as Vulkan takes them; `integer`: its border colour is an integer format's.
SamplerSpec SpecOf(const SamplerKeys& keys, bool integer) {
  return {.linear = keys.linear,
          .address = keys.address == "clamp_to_border"   ? vk::SamplerAddressMode::eClampToBorder
                     : keys.address == "repeat"          ? vk::SamplerAddressMode::eRepeat
                     : keys.address == "mirrored_repeat" ? vk::SamplerAddressMode::eMirroredRepeat
                                                         : vk::SamplerAddressMode::eClampToEdge,
          .border = BorderFor(keys.border, integer),
          .unnormalized = keys.unnormalized};
}

}  // namespace

void Plan::MakeSamplers() {
  for (const ManifestSampler& s : manifest_->samplers) {
    samplers_[s.slot] = std::make_unique<Sampler>(*context_, SpecOf(s, SeparateImagesInteger(*manifest_)));
  }
  for (const ManifestImage& image : manifest_->images) {
    if (!image.sampled || image.separate) continue;
    const SamplerSpec spec = SpecOf(image, image.format.Integer());
    for (const SlotPlace& slot : image.slots) samplers_[slot] = std::make_unique<Sampler>(*context_, spec);
    // A slot no image declares takes the sampler of the image a pass binds there (the first pass's).
    for (const ManifestVariant* pass : PassesOf(*variant_)) {
      for (const auto& [name, slot] : pass->binds) {
        if (name == image.name && !samplers_.contains(slot)) samplers_[slot] = std::make_unique<Sampler>(*context_, spec);
      }
    }
  }
}

}  // namespace csbench::manifest_detail
