#include "bench/occupancy.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "harness/base/error.hpp"
#include "harness/family/linear_case.hpp"
#include "harness/base/fork_join.hpp"
#include "harness/measure/measure.hpp"
#include "harness/measure/selection.hpp"
#include "harness/vulkan/buffer.hpp"
#include "harness/vulkan/commands.hpp"
#include "harness/vulkan/context.hpp"
#include "harness/vulkan/pipeline_stats.hpp"
#include "kernels/occupancy/reference.hpp"
#include "kernels/random.hpp"

namespace csbench::occupancy {
namespace {

constexpr uint64_t kSeed = 0x436c6179626f6f6b;  // "Claybook"

struct Push {
  uint32_t count;
};

struct Domain {
  std::vector<float> seeds;
  // The family is bound by registers, shared memory and barriers, not by memory: its 16 bytes
  // per invocation are read once, so its input is never rotated (one copy, whatever --cache says).
  std::unique_ptr<RotatingInput> device;
  std::map<uint32_t, std::vector<float>> references;  // per LIVE
};

// The random seeds of each domain, their device copy and the reference per LIVE, made on first use.
struct Inputs {
  std::map<uint32_t, std::unique_ptr<Domain>> domains;

  Domain& For(uint32_t count, Context* context) {
    auto& data = domains[count];
    if (!data) {
      data = std::make_unique<Domain>();
      data->seeds.resize(size_t{count} * 4);
      FillUniform(data->seeds, kSeed);
    }
    if (context != nullptr && !data->device) {
      data->device = std::make_unique<RotatingInput>(*context, std::as_bytes(std::span(data->seeds)), CacheMode::kWarm);
    }
    return *data;
  }
};

class GpuCase : public LinearCase<Variant> {
 public:
  GpuCase(Suite& suite, const Variant& variant, const Point& point)
      : LinearCase(suite, variant, point) {
    RequireWorkgroup(*context_, point.workgroup);
    RequireSupport(
        workgroup_ % 64 == 0 && count_ % workgroup_ == 0,
        fmt::format("{}: groups of {} must be a multiple of 64 and divide {}", variant.name, workgroup_, count_));
    const uint32_t shared_bytes = SharedBytes(variant, workgroup_);
    RequireSupport(shared_bytes <= context_->info().max_shared_memory_bytes,
                     fmt::format("{}: {} bytes of shared memory exceed the device's maxComputeSharedMemorySize ({})",
                                 variant.name, shared_bytes, context_->info().max_shared_memory_bytes));
    RequireStorage(*context_, uint64_t{count_} * 16);
    spec_ = Spec(variant, workgroup_);
    kernel_ = std::make_unique<Kernel>(*context_, spec_);
    data_ = &suite.Shared<Inputs>("occupancy").For(count_, context_);
    output_ = std::make_unique<Buffer>(*context_, uint64_t{count_} * sizeof(float));
    bindings_ = std::make_unique<Bindings>(
        kernel_->Bind({{&data_->device->buffer(), data_->device->slice_bytes()}, {output_.get(), 0}}));
  }

  Comparison Check() override {
    const std::vector<float> got = PoisonedRun(*context_, *output_, count_, [&](Commands& c) { Record(c); });
    auto [it, inserted] = data_->references.try_emplace(variant_->live);
    if (inserted) {
      // Invocations exchange values only within blocks of 64 (LiveValues), so blocks of 64 make
      // the same reference on the host's threads (live64's takes seconds on one thread: docs/perf-notes.md,
      // section 10).
      it->second.resize(count_);
      ParallelFor(
          count_, 64 * 1024,
          [&](size_t begin, size_t end) {
            LiveValues(std::span(data_->seeds).subspan(4 * begin, 4 * (end - begin)), static_cast<uint32_t>(end - begin),
                       variant_->live, kRounds, std::span(it->second).subspan(begin, end - begin));
          },
          64);
    }
    return Compare(got, it->second, kTolerance);
  }

  void Measure(benchmark::State& state) override {
    const double count = count_;
    MeasureDispatches(state, *context_, [&](Commands& c, uint32_t) { Record(c); }, 1,
                      {.elements = count, .bytes = count * (16 + 4)});
    state.counters["live"] = variant_->live;
    state.counters["shared_bytes/group"] = SharedBytes(*variant_, workgroup_);
    for (const PipelineStatistic& stat : PipelineStatistics(*context_, spec_)) {
      state.counters["stat:" + stat.name] = stat.value;
    }
  }

