// A manifest case's life: made at a point, checked once (guarded), measured.
#include "harness/manifest/case.hpp"

#include <fmt/format.h>

#include <algorithm>
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
#include "harness/manifest/requirements.hpp"
#include "harness/vulkan/buffer.hpp"
#include "harness/vulkan/commands.hpp"
#include "harness/vulkan/context.hpp"
#include "harness/vulkan/image.hpp"
#include "harness/vulkan/kernel.hpp"
#include "harness/vulkan/timing.hpp"
#include "kernels/random.hpp"

namespace csbench {
using namespace manifest_detail;

std::unique_ptr<Case> MakeManifestCase(Suite& suite, const Manifest& m, const ManifestVariant& base,
                                       const Point& point) {
  return std::make_unique<GpuCase>(suite, m, base, point);
}

namespace {

// VkSubgroupFeatureFlagBits, by bit: basic, vote, arithmetic, ballot, shuffle, shuffle_relative,
// clustered, quad.
constexpr std::string_view kSubgroupClasses[] = {"subgroup_basic",   "subgroup_vote",    "subgroup_arithmetic",
                                                 "subgroup_ballot",  "subgroup_shuffle", "subgroup_shuffle_relative",
                                                 "subgroup_clustered", "subgroup_quad"};

bool Capability(const DeviceInfo& info, const std::string& name) {
  auto at = info.capability_features.find(name);
  return at != info.capability_features.end() && at->second;
}



}  // namespace

namespace manifest_detail {

bool DeviceMeets(const DeviceInfo& info, std::string_view name) {
  for (size_t bit = 0; bit < std::size(kSubgroupClasses); ++bit) {
    // A class in compute shaders, with the basic operations every one needs.
    if (name == kSubgroupClasses[bit]) return (info.subgroup_operations & ((1u << bit) | 1u)) == ((1u << bit) | 1u);
  }
  // Those the device reports as features of their own; the rest by the capability that shows them.
  static constexpr std::pair<std::string_view, bool DeviceInfo::*> kOwn[] = {
      {"shared_int64_atomics", &DeviceInfo::shared_int64_atomics},
      {"float_atomic_add", &DeviceInfo::float_atomic_add},
      {"float_atomics", &DeviceInfo::float32_atomics},
      {"float64_atomic_add", &DeviceInfo::float64_atomic_add},
      {"shared_float_atomic_add", &DeviceInfo::shared_float32_atomic_add},
      {"integer_dot_product", &DeviceInfo::integer_dot_product},
      {"storage_image_read_without_format", &DeviceInfo::storage_image_read_without_format},
      {"storage_image_write_without_format", &DeviceInfo::storage_image_write_without_format}};
  for (const auto& [own, has] : kOwn) {
    if (name == own) return info.*has;
  }
  for (const Requirement& r : Requirements()) {
    if (r.name == name && !r.spirv.empty()) return Capability(info, std::string(r.spirv.front()));
  }
  return false;
}

GpuCase::GpuCase(Suite& suite, const Manifest& m, const ManifestVariant& base, const Point& point, bool as_reference)
    : suite_(&suite), context_(suite.context), manifest_(&m), variant_(&MadeAt(m, base, point)), point_(point),
      values_(Evaluated(m, *variant_, point, ValuesAt(suite.context->info(), point))), swapped_(Swapped(*variant_)) {
  const ManifestVariant& v = *variant_;
  const DeviceInfo& info = context_->info();
  const uint32_t subgroup = SubgroupOf(point);
  RequireSupport(subgroup == 0 || as_reference ||
                     std::find(v.subgroup_sizes.begin(), v.subgroup_sizes.end(), subgroup) != v.subgroup_sizes.end(),
                 fmt::format("variant {} does not list subgroup size {} (its subgroup_sizes)", v.name, subgroup));
  for (const std::string& feature : v.requires_features) {
    auto what = std::find_if(Requirements().begin(), Requirements().end(),
                             [&](const Requirement& r) { return r.name == feature; });
    RequireSupport(DeviceMeets(info, feature),
                   fmt::format("variant {} requires {}{}, which the device lacks", v.name, feature,
                               what == Requirements().end() ? "" : fmt::format(" ({})", what->what)));
  }
  for (const std::string& capability : v.capabilities) {
    auto feature = info.capability_features.find(capability);
    RequireSupport(feature == info.capability_features.end() || feature->second,
                   fmt::format("variant {}'s shader declares the SPIR-V capability {}, and the device lacks the "
                               "feature it needs",
                               v.name, capability));
  }
  RequireSupport(!v.storage_read_without_format || info.storage_image_read_without_format,
                 fmt::format("variant {} reads a storage image declared without a format, and the device lacks "
                             "shaderStorageImageReadWithoutFormat",
                             v.name));
  RequireSupport(!v.storage_write_without_format || info.storage_image_write_without_format,
                 fmt::format("variant {} writes a storage image declared without a format, and the device lacks "
                             "shaderStorageImageWriteWithoutFormat",
                             v.name));
  for (const ManifestImage& image : m.images) {
    RequireSupport(!image.outside_zero || info.robust_image_access,
                   fmt::format("image '{}' has outside = \"zero\": the shader's reads outside it return zero only "
                               "with robust image access (Vulkan 1.3 or VK_EXT_image_robustness), which the device "
                               "lacks",
                               image.name));
  }
  for (size_t i = 0; i < m.buffers.size(); ++i) RequireStorage(*context_, Bytes(i));
  for (const ManifestVariant* pass : PassesOf(v)) {
    RequireSupport(info.api_version >= ApiVersionOf(pass->target),
                   fmt::format("{} is compiled for Vulkan {}, and the device has {}", pass->name,
                               VulkanTargetName(pass->target), info.ApiVersionString()));
  }
  inputs_ = SharedInputs();
  plan_ = std::make_unique<Plan>(*context_, m, v, point_.workgroup, values_, subgroup, inputs_->image_copies);
  MakeWritten();
  // The timed loop's descriptor sets, per copy of the rotated input images.
  for (uint32_t copy = 0; copy < inputs_->image_copies; ++copy) {
    timed_.push_back(plan_->Bind([&](size_t r) { return TimedRange(r, copy); }));
  }
}

namespace {

// Byte `byte` of buffer `b` for a message: its scalar's index, a byte of its header, or padding.
std::string WhereInBuffer(const ManifestBuffer& b, size_t byte, std::optional<size_t> scalar) {
  if (scalar) return IndexText(b, *scalar);
  if (byte < b.type.array_offset) return fmt::format("byte {} of its header", byte);
  return fmt::format("byte {} (padding of element {})", byte, (byte - b.type.array_offset) / b.type.Bytes());
}

}  // namespace

GpuCase::GuardedResult GpuCase::GuardedRun(std::optional<size_t> zeroed) {
  const Manifest& m = *manifest_;
  const GuardPlace place = suite_->options.guard;
  const bool inside = place == GuardPlace::kInside || (place == GuardPlace::kAuto && !variant_->reads_length);
  const size_t buffers_n = m.buffers.size();
  std::vector<std::unique_ptr<Buffer>> buffers;
  std::vector<std::unique_ptr<Image>> images;
  std::vector<BufferRange> ranges;
  std::vector<std::vector<std::byte>> guards;
  for (size_t i = 0; i < buffers_n; ++i) {
    const ManifestBuffer& b = m.buffers[i];
    const uint64_t bytes = Bytes(i);
    // Made on the device, not in a host copy of the whole buffer: an input from its first
    // rotated copy, an output poisoned by a fill (the poison's bytes, as PoisonBytes writes
    // them); the guard after it uploaded. A host vector of a 512 MiB buffer cost a check about a
    // second of page faults and copies on the GPU host.
    buffers.push_back(std::make_unique<Buffer>(*context_, bytes + kGuardBytes));
    Buffer& buffer = *buffers.back();
    if (!written_[i]) {
      context_->Run([&](Commands& c) { c.Copy(inputs_->device[i]->buffer(), 0, buffer, 0, bytes); });
    } else if (initial_[i] != nullptr) {
      buffer.Upload(std::span<const std::byte>(*initial_[i]).first(bytes));
    } else {
      context_->Run([&](Commands& c) { c.Fill(buffer, zeroed == i ? 0u : kPoison); });
      // The elements poisoned, the header its values (an atomic counter's 0).
      if (!values_.headers[i].empty()) buffer.Upload(values_.headers[i]);
    }
    guards.push_back(GuardPattern(m.name, b.name));
    buffer.Upload(guards.back(), bytes);
  }
  // One device image per image, its views' levels in it.
  for (size_t k = 0; k < m.images.size(); ++k) images.push_back(RootOf(k) == k ? MakeDeviceImage(k) : nullptr);
  for (size_t k = 0; k < m.images.size(); ++k) {
    const size_t r = buffers_n + k;
    Image& image = *images[RootOf(k)];
    if (!written_[r]) {
      image.Upload(Host(r), LevelOf(k));
    } else if (initial_[r] != nullptr) {
      image.Upload(*initial_[r], LevelOf(k));
    } else {
      // The poison's bytes as PoisonBytes writes them, filled on the device.
      image.Fill(kPoison, LevelOf(k));
    }
  }
  auto range = [&](size_t r) -> BufferRange {
    if (r < buffers_n) return {buffers[r].get(), inside ? Bytes(r) + kGuardBytes : Bytes(r)};
    return {.image = images[RootOf(r - buffers_n)].get(), .level = LevelOf(r - buffers_n)};
  };
  const Plan::Sets sets = plan_->Bind(range);
  // Timed by the device's clock, as a batch is: one iteration's seconds, which may stand for the
  // timing's calibration (Work::checked_seconds).
  checked_seconds_ = TimedBatch(*context_, [&](Commands& c) { plan_->Record(c, sets, [](size_t) { return 0u; }); }).Run();
  GuardedResult result;
  result.outputs.resize(buffers_n + m.images.size());
  for (size_t i = 0; i < buffers_n; ++i) {
    const ManifestBuffer& b = m.buffers[i];
    const uint64_t bytes = Bytes(i);
    if (!result.failure.passed) continue;
    std::vector<std::byte> guard(kGuardBytes);
    buffers[i]->Download(guard, bytes);
    if (auto changed = std::mismatch(guard.begin(), guard.end(), guards[i].begin()); changed.first != guard.end()) {
      result.failure = {.max_relative_error = std::numeric_limits<double>::infinity(),
                        .message = fmt::format("wrote past the end of '{}' (first changed byte +{}{})", b.name,
                                               changed.first - guard.begin(),
                                               inside ? ", in the guard bound inside its range" : "")};
      continue;
    }
    // A written buffer stays on the device (Downloaded reads it back).
    if (written_[i]) continue;
    // An input compared on the device with the copy it was made from; downloaded only where it
    // changed, to name the first changed scalar.
    if (SameBytes(*context_, inputs_->device[i]->buffer(), *buffers[i], bytes)) continue;
    std::vector<std::byte> got(bytes);
    buffers[i]->Download(got);
    if (auto changed = std::mismatch(got.begin(), got.end(), Host(i).begin()); changed.first != got.end()) {
      const auto byte = static_cast<size_t>(changed.first - got.begin());
      const std::optional<size_t> scalar = ScalarAtByte(b.type, byte);
      result.failure = {.max_relative_error = std::numeric_limits<double>::infinity(),
                        .message = fmt::format("changed input '{}' at {}: the kernel wrote a buffer the manifest "
                                               "declares an input (give it output = true and an init to update it "
                                               "in place)",
                                               b.name,
                                               WhereInBuffer(b, byte, scalar))};
    }
  }
  for (size_t k = 0; k < m.images.size(); ++k) {
    const size_t r = buffers_n + k;
    const ManifestImage& image = m.images[k];
    // An input, or an image (view) of a written one that is no output and is not swapped: as made.
    const Data* made = !written_[r]                                      ? &Host(r)
                       : !image.output && !swapped_.contains(image.name) ? &Initial(r)
                                                                         : nullptr;
    // Compared on the device piece by piece (an input, and a scratch image the kernel writes but
    // no check reads, whose contents must be as made), downloaded whole only where it changed, to
    // name the texel.
    Data got;
    const bool differs = result.failure.passed && made != nullptr && !images[RootOf(k)]->Holds(*made, LevelOf(k));
    if (differs) {
      got.resize(ImageBytes(k));
      images[RootOf(k)]->Download(got, LevelOf(k));
    }
    if (differs && got != *made) {
      const auto byte = static_cast<size_t>(std::mismatch(got.begin(), got.end(), made->begin()).first - got.begin());
      result.failure = {.max_relative_error = std::numeric_limits<double>::infinity(),
                        .message = fmt::format("changed input image {} at {}: the kernel wrote an image the "
                                               "manifest declares an input",
                                               ImageLabel(k), TexelText(k, byte / image.format.channel_bytes))};
    }
    // A written image's contents stay on the device (Downloaded reads them back), unless read here.
    if (written_[r]) result.outputs[r] = std::move(got);
  }
  result.buffers = std::move(buffers);
  result.images = std::move(images);
  return result;
}

Comparison GpuCase::Check() {
  try {
    return Checked();
  } catch (const CheckFailure& e) {
    return {.max_relative_error = std::numeric_limits<double>::infinity(), .message = e.message};
  }
}

void GpuCase::Measure(benchmark::State& state) {
  const Work work{.elements = values_.elements,
                  .bytes = values_.bytes,
                  .read_only = manifest_->read_only,
                  .ops = values_.arithmetic,
                  .peak = manifest_->arithmetic_unit == "OP"       ? Peak::kInt32
                          : manifest_->arithmetic_unit == "FLOP16" ? Peak::kFp16
                                                                   : Peak::kFp32,
                  .ops_lower_bound = manifest_->arithmetic_lower_bound,
                  .checked_seconds = checked_seconds_,
                  // Each pass after the first waits for the one before it.
                  .dispatches = static_cast<double>(plan_->size())};
  // Where this case's check expressions were computed (--checks).
  if (checks_on_device_ + checks_on_host_ > 0) {
    state.counters["checks_on_device"] = checks_on_device_;
    state.counters["checks_on_host"] = checks_on_host_;
  }
  if (std::none_of(restore_.begin(), restore_.end(), [](const auto& r) { return r != nullptr; })) {
    MeasureDispatches(state, *context_, [&](Commands& c, uint32_t i) { Record(c, i); },
                      inputs_->copies, work);
    return;
  }
  // Outputs restored before each dispatch: one dispatch a run, timed alone by the device's
  // timestamps; the copies back to the initial contents are submitted before it, untimed. Each
  // run takes the next copy of the rotated inputs, as a batch's dispatches do.
  std::vector<std::unique_ptr<TimedBatch>> timed(inputs_->copies);
  uint32_t next = 0;
  MeasureTimedRuns(
      state, context_,
      [&] {
        context_->Run([&](Commands& c) {
          for (size_t i = 0; i < restore_.size(); ++i) {
            if (restore_[i]) c.Copy(*restore_[i], 0, *outputs_[i], 0, Bytes(i));
          }
        });
      },
      [&] {
        const uint32_t copy = next++ % inputs_->copies;
        if (!timed[copy]) timed[copy] = std::make_unique<TimedBatch>(*context_, [&, copy](Commands& c) { Record(c, copy); });
        return timed[copy]->Run();
      },
      work);
}

std::string GpuCase::ReferenceKey() const {
  std::string key =
      fmt::format("{}/{}/sg{}", Sized("wg", point_.workgroup), Sized("domain", point_.domain), SubgroupOf(point_));
  const ManifestVariant* reference = ReferenceVariant();
  if (manifest_->axes.empty() || reference == nullptr) return key;
  // With [axes], what the reference runs at this point: its SPIR-V and its dispatches' values,
  // whatever the axes are called. A reference that ignores a knob (a naive kernel beside a tiled
  // one) then runs once for all of that knob's values, not at each (a second at every point of a
  // 1422-point search).
  const ManifestVariant& at = MadeAt(*manifest_, *reference, point_);
  std::string what;
  for (const ManifestVariant* pass : PassesOf(at)) {
    // Named first: GCC 14 takes a reference returned from a call on a temporary for a dangling
    // one (the words live in the compile cache).
    const ShaderSource source = SourceOf(*pass, point_.workgroup, true);
    const std::vector<uint32_t>& words = CompileShader(source);
    what.append(reinterpret_cast<const char*>(words.data()), words.size() * sizeof(uint32_t));
  }
  const PointValues v = Evaluated(*manifest_, at, point_, ValuesAt(context_->info(), point_));
  auto add = [&](const auto& values) {
    for (const auto& x : values) what += fmt::format("{},", x);
    what += ';';
  };
  for (const PointValues& d : v.passes.empty() ? std::vector<PointValues>{v} : v.passes) {
    add(d.groups);
    add(d.constants);
    for (const PushValue& p : d.push) what += fmt::format("{},", p.bits);
    what += BytesText(d.push_bytes) + ';';
    for (const auto& u : d.uniforms) what += BytesText(u) + ';';
  }
  add(v.counts);
  for (const auto& size : v.image_sizes) add(size);
  return key + "/" + Sha256Hex(what);
}

const ManifestVariant* GpuCase::ReferenceVariant() const {
  for (const ManifestVariant& v : manifest_->variants) {
    if (v.reference) return &v;
  }
  return nullptr;
}

ReferenceOutputs& GpuCase::ReferenceRun(const ManifestVariant& reference) {
  std::deque<ReferenceOutputs>& references = suite_->Shared<State>(StateKey()).references;
  const std::string key = ReferenceKey();
  auto found = std::find_if(references.begin(), references.end(), [&](const auto& r) { return r.key == key; });
  if (found != references.end()) return *found;
  GpuCase made(*suite_, *manifest_, reference, point_, true);
  GuardedResult run = made.GuardedRun();
  made.KeepReference(run, key);
  return references.back();
}

size_t GpuCase::ResourceNamed(const std::string& name) const {
  for (size_t r = 0; r < ResourceCount(); ++r) {
    if (ResourceName(r) == name) return r;
  }
  return ResourceCount();
}

}  // namespace manifest_detail

}  // namespace csbench
