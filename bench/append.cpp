#include "bench/append.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <span>

#include "harness/base/error.hpp"
#include "harness/family/linear_case.hpp"
#include "harness/base/naming.hpp"
#include "harness/measure/measure.hpp"
#include "harness/measure/selection.hpp"
#include "harness/vulkan/buffer.hpp"
#include "harness/vulkan/commands.hpp"
#include "harness/vulkan/context.hpp"
#include "harness/vulkan/kernel.hpp"
#include "kernels/append/reference.hpp"

namespace csbench::append {
namespace {

constexpr uint64_t kSeed = 20100311;

// atomic.comp's and scan.comp's push constants.
struct Push {
  uint32_t count;
  float threshold;
  uint32_t tiles_per_group;
  uint32_t groups;
};

// The subgroups of `size` lanes (consecutive elements) that keep at least one element: the ballot
// variant's atomics. With the device's default subgroup size: a driver that picks another width
// for the pipeline makes the number approximate.
uint64_t SubgroupsThatKeep(std::span<const float> values, float threshold, uint32_t size) {
  uint64_t subgroups = 0;
  for (size_t first = 0; first < values.size(); first += size) {
    const size_t last = std::min(values.size(), first + size);
    subgroups += std::any_of(values.begin() + first, values.begin() + last, [&](float v) { return v > threshold; });
  }
  return subgroups;
}

}  // namespace

Inputs::Inputs() : FloatInputs(kSeed) {}

const std::vector<float>& Inputs::Kept(const Domain& data, uint32_t keep_percent) {
  auto [it, inserted] = kept_.try_emplace({data.count, keep_percent});
  if (inserted) it->second = Compact(data.values, Threshold(keep_percent));
  return it->second;
}

namespace {

class GpuCase : public LinearCase<Variant> {
 public:
  GpuCase(Suite& suite, const Variant& row, const Point& point);
  Comparison Check() override;
  void Measure(benchmark::State& state) override;

 private:
  void Record(Commands& c, uint32_t copy) const;

