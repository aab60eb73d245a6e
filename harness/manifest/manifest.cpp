#include "harness/manifest/manifest.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <cstring>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

#include "harness/base/half.hpp"
#include "harness/base/provenance.hpp"
#include "harness/family/family.hpp"
#include "harness/manifest/expression.hpp"
#include "harness/vulkan/interface.hpp"

namespace csbench {
namespace {

// Every std430 scalar and vector GLSL has for a runtime array, by the names of
// GL_EXT_shader_explicit_arithmetic_types. Built once: clang before 16 cannot build a std::string
// in a constant expression.
const std::vector<ElementType>& ElementTypes() {
  static const std::vector<ElementType> types = [] {
    std::vector<ElementType> all;
    struct Family {
      const char* scalar;  // the scalar's name
      const char* vector;  // the vectors' prefix
      Scalar kind;
      uint32_t bytes;
    };
    for (const Family& f : {Family{"float", "vec", Scalar::kFloat, 4}, Family{"int", "ivec", Scalar::kInt, 4},
                            Family{"uint", "uvec", Scalar::kUint, 4}, Family{"float16_t", "f16vec", Scalar::kFloat, 2},
                            Family{"int16_t", "i16vec", Scalar::kInt, 2}, Family{"uint16_t", "u16vec", Scalar::kUint, 2},
                            Family{"int8_t", "i8vec", Scalar::kInt, 1}, Family{"uint8_t", "u8vec", Scalar::kUint, 1},
                            Family{"double", "dvec", Scalar::kFloat, 8}, Family{"int64_t", "i64vec", Scalar::kInt, 8},
                            Family{"uint64_t", "u64vec", Scalar::kUint, 8}}) {
      all.push_back({f.scalar, f.kind, 1, f.bytes});
      for (uint32_t n = 2; n <= 4; ++n) all.push_back({fmt::format("{}{}", f.vector, n), f.kind, n, f.bytes});
    }
    all.push_back({.glsl = "struct", .is_struct = true});
    return all;
  }();
  return types;
}

// Names a check expression or a size expression may use besides buffers and defines.
const std::set<std::string> kReservedNames = {"W", "H", "WG_X", "WG_Y", "SUBGROUP_SIZE", "VENDOR_ID", "DEVICE_ID", "i"};

// GLSL's image format qualifiers csbench makes images of, with their Vulkan formats (VkFormat's
// numbers: this layer takes no Vulkan header).
const std::vector<ImageFormat> kImageFormats = [] {
  using K = ImageFormat::Kind;
  return std::vector<ImageFormat>{
      {"r32f", 100, 1, 4, K::kFloat},       {"rg32f", 103, 2, 4, K::kFloat},     {"rgba32f", 109, 4, 4, K::kFloat},
      {"r16f", 76, 1, 2, K::kFloat},        {"rg16f", 83, 2, 2, K::kFloat},      {"rgba16f", 97, 4, 2, K::kFloat},
      {"rgba8", 37, 4, 1, K::kUnorm},       {"rgba8_snorm", 38, 4, 1, K::kSnorm}, {"rg8", 16, 2, 1, K::kUnorm},
      {"r8", 9, 1, 1, K::kUnorm},           {"rg8_snorm", 17, 2, 1, K::kSnorm},  {"r8_snorm", 10, 1, 1, K::kSnorm},
      {"rgba16", 91, 4, 2, K::kUnorm},      {"rg16", 77, 2, 2, K::kUnorm},       {"r16", 70, 1, 2, K::kUnorm},
      {"rgba16_snorm", 92, 4, 2, K::kSnorm}, {"rg16_snorm", 78, 2, 2, K::kSnorm}, {"r16_snorm", 71, 1, 2, K::kSnorm},
      {"r32ui", 98, 1, 4, K::kUint},        {"rg32ui", 101, 2, 4, K::kUint},     {"rgba32ui", 107, 4, 4, K::kUint},
      {"r32i", 99, 1, 4, K::kInt},          {"rg32i", 102, 2, 4, K::kInt},       {"rgba32i", 108, 4, 4, K::kInt},
      {"r16ui", 74, 1, 2, K::kUint},        {"rg16ui", 81, 2, 2, K::kUint},      {"rgba16ui", 95, 4, 2, K::kUint},
      {"r16i", 75, 1, 2, K::kInt},          {"rg16i", 82, 2, 2, K::kInt},        {"rgba16i", 96, 4, 2, K::kInt},
      {"r8ui", 13, 1, 1, K::kUint},         {"rg8ui", 20, 2, 1, K::kUint},       {"rgba8ui", 41, 4, 1, K::kUint},
      {"r8i", 14, 1, 1, K::kInt},           {"rg8i", 21, 2, 1, K::kInt},         {"rgba8i", 42, 4, 1, K::kInt},
  };
}();

// A buffer larger than this is no device's (and its bytes stay exact in a double).
constexpr double kMaxBufferBytes = 0x1p48;
// Dispatches one iteration of a sequence may make (its passes' repetitions together).
constexpr uint32_t kMaxDispatches = 4096;
// Points a manifest may declare: enough for any study, few enough that loading stays instant.
constexpr size_t kMaxPoints = 100000;
// [axes]: how many, and how many values each.
constexpr size_t kMaxAxes = 16;
constexpr size_t kMaxAxisValues = 256;

std::string Quoted(std::string_view text) {
  std::string shown;
  for (char c : text.substr(0, 80)) {
    const auto u = static_cast<unsigned char>(c);
    shown += (u < 0x20 || u > 0x7e) ? fmt::format("\\x{:02x}", u) : std::string(1, c);
  }
  if (text.size() > 80) shown += "...";
  return "'" + shown + "'";
}

// A compiler's log as one line (a manifest's error is one line): its lines joined by " | ".
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

// A TOML float as text that still reads as a float: with a '.', so that 2.0 stays a float push
// constant (a '.' marks one) and a float macro in GLSL, not the integer 2; "1e-06" -> "1.0e-06".
std::string FloatText(double x) {
  std::string text = fmt::format("{}", x);
  if (!std::isfinite(x) || text.find('.') != std::string::npos) return text;
  const size_t e = text.find('e');
  return e == std::string::npos ? text + ".0" : text.insert(e, ".0");
}

// Reads one manifest's text: every failure is a ManifestError naming the file, the line and the key.
class Reader {
 public:
  explicit Reader(const std::filesystem::path& path) : path_(path) {}

  [[noreturn]] void Fail(uint32_t line, std::string_view key, std::string_view what) const {
    if (line > 0) throw ManifestError{fmt::format("{}:{}: {}: {}", path_.string(), line, key, what)};
    throw ManifestError{fmt::format("{}: {}: {}", path_.string(), key, what)};
  }

  static uint32_t LineOf(const toml::node& node) { return node.source().begin.line; }

  // Every key of `table` must be one of `known`.
  void OnlyKeys(const toml::table& table, std::string_view where, std::initializer_list<std::string_view> known) const {
    for (auto&& [key, value] : table) {
      if (std::find(known.begin(), known.end(), key.str()) != known.end()) continue;
      std::string list;
      for (std::string_view k : known) list += (list.empty() ? "" : ", ") + std::string(k);
      Fail(LineOf(value), fmt::format("{}.{}", where, Quoted(key.str())),
           fmt::format("unknown key (known: {})", list));
    }
  }

  const toml::table& Table(const toml::table& root, std::string_view key, bool required) const {
    static const toml::table kEmpty;
    const toml::node* node = root.get(key);
    if (node == nullptr) {
      if (required) Fail(0, fmt::format("[{}]", key), "missing: the manifest needs this table");
      return kEmpty;
    }
    if (!node->is_table()) Fail(LineOf(*node), fmt::format("[{}]", key), "expected a table ([" + std::string(key) + "])");
    return *node->as_table();
  }

  const toml::array& ArrayOfTables(const toml::table& root, std::string_view key) const {
    static const toml::array kEmpty;
    const toml::node* node = root.get(key);
    if (node == nullptr) return kEmpty;
    if (!node->is_array_of_tables()) {
      Fail(LineOf(*node), fmt::format("[[{}]]", key), "expected an array of tables ([[" + std::string(key) + "]])");
    }
    return *node->as_array();
  }

  std::optional<std::string> String(const toml::table& table, std::string_view where, std::string_view key,
                                    bool required) const {
    const toml::node* node = table.get(key);
    if (node == nullptr) {
      if (required) Fail(LineOf(table), fmt::format("{}.{}", where, key), "missing: expected a string");
      return std::nullopt;
    }
    if (!node->is_string()) Fail(LineOf(*node), fmt::format("{}.{}", where, key), "expected a string");
    return node->as_string()->get();
  }

  // An expression: a string, or a plain number.
  std::optional<std::string> ExpressionText(const toml::node* node, std::string_view key) const {
    if (node == nullptr) return std::nullopt;
    if (node->is_string()) return node->as_string()->get();
    if (node->is_integer()) return std::to_string(node->as_integer()->get());
    if (node->is_floating_point()) return FloatText(node->as_floating_point()->get());
    Fail(LineOf(*node), key, "expected an expression (a string such as \"W * H\", or a number)");
  }

  bool Bool(const toml::table& table, std::string_view where, std::string_view key) const {
    const toml::node* node = table.get(key);
    if (node == nullptr) return false;
    if (!node->is_boolean()) Fail(LineOf(*node), fmt::format("{}.{}", where, key), "expected true or false");
    return node->as_boolean()->get();
  }

  // "N" (N x 1) or "WxH", each 1 to 2^32 - 1; a plain integer is "N".
  Extent ParseExtent(const toml::node& node, std::string_view key, std::string_view what) const {
    std::string text;
    if (node.is_integer()) {
      text = std::to_string(node.as_integer()->get());
    } else if (node.is_string()) {
      text = node.as_string()->get();
    } else {
      Fail(LineOf(node), key, fmt::format("expected a {} as \"N\" or \"WxH\"", what));
    }
    std::vector<uint64_t> parts;
    size_t start = 0;
    while (true) {
      size_t end = text.find('x', start);
      std::string part = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
      if (part.empty() || part.size() > 10 || part.find_first_not_of("0123456789") != std::string::npos) {
        Fail(LineOf(node), key, fmt::format("{}: expected a {} as \"N\" or \"WxH\" (whole numbers from 1)",
                                            Quoted(text), what));
      }
      parts.push_back(std::stoull(part));
      if (end == std::string::npos) break;
      start = end + 1;
    }
    if (parts.size() > 3) {
      Fail(LineOf(node), key, fmt::format("{}: a manifest's {} has one to three dimensions (\"N\", \"WxH\" or \"WxHxD\")",
                                          Quoted(text), what));
    }
    for (uint64_t p : parts) {
      if (p == 0 || p > 0xffffffffull) {
        Fail(LineOf(node), key, fmt::format("{}: each size must be from 1 to 4294967295", Quoted(text)));
      }
    }
    return {static_cast<uint32_t>(parts[0]), parts.size() > 1 ? static_cast<uint32_t>(parts[1]) : 1u,
            parts.size() > 2 ? static_cast<uint32_t>(parts[2]) : 1u};
  }

  std::vector<Extent> Extents(const toml::table& table, std::string_view where, std::string_view key,
                              std::string_view what, bool required) const {
    const std::string full = fmt::format("{}.{}", where, key);
    const toml::node* node = table.get(key);
    if (node == nullptr) {
      if (required) Fail(LineOf(table), full, fmt::format("missing: expected a list of {}s, e.g. [\"1024\", \"64x64\"]", what));
      return {};
    }
    if (!node->is_array() || node->as_array()->empty()) {
      Fail(LineOf(*node), full, fmt::format("expected a non-empty list of {}s, e.g. [\"1024\", \"64x64\"]", what));
    }
    std::vector<Extent> extents;
    for (const toml::node& item : *node->as_array()) {
      Extent e = ParseExtent(item, full, what);
      if (std::find(extents.begin(), extents.end(), e) != extents.end()) {
        Fail(LineOf(item), full, fmt::format("{} {} is listed twice", what, Sized("", e)));
      }
      extents.push_back(e);
    }
    return extents;
  }

  // Parses `text` as an expression over `variables`, failing with the key's name.
  void CheckExpression(const std::string& text, const std::vector<std::string>& variables, uint32_t line,
                       std::string_view key, const std::vector<std::string>& functions = {}) const {
    try {
      Expression(text, variables, functions);
    } catch (const ExpressionError& e) {
      std::string names;
      for (const std::string& v : variables) names += (names.empty() ? "" : ", ") + v;
      Fail(line, key, fmt::format("{}: {} (variables: {})", Quoted(text), e.message, names));
    }
  }

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

bool IsNamePart(const std::string& name) {
  if (name.empty() || name.size() > 64) return false;
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.') return false;
  }
  return true;
}

// D and WG_Z, the third dimension's, came after the numeric defines: a define of either name keeps
// it (the variable is then under another name).
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

// `vulkan = "1.2"`: the Vulkan version a shader is compiled for.
std::optional<std::string> ReadVulkan(const Reader& r, const toml::table& table, std::string_view where) {
  auto text = r.String(table, where, "vulkan", false);
  if (text && !ParseVulkanTarget(*text)) {
    r.Fail(Reader::LineOf(*table.get("vulkan")), fmt::format("{}.vulkan", where),
           fmt::format("{}: expected \"1.1\", \"1.2\" or \"1.3\"", Quoted(*text)));
  }
  return text;
}

// `include_dirs = ["include"]`: folders `#include` searches, relative to the manifest's.
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

// `workgroup_defines = ["WG_X", "WG_Y"]`: one to three macro names, x first.
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

// [family] workgroups that name SUBGROUP_SIZE: every entry an expression of it alone (a width; its
// value a whole number from 1 to 1024 at every subgroup size from 1 to 128). Empty where the list
// is of sizes as numbers.
std::vector<std::string> ReadWorkgroupExpressions(const Reader& r, const toml::table& family) {
  const toml::node* node = family.get("workgroups");
  if (node == nullptr || !node->is_array()) return {};
  const toml::array& items = *node->as_array();
  if (std::none_of(items.begin(), items.end(), [](const toml::node& item) {
        return item.is_string() && item.as_string()->get().find("SUBGROUP_SIZE") != std::string::npos;
      })) {
    return {};
  }
  std::vector<std::string> texts;
  for (const toml::node& item : items) {
    auto text = r.ExpressionText(&item, "[family].workgroups");
    r.CheckExpression(*text, {"SUBGROUP_SIZE"}, Reader::LineOf(item), "[family].workgroups");
    for (double size = 1; size <= 128; size *= 2) {
      const double width = Expression(*text, {"SUBGROUP_SIZE"}).Evaluate({{"SUBGROUP_SIZE", size}});
      if (width != std::floor(width) || width < 1 || width > 1024) {
        r.Fail(Reader::LineOf(item), "[family].workgroups",
               fmt::format("{} gives {} at SUBGROUP_SIZE {}: a workgroup expression is the width, a whole number "
                           "from 1 to 1024 at every subgroup size from 1 to 128",
                           Quoted(*text), width, size));
      }
    }
    texts.push_back(*text);
  }
  return texts;
}

// `subgroup_sizes = [16, 32, 64]` (numbers, or their text): powers of two from 1 to 128, no repeats.
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

// A [specialization] table: constant_id (digits) or name = an expression, or true/false.
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
              "include_dirs"});
  m.name = *r.String(family, "[family]", "name", true);
  if (!IsNamePart(m.name)) {
    r.Fail(Reader::LineOf(*family.get("name")), "[family].name",
           fmt::format("{}: expected 1 to 64 letters, digits, '_', '-' or '.' (it begins every benchmark's name)",
                       Quoted(m.name)));
  }
  m.domains = r.Extents(family, "[family]", "domains", "domain", true);
  // Optional for a shader whose local size is a literal: the loader takes it from the shader.
  m.workgroup_expressions = ReadWorkgroupExpressions(r, family);
  if (m.workgroup_expressions.empty()) {
    m.workgroups = r.Extents(family, "[family]", "workgroups", "workgroup", false);
  } else {
    m.workgroups = WorkgroupsOn(m, DeviceValues{}.subgroup_size);
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
}

// Why `value` cannot initialise a buffer of `type`, if it cannot: an integer type takes whole numbers
// that fit its width, a 16-bit float numbers up to 65504.
std::optional<std::string> InitValueProblem(const ElementType& type, double value) {
  const int bits = static_cast<int>(8 * type.scalar_bytes);
  const double least = type.scalar == Scalar::kInt ? -std::ldexp(1.0, bits - 1) : 0;
  const double most = type.scalar == Scalar::kInt ? std::ldexp(1.0, bits - 1) - 1 : std::ldexp(1.0, bits) - 1;
  if (type.scalar != Scalar::kFloat && (value != std::floor(value) || value < least || value > most) &&
      // A 32-bit buffer took any whole number of 32 bits, signed or not, before types had widths.
      !(bits == 32 && value == std::floor(value) && value >= -2147483648.0 && value <= 4294967295.0)) {
    return fmt::format("{}: an {} buffer takes a whole number that fits {} bits", value, type.glsl, bits);
  }
  if (type.scalar == Scalar::kFloat && type.scalar_bytes == 2 && std::abs(value) > 65504) {
    return fmt::format("{}: beyond a 16-bit float", value);
  }
  if (type.scalar == Scalar::kFloat && type.scalar_bytes == 4 && std::abs(value) > 3.4028234663852886e38) {
    return fmt::format("{}: beyond a 32-bit float", value);
  }
  return std::nullopt;
}

// A buffer's `init` (or a struct member's): "random", "zero", "iota", a number or an expression.
// A number is checked against `type` where it is known (a struct member's once the shader is read).
ManifestBuffer::MemberInit ReadInit(const Reader& r, const toml::node& init, const std::string& where,
                                    const ElementType* type) {
  ManifestBuffer::MemberInit b;
  b.line = Reader::LineOf(init);
  if (init.is_integer() || init.is_floating_point()) {
    b.init = ManifestBuffer::Init::kValue;
    b.value = init.is_integer() ? static_cast<double>(init.as_integer()->get()) : init.as_floating_point()->get();
    if (!std::isfinite(b.value)) r.Fail(b.line, where, "expected a finite number");
    if (type != nullptr) {
      if (auto problem = InitValueProblem(*type, b.value)) r.Fail(b.line, where, *problem);
    }
  } else if (init.is_string() && init.as_string()->get() == "random") {
    b.init = ManifestBuffer::Init::kRandom;
  } else if (init.is_string() && init.as_string()->get() == "zero") {
    b.init = ManifestBuffer::Init::kZero;
  } else if (init.is_string() && init.as_string()->get() == "iota") {
    b.init = ManifestBuffer::Init::kIota;
  } else if (init.is_string()) {
    b.init = ManifestBuffer::Init::kExpression;
    b.expression = init.as_string()->get();
    r.CheckExpression(InitExpressionText(b.expression), InitVariables(), b.line, where);
  } else {
    r.Fail(b.line, where,
           type != nullptr && init.is_table()
               ? "a table of member = init is for type = \"struct\" buffers"
               : "expected \"random\", \"zero\", \"iota\", a number or an expression of i, c and rand()"
                 " (a struct buffer: or a table by member)");
  }
  return b;
}

