#include "bench/bank_conflicts.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>

#include "harness/buffer.hpp"
#include "harness/commands.hpp"
#include "harness/context.hpp"
#include "harness/error.hpp"
#include "harness/measure.hpp"
#include "harness/timing.hpp"
#include "harness/selection.hpp"
#include "kernels/bank_conflicts/reference.hpp"
#include "kernels/random.hpp"

namespace csbench::bank_conflicts {
namespace {

constexpr uint64_t kSeed = 20100311;
constexpr uint32_t kTile = 32;               // transpose.comp's tile edge
constexpr Extent kMatrix{4096, 4096};        // 64 MiB in, 64 MiB out
constexpr Extent kInvocations{1u << 18, 1};  // 32 Mi shared reads per dispatch

Variant Strided(uint32_t stride) {
  return {.name = fmt::format("stride{}", stride),
          .source = "bank_conflicts/strided.comp",
          .defines = {{"ACCESSES", std::to_string(kAccesses)}},
          .stride = stride,
          .workgroups = {{256, 1}},
          .domains = {kInvocations}};
}

// transpose.comp's push constants; strided.comp reads only the first (its invocation count).
struct Push {
  uint32_t x;
  uint32_t y;
};

std::string BenchmarkName(const Variant& variant, Extent workgroup, Extent domain) {
  return Name({"bank_conflicts", variant.name, Sized("wg", workgroup), Sized("domain", domain)});
}

}  // namespace

const std::vector<Variant>& Variants() {
  // 32x8 invocations move a 32x32 tile in four passes (the usual shape: a warp per tile row).
  static const std::vector<Variant> variants = {
      {.name = "transpose_tile32x32",
       .source = "bank_conflicts/transpose.comp",
       .defines = {{"PAD", "0"}},
       .workgroups = {{32, 8}},
       .domains = {kMatrix}},
      {.name = "transpose_tile32x33",
       .source = "bank_conflicts/transpose.comp",
       .defines = {{"PAD", "1"}},
       .workgroups = {{32, 8}},
       .domains = {kMatrix}},
      Strided(1),
      Strided(2),
      Strided(4),
      Strided(8),
      Strided(16),
      Strided(32),
  };
  return variants;
}

struct Inputs::Domain {
  Extent domain;
  std::vector<float> values;
  std::vector<float> transposed;  // made on first use
  std::unique_ptr<RotatingInput> device;
};

Inputs::Inputs() = default;
Inputs::~Inputs() = default;

Inputs::Domain& Inputs::For(Extent domain, Context* context, CacheMode cache) {
  auto& data = domains_[{domain.x, domain.y}];
  if (!data) {
    data = std::make_unique<Domain>();
    data->domain = domain;
    data->values.resize(std::max<size_t>(size_t{domain.x} * domain.y, kSharedWords));
    FillUniform(data->values, kSeed);
  }
  if (context != nullptr && !data->device) {
    data->device = std::make_unique<RotatingInput>(*context, std::as_bytes(std::span(data->values)), cache);
  }
  return *data;
}

struct GpuCase::State {
  Context* context;
  const Variant* variant;
  Extent workgroup;
  Extent domain;
  std::array<uint32_t, 3> groups;
  Inputs::Domain* data;
  std::unique_ptr<Kernel> kernel;
  std::unique_ptr<Buffer> output;
  std::unique_ptr<Bindings> bindings;
  uint64_t outputs = 0;

  bool transpose() const { return variant->stride == 0; }