  uint32_t keep_percent_;
  Push push_;
  FloatInputs::Domain* data_;
  const std::vector<float>* kept_;                // the reference
  std::vector<std::unique_ptr<Kernel>> kernels_;  // atomic variants: one; scan: its three passes
  std::vector<Bindings> bindings_;                // one set per kernel
  std::unique_ptr<Buffer> output_;
  std::unique_ptr<Buffer> counter_;
  std::unique_ptr<Buffer> counts_;  // scan: one count, then one offset, per group
  double atomics_ = 0;              // atomic adds on the counter per dispatch
};

void GpuCase::Record(Commands& c, uint32_t copy) const {
  const std::array<uint32_t, 4> offsets{data_->device->Offset(copy), 0, 0, 0};
  const std::span<const uint32_t> used(offsets.data(), kernels_[0]->spec().bindings);
  if (variant_->method != Method::kScan) {
    // An append counter starts every dispatch at zero, and resetting it is part of the work of
    // an append buffer (D3D resets it when the view is bound), so the fill and the barrier that
    // orders it before the atomics are inside each timed dispatch. Without them the counter of
    // the timed loop would run past the output.
    c.Fill(*counter_, 0);
    c.Barrier();
    c.Dispatch(*kernels_[0], bindings_[0], {push_.groups, 1, 1}, used, push_);
    return;
  }
  // The scan writes its count (pass 2) rather than adding to it: nothing to reset. Each pass
  // reads what the one before wrote, hence the barriers.
  c.Dispatch(*kernels_[0], bindings_[0], {push_.groups, 1, 1}, used, push_);
  c.Barrier();
  c.Dispatch(*kernels_[1], bindings_[1], {1, 1, 1}, used, push_);
  c.Barrier();
  c.Dispatch(*kernels_[2], bindings_[2], {push_.groups, 1, 1}, used, push_);
}

GpuCase::GpuCase(Suite& suite, const Variant& row, const Point& point)
    : LinearCase(suite, row, point),
      keep_percent_(static_cast<uint32_t>(point.Number("keep"))) {
  const uint32_t count = count_;
  Inputs& inputs = SharedInputs(suite);
  RequireSupport(!variant_->needs_subgroup_ballot || context_->info().subgroup_ballot,
                   fmt::format("{} needs subgroup ballot operations in compute shaders, which {} does not support",
                               variant_->name, context_->info().name));
  RequireWorkgroup(*context_, point.workgroup);
  RequireStorage(*context_, uint64_t{count} * sizeof(float));
  const uint32_t tiles = (count + workgroup_ - 1) / workgroup_;
  const uint32_t tiles_per_group = (tiles + kMaxGroupsPerDimension - 1) / kMaxGroupsPerDimension;
  push_ = Push{.count = count,
               .threshold = Threshold(keep_percent_),
               .tiles_per_group = tiles_per_group,
               .groups = (tiles + tiles_per_group - 1) / tiles_per_group};
  data_ = &inputs.For(count, context_, suite.options.cache);
  kept_ = &inputs.Kept(*data_, keep_percent_);
  output_ = std::make_unique<Buffer>(*context_, uint64_t{count} * sizeof(float));
  counter_ = std::make_unique<Buffer>(*context_, sizeof(uint32_t));
  std::vector<BufferRange> buffers{
      {&data_->device->buffer(), uint64_t{count} * sizeof(float)}, {output_.get(), 0}, {counter_.get(), 0}};
  std::vector<std::vector<Define>> passes{variant_->defines};
  if (variant_->method == Method::kScan) {
    counts_ = std::make_unique<Buffer>(*context_, uint64_t{push_.groups} * sizeof(uint32_t));
    buffers.push_back({counts_.get(), 0});
    passes = {{{"PASS", "1"}}, {{"PASS", "2"}}, {{"PASS", "3"}}};
  }
  for (size_t p = 0; p < passes.size(); ++p) {
    kernels_.push_back(std::make_unique<Kernel>(
        *context_,
        KernelSpec{.label = passes.size() == 1 ? variant_->name : fmt::format("{} pass {}", variant_->name, p + 1),
                   .source = variant_->source,
                   .defines = passes[p],
                   .local_size = {workgroup_, 1, 1},
                   .bindings = static_cast<uint32_t>(buffers.size()),
                   .push_bytes = sizeof(Push)}));
    bindings_.push_back(kernels_.back()->Bind(buffers));
  }
  switch (variant_->method) {
    case Method::kAtomicPerElement:
      atomics_ = static_cast<double>(kept_->size());
      break;
    case Method::kBallot: {
      const uint32_t lanes = std::clamp(context_->info().subgroup_size, 1u, workgroup_);
      atomics_ = static_cast<double>(SubgroupsThatKeep(data_->values, push_.threshold, lanes));
      break;
    }
    case Method::kScan:
      atomics_ = 0;
      break;
  }
}

Comparison GpuCase::Check() {
  const std::vector<float>& want = *kept_;
  context_->Run([&](Commands& c) {
    c.Fill(*output_, kPoison);
    c.Fill(*counter_, kPoison);
    if (counts_) c.Fill(*counts_, kPoison);
    c.Barrier();
    Record(c, 0);
    c.Barrier();
    c.Fill(*output_, kPoison);
    c.Barrier();
    Record(c, 1);
  });
  Comparison result;
  result.max_relative_error = 1.0;  // a compaction is right or wrong
  uint32_t got_count = 0;
  counter_->Download(std::as_writable_bytes(std::span(&got_count, 1)));
  if (got_count != want.size()) {
    result.message = fmt::format("the counter says {} elements kept, the reference keeps {}", got_count, want.size());
    return result;
  }
  // The kept values and, where the output has room, the element after them.
  const size_t tail = want.size() < push_.count ? 1 : 0;
  std::vector<float> got(want.size() + tail);
  if (!got.empty()) output_->Download(std::as_writable_bytes(std::span(got)));
  result.message = KeptMismatch(std::span(got).first(want.size()), want, variant_->ordered());
  if (result.message.empty() && tail == 1 && std::bit_cast<uint32_t>(got.back()) != kPoison) {
    result.message = fmt::format("element {}, after the last kept one, was written", want.size());
  }
  result.passed = result.message.empty();
  if (result.passed) result.max_relative_error = 0.0;
  return result;
}

void GpuCase::Measure(benchmark::State& state) {
  const uint32_t count = push_.count;
  const double kept = static_cast<double>(kept_->size());
  // Compulsory traffic: the input read once, each kept element written once, and the count.
  MeasureDispatches(state, *context_, [&](Commands& c, uint32_t i) { Record(c, i); }, data_->device->copies(),
                    {.elements = static_cast<double>(count), .bytes = (count + kept + 1) * sizeof(float)});
  state.counters["kept"] = kept / count;
  state.counters["atomics"] = atomics_;
}

void RegisterPlainLoop(Suite& suite, const Point& point) {
  const uint32_t count = point.domain.x;
  const uint32_t keep = static_cast<uint32_t>(point.Number("keep"));
  Inputs& inputs = SharedInputs(suite);
  AddPlainLoop(point.name, [&suite, &inputs, count, keep](benchmark::State& state) {
    const Inputs::Domain& data = inputs.For(count, nullptr, suite.options.cache);
    const float threshold = Threshold(keep);
    std::vector<float> out(count);
    uint32_t kept = 0;
    MeasurePlainLoop(
        state,
        [&] {
          kept = Compact(data.values, threshold, out);
          benchmark::DoNotOptimize(kept);
        },
        [&] {
          return Work{.elements = static_cast<double>(count),
                      .bytes = (count + static_cast<double>(kept) + 1) * sizeof(float)};
        });
    state.counters["kept"] = static_cast<double>(kept) / count;
  });
}

}  // namespace

const Family<Variant>& Descriptor() {
  // 16 Mi floats: 64 MiB in, up to 64 MiB out. Tests: 100003, a partial last tile; 37, fewer
  // elements than one group (at 1%, likely none kept). A CPU device's default set: every method at
  // 256 threads a group, keeping half.
  const std::vector<Pick> half_at_256 = {{.workgroups = {{256}}, .domains = {{16u << 20}}, .axes = {{"keep", 50}}}};
  static const Family<Variant> family{
      .name = "append",
      .variants = {{.name = "atomic_per_element",
                    .source = "append/atomic.comp",
                    .defines = {{"BALLOT", "0"}},
                    .method = Method::kAtomicPerElement,
                    .workgroups = {{64}, {256}, {1024}},
                    .cpu_default = half_at_256},
                   {.name = "ballot",
                    .source = "append/atomic.comp",
                    .defines = {{"BALLOT", "1"}},
                    .method = Method::kBallot,
                    .workgroups = {{64}, {256}, {1024}},
                    .needs_subgroup_ballot = true,
                    .cpu_default = half_at_256},
                   {.name = "scan",
                    .source = "append/scan.comp",
                    .method = Method::kScan,
                    .workgroups = {{64}, {256}, {1024}},
                    .cpu_default = half_at_256}},
      .domains = {{16u << 20}},
      .test_domains = {{100003}, {37}},
      .style = Style::kCount,
      .axes = {{.name = "keep", .prefix = "keep", .values = {1, 50, 99}}},
      .make = MakeCase<GpuCase>,
      .plain_loop = RegisterPlainLoop};
  return family;
}

Inputs& SharedInputs(Suite& suite) { return suite.Shared<Inputs>("append"); }

namespace {
const Declaration kDeclared = Declare("append", &Descriptor);
}

}  // namespace csbench::append
