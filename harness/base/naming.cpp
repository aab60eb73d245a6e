#include "harness/base/naming.hpp"

#include <fmt/format.h>

namespace csbench {

std::string Sized(std::string_view prefix, Extent extent) {
  if (extent.z != 1) return fmt::format("{}{}x{}x{}", prefix, extent.x, extent.y, extent.z);
  return fmt::format("{}{}x{}", prefix, extent.x, extent.y);
}

std::string Name(std::initializer_list<std::string_view> parts) {
  std::string name;
  for (std::string_view part : parts) {
    if (!name.empty()) name += '/';
    name += part;
  }
  return name;
}

}  // namespace csbench
