#include "bench/uniform_data.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <map>
#include <tuple>

#include "harness/base/error.hpp"
#include "harness/measure/measure.hpp"
#include "harness/measure/selection.hpp"
#include "harness/vulkan/buffer.hpp"
#include "harness/vulkan/commands.hpp"
#include "harness/vulkan/context.hpp"
#include "kernels/random.hpp"
#include "kernels/uniform_data/reference.hpp"

namespace csbench::uniform_data {
namespace {

constexpr uint64_t kSeed = 0x5347505273636c72;  // "SGPRsclr"

struct Push {
  uint32_t count;
  uint32_t elements_per_matrix;
};

// Random positions (rotated on the device) and matrices of each domain, per layout (rows) and
// group size (one matrix per group).
struct Data {
  std::vector<float> positions;
  std::vector<float> matrices;
  std::vector<float> reference;
  std::unique_ptr<RotatingInput> device_positions;
  std::unique_ptr<Buffer> device_matrices;
};

struct Inputs {
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, std::unique_ptr<Data>> data;

  Data& For(uint32_t count, uint32_t rows, uint32_t group, Context* context, CacheMode cache) {
    auto& d = data[{count, rows, group}];
    if (!d) {
      d = std::make_unique<Data>();
      d->positions.resize(size_t{count} * rows);
      FillUniform(d->positions, kSeed + rows);
      d->matrices.resize(size_t{(count + group - 1) / group} * rows * 4);
      FillUniform(d->matrices, kSeed + 16 + rows);
      d->reference = Transform(d->positions, d->matrices, rows, group);
    }
    if (context != nullptr && !d->device_positions) {
      d->device_positions = std::make_unique<RotatingInput>(*context, std::as_bytes(std::span(d->positions)), cache);
      d->device_matrices = std::make_unique<Buffer>(*context, d->matrices.size() * sizeof(float));
      d->device_matrices->Upload(std::as_bytes(std::span(d->matrices)));
    }
    return *d;
  }
};

class GpuCase : public Case {
 public:
  GpuCase(Suite& suite, const Variant& variant, const Point& point)
      : context_(suite.context), name_(point.name), workgroup_(point.workgroup.x), count_(point.domain.x) {
    RequireWorkgroup(*context_, point.workgroup);
    RequireSupport((count_ + workgroup_ - 1) / workgroup_ <= kMaxGroupsPerDimension,
                     fmt::format("{}: {} groups of {} exceed a dispatch's {}", variant.name, count_ / workgroup_,
                                 workgroup_, kMaxGroupsPerDimension));
    RequireStorage(*context_, uint64_t{count_} * variant.rows * sizeof(float));
    kernel_ = std::make_unique<Kernel>(*context_, KernelSpec{.label = variant.name,
                                                             .source = variant.source,
                                                             .defines = variant.defines,
                                                             .local_size = {workgroup_, 1, 1},
                                                             .bindings = 3,
                                                             .push_bytes = sizeof(Push)});
    data_ = &suite.Shared<Inputs>("uniform_data").For(count_, variant.rows, workgroup_, context_, suite.options.cache);
    output_ = std::make_unique<Buffer>(*context_, data_->positions.size() * sizeof(float));
    bindings_ = std::make_unique<Bindings>(
        kernel_->Bind({{&data_->device_positions->buffer(), data_->device_positions->slice_bytes()},
                       {data_->device_matrices.get(), 0},
                       {output_.get(), 0}}));
  }

  Comparison Check() override {
    const std::vector<float> got =
        PoisonedRun(*context_, *output_, data_->positions.size(), [&](Commands& c) { Record(c, 0); });
    return Compare(got, data_->reference, kTolerance, 1e-2);
  }

  void Measure(benchmark::State& state) override {
    const double bytes = 2.0 * data_->positions.size() * sizeof(float) + data_->matrices.size() * sizeof(float);
    MeasureDispatches(state, *context_, [&](Commands& c, uint32_t i) { Record(c, i); },
                      data_->device_positions->copies(), {.elements = static_cast<double>(count_), .bytes = bytes});
  }

 private:
  void Record(Commands& c, uint32_t copy) const {
    std::array<uint32_t, 3> offsets{data_->device_positions->Offset(copy), 0, 0};
    c.Dispatch(*kernel_, *bindings_, {(count_ + workgroup_ - 1) / workgroup_, 1, 1}, offsets, Push{count_, workgroup_});
  }

  Context* context_;
  std::string name_;
  uint32_t workgroup_;
  uint32_t count_;
  Data* data_;
  std::unique_ptr<Kernel> kernel_;
  std::unique_ptr<Buffer> output_;
  std::unique_ptr<Bindings> bindings_;
};

// The plain loop of the 4x4 case with 256-element groups.
void RegisterPlainLoop(Suite& suite, const Point& point) {
  const uint32_t count = point.domain.x;
  Inputs& inputs = suite.Shared<Inputs>("uniform_data");
  AddPlainLoop(point.name, [&inputs, count](benchmark::State& state) {
    Data& data = inputs.For(count, 4, 256, nullptr, CacheMode::kWarm);
    std::vector<float> out(data.positions.size());
    MeasurePlainLoop(
        state,
        [&] {
          Transform(data.positions, data.matrices, 4, 256, out);
          benchmark::DoNotOptimize(out.data());
        },
        {.elements = double(count), .bytes = double(count) * 32});
  });
}

Variant Row(const char* name, uint32_t rows, std::vector<Define> defines, std::vector<Pick> cpu_default = {}) {
  return {.name = name,
          .source = "uniform_data/transform.comp",
          .defines = std::move(defines),
          .rows = rows,
          .workgroups = {{64}, {256}},
          .cpu_default = std::move(cpu_default)};
}

}  // namespace

const Family<Variant>& Descriptor() {
  // 2^21 positions: 32 MiB of xyzw in, 32 out, a 1080p image's worth.
  static const Family<Variant> family{
      .name = "uniform_data",
      // A CPU device's default set: at 64 invocations, uniform against per-lane data, and 4x4
      // against 4x3.
      .variants = {Row("uniform_4x4", 4, {}, {{.workgroups = {{64}}}}),
                   Row("per_lane_4x4", 4, {{"PER_LANE", "1"}}, {{.workgroups = {{64}}}}),
                   Row("uniform_4x3", 3, {{"AFFINE", "1"}}, {{.workgroups = {{64}}}}),
                   Row("per_lane_4x3", 3, {{"AFFINE", "1"}, {"PER_LANE", "1"}})},
      .domains = {{1u << 21}},
      .test_domains = {{1000}, {37}},
      .style = Style::kCount,
      .make = MakeCase<GpuCase>,
      .plain_loop = RegisterPlainLoop};
  return family;
}

namespace {
const Declaration kDeclared = Declare("uniform_data", &Descriptor);
}

}  // namespace csbench::uniform_data
