#include "bench/occupancy.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "harness/buffer.hpp"
#include "harness/commands.hpp"
#include "harness/context.hpp"
#include "harness/error.hpp"
#include "harness/measure.hpp"
#include "harness/naming.hpp"
#include "harness/pipeline_stats.hpp"
#include "harness/selection.hpp"
#include "kernels/occupancy/reference.hpp"
#include "kernels/random.hpp"

namespace csbench::occupancy {
namespace {

constexpr uint64_t kSeed = 0x436c6179626f6f6b;  // "Claybook"

struct Push {
  uint32_t count;
};

}  // namespace

const std::vector<Variant>& Variants() {
  // 32 live values is the article's target (two 1024-invocation groups per GCN CU), 48 its
  // starting point (one group per CU); 16 and 64 bracket them.
  static const std::vector<Variant> variants = {
      {.name = "live16", .source = "occupancy/live.comp", .defines = {{"LIVE", "16"}}, .live = 16,
       .workgroups = {1024, 256, 64}},
      {.name = "live32", .source = "occupancy/live.comp", .defines = {{"LIVE", "32"}}, .live = 32,
       .workgroups = {1024, 256, 64}},
      {.name = "live48", .source = "occupancy/live.comp", .defines = {{"LIVE", "48"}}, .live = 48,
       .workgroups = {1024, 256, 64}},
      {.name = "live64", .source = "occupancy/live.comp", .defines = {{"LIVE", "64"}}, .live = 64,
       .workgroups = {1024, 256, 64}},
  };
  return variants;
}

const std::vector<uint32_t>& Domains() {
  static const std::vector<uint32_t> domains = {1u << 20};
  return domains;
}

std::string BenchmarkName(const Variant& variant, uint32_t workgroup, uint32_t count) {
  return Name({"occupancy", variant.name, fmt::format("wg{}", workgroup), fmt::format("domain{}", count)});
}

struct Inputs::Domain {
  uint32_t count = 0;
  std::vector<float> seeds;
  // The family is bound by registers, shared memory and barriers, not by memory: its 16 bytes
  // per invocation are read once, so its input is never rotated (one copy, whatever --cache says).
  std::unique_ptr<RotatingInput> device;
  std::map<uint32_t, std::vector<float>> references;  // per LIVE

  const std::vector<float>& Reference(uint32_t live) {
    auto [it, inserted] = references.try_emplace(live);
    if (inserted) it->second = LiveValues(seeds, count, live, kRounds);
    return it->second;
  }
};

Inputs::Inputs() = default;
Inputs::~Inputs() = default;

Inputs::Domain& Inputs::For(uint32_t count, Context* context) {
  auto it = std::find_if(domains_.begin(), domains_.end(), [&](const auto& d) { return d->count == count; });
  if (it == domains_.end()) {
    auto domain = std::make_unique<Domain>();
    domain->count = count;
    domain->seeds.resize(size_t{count} * 4);
    FillUniform(domain->seeds, kSeed);
    domains_.push_back(std::move(domain));
    it = domains_.end() - 1;
  }
  Domain& data = **it;
  if (context != nullptr && !data.device) {
    data.device = std::make_unique<RotatingInput>(*context, std::as_bytes(std::span(data.seeds)), CacheMode::kWarm);
  }
  return data;
}

struct GpuCase::State {
  Context* context;
  const Variant* variant;
  uint32_t workgroup;
  Inputs::Domain* data;
  KernelSpec spec;
  std::unique_ptr<Kernel> kernel;
  std::unique_ptr<Buffer> output;
  std::unique_ptr<Bindings> bindings;

