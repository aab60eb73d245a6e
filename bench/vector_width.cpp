#include "bench/vector_width.hpp"

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
#include "kernels/random.hpp"
#include "kernels/vector_width/reference.hpp"

namespace csbench::vector_width {
namespace {

constexpr uint64_t kSeed = 20100310;

struct Push {
  uint32_t count;
  float a;
};

}  // namespace

const std::vector<Variant>& Variants() {
  // 256 threads per group: the copy kernel's best on the H200 (docs/perf-notes.md); 64 (one AMD
  // wavefront, two NVIDIA warps) and 1024 (the most NVIDIA, AMD and lavapipe allow) on either
  // side, so the table shows whether the width's effect depends on the group size (group_size
  // sweeps the size itself, on a scalar kernel). Every width runs at every size. At 64, the
  // 65535-group cap makes float and vec2 loop (4 and 2 steps per invocation on 16 Mi floats).
  static const std::vector<Variant> variants = {
      {.name = "float",
       .source = "vector_width/scale.comp",
       .defines = {{"ELEMENT", "float"}, {"WIDTH", "1"}},
       .width = 1,
       .workgroups = {64, 256, 1024}},
      {.name = "vec2",
       .source = "vector_width/scale.comp",
       .defines = {{"ELEMENT", "vec2"}, {"WIDTH", "2"}},
       .width = 2,
       .workgroups = {64, 256, 1024}},
      {.name = "vec4",
       .source = "vector_width/scale.comp",
       .defines = {{"ELEMENT", "vec4"}, {"WIDTH", "4"}},
       .width = 4,
       .workgroups = {64, 256, 1024}},
  };
  return variants;
}

const std::vector<uint32_t>& Domains() {
  static const std::vector<uint32_t> domains = {16u << 20};  // 64 MiB in, 64 MiB out
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
    c.Dispatch(*kernel, *bindings, {groups, 1, 1}, offsets, Push{data->count, kScale});
  }
};

GpuCase::GpuCase(Context& context, const Variant& variant, uint32_t workgroup, uint32_t count, Inputs& inputs)
    : s_(std::make_unique<State>()) {
  Require(count % 4 == 0, fmt::format("vector_width: {} floats are not a whole number of vec4", count));
  s_->context = &context;
  s_->variant = &variant;
  s_->workgroup = workgroup;
  const uint32_t elements = count / variant.width;
  s_->groups = CappedGroups(elements, workgroup);
  s_->kernel = std::make_unique<Kernel>(context, KernelSpec{.label = variant.name,
                                                            .source = variant.source,
                                                            .defines = variant.defines,
                                                            .local_size = {workgroup, 1, 1},
                                                            .bindings = 2,
                                                            .push_bytes = sizeof(Push)});
  s_->data = &inputs.For(count, &context, context.options().cache);
  if (Inputs::Domain& data = *s_->data; data.reference.empty()) {
    data.reference.resize(count);
    Scale(data.values, kScale, data.reference);
  }
  const uint64_t bytes = uint64_t{count} * sizeof(float);
  s_->output = std::make_unique<Buffer>(context, bytes);
  s_->bindings =
      std::make_unique<Bindings>(s_->kernel->Bind({{&s_->data->device->buffer(), bytes}, {s_->output.get(), 0}}));
}

GpuCase::~GpuCase() = default;

Comparison GpuCase::Check() {
  const std::vector<float> got =
      PoisonedRun(*s_->context, *s_->output, s_->data->count, [&](Commands& c) { s_->Record(c, 0); });
  return Compare(got, s_->data->reference, kTolerance);
}

void GpuCase::Measure(benchmark::State& state) {
  const uint32_t count = s_->data->count;
  const std::string name =
      Name({"vector_width", s_->variant->name, Sized("wg", {s_->workgroup, 1}), Sized("domain", {count, 1})});
  MeasureDispatches(state, *s_->context, name, [&](Commands& c, uint32_t i) { s_->Record(c, i); },
                    s_->data->device->copies(),
                    {.elements = static_cast<double>(count), .bytes = static_cast<double>(count) * 8});
  state.counters["groups"] = s_->groups;
}

void Register(Suite& suite) {
  Inputs& inputs = suite.Shared<Inputs>("vector_width");
  for (uint32_t count : Domains()) {
    const std::string domain_name = Sized("domain", {count, 1});
    if (suite.context != nullptr) {
      for (const Variant& variant : Variants()) {
        for (uint32_t wg : variant.workgroups) {
          RegisterGpuCase(Name({"vector_width", variant.name, Sized("wg", {wg, 1}), domain_name}), [&suite, &inputs, &variant, wg, count] {
            return std::make_unique<GpuCase>(*suite.context, variant, wg, count, inputs);
          });
        }
      }
    }
    RegisterFloatPlainLoop("vector_width", inputs, count, [](std::span<const float> values, std::span<float> out) {
      Scale(values, kScale, out);
    });
  }
}

}  // namespace csbench::vector_width
