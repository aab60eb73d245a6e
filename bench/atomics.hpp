// The atomics family (GDC 2010, "DirectCompute Performance on DX11 Hardware": "atomic operations
// cost performance; use them only when needed; many problems can be recast as more efficient
// parallel reduce"): the sum of a large buffer of uint or float values by one atomicAdd per
// element, per group (after a shared-memory tree), per subgroup (after subgroupAdd), and by a
// two-pass reduction.
#pragma once

#include <string>
#include <vector>

#include "harness/family/family.hpp"

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
  std::vector<Extent> workgroups;  // threads per group, powers of two
  bool needs_subgroup_arithmetic = false;
  std::vector<Pick> cpu_default;  // harness/family/family.hpp

  bool two_pass() const { return atomics == Atomics::kNoneTwoPass; }
  // Float atomicAdd on a storage buffer (VK_EXT_shader_atomic_float's shaderBufferFloat32AtomicAdd);
  // the two-pass reduction has no atomics, so it runs everywhere.
  bool needs_float_atomic_add() const { return element == Element::kFloat && !two_pass(); }
};

// Domains count 32-bit values (uint or float). A float domain over kMaxExactFloatCount
// (kernels/atomics/reference.hpp) is refused: its sum could round. Each GPU case zeroes the
// total (atomic variants) or poisons it (two-pass), runs once and compares the sum with the
// plain loop's exactly; while timed, the atomic variants keep adding into the same total.
// The plain loops: plain_loop sums uints, plain_loop_float floats.
const Family<Variant>& Descriptor();

}  // namespace csbench::atomics
