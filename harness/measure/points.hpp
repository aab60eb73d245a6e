// Each benchmark's place as data: its family, its variant, its coordinates on the family's axes
// and the clock that times it. Registration gives it to the benchmark's record
// (harness/measure/record.hpp), and the JSON report writes it into the benchmark's entries
// ("csbench"), so that scripts read a benchmark's axes there instead of parsing its name.
#pragma once

#include <concepts>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace csbench {

// What times a benchmark: the device's own timer (Vulkan timestamps, CUDA events), or the host's
// clock (a plain CPU loop, a run that includes host work, a device without a timer).
enum class Clock { kDevice, kHost };
std::string_view ToString(Clock clock);

// A value on an axis: a number (a JSON number: steps, images, a keep ratio) or a string (an
// extent such as "8x8", a mode). Implicit from either, so that a table reads {1, 50, 99} or
// {"compute", "compute+download"}.
class AxisValue {
 public:
  AxisValue(double number) : value_(number) {}
  template <std::integral I>
    requires(!std::same_as<I, bool>)
  AxisValue(I number) : value_(static_cast<double>(number)) {}
  AxisValue(std::string text) : value_(std::move(text)) {}
  AxisValue(std::string_view text) : value_(std::string(text)) {}
  AxisValue(const char* text) : value_(std::string(text)) {}

  bool is_number() const { return std::holds_alternative<double>(value_); }
  // Throw Error when the value is of the other kind.
  double number() const;
  const std::string& text() const;
  bool operator==(const AxisValue&) const = default;

 private:
  std::variant<double, std::string> value_;
};

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

}  // namespace csbench
