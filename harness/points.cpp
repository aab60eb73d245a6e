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

std::string Quoted(std::string_view text) {
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

}  // namespace

std::string_view ToString(Clock clock) { return clock == Clock::kDevice ? "device" : "host"; }

std::string Spelled(const AxisValue& value) {
  if (const auto* text = std::get_if<std::string>(&value)) return *text;
  // fmt writes the shortest form that reads back the same: 512, not 512.0; 0.25 as it is.
  return fmt::format("{}", std::get<double>(value));
}

void Describe(const std::string& name, Description description) {
  for (const Coordinate& c : description.axes) {
    // JSON has no infinity or NaN.
    if (const auto* number = std::get_if<double>(&c.value)) {
      Require(std::isfinite(*number), fmt::format("{}: axis {} is not a finite number", name, c.axis));
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
    axes += Quoted(c.axis) + ": ";
    axes += std::holds_alternative<double>(c.value) ? Spelled(c.value) : Quoted(Spelled(c.value));
  }
  return fmt::format("{{\"family\": {}, \"variant\": {}, \"clock\": {}, \"axes\": {{{}}}}}", Quoted(description.family),
                     Quoted(description.variant), Quoted(ToString(description.clock)), axes);
}

}  // namespace csbench
