// The stream family: BabelStream's copy, mul, add, triad and dot on float arrays from 256 KiB (in
// any GPU's L2) to 512 MiB an array (beyond any last-level cache), so that one table shows each
// level of the memory hierarchy; the sizes themselves choose the level, so the arrays are never
// rotated (--cache does not apply). Gelem/s and GB/s are counted as BabelStream counts them: copy
// and mul move 2 arrays, add and triad 3, dot reads 2. dot is the read-only ceiling. The plain
// loop is the triad.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <map>
#include <memory>
#include <mutex>

#include "harness/base/error.hpp"
#include "harness/family/family.hpp"
#include "harness/family/float_inputs.hpp"
#include "harness/vulkan/buffer.hpp"
#include "harness/vulkan/commands.hpp"
#include "harness/vulkan/context.hpp"
#include "kernels/stream/reference.hpp"

namespace csbench::stream {
namespace {

constexpr uint64_t kSeed = 0x42616265;  // "Babe"
// Triad and mul round once more on the CPU than a fused GPU multiply-add; dot adds in another order.
constexpr double kTolerance = 1e-5;

struct Variant {
  std::string name;
  Op op;
  std::vector<Extent> workgroups;
  std::vector<Pick> cpu_default;  // harness/family/family.hpp
};

struct Push {
  uint32_t count;
  float scalar;
};

// b (a reversed) of each size, on the host and the device, shared by the family's benchmarks: making
// it takes the host a large part of a second at 2^27 floats (docs/perf-notes.md, section 10).
class FamilyState {
 public:
  struct Array {
    std::vector<float> values;
    std::unique_ptr<Buffer> device;
  };
  const Array& Reversed(Context& context, const FloatInputs::Domain& a, uint32_t count) {
    std::lock_guard lock(lock_);
    std::unique_ptr<Array>& b = reversed_[count];
    if (!b) {
      auto made = std::make_unique<Array>();
      made->values.assign(a.values.rbegin(), a.values.rend());
      made->device = std::make_unique<Buffer>(context, uint64_t{count} * sizeof(float));
      made->device->Upload(std::as_bytes(std::span(made->values)));
      b = std::move(made);
    }
    return *b;
  }

 private:
  std::mutex lock_;  // cases may be made on the thread ahead (harness/measure/measure.hpp)
  std::map<uint32_t, std::unique_ptr<Array>> reversed_;
};

class GpuCase : public Case {
 public:
  GpuCase(Suite& suite, const Variant& variant, const Point& point)
      : context_(suite.context), name_(point.name), op_(variant.op), count_(point.domain.x) {
    RequireWorkgroup(*context_, point.workgroup);
    RequireSupport(
        (point.workgroup.x & (point.workgroup.x - 1)) == 0,
        fmt::format("{}: dot's tree needs a power-of-two workgroup, not {}", variant.name, point.workgroup.x));
    const uint64_t bytes = uint64_t{count_} * sizeof(float);
    RequireStorage(*context_, bytes);
    RequireSupport(3 * bytes <= context_->info().device_local_bytes || context_->info().device_local_bytes == 0,
                     fmt::format("three arrays of {} MiB exceed the device's memory ({} MiB)", bytes >> 20,
                                 context_->info().device_local_bytes >> 20));
    groups_ = CappedGroups(count_, point.workgroup.x);
    kernel_ = std::make_unique<Kernel>(*context_, KernelSpec{.label = variant.name,
                                                             .source = "stream/stream.comp",
                                                             .defines = {{"OP", std::to_string(uint32_t(op_))}},
                                                             .local_size = {point.workgroup.x, 1, 1},
                                                             .bindings = 3,
                                                             .push_bytes = sizeof(Push)});
    // a: the family's random array; b: a reversed (random too, and never equal to a element for element).
    a_ = &SharedFloatInputs(suite, "stream", kSeed).For(count_, context_, CacheMode::kWarm);
    b_ = &suite.Shared<FamilyState>("stream").Reversed(*context_, *a_, count_);
    c_ = std::make_unique<Buffer>(*context_, op_ == Op::kDot ? uint64_t{groups_} * sizeof(float) : bytes);
    bindings_ =
        std::make_unique<Bindings>(kernel_->Bind({{&a_->device->buffer(), bytes}, {b_->device.get(), 0}, {c_.get(), 0}}));
  }

