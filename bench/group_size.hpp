// The group_size family (GDC 2010, "DirectCompute Performance on DX11 Hardware": "numthreads(1,1,1)
// is a bad idea"; "avoid sizes below wavefront size"; "larger values will generally work well"):
// one memory-bound kernel, scale-and-add over a large buffer, at 1 to 1024 threads per group.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "harness/check.hpp"
#include "harness/float_inputs.hpp"
#include "harness/kernel.hpp"
#include "harness/suite.hpp"

namespace csbench::group_size {

struct Variant {
  std::string name;
  std::string source;
  std::vector<Define> defines;
  std::vector<uint32_t> workgroups;  // threads per group (one-dimensional)
};

const std::vector<Variant>& Variants();
// Domains count floats.
const std::vector<uint32_t>& Domains();

inline constexpr float kScale = 1.5f;
inline constexpr float kOffset = 0.25f;
// The GPU may fuse a * x + b into one FMA, the plain loop rounds twice: one ulp apart at most.
inline constexpr double kTolerance = 1e-6;

// The random input of each domain, its rotated device copies and its reference, made on first
// use and kept for the run (benchmarks of one domain share them).
class Inputs : public FloatInputs {
 public:
  Inputs();  // with the family's seed
};

// One variant at one group size on one domain.
class GpuCase {
 public:
  GpuCase(Context& context, const Variant& variant, uint32_t workgroup, uint32_t count, Inputs& inputs);
  ~GpuCase();

  // Poisons the output, runs the kernel once and compares with the plain loop.
  Comparison Check();
  // The timed loop; call Check() first.
  void Measure(benchmark::State& state);

 private:
  struct State;
  std::unique_ptr<State> s_;
};

// Registers every variant x group size x domain (with a device) and the plain-loop benchmarks.
void Register(Suite& suite);

}  // namespace csbench::group_size
