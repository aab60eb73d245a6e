// The uniform_data family: positions transformed by a per-group matrix read at a group-uniform
// address (scalarizable: one copy per wave) or at an address only the lanes know (one copy per
// lane), with 4x4 matrices on xyzw or 4x3 matrices on xyz (w = 1 implied), after the article's
// advice on scalar loads, homogeneous coordinates and 4x3 matrices.
#pragma once

#include <string>
#include <vector>

#include "harness/family/family.hpp"
#include "harness/vulkan/kernel.hpp"

namespace csbench::uniform_data {

struct Variant {
  std::string name;
  std::string source;
  std::vector<Define> defines;
  uint32_t rows = 4;  // 4: 4x4 matrices on xyzw; 3: 4x3 on xyz
  std::vector<Extent> workgroups;
  std::vector<Pick> cpu_default;  // harness/family/family.hpp
};

// Both sides sum four products; the reference in double, the GPU in float (maybe fused).
inline constexpr double kTolerance = 1e-5;

// Domains count elements (positions) per dispatch; names are uniform_data/<variant>/wg<n>/domain<count>.
const Family<Variant>& Descriptor();

}  // namespace csbench::uniform_data