// A resource's slots: `bindings = [[set, binding], ...]`, or `binding` (and `set`, default 0).
std::vector<SlotPlace> ReadSlots(const Reader& r, const toml::table& t, const std::string& where, uint32_t line) {
  std::vector<SlotPlace> slots;
  if (const toml::node* list = t.get("bindings")) {
    if (t.get("binding") != nullptr || t.get("set") != nullptr) {
      r.Fail(Reader::LineOf(*list), where + ".bindings", "give bindings or binding (and set), not both");
    }
    if (!list->is_array() || list->as_array()->empty() || list->as_array()->size() > 64) {
      r.Fail(Reader::LineOf(*list), where + ".bindings", "expected a list of [set, binding] pairs, e.g. [[0, 0], [1, 0]]");
    }
    for (const toml::node& pair : *list->as_array()) {
      const toml::array* two = pair.as_array();
      auto number = [&](size_t k, int64_t most) {
        const toml::node* n = two->get(k);
        return n != nullptr && n->is_integer() && n->as_integer()->get() >= 0 && n->as_integer()->get() <= most;
      };
      if (two == nullptr || two->size() != 2 || !number(0, 31) || !number(1, 1023)) {
        r.Fail(Reader::LineOf(pair), where + ".bindings",
               "expected [set, binding] pairs: a set from 0 to 31 and a binding from 0 to 1023");
      }
      const SlotPlace slot{static_cast<uint32_t>(two->get(0)->as_integer()->get()),
                           static_cast<uint32_t>(two->get(1)->as_integer()->get())};
      if (std::find(slots.begin(), slots.end(), slot) != slots.end()) {
        r.Fail(Reader::LineOf(pair), where + ".bindings",
               fmt::format("set {} binding {} is listed twice", slot.set, slot.binding));
      }
      slots.push_back(slot);
    }
    return slots;
  }
  const toml::node* binding = t.get("binding");
  if (binding == nullptr || !binding->is_integer()) {
    r.Fail(line, where + ".binding", "expected an integer binding (or bindings = [[set, binding], ...])");
  }
  const int64_t value = binding->as_integer()->get();
  if (value < 0 || value > 1023) r.Fail(line, where + ".binding", fmt::format("{}: expected 0 to 1023", value));
  SlotPlace slot{0, static_cast<uint32_t>(value)};
  if (const toml::node* set = t.get("set")) {
    if (!set->is_integer() || set->as_integer()->get() < 0 || set->as_integer()->get() > 31) {
      r.Fail(Reader::LineOf(*set), where + ".set", "expected a descriptor set from 0 to 31");
    }
    slot.set = static_cast<uint32_t>(set->as_integer()->get());
  }
  return {slot};
}

void ReadBuffers(const Reader& r, const toml::array& buffers, Manifest& m) {
  std::set<std::string> names;
  std::set<uint64_t> bindings;
  for (const toml::node& node : buffers) {
    const toml::table& t = *node.as_table();
    const uint32_t line = Reader::LineOf(t);
    r.OnlyKeys(t, "[[buffer]]", {"name", "binding", "set", "bindings", "type", "count", "init", "output", "restore"});
    ManifestBuffer b;
    b.line = line;
    b.name = *r.String(t, "[[buffer]]", "name", true);
    const std::string where = fmt::format("[[buffer]] {}", Quoted(b.name));
    if (!IsVariableName(b.name) || kReservedNames.contains(b.name)) {
      r.Fail(line, where + ".name",
             "expected a name of letters, digits and '_' that starts with a letter and is not W, H, WG_X, WG_Y, SUBGROUP_SIZE, VENDOR_ID, DEVICE_ID or i "
             "(check expressions use it as a variable)");
    }
    if (!names.insert(b.name).second) r.Fail(line, where + ".name", "two buffers have this name");
    b.slots = ReadSlots(r, t, where, line);
    b.set = b.slots.front().set;
    b.binding = b.slots.front().binding;
    for (const SlotPlace& slot : b.slots) {
      if (!bindings.insert(uint64_t{slot.set} << 32 | slot.binding).second) {
        r.Fail(line, where + ".binding", fmt::format("set {} binding {} is given to two buffers", slot.set, slot.binding));
      }
    }
    const std::string type = *r.String(t, where, "type", true);
    const ElementType* element = FindElementType(type);
    if (element == nullptr) {
      r.Fail(line, where + ".type",
             fmt::format("{}: expected a std430 element type: a scalar (float, int, uint, float16_t, int8_t, "
                         "uint8_t, int16_t, uint16_t, int64_t, uint64_t, double), a vector of 2 to 4 of one "
                         "(vec4, ivec2, uvec3, f16vec4, i8vec4, u16vec2, dvec2, ...) or \"struct\"",
                         Quoted(type)));
    }
    b.type = *element;
    auto count = r.ExpressionText(t.get("count"), where + ".count");
    if (!count) r.Fail(line, where + ".count", "missing: expected the number of elements (e.g. \"W * H\")");
    b.count = *count;
    b.output = r.Bool(t, where, "output");
    if (const toml::node* init = t.get("init")) {
      b.init_given = true;
      if (init->is_table() && b.type.is_struct) {
        for (auto&& [key, value] : *init->as_table()) {
          const std::string member(key.str());
          // The member's type is the shader's: numbers are checked against it once it is read.
          b.member_inits[member] = ReadInit(r, value, fmt::format("{}.init.{}", where, member), nullptr);
        }
      } else {
        const ManifestBuffer::MemberInit whole =
            ReadInit(r, *init, where + ".init", b.type.is_struct ? nullptr : &b.type);
        b.init = whole.init;
        b.value = whole.value;
        b.init_expression = whole.expression;
      }
    }
    b.restore = r.Bool(t, where, "restore");
    if (b.restore && !(b.output && b.init_given)) {
      r.Fail(Reader::LineOf(*t.get("restore")), where + ".restore",
             "restore copies an output's initial contents back before each timed dispatch: it needs output = true "
             "and an init");
    }
    m.buffers.push_back(b);
  }
  // The order the pipeline's descriptors and dynamic offsets take. Bindings need not be 0..N-1:
  // they must be the shader's, which the loader checks against its reflection.
  std::sort(m.buffers.begin(), m.buffers.end(),
            [](const auto& a, const auto& b) { return std::pair(a.set, a.binding) < std::pair(b.set, b.binding); });
}

// What a benchmark writes: some buffer or image is an output, or a resource a pass swaps is checked.
void RequireSomethingChecked(const Reader& r, const Manifest& m) {
  if (m.buffers.empty() && m.images.empty()) {
    r.Fail(0, "[[buffer]]", "missing: the manifest declares no buffer and no image");
  }
  const bool output = std::any_of(m.buffers.begin(), m.buffers.end(), [](const auto& b) { return b.output; }) ||
                      std::any_of(m.images.begin(), m.images.end(), [](const auto& i) { return i.output; });
  const bool checked = !m.require.empty() ||
                       std::any_of(m.variants.begin(), m.variants.end(), [](const auto& v) { return !v.check.empty(); });
  if (!output && !checked) {
    r.Fail(0, "[[buffer]].output", "no buffer is an output (nor any image): a benchmark must have an output to check");
  }
}

// The names a resource of a family with an image output may not take: x, y and c are the texel's
// coordinates and channel in its checks.
bool ImageCoordinateName(const std::string& name) { return name == "x" || name == "y" || name == "z" || name == "c"; }

// One of `choices` under `key` of `t` (or `fallback` where it is not given).
std::string ReadChoice(const Reader& r, const toml::table& t, const std::string& where, std::string_view key,
                       std::initializer_list<std::string_view> choices, std::string_view fallback) {
  const std::optional<std::string> given = r.String(t, where, key, false);
  if (!given) return std::string(fallback);
  if (std::find(choices.begin(), choices.end(), *given) == choices.end()) {
    std::string list;
    for (std::string_view c : choices) list += (list.empty() ? "" : ", ") + Quoted(c);
    r.Fail(Reader::LineOf(*t.get(key)), fmt::format("{}.{}", where, key),
           fmt::format("{}: expected one of {}", Quoted(*given), list));
  }
  return *given;
}

void ReadImages(const Reader& r, const toml::array& images, Manifest& m) {
  for (const toml::node& node : images) {
    const toml::table& t = *node.as_table();
    ManifestImage image;
    image.line = Reader::LineOf(t);
    r.OnlyKeys(t, "[[image]]",
               {"name", "binding", "set", "bindings", "format", "width", "height", "depth", "usage", "filter",
                "address", "border", "unnormalized", "init", "output", "outside"});
    image.name = *r.String(t, "[[image]]", "name", true);
    const std::string where = fmt::format("[[image]] {}", Quoted(image.name));
    if (!IsVariableName(image.name) || kReservedNames.contains(image.name)) {
      r.Fail(image.line, where + ".name",
             "expected a name of letters, digits and '_' that starts with a letter and is not W, H, WG_X, WG_Y, "
             "SUBGROUP_SIZE, VENDOR_ID, DEVICE_ID or i (check expressions use it)");
    }
    const bool taken = std::any_of(m.buffers.begin(), m.buffers.end(), [&](const auto& b) { return b.name == image.name; }) ||
                       std::any_of(m.images.begin(), m.images.end(), [&](const auto& o) { return o.name == image.name; });
    if (taken) r.Fail(image.line, where + ".name", "two resources have this name");
    image.slots = ReadSlots(r, t, where, image.line);
    const std::string format = *r.String(t, where, "format", true);
    const ImageFormat* found = FindImageFormat(format);
    if (found == nullptr) {
      std::string list;
      for (const ImageFormat& f : kImageFormats) list += (list.empty() ? "" : " ") + f.glsl;
      r.Fail(Reader::LineOf(*t.get("format")), where + ".format",
             fmt::format("{}: expected a GLSL image format qualifier: {}", Quoted(format), list));
    }
    image.format = *found;
    image.width = r.ExpressionText(t.get("width"), where + ".width").value_or("W");
    image.height = r.ExpressionText(t.get("height"), where + ".height").value_or("H");
    image.depth = r.ExpressionText(t.get("depth"), where + ".depth").value_or("1");
    image.three_d = image.depth != "1";
    image.sampled = ReadChoice(r, t, where, "usage", {"storage", "sampled"}, "storage") == "sampled";
    for (const char* key : {"filter", "address", "border", "unnormalized"}) {
      if (!image.sampled && t.get(key) != nullptr) {
        r.Fail(Reader::LineOf(*t.get(key)), fmt::format("{}.{}", where, key),
               "a sampler key: it belongs to a sampled image (usage = \"sampled\")");
      }
    }
    image.linear = ReadChoice(r, t, where, "filter", {"nearest", "linear"}, "nearest") == "linear";
    image.address = ReadChoice(r, t, where, "address",
                               {"clamp_to_edge", "clamp_to_border", "repeat", "mirrored_repeat"}, "clamp_to_edge");
    image.border = ReadChoice(r, t, where, "border", {"transparent_black", "opaque_black", "opaque_white"},
                              "transparent_black");
    if (t.get("border") != nullptr && image.address != "clamp_to_border") {
      r.Fail(Reader::LineOf(*t.get("border")), where + ".border", "a border colour is read only with address = \"clamp_to_border\"");
    }
    image.unnormalized = r.Bool(t, where, "unnormalized");
    if (image.unnormalized && (image.address == "repeat" || image.address == "mirrored_repeat")) {
      r.Fail(Reader::LineOf(*t.get("unnormalized")), where + ".unnormalized",
             "Vulkan's unnormalised coordinates take address \"clamp_to_edge\" or \"clamp_to_border\" only");
    }
    if (image.unnormalized && image.three_d) {
      r.Fail(Reader::LineOf(*t.get("unnormalized")), where + ".unnormalized", "Vulkan's unnormalised coordinates are for 1-D and 2-D images");
    }
    image.output = r.Bool(t, where, "output");
    image.outside_zero = ReadChoice(r, t, where, "outside", {"clamp", "zero"}, "clamp") == "zero";
    if (const toml::node* init = t.get("init")) {
      image.init_given = true;
      if (init->is_string() && init->as_string()->get() != "random" && init->as_string()->get() != "zero" &&
          init->as_string()->get() != "iota") {
        image.init = ManifestBuffer::Init::kExpression;
        image.init_expression = init->as_string()->get();
        r.CheckExpression(InitExpressionText(image.init_expression), ImageInitVariables(), Reader::LineOf(*init),
                          where + ".init");
      } else {
        const ManifestBuffer::MemberInit read = ReadInit(r, *init, where + ".init", nullptr);
        image.init = read.init;
        image.value = read.value;
        if (read.init == ManifestBuffer::Init::kValue) {
          const ImageFormat& f = image.format;
          const double least = f.kind == ImageFormat::Kind::kSnorm ? -1 : f.kind == ImageFormat::Kind::kInt ? -std::ldexp(1.0, 8 * f.channel_bytes - 1) : 0;
          const double most = f.kind == ImageFormat::Kind::kUnorm || f.kind == ImageFormat::Kind::kSnorm ? 1
                              : f.kind == ImageFormat::Kind::kInt  ? std::ldexp(1.0, 8 * f.channel_bytes - 1) - 1
                              : f.kind == ImageFormat::Kind::kUint ? std::ldexp(1.0, 8 * f.channel_bytes) - 1
                              : f.channel_bytes == 2 ? 65504 : 3.4028234663852886e38;
          if (read.value < least || read.value > most || (f.Integer() && read.value != std::floor(read.value))) {
            r.Fail(read.line, where + ".init",
                   fmt::format("{}: a channel of an {} texel takes {} from {} to {}", read.value, f.glsl,
                               f.Integer() ? "whole numbers" : "values", least, most));
          }
        }
      }
    }
    m.images.push_back(std::move(image));
  }
}

// What the resources' tables decide together: every slot given once (buffers, uniforms and images),
// and in a family with an image, no resource called x, y, z or c (its checks' texel and channel).
void CheckResourcesTogether(const Reader& r, const Manifest& m) {
  std::map<SlotPlace, std::string> owner;
  auto take = [&](const std::vector<SlotPlace>& slots, const std::string& what, uint32_t line) {
    for (const SlotPlace& slot : slots) {
      auto [at, fresh] = owner.emplace(slot, what);
      if (!fresh && at->second != what) {
        r.Fail(line, what + ".binding",
               fmt::format("set {} binding {} is given twice (also to {})", slot.set, slot.binding, at->second));
      }
    }
  };
  for (const ManifestBuffer& b : m.buffers) take(b.slots, fmt::format("[[buffer]] {}", Quoted(b.name)), b.line);
  for (const ManifestUniform& u : m.uniforms) {
    take({{u.set, u.binding}}, fmt::format("[[uniform]] {}", Quoted(u.name)), u.line);
  }
  for (const ManifestImage& image : m.images) take(image.slots, fmt::format("[[image]] {}", Quoted(image.name)), image.line);
  if (m.images.empty()) return;
  for (const ManifestBuffer& b : m.buffers) {
    if (ImageCoordinateName(b.name)) {
      r.Fail(b.line, fmt::format("[[buffer]] {}.name", Quoted(b.name)),
             "a family with an image may not name a resource x, y, z or c: its checks read the texel's coordinates "
             "and channel under these names");
    }
  }
  for (const ManifestImage& image : m.images) {
    if (ImageCoordinateName(image.name)) {
      r.Fail(image.line, fmt::format("[[image]] {}.name", Quoted(image.name)),
             "a family with an image may not name a resource x, y, z or c: its checks read the texel's coordinates "
             "and channel under these names");
    }
  }
  for (const ManifestUniform& u : m.uniforms) {
    if (std::any_of(m.images.begin(), m.images.end(), [&](const auto& i) { return i.name == u.name; })) {
      r.Fail(u.line, fmt::format("[[uniform]] {}.name", Quoted(u.name)), "an image has this name");
    }
  }
}

// [require]: resource = an expression that must be non-zero at each of its scalars.
void ReadRequire(const Reader& r, const toml::node& node, Manifest& m) {
  if (!node.is_table()) r.Fail(Reader::LineOf(node), "[require]", "expected a table of resource = expression");
  for (auto&& [key, value] : *node.as_table()) {
    const std::string name(key.str());
    const bool known = std::any_of(m.buffers.begin(), m.buffers.end(), [&](const auto& b) { return b.name == name; }) ||
                       std::any_of(m.images.begin(), m.images.end(), [&](const auto& i) { return i.name == name; });
    if (!known) {
      r.Fail(Reader::LineOf(value), fmt::format("[require].{}", Quoted(name)),
             "expected the name of a [[buffer]] or [[image]]: the predicate is evaluated at each of its scalars");
    }
    m.require[name] = *r.ExpressionText(&value, fmt::format("[require].{}", name));
    m.require_lines[name] = Reader::LineOf(value);
  }
}

// `groups = ["x", "y", "z"]`: three expressions, the workgroups of a dispatch.
std::array<std::string, 3> ReadGroups(const Reader& r, const toml::table& table, const std::string& key) {
  const toml::node* groups = table.get("groups");
  if (groups == nullptr || !groups->is_array() || groups->as_array()->size() != 3) {
    r.Fail(groups ? Reader::LineOf(*groups) : Reader::LineOf(table), key,
           "expected three expressions: the workgroups in x, y and z");
  }
  std::array<std::string, 3> texts;
  for (size_t i = 0; i < 3; ++i) texts[i] = *r.ExpressionText(groups->as_array()->get(i), key);
  return texts;
}

// A `values` table: member name = an expression (a string, a number, true or false), or a list of
// them for a vector, a matrix or an array.
NamedValues ReadNamedValues(const Reader& r, const toml::node& node, const std::string& where) {
  if (!node.is_table()) r.Fail(Reader::LineOf(node), where, "expected a table of member = value");
  NamedValues values;
  auto one = [&](const toml::node& item, const std::string& key) -> std::string {
    if (item.is_boolean()) return item.as_boolean()->get() ? "1" : "0";
    return *r.ExpressionText(&item, key);
  };
  for (auto&& [key, value] : *node.as_table()) {
    const std::string name(key.str());
    const std::string full = fmt::format("{}.{}", where, Quoted(name));
    if (name.empty() || name.size() > 128) r.Fail(Reader::LineOf(value), full, "expected a member's name");
    if (value.is_array()) {
      if (value.as_array()->empty() || value.as_array()->size() > 4096) {
        r.Fail(Reader::LineOf(value), full, "expected 1 to 4096 values");
      }
      for (const toml::node& item : *value.as_array()) values[name].push_back(one(item, full));
    } else if (value.is_table()) {
      // A struct member: its members as name.member.
      for (auto& [inner, texts] : ReadNamedValues(r, value, full)) values[name + "." + inner] = texts;
    } else {
      values[name].push_back(one(value, full));
    }
  }
  return values;
}

