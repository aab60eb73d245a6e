// A manifest case's verdict on the device (GpuCase::PassesOnDevice, gpu_case.hpp): the check run's
// outputs left where the kernel wrote them, and scanned there for the unwritten-element rule, the
// comparison with the reference variant's outputs (kept on the device too) and the check
// expressions (case_device_check.cpp), each at half the host's tolerances. A run that passes all of
// them there is not read back; anything else is read back and judged by the host, as before.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "harness/manifest/gpu_case.hpp"

namespace csbench::manifest_detail {

void GpuCase::Downloaded(GuardedResult& run) const {
  if (run.downloaded) return;
  run.downloaded = true;
  const Manifest& m = *manifest_;
  const size_t buffers_n = m.buffers.size();
  run.outputs.resize(ResourceCount());
  for (size_t i = 0; i < buffers_n; ++i) {
    if (!written_[i] || run.buffers.size() <= i || run.buffers[i] == nullptr || !run.outputs[i].empty()) continue;
    run.outputs[i].resize(Bytes(i));
    run.buffers[i]->Download(run.outputs[i]);
  }
  for (size_t k = 0; k < m.images.size(); ++k) {
    const size_t r = buffers_n + k;
    if (!written_[r] || run.images.size() <= RootOf(k) || run.images[RootOf(k)] == nullptr || !run.outputs[r].empty()) {
      continue;
    }
    run.outputs[r].resize(ImageBytes(k));
    run.images[RootOf(k)]->Download(run.outputs[r], LevelOf(k));
  }
}

void GpuCase::KeepReference(GuardedResult& run, const std::string& key) const {
  const size_t buffers_n = manifest_->buffers.size();
  ReferenceOutputs kept{.key = key, .failure = run.failure.passed ? "" : run.failure.message};
  if (run.downloaded) kept.outputs = std::move(run.outputs);
  kept.buffers.resize(buffers_n);
  kept.images.resize(manifest_->images.size());
  for (size_t i = 0; i < buffers_n && i < run.buffers.size(); ++i) {
    if (written_[i]) kept.buffers[i] = std::move(run.buffers[i]);
  }
  for (size_t k = 0; k < manifest_->images.size() && k < run.images.size(); ++k) {
    if (written_[buffers_n + k] && RootOf(k) == k) kept.images[k] = std::move(run.images[k]);
  }
  std::deque<ReferenceOutputs>& references = suite_->Shared<State>(StateKey()).references;
  std::erase_if(references, [&](const ReferenceOutputs& r) { return r.key == key; });
  uint64_t bytes = kept.DeviceBytes();
  for (const ReferenceOutputs& r : references) bytes += r.DeviceBytes();
  while (!references.empty() && bytes > kReferenceBytes) {
    bytes -= references.front().DeviceBytes();
    references.pop_front();
  }
  references.push_back(std::move(kept));
}

const std::vector<Data>& GpuCase::ReferenceHost(ReferenceOutputs& kept) const {
  if (!kept.outputs.empty()) return kept.outputs;
  const Manifest& m = *manifest_;
  const size_t buffers_n = m.buffers.size();
  kept.outputs.resize(ResourceCount());
  for (size_t i = 0; i < buffers_n; ++i) {
    if (kept.buffers[i] == nullptr) continue;
    // Its elements, not the guard after them.
    kept.outputs[i].resize(kept.buffers[i]->size() - kGuardBytes);
    kept.buffers[i]->Download(kept.outputs[i]);
  }
  for (size_t k = 0; k < m.images.size(); ++k) {
    const Image* image = kept.images[RootOf(k)].get();
    if (image == nullptr) continue;
    kept.outputs[buffers_n + k].resize(image->LevelBytes(LevelOf(k)));
    image->Download(kept.outputs[buffers_n + k], LevelOf(k));
  }
  return kept.outputs;
}

bool GpuCase::ScanOnDevice(const GuardedResult& run, size_t r, const ReferenceOutputs* reference) const {
  const Manifest& m = *manifest_;
  const size_t buffers_n = m.buffers.size();
  const bool image_out = r >= buffers_n;
  if (image_out && m.images[r - buffers_n].format.channel_bytes != 4) return false;
  CheckNumbers numbers;
  std::string resources;
  std::vector<BufferRange> ranges;
  if (!DeviceResource(run.buffers, run.images, r, 0, resources, numbers, "g")) return false;
  ranges.push_back(image_out ? BufferRange{.image = run.images[r - buffers_n].get()}
                             : BufferRange{.buffer = run.buffers[r].get()});
  size_t count = 0;
  uint32_t components = 1;
  std::array<uint32_t, 3> size{1, 1, 1};
  bool exact = false, poisoned = false;
  if (image_out) {
    const size_t k = r - buffers_n;
    const ManifestImage& image = m.images[k];
    size = values_.image_sizes[k];
    components = image.format.channels;
    count = size_t{size[0]} * size[1] * size[2] * components;
    exact = image.format.Integer();
    poisoned = !image.init_given && !swapped_.contains(image.name);
  } else {
    const ManifestBuffer& b = m.buffers[r];
    count = values_.counts[r] * b.type.Lanes();
    exact = b.type.scalar != Scalar::kFloat;
    poisoned = initial_[r] == nullptr;
  }
  // A float output whose check expression is computed on the device (PassesOnDevice, next) needs
  // no scan of its own: that check lists every scalar that is not finite as a suspect, and one
  // suspect sends the whole check to the host, whose unwritten rule comes first: the verdict and
  // the message the scan's failure gave. An integer output keeps its scan (an expected value may
  // equal the poison), and so does one compared with a reference's.
  if (reference == nullptr && !exact && written_[r] && variant_->check.contains(ResourceName(r))) return true;
  std::string compare;
  if (reference != nullptr) {
    // The reference's copy of the same sizes, or the host compares (and says how they differ).
    if (image_out) {
      const Image* want = reference->images[r - buffers_n].get();
      if (want == nullptr || want->extent() != run.images[r - buffers_n]->extent()) return false;
    } else {
      const Buffer* want = reference->buffers[r].get();
      if (want == nullptr || want->size() != run.buffers[r]->size()) return false;
    }
    if (!DeviceResource(reference->buffers, reference->images, r, 1, resources, numbers, "w")) return false;
    ranges.push_back(image_out ? BufferRange{.image = reference->images[r - buffers_n].get()}
                               : BufferRange{.buffer = reference->buffers[r].get()});
    compare = exact ? "  if (got != want) bad = true;\n"
                    : fmt::format("  if (!(abs(got - want) <= {} || abs(got - want) <= {} * max(abs(want), 1e-6LF))) "
                                  "bad = true;\n",
                                  numbers.Add(0.5 * variant_->abs_tolerance), numbers.Add(0.5 * variant_->tolerance));
  }
  if (count == 0) return true;
  // A buffer's walk is linear whatever its sizes (only an image's follows its texels).
  const CheckWalk walk = WalkOf(r, count, components, size, numbers);
  if (!compare.empty()) compare = fmt::format("  const double want = {};\n{}", walk.Got("w"), compare);
  // The unwritten rule (Unwritten, UnwrittenImage): a float not finite (the poison is a NaN), an
  // integer still the poison's value where the output started from it.
  const std::string rule = !exact   ? "  if (isnan(got) || isinf(got)) bad = true;\n"
                           : poisoned ? fmt::format("  if (got == {}.0LF) bad = true;\n", kPoison)
                                      : "";
  const uint32_t n = static_cast<uint32_t>(ranges.size());
  const std::string source = fmt::format(
      "#version 450\n"
      "layout(local_size_x = {0}) in;\n"
      "{1}"
      "layout(std430, set = 0, binding = {2}) buffer CsbBad {{ uint count; }} csb_found;\n"
      "bool csb_bad = false;\n"
      "{3}"
      "void main() {{\n"
      "{4}"
      "  const double got = {5};\n"
      "  bool bad = false;\n"
      "{6}{7}"
      "  if (bad || csb_bad) atomicAdd(csb_found.count, 1u);\n"
      "}}\n",
      kCheckGroup, numbers.Declaration(n), n + 1, resources, walk.main, walk.Got("g"), rule, compare);
  Buffer found(*context_, 4);
  RunCheckShader(source, fmt::format("scan of {} in {}", ResourceName(r), m.name), ranges, numbers, found,
                 walk.groups);
  uint32_t bad = 0;
  found.Download(std::as_writable_bytes(std::span(&bad, 1)));
  return bad == 0;
}

bool GpuCase::PassesOnDevice(GuardedResult& run) {
  const Manifest& m = *manifest_;
  const DeviceInfo& info = context_->info();
  if (suite_->options.checks == CheckPlace::kHost || !m.require.empty() || HasFileExpectations()) return false;
  if (!info.capability_features.contains("Float64") || !info.capability_features.at("Float64")) return false;
  const size_t buffers_n = m.buffers.size();
  // Checks of a struct's members and of a header's are the host's, and so are `expect` files.
  for (size_t i = 0; i < buffers_n; ++i) {
    if (!written_[i]) continue;
    const ManifestBuffer& b = m.buffers[i];
    for (const StructField& f : b.type.fields) {
      if (variant_->check.contains(b.name + "." + f.name)) return false;
    }
    for (const BlockField& f : b.header_fields) {
      if (variant_->check.contains(b.name + "." + f.key)) return false;
    }
  }
  const ManifestVariant* reference = ReferenceVariant();
  const bool is_reference = reference != nullptr && reference->name == variant_->name;
  const ReferenceOutputs* kept = nullptr;
  if (reference != nullptr && !is_reference) {
    kept = &ReferenceRun(*reference);
    if (!kept->failure.empty()) return false;
  }
  for (size_t r = 0; r < ResourceCount(); ++r) {
    const bool output = r < buffers_n ? m.buffers[r].output : m.images[r - buffers_n].output;
    if (output && !ScanOnDevice(run, r, kept)) return false;
  }
  int on_device = 0;
  const std::vector<Data> none(ResourceCount());
  for (size_t r = 0; r < ResourceCount(); ++r) {
    if (!written_[r]) continue;
    auto expression = variant_->check.find(ResourceName(r));
    if (expression == variant_->check.end()) continue;
    const DeviceCheck check = CheckOnDevice(run, none, r, expression->second);
    if (!check.refused.empty() || check.overflow || !check.suspects.empty()) return false;
    ++on_device;
  }
  checks_on_device_ += on_device;
  if (is_reference) KeepReference(run, ReferenceKey());
  return true;
}

std::string GpuCase::CheckWalk::Got(const std::string& tag) const {
  return texels ? fmt::format("csb_texel{}(int(coordinate.x), int(coordinate.y), int(coordinate.z), component)", tag)
                : fmt::format("csb_scalar{}(g)", tag);
}

GpuCase::CheckWalk GpuCase::WalkOf(size_t r, size_t count, uint32_t components, std::array<uint32_t, 3> size,
                                   CheckNumbers& numbers) const {
  const std::string width = numbers.Whole(size[0]), height = numbers.Whole(size[1]);
  const uint64_t row = uint64_t{size[0]} * components;
  const uint64_t row_groups = (row + kCheckGroup - 1) / kCheckGroup;
  if (r >= manifest_->buffers.size() && row_groups <= kMaxGroupsPerDimension && size[1] <= kMaxGroupsPerDimension &&
      size[2] <= kMaxGroupsPerDimension) {
    return {.main = fmt::format("  const uint gx = gl_GlobalInvocationID.x;\n"
                                "  if (gx >= {0}) return;\n"
                                "  const uint component = gx % {1}u;\n"
                                "  const uvec3 coordinate = uvec3(gx / {1}u, gl_GlobalInvocationID.yz);\n"
                                "  const uint element = (coordinate.z * {3} + coordinate.y) * {2} + coordinate.x;\n"
                                "  const uint g = element * {1}u + component;\n",
                                numbers.Whole(static_cast<double>(row)), components, width, height),
            .groups = {static_cast<uint32_t>(row_groups), size[1], size[2]},
            .texels = true};
  }
  const uint64_t groups = (count + kCheckGroup - 1) / kCheckGroup;
  const uint32_t groups_x = static_cast<uint32_t>(std::min<uint64_t>(groups, kMaxGroupsPerDimension));
  const uint32_t groups_y = static_cast<uint32_t>((groups + groups_x - 1) / groups_x);
  return {.main = fmt::format(
              "  const uint g = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * {0}u + "
              "gl_LocalInvocationID.x;\n"
              "  if (g >= {1}) return;\n"
              "  const uint element = g / {2}u, component = g % {2}u;\n"
              "  const uvec3 coordinate = uvec3(element % {3}, element / {3} % {4}, element / ({3} * {4}));\n",
              kCheckGroup, numbers.Whole(static_cast<double>(count)), components, width, height),
          .groups = {groups_x, groups_y, 1}};
}

void GpuCase::RunCheckShader(const std::string& source, const std::string& label, std::vector<BufferRange> ranges,
                             const CheckNumbers& numbers, Buffer& result, std::array<uint32_t, 3> groups) const {
  Context::OwnKernel& own = context_->OwnKernelFor(source, [&] {
    // Its source alone names what the kernel binds: the resources in `ranges`' order (buffers and
    // storage images), then the numbers and the result.
    KernelSpec spec{.label = "a check on the device", .local_size = {kCheckGroup, 1, 1}, .max_sets = 1};
    spec.local_size_ids = {std::nullopt, std::nullopt, std::nullopt};
    spec.spirv = &CompileShader({.path = label, .text = source, .label = variant_->name});
    for (const BufferRange& range : ranges) {
      spec.slots.push_back({.binding = static_cast<uint32_t>(spec.slots.size()),
                            .kind = range.image != nullptr ? DescriptorSlot::Kind::kStorageImage
                                                           : DescriptorSlot::Kind::kStorageBuffer});
    }
    spec.slots.push_back(
        {.binding = static_cast<uint32_t>(spec.slots.size()), .kind = DescriptorSlot::Kind::kUniformBuffer});
    spec.slots.push_back({.binding = static_cast<uint32_t>(spec.slots.size())});
    return std::make_unique<Kernel>(*context_, spec);
  });
  // At least one number, so that the buffer is never empty.
  std::vector<double> values = numbers.values;
  if (values.empty()) values.push_back(0);
  // Whole pairs, as the declaration reads them.
  if (values.size() % 2 != 0) values.push_back(0);
  Buffer constants(*context_, 8 * values.size(), Memory::kDevice, true);
  constants.Upload(std::as_bytes(std::span(values)));
  ranges.push_back({.buffer = &constants});
  ranges.push_back({.buffer = &result});
  std::lock_guard lock(own.lock);
  const Bindings bindings = own.kernel->Bind(ranges);
  const std::vector<uint32_t> offsets(own.kernel->dynamic_slots(), 0);
  context_->Run([&](Commands& c) {
    c.Fill(result, 0);
    c.Barrier();
    c.Dispatch(*own.kernel, bindings, groups, offsets);
  });
}

}  // namespace csbench::manifest_detail
