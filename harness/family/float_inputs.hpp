// The one-dimensional float families (group_size, vector_width, barriers, ...): their input, a
// random float vector per element count, uniform in [0, 1) from a fixed seed, with its rotated
// device copies, made on first use and kept for the run (the benchmarks of one domain share
// them); the GPU case of a kernel that maps it to as many floats; and the plain loop.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "harness/base/options.hpp"
#include "harness/family/family.hpp"
#include "harness/measure/measure.hpp"
#include "harness/vulkan/kernel.hpp"

namespace csbench {

class Buffer;
class Context;

class FloatInputs {
 public:
  struct Domain {
    uint32_t count = 0;
    std::vector<float> values;
    // The family's reference output, where it depends on the domain alone; the family fills it
    // on first use.
    std::vector<float> reference;
    std::unique_ptr<RotatingInput> device;
  };

  explicit FloatInputs(uint64_t seed) : seed_(seed) {}
  // The domain's data; with a context, also its device copies.
  Domain& For(uint32_t count, Context* context, CacheMode cache);

 private:
  uint64_t seed_;
  std::map<uint32_t, std::unique_ptr<Domain>> domains_;
};

// The family's inputs in the suite, made with `seed` on first use.
FloatInputs& SharedFloatInputs(Suite& suite, const std::string& family, uint64_t seed);

// What a one-dimensional float kernel is: `count` floats in at binding 0 (rotated copies), as
// many out at binding 1, `width` floats per invocation, one dispatch of at most 65535 groups (a
// kernel with more items loops).
struct FloatMap {
  KernelSpec kernel;  // the case sets its bindings and local size
  std::vector<std::byte> push;
  uint32_t width = 1;
  CacheMode cache = CacheMode::kCold;
  // The reference output of the point's input; with `per_domain`, computed once per domain and
  // kept (it does not depend on the variant or the workgroup).
  std::function<void(std::span<const float>, std::span<float>)> reference;
  bool per_domain = true;
  double tolerance = 1e-6;
  // Counters set after timing, besides the rates and `groups`.
  std::vector<std::pair<std::string, double>> counters;
};

// The bytes of a push-constant struct.
template <typename Push>
std::vector<std::byte> PushBytes(const Push& push) {
  std::vector<std::byte> bytes(sizeof(Push));
  std::memcpy(bytes.data(), &push, sizeof(Push));
  return bytes;
}

class FloatMapCase : public Case {
 public:
  FloatMapCase(Context& context, const Point& point, FloatInputs& inputs, FloatMap map);
  ~FloatMapCase() override;
  // Poisons the output, runs the kernel once and compares with the reference.
  Comparison Check() override;
  // The timed loop: Gelem/s over the domain, GB/s of 8 bytes an element (read once, written once).
  void Measure(benchmark::State& state) override;

 private:
  void Record(Commands& c, uint32_t copy) const;

  Context* context_;
  std::string name_;
  FloatMap map_;
  uint32_t groups_;
  FloatInputs::Domain* data_;
  std::unique_ptr<Kernel> kernel_;
  std::unique_ptr<Buffer> output_;
  std::unique_ptr<Bindings> bindings_;
};

// The `make` of a family of one-dimensional float maps (group_size, vector_width): each point's
// FloatMapCase over the family's shared inputs of `seed`, with the variant's kernel (and width,
// where its rows have one), `push(point)` as the push block, and `reference` within `tolerance`.
// `require(point)` throws for a point the family cannot run (Unsupported), where given.
template <typename V>
auto FloatMapMaker(std::string family, uint64_t seed, std::function<std::vector<std::byte>(const Point&)> push,
                   std::function<void(std::span<const float>, std::span<float>)> reference, double tolerance,
                   std::function<void(const Point&)> require = {}) {
  return [=](Suite& suite, const V& v, const Point& p) -> std::unique_ptr<Case> {
    if (require) require(p);
    uint32_t width = 1;
    if constexpr (requires { v.width; }) width = v.width;
    return std::make_unique<FloatMapCase>(
        *suite.context, p, SharedFloatInputs(suite, family, seed),
        FloatMap{.kernel = {.label = v.name, .source = v.source, .defines = v.defines},
                 .push = push(p),
                 .width = width,
                 .cache = suite.options.cache,
                 .reference = reference,
                 .tolerance = tolerance});
  };
}

// Registers the CPU plain loop `name` over `count` of the inputs: each iteration is
// `transform(values, out)` into `count` floats, `bytes_per_element` compulsory bytes an element.
void RegisterFloatPlainLoop(const std::string& name, FloatInputs& inputs, uint32_t count,
                            std::function<void(std::span<const float>, std::span<float>)> transform,
                            double bytes_per_element = 8);

// The `plain_loop` of a family of float maps (FloatMapMaker): RegisterFloatPlainLoop over its shared inputs of
// `seed`, the point's domain, `reference` as the loop.
inline auto FloatPlainLoop(std::string family, uint64_t seed,
                           std::function<void(std::span<const float>, std::span<float>)> reference) {
  return [=](Suite& suite, const Point& p) {
    RegisterFloatPlainLoop(p.name, SharedFloatInputs(suite, family, seed), p.domain.x, reference);
  };
}

}  // namespace csbench
