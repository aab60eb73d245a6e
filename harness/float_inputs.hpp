// The input of the one-dimensional families: a random float vector per element count, uniform
// in [0, 1) from a fixed seed, and its rotated device copies, made on first use and kept for the
// run (the benchmarks of one domain share them).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "harness/measure.hpp"
#include "harness/options.hpp"

namespace csbench {

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

// Registers a family's CPU plain loop over `count` of its inputs, `<family>/plain_loop/domain<count>x1`:
// each iteration is `transform(values, out)` into `count` floats, 8 bytes an element (each
// input read once, each output written once).
void RegisterFloatPlainLoop(const std::string& family, FloatInputs& inputs, uint32_t count,
                            std::function<void(std::span<const float>, std::span<float>)> transform);

}  // namespace csbench
