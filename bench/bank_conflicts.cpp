#include "bench/bank_conflicts.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>

#include "harness/base/error.hpp"
#include "harness/measure/measure.hpp"
#include "harness/measure/selection.hpp"
#include "harness/vulkan/buffer.hpp"
#include "harness/vulkan/commands.hpp"
#include "harness/vulkan/context.hpp"
#include "harness/vulkan/timing.hpp"
#include "kernels/bank_conflicts/reference.hpp"
#include "kernels/random.hpp"

namespace csbench::bank_conflicts {
namespace {

constexpr uint64_t kSeed = 20100311;
constexpr uint32_t kTile = 32;               // transpose.comp's tile edge
constexpr Extent kMatrix{4096, 4096};        // 64 MiB in, 64 MiB out
constexpr Extent kInvocations{1u << 18, 1};  // 32 Mi shared reads per dispatch

Variant Strided(uint32_t stride, std::vector<Pick> cpu_default = {}) {
  return {.name = fmt::format("stride{}", stride),
          .source = "bank_conflicts/strided.comp",
          .defines = {{"ACCESSES", std::to_string(kAccesses)}},
          .stride = stride,
          .workgroups = {{256, 1}},
          .domains = {kInvocations},
          .cpu_default = std::move(cpu_default)};
}

// transpose.comp's push constants; strided.comp reads only the first (its invocation count).
struct Push {
  uint32_t x;
  uint32_t y;
};

struct Domain {
  Extent domain;
  std::vector<float> values;
  std::unique_ptr<RotatingInput> device;
};

// The random input of each domain and its rotated device copies, made on first use and kept.
struct Inputs {
  std::map<std::pair<uint32_t, uint32_t>, std::unique_ptr<Domain>> domains;
  Domain& For(Extent domain, Context* context, CacheMode cache);
};

Domain& Inputs::For(Extent domain, Context* context, CacheMode cache) {
  auto& data = domains[{domain.x, domain.y}];
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

// One variant at one workgroup size on one domain (its fields are its state, public).
struct GpuCase : Case {
  GpuCase(Context& context, Inputs& inputs, const Variant& row, const Point& point);
  Comparison Check() override;
  void Measure(benchmark::State& state) override;
  // Seconds per dispatch, the best of a few timed batches (for `slowdown`).
  double SecondsPerDispatch();

  Context* context;
  std::string name;
  Variant variant;
  Extent workgroup;
  Extent domain;
  std::array<uint32_t, 3> groups;
  Domain* data;
  std::unique_ptr<Kernel> kernel;
  std::unique_ptr<Buffer> output;
  std::unique_ptr<Bindings> bindings;
  uint64_t outputs = 0;

  bool transpose() const { return variant.stride == 0; }

  void Record(Commands& c, uint32_t copy) const {
    // The strided kernel reads 16 KiB per group: rotating it would measure nothing.
    std::array<uint32_t, 2> offsets{transpose() ? data->device->Offset(copy) : 0, 0};
    c.Dispatch(*kernel, *bindings, groups, offsets, Push{domain.x, domain.y});
  }
};

GpuCase::GpuCase(Context& context_ref, Inputs& inputs, const Variant& row, const Point& point)
    : context(&context_ref), name(point.name), variant(row), workgroup(point.workgroup), domain(point.domain) {
  RequireWorkgroup(*context, workgroup);
  if (transpose()) {
    RequireSupport(workgroup.x == kTile && kTile % workgroup.y == 0,
                     fmt::format("{}: a tile row needs 32 invocations in x", variant.name));
    groups = {(domain.x + kTile - 1) / kTile, (domain.y + kTile - 1) / kTile, 1};
  } else {
    RequireSupport(domain.y == 1 && workgroup.y == 1, fmt::format("{}: one-dimensional only", variant.name));
    groups = {(domain.x + workgroup.x - 1) / workgroup.x, 1, 1};
  }
  RequireSupport(groups[0] <= 65535 && groups[1] <= 65535, "the domain needs more than 65535 groups a dimension");
  KernelSpec spec{.label = variant.name,
                  .source = variant.source,
                  .defines = variant.defines,
                  .local_size = {workgroup.x * workgroup.y, 1, 1},
                  .bindings = 2,
                  .push_bytes = sizeof(Push)};
  if (!transpose()) spec.constants = {variant.stride};  // specialization constant 3
  kernel = std::make_unique<Kernel>(*context, spec);
  data = &inputs.For(domain, context, transpose() ? context->options().cache : CacheMode::kWarm);
  outputs = uint64_t{domain.x} * domain.y;
  output = std::make_unique<Buffer>(*context, outputs * sizeof(float));
  bindings = std::make_unique<Bindings>(
      kernel->Bind({{&data->device->buffer(), data->device->slice_bytes()}, {output.get(), 0}}));
}

Comparison GpuCase::Check() {
  const std::vector<float> got = PoisonedRun(*context, *output, outputs, [&](Commands& c) { Record(c, 0); });
  std::vector<float> want(outputs);
  if (transpose()) {
    Transpose(std::span(data->values).first(outputs), domain.x, domain.y, want);
  } else {
    StridedSums(data->values, workgroup.x, variant.stride, kAccesses, want);
  }
  return Compare(got, want, kTolerance);
}

double GpuCase::SecondsPerDispatch() {
  const uint32_t period = transpose() ? data->device->copies() : 1;
  auto batch = [&](uint32_t count) {
    return TimedBatch(*context, [&](Commands& c) {
      for (uint32_t i = 0; i < count; ++i) {
        if (i > 0) c.Barrier();
        Record(c, i);
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
  const double elements = static_cast<double>(domain.x) * domain.y;
  // Compulsory traffic: the transpose reads and writes each element; the strided kernel writes
  // one sum per invocation (its 16 KiB input is read once per group, from cache).
  const double bytes = transpose() ? elements * 8 : elements * 4;
  const uint32_t period = transpose() ? data->device->copies() : 1;
  MeasureDispatches(state, *context, [&](Commands& c, uint32_t i) { Record(c, i); }, period,
                    {.elements = elements, .bytes = bytes});
  if (transpose()) return;
  // The stride-1 time of this workgroup and domain, measured once per run. Static: the strided
  // variants of a workgroup and domain divide by one measurement, whichever benchmark made it
  // first; it is a property of the device, measured on the run's first thread only.
  static std::map<std::pair<uint32_t, uint32_t>, double> stride1_seconds;
  auto [it, inserted] = stride1_seconds.try_emplace({workgroup.x, domain.x}, 0.0);
  if (inserted) {
    static const Variant stride1 = Strided(1);
    Inputs inputs;
    GpuCase base(*context, inputs, stride1, {.name = name, .workgroup = workgroup, .domain = domain});
    it->second = base.SecondsPerDispatch();
  }
  const double seconds = variant.stride == 1 ? it->second : SecondsPerDispatch();
  state.counters["slowdown"] = seconds / it->second;
}

void RegisterPlainLoop(Suite& suite, const Point& point) {
  const Extent matrix = point.domain;
  Inputs& inputs = suite.Shared<Inputs>("bank_conflicts");
  AddPlainLoop(point.name, [&suite, &inputs, matrix](benchmark::State& state) {
    const Domain& data = inputs.For(matrix, nullptr, suite.options.cache);
    std::vector<float> out(size_t{matrix.x} * matrix.y);
    const double elements = static_cast<double>(matrix.x) * matrix.y;
    MeasurePlainLoop(
        state,
        [&] {
          Transpose(std::span(data.values).first(out.size()), matrix.x, matrix.y, out);
          benchmark::DoNotOptimize(out.data());
        },
        {.elements = elements, .bytes = elements * 8});
  });
}

}  // namespace

const Family<Variant>& Descriptor() {
  // 32x8 invocations move a 32x32 tile in four passes (the usual shape: a warp per tile row).
  static const Family<Variant> family{
      .name = "bank_conflicts",
      .variants = {{.name = "transpose_tile32x32",
                    .source = "bank_conflicts/transpose.comp",
                    .defines = {{"PAD", "0"}},
                    .workgroups = {{32, 8}},
                    .domains = {kMatrix}},
                   {.name = "transpose_tile32x33",
                    .source = "bank_conflicts/transpose.comp",
                    .defines = {{"PAD", "1"}},
                    .workgroups = {{32, 8}},
                    .domains = {kMatrix}},
                   // The bank-conflict claims do not apply to a CPU (no shared-memory banks): a CPU
                   // device's default set runs the cheaper of their contrasts alone.
                   Strided(1, kEveryPoint),
                   Strided(2),
                   Strided(4),
                   Strided(8),
                   Strided(16),
                   Strided(32, kEveryPoint)},
      // Tests: partial tiles on both edges, a matrix smaller than one tile, and a partial last group
      // of the strided reads (which skip the two-dimensional domains as unsupported).
      .test_domains = {{333, 187}, {5, 3}, {1001, 1}},
      .one_dimensional = false,
      .make = [](Suite& suite, const Variant& v, const Point& p) -> std::unique_ptr<Case> {
        return std::make_unique<GpuCase>(*suite.context, suite.Shared<Inputs>("bank_conflicts"), v, p);
      },
      .plain_loop = RegisterPlainLoop,
      // The transpose's loop, on matrices: the strided reads' domains have nothing to transpose.
      .plain_loop_at = [](const Point& p) { return p.domain.y > 1; }};
  return family;
}

namespace {
const Declaration kDeclared = Declare("bank_conflicts", &Descriptor);
}

}  // namespace csbench::bank_conflicts
