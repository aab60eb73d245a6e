// Benchmark names, comparable across devices and runs (the device is never in the name).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

namespace csbench {

struct Extent {
  uint32_t x = 1;
  uint32_t y = 1;
  bool operator==(const Extent&) const = default;
};

// "<prefix><x>x<y>", e.g. Sized("wg", {16, 16}) -> "wg16x16".
std::string Sized(std::string_view prefix, Extent extent);

// Joins the parts with '/': Name({"reduction", "sequential", "wg16x16", "domain640x480"}).
std::string Name(std::initializer_list<std::string_view> parts);

}  // namespace csbench
