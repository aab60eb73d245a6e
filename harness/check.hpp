// Comparison of a GPU result with its CPU reference.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace csbench {

struct Comparison {
  double max_relative_error = 0;  // infinity where a value is NaN/inf or the sizes differ
  size_t worst_index = 0;
  bool passed = false;
  std::string message;  // empty when passed
};

// Largest |got - want| / max(|want|, floor) over all elements; passes when it is at most
// `tolerance`. A non-finite value (an unwritten, poisoned output) fails at its index.
Comparison Compare(std::span<const float> got, std::span<const float> want, double tolerance,
                   double floor = 1e-6);

// The bit pattern outputs are filled with before a check run: a quiet NaN, so an element no
// invocation wrote cannot pass.
inline constexpr uint32_t kPoison = 0x7fc0dead;

}  // namespace csbench