void ReadUniforms(const Reader& r, const toml::array& uniforms, Manifest& m) {
  for (const toml::node& node : uniforms) {
    const toml::table& t = *node.as_table();
    ManifestUniform u;
    u.line = Reader::LineOf(t);
    r.OnlyKeys(t, "[[uniform]]", {"name", "binding", "set", "values"});
    u.name = *r.String(t, "[[uniform]]", "name", true);
    const std::string where = fmt::format("[[uniform]] {}", Quoted(u.name));
    if (!IsVariableName(u.name)) r.Fail(u.line, where + ".name", "expected a name of letters, digits and '_'");
    for (const char* key : {"binding", "set"}) {
      const toml::node* n = t.get(key);
      if (n == nullptr && std::string_view(key) == "set") continue;
      if (n == nullptr || !n->is_integer() || n->as_integer()->get() < 0 ||
          n->as_integer()->get() > (std::string_view(key) == "set" ? 31 : 1023)) {
        r.Fail(n ? Reader::LineOf(*n) : u.line, fmt::format("{}.{}", where, key),
               std::string_view(key) == "set" ? "expected a descriptor set from 0 to 31" : "expected a binding from 0 to 1023");
      }
      (std::string_view(key) == "set" ? u.set : u.binding) = static_cast<uint32_t>(n->as_integer()->get());
    }
    const bool taken = std::any_of(m.buffers.begin(), m.buffers.end(),
                                   [&](const auto& b) { return b.set == u.set && b.binding == u.binding; }) ||
                       std::any_of(m.uniforms.begin(), m.uniforms.end(),
                                   [&](const auto& o) { return o.set == u.set && o.binding == u.binding; });
    if (taken) r.Fail(u.line, where + ".binding", fmt::format("set {} binding {} is given twice", u.set, u.binding));
    const toml::node* values = t.get("values");
    if (values == nullptr) r.Fail(u.line, where + ".values", "missing: expected the block's members by name");
    u.values = ReadNamedValues(r, *values, where + ".values");
    m.uniforms.push_back(std::move(u));
  }
}

// A [push] table (the family's, or a variant's own): `constants` in order, or `values` by name.
void ReadPush(const Reader& r, const toml::table& push, const std::string& where, std::vector<std::string>& constants,
              NamedValues& named) {
  r.OnlyKeys(push, where, {"constants", "values"});
  if (const toml::node* values = push.get("values")) {
    if (push.get("constants") != nullptr) {
      r.Fail(Reader::LineOf(*values), where + ".values", "give the push constants by constants or by values, not both");
    }
    named = ReadNamedValues(r, *values, where + ".values");
  }
  if (const toml::node* list = push.get("constants")) {
    if (!list->is_array()) r.Fail(Reader::LineOf(*list), where + ".constants", "expected a list of expressions");
    if (list->as_array()->size() > 64) {
      r.Fail(Reader::LineOf(*list), where + ".constants", "more than 64 push constants (256 bytes)");
    }
    for (const toml::node& c : *list->as_array()) constants.push_back(*r.ExpressionText(&c, where + ".constants"));
  }
}

void ReadPushAndDispatch(const Reader& r, const toml::table& root, Manifest& m) {
  ReadPush(r, r.Table(root, "push", false), "[push]", m.push, m.push_values);
  const toml::table& dispatch = r.Table(root, "dispatch", true);
  r.OnlyKeys(dispatch, "[dispatch]", {"groups"});
  m.groups = ReadGroups(r, dispatch, "[dispatch].groups");
}

std::map<std::string, std::string> ReadCheck(const Reader& r, const toml::node& node, std::string_view where,
                                             const Manifest& m, std::map<std::string, uint32_t>& lines) {
  if (!node.is_table()) r.Fail(Reader::LineOf(node), where, "expected a table of output buffer = expression");
  std::map<std::string, std::string> check;
  // A struct output's member is checked under "buffer.member" (quoted in TOML), or as a table
  // buffer = { member = "..." }.
  auto one = [&](const std::string& name, const toml::node& value) {
    const size_t dot = name.find('.');
    const std::string buffer_name = name.substr(0, dot);
    auto buffer = std::find_if(m.buffers.begin(), m.buffers.end(), [&](const auto& b) { return b.name == buffer_name; });
    const bool image = dot == std::string::npos &&
                       std::any_of(m.images.begin(), m.images.end(), [&](const auto& i) { return i.name == buffer_name; });
    // A resource that is no output may be checked where a variant swaps it (ReadVariants decides).
    if (buffer == m.buffers.end() && !image) {
      r.Fail(Reader::LineOf(value), fmt::format("{}.{}", where, Quoted(name)),
             "expected the name of an output buffer or image (or of one a variant's passes swap)");
    }
    if (image) {
      std::string text = *r.ExpressionText(&value, fmt::format("{}.{}", where, name));
      r.CheckExpression(text, CheckVariables(m), Reader::LineOf(value), fmt::format("{}.{}", where, name),
                        CheckFunctions(m));
      if (auto problem = CallProblem(m, text)) r.Fail(Reader::LineOf(value), fmt::format("{}.{}", where, name), *problem);
      check[name] = text;
      lines[name] = Reader::LineOf(value);
      return;
    }
    if (buffer->type.is_struct && dot == std::string::npos) {
      r.Fail(Reader::LineOf(value), fmt::format("{}.{}", where, Quoted(name)),
             fmt::format("a struct buffer is checked member by member: \"{}.member\" = \"...\"", name));
    }
    if (!buffer->type.is_struct && dot != std::string::npos) {
      r.Fail(Reader::LineOf(value), fmt::format("{}.{}", where, Quoted(name)),
             fmt::format("'{}' is not a struct buffer (type = \"struct\"): it has no members", buffer_name));
    }
    std::string text = *r.ExpressionText(&value, fmt::format("{}.{}", where, name));
    // Struct members are known once the shader is read: the loader checks those expressions then.
    if (!HasUnresolvedStruct(m)) {
      r.CheckExpression(text, CheckVariables(m), Reader::LineOf(value), fmt::format("{}.{}", where, name),
                        CheckFunctions(m));
    }
    if (auto problem = CallProblem(m, text)) r.Fail(Reader::LineOf(value), fmt::format("{}.{}", where, name), *problem);
    check[name] = text;
    lines[name] = Reader::LineOf(value);
  };
  for (auto&& [key, value] : *node.as_table()) {
    const std::string name(key.str());
    if (value.is_table()) {
      for (auto&& [member, text] : *value.as_table()) one(name + "." + std::string(member.str()), text);
    } else {
      one(name, value);
    }
  }
  return check;
}

void ReadDefines(const Reader& r, const toml::node& node, const std::string& where, ManifestVariant& v) {
  if (!node.is_table()) r.Fail(Reader::LineOf(node), where, "expected a table, e.g. { PER_ITEM = 4 }");
  for (auto&& [key, value] : *node.as_table()) {
    const std::string name(key.str());
    const std::string full = fmt::format("{}.{}", where, name);
    if (!IsVariableName(name)) {
      r.Fail(Reader::LineOf(value), full, "expected a macro name of letters, digits and '_' that starts with a letter");
    }
    // A macro named as a size variable (a shader that takes its workgroup as WG_X) is not a
    // variable of its own: its value must be that variable's at every point.
    auto numeric = [&](double x) {
      if (kReservedNames.contains(name)) {
        if (name == "W" || name == "H" || name == "WG_X" || name == "WG_Y") v.pinned_defines[name] = x;
      } else {
        v.numeric_defines[name] = x;
      }
    };
    if (value.is_integer()) {
      v.defines.push_back({name, std::to_string(value.as_integer()->get())});
      numeric(static_cast<double>(value.as_integer()->get()));
    } else if (value.is_floating_point()) {
      const double x = value.as_floating_point()->get();
      if (!std::isfinite(x)) r.Fail(Reader::LineOf(value), full, "expected a finite number");
      v.defines.push_back({name, FloatText(x)});
      numeric(x);
    } else if (value.is_boolean()) {
      v.defines.push_back({name, value.as_boolean()->get() ? "true" : "false"});
    } else if (value.is_string()) {
      const std::string text = value.as_string()->get();
      if (std::any_of(text.begin(), text.end(), [](char c) { return c == '\n' || c == '\r' || c == '\0'; })) {
        r.Fail(Reader::LineOf(value), full, "a macro's text must be one line");
      }
      v.defines.push_back({name, text});
    } else {
      r.Fail(Reader::LineOf(value), full, "expected a number, a string or true/false");
    }
  }
}

// Names an axis may not take: the size variables, a check's fixed variables and the JSON's own
// axes (a point's coordinates are keyed by axis name).
bool ReservedAxisName(const std::string& name) {
  static const std::set<std::string> kTaken = {"D", "WG_Z", "P", "c", "x", "y", "z", "workgroup", "domain",
                                               "subgroup_size", "variant", "family"};
  return kReservedNames.contains(name) || kTaken.contains(name) || name.starts_with("csbench_");
}

// [axes]: NAME = [values], each benchmark taking one value of each, in declaration order.
void ReadAxes(const Reader& r, const toml::node& node, Manifest& m) {
  if (!node.is_table()) r.Fail(Reader::LineOf(node), "[axes]", "expected a table of NAME = [values], e.g. ROWS = [1, 2, 4]");
  // toml++ keeps a table's keys sorted: the file's order is their position in it.
  std::vector<std::pair<std::string, const toml::node*>> entries;
  for (auto&& [key, value] : *node.as_table()) entries.emplace_back(std::string(key.str()), &value);
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
    const auto& pa = a.second->source().begin;
    const auto& pb = b.second->source().begin;
    return pa.line != pb.line ? pa.line < pb.line : pa.column < pb.column;
  });
  if (entries.empty()) r.Fail(Reader::LineOf(node), "[axes]", "expected at least one axis, e.g. ROWS = [1, 2, 4]");
  if (entries.size() > kMaxAxes) {
    r.Fail(Reader::LineOf(node), "[axes]", fmt::format("{} axes: at most {}", entries.size(), kMaxAxes));
  }
  for (const auto& [name, value] : entries) {
    const std::string key = "[axes]." + name;
    const uint32_t line = Reader::LineOf(*value);
    if (!IsVariableName(name) || ReservedAxisName(name)) {
      r.Fail(line, key,
             "expected a macro name of letters, digits and '_' that starts with a letter and is not W, H, D, WG_X, "
             "WG_Y, WG_Z, P, SUBGROUP_SIZE, VENDOR_ID, DEVICE_ID, i, c, x, y, z, workgroup, domain, subgroup_size, "
             "variant or family");
    }
    auto named = [&](const auto& list) {
      return std::any_of(list.begin(), list.end(), [&](const auto& item) { return item.name == name; });
    };
    if (named(m.buffers) || named(m.images) || named(m.uniforms)) {
      r.Fail(line, key, "a [[buffer]], [[image]] or [[uniform]] has this name: an axis needs a name of its own");
    }
    // A check reads an input's sum and extremes as <name>_sum, _min and _max: an axis of that name
    // would take the variable's place in every check.
    for (const std::string_view suffix : {"_sum", "_min", "_max"}) {
      if (!name.ends_with(suffix)) continue;
      const std::string stem = name.substr(0, name.size() - suffix.size());
      auto stem_named = [&](const auto& list) {
        return std::any_of(list.begin(), list.end(), [&](const auto& item) { return item.name == stem; });
      };
      if (stem_named(m.buffers) || stem_named(m.images)) {
        r.Fail(line, key, fmt::format("checks read '{}' as {}'s {} already: an axis needs a name of its own", name,
                                      stem, suffix.substr(1)));
      }
    }
    if (!value->is_array() || value->as_array()->empty() || value->as_array()->size() > kMaxAxisValues) {
      r.Fail(line, key, fmt::format("expected a list of 1 to {} values: numbers (ROWS = [1, 2, 4]) or names "
                                    "(LAYOUT = [\"rows\", \"tiles\"])",
                                    kMaxAxisValues));
    }
    ManifestAxis axis{.name = name, .line = line};
    const toml::array& items = *value->as_array();
    axis.numeric = items.front().is_number();
    for (const toml::node& item : items) {
      if (item.is_number() != axis.numeric) {
        r.Fail(Reader::LineOf(item), key, "the values of one axis are all numbers or all names");
      }
      if (item.is_integer()) {
        axis.values.emplace_back(static_cast<double>(item.as_integer()->get()));
      } else if (item.is_floating_point()) {
        const double x = item.as_floating_point()->get();
        if (!std::isfinite(x)) r.Fail(Reader::LineOf(item), key, "expected a finite number");
        axis.values.emplace_back(x);
      } else if (item.is_string() && IsNamePart(item.as_string()->get())) {
        axis.values.emplace_back(item.as_string()->get());
      } else {
        r.Fail(Reader::LineOf(item), key,
               "expected a number or a name of 1 to 64 letters, digits, '_', '-' or '.' (it is written into every "
               "benchmark's name)");
      }
      if (std::count(axis.values.begin(), axis.values.end(), axis.values.back()) > 1) {
        r.Fail(Reader::LineOf(item), key, fmt::format("{} is listed twice", Spelled(axis.values.back())));
      }
    }
    m.axes.push_back(std::move(axis));
  }
}

// [tune]: what a search may leave out (restrict).
void ReadTune(const Reader& r, const toml::node& node, Manifest& m) {
  if (!node.is_table()) r.Fail(Reader::LineOf(node), "[tune]", "expected a table: [tune] restrict = [\"ROWS * UNROLL <= 16\"]");
  r.OnlyKeys(*node.as_table(), "[tune]", {"restrict"});
  const toml::node* list = node.as_table()->get("restrict");
  if (list == nullptr) return;
  if (!list->is_array() || list->as_array()->size() > 64) {
    r.Fail(Reader::LineOf(*list), "[tune].restrict", "expected a list of at most 64 expressions, e.g. [\"ROWS * UNROLL <= 16\"]");
  }
  for (const toml::node& item : *list->as_array()) {
    if (!item.is_string()) {
      r.Fail(Reader::LineOf(item), "[tune].restrict", "expected an expression as a string, e.g. \"ROWS * UNROLL <= 16\"");
    }
    m.restrict.push_back(item.as_string()->get());
    m.restrict_lines.push_back(Reader::LineOf(item));
  }
}

// The macro text of an axis's value: a whole number as an integer, another number as a float.
std::string AxisMacroText(const AxisValue& value) {
  if (!value.is_number()) return value.text();
  const double x = value.number();
  if (x == std::floor(x) && std::abs(x) < 0x1p53) return fmt::format("{}", static_cast<int64_t>(x));
  return FloatText(x);
}

void SetAxis(ManifestVariant& v, const std::string& name, const AxisValue& value) {
  if (v.language != SourceLanguage::kSpirv) {
    auto define = std::find_if(v.defines.begin(), v.defines.end(), [&](const Define& d) { return d.name == name; });
    if (define == v.defines.end()) {
      v.defines.push_back({name, AxisMacroText(value)});
    } else {
      define->value = AxisMacroText(value);
    }
  }
  if (value.is_number()) v.numeric_defines[name] = value.number();
}

// Each variant (and pass) takes every axis its own defines do not name, at the axis's first value.
void TakeAxes(const Manifest& m, ManifestVariant& v) {
  for (const ManifestAxis& axis : m.axes) {
    const bool own = std::any_of(v.defines.begin(), v.defines.end(), [&](const Define& d) { return d.name == axis.name; });
    if (own) continue;
    v.axes_taken.insert(axis.name);
    SetAxis(v, axis.name, axis.values.front());
  }
  for (ManifestVariant& pass : v.passes) TakeAxes(m, pass);
}

// A variant's [[variant.pass]] tables: each a variant of its own that takes the variant's keys
// (defines, specialization, push, groups, vulkan, include_dirs, entry) where it gives none of its own.
void ReadPasses(const Reader& r, const toml::node& node, const std::string& where, const Manifest& m,
                ManifestVariant& v) {
  if (!node.is_array_of_tables() || node.as_array()->empty() || node.as_array()->size() > 64) {
    r.Fail(Reader::LineOf(node), where + ".pass", "expected 1 to 64 [[variant.pass]] tables");
  }
  for (const toml::node& item : *node.as_array()) {
    const toml::table& t = *item.as_table();
    ManifestVariant p = v;
    p.passes.clear();
    p.is_pass = true;
    p.line = Reader::LineOf(t);
    p.name = fmt::format("{}.pass[{}]", v.name, v.passes.size() + 1);
    const std::string at = fmt::format("{}.pass[{}]", where, v.passes.size() + 1);
    p.pass_key = at;
    r.OnlyKeys(t, at,
               {"source", "defines", "specialization", "groups", "push", "repeat", "swap", "entry", "vulkan",
                "include_dirs", "workgroup_defines"});
    const std::string source = *r.String(t, at, "source", true);
    if (source.empty() || source.find('\0') != std::string::npos) r.Fail(p.line, at + ".source", "expected a file name");
    p.source = r.path().parent_path() / source;
    p.language = LanguageOf(p.source);
    if (auto vulkan = ReadVulkan(r, t, at)) p.target = *ParseVulkanTarget(*vulkan);
    if (auto dirs = ReadIncludeDirs(r, t, at); !dirs.empty()) p.include_dirs = dirs;
    if (auto entry = r.String(t, at, "entry", false)) {
      if (!IsVariableName(*entry)) r.Fail(p.line, at + ".entry", "expected a function's name");
      p.entry = *entry;
    }
    if (p.language == SourceLanguage::kGlsl && p.entry != "main") {
      r.Fail(p.line, at + ".entry", "a GLSL shader's entry point is main; entry names an HLSL function (or a .spv's entry "
                                    "point)");
    }
    if (const toml::node* defines = t.get("defines")) {
      if (p.language == SourceLanguage::kSpirv) {
        r.Fail(Reader::LineOf(*defines), at + ".defines", "a .spv module is compiled already: it takes no defines");
      }
      // The pass's own, over the variant's of the same name.
      ManifestVariant own;
      ReadDefines(r, *defines, at + ".defines", own);
      for (const Define& d : own.defines) {
        std::erase_if(p.defines, [&](const Define& o) { return o.name == d.name; });
        p.defines.push_back(d);
      }
      for (const auto& [name, value] : own.numeric_defines) p.numeric_defines[name] = value;
      for (const auto& [name, value] : own.pinned_defines) p.pinned_defines[name] = value;
    }
    if (p.language == SourceLanguage::kSpirv && !p.defines.empty()) {
      r.Fail(p.line, at + ".source", "a .spv module is compiled already: it takes none of the variant's defines");
    }
    if (const toml::node* constants = t.get("specialization")) {
      for (auto& [key, text] : ReadSpecialization(r, *constants, at + ".specialization")) {
        p.specialization[key] = text;
        p.own_specialization.insert(key);
      }
    }
    if (t.get("groups") != nullptr) {
      p.groups = ReadGroups(r, t, at + ".groups");
      p.own_groups = true;
    }
    if (const toml::node* push = t.get("push")) {
      if (!push->is_table()) r.Fail(Reader::LineOf(*push), at + ".push", "expected a table: [variant.pass.push]");
      p.push.clear();
      p.push_values.clear();
      ReadPush(r, *push->as_table(), at + ".push", p.push, p.push_values);
    }
    if (auto defines = ReadWorkgroupDefines(r, t, at); !defines.empty()) p.workgroup_defines = defines;
    if (!p.workgroup_defines.empty() && p.language == SourceLanguage::kSpirv) {
      r.Fail(p.line, at + ".workgroup_defines", "a .spv module is compiled already: it takes no macros");
    }
    p.repeat = r.ExpressionText(t.get("repeat"), at + ".repeat").value_or("1");
    if (const toml::node* swap = t.get("swap")) {
      auto resource = [&](const std::string& name) -> std::pair<int, std::string> {
        for (const ManifestBuffer& b : m.buffers) {
          if (b.name == name) return {0, b.type.glsl};
        }
        for (const ManifestImage& image : m.images) {
          if (image.name == name) return {1, image.format.glsl};
        }
        return {-1, ""};
      };
      if (!swap->is_array()) r.Fail(Reader::LineOf(*swap), at + ".swap", "expected a list of pairs: [[\"a\", \"b\"]]");
      for (const toml::node& pair : *swap->as_array()) {
        const toml::array* two = pair.as_array();
        if (two == nullptr || two->size() != 2 || !two->get(0)->is_string() || !two->get(1)->is_string()) {
          r.Fail(Reader::LineOf(pair), at + ".swap", "expected pairs of resource names: [[\"a\", \"b\"]]");
        }
        const std::string a = two->get(0)->as_string()->get(), b = two->get(1)->as_string()->get();
        const auto [kind_a, type_a] = resource(a);
        const auto [kind_b, type_b] = resource(b);
        if (kind_a < 0 || kind_b < 0) {
          r.Fail(Reader::LineOf(pair), at + ".swap",
                 fmt::format("{}: expected the names of two [[buffer]]s or two [[image]]s",
                             Quoted(kind_a < 0 ? a : b)));
        }
        if (a == b) r.Fail(Reader::LineOf(pair), at + ".swap", fmt::format("{} is swapped with itself", Quoted(a)));
        if (kind_a != kind_b || type_a != type_b) {
          r.Fail(Reader::LineOf(pair), at + ".swap",
                 fmt::format("{} ({}) and {} ({}): a swap trades two buffers of one type or two images of one format",
                             Quoted(a), type_a, Quoted(b), type_b));
        }
        p.swaps.emplace_back(a, b);
      }
    }
    v.passes.push_back(std::move(p));
  }
}

