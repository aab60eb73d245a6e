// The occupancy family: 1024-invocation groups with 32 KiB of shared memory and LIVE values kept
// alive per invocation (16, 32, 48, 64), against 256- and 64-invocation groups doing the same
// work, after the article's "48 -> 32 VGPRs let two groups fit per CU: +50%". Where the driver
// exposes VK_KHR_pipeline_executable_properties, each benchmark also reports its pipeline's
// statistics (registers, shared memory, spills...) as `stat:<name>` counters.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "harness/check.hpp"
#include "harness/kernel.hpp"
#include "harness/suite.hpp"

namespace csbench::occupancy {

struct Variant {
  std::string name;
  std::string source;
  std::vector<Define> defines;
  uint32_t live = 0;                // the LIVE macro: values each invocation keeps alive
  std::vector<uint32_t> workgroups;  // invocations per group, multiples of 64
};

const std::vector<Variant>& Variants();
// Invocations per dispatch (one output each): 2^20, several waves of groups on any current GPU.
const std::vector<uint32_t>& Domains();

inline constexpr uint32_t kRounds = 16;
// Relative error allowed: both sides compute in float in the same order; a GPU compiler may fuse
// the multiply-adds (16 rounds of three terms), which moves results by a few 1e-7.
inline constexpr double kTolerance = 1e-5;

// The benchmark name: occupancy/<variant>/wg<n>/domain<count>.
std::string BenchmarkName(const Variant& variant, uint32_t workgroup, uint32_t count);

// The seeds of each domain (on the host and the device) and their references per LIVE.
class Inputs {
 public:
  struct Domain;
  Inputs();
  ~Inputs();
  Domain& For(uint32_t count, Context* context);

 private:
  std::vector<std::unique_ptr<Domain>> domains_;
};

class GpuCase {
 public:
  GpuCase(Context& context, const Variant& variant, uint32_t workgroup, uint32_t count, Inputs& inputs);
  ~GpuCase();

  Comparison Check();
  // The timed loop; call Check() first. Adds the pipeline statistics as counters.
  void Measure(benchmark::State& state);
  const KernelSpec& spec() const;

 private:
  struct State;
  std::unique_ptr<State> s_;
};

void Register(Suite& suite);

}  // namespace csbench::occupancy
