// Stage 1, read: a shader's `preamble` (the family's, a variant's, a pass's) and the function-like
// macros of `defines`; the preamble's files are read when the manifest is loaded.
#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "harness/manifest/manifest.hpp"
#include "harness/manifest/reader.hpp"
#include "harness/manifest/stage.hpp"

namespace csbench::manifest_detail {

namespace {

bool HasNul(std::string_view text) { return text.find('\0') != std::string_view::npos; }

}  // namespace

std::optional<ManifestPreamble> ReadPreamble(const Reader& r, const toml::table& table, const std::string& where) {
  const toml::node* node = table.get("preamble");
  if (node == nullptr) return std::nullopt;
  ManifestPreamble part{.key = where + ".preamble", .line = Reader::LineOf(*node)};
  if (node->is_string()) {
    part.text = node->as_string()->get();
    if (HasNul(part.text)) r.Fail(part.line, part.key, "the text holds a NUL character");
    if (part.text.size() > kMaxPreambleBytes) {
      r.Fail(part.line, part.key, fmt::format("{} bytes of text: at most {}", part.text.size(), kMaxPreambleBytes));
    }
    return part;
  }
  if (!node->is_table()) {
    r.Fail(part.line, part.key,
           "expected GLSL text (\"#define afp float\") or a file beside the manifest ({ file = \"common.glsl\" })");
  }
  const toml::table& t = *node->as_table();
  r.OnlyKeys(t, part.key, {"file"});
  const std::string file = *r.String(t, part.key, "file", true);
  if (file.empty() || HasNul(file)) r.Fail(part.line, part.key + ".file", "expected a file's path");
  part.file = r.path().parent_path() / file;
  return part;
}

void TakePreamble(const Reader& r, const toml::table& table, const std::string& where,
                  const std::vector<ManifestPreamble>& outer, ManifestVariant& v) {
  std::optional<ManifestPreamble> own = ReadPreamble(r, table, where);
  if (v.language != SourceLanguage::kGlsl) {
    if (own) {
      r.Fail(own->line, own->key,
             fmt::format("a preamble is GLSL text, and the source is {}{}", LanguageName(v.language),
                         v.language == SourceLanguage::kSpirv ? " (compiled already)" : ""));
    }
    v.preamble.clear();  // an HLSL or SPIR-V shader takes none of the family's or the variant's
    return;
  }
  v.preamble = outer;
  if (own) v.preamble.push_back(std::move(*own));
}

std::string MacroName(const std::string& define) { return define.substr(0, define.find('(')); }

std::string FunctionLikeMacro(const std::string& key, std::string& why) {
  const size_t open = key.find('(');
  const std::string name = key.substr(0, open);
  if (!IsVariableName(name)) {
    why = fmt::format(
        "{} is not a macro name of letters, digits and '_' that starts with a letter (nothing may stand "
        "between the name and '(')",
        Quoted(name));
    return {};
  }
  if (!key.ends_with(')')) {
    why = "expected a function-like macro's parameters in parentheses at the key's end, e.g. \"load(buf, i)\"";
    return {};
  }
  std::vector<std::string> params;
  const std::string list = key.substr(open + 1, key.size() - open - 2);
  if (list.find_first_not_of(" \t") != std::string::npos) {
    std::istringstream in(list);
    for (std::string param; std::getline(in, param, ',');) {
      const size_t first = param.find_first_not_of(" \t"), last = param.find_last_not_of(" \t");
      param = first == std::string::npos ? "" : param.substr(first, last - first + 1);
      if (!IsVariableName(param)) {
        why = fmt::format(
            "parameter {} of {}: expected a name of letters, digits and '_' that starts with a letter "
            "(the parameters are names separated by commas)",
            Quoted(param), name);
        return {};
      }
      if (std::find(params.begin(), params.end(), param) != params.end()) {
        why = fmt::format("parameter {} of {} is named twice", Quoted(param), name);
        return {};
      }
      params.push_back(param);
    }
    if (list.find_last_not_of(" \t") == list.size() - 1 && list.back() == ',') {
      why = fmt::format("{}'s parameter list ends with a comma", name);
      return {};
    }
    if (params.size() > kMaxMacroParameters) {
      why = fmt::format("{} parameters: at most {}", params.size(), kMaxMacroParameters);
      return {};
    }
  }
  std::string joined;
  for (const std::string& p : params) joined += (joined.empty() ? "" : ",") + p;
  return fmt::format("{}({})", name, joined);
}

void LoadPreambleFiles(Manifest& m) {
  std::map<std::filesystem::path, std::string> read;
  auto load = [&](ManifestPreamble& part) {
    if (part.file.empty()) return;
    auto it = read.find(part.file);
    if (it == read.end()) {
      const std::string at = fmt::format("{}: {}.file", PathAt(m, part.line), part.key);
      std::error_code error;
      if (!std::filesystem::is_regular_file(part.file, error)) {
        throw ManifestError{fmt::format("{}: {} does not exist (or is not a file)", at, part.file.string())};
      }
      const auto size = std::filesystem::file_size(part.file, error);
      if (error || size > kMaxPreambleBytes) {
        throw ManifestError{fmt::format("{}: {} is {} bytes: a preamble is at most {}", at, part.file.string(),
                                        error ? "an unknown number of" : std::to_string(size), kMaxPreambleBytes)};
      }
      std::ifstream in(part.file, std::ios::binary);
      std::ostringstream text;
      if (in.is_open()) text << in.rdbuf();
      if (!in.is_open() || in.bad()) throw ManifestError{fmt::format("{}: cannot read {}", at, part.file.string())};
      if (HasNul(text.str())) {
        throw ManifestError{fmt::format("{}: {} holds a NUL character: expected GLSL text", at, part.file.string())};
      }
      it = read.emplace(part.file, text.str()).first;
    }
    part.text = it->second;
  };
  for (ManifestPreamble& part : m.preamble) load(part);
  for (ManifestVariant& v : m.variants) {
    for (ManifestPreamble& part : v.preamble) load(part);
    for (ManifestVariant& p : v.passes) {
      for (ManifestPreamble& part : p.preamble) load(part);
    }
  }
}

}  // namespace csbench::manifest_detail
