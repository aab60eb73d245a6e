// The barriers family (GDC 2010, "DirectCompute Performance on DX11 Hardware": "too many barriers
// will affect performance, especially true if work is not divided evenly among threads"): a
// shared-memory neighbour exchange with 1, 4 and 16 barriers per element, at 64 and 1024 threads
// per group, with even and with uneven work before each barrier.
#pragma once

#include <string>
#include <vector>

#include "harness/family/family.hpp"
#include "kernels/barriers/reference.hpp"

namespace csbench::barriers {

struct Variant {
  std::string name;
  std::string source;
  uint32_t rounds = 1;  // barriers per element
  Work work = Work::kNone;
  std::vector<Extent> workgroups;  // threads per group (one-dimensional)
  std::vector<Pick> cpu_default;  // harness/family/family.hpp
};

// Both sides add and halve in float in the same order; a GPU may still contract differently.
inline constexpr double kTolerance = 1e-6;

// Domains count floats.
const Family<Variant>& Descriptor();

}  // namespace csbench::barriers
