// A manifest case's resources on the device: its inputs (shared by the points of one set of sizes),
// the resources its sequence writes, and what its timed loop binds and records through its Plan.
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

void GpuCase::Record(Commands& c, uint32_t copy) const {
  const size_t buffers_n = manifest_->buffers.size();
  plan_->Record(c, timed_[copy % inputs_->image_copies], [&](size_t r) {
    return r < buffers_n && !written_[r] ? inputs_->device[r]->Offset(copy) : 0u;
  });
}

BufferRange GpuCase::TimedRange(size_t r, uint32_t copy) const {
  const size_t buffers_n = manifest_->buffers.size();
  if (r < buffers_n) {
    return written_[r] ? BufferRange{outputs_[r].get(), 0} : BufferRange{&inputs_->device[r]->buffer(), Bytes(r)};
  }
  const size_t k = r - buffers_n;
  const size_t root = RootOf(k);
  return {.image = written_[r] ? images_[root].get() : inputs_->images[root][copy].get(), .level = LevelOf(k)};
}

std::unique_ptr<Image> GpuCase::MakeDeviceImage(size_t k) const {
  const ManifestImage& image = manifest_->images[k];
  const FormatSupport support = SupportOf(*context_, static_cast<vk::Format>(image.format.vk_format));
  // A separate image may be read through any [[sampler]] of the manifest.
  const bool linear_sampler = std::any_of(manifest_->samplers.begin(), manifest_->samplers.end(),
                                          [](const ManifestSampler& s) { return s.linear; });
  bool storage = !image.sampled, sampled = image.sampled;
  bool linear = image.sampled && (image.separate ? linear_sampler : image.linear);
  for (const ManifestImage& view : manifest_->images) {
    if (view.view_of != static_cast<int>(k)) continue;
    storage = storage || !view.sampled;
    sampled = sampled || view.sampled;
  }
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
  // An arrayed image's third size is its layers.
  const std::array<uint32_t, 3> extent = image.arrayed ? std::array<uint32_t, 3>{s[0], s[1], 1} : s;
  return std::make_unique<Image>(
      *context_, static_cast<vk::Format>(image.format.vk_format), image.format.TexelBytes(), extent, image.three_d,
      support.storage, support.sampled,
      ImageLevels{.arrayed = image.arrayed, .layers = image.arrayed ? s[2] : 1, .levels = image.levels});
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
      initial_[i] = Made(i, device);
      outputs_[i]->Upload(*initial_[i]);
    } else if (!values_.headers[i].empty()) {
      // The header's values (an atomic counter's 0), whatever the elements start from.
      outputs_[i]->Upload(values_.headers[i]);
    }
    if (b.restore) {
      restore_[i] = std::make_unique<Buffer>(*context_, Bytes(i));
      restore_[i]->Upload(*initial_[i]);
    }
  }
  for (size_t k = 0; k < m.images.size(); ++k) {
    if (written_[buffers_n + k] && RootOf(k) == k) images_[k] = MakeDeviceImage(k);
  }
  for (size_t k = 0; k < m.images.size(); ++k) {
    const ManifestImage& image = m.images[k];
    const size_t r = buffers_n + k;
    if (!written_[r]) continue;
    // An image (or view) the kernel reads beside a level it writes starts from its init too.
    if (image.init_given || swapped_.contains(image.name) || !image.output) {
      initial_[r] = Made(r, device);
      images_[RootOf(k)]->Upload(*initial_[r], LevelOf(k));
    }
  }
}

