#include "bench/atomics.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>

#include "harness/buffer.hpp"
#include "harness/commands.hpp"
#include "harness/context.hpp"
#include "harness/error.hpp"
#include "harness/measure.hpp"
#include "harness/naming.hpp"
#include "kernels/atomics/reference.hpp"

namespace csbench::atomics {
namespace {

constexpr uint64_t kSeed = 20100312;
// The most workgroups one dimension of a dispatch may count on every device; the kernel's
// grid-stride loop covers the rest.
constexpr uint32_t kMaxGroups = 65535;

}  // namespace

const std::vector<Variant>& Variants() {
  // Float atomics (VK_EXT_shader_atomic_float) are left out: the harness's Context does not enable
  // the extension, and a float total of 16 Mi values in [0, 1) loses the small addends once it
  // passes 2^24, so no reference could check it.
  static const std::vector<Variant> variants = {
      {.name = "per_element", .source = "atomics/sum.comp", .atomics = Atomics::kPerElement, .workgroups = {256}},
      {.name = "per_group", .source = "atomics/sum.comp", .atomics = Atomics::kPerGroup, .workgroups = {256}},
      {.name = "per_subgroup",
       .source = "atomics/sum.comp",
       .atomics = Atomics::kPerSubgroup,
       .workgroups = {256},
       .needs_subgroup_arithmetic = true},
      {.name = "two_pass", .source = "atomics/sum.comp", .atomics = Atomics::kNoneTwoPass, .workgroups = {256}},
  };
  return variants;
}

const std::vector<uint32_t>& Domains() {
  static const std::vector<uint32_t> domains = {16u << 20};  // 64 MiB
  return domains;
}

struct Inputs::Domain {
  uint32_t count = 0;
  std::vector<uint32_t> values;
  uint32_t sum = 0;
  std::unique_ptr<RotatingInput> device;
};

Inputs::Inputs() = default;
Inputs::~Inputs() = default;

Inputs::Domain& Inputs::For(uint32_t count, Context* context, CacheMode cache) {
  auto& data = domains_[count];
  if (!data) {
    data = std::make_unique<Domain>();
    data->count = count;
    data->values = RandomIntegers(count, kSeed);
    data->sum = Sum(data->values);
  }
  if (context != nullptr && !data->device) {
    data->device = std::make_unique<RotatingInput>(*context, std::as_bytes(std::span(data->values)), cache);
  }
  return *data;
}

struct GpuCase::State {
  Context* context;
  const Variant* variant;
  uint32_t workgroup;
  uint32_t groups;
  Inputs::Domain* data;
  std::unique_ptr<Kernel> kernel;
  std::unique_ptr<Buffer> total;     // dst[0]
  std::unique_ptr<Buffer> partials;  // two_pass: one sum per group of the first pass
  std::unique_ptr<Bindings> bindings;
  std::unique_ptr<Bindings> final_bindings;

