#include "bench/atomics.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <span>

#include "harness/base/error.hpp"
#include "harness/family/linear_case.hpp"
#include "harness/measure/measure.hpp"
#include "harness/measure/selection.hpp"
#include "harness/vulkan/buffer.hpp"
#include "harness/vulkan/commands.hpp"
#include "harness/vulkan/context.hpp"
#include "harness/vulkan/kernel.hpp"
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

struct Domain {
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

// The random input of each domain and element type, its rotated device copies and its sum, made
// on first use.
struct Inputs {
  std::map<std::pair<uint32_t, Element>, std::unique_ptr<Domain>> domains;

  Domain& For(uint32_t count, Element element, Context* context, CacheMode cache) {
    auto& data = domains[{count, element}];
    if (!data) {
      RequireSupport(element != Element::kFloat || count <= kMaxExactFloatCount,
                       fmt::format("atomics: a float sum of {} halves may round (at most {} are exact)", count,
                                   kMaxExactFloatCount));
      auto made = std::make_unique<Domain>();
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
    if (context != nullptr && !data->device)
      data->device = std::make_unique<RotatingInput>(*context, data->bytes(), cache);
    return *data;
  }
};

class GpuCase : public LinearCase<Variant> {
 public:
  GpuCase(Suite& suite, const Variant& variant, const Point& point)
      : LinearCase(suite, variant, point) {
    const DeviceInfo& info = context_->info();
    RequireSupport(!variant.needs_subgroup_arithmetic || info.subgroup_arithmetic,
                     fmt::format("{} needs subgroup arithmetic in compute shaders, which {} does not support",
                                 variant.name, info.name));
    RequireSupport(!variant.needs_float_atomic_add() || info.float_atomic_add,
                     fmt::format("{} needs float atomicAdd on storage buffers (VK_EXT_shader_atomic_float, "
                                 "shaderBufferFloat32AtomicAdd), which {} does not support",
                                 variant.name, info.name));
    RequireWorkgroup(*context_, point.workgroup);
    const uint64_t bytes = uint64_t{count_} * sizeof(uint32_t);
    RequireStorage(*context_, bytes);
    groups_ = CappedGroups(count_, workgroup_);
    kernel_ = std::make_unique<Kernel>(
        *context_, KernelSpec{.label = variant.name,
                              .source = variant.source,
                              .defines = {{"MODE", std::to_string(static_cast<uint32_t>(variant.atomics))},
                                          {"TYPE", GlslType(variant.element)}},
                              .local_size = {workgroup_, 1, 1},
                              .bindings = 2,
                              .push_bytes = sizeof(uint32_t)});
    data_ = &suite.Shared<Inputs>("atomics").For(count_, variant.element, context_, suite.options.cache);
    total_ = std::make_unique<Buffer>(*context_, sizeof(uint32_t));
    if (variant.two_pass()) {
      partials_ = std::make_unique<Buffer>(*context_, uint64_t{groups_} * sizeof(uint32_t));
      bindings_ = std::make_unique<Bindings>(kernel_->Bind({{&data_->device->buffer(), bytes}, {partials_.get(), 0}}));
      final_bindings_ = std::make_unique<Bindings>(kernel_->Bind({{partials_.get(), 0}, {total_.get(), 0}}));
    } else {
      bindings_ = std::make_unique<Bindings>(kernel_->Bind({{&data_->device->buffer(), bytes}, {total_.get(), 0}}));
    }
  }

  // Integer sums do not depend on the order of the additions, and the float inputs are chosen so
  // that float sums do not either (kernels/atomics/reference.hpp): the sum is compared exactly.
  Comparison Check() override {
    context_->Run([&](Commands& c) {
      // The atomic variants add into the total, so it starts at zero; the two-pass one writes it.
      c.Fill(*total_, variant_->two_pass() ? kPoison : 0);
      if (partials_) c.Fill(*partials_, kPoison);
      c.Barrier();
      Record(c, 0);
    });
    if (variant_->element == Element::kFloat) return CompareTotal(*total_, data_->float_sum);
    return CompareTotal(*total_, data_->integer_sum);
  }

  void Measure(benchmark::State& state) override {
    const double count = count_;
    MeasureDispatches(state, *context_, [&](Commands& c, uint32_t i) { Record(c, i); }, data_->device->copies(),
                      {.elements = count, .bytes = count * 4});
    // Atomic adds per dispatch (per subgroup: as many subgroups as the device's subgroup size makes).
    const double groups = groups_;
    double atomics = 0;
    switch (variant_->atomics) {
      case Atomics::kPerElement:
        atomics = count;
        break;
      case Atomics::kPerGroup:
        atomics = groups;
        break;
      case Atomics::kPerSubgroup:
        atomics = groups * workgroup_ / std::max(1u, context_->info().subgroup_size);
        break;
      case Atomics::kNoneTwoPass:
        break;
    }
    state.counters["atomics"] = atomics;
  }