 private:
  void Record(Commands& c) const { c.Dispatch(*kernel_, *bindings_, {count_ / workgroup_, 1, 1}, {}, Push{count_}); }

  Domain* data_;
  KernelSpec spec_;
  std::unique_ptr<Kernel> kernel_;
  std::unique_ptr<Buffer> output_;
  std::unique_ptr<Bindings> bindings_;
};

// The plain loop of the article's target (32 live values); the CPU has no groups to size.
void RegisterPlainLoop(Suite& suite, const Point& point) {
  const uint32_t count = point.domain.x;
  Inputs& inputs = suite.Shared<Inputs>("occupancy");
  AddPlainLoop(point.name, [&inputs, count](benchmark::State& state) {
    const Domain& data = inputs.For(count, nullptr);
    std::vector<float> out(count);
    MeasurePlainLoop(
        state,
        [&] {
          LiveValues(data.seeds, count, 32, kRounds, out);
          benchmark::DoNotOptimize(out.data());
        },
        {.elements = double(count), .bytes = double(count) * 20});
  });
}

Variant Row(uint32_t live, std::vector<Pick> cpu_default = {}) {
  return {.name = fmt::format("live{}", live),
          .source = "occupancy/live.comp",
          .defines = {{"LIVE", std::to_string(live)}},
          .live = live,
          .workgroups = {{1024}, {256}, {64}},
          .cpu_default = std::move(cpu_default)};
}

// 16 live values in 256-invocation groups (few registers, so registers and invocations allow 8
// groups an SM), declaring `kib` KiB of shared memory per group.
Variant SharedRow(uint32_t kib) {
  return {.name = fmt::format("live16_shared{}k", kib),
          .source = "occupancy/live.comp",
          .defines = {{"LIVE", "16"}},
          .live = 16,
          .workgroups = {{256}},
          .shared_bytes = kib * 1024};
}

// Said once, in the run's context, so that a missing register count is never mistaken for 0.
std::vector<std::pair<std::string, std::string>> PipelineStatisticsLine(const Context& context) {
  const DeviceInfo& info = context.info();
  return {{"pipeline_statistics",
           info.pipeline_executable_info
               ? "VK_KHR_pipeline_executable_properties: occupancy benchmarks and run_simulation in compute "
                 "mode report stat:<name> counters"
               : fmt::format("not exposed: {} ({}) lacks VK_KHR_pipeline_executable_properties", info.name,
                             info.driver_name)}};
}

}  // namespace

uint32_t SharedBytes(const Variant& variant, uint32_t workgroup) {
  return std::max(variant.shared_bytes, workgroup * 32);
}

KernelSpec Spec(const Variant& variant, uint32_t workgroup) {
  std::vector<Define> defines = variant.defines;
  defines.push_back({"ROUNDS", std::to_string(kRounds)});
  if (variant.shared_bytes > 0) defines.push_back({"SHARED_VEC4", std::to_string(SharedBytes(variant, workgroup) / 16)});
  return KernelSpec{.label = variant.name,
                    .source = variant.source,
                    .defines = defines,
                    .local_size = {workgroup, 1, 1},
                    .bindings = 2,
                    .push_bytes = sizeof(Push)};
}

const Family<Variant>& Descriptor() {
  // 32 live values is the article's target (two 1024-invocation groups per GCN CU), 48 its
  // starting point (one group per CU); 16 and 64 bracket them. 2^20 invocations: several waves
  // of groups on any current GPU. The test's 2048: two 1024-invocation groups, so results must
  // not depend on the group size.
  static const Family<Variant> family{
      .name = "occupancy",
      // A CPU device's default set: the fewest live values at 256 invocations, the most at each size.
      .variants = {Row(16, {{.workgroups = {{256}}}}), Row(32), Row(48), Row(64, kEveryPoint), SharedRow(16),
                   SharedRow(24), SharedRow(32), SharedRow(40), SharedRow(48)},
      .domains = {{1u << 20}},
      .test_domains = {{2048}},
      .style = Style::kCount,
      .context_lines = PipelineStatisticsLine,
      .make = MakeCase<GpuCase>,
      .plain_loop = RegisterPlainLoop};
  return family;
}

namespace {
const Declaration kDeclared = Declare("occupancy", &Descriptor);
}

}  // namespace csbench::occupancy