  void Record(Commands& c, uint32_t copy) const {
    std::array<uint32_t, 2> offsets{data->device->Offset(copy), 0};
    c.Dispatch(*kernel, *bindings, {groups, 1, 1}, offsets, data->count);
    if (!variant->two_pass()) return;
    c.Barrier();  // the second pass reads every group's partial
    c.Dispatch(*kernel, *final_bindings, {1, 1, 1}, {}, groups);
  }
};

GpuCase::GpuCase(Context& context, const Variant& variant, uint32_t workgroup, uint32_t count, Inputs& inputs)
    : s_(std::make_unique<State>()) {
  Require(!variant.needs_subgroup_arithmetic || context.info().subgroup_arithmetic,
          fmt::format("{} needs subgroup arithmetic in compute shaders, which {} does not support", variant.name,
                      context.info().name));
  s_->context = &context;
  s_->variant = &variant;
  s_->workgroup = workgroup;
  s_->groups = std::min<uint32_t>(kMaxGroups, (count + workgroup - 1) / workgroup);
  s_->kernel = std::make_unique<Kernel>(
      context, KernelSpec{.label = variant.name,
                          .source = variant.source,
                          .defines = {{"MODE", std::to_string(static_cast<uint32_t>(variant.atomics))}},
                          .local_size = {workgroup, 1, 1},
                          .bindings = 2,
                          .push_bytes = sizeof(uint32_t)});
  s_->data = &inputs.For(count, &context, context.options().cache);
  s_->total = std::make_unique<Buffer>(context, sizeof(uint32_t));
  const uint64_t bytes = uint64_t{count} * sizeof(uint32_t);
  if (variant.two_pass()) {
    s_->partials = std::make_unique<Buffer>(context, uint64_t{s_->groups} * sizeof(uint32_t));
    s_->bindings =
        std::make_unique<Bindings>(s_->kernel->Bind({{&s_->data->device->buffer(), bytes}, {s_->partials.get(), 0}}));
    s_->final_bindings = std::make_unique<Bindings>(s_->kernel->Bind({{s_->partials.get(), 0}, {s_->total.get(), 0}}));
  } else {
    s_->bindings =
        std::make_unique<Bindings>(s_->kernel->Bind({{&s_->data->device->buffer(), bytes}, {s_->total.get(), 0}}));
  }
}

GpuCase::~GpuCase() = default;

Comparison GpuCase::Check() {
  s_->context->Run([&](Commands& c) {
    // The atomic variants add into the total, so it starts at zero; the two-pass one writes it.
    c.Fill(*s_->total, s_->variant->two_pass() ? kPoison : 0);
    if (s_->partials) c.Fill(*s_->partials, kPoison);
    c.Barrier();
    s_->Record(c, 0);
  });
  uint32_t got = 0;
  s_->total->Download(std::as_writable_bytes(std::span(&got, 1)));
  Comparison result;
  result.passed = got == s_->data->sum;
  result.max_relative_error = result.passed ? 0.0 : 1.0;
  if (!result.passed) result.message = fmt::format("the sum is {}, the reference {}", got, s_->data->sum);
  return result;
}

void GpuCase::Measure(benchmark::State& state) {
  const uint32_t count = s_->data->count;
  const std::string name =
      Name({"atomics", s_->variant->name, Sized("wg", {s_->workgroup, 1}), Sized("domain", {count, 1})});
  MeasureDispatches(state, *s_->context, name, [&](Commands& c, uint32_t i) { s_->Record(c, i); },
                    s_->data->device->copies(),
                    {.elements = static_cast<double>(count), .bytes = static_cast<double>(count) * 4});
  // Atomic adds per dispatch (per subgroup: as many subgroups as the device's subgroup size makes).
  const double groups = s_->groups;
  switch (s_->variant->atomics) {
    case Atomics::kPerElement:
      state.counters["atomics"] = count;
      break;
    case Atomics::kPerGroup:
      state.counters["atomics"] = groups;
      break;
    case Atomics::kPerSubgroup:
      state.counters["atomics"] = groups * s_->workgroup / std::max(1u, s_->context->info().subgroup_size);
      break;
    case Atomics::kNoneTwoPass:
      state.counters["atomics"] = 0;
      break;
  }
}

void Register(Suite& suite) {
  Inputs& inputs = suite.Shared<Inputs>("atomics");
  for (uint32_t count : Domains()) {
    const std::string domain_name = Sized("domain", {count, 1});
    if (suite.context != nullptr) {
      for (const Variant& variant : Variants()) {
        for (uint32_t wg : variant.workgroups) {
          RegisterGpuCase(Name({"atomics", variant.name, Sized("wg", {wg, 1}), domain_name}), [&suite, &inputs, &variant, wg, count] {
            return std::make_unique<GpuCase>(*suite.context, variant, wg, count, inputs);
          });
        }
      }
    }
    auto plain = [&suite, &inputs, count](benchmark::State& state) {
      RunGuarded(state, [&] {
        const Inputs::Domain& data = inputs.For(count, nullptr, suite.options.cache);
        for (auto _ : state) benchmark::DoNotOptimize(Sum(data.values));
        SetThroughput(state, {.elements = static_cast<double>(count), .bytes = static_cast<double>(count) * 4});
      });
    };
    benchmark::RegisterBenchmark(Name({"atomics", "plain_loop", domain_name}).c_str(), plain)
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace csbench::atomics