std::string GpuCase::MadeKey(size_t r) const {
  const Manifest& m = *manifest_;
  const size_t buffers_n = m.buffers.size();
  const bool image = r >= buffers_n;
  std::string key = ResourceName(r);
  std::vector<std::string> expressions;
  using Init = ManifestBuffer::Init;
  if (!image) {
    const ManifestBuffer& b = m.buffers[r];
    key += fmt::format("/{}", values_.counts[r]);
    // A header's values may be expressions of the point's sizes.
    if (!values_.headers[r].empty()) key += "/h" + BytesText(values_.headers[r]);
    if (b.init == Init::kExpression) expressions.push_back(b.init_expression);
    for (const auto& member : b.member_inits) {
      if (member.second.init == Init::kExpression) expressions.push_back(member.second.expression);
    }
  } else {
    const size_t k = r - buffers_n;
    const auto& s = values_.image_sizes[k];
    key += fmt::format("/{}x{}x{}", s[0], s[1], s[2]);
    // A view of level 0 shows its image's init (MadeImage).
    const ManifestImage& own = m.images[k];
    const ManifestImage& made = own.view_of >= 0 && own.view_level == 0 ? m.images[RootOf(k)] : own;
    if (made.init == Init::kExpression) expressions.push_back(made.init_expression);
  }
  // An init expression reads the point's domain (W, H, D) as it likes; its workgroup and subgroup
  // size only where it names them, so that a sweep of workgroups shares one set of inputs.
  bool grouped = false;
  for (const std::string& text : expressions) {
    const Expression parsed(InitExpressionText(text), image ? ImageInitVariables() : InitVariables());
    for (const std::string& name : parsed.Used()) {
      grouped = grouped || name == "WG_X" || name == "WG_Y" || name == "WG_Z" || name == "SUBGROUP_SIZE";
    }
  }
  if (!expressions.empty()) key += fmt::format("/{}", Sized("domain", point_.domain));
  if (grouped) key += fmt::format("/{}/sg{}", Sized("wg", point_.workgroup), SubgroupOf(point_));
  return key;
}

std::shared_ptr<const Data> GpuCase::Made(size_t r, const DeviceValues& device) const {
  MadeData& made = suite_->Shared<State>(StateKey()).made;
  const std::string key = MadeKey(r);
  {
    std::lock_guard lock(made.lock);
    for (const auto& [kept_key, data] : made.kept) {
      if (kept_key == key) return data;
    }
  }
  const size_t buffers_n = manifest_->buffers.size();
  auto data = std::make_shared<const Data>(r < buffers_n ? MadeInput(r, device) : MadeImage(r - buffers_n, device));
  // One larger than half the bound is not kept beyond its cases.
  if (data->size() > kMadeBytes / 2) return data;
  std::lock_guard lock(made.lock);
  made.kept.emplace_back(key, data);
  made.bytes += data->size();
  while (made.bytes > kMadeBytes) {
    made.bytes -= made.kept.front().second->size();
    made.kept.pop_front();
  }
  return data;
}

std::shared_ptr<Inputs> GpuCase::SharedInputs() {
  const Manifest& m = *manifest_;
  const size_t buffers_n = m.buffers.size();
  std::string key = suite_->options.cache == CacheMode::kCold ? "cold" : "warm";
  for (size_t r = 0; r < ResourceCount(); ++r) {
    // An input's contents are what MadeKey says they depend on.
    key += written_[r] ? "/w" : "/r" + MadeKey(r);
    if (written_[r] && r >= buffers_n) {
      const auto& s = values_.image_sizes[r - buffers_n];
      key += fmt::format("{}x{}x{}", s[0], s[1], s[2]);
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
      stride += RotatingInput::Stride(*context_, Bytes(r));
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
      made->host[r] = Made(r, device);
      made->device[r] = std::make_unique<RotatingInput>(*context_, std::span<const std::byte>(*made->host[r]),
                                                        suite_->options.cache, made->copies);
      continue;
    }
    const size_t k = r - buffers_n;
    if (RootOf(k) != k) continue;
    for (uint32_t copy = 0; copy < made->image_copies; ++copy) made->images[k].push_back(MakeDeviceImage(k));
  }
  // Each image's texels, and each view's at its level, in every copy of its image.
  for (size_t k = 0; k < m.images.size(); ++k) {
    const size_t r = buffers_n + k;
    if (written_[r]) continue;
    made->host[r] = Made(r, device);
    for (const auto& copy : made->images[RootOf(k)]) copy->Upload(*made->host[r], LevelOf(k));
  }
  state.inputs = made;
  return made;
}

}  // namespace manifest_detail

}  // namespace csbench
