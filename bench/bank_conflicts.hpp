// The bank_conflicts family (GDC 2010, "DirectCompute Performance on DX11 Hardware": "TGSM addresses
// that are 32 DWORD apart use the same bank"; "padding arrays to avoid bank conflicts can help,
// e.g. MyArray[16][33] instead of [16][32]"): a shared-memory tiled transpose with and without a
// padded tile, and shared-memory reads at strides 1 to 32 words.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "harness/family/family.hpp"
#include "harness/vulkan/kernel.hpp"

namespace csbench::bank_conflicts {

struct Variant {
  std::string name;
  std::string source;
  std::vector<Define> defines;
  uint32_t stride = 0;  // strided.comp: words between neighbouring invocations; 0: the transpose
  std::vector<Extent> workgroups;
  std::vector<Extent> domains;  // transpose: matrix width x height; strided: invocations x 1
  std::vector<Pick> cpu_default;  // harness/family/family.hpp
};

// Shared reads per invocation of strided.comp: enough that they, not the 16 KiB fill, dominate.
inline constexpr uint32_t kAccesses = 128;
// The transpose moves values (exact); the strided sums add in float in the same order on both
// sides, but a GPU may contract or reassociate.
inline constexpr double kTolerance = 1e-5;

// The family: the transposes on their matrix, the strided reads on their invocations (each
// variant has its own domains); strided variants also report `slowdown`, their time per dispatch
// over the stride-1 kernel's on the same workgroup and domain. The plain loop (the CPU has no
// banks) is the transpose, on every two-dimensional domain.
const Family<Variant>& Descriptor();

}  // namespace csbench::bank_conflicts
