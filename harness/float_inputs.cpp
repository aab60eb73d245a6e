#include "harness/float_inputs.hpp"

#include <benchmark/benchmark.h>

#include <span>
#include <utility>

#include "harness/naming.hpp"
#include "harness/selection.hpp"
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

void RegisterFloatPlainLoop(const std::string& family, FloatInputs& inputs, uint32_t count,
                            std::function<void(std::span<const float>, std::span<float>)> transform) {
  auto plain = [&inputs, count, transform = std::move(transform)](benchmark::State& state) {
    RunGuarded(state, [&] {
      // No device copies: the plain loop runs without a context too.
      const FloatInputs::Domain& data = inputs.For(count, nullptr, CacheMode::kWarm);
      std::vector<float> out(count);
      for (auto _ : state) {
        transform(data.values, out);
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
      }
      SetThroughput(state, {.elements = static_cast<double>(count), .bytes = static_cast<double>(count) * 8});
    });
  };
  AddBenchmark(Name({family, "plain_loop", Sized("domain", {count, 1})}), plain)
      ->Unit(benchmark::kMillisecond);
}

}  // namespace csbench
