#include "harness/check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace csbench {

Comparison Compare(std::span<const float> got, std::span<const float> want, double tolerance, double floor) {
  Comparison c;
  if (got.size() != want.size()) {
    c.max_relative_error = std::numeric_limits<double>::infinity();
    c.message = fmt::format("result has {} values, reference {}", got.size(), want.size());
    return c;
  }
  for (size_t i = 0; i < got.size(); ++i) {
    double error = std::isfinite(got[i]) ? std::abs(double{got[i]} - want[i]) / std::max(std::abs(double{want[i]}), floor)
                                         : std::numeric_limits<double>::infinity();
    if (!(error <= c.max_relative_error)) {
      c.max_relative_error = error;
      c.worst_index = i;
    }
  }
  c.passed = c.max_relative_error <= tolerance;
  if (!c.passed) {
    c.message = fmt::format("mismatch with the CPU reference: max relative error {:.3g} at index {} (got {}, want {}), "
                            "tolerance {:.1g}",
                            c.max_relative_error, c.worst_index, got[c.worst_index], want[c.worst_index], tolerance);
  }
  return c;
}

}  // namespace csbench
