// Small helpers every stage of the manifest shares: quoting input in messages, a compiler's
// log as one line, float text, the size variables and whole-number checks.
#include "harness/manifest/manifest.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cmath>

#include "harness/manifest/stage.hpp"

namespace csbench {
using namespace manifest_detail;

namespace manifest_detail {

std::string Quoted(std::string_view text) {
  std::string shown;
  for (char c : text.substr(0, 80)) {
    const auto u = static_cast<unsigned char>(c);
    shown += (u < 0x20 || u > 0x7e) ? fmt::format("\\x{:02x}", u) : std::string(1, c);
  }
  if (text.size() > 80) shown += "...";
  return "'" + shown + "'";
}

std::string OneLine(std::string_view text) {
  std::string line;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view part = text.substr(start, end - start);
    while (!part.empty() && std::isspace(static_cast<unsigned char>(part.front()))) part.remove_prefix(1);
    while (!part.empty() && std::isspace(static_cast<unsigned char>(part.back()))) part.remove_suffix(1);
    if (!part.empty()) line += (line.empty() ? "" : " | ") + std::string(part);
    start = end + 1;
  }
  return line;
}

std::string FloatText(double x) {
  std::string text = fmt::format("{}", x);
  if (!std::isfinite(x) || text.find('.') != std::string::npos) return text;
  const size_t e = text.find('e');
  return e == std::string::npos ? text + ".0" : text.insert(e, ".0");
}

bool IsNamePart(const std::string& name) {
  if (name.empty() || name.size() > 64) return false;
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.') return false;
  }
  return true;
}

std::string ThirdDimension(const ManifestVariant& variant, const std::string& name) {
  return variant.numeric_defines.contains(name) ? "csbench_" + name : name;
}

std::vector<std::string> SizeVariables(const ManifestVariant& variant) {
  std::vector<std::string> names = {"W",         "H",         "WG_X", "WG_Y", "SUBGROUP_SIZE", "VENDOR_ID",
                                    "DEVICE_ID", ThirdDimension(variant, "D"), ThirdDimension(variant, "WG_Z")};
  for (const auto& [name, value] : variant.numeric_defines) names.push_back(name);
  // A pass's repetition, after the defines (a define named P keeps its name; P is then csbench_P).
  if (variant.is_pass) names.push_back(variant.numeric_defines.contains("P") ? "csbench_P" : "P");
  return names;
}

std::string PathAt(const Manifest& m, uint32_t line) {
  return line > 0 ? fmt::format("{}:{}", m.path.string(), line) : m.path.string();
}

uint64_t WholeNumber(const Manifest& m, double value, double most, std::string_view key, const std::string& text,
                     std::string_view point, std::string_view what, uint32_t line) {
  if (value != std::floor(value) || value < 1 || value > most) {
    throw ManifestError{fmt::format("{}: {}: {} at {} gives {}: expected {}", PathAt(m, line), key, Quoted(text),
                                    point, value, what)};
  }
  return static_cast<uint64_t>(value);
}

}  // namespace manifest_detail

}  // namespace csbench
