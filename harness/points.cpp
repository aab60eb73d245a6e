#include "harness/points.hpp"

#include <fmt/format.h>

#include <cmath>
#include <functional>
#include <map>

#include "harness/error.hpp"

namespace csbench {
namespace {

std::map<std::string, Description, std::less<>>& Descriptions() {
  static std::map<std::string, Description, std::less<>> descriptions;
  return descriptions;
}

}  // namespace

std::string JsonQuoted(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

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

void Describe(const std::string& name, Description description) {
  for (const Coordinate& c : description.axes) {
    // JSON has no infinity or NaN.
    if (c.value.is_number()) {
      Require(std::isfinite(c.value.number()), fmt::format("{}: axis {} is not a finite number", name, c.axis));
    }
  }
  Descriptions().insert_or_assign(name, std::move(description));
}

const Description* Described(std::string_view name) {
  const auto& descriptions = Descriptions();
  auto it = descriptions.find(name);
  return it == descriptions.end() ? nullptr : &it->second;
}

std::string ToJson(const Description& description) {
  std::string axes;
  for (const Coordinate& c : description.axes) {
    if (!axes.empty()) axes += ", ";
    axes += JsonQuoted(c.axis) + ": ";
    axes += c.value.is_number() ? Spelled(c.value) : JsonQuoted(c.value.text());
  }
  return fmt::format("{{\"family\": {}, \"variant\": {}, \"clock\": {}, \"axes\": {{{}}}}}", JsonQuoted(description.family),
                     JsonQuoted(description.variant), JsonQuoted(ToString(description.clock)), axes);
}

}  // namespace csbench