void ReadVariants(const Reader& r, const toml::array& variants, Manifest& m) {
  if (variants.empty()) r.Fail(0, "[[variant]]", "missing: the manifest declares no variant");
  for (const toml::node& node : variants) {
    const toml::table& t = *node.as_table();
    ManifestVariant v;
    v.line = Reader::LineOf(t);
    r.OnlyKeys(t, "[[variant]]",
               {"name", "source", "defines", "reference", "tolerance", "workgroups", "check", "elements", "bytes",
                "requires", "arithmetic", "specialization", "workgroup_defines", "subgroup_sizes", "abs_tolerance", "vulkan",
                "include_dirs", "entry", "groups", "require_subgroup_size", "full_subgroups", "push", "domains",
                "test_domains", "pass"});
    v.name = *r.String(t, "[[variant]]", "name", true);
    const std::string where = fmt::format("[[variant]] {}", Quoted(v.name));
    if (!IsNamePart(v.name) || v.name == "plain_loop") {
      r.Fail(v.line, where + ".name",
             "expected 1 to 64 letters, digits, '_', '-' or '.', not plain_loop (it is part of each benchmark's name)");
    }
    if (std::any_of(m.variants.begin(), m.variants.end(), [&](const auto& o) { return o.name == v.name; })) {
      r.Fail(v.line, where + ".name", "two variants have this name");
    }
    const toml::node* passes = t.get("pass");
    if (passes != nullptr && t.get("source") != nullptr) {
      r.Fail(Reader::LineOf(*t.get("source")), where + ".source",
             "a variant of passes ([[variant.pass]]) gives each pass its own source, not one of its own");
    }
    if (passes == nullptr) {
      const std::string source = *r.String(t, where, "source", true);
      if (source.empty() || source.find('\0') != std::string::npos) r.Fail(v.line, where + ".source", "expected a file name");
      v.source = r.path().parent_path() / source;
      v.language = LanguageOf(v.source);
    }
    v.target = *ParseVulkanTarget(ReadVulkan(r, t, where).value_or(m.vulkan.empty() ? "1.1" : m.vulkan));
    v.include_dirs = ReadIncludeDirs(r, t, where);
    if (v.include_dirs.empty()) v.include_dirs = m.include_dirs;
    if (auto entry = r.String(t, where, "entry", false)) {
      if (!IsVariableName(*entry)) r.Fail(v.line, where + ".entry", "expected a function's name");
      if (v.language == SourceLanguage::kGlsl && *entry != "main") {
        r.Fail(v.line, where + ".entry", "a GLSL shader's entry point is main; entry names an HLSL function (or a .spv's "
                                         "entry point)");
      }
      v.entry = *entry;
    }
    if (const toml::node* defines = t.get("defines")) {
      if (v.language == SourceLanguage::kSpirv) {
        r.Fail(Reader::LineOf(*defines), where + ".defines", "a .spv module is compiled already: it takes no defines");
      }
      ReadDefines(r, *defines, where + ".defines", v);
    }
    v.reference = r.Bool(t, where, "reference");
    if (const toml::node* tolerance = t.get("tolerance")) {
      if (!tolerance->is_number()) r.Fail(Reader::LineOf(*tolerance), where + ".tolerance", "expected a number");
      v.tolerance = tolerance->is_integer() ? static_cast<double>(tolerance->as_integer()->get())
                                            : tolerance->as_floating_point()->get();
      if (!(v.tolerance >= 0 && v.tolerance < 1)) {
        r.Fail(Reader::LineOf(*tolerance), where + ".tolerance", "expected a relative error from 0 to below 1");
      }
    }
    v.elements = r.ExpressionText(t.get("elements"), where + ".elements").value_or(m.elements);
    v.bytes = r.ExpressionText(t.get("bytes"), where + ".bytes").value_or(m.bytes);
    v.arithmetic = r.ExpressionText(t.get("arithmetic"), where + ".arithmetic").value_or(m.arithmetic);
    if (const toml::node* features = t.get("requires")) {
      if (!features->is_array()) r.Fail(Reader::LineOf(*features), where + ".requires", "expected a list of features");
      for (const toml::node& f : *features->as_array()) {
        const auto& known = KnownFeatures();
        if (!f.is_string() || std::find(known.begin(), known.end(), f.as_string()->get()) == known.end()) {
          std::string list;
          for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
          r.Fail(Reader::LineOf(f), where + ".requires", fmt::format("expected one of: {}", list));
        }
        v.requires_features.push_back(f.as_string()->get());
      }
    }
    if (const toml::node* tolerance = t.get("abs_tolerance")) {
      if (!tolerance->is_number()) r.Fail(Reader::LineOf(*tolerance), where + ".abs_tolerance", "expected a number");
      v.abs_tolerance = tolerance->is_integer() ? static_cast<double>(tolerance->as_integer()->get())
                                                : tolerance->as_floating_point()->get();
      if (!(v.abs_tolerance >= 0 && std::isfinite(v.abs_tolerance))) {
        r.Fail(Reader::LineOf(*tolerance), where + ".abs_tolerance", "expected an absolute error from 0");
      }
    }
    v.workgroups = r.Extents(t, where, "workgroups", "workgroup", false);
    v.workgroups_from_family = v.workgroups.empty();
    if (v.workgroups.empty()) v.workgroups = m.workgroups;
    if (!m.workgroup_expressions.empty() && !v.subgroup_sizes.empty()) {
      r.Fail(v.line, where + ".subgroup_sizes",
             "[family] workgroups are expressions of SUBGROUP_SIZE, the device's: with subgroup_sizes, list "
             "workgroups as numbers");
    }
    v.domains = r.Extents(t, where, "domains", "domain", false);
    v.test_domains = r.Extents(t, where, "test_domains", "domain", false);
    v.push = m.push;
    v.push_values = m.push_values;
    if (const toml::node* push = t.get("push")) {
      if (!push->is_table()) r.Fail(Reader::LineOf(*push), where + ".push", "expected a table: [variant.push]");
      v.push.clear();
      v.push_values.clear();
      ReadPush(r, *push->as_table(), where + ".push", v.push, v.push_values);
    }
    v.groups = m.groups;
    if (t.get("groups") != nullptr) {
      v.groups = ReadGroups(r, t, where + ".groups");
      v.own_groups = true;
    }
    v.specialization = m.specialization;
    if (const toml::node* constants = t.get("specialization")) {
      for (auto& [key, text] : ReadSpecialization(r, *constants, where + ".specialization")) {
        v.specialization[key] = text;
        v.own_specialization.insert(key);
      }
    }
    if (t.get("require_subgroup_size") != nullptr) v.require_subgroup_size = r.Bool(t, where, "require_subgroup_size");
    v.full_subgroups = r.Bool(t, where, "full_subgroups");
    v.subgroup_sizes = ReadSubgroupSizes(r, t, where);
    if (v.subgroup_sizes.empty()) v.subgroup_sizes = m.subgroup_sizes;
    v.workgroup_defines = ReadWorkgroupDefines(r, t, where);
    if (v.workgroup_defines.empty()) v.workgroup_defines = m.workgroup_defines;
    if (!v.workgroup_defines.empty() && v.language == SourceLanguage::kSpirv) {
      r.Fail(v.line, where + ".workgroup_defines",
             "a .spv module is compiled already: it takes no macros (workgroup_defines here or in [family])");
    }
    for (const std::string& name : v.workgroup_defines) {
      if (std::any_of(v.defines.begin(), v.defines.end(), [&](const Define& d) { return d.name == name; })) {
        r.Fail(v.line, where + ".workgroup_defines",
               fmt::format("{} is also in defines: the workgroup's macro takes the workgroup's size", Quoted(name)));
      }
    }
    v.check = m.check;
    v.check_lines = m.check_lines;
    if (const toml::node* check = t.get("check")) {
      for (auto& [buffer, text] : ReadCheck(r, *check, where + ".check", m, v.check_lines)) v.check[buffer] = text;
    }
    if (passes != nullptr) ReadPasses(r, *passes, where, m, v);
    // A check of a resource that is no output reads what the kernel left in it: some pass must swap it.
    const std::set<std::string> swapped = Swapped(v);
    for (const auto& [key, text] : v.check) {
      const std::string name = key.substr(0, key.find('.'));
      const bool output =
          std::any_of(m.buffers.begin(), m.buffers.end(), [&](const auto& b) { return b.name == name && b.output; }) ||
          std::any_of(m.images.begin(), m.images.end(), [&](const auto& i) { return i.name == name && i.output; });
      if (!output && !swapped.contains(name)) {
        const bool family = m.check.contains(key) && m.check.at(key) == text;
        r.Fail(v.check_lines.contains(key) ? v.check_lines.at(key) : v.line,
               family ? fmt::format("[check].{}", key) : fmt::format("{}.check.{}", where, key),
               fmt::format("{} is an input of this variant (output = false, and no pass swaps it): it has nothing to "
                           "check",
                           Quoted(name)));
      }
    }
    m.variants.push_back(std::move(v));
  }
  const auto references = std::count_if(m.variants.begin(), m.variants.end(), [](const auto& v) { return v.reference; });
  if (references > 1) r.Fail(0, "[[variant]].reference", "more than one variant is the reference");
  // Every output of every variant must be compared with something: a benchmark whose output is
  // never checked would report a number nobody knows to be right.
  for (const ManifestVariant& v : m.variants) {
    std::vector<std::string> outputs;
    for (const ManifestBuffer& b : m.buffers) {
      if (b.output) outputs.push_back(b.name);
    }
    for (const ManifestImage& image : m.images) {
      if (image.output) outputs.push_back(image.name);
    }
    for (const std::string& name : outputs) {
      const bool checked = v.check.contains(name) || m.require.contains(name) ||
                           std::any_of(v.check.begin(), v.check.end(),
                                       [&](const auto& c) { return c.first.starts_with(name + "."); });
      if (!checked && references == 0) {
        r.Fail(v.line, fmt::format("[[variant]] {}", Quoted(v.name)),
               fmt::format("output {} is checked against nothing: give [check] {} = \"...\", a [require] {} = "
                           "\"...\" or mark one variant reference = true",
                           Quoted(name), name, name));
      }
    }
  }
}

// The manifest's path, and the line where one is known: the start of an error message.
std::string PathAt(const Manifest& m, uint32_t line) {
  return line > 0 ? fmt::format("{}:{}", m.path.string(), line) : m.path.string();
}

uint64_t WholeNumber(const Manifest& m, double value, double most, std::string_view key, const std::string& text,
                     std::string_view point, std::string_view what, uint32_t line = 0) {
  if (value != std::floor(value) || value < 1 || value > most) {
    throw ManifestError{fmt::format("{}: {}: {} at {} gives {}: expected {}", PathAt(m, line), key, Quoted(text),
                                    point, value, what)};
  }
  return static_cast<uint64_t>(value);
}

}  // namespace

// One variant's expressions, parsed once and evaluated at each point: a manifest may declare
// 100000 points, and muparser takes microseconds to parse an expression but nanoseconds to
// evaluate it (parsing every expression anew at each point took seconds to load one manifest).
class PointEvaluator {
 public:
  PointEvaluator(const Manifest& m, const ManifestVariant& v, const DeviceValues& device = {})
      : m_(m), v_(&v), names_(SizeVariables(v)), family_part_(!v.is_pass), dispatch_part_(v.passes.empty()) {
    values_ = {0, 0, 0, 0, device.subgroup_size, device.vendor_id, device.device_id, 1, 1};
    for (const auto& [name, value] : v.numeric_defines) values_.push_back(value);  // names_'s order
    if (v.is_pass) values_.push_back(0);  // P
    for (const ManifestVariant& pass : v.passes) {
      passes_.push_back(std::make_unique<PointEvaluator>(m, pass, device));
      passes_.back()->repeat_.push_back(passes_.back()->Parse(pass.repeat, pass.pass_key + ".repeat", pass.line));
    }
    if (family_part_) {
      for (size_t k = 0; k < m.restrict.size(); ++k) {
        restrict_.push_back(Parse(m.restrict[k], fmt::format("[tune].restrict[{}]", k), m.restrict_lines[k]));
      }
      for (const ManifestBuffer& b : m.buffers) {
        counts_.push_back(Parse(b.count, fmt::format("[[buffer]] '{}'.count", b.name)));
      }
      for (const ManifestImage& image : m.images) {
        image_sizes_.push_back(Parse(image.width, fmt::format("[[image]] '{}'.width", image.name), image.line));
        image_sizes_.push_back(Parse(image.height, fmt::format("[[image]] '{}'.height", image.name), image.line));
        image_sizes_.push_back(Parse(image.depth, fmt::format("[[image]] '{}'.depth", image.name), image.line));
      }
      elements_.push_back(Parse(v.elements, "elements"));
      bytes_.push_back(Parse(v.bytes, "bytes"));
      if (!v.arithmetic.empty()) arithmetic_.push_back(Parse(v.arithmetic, "arithmetic"));
    }
    if (dispatch_part_) {
      for (size_t i = 0; i < v.push.size(); ++i) {
        push_.push_back(Parse(v.push[i], fmt::format("[push].constants[{}]", i)));
      }
      for (size_t i = 0; i < 3; ++i) {
        groups_.push_back(Parse(v.groups[i], v.own_groups ? fmt::format("[[variant]] '{}'.groups[{}]", v.name, i)
                                                          : fmt::format("[dispatch].groups[{}]", i)));
      }
      for (const ManifestVariant::Constant& c : v.constants) {
        if (c.kind == 'b') continue;
        constants_.emplace(c.id, Parse(c.text, fmt::format("specialization.{}", c.key)));
      }
      for (const BlockField& f : v.push_fields) push_fields_.push_back(Parse(f.text, f.key));
      for (const auto& fields : v.uniform_fields) {
        uniform_fields_.emplace_back();
        for (const BlockField& f : fields) uniform_fields_.back().push_back(Parse(f.text, f.key));
      }
    }
    // A check reads each input at the output's index: the inputs it names must be as long. (A
    // struct's members are known once the shader is read: its checks wait for the loader.)
    for (const auto& [output, text] :
         HasUnresolvedStruct(m) || !family_part_ ? std::map<std::string, std::string>{} : v.check) {
      // A named copy: clang before 16 cannot capture a structured binding.
      const std::string& output_name = output;
      Reads reads{.text = text, .key = output_name};
      const std::string buffer_name = output_name.substr(0, output_name.find('.'));
      reads.output = std::find_if(m.buffers.begin(), m.buffers.end(),
                                  [&](const auto& b) { return b.name == buffer_name; }) - m.buffers.begin();
      if (reads.output == m.buffers.size()) {
        reads.image = true;
        reads.output = std::find_if(m.images.begin(), m.images.end(),
                                    [&](const auto& i) { return i.name == buffer_name; }) - m.images.begin();
      }
      reads.by_element = output_name.find('.') != std::string::npos;
      std::vector<std::string> used;
      try {
        used = Expression(text, CheckVariables(m), CheckFunctions(m)).Used();
      } catch (const ExpressionError& e) {
        throw ManifestError{fmt::format("{}:{}: check {}: {}: {}", m.path.string(),
                                        v.check_lines.contains(output) ? v.check_lines.at(output) : v.line, output,
                                        Quoted(text), e.message)};
      }
      for (const CheckInput& in : CheckInputs(m)) {
        if (std::find(used.begin(), used.end(), in.name) == used.end()) continue;
        reads.inputs.push_back(in);
        // A struct's member is read at the output's element.
        if (in.field >= 0) reads.by_element = true;
      }
      checks_.push_back(std::move(reads));
    }
  }

  // The scalars of buffer `i` (or image `i`) at a point's values.
  uint64_t ScalarsOf(const PointValues& p, size_t i, bool image) const {
    if (image) {
      const auto& s = p.image_sizes[i];
      return uint64_t{s[0]} * s[1] * s[2] * m_.images[i].format.channels;
    }
    return p.counts[i] * m_.buffers[i].type.Lanes();
  }

  // The same variant at other values of the axes it takes (AtAxes of the same variant): the
  // expressions stay parsed, only the variables' values change. `at` must outlive the calls.
  void Rebind(const ManifestVariant& at) {
    v_ = &at;
    size_t k = 9;
    for (const auto& [name, value] : at.numeric_defines) values_[k++] = value;
    for (size_t i = 0; i < passes_.size(); ++i) passes_[i]->Rebind(at.passes[i]);
  }

  // Whether every [tune] restriction holds at the point.
  bool Allowed(Extent workgroup, Extent domain) {
    SetPoint(workgroup, domain);
    auto point = [&] {
      return fmt::format("variant {}, workgroup {}, domain {}", v_->name, Sized("", workgroup), Sized("", domain));
    };
    for (Keyed& r : restrict_) {
      if (Value(r, point) == 0) return false;
    }
    return true;
  }

