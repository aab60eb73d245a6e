#include "bench/barriers.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>

#include "harness/buffer.hpp"
#include "harness/commands.hpp"
#include "harness/context.hpp"
#include "harness/error.hpp"
#include "harness/kernel.hpp"
#include "harness/measure.hpp"
#include "harness/naming.hpp"
#include "kernels/barriers/reference.hpp"
#include "kernels/random.hpp"

namespace csbench::barriers {
namespace {

constexpr uint64_t kSeed = 20100313;

Variant Row(uint32_t rounds, Work work) {
  static constexpr const char* kWork[] = {"", "_even", "_uneven"};
  return {.name = fmt::format("b{}{}", rounds, kWork[static_cast<uint32_t>(work)]),
          .source = "barriers/exchange.comp",
          .rounds = rounds,
          .work = work,
          .workgroups = {64, 1024}};
}

}  // namespace

const std::vector<Variant>& Variants() {
  // b<N>: N barriers per element; _even / _uneven: 31 hash steps before each barrier in every
  // invocation, or 0 to 62 across each 32 invocations (31 on average: the same total work).
  static const std::vector<Variant> variants = {
      Row(1, Work::kNone),  Row(4, Work::kNone),   Row(16, Work::kNone),  Row(1, Work::kEven),    Row(4, Work::kEven),
      Row(16, Work::kEven), Row(1, Work::kUneven), Row(4, Work::kUneven), Row(16, Work::kUneven),
  };
  return variants;
}

const std::vector<uint32_t>& Domains() {
  // 1 MiB in, 1 MiB out: the barriers, not memory, are what is measured (and lavapipe takes
  // microseconds per barrier of a group).
  static const std::vector<uint32_t> domains = {1u << 18};
  return domains;
}

Inputs::Inputs() : FloatInputs(kSeed) {}

struct GpuCase::State {
  Context* context;
  const Variant* variant;
  uint32_t workgroup;
  uint32_t groups;
  Inputs::Domain* data;
  std::unique_ptr<Kernel> kernel;
  std::unique_ptr<Buffer> output;
  std::unique_ptr<Bindings> bindings;

  void Record(Commands& c, uint32_t copy) const {
    std::array<uint32_t, 2> offsets{data->device->Offset(copy), 0};
    c.Dispatch(*kernel, *bindings, {groups, 1, 1}, offsets, data->count);
  }
};

GpuCase::GpuCase(Context& context, const Variant& variant, uint32_t workgroup, uint32_t count, Inputs& inputs)
    : s_(std::make_unique<State>()) {
  s_->context = &context;
  s_->variant = &variant;
  s_->workgroup = workgroup;
  s_->groups = CappedGroups(count, workgroup);
  s_->kernel = std::make_unique<Kernel>(
      context, KernelSpec{.label = variant.name,
                          .source = variant.source,
                          .defines = {{"ROUNDS", std::to_string(variant.rounds)},
                                      {"WORK", std::to_string(static_cast<uint32_t>(variant.work))}},
                          .local_size = {workgroup, 1, 1},
                          .bindings = 2,
                          .push_bytes = sizeof(uint32_t)});
  // No rotation: the input is read once per dispatch and the barriers dominate; 256 rotated copies
  // of 1 MiB would make one timed batch 256 dispatches long.
  s_->data = &inputs.For(count, &context, CacheMode::kWarm);
  const uint64_t bytes = uint64_t{count} * sizeof(float);
  s_->output = std::make_unique<Buffer>(context, bytes);
  s_->bindings =
      std::make_unique<Bindings>(s_->kernel->Bind({{&s_->data->device->buffer(), bytes}, {s_->output.get(), 0}}));
}

GpuCase::~GpuCase() = default;

Comparison GpuCase::Check() {
  const std::vector<float> got =
      PoisonedRun(*s_->context, *s_->output, s_->data->count, [&](Commands& c) { s_->Record(c, 0); });
  std::vector<float> want(s_->data->count);
  Exchange(s_->data->values, s_->workgroup, s_->variant->rounds, s_->variant->work, want);
  return Compare(got, want, kTolerance);
}

void GpuCase::Measure(benchmark::State& state) {
  const uint32_t count = s_->data->count;
  const std::string name =
      Name({"barriers", s_->variant->name, Sized("wg", {s_->workgroup, 1}), Sized("domain", {count, 1})});
  MeasureDispatches(state, *s_->context, name, [&](Commands& c, uint32_t i) { s_->Record(c, i); },
                    s_->data->device->copies(),
                    {.elements = static_cast<double>(count), .bytes = static_cast<double>(count) * 8});
  state.counters["barriers/element"] = s_->variant->rounds;
}

void Register(Suite& suite) {
  Inputs& inputs = suite.Shared<Inputs>("barriers");
  for (uint32_t count : Domains()) {
    const std::string domain_name = Sized("domain", {count, 1});
    if (suite.context != nullptr) {
      for (const Variant& variant : Variants()) {
        for (uint32_t wg : variant.workgroups) {
          RegisterGpuCase(Name({"barriers", variant.name, Sized("wg", {wg, 1}), domain_name}), [&suite, &inputs, &variant, wg, count] {
            return std::make_unique<GpuCase>(*suite.context, variant, wg, count, inputs);
          });
        }
      }
    }
    // The plain loop runs the heaviest variant (16 rounds, uneven work, 64 lanes): a CPU has no
    // barriers, so one loop stands for all.
    RegisterFloatPlainLoop("barriers", inputs, count, [](std::span<const float> values, std::span<float> out) {
      Exchange(values, 64, 16, Work::kUneven, out);
    });
  }
}

}  // namespace csbench::barriers
