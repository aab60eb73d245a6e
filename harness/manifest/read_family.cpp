// Stage 1, read: the [family] table and the keys a variant shares with it (vulkan,
// include_dirs, workgroup defines, subgroup sizes, specialization).
#include "harness/manifest/manifest.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cmath>

#include "harness/manifest/expression.hpp"
#include "harness/manifest/reader.hpp"
#include "harness/manifest/stage.hpp"

namespace csbench {
using namespace manifest_detail;

namespace manifest_detail {

std::optional<std::string> ReadVulkan(const Reader& r, const toml::table& table, std::string_view where) {
  auto text = r.String(table, where, "vulkan", false);
  if (text && !ParseVulkanTarget(*text)) {
    r.Fail(Reader::LineOf(*table.get("vulkan")), fmt::format("{}.vulkan", where),
           fmt::format("{}: expected \"1.1\", \"1.2\" or \"1.3\"", Quoted(*text)));
  }
  return text;
}

std::vector<std::string> ReadIncludeDirs(const Reader& r, const toml::table& table, std::string_view where) {
  const toml::node* node = table.get("include_dirs");
  if (node == nullptr) return {};
  const std::string key = fmt::format("{}.include_dirs", where);
  if (!node->is_array()) r.Fail(Reader::LineOf(*node), key, "expected a list of folders");
  std::vector<std::string> dirs;
  for (const toml::node& item : *node->as_array()) {
    if (!item.is_string() || item.as_string()->get().empty() || item.as_string()->get().find('\0') != std::string::npos) {
      r.Fail(Reader::LineOf(item), key, "expected a folder's path");
    }
    dirs.push_back((r.path().parent_path() / item.as_string()->get()).string());
  }
  return dirs;
}

std::vector<std::string> ReadWorkgroupDefines(const Reader& r, const toml::table& table, std::string_view where) {
  const toml::node* node = table.get("workgroup_defines");
  if (node == nullptr) return {};
  const std::string key = fmt::format("{}.workgroup_defines", where);
  if (!node->is_array() || node->as_array()->empty() || node->as_array()->size() > 3) {
    r.Fail(Reader::LineOf(*node), key, "expected one to three macro names, x first: [\"WG_X\", \"WG_Y\"]");
  }
  std::vector<std::string> names;
  for (const toml::node& item : *node->as_array()) {
    if (!item.is_string() || !IsVariableName(item.as_string()->get())) {
      r.Fail(Reader::LineOf(item), key, "expected a macro name of letters, digits and '_' that starts with a letter");
    }
    if (std::find(names.begin(), names.end(), item.as_string()->get()) != names.end()) {
      r.Fail(Reader::LineOf(item), key, fmt::format("{} is named twice", Quoted(item.as_string()->get())));
    }
    names.push_back(item.as_string()->get());
  }
  return names;
}

// Workgroups that name SUBGROUP_SIZE ([family]'s or a variant's `workgroups`): each entry a
// width written as an expression of it (`"4 * SUBGROUP_SIZE"`), a list of one to three dimensions
// (`["SUBGROUP_SIZE", "4"]`, each an expression of it or a number), or a size as numbers ("64",
// "8x8", 64). Each dimension must be a whole number from 1 to 1024 at every subgroup size from 1
// to 128. Empty where no entry names SUBGROUP_SIZE and none is a list: sizes as numbers.
std::vector<std::vector<std::string>> ReadWorkgroupExpressions(const Reader& r, const toml::table& table,
                                                                std::string_view where) {
  const toml::node* node = table.get("workgroups");
  if (node == nullptr || !node->is_array()) return {};
  const std::string key = fmt::format("{}.workgroups", where);
  const toml::array& items = *node->as_array();
  if (std::none_of(items.begin(), items.end(), [](const toml::node& item) {
        return item.is_array() ||
               (item.is_string() && item.as_string()->get().find("SUBGROUP_SIZE") != std::string::npos);
      })) {
    return {};
  }
  std::vector<std::vector<std::string>> all;
  for (const toml::node& item : items) {
    std::vector<std::string> dims;
    if (item.is_array()) {
      const toml::array& parts = *item.as_array();
      if (parts.empty() || parts.size() > 3) {
        r.Fail(Reader::LineOf(item), key, "a workgroup as a list has one to three dimensions: [\"SUBGROUP_SIZE\", \"4\"]");
      }
      for (const toml::node& part : parts) dims.push_back(*r.ExpressionText(&part, key));
    } else if (item.is_string() && item.as_string()->get().find("SUBGROUP_SIZE") != std::string::npos) {
      dims.push_back(*r.ExpressionText(&item, key));
    } else {
      const Extent e = r.ParseExtent(item, key, "workgroup");
      dims = {std::to_string(e.x), std::to_string(e.y)};
      if (e.z != 1) dims.push_back(std::to_string(e.z));
    }
    for (const std::string& text : dims) {
      r.CheckExpression(text, {"SUBGROUP_SIZE"}, Reader::LineOf(item), key);
      for (double size = 1; size <= 128; size *= 2) {
        double value = 0;
        try {
          value = Expression(text, {"SUBGROUP_SIZE"}).Evaluate({{"SUBGROUP_SIZE", size}});
        } catch (const ExpressionError& e) {
          // No value at all (a division by zero): as unusable as a wrong one, and said the same way.
          r.Fail(Reader::LineOf(item), key, fmt::format("{} at SUBGROUP_SIZE {}: {}", Quoted(text), size, e.message));
        }
        if (value != std::floor(value) || value < 1 || value > 1024) {
          r.Fail(Reader::LineOf(item), key,
                 fmt::format("{} gives {} at SUBGROUP_SIZE {}: each dimension of a workgroup expression must be a "
                             "whole number from 1 to 1024 at every subgroup size from 1 to 128",
                             Quoted(text), value, size));
        }
      }
    }
    if (std::find(all.begin(), all.end(), dims) != all.end()) {
      r.Fail(Reader::LineOf(item), key, fmt::format("workgroup {} is listed twice", Quoted(dims.front())));
    }
    all.push_back(std::move(dims));
  }
  return all;
}


std::vector<uint32_t> ReadSubgroupSizes(const Reader& r, const toml::table& table, std::string_view where) {
  const toml::node* node = table.get("subgroup_sizes");
  if (node == nullptr) return {};
  const std::string key = fmt::format("{}.subgroup_sizes", where);
  if (!node->is_array() || node->as_array()->empty() || node->as_array()->size() > 8) {
    r.Fail(Reader::LineOf(*node), key, "expected one to eight subgroup sizes, e.g. [\"16\", \"32\", \"64\"]");
  }
  std::vector<uint32_t> sizes;
  for (const toml::node& item : *node->as_array()) {
    int64_t value = -1;
    if (item.is_integer()) {
      value = item.as_integer()->get();
    } else if (item.is_string()) {
      const std::string& text = item.as_string()->get();
      if (!text.empty() && text.size() <= 3 && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        value = std::stoll(text);
      }
    }
    if (value < 1 || value > 128 || (value & (value - 1)) != 0) {
      r.Fail(Reader::LineOf(item), key, "expected a subgroup size: a power of two from 1 to 128");
    }
    if (std::find(sizes.begin(), sizes.end(), static_cast<uint32_t>(value)) != sizes.end()) {
      r.Fail(Reader::LineOf(item), key, fmt::format("{} is listed twice", value));
    }
    sizes.push_back(static_cast<uint32_t>(value));
  }
  return sizes;
}

std::map<std::string, std::string> ReadSpecialization(const Reader& r, const toml::node& node, std::string_view where) {
  if (!node.is_table()) r.Fail(Reader::LineOf(node), where, "expected a table of constant_id or name = value");
  std::map<std::string, std::string> values;
  for (auto&& [key, value] : *node.as_table()) {
    const std::string name(key.str());
    const std::string full = fmt::format("{}.{}", where, Quoted(name));
    const bool id = !name.empty() && name.size() <= 10 && name.find_first_not_of("0123456789") == std::string::npos;
    if (!id && !IsVariableName(name)) {
      r.Fail(Reader::LineOf(value), full, "expected a constant_id (digits) or a constant's name from the shader");
    }
    if (id && std::stoull(name) > 0xffffffffull) r.Fail(Reader::LineOf(value), full, "a constant_id fits 32 bits");
    if (value.is_boolean()) {
      values[name] = value.as_boolean()->get() ? "true" : "false";
    } else {
      // Checked over the variant's variables once its defines are read.
      values[name] = *r.ExpressionText(&value, full);
    }
  }
  return values;
}

void ReadFamily(const Reader& r, const toml::table& family, Manifest& m) {
  r.OnlyKeys(family, "[family]",
             {"name", "domains", "workgroups", "elements", "bytes", "test_domains", "read_only", "description",
              "arithmetic", "arithmetic_unit", "arithmetic_lower_bound", "workgroup_defines", "subgroup_sizes", "vulkan",
              "include_dirs", "preamble"});
  m.name = *r.String(family, "[family]", "name", true);
  if (!IsNamePart(m.name)) {
    r.Fail(Reader::LineOf(*family.get("name")), "[family].name",
           fmt::format("{}: expected 1 to 64 letters, digits, '_', '-' or '.' (it begins every benchmark's name)",
                       Quoted(m.name)));
  }
  m.domains = r.Extents(family, "[family]", "domains", "domain", true);
  // Optional for a shader whose local size is a literal: the loader takes it from the shader.
  m.workgroup_expressions = ReadWorkgroupExpressions(r, family, "[family]");
  if (m.workgroup_expressions.empty()) {
    m.workgroups = r.Extents(family, "[family]", "workgroups", "workgroup", false);
  } else {
    m.workgroups = WorkgroupsAt(m.workgroup_expressions, DeviceValues{}.subgroup_size);
  }
  m.test_domains = r.Extents(family, "[family]", "test_domains", "domain", false);
  if (auto e = r.ExpressionText(family.get("elements"), "[family].elements")) m.elements = *e;
  auto bytes = r.ExpressionText(family.get("bytes"), "[family].bytes");
  if (!bytes) {
    r.Fail(Reader::LineOf(family), "[family].bytes",
           "missing: expected the compulsory bytes one dispatch moves (e.g. \"12 * W * H\"), for GB/s and roofline%");
  }
  m.bytes = *bytes;
  m.read_only = r.Bool(family, "[family]", "read_only");
  m.arithmetic = r.ExpressionText(family.get("arithmetic"), "[family].arithmetic").value_or("");
  if (auto unit = r.String(family, "[family]", "arithmetic_unit", false)) {
    if (*unit != "FLOP" && *unit != "FLOP16" && *unit != "OP") {
      r.Fail(Reader::LineOf(*family.get("arithmetic_unit")), "[family].arithmetic_unit",
             fmt::format("{}: expected \"FLOP\" (32-bit floats), \"FLOP16\" (16-bit floats) or \"OP\" (32-bit "
                         "integers)",
                         Quoted(*unit)));
    }
    m.arithmetic_unit = *unit;
  }
  m.arithmetic_lower_bound = r.Bool(family, "[family]", "arithmetic_lower_bound");
  r.String(family, "[family]", "description", false);
  m.workgroup_defines = ReadWorkgroupDefines(r, family, "[family]");
  m.subgroup_sizes = ReadSubgroupSizes(r, family, "[family]");
  if (auto vulkan = ReadVulkan(r, family, "[family]")) m.vulkan = *vulkan;
  m.include_dirs = ReadIncludeDirs(r, family, "[family]");
  if (auto preamble = ReadPreamble(r, family, "[family]")) m.preamble.push_back(std::move(*preamble));
}

}  // namespace manifest_detail

}  // namespace csbench
