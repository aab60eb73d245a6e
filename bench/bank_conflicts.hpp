// The bank_conflicts family (GDC 2010, "DirectCompute Performance on DX11 Hardware": "TGSM addresses
// that are 32 DWORD apart use the same bank"; "padding arrays to avoid bank conflicts can help,
// e.g. MyArray[16][33] instead of [16][32]"): a shared-memory tiled transpose with and without a
// padded tile, and shared-memory reads at strides 1 to 32 words.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "harness/check.hpp"
#include "harness/kernel.hpp"
#include "harness/naming.hpp"
#include "harness/suite.hpp"

namespace csbench::bank_conflicts {

struct Variant {
  std::string name;
  std::string source;
  std::vector<Define> defines;
  uint32_t stride = 0;  // strided.comp: words between neighbouring invocations; 0: the transpose
  std::vector<Extent> workgroups;
  std::vector<Extent> domains;  // transpose: matrix width x height; strided: invocations x 1
};

const std::vector<Variant>& Variants();

// Shared reads per invocation of strided.comp: enough that they, not the 16 KiB fill, dominate.
inline constexpr uint32_t kAccesses = 128;
// The transpose moves values (exact); the strided sums add in float in the same order on both
// sides, but a GPU may contract or reassociate.
inline constexpr double kTolerance = 1e-5;

// The random input of each domain and its rotated device copies, made on first use and kept.
class Inputs {
 public:
  struct Domain;
  Inputs();
  ~Inputs();
  Domain& For(Extent domain, Context* context, CacheMode cache);

 private:
  std::map<std::pair<uint32_t, uint32_t>, std::unique_ptr<Domain>> domains_;
};

// One variant at one workgroup size on one domain.
class GpuCase {
 public:
  GpuCase(Context& context, const Variant& variant, Extent workgroup, Extent domain, Inputs& inputs);
  ~GpuCase();

  // Poisons the output, runs the kernel once and compares with the plain loop.
  Comparison Check();
  // The timed loop; call Check() first. Strided variants also set `slowdown`: their time per
  // dispatch over the stride-1 kernel's on the same workgroup and domain.
  void Measure(benchmark::State& state);
  // Seconds per dispatch, the best of a few timed batches (for `slowdown`).
  double SecondsPerDispatch();

 private:
  struct State;
  std::unique_ptr<State> s_;
};

// Registers every variant x workgroup x domain (with a device) and the plain-loop benchmarks.
void Register(Suite& suite);

}  // namespace csbench::bank_conflicts