  void Record(Commands& c, uint32_t copy) const {
    // The strided kernel reads 16 KiB per group: rotating it would measure nothing.
    std::array<uint32_t, 2> offsets{transpose() ? data->device->Offset(copy) : 0, 0};
    c.Dispatch(*kernel, *bindings, groups, offsets, Push{domain.x, domain.y});
  }
};

GpuCase::GpuCase(Context& context, const Variant& variant, Extent workgroup, Extent domain, Inputs& inputs)
    : s_(std::make_unique<State>()) {
  s_->context = &context;
  s_->variant = &variant;
  s_->workgroup = workgroup;
  s_->domain = domain;
  if (s_->transpose()) {
    Require(workgroup.x == kTile && kTile % workgroup.y == 0,
            fmt::format("{}: a tile row needs 32 invocations in x", variant.name));
    s_->groups = {(domain.x + kTile - 1) / kTile, (domain.y + kTile - 1) / kTile, 1};
  } else {
    Require(domain.y == 1 && workgroup.y == 1, fmt::format("{}: one-dimensional only", variant.name));
    s_->groups = {(domain.x + workgroup.x - 1) / workgroup.x, 1, 1};
  }
  Require(s_->groups[0] <= 65535 && s_->groups[1] <= 65535, "the domain needs more than 65535 groups a dimension");
  KernelSpec spec{.label = variant.name,
                  .source = variant.source,
                  .defines = variant.defines,
                  .local_size = {workgroup.x * workgroup.y, 1, 1},
                  .bindings = 2,
                  .push_bytes = sizeof(Push)};
  if (!s_->transpose()) spec.constants = {variant.stride};  // specialization constant 3
  s_->kernel = std::make_unique<Kernel>(context, spec);
  s_->data = &inputs.For(domain, &context, s_->transpose() ? context.options().cache : CacheMode::kWarm);
  s_->outputs = uint64_t{domain.x} * domain.y;
  s_->output = std::make_unique<Buffer>(context, s_->outputs * sizeof(float));
  s_->bindings = std::make_unique<Bindings>(
      s_->kernel->Bind({{&s_->data->device->buffer(), s_->data->device->slice_bytes()}, {s_->output.get(), 0}}));
}

GpuCase::~GpuCase() = default;

Comparison GpuCase::Check() {
  const std::vector<float> got =
      PoisonedRun(*s_->context, *s_->output, s_->outputs, [&](Commands& c) { s_->Record(c, 0); });
  std::vector<float> want(s_->outputs);
  if (s_->transpose()) {
    Transpose(std::span(s_->data->values).first(s_->outputs), s_->domain.x, s_->domain.y, want);
  } else {
    StridedSums(s_->data->values, s_->workgroup.x, s_->variant->stride, kAccesses, want);
  }
  return Compare(got, want, kTolerance);
}

double GpuCase::SecondsPerDispatch() {
  const uint32_t period = s_->transpose() ? s_->data->device->copies() : 1;
  auto batch = [&](uint32_t count) {
    return TimedBatch(*s_->context, [&](Commands& c) {
      for (uint32_t i = 0; i < count; ++i) {
        if (i > 0) c.Barrier();
        s_->Record(c, i);
      }
    });
  };
  TimedBatch probe = batch(period);
  probe.Run();
  const uint32_t count = BatchSize(probe.Run() / period, period);
  TimedBatch timed = batch(count);
  double best = timed.Run();
  best = std::min(best, timed.Run());
  return best / count;
}

void GpuCase::Measure(benchmark::State& state) {
  const double elements = static_cast<double>(s_->domain.x) * s_->domain.y;
  // Compulsory traffic: the transpose reads and writes each element; the strided kernel writes
  // one sum per invocation (its 16 KiB input is read once per group, from cache).
  const double bytes = s_->transpose() ? elements * 8 : elements * 4;
  const uint32_t period = s_->transpose() ? s_->data->device->copies() : 1;
  MeasureDispatches(state, *s_->context, BenchmarkName(*s_->variant, s_->workgroup, s_->domain),
                    [&](Commands& c, uint32_t i) { s_->Record(c, i); }, period, {.elements = elements, .bytes = bytes});
  if (s_->transpose()) return;
  // The stride-1 time of this workgroup and domain, measured once per run.
  static std::map<std::pair<uint32_t, uint32_t>, double> stride1_seconds;
  auto [it, inserted] = stride1_seconds.try_emplace({s_->workgroup.x, s_->domain.x}, 0.0);
  if (inserted) {
    static const Variant stride1 = Strided(1);
    Inputs inputs;
    GpuCase base(*s_->context, stride1, s_->workgroup, s_->domain, inputs);
    it->second = base.SecondsPerDispatch();
  }
  const double seconds = s_->variant->stride == 1 ? it->second : SecondsPerDispatch();
  state.counters["slowdown"] = seconds / it->second;
}

void Register(Suite& suite) {
  Inputs& inputs = suite.Shared<Inputs>("bank_conflicts");
  for (const Variant& variant : Variants()) {
    for (Extent domain : variant.domains) {
      if (suite.context == nullptr) continue;
      for (Extent wg : variant.workgroups) {
        RegisterGpuCase(BenchmarkName(variant, wg, domain), [&suite, &inputs, &variant, wg, domain] {
          return std::make_unique<GpuCase>(*suite.context, variant, wg, domain, inputs);
        });
      }
    }
  }
  // The CPU has no banks: one plain loop, the transpose.
  auto plain = [&suite, &inputs](benchmark::State& state) {
    RunGuarded(state, [&] {
      const Inputs::Domain& data = inputs.For(kMatrix, nullptr, suite.options.cache);
      std::vector<float> out(data.values.size());
      for (auto _ : state) {
        Transpose(std::span(data.values).first(out.size()), kMatrix.x, kMatrix.y, out);
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
      }
      const double elements = static_cast<double>(kMatrix.x) * kMatrix.y;
      SetThroughput(state, {.elements = elements, .bytes = elements * 8});
    });
  };
  AddBenchmark(Name({"bank_conflicts", "plain_loop", Sized("domain", kMatrix)}), plain)
      ->Unit(benchmark::kMillisecond);
}

}  // namespace csbench::bank_conflicts
