// The input of the one-dimensional families: a random float vector per element count, uniform
// in [0, 1) from a fixed seed, and its rotated device copies, made on first use and kept for the
// run (the benchmarks of one domain share them).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
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

}  // namespace csbench
