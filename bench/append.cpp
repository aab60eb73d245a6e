#include "bench/append.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <span>

#include "harness/buffer.hpp"
#include "harness/commands.hpp"
#include "harness/context.hpp"
#include "harness/error.hpp"
#include "harness/kernel.hpp"
#include "harness/measure.hpp"
#include "harness/naming.hpp"
#include "harness/selection.hpp"
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

const std::vector<Variant>& Variants() {
  static const std::vector<Variant> variants = {
      {.name = "atomic_per_element",
       .source = "append/atomic.comp",
       .defines = {{"BALLOT", "0"}},
       .method = Method::kAtomicPerElement,
       .workgroups = {64, 256, 1024}},
      {.name = "ballot",
       .source = "append/atomic.comp",
       .defines = {{"BALLOT", "1"}},
       .method = Method::kBallot,
       .workgroups = {64, 256, 1024},
       .needs_subgroup_ballot = true},
      {.name = "scan", .source = "append/scan.comp", .method = Method::kScan, .workgroups = {64, 256, 1024}},
  };
  return variants;
}

const std::vector<uint32_t>& Domains() {
  static const std::vector<uint32_t> domains = {16u << 20};  // 64 MiB in, up to 64 MiB out
  return domains;
}

const std::vector<uint32_t>& KeepPercents() {
  static const std::vector<uint32_t> percents = {1, 50, 99};
  return percents;
}

std::string BenchmarkName(const Variant& variant, uint32_t workgroup, uint32_t count, uint32_t keep_percent) {
  return Name({"append", variant.name, fmt::format("wg{}", workgroup), fmt::format("domain{}", count),
               fmt::format("keep{}", keep_percent)});
}

Inputs::Inputs() : FloatInputs(kSeed) {}

const std::vector<float>& Inputs::Kept(const Domain& data, uint32_t keep_percent) {
  auto [it, inserted] = kept_.try_emplace({data.count, keep_percent});
  if (inserted) it->second = Compact(data.values, Threshold(keep_percent));
  return it->second;
}

struct GpuCase::State {
  Context* context;
  const Variant* variant;
  uint32_t workgroup;
  uint32_t keep_percent;
  Push push;
  Inputs::Domain* data;
  const std::vector<float>* kept;                // the reference
  std::vector<std::unique_ptr<Kernel>> kernels;  // atomic variants: one; scan: its three passes
  std::vector<Bindings> bindings;                // one set per kernel
  std::unique_ptr<Buffer> output;
  std::unique_ptr<Buffer> counter;
  std::unique_ptr<Buffer> counts;  // scan: one count, then one offset, per group
  double atomics = 0;              // atomic adds on the counter per dispatch

  void Record(Commands& c, uint32_t copy) const {
    const std::array<uint32_t, 4> offsets{data->device->Offset(copy), 0, 0, 0};
    const std::span<const uint32_t> used(offsets.data(), kernels[0]->spec().bindings);
    if (variant->method != Method::kScan) {
      // An append counter starts every dispatch at zero, and resetting it is part of the work of
      // an append buffer (D3D resets it when the view is bound), so the fill and the barrier that
      // orders it before the atomics are inside each timed dispatch. Without them the counter of
      // the timed loop would run past the output.
      c.Fill(*counter, 0);
      c.Barrier();
      c.Dispatch(*kernels[0], bindings[0], {push.groups, 1, 1}, used, push);
      return;
    }
    // The scan writes its count (pass 2) rather than adding to it: nothing to reset. Each pass
    // reads what the one before wrote, hence the barriers.
    c.Dispatch(*kernels[0], bindings[0], {push.groups, 1, 1}, used, push);
    c.Barrier();
    c.Dispatch(*kernels[1], bindings[1], {1, 1, 1}, used, push);
    c.Barrier();
    c.Dispatch(*kernels[2], bindings[2], {push.groups, 1, 1}, used, push);
  }
};

