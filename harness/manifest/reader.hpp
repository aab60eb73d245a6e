// Stage 1, read: the reader of one manifest's TOML (every failure a ManifestError naming the
// file, the line and the key) and the readers of each table, one file per kind.
#pragma once

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness/manifest/expression.hpp"
#include "harness/manifest/manifest.hpp"
#include "harness/manifest/stage.hpp"

namespace csbench::manifest_detail {

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

  // An expression: a string, or a plain number; its [let] names replaced (Expanded).
  std::optional<std::string> ExpressionText(const toml::node* node, std::string_view key) const {
    if (node == nullptr) return std::nullopt;
    if (node->is_string()) return Expanded(node->as_string()->get(), LineOf(*node), key);
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

  // [let] (read_let.cpp): the named sub-expressions, read before any expression. Expanded gives
  // `text` with each whole-word let name replaced by "(" + its expression + ")" (failing with the
  // key where that passes kMaxExpressionChars); CheckLetNames fails where a let takes a name the
  // expressions already have (`taken`).
  void ReadLets(const toml::node* node);
  std::string Expanded(const std::string& text, uint32_t line, std::string_view key) const;
  void CheckLetNames(const std::vector<std::string>& taken) const;

 private:
  std::filesystem::path path_;
  std::map<std::string, std::string> lets_;  // each name's expression, its own lets replaced
  std::map<std::string, uint32_t> let_lines_;
};

// ---- read_family.cpp

// `vulkan = "1.2"`: the Vulkan version a shader is compiled for.
std::optional<std::string> ReadVulkan(const Reader& r, const toml::table& table, std::string_view where);

// `include_dirs = ["include"]`: folders `#include` searches, relative to the manifest's.
std::vector<std::string> ReadIncludeDirs(const Reader& r, const toml::table& table, std::string_view where);

// `workgroup_defines = ["WG_X", "WG_Y"]`: one to three macro names, x first.
std::vector<std::string> ReadWorkgroupDefines(const Reader& r, const toml::table& table, std::string_view where);

// `workgroups` that name SUBGROUP_SIZE or are lists (["SUBGROUP_SIZE", "4"]): each workgroup's one to
// three dimensions as expressions of SUBGROUP_SIZE, checked at every subgroup size from 1 to 128.
// Empty where every entry is a size in numbers.
std::vector<std::vector<std::string>> ReadWorkgroupExpressions(const Reader& r, const toml::table& table,
                                                                std::string_view where);

// `subgroup_sizes = [16, 32, 64]` (numbers, or their text): powers of two from 1 to 128, no repeats.
std::vector<uint32_t> ReadSubgroupSizes(const Reader& r, const toml::table& table, std::string_view where);

// A [specialization] table: constant_id (digits) or name = an expression, or true/false.
std::map<std::string, std::string> ReadSpecialization(const Reader& r, const toml::node& node, std::string_view where);

void ReadFamily(const Reader& r, const toml::table& family, Manifest& m);

// ---- read_buffer.cpp

// A buffer's `init` (or a struct member's): "random", "zero", "iota", a number or an expression.
// A number is checked against `type` where it is known (a struct member's once the shader is read).
ManifestBuffer::MemberInit ReadInit(const Reader& r, const toml::node& init, const std::string& where,
                                    const ElementType* type);

// A resource's slots: `bindings = [[set, binding], ...]`, or `binding` (and `set`, default 0).
std::vector<SlotPlace> ReadSlots(const Reader& r, const toml::table& t, const std::string& where, uint32_t line);

void ReadBuffers(const Reader& r, const toml::array& buffers, Manifest& m);

// ---- read_image.cpp

// The names a resource of a family with an image output may not take: x, y and c are the texel's
// coordinates and channel in its checks.
bool ImageCoordinateName(const std::string& name);

void ReadImages(const Reader& r, const toml::array& images, Manifest& m);

// The sampler keys of `t` (`filter`, `address`, `border`, `unnormalized`), each checked as Vulkan's sampler takes it.
void ReadSamplerKeys(const Reader& r, const toml::table& t, const std::string& where, SamplerKeys& keys);

// [[sampler]] tables: separate samplers, each at one slot.
void ReadSamplers(const Reader& r, const toml::array& samplers, Manifest& m);

// ---- read_files.cpp

// A [[buffer]]'s `init = { file = "..." }` and `expect = { file = "...", ... }` (b.output read):
// true where its init is a file (the other forms of init are then not read). Refuses a file with a
// member's init beside it, with `header`, and `expect` on a buffer that is no output.
bool ReadBufferFiles(const Reader& r, const toml::table& t, const std::string& where, ManifestBuffer& b);

// An [[image]]'s (or a view's) the same (image.output and image.levels read); refuses a file init
// on an image of more than one level.
bool ReadImageFiles(const Reader& r, const toml::table& t, const std::string& where, ManifestImage& image);

// Finds every data file of `m`, sets its size and hashes it (once a file): the hashes in order, for
// the run's provenance. A file that is missing or cannot be read is a ManifestError naming it.
std::string LoadDataFiles(Manifest& m);

// Each data file of known size against its resource's bytes at a point `p` of variant `variant`: a
// ManifestError naming the file, both sizes and the point where one differs.
void CheckDataFileSizes(const Manifest& m, const PointValues& p, const std::string& variant, Extent workgroup,
                        Extent domain);

// ---- read_uniform.cpp

// A `values` table: member name = an expression (a string, a number, true or false), or a list of
// them for a vector, a matrix or an array.
NamedValues ReadNamedValues(const Reader& r, const toml::node& node, const std::string& where);

void ReadUniforms(const Reader& r, const toml::array& uniforms, Manifest& m);

// A variant's or a pass's own `uniform` table (`[variant.uniform.NAME]`,
// `[variant.pass.uniform.NAME]`): members of the [[uniform]] NAME over those it has already.
void ReadOwnUniforms(const Reader& r, const toml::table& t, const std::string& where, const Manifest& m,
                     ManifestVariant& v);

// ---- read_push.cpp

// `groups = ["x", "y", "z"]`: three expressions, the workgroups of a dispatch.
std::array<std::string, 3> ReadGroups(const Reader& r, const toml::table& table, const std::string& key);

// A [push] table (the family's, or a variant's own): `constants` in order, or `values` by name.
void ReadPush(const Reader& r, const toml::table& push, const std::string& where, std::vector<std::string>& constants,
              NamedValues& named);

void ReadPushAndDispatch(const Reader& r, const toml::table& root, Manifest& m);

// ---- read_check.cpp

std::map<std::string, std::string> ReadCheck(const Reader& r, const toml::node& node, std::string_view where,
                                             const Manifest& m, std::map<std::string, uint32_t>& lines);

// ---- read_preamble.cpp

// `preamble = "..."` or `preamble = { file = "common.glsl" }` of `table` (none: nullopt); a file is
// only named here (LoadPreambleFiles reads it).
std::optional<ManifestPreamble> ReadPreamble(const Reader& r, const toml::table& table, const std::string& where);

// Sets `v.preamble` from the outer levels' parts (`outer`: the family's, or a pass's variant's) and
// `table`'s own after them. A GLSL source's only: an HLSL or SPIR-V one takes none, and a preamble
// of its own is an error.
void TakePreamble(const Reader& r, const toml::table& table, const std::string& where,
                  const std::vector<ManifestPreamble>& outer, ManifestVariant& v);

// A define's macro name: "load" of "load(buf,i)", the whole of an object-like one.
std::string MacroName(const std::string& define);

// A function-like `defines` key ("load(buf, i)", with a '('): as the compiler takes it ("load(buf,i)"),
// or empty with `why` set (a bad name or parameter, a parameter named twice).
std::string FunctionLikeMacro(const std::string& key, std::string& why);

// Reads the text of every preamble part given as a file (a missing, unreadable or too large file
// is a ManifestError naming the key and line).
void LoadPreambleFiles(Manifest& m);

// ---- read_variant.cpp

void ReadDefines(const Reader& r, const toml::node& node, const std::string& where, ManifestVariant& v);

// [axes]: NAME = [values], each benchmark taking one value of each, in declaration order.
void ReadAxes(const Reader& r, const toml::node& node, Manifest& m);

// [tune]: what a search may leave out (restrict).
void ReadTune(const Reader& r, const toml::node& node, Manifest& m);

// ---- read_pass.cpp

// A variant's [[variant.pass]] tables: each a variant of its own that takes the variant's keys
// (defines, specialization, push, groups, vulkan, include_dirs, entry) where it gives none of its own.
void ReadPasses(const Reader& r, const toml::node& node, const std::string& where, const Manifest& m,
                ManifestVariant& v);

// ---- read_variant.cpp

void ReadVariants(const Reader& r, const toml::array& variants, Manifest& m);

// ---- evaluate.cpp

// Every expression at every point the manifest declares (variants x workgroups x domains and test
// domains), so that a bad value is an error now, not a skipped benchmark later; and whether the
// family is one-dimensional.
void EvaluateEveryPoint(const Reader& r, Manifest& m);

}  // namespace csbench::manifest_detail
