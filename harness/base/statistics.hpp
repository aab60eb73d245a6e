// Small statistics shared by the harness's strategies and its console.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace csbench {

// The median of `values` (at least one).
inline double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

}  // namespace csbench