GpuCase::GpuCase(Context& context, const Variant& variant, uint32_t workgroup, uint32_t count, uint32_t keep_percent,
                 Inputs& inputs)
    : s_(std::make_unique<State>()) {
  RequireSupport(!variant.needs_subgroup_ballot || context.info().subgroup_ballot,
          fmt::format("{} needs subgroup ballot operations in compute shaders, which {} does not support", variant.name,
                      context.info().name));
  s_->context = &context;
  s_->variant = &variant;
  s_->workgroup = workgroup;
  s_->keep_percent = keep_percent;
  const uint32_t tiles = (count + workgroup - 1) / workgroup;
  const uint32_t tiles_per_group = (tiles + kMaxGroupsPerDimension - 1) / kMaxGroupsPerDimension;
  s_->push = Push{.count = count,
                  .threshold = Threshold(keep_percent),
                  .tiles_per_group = tiles_per_group,
                  .groups = (tiles + tiles_per_group - 1) / tiles_per_group};
  s_->data = &inputs.For(count, &context, context.options().cache);
  s_->kept = &inputs.Kept(*s_->data, keep_percent);
  s_->output = std::make_unique<Buffer>(context, uint64_t{count} * sizeof(float));
  s_->counter = std::make_unique<Buffer>(context, sizeof(uint32_t));
  std::vector<BufferRange> buffers{
      {&s_->data->device->buffer(), uint64_t{count} * sizeof(float)}, {s_->output.get(), 0}, {s_->counter.get(), 0}};
  std::vector<std::vector<Define>> passes{variant.defines};
  if (variant.method == Method::kScan) {
    s_->counts = std::make_unique<Buffer>(context, uint64_t{s_->push.groups} * sizeof(uint32_t));
    buffers.push_back({s_->counts.get(), 0});
    passes = {{{"PASS", "1"}}, {{"PASS", "2"}}, {{"PASS", "3"}}};
  }
  for (size_t p = 0; p < passes.size(); ++p) {
    s_->kernels.push_back(std::make_unique<Kernel>(
        context, KernelSpec{.label = passes.size() == 1 ? variant.name : fmt::format("{} pass {}", variant.name, p + 1),
                            .source = variant.source,
                            .defines = passes[p],
                            .local_size = {workgroup, 1, 1},
                            .bindings = static_cast<uint32_t>(buffers.size()),
                            .push_bytes = sizeof(Push)}));
    s_->bindings.push_back(s_->kernels.back()->Bind(buffers));
  }
  switch (variant.method) {
    case Method::kAtomicPerElement:
      s_->atomics = static_cast<double>(s_->kept->size());
      break;
    case Method::kBallot: {
      const uint32_t lanes = std::clamp(context.info().subgroup_size, 1u, workgroup);
      s_->atomics = static_cast<double>(SubgroupsThatKeep(s_->data->values, s_->push.threshold, lanes));
      break;
    }
    case Method::kScan:
      s_->atomics = 0;
      break;
  }
}

GpuCase::~GpuCase() = default;

Comparison GpuCase::Check() {
  const std::vector<float>& want = *s_->kept;
  s_->context->Run([&](Commands& c) {
    c.Fill(*s_->output, kPoison);
    c.Fill(*s_->counter, kPoison);
    if (s_->counts) c.Fill(*s_->counts, kPoison);
    c.Barrier();
    s_->Record(c, 0);
    c.Barrier();
    c.Fill(*s_->output, kPoison);
    c.Barrier();
    s_->Record(c, 1);
  });
  Comparison result;
  result.max_relative_error = 1.0;  // a compaction is right or wrong
  uint32_t got_count = 0;
  s_->counter->Download(std::as_writable_bytes(std::span(&got_count, 1)));
  if (got_count != want.size()) {
    result.message = fmt::format("the counter says {} elements kept, the reference keeps {}", got_count, want.size());
    return result;
  }
  // The kept values and, where the output has room, the element after them.
  const size_t tail = want.size() < s_->push.count ? 1 : 0;
  std::vector<float> got(want.size() + tail);
  if (!got.empty()) s_->output->Download(std::as_writable_bytes(std::span(got)));
  result.message = KeptMismatch(std::span(got).first(want.size()), want, s_->variant->ordered());
  if (result.message.empty() && tail == 1 && std::bit_cast<uint32_t>(got.back()) != kPoison) {
    result.message = fmt::format("element {}, after the last kept one, was written", want.size());
  }
  result.passed = result.message.empty();
  if (result.passed) result.max_relative_error = 0.0;
  return result;
}

void GpuCase::Measure(benchmark::State& state) {
  const uint32_t count = s_->push.count;
  const double kept = static_cast<double>(s_->kept->size());
  // Compulsory traffic: the input read once, each kept element written once, and the count.
  MeasureDispatches(state, *s_->context, BenchmarkName(*s_->variant, s_->workgroup, count, s_->keep_percent),
                    [&](Commands& c, uint32_t i) { s_->Record(c, i); }, s_->data->device->copies(),
                    {.elements = static_cast<double>(count), .bytes = (count + kept + 1) * sizeof(float)});
  state.counters["kept"] = kept / count;
  state.counters["atomics"] = s_->atomics;
}

void Register(Suite& suite) {
  Inputs& inputs = suite.Shared<Inputs>("append");
  for (uint32_t count : Domains()) {
    if (suite.context != nullptr) {
      for (const Variant& variant : Variants()) {
        for (uint32_t wg : variant.workgroups) {
          for (uint32_t keep : KeepPercents()) {
            RegisterGpuCase(BenchmarkName(variant, wg, count, keep), [&suite, &inputs, &variant, wg, count, keep] {
              return std::make_unique<GpuCase>(*suite.context, variant, wg, count, keep, inputs);
            });
          }
        }
      }
    }
    for (uint32_t keep : KeepPercents()) {
      auto plain = [&suite, &inputs, count, keep](benchmark::State& state) {
        RunGuarded(state, [&] {
          const Inputs::Domain& data = inputs.For(count, nullptr, suite.options.cache);
          const float threshold = Threshold(keep);
          std::vector<float> out(count);
          uint32_t kept = 0;
          for (auto _ : state) {
            kept = Compact(data.values, threshold, out);
            benchmark::DoNotOptimize(kept);
            benchmark::ClobberMemory();
          }
          SetThroughput(state, {.elements = static_cast<double>(count),
                                .bytes = (count + static_cast<double>(kept) + 1) * sizeof(float)});
          state.counters["kept"] = static_cast<double>(kept) / count;
        });
      };
      AddBenchmark(
          Name({"append", "plain_loop", fmt::format("domain{}", count), fmt::format("keep{}", keep)}), plain)
          ->Unit(benchmark::kMillisecond);
    }
  }
}

}  // namespace csbench::append
