// Each benchmark's place as data: its family, its variant, its coordinates on the family's axes
// and the clock that times it, kept by name. Every path that registers a benchmark describes it
// here, and the JSON report writes the description into the benchmark's entries ("csbench"), so
// that scripts read a benchmark's axes there instead of parsing its name.
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace csbench {

// What times a benchmark: the device's own timer (Vulkan timestamps, CUDA events), or the host's
// clock (a plain CPU loop, a run that includes host work, a device without a timer).
enum class Clock { kDevice, kHost };
std::string_view ToString(Clock clock);

// A value on an axis: a number (a JSON number: steps, images, a keep ratio) or a string (an
// extent such as "8x8", a mode).
using AxisValue = std::variant<double, std::string>;

// The value as a benchmark's name writes it after the axis's prefix: 512, 0.5, "8x8".
std::string Spelled(const AxisValue& value);

// One coordinate of a benchmark: the axis's name (the JSON's key) and the value there.
struct Coordinate {
  std::string axis;
  AxisValue value;
  bool operator==(const Coordinate&) const = default;
};

struct Description {
  std::string family;
  std::string variant;
  Clock clock = Clock::kDevice;
  std::vector<Coordinate> axes;  // in the order the name writes them
  bool operator==(const Description&) const = default;
};

// Records the description of benchmark `name` (a later call for the same name replaces it).
void Describe(const std::string& name, Description description);
// The description of benchmark `name`, or null when nothing described it.
const Description* Described(std::string_view name);

// The description as one JSON object on one line:
// {"family": "reduction", "variant": "sequential", "clock": "device", "axes": {"workgroup": "8x8", ...}}
std::string ToJson(const Description& description);

}  // namespace csbench
