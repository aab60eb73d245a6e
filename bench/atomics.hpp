// The atomics family (GDC 2010, "DirectCompute Performance on DX11 Hardware": "atomic operations
// cost performance; use them only when needed; many problems can be recast as more efficient
// parallel reduce"): the sum of a large buffer of uint or float values by one atomicAdd per
// element, per group (after a shared-memory tree), per subgroup (after subgroupAdd), and by a
// two-pass reduction.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "harness/check.hpp"
#include "harness/kernel.hpp"
#include "harness/suite.hpp"

namespace csbench::atomics {

// Where the atomicAdds happen; the value is sum.comp's MODE.
enum class Atomics : uint32_t { kPerElement = 0, kPerGroup = 1, kPerSubgroup = 2, kNoneTwoPass = 3 };

// What is summed; both are 32 bits wide, so the bytes moved are the same. GlslType() gives
// sum.comp's TYPE.
enum class Element : uint32_t { kUint = 0, kFloat = 1 };
const char* GlslType(Element element);

struct Variant {
  std::string name;
  std::string source;
  Atomics atomics = Atomics::kPerElement;
  Element element = Element::kUint;
  std::vector<uint32_t> workgroups;  // threads per group, powers of two
  bool needs_subgroup_arithmetic = false;

  bool two_pass() const { return atomics == Atomics::kNoneTwoPass; }
  // Float atomicAdd on a storage buffer (VK_EXT_shader_atomic_float's shaderBufferFloat32AtomicAdd);
  // the two-pass reduction has no atomics, so it runs everywhere.
  bool needs_float_atomic_add() const { return element == Element::kFloat && !two_pass(); }
};

const std::vector<Variant>& Variants();
// Domains count 32-bit values (uint or float).
const std::vector<uint32_t>& Domains();

// The random input of each domain and element type, its rotated device copies and its sum, made
// on first use.
class Inputs {
 public:
  struct Domain;
  Inputs();
  ~Inputs();
  // With a context, also the device copies. Throws Error for a float count whose sum would not
  // be exact (over kMaxExactFloatCount).
  Domain& For(uint32_t count, Element element, Context* context, CacheMode cache);

 private:
  std::map<std::pair<uint32_t, Element>, std::unique_ptr<Domain>> domains_;
};

// One variant at one group size on one domain.
class GpuCase {
 public:
  GpuCase(Context& context, const Variant& variant, uint32_t workgroup, uint32_t count, Inputs& inputs);
  ~GpuCase();

  // Zeroes the total (atomic variants) or poisons it (two-pass), runs once and compares the sum
  // with the plain loop's, exactly: integer sums do not depend on the order of the additions,
  // and the float inputs are chosen so that float sums do not either (kernels/atomics/reference.hpp).
  Comparison Check();
  // The timed loop; call Check() first. The atomic variants keep adding into the same total
  // while timed: its value no longer matters then.
  void Measure(benchmark::State& state);

 private:
  struct State;
  std::unique_ptr<State> s_;
};

// Registers every variant x group size x domain (with a device) and the plain-loop benchmarks
// (plain_loop sums uints, plain_loop_float floats).
void Register(Suite& suite);

}  // namespace csbench::atomics
