// Stage 1, read: a manifest's file to its declarations. The TOML is guarded, parsed and read
// table by table (each kind in its read_*.cpp), then handed on: the shaders resolved against
// their reflection (resolve.cpp) and every expression evaluated at every point (evaluate.cpp).
#include "harness/manifest/manifest.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/base/provenance.hpp"
#include "harness/manifest/expression.hpp"
#include "harness/manifest/reader.hpp"
#include "harness/manifest/stage.hpp"

namespace csbench {
using namespace manifest_detail;

namespace {

// What a variant of passes binds itself: no uniform buffer (its passes do). Both sides of the
// choice are lvalues, so choosing copies nothing.
const std::vector<ManifestUniform> kNoUniforms;

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

// What the resources' tables decide together: every slot given once (buffers, uniforms and images),
// and in a family with an image, no resource called x, y, z or c (its checks' texel and channel).
void CheckResourcesTogether(const Reader& r, const Manifest& m) {
  std::map<SlotPlace, std::string> owner;
  auto take = [&](const std::vector<SlotPlace>& slots, const std::string& what, uint32_t line) {
    for (const SlotPlace& slot : slots) {
      auto [at, fresh] = owner.emplace(slot, what);
      if (!fresh && at->second != what) {
        r.Fail(line, what + ".binding",
               fmt::format("set {} binding {}{} is given twice (also to {})", slot.set, slot.binding,
                           slot.element != 0 ? fmt::format(" element {}", slot.element) : "", at->second));
      }
    }
  };
  for (const ManifestBuffer& b : m.buffers) take(b.slots, fmt::format("[[buffer]] {}", Quoted(b.name)), b.line);
  for (const ManifestUniform& u : m.uniforms) {
    take({{u.set, u.binding, u.element}}, fmt::format("[[uniform]] {}", Quoted(u.name)), u.line);
  }
  for (const ManifestImage& image : m.images) take(image.slots, fmt::format("[[image]] {}", Quoted(image.name)), image.line);
  for (const ManifestSampler& s : m.samplers) take({s.slot}, fmt::format("[[sampler]] {}", Quoted(s.name)), s.line);
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

}  // namespace

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
              "sampler", "require", "axes", "tune", "let"});
  // Before every expression: each may use the lets' names.
  r.ReadLets(root.get("let"));
  ReadFamily(r, r.Table(root, "family", true), m);
  if (const toml::node* constants = root.get("specialization")) {
    m.specialization = ReadSpecialization(r, *constants, "[specialization]");
  }
  ReadBuffers(r, r.ArrayOfTables(root, "buffer"), m);
  ReadUniforms(r, r.ArrayOfTables(root, "uniform"), m);
  ReadImages(r, r.ArrayOfTables(root, "image"), m);
  ReadSamplers(r, r.ArrayOfTables(root, "sampler"), m);
  CheckResourcesTogether(r, m);
  if (const toml::node* require = root.get("require")) ReadRequire(r, *require, m);
  ReadPushAndDispatch(r, root, m);
  // Before every expression: the axes are their variables.
  if (const toml::node* axes = root.get("axes")) ReadAxes(r, *axes, m);
  if (const toml::node* check = root.get("check")) m.check = ReadCheck(r, *check, "[check]", m, m.check_lines);
  ReadVariants(r, r.ArrayOfTables(root, "variant"), m);
  for (ManifestVariant& v : m.variants) TakeAxes(m, v);
  if (const toml::node* tune = root.get("tune")) ReadTune(r, *tune, m);
  // A let may not take a name an expression already has: it would replace that name everywhere.
  std::vector<std::string> taken = CheckVariables(m);
  for (const std::vector<std::string>& names : {CheckFunctions(m), InitVariables(), ImageInitVariables()}) {
    taken.insert(taken.end(), names.begin(), names.end());
  }
  for (const ManifestVariant& v : m.variants) {
    for (const ManifestVariant* pass : PassesOf(v)) {
      const std::vector<std::string> names = SizeVariables(*pass);
      taken.insert(taken.end(), names.begin(), names.end());
    }
  }
  for (const ManifestBuffer& b : m.buffers) taken.push_back(b.name);
  for (const ManifestImage& i : m.images) taken.push_back(i.name);
  for (const ManifestUniform& u : m.uniforms) taken.push_back(u.name);
  r.CheckLetNames(taken);
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
                                      std::pair{&image.depth, "depth"}, std::pair{&image.layers, "layers"}}) {
        r.CheckExpression(*text, names, image.line, fmt::format("[[image]] '{}'.{} (variant {})", image.name, key, v.name));
      }
    }
    for (const ManifestBuffer& b : m.buffers) {
      r.CheckExpression(b.count, names, b.line, fmt::format("[[buffer]] '{}'.count (variant {})", b.name, v.name));
      for (const auto& [member, texts] : b.header) {
        for (const std::string& text : texts) {
          r.CheckExpression(text, names, b.header_line,
                            fmt::format("[[buffer]] '{}'.header.{} (variant {})", b.name, member, v.name));
        }
      }
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
    // A variant of passes binds no uniform buffer itself: its passes' contents are checked (with P).
    for (const ManifestUniform& u : v.passes.empty() ? m.uniforms : kNoUniforms) {
      for (const auto& [member, texts] : UniformValues(u, v)) {
        const bool own = v.uniform_values.contains(u.name) && v.uniform_values.at(u.name).contains(member);
        for (const std::string& text : texts) {
          const std::string owner = v.is_pass ? v.pass_key : fmt::format("[[variant]] {}", Quoted(v.name));
          r.CheckExpression(text, names, own ? v.line : u.line,
                            own ? fmt::format("{}.uniform.{}.{}", owner, u.name, member)
                                : fmt::format("[[uniform]] '{}'.values.{} (variant {})", u.name, member, v.name));
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
    for (const ManifestBuffer& b : m.buffers) {
      texts.push_back(b.count);
      for (const auto& [member, values] : b.header) texts.insert(texts.end(), values.begin(), values.end());
    }
    texts.insert(texts.end(), v.push.begin(), v.push.end());
    for (const auto& [member, values] : v.push_values) texts.insert(texts.end(), values.begin(), values.end());
    // A variant of passes binds no uniform buffer itself (its values may use its passes' P).
    for (const ManifestUniform& u : v.passes.empty() ? m.uniforms : kNoUniforms) {
      for (const auto& [member, values] : UniformValues(u, v)) texts.insert(texts.end(), values.begin(), values.end());
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
  LoadPreambleFiles(m);
  ResolveShaders(m);
  // The data files found and hashed, their sizes then held against every point's (read_files.cpp).
  const std::string data_digests = LoadDataFiles(m);
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
  // The preamble's files, once each (a preamble's text is in the manifest's).
  for (const ManifestVariant& variant : m.variants) {
    for (const ManifestVariant* v : PassesOf(variant)) {
      for (const ManifestPreamble& part : v->preamble) {
        if (part.file.empty() || std::find(hashed.begin(), hashed.end(), part.file) != hashed.end()) continue;
        hashed.push_back(part.file);
        files += part.text;
      }
    }
  }
  files += data_digests;  // each data file's digest, once a file
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
