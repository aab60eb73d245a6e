// The vector_width family (GDC 2010, "DirectCompute Performance on DX11 Hardware": "prefer grouped
// reads/writes, e.g. read/write from/to float4 instead of float; NVIDIA scalar arch will not
// benefit from this"): one scale over a large buffer, through float, vec2 and vec4 elements.
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

namespace csbench::vector_width {

struct Variant {
  std::string name;
  std::string source;
  std::vector<Define> defines;
  uint32_t width = 1;                // floats per element
  std::vector<uint32_t> workgroups;  // threads per group (one-dimensional)
};

const std::vector<Variant>& Variants();
// Domains count floats (multiples of 4, so every width divides them).
const std::vector<uint32_t>& Domains();

inline constexpr float kScale = 1.5f;
// One correctly rounded multiply on both sides: the results are equal.
inline constexpr double kTolerance = 0;

// The random input of each domain, its rotated device copies and its reference, made on first
// use and kept for the run (benchmarks of one domain share them).
class Inputs : public FloatInputs {
 public:
  Inputs();  // with the family's seed
};

// One element width at one group size on one domain.
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

// Registers every width x group size x domain (with a device) and the plain-loop benchmarks.
void Register(Suite& suite);

}  // namespace csbench::vector_width
