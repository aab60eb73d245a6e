#include "bench/group_size.hpp"

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
#include "kernels/group_size/reference.hpp"

namespace csbench::group_size {
namespace {

constexpr uint64_t kSeed = 20100309;  // GDC 2010's first day

struct Push {
  uint32_t count;
  float a;
  float b;
};

}  // namespace

const std::vector<Variant>& Variants() {
  // The talk's sizes: one thread (its "bad idea"), below a wavefront (16: below NVIDIA's 32 and
  // AMD's 64), one warp, one AMD wavefront, and the larger sizes it recommends.
  static const std::vector<Variant> variants = {
      {.name = "scale_add", .source = "group_size/scale_add.comp", .workgroups = {1, 16, 32, 64, 128, 256, 512, 1024}},
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
    c.Dispatch(*kernel, *bindings, {groups, 1, 1}, offsets, Push{data->count, kScale, kOffset});
  }
};

GpuCase::GpuCase(Context& context, const Variant& variant, uint32_t workgroup, uint32_t count, Inputs& inputs)
    : s_(std::make_unique<State>()) {
  s_->context = &context;
  s_->variant = &variant;
  s_->workgroup = workgroup;
  s_->groups = CappedGroups(count, workgroup);
  s_->kernel = std::make_unique<Kernel>(context, KernelSpec{.label = variant.name,
                                                            .source = variant.source,
                                                            .defines = variant.defines,
                                                            .local_size = {workgroup, 1, 1},
                                                            .bindings = 2,
                                                            .push_bytes = sizeof(Push)});
  s_->data = &inputs.For(count, &context, context.options().cache);
  if (Inputs::Domain& data = *s_->data; data.reference.empty()) {
    data.reference.resize(count);
    ScaleAdd(data.values, kScale, kOffset, data.reference);
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
      Name({"group_size", s_->variant->name, Sized("wg", {s_->workgroup, 1}), Sized("domain", {count, 1})});
  MeasureDispatches(state, *s_->context, name, [&](Commands& c, uint32_t i) { s_->Record(c, i); },
                    s_->data->device->copies(),
                    {.elements = static_cast<double>(count), .bytes = static_cast<double>(count) * 8});
  state.counters["groups"] = s_->groups;
}

void Register(Suite& suite) {
  Inputs& inputs = suite.Shared<Inputs>("group_size");
  for (uint32_t count : Domains()) {
    const std::string domain_name = Sized("domain", {count, 1});
    if (suite.context != nullptr) {
      for (const Variant& variant : Variants()) {
        for (uint32_t wg : variant.workgroups) {
          RegisterGpuCase(Name({"group_size", variant.name, Sized("wg", {wg, 1}), domain_name}), [&suite, &inputs, &variant, wg, count] {
            return std::make_unique<GpuCase>(*suite.context, variant, wg, count, inputs);
          });
        }
      }
    }
    RegisterFloatPlainLoop("group_size", inputs, count, [](std::span<const float> values, std::span<float> out) {
      ScaleAdd(values, kScale, kOffset, out);
    });
  }
}

}  // namespace csbench::group_size
