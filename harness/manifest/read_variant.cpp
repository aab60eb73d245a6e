// Stage 1, read: [[variant]] tables, their defines, and the [axes] and [tune] tables that
// multiply them.
#include "harness/manifest/manifest.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "harness/manifest/reader.hpp"
#include "harness/manifest/stage.hpp"

namespace csbench {
using namespace manifest_detail;

namespace manifest_detail {

void ReadDefines(const Reader& r, const toml::node& node, const std::string& where, ManifestVariant& v) {
  if (!node.is_table()) r.Fail(Reader::LineOf(node), where, "expected a table, e.g. { PER_ITEM = 4 }");
  for (auto&& [key, value] : *node.as_table()) {
    const std::string name(key.str());
    const std::string full = fmt::format("{}.{}", where, name.find('(') == std::string::npos ? name : Quoted(name));
    // Two keys of one table for one macro ("load(a)" and "load(b)", or "load" and "load(a)"). (The
    // line is named: clang before 16 cannot capture a structured binding.)
    const uint32_t line = Reader::LineOf(value);
    auto once = [&](const std::string& macro) {
      for (const Define& d : v.defines) {
        if (MacroName(d.name) == MacroName(macro) && d.name != macro) {
          r.Fail(line, full,
                 fmt::format("macro {} is defined twice (also as {})", MacroName(macro), Quoted(d.name)));
        }
      }
    };
    if (name.find('(') != std::string::npos) {
      // A function-like macro ("load(buf, i)" = "buf[i]"): its body is text, never a variable.
      std::string why;
      const std::string define = FunctionLikeMacro(name, why);
      if (define.empty()) r.Fail(Reader::LineOf(value), full, why);
      if (!value.is_string()) {
        r.Fail(Reader::LineOf(value), full, "a function-like macro's body is a string, e.g. \"buf[i]\"");
      }
      const std::string text = value.as_string()->get();
      if (std::any_of(text.begin(), text.end(), [](char c) { return c == '\n' || c == '\r' || c == '\0'; })) {
        r.Fail(Reader::LineOf(value), full, "a macro's text must be one line");
      }
      once(define);
      v.defines.push_back({define, text});
      continue;
    }
    if (!IsVariableName(name)) {
      r.Fail(Reader::LineOf(value), full,
             "expected a macro name of letters, digits and '_' that starts with a letter, or a function-like macro "
             "such as \"load(buf, i)\"");
    }
    once(name);
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

}  // namespace manifest_detail

namespace {

// Names an axis may not take: the size variables, a check's fixed variables and the JSON's own
// axes (a point's coordinates are keyed by axis name).
bool ReservedAxisName(const std::string& name) {
  static const std::set<std::string> kTaken = {"D", "WG_Z", "P", "c", "x", "y", "z", "workgroup", "domain",
                                               "subgroup_size", "variant", "family"};
  return kReservedNames.contains(name) || kTaken.contains(name) || name.starts_with("csbench_");
}

}  // namespace

namespace manifest_detail {

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
    // Not the structured binding itself: clang before 16 cannot capture one (the fuzz target's compiler).
    auto named = [&, &axis = name](const auto& list) {
      return std::any_of(list.begin(), list.end(), [&](const auto& item) { return item.name == axis; });
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

}  // namespace manifest_detail

namespace {

// The macro text of an axis's value: a whole number as an integer, another number as a float.
std::string AxisMacroText(const AxisValue& value) {
  if (!value.is_number()) return value.text();
  const double x = value.number();
  if (x == std::floor(x) && std::abs(x) < 0x1p53) return fmt::format("{}", static_cast<int64_t>(x));
  return FloatText(x);
}

}  // namespace

namespace manifest_detail {

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

void TakeAxes(const Manifest& m, ManifestVariant& v) {
  for (const ManifestAxis& axis : m.axes) {
    const bool own = std::any_of(v.defines.begin(), v.defines.end(), [&](const Define& d) { return d.name == axis.name; });
    if (own) continue;
    v.axes_taken.insert(axis.name);
    SetAxis(v, axis.name, axis.values.front());
  }
  for (ManifestVariant& pass : v.passes) TakeAxes(m, pass);
}

namespace {

// A variant's name (unique, and fit for the benchmarks' names), its source (none for a variant
// of passes), Vulkan target, include folders, entry point and defines. Sets `where`, the
// variant's name in messages, and `passes`, its [[variant.pass]] array or null.
void ReadVariantSource(const Reader& r, const toml::table& t, const Manifest& m, ManifestVariant& v,
                       std::string& where, const toml::node*& passes) {
  v.name = *r.String(t, "[[variant]]", "name", true);
  where = fmt::format("[[variant]] {}", Quoted(v.name));
  if (!IsNamePart(v.name) || v.name == "plain_loop") {
    r.Fail(v.line, where + ".name",
           "expected 1 to 64 letters, digits, '_', '-' or '.', not plain_loop (it is part of each benchmark's name)");
  }
  if (std::any_of(m.variants.begin(), m.variants.end(), [&](const auto& o) { return o.name == v.name; })) {
    r.Fail(v.line, where + ".name", "two variants have this name");
  }
  passes = t.get("pass");
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
    // An axis is a macro of its own: a function-like macro of its name would define it twice.
    for (const Define& d : v.defines) {
      if (d.name.find('(') == std::string::npos) continue;
      if (std::any_of(m.axes.begin(), m.axes.end(),
                      [&](const ManifestAxis& a) { return a.name == MacroName(d.name); })) {
        r.Fail(Reader::LineOf(*defines), fmt::format("{}.defines.{}", where, Quoted(d.name)),
               fmt::format("[axes] has an axis {}, a macro of that name", MacroName(d.name)));
      }
    }
  }
  TakePreamble(r, t, where, m.preamble, v);
}

// How a variant is compared and counted: reference, tolerances, the device features it requires,
// and its elements, bytes and arithmetic (the family's where it gives none).
void ReadVariantComparison(const Reader& r, const toml::table& t, const std::string& where, const Manifest& m,
                           ManifestVariant& v) {
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
}

// A variant's dispatch shape and constants: workgroups, domains, push constants, groups,
// specialization constants, subgroup sizes and the workgroup's macros (the family's where it
// gives none).
void ReadVariantShape(const Reader& r, const toml::table& t, const std::string& where, const Manifest& m,
                      ManifestVariant& v) {
  v.workgroup_expressions = ReadWorkgroupExpressions(r, t, where);
  if (v.workgroup_expressions.empty()) v.workgroups = r.Extents(t, where, "workgroups", "workgroup", false);
  v.workgroups_from_family = t.get("workgroups") == nullptr;
  if (v.workgroups_from_family) {
    v.workgroups = m.workgroups;
    v.workgroup_expressions = m.workgroup_expressions;
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
  ReadOwnUniforms(r, t, where, m, v);
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
  // Workgroups of SUBGROUP_SIZE: their values at the load's default, or at each listed size; a
  // pipeline sized from the subgroup is made at the size its workgroup was computed for.
  if (!v.workgroup_expressions.empty()) {
    v.workgroups = VariantWorkgroupsOn(v, DeviceValues{}.subgroup_size);
    v.uses_subgroup_size = true;
  }
  v.workgroup_defines = ReadWorkgroupDefines(r, t, where);
  if (v.workgroup_defines.empty()) v.workgroup_defines = m.workgroup_defines;
  if (!v.workgroup_defines.empty() && v.language == SourceLanguage::kSpirv) {
    r.Fail(v.line, where + ".workgroup_defines",
           "a .spv module is compiled already: it takes no macros (workgroup_defines here or in [family])");
  }
  for (const std::string& name : v.workgroup_defines) {
    if (std::any_of(v.defines.begin(), v.defines.end(), [&](const Define& d) { return MacroName(d.name) == name; })) {
      r.Fail(v.line, where + ".workgroup_defines",
             fmt::format("{} is also in defines: the workgroup's macro takes the workgroup's size", Quoted(name)));
    }
  }
}

// A variant's checks (the family's [check], overridden by its own) and its passes; a check of a
// resource that is no output must have a pass that swaps it.
void ReadVariantChecks(const Reader& r, const toml::table& t, const std::string& where, const toml::node* passes,
                       Manifest& m, ManifestVariant& v) {
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
}

// Every output of every variant must be compared with something: a benchmark whose output is
// never checked would report a number nobody knows to be right.
void RequireEveryOutputChecked(const Reader& r, const Manifest& m, bool any_reference) {
  for (const ManifestVariant& v : m.variants) {
    std::vector<std::string> outputs;
    // An output with an `expect` file is checked against the file.
    for (const ManifestBuffer& b : m.buffers) {
      if (b.output && !b.expect.Given()) outputs.push_back(b.name);
    }
    for (const ManifestImage& image : m.images) {
      if (image.output && !image.expect.Given()) outputs.push_back(image.name);
    }
    for (const std::string& name : outputs) {
      const bool checked = v.check.contains(name) || m.require.contains(name) ||
                           std::any_of(v.check.begin(), v.check.end(),
                                       [&](const auto& c) { return c.first.starts_with(name + "."); });
      if (!checked && !any_reference) {
        r.Fail(v.line, fmt::format("[[variant]] {}", Quoted(v.name)),
               fmt::format("output {} is checked against nothing: give [check] {} = \"...\", a [require] {} = "
                           "\"...\" or mark one variant reference = true",
                           Quoted(name), name, name));
      }
    }
  }
}

}  // namespace

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
                "test_domains", "pass", "uniform", "preamble"});
    std::string where;
    const toml::node* passes = nullptr;
    ReadVariantSource(r, t, m, v, where, passes);
    ReadVariantComparison(r, t, where, m, v);
    ReadVariantShape(r, t, where, m, v);
    ReadVariantChecks(r, t, where, passes, m, v);
    m.variants.push_back(std::move(v));
  }
  const auto references = std::count_if(m.variants.begin(), m.variants.end(), [](const auto& v) { return v.reference; });
  if (references > 1) r.Fail(0, "[[variant]].reference", "more than one variant is the reference");
  RequireEveryOutputChecked(r, m, references > 0);
}

}  // namespace manifest_detail

}  // namespace csbench
