#include "bench/atomics.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>
#include <span>

#include "harness/buffer.hpp"
#include "harness/commands.hpp"
#include "harness/context.hpp"
#include "harness/error.hpp"
#include "harness/kernel.hpp"
#include "harness/measure.hpp"
#include "harness/naming.hpp"
#include "harness/selection.hpp"
#include "kernels/atomics/reference.hpp"

namespace csbench::atomics {
namespace {

constexpr uint64_t kSeed = 20100312;
// Every buffer holds 32-bit values of either element type: a float row moves the bytes of its
// uint row.
static_assert(sizeof(float) == sizeof(uint32_t));

// The sum of `expected`'s type in `total`, compared bit for bit.
template <typename T>
Comparison CompareTotal(const Buffer& total, T expected) {
  T got{};
  total.Download(std::as_writable_bytes(std::span(&got, 1)));
  Comparison result;
  result.passed = got == expected;  // a NaN (the poison of the two-pass total) never passes
  result.max_relative_error = result.passed ? 0.0 : 1.0;
  if (!result.passed) result.message = fmt::format("the sum is {}, the reference {}", got, expected);
  return result;
}

}  // namespace

const char* GlslType(Element element) { return element == Element::kFloat ? "float" : "uint"; }

const std::vector<Variant>& Variants() {
  // The float rows run the uint rows' kernels on +-0.5 inputs, whose float sums are exact in any
  // order (kernels/atomics/reference.hpp), over as many 32-bit values: a float row against its
  // uint row shows what float atomics cost where the device has them (VK_EXT_shader_atomic_float,
  // which Context enables). two_pass_float has no atomics; it prices the float adds alone.
  static const std::vector<Variant> variants = {
      {.name = "per_element", .source = "atomics/sum.comp", .atomics = Atomics::kPerElement, .workgroups = {256}},
      {.name = "per_group", .source = "atomics/sum.comp", .atomics = Atomics::kPerGroup, .workgroups = {256}},
      {.name = "per_subgroup",
       .source = "atomics/sum.comp",
       .atomics = Atomics::kPerSubgroup,
       .workgroups = {256},
       .needs_subgroup_arithmetic = true},
      {.name = "two_pass", .source = "atomics/sum.comp", .atomics = Atomics::kNoneTwoPass, .workgroups = {256}},
      {.name = "per_element_float",
       .source = "atomics/sum.comp",
       .atomics = Atomics::kPerElement,
       .element = Element::kFloat,
       .workgroups = {256}},
      {.name = "per_group_float",
       .source = "atomics/sum.comp",
       .atomics = Atomics::kPerGroup,
       .element = Element::kFloat,
       .workgroups = {256}},
      {.name = "per_subgroup_float",
       .source = "atomics/sum.comp",
       .atomics = Atomics::kPerSubgroup,
       .element = Element::kFloat,
       .workgroups = {256},
       .needs_subgroup_arithmetic = true},
      {.name = "two_pass_float",
       .source = "atomics/sum.comp",
       .atomics = Atomics::kNoneTwoPass,
       .element = Element::kFloat,
       .workgroups = {256}},
  };
  return variants;
}

const std::vector<uint32_t>& Domains() {
  static const std::vector<uint32_t> domains = {16u << 20};  // 64 MiB
  return domains;
}

struct Inputs::Domain {
  uint32_t count = 0;
  Element element = Element::kUint;
  std::vector<uint32_t> integers;  // kUint
  uint32_t integer_sum = 0;
  std::vector<float> halves;  // kFloat
  float float_sum = 0;
  std::unique_ptr<RotatingInput> device;

  std::span<const std::byte> bytes() const {
    return element == Element::kFloat ? std::as_bytes(std::span(halves)) : std::as_bytes(std::span(integers));
  }
};

Inputs::Inputs() = default;
Inputs::~Inputs() = default;

Inputs::Domain& Inputs::For(uint32_t count, Element element, Context* context, CacheMode cache) {
  auto& data = domains_[{count, element}];
  if (!data) {
    Require(element != Element::kFloat || count <= kMaxExactFloatCount,
            fmt::format("atomics: a float sum of {} halves may round (at most {} are exact)", count,
                        kMaxExactFloatCount));
    auto made = std::make_unique<Domain>();
    made->count = count;
    made->element = element;
    if (element == Element::kFloat) {
      made->halves = RandomHalves(count, kSeed);
      made->float_sum = Sum(made->halves);
    } else {
      made->integers = RandomIntegers(count, kSeed);
      made->integer_sum = Sum(made->integers);
    }
    data = std::move(made);
  }
  if (context != nullptr && !data->device) {
    data->device = std::make_unique<RotatingInput>(*context, data->bytes(), cache);
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
  RequireSupport(!variant.needs_subgroup_arithmetic || context.info().subgroup_arithmetic,
          fmt::format("{} needs subgroup arithmetic in compute shaders, which {} does not support", variant.name,
                      context.info().name));
  RequireSupport(!variant.needs_float_atomic_add() || context.info().float_atomic_add,
          fmt::format("{} needs float atomicAdd on storage buffers (VK_EXT_shader_atomic_float, "
                      "shaderBufferFloat32AtomicAdd), which {} does not support",
                      variant.name, context.info().name));
  s_->context = &context;
  s_->variant = &variant;
  s_->workgroup = workgroup;
  s_->groups = CappedGroups(count, workgroup);
  s_->kernel = std::make_unique<Kernel>(
      context, KernelSpec{.label = variant.name,
                          .source = variant.source,
                          .defines = {{"MODE", std::to_string(static_cast<uint32_t>(variant.atomics))},
                                      {"TYPE", GlslType(variant.element)}},
                          .local_size = {workgroup, 1, 1},
                          .bindings = 2,
                          .push_bytes = sizeof(uint32_t)});
  s_->data = &inputs.For(count, variant.element, &context, context.options().cache);
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
  if (s_->variant->element == Element::kFloat) return CompareTotal(*s_->total, s_->data->float_sum);
  return CompareTotal(*s_->total, s_->data->integer_sum);
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
    for (Element element : {Element::kUint, Element::kFloat}) {
      auto plain = [&suite, &inputs, count, element](benchmark::State& state) {
        RunGuarded(state, [&] {
          const Inputs::Domain& data = inputs.For(count, element, nullptr, suite.options.cache);
          for (auto _ : state) {
            if (element == Element::kFloat) {
              benchmark::DoNotOptimize(Sum(data.halves));
            } else {
              benchmark::DoNotOptimize(Sum(data.integers));
            }
          }
          SetThroughput(state, {.elements = static_cast<double>(count), .bytes = static_cast<double>(count) * 4});
        });
      };
      const char* variant = element == Element::kFloat ? "plain_loop_float" : "plain_loop";
      AddBenchmark(Name({"atomics", variant, domain_name}), plain)
          ->Unit(benchmark::kMillisecond);
    }
  }
}

}  // namespace csbench::atomics
