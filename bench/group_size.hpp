// The group_size family (GDC 2010, "DirectCompute Performance on DX11 Hardware": "numthreads(1,1,1)
// is a bad idea"; "avoid sizes below wavefront size"; "larger values will generally work well"):
// one memory-bound kernel, scale-and-add over a large buffer, at 1 to 1024 threads per group.
#pragma once

#include <string>
#include <vector>

#include "harness/family/family.hpp"
#include "harness/vulkan/kernel.hpp"

namespace csbench::group_size {

struct Variant {
  std::string name;
  std::string source;
  std::vector<Define> defines;
  std::vector<Extent> workgroups;  // threads per group (one-dimensional)
  // The default sets (harness/family/family.hpp).
  std::vector<Pick> cpu_default;
  std::vector<Pick> gpu_leaves_out;
};

inline constexpr float kScale = 1.5f;
inline constexpr float kOffset = 0.25f;
// The GPU may fuse a * x + b into one FMA, the plain loop rounds twice: one ulp apart at most.
inline constexpr double kTolerance = 1e-6;

// Domains count floats.
const Family<Variant>& Descriptor();

}  // namespace csbench::group_size