  PointValues At(Extent workgroup, Extent domain, uint32_t repetition = 0) {
    SetPoint(workgroup, domain);
    if (v_->is_pass) values_.back() = repetition;
    // Formatted only for a message.
    auto point = [&] {
      return fmt::format("variant {}, workgroup {}, domain {}", v_->name, Sized("", workgroup), Sized("", domain));
    };
    const Manifest& m = m_;
    PointValues p;
    for (const auto& [name, value] : v_->pinned_defines) {
      const double at = name == "W" ? domain.x : name == "H" ? domain.y : name == "WG_X" ? workgroup.x : workgroup.y;
      if (value != at) {
        throw ManifestError{fmt::format("{}: defines.{} = {} (variant {}), but {} is {} at {}: a macro named as a size "
                                        "variable must have its value at every point (or take the workgroup by "
                                        "workgroup_defines)",
                                        m.path.string(), name, value, v_->name, name, at, point())};
      }
    }
    if (dispatch_part_) Dispatch(p, point);
    if (!family_part_) return p;
    for (size_t i = 0; i < m.buffers.size(); ++i) {
      const ManifestBuffer& b = m.buffers[i];
      const double most = kMaxBufferBytes / b.type.Bytes();
      const double count = Value(counts_[i], point);
      if (count != std::floor(count) || count < 1 || count > most) {
        WholeNumber(m, count, most, counts_[i].key, b.count, point(),
                    fmt::format("a whole number of {} elements from 1, at most 2^48 bytes", b.type.glsl));
      }
      p.counts.push_back(static_cast<uint64_t>(count));
    }
    for (size_t i = 0; i < m.images.size(); ++i) {
      std::array<uint32_t, 3> size{};
      for (size_t k = 0; k < 3; ++k) {
        Keyed& keyed = image_sizes_[3 * i + k];
        const double value = Value(keyed, point);
        if (value != std::floor(value) || value < 1 || value > 65536) {
          WholeNumber(m, value, 65536, keyed.key, keyed.expression.text(), point(), "a whole number of texels from 1 to 65536",
                      keyed.line);
        }
        size[k] = static_cast<uint32_t>(value);
      }
      p.image_sizes.push_back(size);
    }
    // A swap trades two resources' slots: they must be alike at every point.
    for (const ManifestVariant* pass : PassesOf(*v_)) {
      for (const auto& [a, b] : pass->swaps) {
        auto find = [&](const std::string& name) -> std::pair<uint64_t, std::array<uint32_t, 3>> {
          for (size_t i = 0; i < m.buffers.size(); ++i) {
            if (m.buffers[i].name == name) return {p.counts[i], {}};
          }
          for (size_t i = 0; i < m.images.size(); ++i) {
            if (m.images[i].name == name) return {0, p.image_sizes[i]};
          }
          return {};
        };
        if (find(a) != find(b)) {
          throw ManifestError{fmt::format("{}:{}: {}.swap: {} and {} at {}: they differ in size (a swap trades two "
                                          "resources of one size)",
                                          m.path.string(), pass->line, pass->pass_key, Quoted(a), Quoted(b), point())};
        }
      }
    }
    for (const Reads& reads : checks_) {
      const std::string out_name = reads.image ? m.images[reads.output].name : m.buffers[reads.output].name;
      const uint64_t scalars = ScalarsOf(p, reads.output, reads.image);
      for (const CheckInput& read : reads.inputs) {
        if (read.image || reads.image) {
          const uint64_t has = ScalarsOf(p, read.buffer, read.image);
          if (has < scalars) {
            throw ManifestError{fmt::format("{}: check {} = {} at {}: reads '{}' at the same scalar, but '{}' has {} "
                                            "values and '{}' {} (read another index as {}(...))",
                                            m.path.string(), reads.key, Quoted(reads.text), point(), read.name,
                                            read.name, has, out_name, scalars, read.name)};
          }
          continue;
        }
        const size_t i = read.buffer;
        const ManifestBuffer& in = m.buffers[i];
        if (reads.by_element && p.counts[i] < p.counts[reads.output]) {
          throw ManifestError{fmt::format("{}: check {} = {} at {}: reads '{}' at the same element, but '{}' has {} "
                                          "elements and '{}' {}",
                                          m.path.string(), reads.key, Quoted(reads.text), point(), in.name, in.name,
                                          p.counts[i], out_name, p.counts[reads.output])};
        }
        if (!reads.by_element && p.counts[i] * in.type.components < scalars) {
          throw ManifestError{fmt::format("{}: check {} = {} at {}: reads '{}' at the same index, but '{}' has {} "
                                          "values and '{}' {}",
                                          m.path.string(), out_name, Quoted(reads.text), point(), in.name, in.name,
                                          p.counts[i] * in.type.components, out_name, scalars)};
        }
      }
    }
    p.elements = Value(elements_[0], point);
    p.bytes = Value(bytes_[0], point);
    if (p.elements <= 0 || p.bytes <= 0) {
      throw ManifestError{fmt::format("{}: elements and bytes at {} give {} and {}: expected more than 0 "
                                      "elements and bytes",
                                      m.path.string(), point(), p.elements, p.bytes)};
    }
    if (!arithmetic_.empty()) {
      p.arithmetic = Value(arithmetic_[0], point);
      if (!(p.arithmetic > 0)) {
        throw ManifestError{fmt::format("{}: arithmetic at {} gives {}: expected more than 0 operations a dispatch",
                                        m.path.string(), point(), p.arithmetic)};
      }
    }
    for (size_t k = 0; k < passes_.size(); ++k) {
      PointEvaluator& pass = *passes_[k];
      pass.At(workgroup, domain, 0);  // the pass's variables at the point
      const double repeat = pass.Value(pass.repeat_[0], point);
      if (repeat != std::floor(repeat) || repeat < 1 || repeat > kMaxDispatches) {
        WholeNumber(m, repeat, kMaxDispatches, pass.repeat_[0].key, v_->passes[k].repeat, point(),
                    fmt::format("a whole number of repetitions from 1 to {}", kMaxDispatches), pass.repeat_[0].line);
      }
      for (uint32_t r = 0; r < static_cast<uint32_t>(repeat); ++r) {
        if (p.passes.size() == kMaxDispatches) {
          throw ManifestError{fmt::format("{}: variant {} at {}: more than {} dispatches in one iteration",
                                          m.path.string(), v_->name, point(), kMaxDispatches)};
        }
        PointValues one = passes_[k]->At(workgroup, domain, r);
        one.pass = static_cast<uint32_t>(k);
        one.repetition = r;
        p.passes.push_back(std::move(one));
      }
    }
    return p;
  }

  // A dispatch's values at the point: its constants, push block, uniforms and groups.
  template <typename Point>
  void Dispatch(PointValues& p, const Point& point) {
    const Manifest& m = m_;
    for (const ManifestVariant::Constant& c : v_->constants) p.constants.push_back(ConstantBits(c, point));
    if (!v_->push_fields.empty()) p.push_bytes = BlockBytes(v_->push_fields, push_fields_, v_->push_size, point);
    for (size_t i = 0; i < v_->uniform_fields.size(); ++i) {
      p.uniforms.push_back(BlockBytes(v_->uniform_fields[i], uniform_fields_[i], v_->uniform_sizes[i], point));
    }
    for (size_t i = 0; i < v_->push.size(); ++i) {
      const double value = Value(push_[i], point);
      PushValue v{.is_float = v_->push[i].find('.') != std::string::npos};
      if (v.is_float) {
        const float f = static_cast<float>(value);
        if (!std::isfinite(f)) {
          throw ManifestError{fmt::format("{}: {}: {} at {} gives {}, beyond a 32-bit float", m.path.string(),
                                          push_[i].key, Quoted(v_->push[i]), point(), value)};
        }
        std::memcpy(&v.bits, &f, sizeof f);
      } else {
        if (value != std::floor(value) || value < -2147483648.0 || value > 4294967295.0) {
          throw ManifestError{fmt::format("{}: {}: {} at {} gives {}: expected a whole number that fits 32 bits "
                                          "(write a '.' in it for a float)",
                                          m.path.string(), push_[i].key, Quoted(v_->push[i]), point(), value)};
        }
        v.bits = value < 0 ? static_cast<uint32_t>(static_cast<int32_t>(value)) : static_cast<uint32_t>(value);
      }
      p.push.push_back(v);
    }
    for (size_t i = 0; i < 3; ++i) {
      const double groups = Value(groups_[i], point);
      if (groups != std::floor(groups) || groups < 1 || groups > 4294967295.0) {
        WholeNumber(m, groups, 4294967295.0, groups_[i].key, v_->groups[i], point(),
                    "a whole number of workgroups from 1");
      }
      p.groups[i] = static_cast<uint64_t>(groups);
    }
  }

 private:
  void SetPoint(Extent workgroup, Extent domain) {
    values_[0] = domain.x;
    values_[1] = domain.y;
    values_[2] = workgroup.x;
    values_[3] = workgroup.y;
    values_[7] = domain.z;
    values_[8] = workgroup.z;
  }

  // An expression and the key it was written under, for messages.
  struct Keyed {
    Expression expression;
    std::string key;
    uint32_t line = 0;  // where it was written, where known
  };
  struct Reads {
    size_t output = 0;  // a buffer, or an image where `image`
    bool image = false;
    std::string text;
    std::string key;          // the output, or "output.member"
    bool by_element = false;  // a struct's member is checked or read: by element, not by scalar
    std::vector<CheckInput> inputs;  // the inputs the check's expression names as variables
  };

  Keyed Parse(const std::string& text, std::string key, uint32_t line = 0) const {
    try {
      return {Expression(text, names_), std::move(key), line};
    } catch (const ExpressionError& e) {
      throw ManifestError{
          fmt::format("{}: {}: {} (variant {}): {}", m_.path.string(), key, Quoted(text), v_->name, e.message)};
    }
  }

  // The expression's value at the point, or a ManifestError naming its key and the point.
  template <typename Point>
  double Value(Keyed& keyed, const Point& point) {
    try {
      return keyed.expression.EvaluateInOrder(values_.data());
    } catch (const ExpressionError& error) {
      throw ManifestError{fmt::format("{}: {}: {} at {}: {}", PathAt(m_, keyed.line), keyed.key,
                                      Quoted(keyed.expression.text()), point(), error.message)};
    }
  }

  // A specialization constant's value at the point as its type's bits.
  template <typename Point>
  uint64_t ConstantBits(const ManifestVariant::Constant& c, const Point& point) {
    const std::string key = fmt::format("specialization.{} (variant {})", c.key, v_->name);
    if (c.kind == 'b') {
      if (c.text == "true") return 1;
      if (c.text == "false") return 0;
    }
    const double value = c.kind == 'b' ? ValueOfText(c.text, key, point) : Value(constants_.at(c.id), point);
    return ScalarBits(c.kind, c.bytes, value, key, c.text, point);
  }

  // `value` as a scalar of `kind` and `bytes`: a bool 0 or 1, an integer whole and within its
  // bits, a float finite in its precision's range. Throws ManifestError naming the key and point.
  template <typename Point>
  uint64_t ScalarBits(char kind, uint32_t bytes, double value, const std::string& key, const std::string& text,
                      const Point& point) const {
    auto refuse = [&](std::string_view what) {
      throw ManifestError{fmt::format("{}: {}: {} at {} gives {}: {}", m_.path.string(), key, Quoted(text), point(),
                                      value, what)};
    };
    const uint32_t bits = bytes * 8;
    switch (kind) {
      case 'b':
        if (value != 0 && value != 1) refuse("a bool takes true, false, 1 or 0");
        return value == 1 ? 1 : 0;
      case 'f':
        if (!std::isfinite(value)) refuse("not a finite number");
        if (bits == 64) return std::bit_cast<uint64_t>(value);
        if (bits == 32) {
          const auto f = static_cast<float>(value);
          if (!std::isfinite(f)) refuse("beyond a 32-bit float");
          return std::bit_cast<uint32_t>(f);
        }
        if (std::abs(value) > 65504) refuse("beyond a 16-bit float");
        return FloatToHalf(static_cast<float>(value));
      default: {
        const bool is_signed = kind == 'i';
        const double most = is_signed ? std::ldexp(1.0, static_cast<int>(bits) - 1) - 1
                                      : std::ldexp(1.0, static_cast<int>(bits)) - 1;
        const double least = is_signed ? -std::ldexp(1.0, static_cast<int>(bits) - 1) : 0;
        if (value != std::floor(value) || value < least || value > most) {
          refuse(fmt::format("expected a whole number that fits a {}-bit {} integer", bits,
                             is_signed ? "signed" : "unsigned"));
        }
        const auto whole = static_cast<int64_t>(value);
        const uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
        return static_cast<uint64_t>(whole) & mask;
      }
    }
  }

  // A block's bytes from its fields at the point.
  template <typename Point>
  std::vector<std::byte> BlockBytes(const std::vector<BlockField>& fields, std::vector<Keyed>& parsed, uint32_t size,
                                    const Point& point) {
    std::vector<std::byte> bytes(size);
    for (size_t i = 0; i < fields.size(); ++i) {
      const BlockField& f = fields[i];
      const uint64_t bits = ScalarBits(f.kind, f.bytes, Value(parsed[i], point), f.key, f.text, point);
      std::memcpy(bytes.data() + f.offset, &bits, f.bytes);  // little-endian hosts
    }
    return bytes;
  }

  template <typename Point>
  double ValueOfText(const std::string& text, const std::string& key, const Point& point) {
    Keyed keyed = Parse(text, key);
    return Value(keyed, point);
  }

  const Manifest& m_;
  const ManifestVariant* v_;
  std::vector<std::string> names_;  // W, H, WG_X, WG_Y, then the numeric defines
  std::vector<double> values_;      // in names_'s order
  // Whether this evaluator gives the family's values (counts, sizes, checks: not a pass's) and a
  // dispatch's (groups, push, constants: not those of a variant of passes).
  bool family_part_ = true, dispatch_part_ = true;
  std::vector<std::unique_ptr<PointEvaluator>> passes_;
  std::vector<Keyed> restrict_;  // [tune] restrict (the family's part only)
  std::vector<Keyed> repeat_;  // a pass's `repeat`, parsed over its variables
  std::vector<Keyed> counts_, image_sizes_, push_, groups_, elements_, bytes_, arithmetic_;
  std::map<uint32_t, Keyed> constants_;  // by constant_id
  std::vector<Keyed> push_fields_;
  std::vector<std::vector<Keyed>> uniform_fields_;
  std::vector<Reads> checks_;
};

struct PointEvaluations::Impl {
  const Manifest* m = nullptr;
  // By variant name and device values: the variant's evaluator, rebound to each point's axes.
  std::map<std::tuple<std::string, double, double, double>, std::unique_ptr<PointEvaluator>> evaluators;
  PointEvaluator& Of(const ManifestVariant& at, const DeviceValues& device) {
    auto& e = evaluators[{at.name, device.subgroup_size, device.vendor_id, device.device_id}];
    if (!e) e = std::make_unique<PointEvaluator>(*m, at, device);
    e->Rebind(at);
    return *e;
  }
};

PointEvaluations::PointEvaluations(const Manifest& m) : impl_(std::make_unique<Impl>()) { impl_->m = &m; }
PointEvaluations::~PointEvaluations() = default;

PointValues PointEvaluations::At(const ManifestVariant& at, Extent workgroup, Extent domain, const DeviceValues& device) {
  return impl_->Of(at, device).At(workgroup, domain);
}

bool PointEvaluations::Allowed(const ManifestVariant& at, Extent workgroup, Extent domain, const DeviceValues& device) {
  return impl_->m->restrict.empty() || impl_->Of(at, device).Allowed(workgroup, domain);
}

namespace {

// The whole of the file at `path`; `what` names it in the error when it cannot be read.
std::string ReadText(const std::filesystem::path& path, std::string_view what) {
  std::ifstream in(path, std::ios::binary);
  if (!in.good()) throw ManifestError{fmt::format("{}: cannot read this {}", path.string(), what)};
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Defects of toml++ 3.3 (Debian 12), kept from the parser by refusing their input first:
// - it reaches __builtin_unreachable when it asks whether some non-ASCII characters are
//   whitespace (U+00A1 to U+0499, for one; its issues 190 and 295). It asks that of any character
//   outside a string or a comment (up to the end of a number, quotes included, which it reads
//   ahead) and of the first character after a line-ending backslash in a string. TOML allows
//   non-ASCII text only inside strings and comments, and there it stays allowed;
// - it assumes (TOML_ASSERT_ASSUME: undefined behaviour where NDEBUG makes it __builtin_assume,
//   as in a clang release build) that a table header's key begins right after "[" or "[[" and
//   blanks (its pull request 301), that no '}' stands where an array's value belongs, that a
//   digit follows the 'T' of a date that has a ':' after it, and that a date, a space and a
//   digit begin a time of two digits.
// Each was found by tests/fuzz/manifest_fuzz.
void RefuseTomlParserTraps(const Reader& r, std::string_view text) {
  enum class In { kCode, kComment, kBasic, kLiteral, kMultiBasic, kMultiLiteral } in = In::kCode;
  bool boundary = true;  // the last character may end a token: what follows may begin a value
  bool scanned = false;  // inside a value the parser reads ahead
  bool line_start = true;  // only blanks so far on this line
  bool date = false;       // the read-ahead value has a '-' or ':' after its first character
  char last = '\0';        // the last character outside blanks, comments and strings' insides
  uint32_t line = 1;
  auto non_ascii = [](char c) { return static_cast<unsigned char>(c) >= 0x80; };
  auto refuse = [&](std::string_view where) {
    r.Fail(line, "TOML",
           fmt::format("a non-ASCII character {}: TOML allows one only inside a string or a comment", where));
  };
  // A UTF-8 byte order mark may open the file (the parser skips it).
  size_t i = text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') ++line;
    switch (in) {
      case In::kCode: {
        if (non_ascii(c)) refuse("outside a string or comment");
        if (c == '}' && (last == '[' || last == ',')) {
          r.Fail(line, "TOML", "a '}' right after '[' or ',' (a value or ']' belongs there)");
        }
        if (line_start && c == '[') {
          size_t next = i + 1 < text.size() && text[i + 1] == '[' ? i + 2 : i + 1;
          while (next < text.size() && (text[next] == ' ' || text[next] == '\t')) ++next;
          if (next < text.size() && !std::isalnum(static_cast<unsigned char>(text[next])) &&
              std::string_view("_-\"']").find(text[next]) == std::string_view::npos) {
            r.Fail(line, "TOML", "a table header must begin with a key: [name] or [[name]]");
          }
        }
        line_start = c == '\n' || (line_start && (c == ' ' || c == '\t'));
        const bool value_end =
            c == ' ' || c == '\t' || (c >= '\n' && c <= '\r') || c == ']' || c == '}' || c == ',' || c == '#';
        if (c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != '#') last = c;
        const bool digit_next = i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1]));
        // A value that begins with a digit or a sign (a number, a date) is read ahead by the
        // parser to its end, quotes included: a quote there opens no string.
        if (scanned && !value_end) {
          if (c == '-' || c == ':') date = true;
          if (date && (c == 'T' || c == 't') && !digit_next) {
            r.Fail(line, "TOML", "a date's 'T' must be followed by its time (1979-05-27T07:32:00)");
          }
          break;
        }
        if (scanned && date && c == ' ' && digit_next) {
          const bool time = i + 3 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 2])) &&
                            text[i + 3] == ':';
          if (!time) r.Fail(line, "TOML", "a time after a date and a space must begin hh: (1979-05-27 07:32:00)");
        }
        scanned = false;
        if (boundary && ((c >= '0' && c <= '9') || c == '+' || c == '-')) {
          scanned = true;
          date = false;
        } else if (c == '#') {
          in = In::kComment;
        } else if (c == '"' || c == '\'') {
          const bool multi = text.substr(i, 3) == std::string(3, c);
          in = c == '"' ? (multi ? In::kMultiBasic : In::kBasic) : (multi ? In::kMultiLiteral : In::kLiteral);
          if (multi) i += 2;
        }
        boundary = value_end || c == '=' || c == '[' || c == '{';
        break;
      }
      case In::kComment:
        if (c == '\n') in = In::kCode;
        boundary = true;
        line_start = c == '\n';
        break;
      case In::kBasic:
      case In::kLiteral:
        if (in == In::kBasic && c == '\\' && i + 1 < text.size() && text[i + 1] != '\n') {
          if (non_ascii(text[i + 1])) refuse("after a backslash");
          ++i;  // an escaped quote does not end the string
        } else if (c == '\n' || c == (in == In::kBasic ? '"' : '\'')) {
          in = In::kCode;
          boundary = c == '\n';
          line_start = c == '\n';
        }
        break;
      case In::kMultiBasic:
      case In::kMultiLiteral: {
        const char quote = in == In::kMultiBasic ? '"' : '\'';
        if (in == In::kMultiBasic && c == '\\') {
          // A line-ending backslash: the parser skips the whitespace after it and asks of the
          // first other character whether it is whitespace too.
          size_t next = i + 1;
          while (next < text.size() && (text[next] == ' ' || text[next] == '\t' || text[next] == '\r' ||
                                        text[next] == '\n')) {
            if (text[next] == '\n') ++line;
            ++next;
          }
          if (next < text.size() && non_ascii(text[next])) refuse("after a backslash");
          i = next == i + 1 ? next : next - 1;  // skip an escaped character, or the whitespace
        } else if (c == quote && text.substr(i, 3) == std::string(3, quote)) {
          // Up to two more quotes are the string's own last characters.
          size_t end = i + 3;
          while (end < text.size() && end < i + 5 && text[end] == quote) ++end;
          i = end - 1;
          in = In::kCode;
          boundary = false;
          line_start = false;
        }
        break;
      }
    }
  }
}

