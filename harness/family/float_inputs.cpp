#include "harness/base/error.hpp"
#include "harness/family/float_inputs.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <span>
#include <utility>

#include "harness/base/naming.hpp"
#include "harness/measure/selection.hpp"
#include "harness/vulkan/buffer.hpp"
#include "harness/vulkan/commands.hpp"
#include "harness/vulkan/context.hpp"
#include "kernels/random.hpp"

namespace csbench {

FloatInputs::Domain& FloatInputs::For(uint32_t count, Context* context, CacheMode cache) {
  auto& data = domains_[count];
  if (!data) {
    data = std::make_unique<Domain>();
    data->count = count;
    data->values.resize(count);
    FillUniform(data->values, seed_);
  }
  if (context != nullptr && !data->device) {
    data->device = std::make_unique<RotatingInput>(*context, std::as_bytes(std::span(data->values)), cache);
  }
  return *data;
}

FloatInputs& SharedFloatInputs(Suite& suite, const std::string& family, uint64_t seed) {
  auto& slot = suite.Shared<std::unique_ptr<FloatInputs>>(family);
  if (!slot) slot = std::make_unique<FloatInputs>(seed);
  return *slot;
}

FloatMapCase::FloatMapCase(Context& context, const Point& point, FloatInputs& inputs, FloatMap map)
    : context_(&context), name_(point.name), map_(std::move(map)) {
  const uint32_t count = point.domain.x;
  RequireSupport(count % map_.width == 0, fmt::format("{}: {} floats are not a whole number of {}-float elements",
                                                        map_.kernel.label, count, map_.width));
  RequireWorkgroup(context, point.workgroup);
  const uint64_t bytes = uint64_t{count} * sizeof(float);
  RequireStorage(context, bytes);
  groups_ = CappedGroups(count / map_.width, point.workgroup.x);
  map_.kernel.local_size = {point.workgroup.x, 1, 1};
  map_.kernel.bindings = 2;
  map_.kernel.push_bytes = static_cast<uint32_t>(map_.push.size());
  kernel_ = std::make_unique<Kernel>(context, map_.kernel);
  data_ = &inputs.For(count, &context, map_.cache);
  output_ = std::make_unique<Buffer>(context, bytes);
  bindings_ = std::make_unique<Bindings>(kernel_->Bind({{&data_->device->buffer(), bytes}, {output_.get(), 0}}));
}

FloatMapCase::~FloatMapCase() = default;

void FloatMapCase::Record(Commands& c, uint32_t copy) const {
  std::array<uint32_t, 2> offsets{data_->device->Offset(copy), 0};
  c.Dispatch(*kernel_, *bindings_, {groups_, 1, 1}, offsets, std::span<const std::byte>(map_.push));
}

Comparison FloatMapCase::Check() {
  const std::vector<float> got = PoisonedRun(*context_, *output_, data_->count, [&](Commands& c) { Record(c, 0); });
  std::vector<float> own;
  std::vector<float>& want = map_.per_domain ? data_->reference : own;
  if (want.empty()) {
    want.resize(data_->count);
    map_.reference(data_->values, want);
  }
  return Compare(got, want, map_.tolerance);
}

void FloatMapCase::Measure(benchmark::State& state) {
  const double count = data_->count;
  MeasureDispatches(state, *context_, [&](Commands& c, uint32_t i) { Record(c, i); }, data_->device->copies(),
                    {.elements = count, .bytes = count * 8});
  state.counters["groups"] = groups_;
  for (const auto& [counter, value] : map_.counters) state.counters[counter] = value;
}

void RegisterFloatPlainLoop(const std::string& name, FloatInputs& inputs, uint32_t count,
                            std::function<void(std::span<const float>, std::span<float>)> transform,
                            double bytes_per_element) {
  AddPlainLoop(name, [&inputs, count, bytes_per_element, transform = std::move(transform)](benchmark::State& state) {
    // No device copies: the plain loop runs without a context too.
    const FloatInputs::Domain& data = inputs.For(count, nullptr, CacheMode::kWarm);
    std::vector<float> out(count);
    MeasurePlainLoop(
        state,
        [&] {
          transform(data.values, out);
          benchmark::DoNotOptimize(out.data());
        },
        {.elements = static_cast<double>(count), .bytes = count * bytes_per_element});
  });
}

}  // namespace csbench
