// A manifest case's plan: its dispatches, kernels, uniforms, samplers, bindings and inputs on the device.
#include "harness/manifest/case.hpp"

#include <fmt/format.h>

#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>
#include <deque>
#include <functional>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <span>

#include "harness/base/error.hpp"
#include "harness/base/fork_join.hpp"
#include "harness/base/half.hpp"
#include "harness/base/provenance.hpp"
#include "harness/manifest/expression.hpp"
#include "harness/manifest/gpu_case.hpp"
#include "harness/vulkan/buffer.hpp"
#include "harness/vulkan/commands.hpp"
#include "harness/vulkan/context.hpp"
#include "harness/vulkan/image.hpp"
#include "harness/vulkan/kernel.hpp"
#include "harness/vulkan/timing.hpp"
#include "kernels/random.hpp"

namespace csbench {
using namespace manifest_detail;

namespace manifest_detail {

void GpuCase::PlanDispatches() {
  std::vector<const PointValues*> values;
  if (values_.passes.empty()) {
    values.push_back(&values_);
  } else {
    for (const PointValues& p : values_.passes) values.push_back(&p);
  }
  std::vector<std::vector<SlotPlace>> arrangement;
  for (size_t r = 0; r < ResourceCount(); ++r) arrangement.push_back(DeclaredSlots(r));
  for (const PointValues* p : values) {
    Planned planned;
    planned.pass = variant_->passes.empty() ? variant_ : &variant_->passes[p->pass];
    planned.values = p;
    auto known = std::find(arrangements_.begin(), arrangements_.end(), arrangement);
    planned.arrangement = static_cast<size_t>(known - arrangements_.begin());
    if (known == arrangements_.end()) arrangements_.push_back(arrangement);
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

std::vector<GpuCase::Slot> GpuCase::SlotsOf(const ManifestVariant& pass) const {
  const Manifest& m = *manifest_;
  std::vector<Slot> slots;
  for (const SlotPlace& place : pass.declared) {
    Slot slot{.place = place};
    for (size_t u = 0; u < m.uniforms.size(); ++u) {
      if (m.uniforms[u].set == place.set && m.uniforms[u].binding == place.binding) {
        slot.kind = DescriptorSlot::Kind::kUniformBuffer;
        slot.uniform = u;
      }
    }
    for (const ManifestImage& image : m.images) {
      if (std::find(image.slots.begin(), image.slots.end(), place) != image.slots.end()) {
        slot.kind = image.sampled ? DescriptorSlot::Kind::kCombinedImageSampler : DescriptorSlot::Kind::kStorageImage;
      }
    }
    slots.push_back(slot);
  }
  return slots;
}

void GpuCase::MakeKernels(uint32_t subgroup) {
  const DeviceInfo& info = context_->info();
  const Point& point = point_;
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
  const uint32_t copies = inputs_->image_copies;
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
    RequireSupport(v.is_pass || point.workgroup.z == 1 || z_taken || point.workgroup.z == v.local_size_z,
                   fmt::format("variant {}'s shader fixes its local size z at {}: workgroup {} cannot run it", v.name,
                               v.local_size_z, Sized("", point.workgroup)));
    std::array<uint32_t, 3> local{point.workgroup.x, point.workgroup.y,
                                  point.workgroup.z != 1 || z_taken ? point.workgroup.z : v.local_size_z};
    for (size_t i = 0; i < 2; ++i) {
      const uint32_t asked = local[i];
      if (v.is_pass && v.literal_local_size[i] != 0) {
        // A pass of a literal size runs at it.
        local[i] = v.literal_local_size[i];
        continue;
      }
      RequireSupport(v.literal_local_size[i] == 0 || asked == v.literal_local_size[i],
                     fmt::format("variant {}'s shader fixes its local size {} at {}: workgroup {} cannot run it",
                                 v.name, "xy"[i], v.literal_local_size[i], Sized("", point.workgroup)));
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
                    .spirv = &CompileShader(SourceOf(v, point.workgroup, true)),
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
    for (const Slot& slot : slots) spec.slots.push_back({.set = slot.place.set, .binding = slot.place.binding, .kind = slot.kind});
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

void GpuCase::MakeUniforms() {
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

std::unique_ptr<Bindings> GpuCase::BindingsFor(size_t d, const std::function<BufferRange(size_t)>& range) const {
  const Planned& planned = dispatches_[d];
  const std::vector<std::vector<SlotPlace>>& arrangement = arrangements_[planned.arrangement];
  std::vector<BufferRange> ranges;
  for (const Slot& slot : kernel_slots_.at(planned.kernel)) {
    if (slot.kind == DescriptorSlot::Kind::kUniformBuffer) {
      ranges.push_back({planned.uniforms[slot.uniform], 0});
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

std::string GpuCase::BindingKey(size_t d) const {
  const Planned& planned = dispatches_[d];
  std::string key = fmt::format("{}/{}", static_cast<const void*>(planned.kernel), planned.arrangement);
  for (const Buffer* u : planned.uniforms) key += fmt::format("/{}", static_cast<const void*>(u));
  return key;
}

void GpuCase::DispatchOne(Commands& c, size_t d, const Bindings& bindings, const std::function<uint32_t(size_t)>& offset) const {
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

void GpuCase::Record(Commands& c, uint32_t copy) const {
  const size_t buffers_n = manifest_->buffers.size();
  const uint32_t image_copy = copy % inputs_->image_copies;
  for (size_t d = 0; d < dispatches_.size(); ++d) {
    if (d > 0) c.Barrier();
    DispatchOne(c, d, *timed_.at(BindingKey(d))[image_copy], [&](size_t r) {
      return r < buffers_n && !written_[r] ? inputs_->device[r]->Offset(copy) : 0u;
    });
  }
}

BufferRange GpuCase::TimedRange(size_t r, uint32_t copy) const {
  const size_t buffers_n = manifest_->buffers.size();
  if (r < buffers_n) {
    return written_[r] ? BufferRange{outputs_[r].get(), 0} : BufferRange{&inputs_->device[r]->buffer(), Bytes(r)};
  }
  const size_t k = r - buffers_n;
  return {.image = written_[r] ? images_[k].get() : inputs_->images[k][copy].get()};
}

std::unique_ptr<Image> GpuCase::MakeDeviceImage(size_t k) const {
  const ManifestImage& image = manifest_->images[k];
  const FormatSupport support = SupportOf(*context_, static_cast<vk::Format>(image.format.vk_format));
  bool storage = !image.sampled, sampled = image.sampled, linear = image.sampled && image.linear;
  for (const ManifestVariant* pass : PassesOf(*variant_)) {
    for (const auto& [a, b] : pass->swaps) {
      const std::string& other = a == image.name ? b : b == image.name ? a : image.name;
      for (const ManifestImage& o : manifest_->images) {
        if (o.name != other) continue;
        storage = storage || !o.sampled;
        sampled = sampled || o.sampled;
        linear = linear || (o.sampled && o.linear);
      }
    }
  }
  RequireSupport(!storage || support.storage,
                 fmt::format("image '{}': the device cannot use {} as a storage image", image.name, image.format.glsl));
  RequireSupport(!sampled || support.sampled,
                 fmt::format("image '{}': the device cannot sample {}", image.name, image.format.glsl));
  RequireSupport(!linear || support.linear_filter,
                 fmt::format("image '{}': the device cannot filter {} linearly", image.name, image.format.glsl));
  const auto& s = values_.image_sizes[k];
  return std::make_unique<Image>(*context_, static_cast<vk::Format>(image.format.vk_format), image.format.TexelBytes(),
                                 s, image.three_d, support.storage, support.sampled);
}

void GpuCase::MakeSamplers() {
  for (const ManifestImage& image : manifest_->images) {
    if (!image.sampled) continue;
    const SamplerSpec spec{
        .linear = image.linear,
        .address = image.address == "clamp_to_border" ? vk::SamplerAddressMode::eClampToBorder
                   : image.address == "repeat"        ? vk::SamplerAddressMode::eRepeat
                   : image.address == "mirrored_repeat" ? vk::SamplerAddressMode::eMirroredRepeat
                                                        : vk::SamplerAddressMode::eClampToEdge,
        .border = BorderFor(image.border, image.format.Integer()),
        .unnormalized = image.unnormalized};
    for (const SlotPlace& slot : image.slots) samplers_[slot] = std::make_unique<Sampler>(*context_, spec);
  }
}

void GpuCase::MakeWritten() {
  const Manifest& m = *manifest_;
  const size_t buffers_n = m.buffers.size();
  const DeviceValues device = ValuesAt(context_->info(), point_);
  outputs_.resize(buffers_n);
  restore_.resize(buffers_n);
  images_.resize(m.images.size());
  for (size_t i = 0; i < buffers_n; ++i) {
    const ManifestBuffer& b = m.buffers[i];
    if (!written_[i]) continue;
    outputs_[i] = std::make_unique<Buffer>(*context_, Bytes(i));
    if (b.init_given || swapped_.contains(b.name)) {
      // The timed dispatches start from the same contents as the check run.
      initial_[i] = MakeInput(m, b, values_.counts[i], point_, device);
      outputs_[i]->Upload(std::as_bytes(std::span(initial_[i])));
    }
    if (b.restore) {
      restore_[i] = std::make_unique<Buffer>(*context_, Bytes(i));
      restore_[i]->Upload(std::as_bytes(std::span(initial_[i])));
    }
  }
  for (size_t k = 0; k < m.images.size(); ++k) {
    const ManifestImage& image = m.images[k];
    const size_t r = buffers_n + k;
    if (!written_[r]) continue;
    images_[k] = MakeDeviceImage(k);
    if (image.init_given || swapped_.contains(image.name)) {
      initial_[r] = MakeImage(m, image, values_.image_sizes[k], point_, device);
      images_[k]->Upload(initial_[r]);
    }
  }
}

std::shared_ptr<Inputs> GpuCase::SharedInputs() {
  const Manifest& m = *manifest_;
  const size_t buffers_n = m.buffers.size();
  std::string key = suite_->options.cache == CacheMode::kCold ? "cold" : "warm";
  for (size_t r = 0; r < ResourceCount(); ++r) {
    key += written_[r] ? "/w" : "/r";
    if (r < buffers_n) {
      if (!written_[r]) key += fmt::format("{}", values_.counts[r]);
    } else {
      const auto& s = values_.image_sizes[r - buffers_n];
      key += fmt::format("{}x{}x{}", s[0], s[1], s[2]);
    }
    // An init expression may read the point's sizes: its inputs are the point's own.
    const bool expression = r < buffers_n ? m.buffers[r].init == ManifestBuffer::Init::kExpression
                                          : m.images[r - buffers_n].init == ManifestBuffer::Init::kExpression;
    if (expression) {
      key += fmt::format("/{}/{}/sg{}", Sized("wg", point_.workgroup), Sized("domain", point_.domain),
                         SubgroupOf(point_));
    }
  }
  State& state = suite_->Shared<State>(StateKey());
  if (state.inputs && state.inputs->key == key) return state.inputs;
  state.inputs.reset();  // before the new copies are made: both may not fit
  auto made = std::make_shared<Inputs>();
  made->key = key;
  made->host.resize(ResourceCount());
  made->device.resize(buffers_n);
  made->images.resize(m.images.size());
  // One count of copies for every input, from their bytes together, so that a batch's period
  // cycles through all of them; input images, each copy a descriptor set of its own, at most
  // kMaxImageCopies.
  uint64_t stride = 0;
  bool input_images = false;
  for (size_t r = 0; r < ResourceCount(); ++r) {
    if (written_[r]) continue;
    if (r < buffers_n) {
      stride += RotatingInput::Stride(*context_, values_.counts[r] * m.buffers[r].type.Bytes());
    } else {
      stride += ImageBytes(r - buffers_n);
      input_images = true;
    }
  }
  made->copies = ColdCopies(*context_, stride, suite_->options.cache);
  if (input_images) made->copies = std::min(made->copies, kMaxImageCopies);
  made->image_copies = input_images ? made->copies : 1;
  const DeviceValues device = ValuesAt(context_->info(), point_);
  for (size_t r = 0; r < ResourceCount(); ++r) {
    if (written_[r]) continue;
    if (r < buffers_n) {
      made->host[r] = MakeInput(m, m.buffers[r], values_.counts[r], point_, device);
      made->device[r] = std::make_unique<RotatingInput>(*context_, std::as_bytes(std::span(made->host[r])),
                                                        suite_->options.cache, made->copies);
      continue;
    }
    const size_t k = r - buffers_n;
    made->host[r] = MakeImage(m, m.images[k], values_.image_sizes[k], point_, device);
    for (uint32_t copy = 0; copy < made->image_copies; ++copy) {
      made->images[k].push_back(MakeDeviceImage(k));
      made->images[k].back()->Upload(made->host[r]);
    }
  }
  state.inputs = made;
  return made;
}

}  // namespace manifest_detail

}  // namespace csbench