// The element type of a storage buffer's runtime array as a manifest names it ("" for a struct,
// or for a block whose last member is not a runtime array), its member's name and its stride.
struct RuntimeArray {
  std::string element, member;
  uint32_t stride = 0;
};
RuntimeArray RuntimeArrayOf(const Resource& d) {
  if (d.type.members.empty()) return {};
  const Member& last = d.type.members.back();
  if (last.type.kind != TypeLayout::Kind::kRuntimeArray || last.type.element == nullptr) return {};
  return {last.type.element->glsl, last.name, last.type.array_stride};
}

// The element a manifest's buffer of `d` holds: its runtime array's; or, for a block of one scalar
// or vector member and no runtime array ({ uint total; }), that member as the buffer's one element
// (its stride the member's own size: the buffer holds exactly one).
RuntimeArray ElementOf(const Resource& d) {
  RuntimeArray array = RuntimeArrayOf(d);
  if (!array.element.empty() || d.type.members.size() != 1) return array;
  const Member& only = d.type.members.front();
  if (only.type.kind != TypeLayout::Kind::kScalar && only.type.kind != TypeLayout::Kind::kVector) return array;
  const ElementType* type = FindElementType(only.type.glsl);
  return {only.type.glsl, only.name, type != nullptr ? type->Bytes() : 0};
}

// "binding 1 (block Out, float result[])", with "set N" first where N is not 0 and the kind where
// it is not a storage buffer.
std::string Described(const Resource& d) {
  std::string what = d.set == 0 ? fmt::format("binding {}", d.binding) : fmt::format("set {} binding {}", d.set, d.binding);
  if (d.kind != ResourceKind::kStorageBuffer) what = fmt::format("{} at {}", KindName(d.kind), what);
  const RuntimeArray array = RuntimeArrayOf(d);
  if (!d.block.empty()) {
    what += fmt::format(" (block {}{})", d.block,
                        array.member.empty() ? "" : fmt::format(", {} {}[]", array.element.empty() ? "?" : array.element,
                                                                array.member));
  } else if (!d.variable.empty()) {
    what += fmt::format(" ({})", d.variable);
  }
  return what;
}

// A struct's members as a manifest fills and checks them (at `base`, names after `prefix`): scalars,
// vectors and fixed arrays of scalars, nested structs flattened. Returns why a member cannot be.
std::optional<std::string> Flatten(const std::vector<Member>& members, uint32_t base, const std::string& prefix,
                                   std::vector<StructField>& out) {
  for (const Member& member : members) {
    const std::string name = prefix + member.name;
    if (member.name.empty()) return std::string("the shader's struct has no member names (a stripped .spv)");
    const TypeLayout& t = member.type;
    if (t.kind == TypeLayout::Kind::kStruct) {
      if (auto problem = Flatten(t.members, base + member.offset, name + ".", out)) return problem;
      continue;
    }
    const TypeLayout* scalar = &t;
    uint32_t components = 1, stride = 0;
    if (t.kind == TypeLayout::Kind::kVector) {
      components = t.components;
      stride = t.scalar.bits == 0 ? 4 : std::max<uint32_t>(t.scalar.bits / 8, 1);
    } else if (t.kind == TypeLayout::Kind::kArray && t.element != nullptr &&
               t.element->kind == TypeLayout::Kind::kScalar && !t.length_constant_id) {
      scalar = t.element.get();
      components = t.length;
      stride = t.array_stride;
    } else if (t.kind != TypeLayout::Kind::kScalar) {
      return fmt::format("member {} is a {}: a struct buffer's members may be scalars, vectors, arrays of scalars "
                         "(of a literal length) and structs of those",
                         name, t.glsl);
    }
    const ScalarType st = scalar->scalar;
    out.push_back({.name = name,
                   .glsl = t.glsl,
                   .scalar = st.kind == ScalarKind::kFloat ? Scalar::kFloat
                             : st.kind == ScalarKind::kInt ? Scalar::kInt
                                                           : Scalar::kUint,
                   .scalar_bytes = st.kind == ScalarKind::kBool ? 4u : std::max<uint32_t>(st.bits / 8, 1),
                   .components = std::max<uint32_t>(components, 1),
                   .offset = base + member.offset,
                   .component_stride = stride});
  }
  return std::nullopt;
}

// A `type = "struct"` buffer against variant `v`'s shader: the members and stride of the struct its
// runtime array holds, or of the block itself where it has no runtime array (one element). Every
// variant's shader must lay the struct out alike (the reference's outputs are compared byte for
// byte's values with the kernel's).
void ResolveStruct(ManifestBuffer& b, SlotPlace slot, const ManifestVariant& v, const ShaderInterface& shader,
                   const std::string& key) {
  auto d = std::find_if(shader.resources.begin(), shader.resources.end(), [&](const Resource& d) {
    return d.set == slot.set && d.binding == slot.binding && d.kind == ResourceKind::kStorageBuffer;
  });
  if (d == shader.resources.end()) {
    throw ManifestError{fmt::format("{}.binding: the shader {} declares no storage buffer at binding {}{}", key,
                                    v.source.filename().string(), slot.binding,
                                    slot.set == 0 ? "" : fmt::format(" of set {}", slot.set))};
  }
  if (d->count != 1) {
    throw ManifestError{fmt::format("{}.binding: the shader's binding {} is an array of {} descriptors, not one storage "
                                    "buffer",
                                    key, d->binding, d->count)};
  }
  std::vector<StructField> fields;
  uint32_t stride = 0;
  std::optional<std::string> problem;
  const std::vector<Member>& members = d->type.members;
  if (!members.empty() && members.back().type.kind == TypeLayout::Kind::kRuntimeArray) {
    const TypeLayout* element = members.back().type.element.get();
    if (members.size() != 1) {
      problem = "its block has members before the runtime array: a struct buffer is a block of one runtime array of "
                "structs, or a block of no runtime array";
    } else if (element == nullptr || element->kind != TypeLayout::Kind::kStruct) {
      problem = fmt::format("its runtime array holds {}, not a struct: give that type",
                            element == nullptr ? "?" : element->glsl);
    } else {
      problem = Flatten(element->members, 0, "", fields);
      stride = members.back().type.array_stride;
    }
  } else {
    problem = Flatten(members, 0, "", fields);
    stride = d->type.size;
  }
  if (!problem && (fields.empty() || stride == 0)) problem = "the shader gives its struct no members or no stride";
  if (problem) throw ManifestError{fmt::format("{}.type: struct, but the shader's binding {}: {}", key, d->binding, *problem)};
  if (!b.type.fields.empty()) {
    const bool same = b.type.stride == stride && b.type.fields.size() == fields.size() &&
                      std::equal(fields.begin(), fields.end(), b.type.fields.begin(), [](const auto& x, const auto& y) {
                        return x.name == y.name && x.offset == y.offset && x.glsl == y.glsl &&
                               x.component_stride == y.component_stride;
                      });
    if (!same) {
      throw ManifestError{fmt::format("{}.type: the shader lays the struct out differently from another variant's (every "
                                      "variant's struct must have the same members at the same offsets)",
                                      key)};
    }
    return;
  }
  b.type.fields = std::move(fields);
  b.type.stride = stride;
  for (const auto& [named, init] : b.member_inits) {
    const std::string& member = named;  // a named copy: clang before 16 cannot capture a structured binding
    auto f = std::find_if(b.type.fields.begin(), b.type.fields.end(), [&](const auto& f) { return f.name == member; });
    if (f == b.type.fields.end()) {
      std::string names;
      for (const StructField& field : b.type.fields) names += (names.empty() ? "" : ", ") + field.name;
      throw ManifestError{fmt::format("{}:{}: [[buffer]] '{}'.init.{}: the struct has no such member (it has {})",
                                      key.substr(0, key.find(':')), init.line, b.name, member, names)};
    }
    if (init.init == ManifestBuffer::Init::kValue) {
      const ElementType as{.glsl = f->glsl, .scalar = f->scalar, .components = 1, .scalar_bytes = f->scalar_bytes};
      if (auto p = InitValueProblem(as, init.value)) {
        throw ManifestError{fmt::format("{}:{}: [[buffer]] '{}'.init.{}: {}", key.substr(0, key.find(':')), init.line,
                                        b.name, member, *p)};
      }
    }
  }
}

// How a variant's passes reach a resource: whether some slot may write it, and some slot is
// writeonly (so the kernel may not read it), with the first such slot for messages.
struct Access {
  bool writable = false, writeonly = false;
  std::string readable_at, writeonly_at;  // a readonly slot and a writeonly one, described
  bool declared = false;
};

// "set 0 binding 1" (binding 1 where the set is 0).
std::string SlotText(SlotPlace slot) {
  return slot.set == 0 ? fmt::format("binding {}", slot.binding) : fmt::format("set {} binding {}", slot.set, slot.binding);
}

// The resources of `m` against the descriptors pass (or variant) `v`'s shader declares: each at its
// slots with its element type or format, every descriptor the shader declares given by the manifest
// (one left unbound would be read through nothing: a crash, or "never written"); the slots the
// shader declares into `v.declared`, and how it reaches each resource into `access` (by resource:
// buffers, then images). A single-pass variant's shader must declare every slot of every
// resource; a pass's binds only those it declares.
void CheckBindings(Manifest& m, ManifestVariant& v, const ShaderInterface& shader, const std::string& where,
                   std::vector<Access>& access) {
  v.declared.clear();
  auto at_slot = [](const std::vector<SlotPlace>& slots, const Resource& d) {
    return std::find(slots.begin(), slots.end(), SlotPlace{d.set, d.binding}) != slots.end();
  };
  for (const Resource& d : shader.resources) {
    v.declared.insert({d.set, d.binding});
    const bool given = std::any_of(m.buffers.begin(), m.buffers.end(), [&](const auto& b) { return at_slot(b.slots, d); }) ||
                       std::any_of(m.uniforms.begin(), m.uniforms.end(),
                                   [&](const auto& u) { return u.set == d.set && u.binding == d.binding; }) ||
                       std::any_of(m.images.begin(), m.images.end(), [&](const auto& i) { return at_slot(i.slots, d); });
    if (given) continue;
    const std::string slot = SlotText({d.set, d.binding});
    if (d.kind == ResourceKind::kUniformBuffer) {
      throw ManifestError{fmt::format("{}: the shader declares {}, and no [[uniform]] has {}", where, Described(d), slot)};
    }
    if (d.kind == ResourceKind::kStorageBuffer) {
      throw ManifestError{fmt::format("{}: the shader declares {}, and no [[buffer]] has {}", where, Described(d), slot)};
    }
    if (d.kind == ResourceKind::kStorageImage || d.kind == ResourceKind::kCombinedImageSampler) {
      throw ManifestError{fmt::format("{}: the shader declares {}, and no [[image]] has {}", where, Described(d), slot)};
    }
    throw ManifestError{fmt::format("{}: the shader declares {}, which the manifest does not give: a manifest gives "
                                    "storage buffers ([[buffer]]), uniform buffers ([[uniform]]), storage images and "
                                    "combined image samplers ([[image]]); separate images and samplers, texel "
                                    "buffers and input attachments are not supported yet",
                                    where, Described(d))};
  }
  const uint32_t push_bytes = static_cast<uint32_t>(4 * v.push.size());
  const uint32_t block_bytes = shader.push ? shader.push->size : 0;
  if (v.push_values.empty() && push_bytes != block_bytes) {
    throw ManifestError{fmt::format("{}: [push].constants give {} bytes ({} value{} of 4 bytes), but the shader's "
                                    "push-constant block {}has {}",
                                    where, push_bytes, v.push.size(), v.push.size() == 1 ? "" : "s",
                                    shader.push ? fmt::format("{} ", shader.push->block) : "", block_bytes)};
  }
  auto note = [&](Access& a, const Resource& d) {
    a.declared = true;
    if (!d.readonly) a.writable = true;
    if (d.readonly && a.readable_at.empty()) a.readable_at = Described(d);
    if (d.writeonly && !a.writeonly) {
      a.writeonly = true;
      a.writeonly_at = Described(d);
    }
  };
  for (size_t bi = 0; bi < m.buffers.size(); ++bi) {
    ManifestBuffer& b = m.buffers[bi];
    const std::string key =
        fmt::format("{}:{}: [[buffer]] '{}' ({})", m.path.string(), b.line, b.name,
                    v.is_pass ? v.name : "variant " + Quoted(v.name));
    for (const SlotPlace& slot : b.slots) {
      // Several blocks may alias one binding (a buffer read as float16_t and as f16vec4): `type` must
      // be the element of one of them.
      auto here = [&](const Resource& d) { return d.set == slot.set && d.binding == slot.binding; };
      auto d = std::find_if(shader.resources.begin(), shader.resources.end(), [&](const Resource& d) {
        return here(d) && d.kind == ResourceKind::kStorageBuffer && ElementOf(d).element == b.type.glsl;
      });
      if (d == shader.resources.end()) d = std::find_if(shader.resources.begin(), shader.resources.end(), here);
      if (d == shader.resources.end()) {
        if (v.is_pass) continue;
        throw ManifestError{fmt::format("{}.binding: the shader {} declares no storage buffer at binding {}{}", key,
                                        v.source.filename().string(), slot.binding,
                                        slot.set == 0 ? "" : fmt::format(" of set {}", slot.set))};
      }
      note(access[bi], *d);
      if (b.type.is_struct) {
        ResolveStruct(b, slot, v, shader, key);
        continue;
      }
      if (d->kind != ResourceKind::kStorageBuffer || d->count != 1) {
        throw ManifestError{fmt::format("{}.binding: the shader's {}{} is not one storage buffer", key, Described(*d),
                                        d->count != 1 ? fmt::format(", an array of {} descriptors", d->count) : "")};
      }
      const RuntimeArray array = ElementOf(*d);
      if (array.element != b.type.glsl) {
        throw ManifestError{fmt::format("{}.type: '{}', but the shader's {} {}", key, b.type.glsl, Described(*d),
                                        array.element.empty() ? "neither ends in a runtime array of scalars or vectors "
                                                                "nor is one scalar or vector member"
                                                              : "holds " + array.element)};
      }
      if (array.stride != b.type.Bytes()) {
        throw ManifestError{fmt::format("{}.type: the shader's {} has a {}-byte stride, not {} (declare it std430)", key,
                                        Described(*d), array.stride, b.type.Bytes())};
      }
    }
  }
  for (size_t ii = 0; ii < m.images.size(); ++ii) {
    const ManifestImage& image = m.images[ii];
    const std::string key = fmt::format("{}:{}: [[image]] '{}' ({})", m.path.string(), image.line, image.name,
                                        v.is_pass ? v.name : "variant " + Quoted(v.name));
    for (const SlotPlace& slot : image.slots) {
      auto d = std::find_if(shader.resources.begin(), shader.resources.end(),
                            [&](const Resource& d) { return d.set == slot.set && d.binding == slot.binding; });
      if (d == shader.resources.end()) {
        if (v.is_pass) continue;
        throw ManifestError{fmt::format("{}.binding: the shader {} declares no image at {}", key,
                                        v.source.filename().string(), SlotText(slot))};
      }
      note(access[m.buffers.size() + ii], *d);
      const bool storage = d->kind == ResourceKind::kStorageImage, sampled = d->kind == ResourceKind::kCombinedImageSampler;
      if ((!storage && !sampled) || d->count != 1) {
        throw ManifestError{fmt::format("{}.binding: the shader's {}{} is neither one storage image (image2D) nor one "
                                        "combined image sampler (sampler2D)",
                                        key, Described(*d), d->count != 1 ? fmt::format(", an array of {}", d->count) : "")};
      }
      if (sampled != image.sampled) {
        throw ManifestError{fmt::format("{}.usage: \"{}\", but the shader declares {} ({})", key,
                                        image.sampled ? "sampled" : "storage", Described(*d),
                                        sampled ? "give usage = \"sampled\"" : "give usage = \"storage\"")};
      }
      const std::string dim = image.three_d ? "3D" : "2D";
      if (d->image_dim != dim || d->arrayed || d->multisampled) {
        throw ManifestError{fmt::format("{}.depth: the shader's {} is a {}{}{} image, and the manifest's is {} (depth "
                                        "\"1\" makes a 2-D image, another depth a 3-D one; arrays and multisampled "
                                        "images are not supported)",
                                        key, Described(*d), d->image_dim, d->arrayed ? " arrayed" : "",
                                        d->multisampled ? " multisampled" : "", dim)};
      }
      const ScalarKind want = image.format.kind == ImageFormat::Kind::kUint  ? ScalarKind::kUint
                              : image.format.kind == ImageFormat::Kind::kInt ? ScalarKind::kInt
                                                                             : ScalarKind::kFloat;
      if (d->image_sampled.kind != want) {
        throw ManifestError{fmt::format("{}.format: {} texels read as {}, but the shader's {} reads {} (a {}image, "
                                        "{}sampler)",
                                        key, image.format.glsl,
                                        want == ScalarKind::kFloat ? "floats" : want == ScalarKind::kUint ? "uints" : "ints",
                                        Described(*d),
                                        d->image_sampled.kind == ScalarKind::kFloat  ? "floats"
                                        : d->image_sampled.kind == ScalarKind::kUint ? "uints"
                                                                                     : "ints",
                                        want == ScalarKind::kFloat ? "" : want == ScalarKind::kUint ? "u" : "i",
                                        want == ScalarKind::kFloat ? "" : want == ScalarKind::kUint ? "u" : "i")};
      }
      if (storage && d->image_format != "unknown" && d->image_format != image.format.glsl) {
        throw ManifestError{fmt::format("{}.format: {}, but the shader declares {} with the format {}", key,
                                        image.format.glsl, Described(*d), d->image_format)};
      }
      if (storage && d->image_format == "unknown") {
        if (!d->writeonly) v.storage_read_without_format = true;
        if (!d->readonly) v.storage_write_without_format = true;
      }
    }
  }
}

