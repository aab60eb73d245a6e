// Stage 1, read: a variant's [[variant.pass]] tables (a sequence of dispatches).
#include "harness/manifest/manifest.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <set>

#include "harness/manifest/reader.hpp"
#include "harness/manifest/stage.hpp"

namespace csbench {
using namespace manifest_detail;

namespace manifest_detail {

namespace {

// A pass's `bind`: resource name = { set, binding, element }, each resource at one slot and no
// slot taken twice.
void ReadBinds(const Reader& r, const toml::node& node, const std::string& at, const Manifest& m, ManifestVariant& p) {
  if (!node.is_table() || node.as_table()->empty()) {
    r.Fail(Reader::LineOf(node), at, "expected a table: resource = { set = 0, binding = 0 }");
  }
  for (const auto& [key, value] : *node.as_table()) {
    const std::string name(key.str());
    const std::string where = fmt::format("{}.{}", at, name);
    const bool known =
        std::any_of(m.buffers.begin(), m.buffers.end(), [&](const auto& b) { return b.name == name; }) ||
        std::any_of(m.images.begin(), m.images.end(), [&](const auto& i) { return i.name == name; });
    if (!known) {
      r.Fail(Reader::LineOf(value), where,
             fmt::format("{} is no [[buffer]] or [[image]] of the manifest (a [[uniform]] is not bound by name, nor, "
                         "yet, a [[sampler]])",
                         Quoted(name)));
    }
    if (!value.is_table()) r.Fail(Reader::LineOf(value), where, "expected a table: { set = 0, binding = 0 }");
    r.OnlyKeys(*value.as_table(), where, {"set", "binding", "element"});
    const SlotPlace slot = ReadSlots(r, *value.as_table(), where, Reader::LineOf(value)).front();
    for (const ManifestUniform& u : m.uniforms) {
      if (SlotPlace{u.set, u.binding, u.element} == slot) {
        r.Fail(Reader::LineOf(value), where,
               fmt::format("[[uniform]] {} sits at set {} binding {} element {}: a bind takes a slot no [[uniform]] "
                           "has",
                           Quoted(u.name), slot.set, slot.binding, slot.element));
      }
    }
    for (const auto& [other, taken] : p.binds) {
      if (taken == slot) {
        r.Fail(Reader::LineOf(value), where,
               fmt::format("set {} binding {} element {} is bound to {} too: one resource a slot", slot.set,
                           slot.binding, slot.element, Quoted(other)));
      }
    }
    p.binds.emplace_back(name, slot);
  }
}

}  // namespace

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
                "include_dirs", "workgroup_defines", "uniform", "preamble", "bind"});
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
        // By the macro's name: a pass may give a function-like macro for the variant's object-like one.
        std::erase_if(p.defines, [&](const Define& o) { return MacroName(o.name) == MacroName(d.name); });
        p.defines.push_back(d);
        if (d.name.find('(') != std::string::npos) {
          p.numeric_defines.erase(MacroName(d.name));
          p.pinned_defines.erase(MacroName(d.name));
          if (std::any_of(m.axes.begin(), m.axes.end(), [&](const auto& a) { return a.name == MacroName(d.name); })) {
            r.Fail(Reader::LineOf(*defines), fmt::format("{}.defines.{}", at, Quoted(d.name)),
                   fmt::format("[axes] has an axis {}, a macro of that name", MacroName(d.name)));
          }
        }
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
    ReadOwnUniforms(r, t, at, m, p);
    if (auto defines = ReadWorkgroupDefines(r, t, at); !defines.empty()) p.workgroup_defines = defines;
    for (const std::string& name : p.workgroup_defines) {
      if (std::any_of(p.defines.begin(), p.defines.end(),
                      [&](const Define& d) { return d.name != name && MacroName(d.name) == name; })) {
        r.Fail(p.line, at + ".workgroup_defines",
               fmt::format("{} is also a function-like macro of defines: the workgroup's macro takes the workgroup's "
                           "size",
                           Quoted(name)));
      }
    }
    TakePreamble(r, t, at, v.preamble, p);
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
        for (const ManifestImage& image : m.images) {
          const bool family = image.view_of >= 0 || image.levels > 1;
          if (family && (image.name == a || image.name == b)) {
            r.Fail(
                Reader::LineOf(pair), at + ".swap",
                fmt::format(
                    "{}: an image of several mip levels, or a view of one, is not swapped (its levels share one image)",
                    Quoted(image.name)));
          }
        }
        p.swaps.emplace_back(a, b);
      }
    }
    if (const toml::node* bind = t.get("bind")) ReadBinds(r, *bind, at + ".bind", m, p);
    v.passes.push_back(std::move(p));
  }
  // A swapped resource moves between slots with each repetition: a bind of it would be checked at
  // load against a slot it may not hold then.
  const std::set<std::string> swapped = Swapped(v);
  for (const ManifestVariant& p : v.passes) {
    for (const auto& [name, slot] : p.binds) {
      if (swapped.contains(name)) {
        r.Fail(p.line, fmt::format("{}.bind.{}", p.pass_key, name),
               fmt::format("{} is swapped by a pass of this variant: a resource a pass swaps is not bound by one "
                           "(its slots change with every repetition)",
                           Quoted(name)));
      }
    }
  }
}

}  // namespace manifest_detail

}  // namespace csbench