  void Record(Commands& c) const {
    c.Dispatch(*kernel, *bindings, {data->count / workgroup, 1, 1}, {}, Push{data->count});
  }
};

GpuCase::GpuCase(Context& context, const Variant& variant, uint32_t workgroup, uint32_t count, Inputs& inputs)
    : s_(std::make_unique<State>()) {
  Require(workgroup % 64 == 0 && count % workgroup == 0,
          fmt::format("{}: groups of {} must be a multiple of 64 and divide {}", variant.name, workgroup, count));
  const uint32_t shared_bytes = workgroup * 32;
  Require(shared_bytes <= context.info().max_shared_memory_bytes,
          fmt::format("{}: {} bytes of shared memory exceed the device's maxComputeSharedMemorySize ({})",
                      variant.name, shared_bytes, context.info().max_shared_memory_bytes));
  s_->context = &context;
  s_->variant = &variant;
  s_->workgroup = workgroup;
  std::vector<Define> defines = variant.defines;
  defines.push_back({"ROUNDS", std::to_string(kRounds)});
  s_->spec = KernelSpec{.label = variant.name,
                        .source = variant.source,
                        .defines = defines,
                        .local_size = {workgroup, 1, 1},
                        .bindings = 2,
                        .push_bytes = sizeof(Push)};
  s_->kernel = std::make_unique<Kernel>(context, s_->spec);
  s_->data = &inputs.For(count, &context);
  s_->output = std::make_unique<Buffer>(context, uint64_t{count} * sizeof(float));
  s_->bindings = std::make_unique<Bindings>(
      s_->kernel->Bind({{&s_->data->device->buffer(), s_->data->device->slice_bytes()}, {s_->output.get(), 0}}));
}

GpuCase::~GpuCase() = default;

const KernelSpec& GpuCase::spec() const { return s_->spec; }

Comparison GpuCase::Check() {
  const std::vector<float> got =
      PoisonedRun(*s_->context, *s_->output, s_->data->count, [&](Commands& c) { s_->Record(c); });
  return Compare(got, s_->data->Reference(s_->variant->live), kTolerance);
}

void GpuCase::Measure(benchmark::State& state) {
  const double count = s_->data->count;
  MeasureDispatches(
      state, *s_->context, BenchmarkName(*s_->variant, s_->workgroup, s_->data->count),
      [&](Commands& c, uint32_t) { s_->Record(c); }, 1, {.elements = count, .bytes = count * (16 + 4)});
  state.counters["live"] = s_->variant->live;
  state.counters["shared_bytes/group"] = s_->workgroup * 32.0;
  for (const PipelineStatistic& stat : PipelineStatistics(*s_->context, s_->spec)) {
    state.counters["stat:" + stat.name] = stat.value;
  }
}

void Register(Suite& suite) {
  Inputs& inputs = suite.Shared<Inputs>("occupancy");
  if (suite.context != nullptr) {
    const DeviceInfo& info = suite.context->info();
    // Said once, in the run's context, so that a missing register count is never mistaken for 0.
    benchmark::AddCustomContext(
        "pipeline_statistics",
        info.pipeline_executable_info
            ? "VK_KHR_pipeline_executable_properties: occupancy benchmarks report stat:<name> counters"
            : fmt::format("not exposed: {} ({}) lacks VK_KHR_pipeline_executable_properties", info.name,
                          info.driver_name));
  }
  for (uint32_t count : Domains()) {
    if (suite.context != nullptr) {
      for (const Variant& variant : Variants()) {
        for (uint32_t wg : variant.workgroups) {
          RegisterGpuCase(BenchmarkName(variant, wg, count), [&suite, &inputs, &variant, wg, count] {
            return std::make_unique<GpuCase>(*suite.context, variant, wg, count, inputs);
          });
        }
      }
    }
    // The plain loop of the article's target (32 live values); the CPU has no groups to size.
    auto plain = [&inputs, count](benchmark::State& state) {
      RunGuarded(state, [&] {
        const Inputs::Domain& data = inputs.For(count, nullptr);
        std::vector<float> out(count);
        for (auto _ : state) {
          LiveValues(data.seeds, count, 32, kRounds, out);
          benchmark::DoNotOptimize(out.data());
          benchmark::ClobberMemory();
        }
        SetThroughput(state, {.elements = double(count), .bytes = double(count) * 20});
      });
    };
    AddBenchmark(Name({"occupancy", "plain_loop", fmt::format("domain{}", count)}), plain)
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace csbench::occupancy