// Each resource reached as its kind allows across the variant's passes: an output has a slot that
// may write it, an input none the shader only writes; a resource a pass swaps is both, and any
// resource no pass declares is a mistake.
void CheckAccess(const Manifest& m, const ManifestVariant& v, const std::vector<Access>& access) {
  const std::set<std::string> swapped = Swapped(v);
  for (size_t r = 0; r < access.size(); ++r) {
    const bool image = r >= m.buffers.size();
    const std::string& name = image ? m.images[r - m.buffers.size()].name : m.buffers[r].name;
    const bool output = image ? m.images[r - m.buffers.size()].output : m.buffers[r].output;
    const uint32_t line = image ? m.images[r - m.buffers.size()].line : m.buffers[r].line;
    const std::string key = fmt::format("{}:{}: {} '{}' (variant {})", m.path.string(), line,
                                        image ? "[[image]]" : "[[buffer]]", name, Quoted(v.name));
    const Access& a = access[r];
    if (!a.declared) {
      throw ManifestError{fmt::format("{}: no pass's shader declares it at its slots", key)};
    }
    if (swapped.contains(name)) continue;
    if (output && !a.writable) {
      throw ManifestError{fmt::format("{}.output: an output, but the shader declares {} readonly", key, a.readable_at)};
    }
    if (!output && a.writeonly) {
      throw ManifestError{fmt::format("{}.output: an input (output = false), but the shader declares {} writeonly", key,
                                      a.writeonly_at)};
    }
  }
}

char KindOf(ScalarType type) {
  switch (type.kind) {
    case ScalarKind::kBool: return 'b';
    case ScalarKind::kInt: return 'i';
    case ScalarKind::kUint: return 'u';
    case ScalarKind::kFloat: return 'f';
  }
  return 'u';
}

// The fields of a block's `members` (at `base`) from `values` by name: every member given, with
// as many values as it has scalars (a vector's components, a matrix's by columns, an array's
// elements in order); a struct member's members as name.member. Names given that the block lacks
// are left in `unused`.
void LayOut(const std::vector<Member>& members, uint32_t base, const std::string& prefix, const NamedValues& values,
            const std::string& where, std::vector<BlockField>& fields, std::set<std::string>& unused) {
  for (const Member& member : members) {
    const std::string name = prefix + member.name;
    const TypeLayout* type = &member.type;
    uint32_t count = 1, stride = 0;
    if (type->kind == TypeLayout::Kind::kArray && type->element != nullptr) {
      count = type->length;
      stride = type->array_stride;
      type = type->element.get();
    }
    if (type->kind == TypeLayout::Kind::kStruct) {
      for (uint32_t e = 0; e < count; ++e) {
        LayOut(type->members, base + member.offset + e * stride,
               count == 1 && member.type.kind != TypeLayout::Kind::kArray ? name + "." : fmt::format("{}[{}].", name, e),
               values, where, fields, unused);
      }
      continue;
    }
    if (type->kind != TypeLayout::Kind::kScalar && type->kind != TypeLayout::Kind::kVector &&
        type->kind != TypeLayout::Kind::kMatrix) {
      throw ManifestError{fmt::format("{}: member {} is a {}, which a manifest cannot give values for", where, name,
                                      type->glsl.empty() ? "type csbench does not lay out" : type->glsl)};
    }
    if (member.name.empty()) {
      throw ManifestError{fmt::format("{}: the shader's SPIR-V keeps no member names: its block cannot be given by "
                                      "name",
                                      where)};
    }
    auto given = values.find(name);
    if (given == values.end()) {
      throw ManifestError{fmt::format("{}: member {} ({}{}) is not given: every member of the block must be", where,
                                      name, type->glsl, count > 1 ? fmt::format("[{}]", count) : "")};
    }
    unused.erase(name);
    const uint32_t columns = type->kind == TypeLayout::Kind::kMatrix ? type->columns : 1;
    const uint32_t components = type->components;
    const uint32_t scalar_bytes = type->scalar.kind == ScalarKind::kBool ? 4 : type->scalar.bits / 8;
    const size_t want = size_t{count} * columns * components;
    if (given->second.size() != want) {
      throw ManifestError{fmt::format("{}: member {} ({}{}) takes {} value{}, and {} {} given", where, name, type->glsl,
                                      count > 1 ? fmt::format("[{}]", count) : "", want, want == 1 ? "" : "s",
                                      given->second.size(), given->second.size() == 1 ? "is" : "are")};
    }
    size_t k = 0;
    for (uint32_t e = 0; e < count; ++e) {
      for (uint32_t c = 0; c < columns; ++c) {
        for (uint32_t r = 0; r < components; ++r, ++k) {
          const uint32_t inner = type->kind != TypeLayout::Kind::kMatrix ? r * scalar_bytes
                                 : type->row_major ? r * type->matrix_stride + c * scalar_bytes
                                                   : c * type->matrix_stride + r * scalar_bytes;
          fields.push_back({.offset = base + member.offset + e * stride + inner,
                            .bytes = scalar_bytes,
                            .kind = KindOf(type->scalar),
                            .text = given->second[k],
                            .key = want == 1 ? name : fmt::format("{}[{}]", name, k)});
        }
      }
    }
  }
}

// The fields of a block from values by name, every name given used.
std::vector<BlockField> BlockFields(const std::vector<Member>& members, const NamedValues& values,
                                   const std::string& where, const std::string& key) {
  std::vector<BlockField> fields;
  std::set<std::string> unused;
  for (const auto& [name, texts] : values) unused.insert(name);
  LayOut(members, 0, "", values, where, fields, unused);
  if (!unused.empty()) {
    throw ManifestError{fmt::format("{}: {} names {}, which the block does not have", where, key, *unused.begin())};
  }
  for (BlockField& f : fields) f.key = fmt::format("{}.{}", key, f.key);
  return fields;
}

// The push block and the uniform buffers of `v` from the manifest's values by name.
void ResolveBlocks(const Manifest& m, ManifestVariant& v, const ShaderInterface& shader, const std::string& where) {
  v.push_fields.clear();
  v.push_size = 0;
  if (!v.push_values.empty()) {
    if (!shader.push) {
      throw ManifestError{fmt::format("{}: [push].values: the shader declares no push-constant block", where)};
    }
    v.push_fields = BlockFields(shader.push->members, v.push_values,
                                fmt::format("{}: [push].values (block {})", where, shader.push->block), "[push].values");
    v.push_size = shader.push->size;
  }
  v.uniform_fields.clear();
  v.uniform_sizes.clear();
  for (const ManifestUniform& u : m.uniforms) {
    const std::string key = fmt::format("{}:{}: [[uniform]] '{}' (variant {})", m.path.string(), u.line, u.name,
                                        Quoted(v.name));
    auto d = std::find_if(shader.resources.begin(), shader.resources.end(),
                          [&](const auto& d) { return d.set == u.set && d.binding == u.binding; });
    if (v.is_pass && d == shader.resources.end()) {
      // A pass binds only what its shader declares.
      v.uniform_fields.emplace_back();
      v.uniform_sizes.push_back(0);
      continue;
    }
    if (d == shader.resources.end() || d->kind != ResourceKind::kUniformBuffer || d->count != 1) {
      throw ManifestError{fmt::format("{}.binding: the shader {} declares no uniform buffer at set {} binding {}{}", key,
                                      v.source.filename().string(), u.set, u.binding,
                                      d == shader.resources.end() ? "" : fmt::format(" (it declares {})", Described(*d)))};
    }
    v.uniform_fields.push_back(
        BlockFields(d->type.members, u.values, fmt::format("{}.values (block {})", key, d->block), "values"));
    v.uniform_sizes.push_back(std::max<uint32_t>(d->type.size, 16));
  }
}

// Where the workgroup goes in `v`'s shader: its workgroup_defines; else the constants its
// local_size_*_id name, whatever their ids; else the shader's literal size, which then is the
// variant's only workgroup (listed or not). No other constant is written by csbench.
void PlaceWorkgroup(ManifestVariant& v, const ShaderInterface& shader, const std::string& where) {
  const LocalSize& size = shader.local_size;
  if (!v.workgroup_defines.empty()) {
    v.local_size_ids = {std::nullopt, std::nullopt, std::nullopt};
    v.local_size_z = size.literal[2];
    if (v.workgroups.empty()) {
      throw ManifestError{fmt::format("{}: workgroup_defines take the workgroups listed in workgroups, and there are "
                                      "none",
                                      where)};
    }
    return;
  }
  v.local_size_z = size.literal[2];
  v.local_size_ids = size.constant_id;
  for (size_t i = 0; i < 2; ++i) v.literal_local_size[i] = size.constant_id[i] ? 0 : size.literal[i];
  // z: written where a workgroup has a third dimension ("XxYxZ"): into the shader's constant, or it
  // must be the shader's literal z. Workgroups of two dimensions leave the shader's z as it is
  // (its literal, or its constant's default), as before there were three.
  const bool z_given = std::any_of(v.workgroups.begin(), v.workgroups.end(), [](Extent wg) { return wg.z != 1; });
  if (!z_given) v.local_size_ids[2] = std::nullopt;
  // A pass of a literal local size runs at it whatever the variant's workgroup (a sequence's scan
  // of one workgroup beside kernels sized by the axis).
  if (v.is_pass && !v.workgroups.empty()) return;
  for (Extent wg : v.workgroups) {
    if (z_given && !size.constant_id[2] && wg.z != size.literal[2]) {
      throw ManifestError{fmt::format("{}: workgroup {} differs from the shader's literal local size z {} (list "
                                      "workgroups of its z, or take z from a constant: local_size_z_id)",
                                      where, Sized("", wg), size.literal[2])};
    }
  }
  const bool x_free = size.constant_id[0].has_value(), y_free = size.constant_id[1].has_value();
  const Extent literal{size.literal[0], size.literal[1]};
  if (v.workgroups.empty()) {
    if (x_free || y_free) {
      throw ManifestError{fmt::format("{}: the shader takes its local size from specialization constants, so the "
                                      "manifest must list workgroups ([family] or the variant's)",
                                      where)};
    }
    v.workgroups = {literal};
    return;
  }
  for (Extent wg : v.workgroups) {
    if ((!x_free && wg.x != literal.x) || (!y_free && wg.y != literal.y)) {
      throw ManifestError{fmt::format("{}: workgroup {} differs from the shader's literal local size {}x{}x{} "
                                      "(a literal size is the shader's own: leave workgroups out, or list that "
                                      "size)",
                                      where, Sized("", wg), size.literal[0], size.literal[1], size.literal[2])};
    }
  }
}

// The specialization a variant gives, by constant_id or name, against the shader's constants:
// each key names one of them (a family-wide key some variant's shader lacks is not set there, but
// must name a constant of some variant), and its value is typed by the constant.
void ResolveConstants(ManifestVariant& v, const ShaderInterface& shader, const std::string& where,
                      std::set<std::string>& used_keys) {
  std::set<std::string> found_here;
  v.constants.clear();
  for (const auto& [key, text] : v.specialization) {
    const bool by_id = key.find_first_not_of("0123456789") == std::string::npos;
    std::vector<const SpecConstant*> found;
    for (const SpecConstant& c : shader.constants) {
      if (by_id ? c.id == std::stoull(key) : std::find(c.names.begin(), c.names.end(), key) != c.names.end()) {
        found.push_back(&c);
      }
    }
    if (!by_id && !shader.has_names && found.empty()) {
      throw ManifestError{fmt::format("{}.specialization.{}: the shader's SPIR-V keeps no names: address its constants "
                                      "by constant_id",
                                      where, key)};
    }
    if (found.size() > 1) {
      throw ManifestError{fmt::format("{}.specialization.{}: two different constants of the shader have this name "
                                      "(ids {} and {}): address it by constant_id",
                                      where, key, found[0]->id, found[1]->id)};
    }
    if (found.empty()) continue;
    const SpecConstant& c = *found[0];
    for (size_t i = 0; i < 3; ++i) {
      if (shader.local_size.constant_id[i] == c.id && v.workgroup_defines.empty()) {
        throw ManifestError{fmt::format("{}.specialization.{}: constant {} is the shader's local size {}: {}", where,
                                        key, c.id, "xyz"[i],
                                        i < 2 ? "the workgroups set it"
                                              : "workgroups are X or XxY, so z keeps the shader's own size")};
      }
    }
    used_keys.insert(key);
    found_here.insert(key);
    ManifestVariant::Constant constant{.id = c.id, .text = text, .key = key};
    switch (c.type.kind) {
      case ScalarKind::kBool: constant.kind = 'b'; constant.bytes = 4; break;
      case ScalarKind::kFloat: constant.kind = 'f'; constant.bytes = c.type.bits / 8; break;
      case ScalarKind::kInt: constant.kind = 'i'; constant.bytes = c.type.bits / 8; break;
      case ScalarKind::kUint: constant.kind = 'u'; constant.bytes = c.type.bits / 8; break;
    }
    if (constant.kind != 'b' && (text == "true" || text == "false")) {
      throw ManifestError{fmt::format("{}.specialization.{}: {}, but the constant is not a bool", where, key, text)};
    }
    // A variant's own key overrides the family's for the same constant, however each is spelt.
    const bool own = v.own_specialization.contains(key);
    auto same = std::find_if(v.constants.begin(), v.constants.end(), [&](const auto& o) { return o.id == c.id; });
    if (same != v.constants.end() && own != v.own_specialization.contains(same->key)) {
      if (own) *same = constant;
      continue;
    }
    if (same != v.constants.end()) {
      throw ManifestError{fmt::format("{}.specialization.{}: constant {} is given twice (by id and by name)", where,
                                      key, c.id)};
    }
    v.constants.push_back(constant);
  }
  for (const std::string& key : v.own_specialization) {
    if (!found_here.contains(key)) {
      throw ManifestError{fmt::format("{}.specialization.{}: the shader {} has no constant of this id or name", where,
                                      key, v.source.filename().string())};
    }
  }
}

// Whether the module has an OpArrayLength (opcode 68): the shader reads a runtime array's length.
bool ReadsArrayLength(const std::vector<uint32_t>& spirv) {
  for (size_t at = 5; at < spirv.size();) {
    const uint32_t words = spirv[at] >> 16;
    if ((spirv[at] & 0xffff) == 68) return true;
    if (words == 0) break;  // ReflectInterface refused such a module already
    at += words;
  }
  return false;
}

// Compiles every variant's shader at each of its workgroups (a compile error names its file and
// line), reflects it, and resolves the workgroup's place, the specialization and the buffers
// against what it declares.
void ResolveShaders(Manifest& m) {
  std::set<std::string> used_keys;
  for (ManifestVariant& variant : m.variants) {
    std::vector<Access> access(m.buffers.size() + m.images.size());
    std::vector<ManifestVariant*> passes;
    if (variant.passes.empty()) passes.push_back(&variant);
    for (ManifestVariant& p : variant.passes) passes.push_back(&p);
    for (ManifestVariant* pass : passes) {
      ManifestVariant& v = *pass;
      const std::string where = v.is_pass ? fmt::format("{}:{}: {}", m.path.string(), v.line, v.pass_key)
                                          : fmt::format("{}:{}: [[variant]] {}", m.path.string(), v.line, Quoted(v.name));
      std::error_code error;
      if (!std::filesystem::is_regular_file(v.source, error)) {
        throw ManifestError{fmt::format("{}.source: {} does not exist", where, v.source.string())};
      }
      const Extent first = v.workgroups.empty() ? Extent{1, 1} : v.workgroups.front();
      ShaderInterface shader;
      try {
        shader = ReflectInterface(CompileShader(SourceOf(v, first, v.language == SourceLanguage::kSpirv)));
      } catch (const std::exception& e) {
        throw ManifestError{fmt::format("{}.source: the shader does not compile: {}", where, OneLine(e.what()))};
      }
      PlaceWorkgroup(v, shader, where);
      v.capabilities = shader.capabilities;
      v.reads_length = ReadsArrayLength(CompileShader(SourceOf(v, first, v.language == SourceLanguage::kSpirv)));
      try {
        // Cached: the benchmarks reuse each.
        for (Extent wg : v.workgroups) CompileShader(SourceOf(v, wg, true));
      } catch (const std::exception& e) {
        throw ManifestError{fmt::format("{}.source: the shader does not compile: {}", where, OneLine(e.what()))};
      }
      ResolveConstants(v, shader, where, used_keys);
      CheckBindings(m, v, shader, where, access);
      ResolveBlocks(m, v, shader, where);
    }
    CheckAccess(m, variant, access);
    if (!variant.passes.empty()) {
      // The variant's workgroups are those its passes run at: a pass of a literal local size keeps
      // its own, and a variant all of whose passes are literal has the first pass's.
      const bool any_free = std::any_of(variant.passes.begin(), variant.passes.end(), [](const ManifestVariant& p) {
        return p.literal_local_size[0] == 0 || p.literal_local_size[1] == 0 || !p.workgroup_defines.empty();
      });
      if (!any_free) variant.workgroups = {variant.passes.front().workgroups.front()};
      for (ManifestVariant& p : variant.passes) {
        variant.reads_length = variant.reads_length || p.reads_length;
        variant.storage_read_without_format = variant.storage_read_without_format || p.storage_read_without_format;
        variant.storage_write_without_format = variant.storage_write_without_format || p.storage_write_without_format;
        for (const std::string& c : p.capabilities) {
          if (std::find(variant.capabilities.begin(), variant.capabilities.end(), c) == variant.capabilities.end()) {
            variant.capabilities.push_back(c);
          }
        }
      }
    }
  }
  // A struct output's member checks name members its shader has.
  for (const ManifestVariant& v : m.variants) {
    for (const auto& [key, text] : v.check) {
      const size_t dot = key.find('.');
      if (dot == std::string::npos) continue;
      const std::string buffer = key.substr(0, dot), member = key.substr(dot + 1);
      auto b = std::find_if(m.buffers.begin(), m.buffers.end(), [&](const auto& b) { return b.name == buffer; });
      if (b == m.buffers.end() || std::none_of(b->type.fields.begin(), b->type.fields.end(),
                                               [&](const StructField& f) { return f.name == member; })) {
        std::string names;
        if (b != m.buffers.end()) {
          for (const StructField& f : b->type.fields) names += (names.empty() ? "" : ", ") + f.name;
        }
        throw ManifestError{fmt::format("{}:{}: check {} (variant {}): '{}' has no member {} (it has {})",
                                        m.path.string(), v.check_lines.contains(key) ? v.check_lines.at(key) : v.line,
                                        Quoted(key), Quoted(v.name), buffer, Quoted(member), names)};
      }
    }
  }
  for (const auto& [key, text] : m.specialization) {
    if (!used_keys.contains(key)) {
      throw ManifestError{fmt::format("{}: [specialization].{}: no variant's shader has a constant of this id or name",
                                      m.path.string(), key)};
    }
  }
}

}  // namespace

std::vector<const ManifestVariant*> PassesOf(const ManifestVariant& v) {
  if (v.passes.empty()) return {&v};
  std::vector<const ManifestVariant*> passes;
  for (const ManifestVariant& p : v.passes) passes.push_back(&p);
  return passes;
}

std::set<std::string> Swapped(const ManifestVariant& v) {
  std::set<std::string> names;
  for (const ManifestVariant& p : v.passes) {
    for (const auto& [a, b] : p.swaps) names.insert({a, b});
  }
  return names;
}

std::vector<CheckInput> CheckInputs(const Manifest& manifest) {
  std::vector<CheckInput> inputs;
  // An output with an init is read as its initial contents (an update in place is checked against
  // the values it updated).
  for (size_t i = 0; i < manifest.buffers.size(); ++i) {
    const ManifestBuffer& b = manifest.buffers[i];
    if (b.output && !b.init_given) continue;
    if (!b.type.is_struct) {
      inputs.push_back({.buffer = i, .name = b.name});
      continue;
    }
    for (size_t f = 0; f < b.type.fields.size(); ++f) {
      inputs.push_back({.buffer = i, .field = static_cast<int>(f), .name = b.name + "." + b.type.fields[f].name});
    }
  }
  for (size_t i = 0; i < manifest.images.size(); ++i) {
    const ManifestImage& image = manifest.images[i];
    if (image.output && !image.init_given) continue;
    inputs.push_back({.buffer = i, .name = image.name, .image = true});
  }
  return inputs;
}