 private:
  void Record(Commands& c, uint32_t copy) const {
    std::array<uint32_t, 2> offsets{data_->device->Offset(copy), 0};
    c.Dispatch(*kernel_, *bindings_, {groups_, 1, 1}, offsets, count_);
    if (!variant_->two_pass()) return;
    c.Barrier();  // the second pass reads every group's partial
    c.Dispatch(*kernel_, *final_bindings_, {1, 1, 1}, {}, groups_);
  }

  uint32_t groups_ = 0;
  Domain* data_;
  std::unique_ptr<Kernel> kernel_;
  std::unique_ptr<Buffer> total_;     // dst[0]
  std::unique_ptr<Buffer> partials_;  // two_pass: one sum per group of the first pass
  std::unique_ptr<Bindings> bindings_;
  std::unique_ptr<Bindings> final_bindings_;
};

// The plain loops' elements, in the order of the descriptor's plain_loop_variants.
constexpr Element kPlainLoopElements[] = {Element::kUint, Element::kFloat};

void RegisterPlainLoop(Suite& suite, const Point& point) {
  const uint32_t count = point.domain.x;
  const Element element = kPlainLoopElements[point.variant];
  Inputs& inputs = suite.Shared<Inputs>("atomics");
  AddPlainLoop(point.name, [&suite, &inputs, count, element](benchmark::State& state) {
    const Domain& data = inputs.For(count, element, nullptr, suite.options.cache);
    MeasurePlainLoop(
        state,
        [&] {
          if (element == Element::kFloat) {
            benchmark::DoNotOptimize(Sum(data.halves));
          } else {
            benchmark::DoNotOptimize(Sum(data.integers));
          }
        },
        {.elements = static_cast<double>(count), .bytes = static_cast<double>(count) * 4});
  });
}

Variant Row(const char* name, Atomics atomics, Element element, std::vector<Pick> cpu_default = {}) {
  return {.name = element == Element::kFloat ? std::string(name) + "_float" : name,
          .source = "atomics/sum.comp",
          .atomics = atomics,
          .element = element,
          .workgroups = {{256}},
          .needs_subgroup_arithmetic = atomics == Atomics::kPerSubgroup,
          .cpu_default = std::move(cpu_default)};
}

}  // namespace

const char* GlslType(Element element) { return element == Element::kFloat ? "float" : "uint"; }

const Family<Variant>& Descriptor() {
  // The float rows run the uint rows' kernels on +-0.5 inputs, whose float sums are exact in any
  // order (kernels/atomics/reference.hpp), over as many 32-bit values: a float row against its
  // uint row shows what float atomics cost where the device has them (VK_EXT_shader_atomic_float,
  // which Context enables). two_pass_float has no atomics; it prices the float adds alone.
  static const Family<Variant> family{
      .name = "atomics",
      // A CPU device's default set leaves out the two-pass rows, which no claim reads (two_pass
      // costs a CPU device seconds of calibration and repetitions), and per_subgroup_float.
      .variants = {Row("per_element", Atomics::kPerElement, Element::kUint, kEveryPoint),
                   Row("per_group", Atomics::kPerGroup, Element::kUint, kEveryPoint),
                   Row("per_subgroup", Atomics::kPerSubgroup, Element::kUint, kEveryPoint),
                   Row("two_pass", Atomics::kNoneTwoPass, Element::kUint),
                   Row("per_element", Atomics::kPerElement, Element::kFloat, kEveryPoint),
                   Row("per_group", Atomics::kPerGroup, Element::kFloat, kEveryPoint),
                   Row("per_subgroup", Atomics::kPerSubgroup, Element::kFloat),
                   Row("two_pass", Atomics::kNoneTwoPass, Element::kFloat)},
      .domains = {{16u << 20}},  // 64 MiB
      .test_domains = {{100003}, {37}},
      .make = MakeCase<GpuCase>,
      .plain_loop = RegisterPlainLoop,
      .plain_loop_variants = {"plain_loop", "plain_loop_float"}};
  return family;
}

namespace {
const Declaration kDeclared = Declare("atomics", &Descriptor);
}

}  // namespace csbench::atomics
