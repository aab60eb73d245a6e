// The barriers family (GDC 2010, "DirectCompute Performance on DX11 Hardware": "too many barriers
// will affect performance, especially true if work is not divided evenly among threads"): a
// shared-memory neighbour exchange with 1, 4 and 16 barriers per element, at 64 and 1024 threads
// per group, with even and with uneven work before each barrier.
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
#include "kernels/barriers/reference.hpp"

namespace csbench::barriers {

struct Variant {
  std::string name;
  std::string source;
  uint32_t rounds = 1;  // barriers per element
  Work work = Work::kNone;
  std::vector<uint32_t> workgroups;  // threads per group (one-dimensional)
};

const std::vector<Variant>& Variants();
// Domains count floats.
const std::vector<uint32_t>& Domains();

// Both sides add and halve in float in the same order; a GPU may still contract differently.
inline constexpr double kTolerance = 1e-6;

// The random input of each domain and its rotated device copies, made on first use and kept for
// the run (benchmarks of one domain share them).
class Inputs : public FloatInputs {
 public:
  Inputs();  // with the family's seed
};

// One variant (barriers per element, work) at one group size on one domain.
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

}  // namespace csbench::barriers