namespace {
// The fixed names and the inputs' of a check expression, in CheckVariables' order before the stats.
std::vector<std::string> CheckNamesBeforeStats(const Manifest& manifest, const std::vector<CheckInput>& inputs) {
  // A buffer named c (before there was a component variable) keeps its name.
  const bool c_taken = std::any_of(inputs.begin(), inputs.end(), [](const auto& in) { return in.name == "c"; });
  std::vector<std::string> names = {"i", "W", "H", c_taken ? "csbench_component" : "c"};
  for (const CheckInput& in : inputs) names.push_back(in.name);
  if (!manifest.images.empty()) names.insert(names.end(), {"x", "y", "z"});
  return names;
}
}  // namespace

std::vector<CheckStat> CheckStats(const Manifest& manifest) {
  const std::vector<CheckInput> inputs = CheckInputs(manifest);
  std::vector<std::string> names = CheckNamesBeforeStats(manifest, inputs);
  std::vector<CheckStat> stats;
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (inputs[k].field >= 0) continue;
    for (int kind = 0; kind < 3; ++kind) {
      const std::string name = inputs[k].name + (kind == 0 ? "_sum" : kind == 1 ? "_min" : "_max");
      if (std::find(names.begin(), names.end(), name) != names.end()) continue;
      names.push_back(name);
      stats.push_back({k, kind, name});
    }
  }
  return stats;
}

std::vector<std::string> CheckVariables(const Manifest& manifest) {
  std::vector<std::string> names = CheckNamesBeforeStats(manifest, CheckInputs(manifest));
  for (const CheckStat& stat : CheckStats(manifest)) names.push_back(stat.name);
  for (const std::string& axis : CheckAxes(manifest)) names.push_back(axis);
  return names;
}

std::vector<std::string> CheckAxes(const Manifest& manifest) {
  std::vector<std::string> names;
  for (const ManifestAxis& axis : manifest.axes) {
    if (axis.numeric) names.push_back(axis.name);
  }
  return names;
}

std::vector<std::string> CheckFunctions(const Manifest& manifest) {
  std::vector<std::string> names;
  for (const ManifestBuffer& b : manifest.buffers) names.push_back(b.name);
  for (const ManifestImage& image : manifest.images) names.push_back(image.name);
  return names;
}

std::optional<std::string> CallProblem(const Manifest& manifest, const std::string& text) {
  for (const FunctionCall& call : FunctionCalls(text)) {
    for (const ManifestBuffer& b : manifest.buffers) {
      if (b.name == call.name && call.arguments != 1) {
        return fmt::format("{}({} argument{}): a buffer is read as {}(j), its scalar j", call.name, call.arguments,
                           call.arguments == 1 ? "" : "s", call.name);
      }
    }
    for (const ManifestImage& image : manifest.images) {
      const int least = image.three_d ? 3 : 2;
      if (image.name == call.name && (call.arguments < least || call.arguments > least + 1)) {
        return fmt::format("{}({} argument{}): {}", call.name, call.arguments, call.arguments == 1 ? "" : "s",
                           image.three_d ? fmt::format("a 3-D image is read as {0}(x, y, z) or {0}(x, y, z, c)", call.name)
                                         : fmt::format("an image is read as {0}(x, y) or {0}(x, y, c)", call.name));
      }
    }
  }
  return std::nullopt;
}

bool HasUnresolvedStruct(const Manifest& manifest) {
  return std::any_of(manifest.buffers.begin(), manifest.buffers.end(),
                     [](const ManifestBuffer& b) { return b.type.is_struct && b.type.fields.empty(); });
}

std::vector<Extent> WorkgroupsOn(const Manifest& m, double subgroup_size) {
  if (m.workgroup_expressions.empty()) return m.workgroups;
  std::vector<Extent> workgroups;
  for (const std::string& text : m.workgroup_expressions) {
    // Checked at load at every subgroup size: whole, 1 to 1024.
    const double width = Expression(text, {"SUBGROUP_SIZE"}).Evaluate({{"SUBGROUP_SIZE", subgroup_size}});
    const Extent wg{static_cast<uint32_t>(width), 1};
    if (std::find(workgroups.begin(), workgroups.end(), wg) == workgroups.end()) workgroups.push_back(wg);
  }
  return workgroups;
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

const std::vector<std::string>& KnownFeatures() {
  static const std::vector<std::string> known = {"subgroup_arithmetic", "subgroup_ballot", "subgroup_shuffle_relative",
                                                 "float_atomic_add"};
  return known;
}

const ElementType* FindElementType(std::string_view glsl) {
  for (const ElementType& e : ElementTypes()) {
    if (e.glsl == glsl) return &e;
  }
  return nullptr;
}

const std::vector<std::string>& InitVariables() {
  static const std::vector<std::string> names = {"i",         "W",         "H", "WG_X",         "WG_Y", "SUBGROUP_SIZE",
                                                 "VENDOR_ID", "DEVICE_ID", "c", "csbench_rand", "D",    "WG_Z"};
  return names;
}

const std::vector<std::string>& ImageInitVariables() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all = InitVariables();
    all.insert(all.end(), {"x", "y", "z"});
    return all;
  }();
  return names;
}

const std::vector<ImageFormat>& ImageFormats() { return kImageFormats; }

const ImageFormat* FindImageFormat(std::string_view glsl) {
  for (const ImageFormat& f : kImageFormats) {
    if (f.glsl == glsl) return &f;
  }
  return nullptr;
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

std::vector<std::vector<Coordinate>> AxisCombinations(const Manifest& m) {
  std::vector<Axis> axes;
  for (const ManifestAxis& axis : m.axes) axes.push_back({.name = axis.name, .prefix = axis.name, .values = axis.values});
  return Combinations(axes);
}

bool Allowed(const Manifest& m, const ManifestVariant& v, Extent workgroup, Extent domain, const DeviceValues& device) {
  return m.restrict.empty() || PointEvaluator(m, v, device).Allowed(workgroup, domain);
}

PointValues EvaluatePoint(const Manifest& m, const ManifestVariant& variant, Extent workgroup, Extent domain,
                          const DeviceValues& device) {
  return PointEvaluator(m, variant, device).At(workgroup, domain);
}

void EvaluatePointAndReference(const Manifest& m, const ManifestVariant& variant, Extent workgroup, Extent domain,
                               const DeviceValues& device) {
  EvaluatePoint(m, variant, workgroup, domain, device);
  // The reference variant runs at every point of the others, to compare with them there.
  for (const ManifestVariant& v : m.variants) {
    if (v.reference && &v != &variant) EvaluatePoint(m, v, workgroup, domain, device);
  }
}

// Every expression at every point the manifest declares (variants x workgroups x domains and test
// domains), so that a bad value is an error now, not a skipped benchmark later; and whether the
// family is one-dimensional.
void EvaluateEveryPoint(const Reader& r, Manifest& m) {
  m.one_dimensional = true;
  // A variant's domains and test domains: its own, else the family's.
  auto domains_of = [&](const ManifestVariant& v) {
    std::vector<Extent> domains = v.domains.empty() ? m.domains : v.domains;
    const std::vector<Extent>& tests = v.test_domains.empty() ? m.test_domains : v.test_domains;
    domains.insert(domains.end(), tests.begin(), tests.end());
    return domains;
  };
  const std::vector<std::vector<Coordinate>> combinations = AxisCombinations(m);
  size_t points = 0;
  for (const ManifestVariant& v : m.variants) {
    points += v.workgroups.size() * domains_of(v).size() * std::max<size_t>(v.subgroup_sizes.size(), 1) *
              combinations.size();
  }
  if (points > kMaxPoints) {
    r.Fail(0, "[family]",
           fmt::format("{} points (variants x workgroups x domains x axes): at most {}", points, kMaxPoints));
  }
  size_t allowed = 0;
  for (const ManifestVariant& base : m.variants) {
    const std::vector<Extent> domains = domains_of(base);
    for (Extent d : domains) m.one_dimensional = m.one_dimensional && d.y == 1 && d.z == 1;
    for (Extent wg : base.workgroups) m.one_dimensional = m.one_dimensional && wg.y == 1 && wg.z == 1;
    // At each subgroup size the variant lists (SUBGROUP_SIZE is that size there), else at the
    // load's default.
    std::vector<DeviceValues> devices;
    for (uint32_t size : base.subgroup_sizes) devices.push_back({.subgroup_size = static_cast<double>(size)});
    if (devices.empty()) devices.emplace_back();
    for (const DeviceValues& device : devices) {
      // Parsed once for the variant (and the reference variant, which runs at every point of the
      // others to compare with them there), rebound to each combination of the axes.
      PointEvaluator evaluator(m, base, device);
      std::vector<const ManifestVariant*> reference_bases;
      for (const ManifestVariant& other : m.variants) {
        if (other.reference && &other != &base) reference_bases.push_back(&other);
      }
      std::vector<std::unique_ptr<PointEvaluator>> references;
      for (const ManifestVariant* other : reference_bases) {
        references.push_back(std::make_unique<PointEvaluator>(m, *other, device));
      }
      for (const std::vector<Coordinate>& combination : combinations) {
        const ManifestVariant v = m.axes.empty() ? base : AtAxes(base, combination);
        std::vector<ManifestVariant> reference_variants;
        for (const ManifestVariant* other : reference_bases) {
          reference_variants.push_back(m.axes.empty() ? *other : AtAxes(*other, combination));
        }
        evaluator.Rebind(v);
        for (size_t k = 0; k < references.size(); ++k) references[k]->Rebind(reference_variants[k]);
        for (Extent wg : v.workgroups) {
          for (Extent d : domains) {
            if (!evaluator.Allowed(wg, d)) continue;
            ++allowed;
            evaluator.At(wg, d);
            for (auto& reference : references) reference->At(wg, d);
          }
        }
      }
    }
  }
  if (allowed == 0 && !m.restrict.empty()) {
    r.Fail(m.restrict_lines.front(), "[tune].restrict", "no point satisfies every restriction: the family has no benchmark");
  }
}

Manifest ParseManifest(std::string_view text, const std::filesystem::path& path) {
  Reader r(path);
  toml::table root;
  RefuseTomlParserTraps(r, text);
  try {
    root = toml::parse(text, path.string());
  } catch (const toml::parse_error& e) {
    r.Fail(e.source().begin.line, "TOML", std::string(e.description()));
  }
  Manifest m;
  m.path = path;
  r.OnlyKeys(root, "manifest",
             {"family", "buffer", "push", "dispatch", "variant", "check", "specialization", "uniform", "image",
              "require", "axes", "tune"});
  ReadFamily(r, r.Table(root, "family", true), m);
  if (const toml::node* constants = root.get("specialization")) {
    m.specialization = ReadSpecialization(r, *constants, "[specialization]");
  }
  ReadBuffers(r, r.ArrayOfTables(root, "buffer"), m);
  ReadUniforms(r, r.ArrayOfTables(root, "uniform"), m);
  ReadImages(r, r.ArrayOfTables(root, "image"), m);
  CheckResourcesTogether(r, m);
  if (const toml::node* require = root.get("require")) ReadRequire(r, *require, m);
  ReadPushAndDispatch(r, root, m);
  // Before every expression: the axes are their variables.
  if (const toml::node* axes = root.get("axes")) ReadAxes(r, *axes, m);
  if (const toml::node* check = root.get("check")) m.check = ReadCheck(r, *check, "[check]", m, m.check_lines);
  ReadVariants(r, r.ArrayOfTables(root, "variant"), m);
  for (ManifestVariant& v : m.variants) TakeAxes(m, v);
  if (const toml::node* tune = root.get("tune")) ReadTune(r, *tune, m);
  RequireSomethingChecked(r, m);

  for (const auto& [name, text] : m.require) {
    const std::string key = fmt::format("[require].{}", name);
    if (!HasUnresolvedStruct(m)) {
      r.CheckExpression(text, CheckVariables(m), m.require_lines.at(name), key, CheckFunctions(m));
    }
    if (auto problem = CallProblem(m, text)) r.Fail(m.require_lines.at(name), key, *problem);
  }
  // Each expression parses over its variables (a syntax error or an unknown name is reported
  // with its key and line here), then gives a usable value at every point.
  std::vector<const ManifestVariant*> every;
  for (const ManifestVariant& v : m.variants) {
    every.push_back(&v);
    for (const ManifestVariant& p : v.passes) every.push_back(&p);
  }
  for (const ManifestVariant* pv : every) {
    const ManifestVariant& v = *pv;
    const std::vector<std::string> names = SizeVariables(v);
    if (v.is_pass) {
      // How many repetitions cannot depend on which one is running.
      std::vector<std::string> without_p = names;
      without_p.pop_back();
      r.CheckExpression(v.repeat, without_p, v.line, v.pass_key + ".repeat");
    }
    for (const ManifestImage& image : m.images) {
      for (const auto& [text, key] : {std::pair{&image.width, "width"}, std::pair{&image.height, "height"},
                                      std::pair{&image.depth, "depth"}}) {
        r.CheckExpression(*text, names, image.line, fmt::format("[[image]] '{}'.{} (variant {})", image.name, key, v.name));
      }
    }
    for (const ManifestBuffer& b : m.buffers) {
      r.CheckExpression(b.count, names, b.line, fmt::format("[[buffer]] '{}'.count (variant {})", b.name, v.name));
    }
    for (size_t i = 0; i < v.push.size(); ++i) {
      r.CheckExpression(v.push[i], names, 0, fmt::format("[push].constants[{}] (variant {})", i, v.name));
    }
    for (size_t i = 0; i < 3; ++i) {
      r.CheckExpression(v.groups[i], names, 0, fmt::format("groups[{}] (variant {})", i, v.name));
    }
    for (const auto& [member, texts] : v.push_values) {
      for (const std::string& text : texts) {
        r.CheckExpression(text, names, 0, fmt::format("[push].values.{} (variant {})", member, v.name));
      }
    }
    for (const ManifestUniform& u : m.uniforms) {
      for (const auto& [member, texts] : u.values) {
        for (const std::string& text : texts) {
          r.CheckExpression(text, names, u.line, fmt::format("[[uniform]] '{}'.values.{} (variant {})", u.name, member,
                                                             v.name));
        }
      }
    }
    for (const auto& [key, text] : v.specialization) {
      if (text == "true" || text == "false") continue;
      r.CheckExpression(text, names, v.line, fmt::format("specialization.{} (variant {})", key, v.name));
    }
    r.CheckExpression(v.elements, names, v.line, fmt::format("elements (variant {})", v.name));
    r.CheckExpression(v.bytes, names, v.line, fmt::format("bytes (variant {})", v.name));
    if (!v.arithmetic.empty()) {
      r.CheckExpression(v.arithmetic, names, v.line, fmt::format("arithmetic (variant {})", v.name));
    }
  }
  for (const ManifestVariant& v : m.variants) {
    for (size_t k = 0; k < m.restrict.size(); ++k) {
      r.CheckExpression(m.restrict[k], SizeVariables(v), m.restrict_lines[k],
                        fmt::format("[tune].restrict[{}] (variant {})", k, v.name));
    }
  }
  std::vector<ManifestVariant*> every_variant;
  for (ManifestVariant& v : m.variants) {
    every_variant.push_back(&v);
    for (ManifestVariant& p : v.passes) every_variant.push_back(&p);
  }
  for (ManifestVariant* each : every_variant) {
    ManifestVariant& v = *each;
    std::vector<std::string> texts = {v.elements, v.bytes, v.arithmetic, v.groups[0], v.groups[1], v.groups[2], v.repeat};
    for (const ManifestBuffer& b : m.buffers) texts.push_back(b.count);
    texts.insert(texts.end(), v.push.begin(), v.push.end());
    for (const auto& [member, values] : v.push_values) texts.insert(texts.end(), values.begin(), values.end());
    for (const ManifestUniform& u : m.uniforms) {
      for (const auto& [member, values] : u.values) texts.insert(texts.end(), values.begin(), values.end());
    }
    for (const auto& [key, text] : v.specialization) texts.push_back(text);
    const std::vector<std::string> names = SizeVariables(v);
    for (const std::string& text : texts) {
      if (text.empty() || text == "true" || text == "false") continue;
      const std::vector<std::string> used = Expression(text, names).Used();
      if (std::find(used.begin(), used.end(), "SUBGROUP_SIZE") != used.end()) v.uses_subgroup_size = true;
    }
  }
  // A variant of passes runs its passes at its subgroup size: any pass's use is the variant's.
  for (ManifestVariant& v : m.variants) {
    for (ManifestVariant& p : v.passes) v.uses_subgroup_size = v.uses_subgroup_size || p.uses_subgroup_size;
    for (ManifestVariant& p : v.passes) p.uses_subgroup_size = v.uses_subgroup_size;
  }
  EvaluateEveryPoint(r, m);
  return m;
}

Manifest LoadManifest(const std::filesystem::path& path) {
  Manifest m = ParseManifest(ReadText(path, "manifest"), path);
  // The compiler resolves a relative source against the kernels folder: make it the manifest's.
  std::error_code error;
  for (ManifestVariant& v : m.variants) {
    if (v.passes.empty()) v.source = std::filesystem::absolute(v.source, error);
    for (ManifestVariant& p : v.passes) p.source = std::filesystem::absolute(p.source, error);
  }
  ResolveShaders(m);
  // Again with the workgroups and constants the shaders gave.
  EvaluateEveryPoint(Reader(path), m);
  // What the run's JSON says it measured: the manifest's text and each source it names, once.
  std::string files = ReadText(path, "manifest");
  std::vector<std::filesystem::path> hashed;
  for (const ManifestVariant& variant : m.variants) {
    for (const ManifestVariant* v : PassesOf(variant)) {
      if (std::find(hashed.begin(), hashed.end(), v->source) != hashed.end()) continue;
      hashed.push_back(v->source);
      files += ReadText(v->source, "shader");
    }
  }
  NoteManifest({.path = path.string(), .sha256 = Sha256Hex(files)});
  return m;
}

std::vector<Manifest> LoadManifests(const std::vector<std::string>& paths) {
  std::vector<Manifest> manifests;
  for (const std::string& given : paths) {
    std::error_code error;
    const std::filesystem::path path(given);
    if (std::filesystem::is_directory(path, error)) {
      std::vector<std::filesystem::path> files;
      for (const auto& entry : std::filesystem::directory_iterator(path, error)) {
        if (entry.path().extension() == ".toml") files.push_back(entry.path());
      }
      if (error) throw ManifestError{fmt::format("--manifest={}: cannot list this folder ({})", given, error.message())};
      if (files.empty()) throw ManifestError{fmt::format("--manifest={}: the folder holds no *.toml manifest", given)};
      std::sort(files.begin(), files.end());
      for (const auto& f : files) manifests.push_back(LoadManifest(f));
    } else if (std::filesystem::exists(path, error)) {
      manifests.push_back(LoadManifest(path));
    } else {
      throw ManifestError{fmt::format("--manifest={}: no such file or folder", given)};
    }
  }
  for (size_t i = 0; i < manifests.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (manifests[i].name == manifests[j].name) {
        throw ManifestError{fmt::format("{} and {} both declare the family {}", manifests[j].path.string(),
                                        manifests[i].path.string(), manifests[i].name)};
      }
    }
  }
  return manifests;
}

}  // namespace csbench
