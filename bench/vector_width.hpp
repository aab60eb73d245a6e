// The vector_width family (GDC 2010, "DirectCompute Performance on DX11 Hardware": "prefer grouped
// reads/writes, e.g. read/write from/to float4 instead of float; NVIDIA scalar arch will not
// benefit from this"): one scale over a large buffer, through float, vec2 and vec4 elements.
#pragma once

#include <string>
#include <vector>

#include "harness/family/family.hpp"
#include "harness/vulkan/kernel.hpp"

namespace csbench::vector_width {

struct Variant {
  std::string name;
  std::string source;
  std::vector<Define> defines;
  uint32_t width = 1;              // floats per element
  std::vector<Extent> workgroups;  // threads per group (one-dimensional)
  std::vector<Pick> cpu_default;  // harness/family/family.hpp
};

inline constexpr float kScale = 1.5f;
// One correctly rounded multiply on both sides: the results are equal.
inline constexpr double kTolerance = 0;

// Domains count floats, multiples of 4 so that every width divides them (others are skipped).
const Family<Variant>& Descriptor();

}  // namespace csbench::vector_width
