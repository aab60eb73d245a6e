// Combinations of a family's axes: apart from family.cpp, which registers benchmarks, so that the
// manifest reader's fuzz target (tests/fuzz) takes it without the measuring layers.
#include <algorithm>

#include "harness/family/family.hpp"

namespace csbench {

std::vector<std::vector<Coordinate>> Combinations(const std::vector<Axis>& axes, const Extent* built_in, bool test) {
  std::vector<std::vector<Coordinate>> combinations = {{}};
  for (const Axis& axis : axes) {
    const std::vector<AxisValue>* values = &axis.values;
    for (const auto& [domain, own] : axis.by_domain) {
      if (built_in != nullptr && domain == *built_in) values = &own;
    }
    const size_t count = test && !axis.tested ? std::min<size_t>(values->size(), 1) : values->size();
    std::vector<std::vector<Coordinate>> longer;
    for (const std::vector<Coordinate>& c : combinations) {
      for (size_t i = 0; i < count; ++i) {
        const AxisValue& value = (*values)[i];
        longer.push_back(c);
        longer.back().push_back({axis.name, value});
      }
    }
    combinations = std::move(longer);
  }
  return combinations;
}

}  // namespace csbench
