// Stage 3, evaluate: what a point is made of: its shader source, its variables, its axis
// coordinates, the workgroups a subgroup size gives.
#include "harness/manifest/manifest.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>

#include "harness/manifest/expression.hpp"
#include "harness/family/family.hpp"
#include "harness/manifest/stage.hpp"

namespace csbench {
using namespace manifest_detail;

std::vector<Extent> WorkgroupsAt(const std::vector<std::vector<std::string>>& texts, double subgroup_size) {
  std::vector<Extent> workgroups;
  for (const std::vector<std::string>& dims : texts) {
    // Checked at load at every subgroup size: whole, 1 to 1024.
    std::array<uint32_t, 3> size{1, 1, 1};
    for (size_t k = 0; k < dims.size() && k < 3; ++k) {
      size[k] = static_cast<uint32_t>(Expression(dims[k], {"SUBGROUP_SIZE"}).Evaluate({{"SUBGROUP_SIZE", subgroup_size}}));
    }
    const Extent wg{size[0], size[1], size[2]};
    if (std::find(workgroups.begin(), workgroups.end(), wg) == workgroups.end()) workgroups.push_back(wg);
  }
  return workgroups;
}

std::vector<Extent> WorkgroupsOn(const Manifest& m, double subgroup_size) {
  if (m.workgroup_expressions.empty()) return m.workgroups;
  return WorkgroupsAt(m.workgroup_expressions, subgroup_size);
}

std::vector<Extent> VariantWorkgroupsOn(const ManifestVariant& v, double subgroup_size) {
  if (v.workgroup_expressions.empty()) return v.workgroups;
  if (v.subgroup_sizes.empty()) return WorkgroupsAt(v.workgroup_expressions, subgroup_size);
  std::vector<Extent> all;
  for (uint32_t size : v.subgroup_sizes) {
    for (Extent wg : WorkgroupsAt(v.workgroup_expressions, size)) {
      if (std::find(all.begin(), all.end(), wg) == all.end()) all.push_back(wg);
    }
  }
  return all;
}

bool WorkgroupFitsSize(const ManifestVariant& v, Extent wg, uint32_t size) {
  if (v.workgroup_expressions.empty() || v.subgroup_sizes.empty() || size == 0) return true;
  const std::vector<Extent> at = WorkgroupsAt(v.workgroup_expressions, size);
  return std::find(at.begin(), at.end(), wg) != at.end();
}

std::vector<uint32_t> SubgroupAxis(const Manifest& m) {
  std::vector<uint32_t> sizes;
  for (const ManifestVariant& v : m.variants) {
    for (uint32_t size : v.subgroup_sizes) {
      if (std::find(sizes.begin(), sizes.end(), size) == sizes.end()) sizes.push_back(size);
    }
  }
  return sizes;
}

std::string InitExpressionText(const std::string& text) {
  // rand() -> a variable filled with a fresh draw for each scalar; "rand ( )" too.
  std::string out;
  for (size_t i = 0; i < text.size();) {
    const bool word_start = i == 0 || !(std::isalnum(static_cast<unsigned char>(text[i - 1])) || text[i - 1] == '_');
    if (word_start && text.compare(i, 4, "rand") == 0) {
      size_t j = i + 4;
      while (j < text.size() && text[j] == ' ') ++j;
      if (j < text.size() && text[j] == '(') {
        ++j;
        while (j < text.size() && text[j] == ' ') ++j;
        if (j < text.size() && text[j] == ')') {
          out += "csbench_rand";
          i = j + 1;
          continue;
        }
      }
    }
    out += text[i++];
  }
  return out;
}

ShaderSource SourceOf(const ManifestVariant& v, Extent workgroup, bool optimize) {
  std::vector<std::string> include_dirs = v.include_dirs;
  // csbench's kernels folder last, as manifests' shaders have always been able to include from it.
  include_dirs.push_back(KernelDirectory());
  ShaderSource source{.path = v.source,
                      .language = v.language,
                      .defines = v.defines,
                      .include_dirs = include_dirs,
                      .entry = v.entry,
                      .target = v.target,
                      .optimize = optimize,
                      .label = v.name};
  for (const ManifestPreamble& part : v.preamble) {
    // A compile error inside it names the key, and the file where it is one.
    const std::string name = part.file.empty() ? part.key : fmt::format("{} ({})", part.file.string(), part.key);
    source.preamble.push_back({.name = name, .text = part.text});
  }
  const std::array<uint32_t, 3> sizes{workgroup.x, workgroup.y, workgroup.z};
  for (size_t i = 0; i < v.workgroup_defines.size() && i < 3; ++i) {
    source.defines.push_back({v.workgroup_defines[i], std::to_string(sizes[i])});
  }
  return source;
}

std::map<std::string, double> PointVariables(const ManifestVariant& variant, Extent workgroup, Extent domain,
                                             const DeviceValues& device) {
  std::map<std::string, double> values = variant.numeric_defines;
  values["SUBGROUP_SIZE"] = device.subgroup_size;
  values["VENDOR_ID"] = device.vendor_id;
  values["DEVICE_ID"] = device.device_id;
  values["W"] = domain.x;
  values["H"] = domain.y;
  values["WG_X"] = workgroup.x;
  values["WG_Y"] = workgroup.y;
  values[ThirdDimension(variant, "D")] = domain.z;
  values[ThirdDimension(variant, "WG_Z")] = workgroup.z;
  return values;
}

ManifestVariant AtAxes(const ManifestVariant& v, const std::vector<Coordinate>& values) {
  ManifestVariant at = v;
  for (const Coordinate& c : values) {
    if (at.axes_taken.contains(c.axis)) SetAxis(at, c.axis, c.value);
  }
  for (ManifestVariant& pass : at.passes) pass = AtAxes(pass, values);
  return at;
}

std::vector<Coordinate> AxisCoordinates(const Manifest& m, const std::vector<Coordinate>& point) {
  std::vector<Coordinate> values;
  for (const ManifestAxis& axis : m.axes) {
    for (const Coordinate& c : point) {
      if (c.axis == axis.name) values.push_back(c);
    }
  }
  return values;
}

namespace manifest_detail {

std::vector<std::vector<Coordinate>> AxisCombinations(const Manifest& m) {
  std::vector<Axis> axes;
  for (const ManifestAxis& axis : m.axes) axes.push_back({.name = axis.name, .prefix = axis.name, .values = axis.values});
  return Combinations(axes);
}

}  // namespace manifest_detail

}  // namespace csbench
