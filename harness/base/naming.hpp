// Benchmark names, comparable across devices and runs (the device is never in the name).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

namespace csbench {

// A workgroup or a domain of one, two or three dimensions; what a family does not use is 1.
struct Extent {
  uint32_t x = 1;
  uint32_t y = 1;
  uint32_t z = 1;
  double Count() const { return static_cast<double>(x) * y * z; }
  bool operator==(const Extent&) const = default;
};

// "<prefix><x>x<y>", or "<prefix><x>x<y>x<z>" for a 3D extent, e.g. Sized("wg", {16, 16}) -> "wg16x16".
std::string Sized(std::string_view prefix, Extent extent);

// Joins the parts with '/': Name({"reduction", "sequential", "wg16x16", "domain640x480"}).
std::string Name(std::initializer_list<std::string_view> parts);

}  // namespace csbench
