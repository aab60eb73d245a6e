// Stage 1, read: [[uniform]] tables and the named values they and push constants take.
#include "harness/manifest/manifest.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <array>

#include "harness/manifest/reader.hpp"
#include "harness/manifest/stage.hpp"

namespace csbench {
using namespace manifest_detail;

namespace manifest_detail {

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
    r.OnlyKeys(t, "[[uniform]]", {"name", "binding", "set", "element", "values"});
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
    if (const toml::node* element = t.get("element")) {
      if (!element->is_integer() || element->as_integer()->get() < 0 || element->as_integer()->get() > 1023) {
        r.Fail(Reader::LineOf(*element), where + ".element",
               "expected the element of the binding's array of uniform buffers: an integer from 0 to 1023");
      }
      u.element = static_cast<uint32_t>(element->as_integer()->get());
    }
    if (std::any_of(m.uniforms.begin(), m.uniforms.end(), [&](const auto& o) { return o.name == u.name; })) {
      r.Fail(u.line, where + ".name", "two uniform buffers have this name");
    }
    const bool taken = std::any_of(m.buffers.begin(), m.buffers.end(),
                                   [&](const auto& b) { return b.set == u.set && b.binding == u.binding; }) ||
                       std::any_of(m.uniforms.begin(), m.uniforms.end(), [&](const auto& o) {
                         return o.set == u.set && o.binding == u.binding && o.element == u.element;
                       });
    if (taken) {
      r.Fail(u.line, where + ".binding",
             fmt::format("set {} binding {}{} is given twice", u.set, u.binding,
                         t.get("element") != nullptr ? fmt::format(" element {}", u.element) : ""));
    }
    // Without `values`, every member comes from the variants' or passes' own tables.
    if (const toml::node* values = t.get("values")) u.values = ReadNamedValues(r, *values, where + ".values");
    m.uniforms.push_back(std::move(u));
  }
}

void ReadOwnUniforms(const Reader& r, const toml::table& t, const std::string& where, const Manifest& m,
                     ManifestVariant& v) {
  const toml::node* node = t.get("uniform");
  if (node == nullptr) return;
  const std::string key = where + ".uniform";
  if (!node->is_table()) {
    r.Fail(Reader::LineOf(*node), key, "expected a table of uniform buffers by name: [variant.uniform.NAME]");
  }
  for (auto&& [name_key, value] : *node->as_table()) {
    const std::string name(name_key.str());
    const std::string full = fmt::format("{}.{}", key, Quoted(name));
    if (std::none_of(m.uniforms.begin(), m.uniforms.end(), [&](const ManifestUniform& u) { return u.name == name; })) {
      std::string names;
      for (const ManifestUniform& u : m.uniforms) names += (names.empty() ? "" : ", ") + u.name;
      r.Fail(Reader::LineOf(value), full,
             fmt::format("no [[uniform]] is named {} ({})", Quoted(name),
                         names.empty() ? "the manifest declares none" : "declared: " + names));
    }
    if (!value.is_table() || value.as_table()->empty()) {
      r.Fail(Reader::LineOf(value), full, "expected a table of member = value (at least one member)");
    }
    for (auto& [member, texts] : ReadNamedValues(r, value, full)) v.uniform_values[name][member] = texts;
  }
}

}  // namespace manifest_detail

}  // namespace csbench
