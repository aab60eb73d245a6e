#include "bench/uniform_data.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "harness/buffer.hpp"
#include "harness/commands.hpp"
#include "harness/context.hpp"
#include "harness/error.hpp"
#include "harness/measure.hpp"
#include "harness/naming.hpp"
#include "harness/selection.hpp"
#include "kernels/random.hpp"
#include "kernels/uniform_data/reference.hpp"

namespace csbench::uniform_data {
namespace {

constexpr uint64_t kSeed = 0x5347505273636c72;  // "SGPRsclr"

struct Push {
  uint32_t count;
  uint32_t elements_per_matrix;
};

}  // namespace

const std::vector<Variant>& Variants() {
  static const std::vector<Variant> variants = {
      {.name = "uniform_4x4", .source = "uniform_data/transform.comp", .rows = 4, .workgroups = {64, 256}},
      {.name = "per_lane_4x4", .source = "uniform_data/transform.comp", .defines = {{"PER_LANE", "1"}}, .rows = 4,
       .workgroups = {64, 256}},
      {.name = "uniform_4x3", .source = "uniform_data/transform.comp", .defines = {{"AFFINE", "1"}}, .rows = 3,
       .workgroups = {64, 256}},
      {.name = "per_lane_4x3", .source = "uniform_data/transform.comp",
       .defines = {{"AFFINE", "1"}, {"PER_LANE", "1"}}, .rows = 3, .workgroups = {64, 256}},
  };
  return variants;
}

const std::vector<uint32_t>& Domains() {
  // 2^21 positions: 32 MiB of xyzw in, 32 out, a 1080p image's worth.
  static const std::vector<uint32_t> domains = {1u << 21};
  return domains;
}

std::string BenchmarkName(const Variant& variant, uint32_t workgroup, uint32_t count) {
  return Name({"uniform_data", variant.name, fmt::format("wg{}", workgroup), fmt::format("domain{}", count)});
}

struct Inputs::Data {
  std::vector<float> positions;
  std::vector<float> matrices;
  std::vector<float> reference;
  std::unique_ptr<RotatingInput> device_positions;
  std::unique_ptr<Buffer> device_matrices;
};

Inputs::Inputs() = default;
Inputs::~Inputs() = default;

Inputs::Data& Inputs::For(uint32_t count, uint32_t rows, uint32_t group, Context* context, CacheMode cache) {
  auto& data = data_[{count, rows, group}];
  if (!data) {
    data = std::make_unique<Data>();
    data->positions.resize(size_t{count} * rows);
    FillUniform(data->positions, kSeed + rows);
    data->matrices.resize(size_t{(count + group - 1) / group} * rows * 4);
    FillUniform(data->matrices, kSeed + 16 + rows);
    data->reference = Transform(data->positions, data->matrices, rows, group);
  }
  if (context != nullptr && !data->device_positions) {
    data->device_positions =
        std::make_unique<RotatingInput>(*context, std::as_bytes(std::span(data->positions)), cache);
    data->device_matrices = std::make_unique<Buffer>(*context, data->matrices.size() * sizeof(float));
    data->device_matrices->Upload(std::as_bytes(std::span(data->matrices)));
  }
  return *data;
}

struct GpuCase::State {
  Context* context;
  const Variant* variant;
  uint32_t workgroup;
  uint32_t count;
  Inputs::Data* data;
  std::unique_ptr<Kernel> kernel;
  std::unique_ptr<Buffer> output;
  std::unique_ptr<Bindings> bindings;

  void Record(Commands& c, uint32_t copy) const {
    std::array<uint32_t, 3> offsets{data->device_positions->Offset(copy), 0, 0};
    c.Dispatch(*kernel, *bindings, {(count + workgroup - 1) / workgroup, 1, 1}, offsets, Push{count, workgroup});
  }
};

GpuCase::GpuCase(Context& context, const Variant& variant, uint32_t workgroup, uint32_t count, Inputs& inputs)
    : s_(std::make_unique<State>()) {
  Require((count + workgroup - 1) / workgroup <= 65535,
          fmt::format("{}: {} groups of {} exceed a dispatch's 65535", variant.name, count / workgroup, workgroup));
  s_->context = &context;
  s_->variant = &variant;
  s_->workgroup = workgroup;
  s_->count = count;
  s_->kernel = std::make_unique<Kernel>(context, KernelSpec{.label = variant.name,
                                                            .source = variant.source,
                                                            .defines = variant.defines,
                                                            .local_size = {workgroup, 1, 1},
                                                            .bindings = 3,
                                                            .push_bytes = sizeof(Push)});
  s_->data = &inputs.For(count, variant.rows, workgroup, &context, context.options().cache);
  s_->output = std::make_unique<Buffer>(context, s_->data->positions.size() * sizeof(float));
  s_->bindings = std::make_unique<Bindings>(
      s_->kernel->Bind({{&s_->data->device_positions->buffer(), s_->data->device_positions->slice_bytes()},
                        {s_->data->device_matrices.get(), 0},
                        {s_->output.get(), 0}}));
}

GpuCase::~GpuCase() = default;

Comparison GpuCase::Check() {
  const std::vector<float> got =
      PoisonedRun(*s_->context, *s_->output, s_->data->positions.size(), [&](Commands& c) { s_->Record(c, 0); });
  return Compare(got, s_->data->reference, kTolerance, 1e-2);
}

void GpuCase::Measure(benchmark::State& state) {
  const double elements = s_->count;
  const double bytes = 2.0 * s_->data->positions.size() * sizeof(float) + s_->data->matrices.size() * sizeof(float);
  MeasureDispatches(
      state, *s_->context, BenchmarkName(*s_->variant, s_->workgroup, s_->count),
      [&](Commands& c, uint32_t i) { s_->Record(c, i); }, s_->data->device_positions->copies(),
      {.elements = elements, .bytes = bytes});
}

void Register(Suite& suite) {
  Inputs& inputs = suite.Shared<Inputs>("uniform_data");
  for (uint32_t count : Domains()) {
    if (suite.context != nullptr) {
      for (const Variant& variant : Variants()) {
        for (uint32_t wg : variant.workgroups) {
          RegisterGpuCase(BenchmarkName(variant, wg, count), [&suite, &inputs, &variant, wg, count] {
            return std::make_unique<GpuCase>(*suite.context, variant, wg, count, inputs);
          });
        }
      }
    }
    // The plain loop of the 4x4 case with 256-element groups.
    auto plain = [&inputs, count](benchmark::State& state) {
      RunGuarded(state, [&] {
        Inputs::Data& data = inputs.For(count, 4, 256, nullptr, CacheMode::kWarm);
        std::vector<float> out(data.positions.size());
        for (auto _ : state) {
          Transform(data.positions, data.matrices, 4, 256, out);
          benchmark::DoNotOptimize(out.data());
          benchmark::ClobberMemory();
        }
        SetThroughput(state, {.elements = double(count), .bytes = double(count) * 32});
      });
    };
    AddBenchmark(Name({"uniform_data", "plain_loop", fmt::format("domain{}", count)}), plain)
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace csbench::uniform_data