  Comparison Check() override {
    if (op_ == Op::kDot) {
      const std::vector<float> partials = PoisonedRun(*context_, *c_, groups_, [&](Commands& c) { Record(c); });
      double sum = 0;
      for (float p : partials) sum += p;
      const std::vector<float> got{static_cast<float>(sum)};
      const std::vector<float> want{static_cast<float>(Dot(a_->values, b_->values))};
      return Compare(got, want, kTolerance);
    }
    const std::vector<float> got = PoisonedRun(*context_, *c_, count_, [&](Commands& c) { Record(c); });
    return CompareMade(
        got,
        [&](size_t begin, std::span<float> want) {
          Apply(op_, std::span(a_->values).subspan(begin, want.size()), std::span(b_->values).subspan(begin, want.size()),
                want);
        },
        kTolerance);
  }

  void Measure(benchmark::State& state) override {
    const double count = count_;
    MeasureDispatches(state, *context_, [&](Commands& c, uint32_t) { Record(c); }, 1,
                      {.elements = count,
                       .bytes = count * sizeof(float) * ArraysMoved(op_),
                       .read_only = op_ == Op::kDot,
                       .ops = count * FlopPerElement(op_),
                       // Never rotated: the arrays stay in whatever cache holds them.
                       .footprint = count * sizeof(float) * ArraysMoved(op_)});
  }

 private:
  void Record(Commands& c) const { c.Dispatch(*kernel_, *bindings_, {groups_, 1, 1}, {}, Push{count_, kScalar}); }

  Context* context_;
  std::string name_;
  Op op_;
  uint32_t count_;
  uint32_t groups_ = 0;
  FloatInputs::Domain* a_;
  const FamilyState::Array* b_;
  std::unique_ptr<Buffer> c_;
  std::unique_ptr<Kernel> kernel_;
  std::unique_ptr<Bindings> bindings_;
};

const Family<Variant>& Descriptor() {
  static const std::vector<Extent> kWorkgroups = {{64}, {256}, {1024}};
  // A CPU device's default set: BabelStream's five kernels at one size beyond a CPU's caches.
  static const std::vector<Pick> kCpu = {{.workgroups = {{256}}, .domains = {{1u << 22}}}};
  static const Family<Variant> family{
      .name = "stream",
      .variants = {{"copy", Op::kCopy, kWorkgroups, kCpu},
                   {"mul", Op::kMul, kWorkgroups, kCpu},
                   {"add", Op::kAdd, kWorkgroups, kCpu},
                   {"triad", Op::kTriad, kWorkgroups, kCpu},
                   {"dot", Op::kDot, kWorkgroups, kCpu}},
      // 2^16 to 2^27 floats: 256 KiB to 512 MiB an array; 2^25 is BabelStream's default.
      .domains = {{1u << 16}, {1u << 18}, {1u << 20}, {1u << 22}, {1u << 24}, {1u << 25}, {1u << 27}},
      .test_domains = {{100003}, {37}},
      .make = MakeCase<GpuCase>,
      // The triad, with b = a reversed as on the GPU: 3 arrays an element.
      .plain_loop =
          [](Suite& suite, const Point& p) {
            RegisterFloatPlainLoop(
                p.name, SharedFloatInputs(suite, "stream", kSeed), p.domain.x,
                [](std::span<const float> a, std::span<float> c) {
                  for (size_t i = 0, n = a.size(); i < n; ++i) c[i] = a[i] + kScalar * a[n - 1 - i];
                },
                3 * sizeof(float));
          }};
  return family;
}

const Declaration kDeclared = Declare("stream", &Descriptor);

}  // namespace
}  // namespace csbench::stream
