#include "harness/measure/points.hpp"

#include <fmt/format.h>

#include "harness/base/error.hpp"

namespace csbench {

std::string_view ToString(Clock clock) { return clock == Clock::kDevice ? "device" : "host"; }

double AxisValue::number() const {
  if (!is_number()) throw Error(fmt::format("the axis value {} is a word, not a number", std::get<std::string>(value_)));
  return std::get<double>(value_);
}

const std::string& AxisValue::text() const {
  if (is_number()) throw Error(fmt::format("the axis value {} is a number, not a word", std::get<double>(value_)));
  return std::get<std::string>(value_);
}

std::string Spelled(const AxisValue& value) {
  // fmt writes the shortest form that reads back the same: 512, not 512.0; 0.25 as it is.
  return value.is_number() ? fmt::format("{}", value.number()) : value.text();
}

}  // namespace csbench
