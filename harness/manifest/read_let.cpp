// [let]: named sub-expressions. Each name stands for its expression in every expression of the
// manifest (read as "(text)" wherever the name appears as a whole word), so that a long check or
// size can be written in parts. A let may use other lets, in any order, but not itself through
// them. Its text is checked where it is used, against that expression's variables.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "harness/manifest/reader.hpp"

namespace csbench::manifest_detail {

namespace {

bool NameStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool NameChar(char c) { return NameStart(c) || (c >= '0' && c <= '9') || c == '.'; }

// `text` with every whole-word name of `lets` replaced by "(" + its text + ")"; `on_name` sees each
// replaced name first (it may throw).
template <typename OnName>
std::string Replaced(const std::string& text, const std::map<std::string, std::string>& lets, OnName on_name) {
  std::string out;
  size_t at = 0;
  while (at < text.size()) {
    // A word begins at a letter or '_' that does not continue a name or a number ("1e5", "b.x").
    if (NameStart(text[at]) && (at == 0 || !NameChar(text[at - 1]))) {
      size_t end = at;
      while (end < text.size() && NameChar(text[end])) ++end;
      const std::string word = text.substr(at, end - at);
      if (auto let = lets.find(word); let != lets.end()) {
        on_name(word);
        out += "(" + let->second + ")";
      } else {
        out += word;
      }
      at = end;
      continue;
    }
    out += text[at++];
  }
  return out;
}

// muparser's own functions and constants: a [let] of one of these names would hide it.
const std::set<std::string, std::less<>> kBuiltIns = {
    "sin",  "cos",  "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "log2",
    "log10", "log", "ln",  "exp",  "sqrt", "sign", "rint", "abs",  "min",  "max",   "sum",   "avg",   "ceil",
    "floor", "_pi", "_e"};

}  // namespace

void Reader::ReadLets(const toml::node* node) {
  if (node == nullptr) return;
  if (!node->is_table()) Fail(LineOf(*node), "[let]", "expected a table ([let]) of name = expression");
  std::map<std::string, std::string> texts;
  std::map<std::string, uint32_t> lines;
  for (auto&& [key, value] : *node->as_table()) {
    const std::string name(key.str());
    if (!IsVariableName(name) || name.find('.') != std::string::npos) {
      Fail(LineOf(value), fmt::format("[let].{}", Quoted(name)),
           "a [let] name is a letter or '_', then letters, digits or '_' (at most 64)");
    }
    const std::string where = "[let]." + name;
    if (kBuiltIns.contains(name)) {
      Fail(LineOf(value), where, fmt::format("'{}' is one of the expressions' own functions or constants", name));
    }
    // The variables every manifest has (the sizes, a pass's P, an init's index and texel): the
    // ones a manifest declares itself are checked once it is read (CheckLetNames).
    ManifestVariant pass;
    pass.is_pass = true;
    for (const std::vector<std::string>& fixed : {SizeVariables(pass), InitVariables(), ImageInitVariables()}) {
      if (std::find(fixed.begin(), fixed.end(), name) != fixed.end()) {
        Fail(LineOf(value), where, fmt::format("'{}' is one of the expressions' own variables; choose another name", name));
      }
    }
    texts[name] = *ExpressionText(&value, where);
    lines[name] = LineOf(value);
  }
  // Each let's text with the lets it uses replaced, depth first; a let met again on its own path
  // refers to itself.
  std::map<std::string, std::string> done;
  std::vector<std::string> path;
  std::function<const std::string&(const std::string&)> expand = [&](const std::string& name) -> const std::string& {
    if (auto found = done.find(name); found != done.end()) return found->second;
    if (std::find(path.begin(), path.end(), name) != path.end()) {
      std::string cycle;
      for (auto it = std::find(path.begin(), path.end(), name); it != path.end(); ++it) cycle += *it + " -> ";
      Fail(lines.at(name), fmt::format("[let].{}", name), fmt::format("refers to itself ({}{})", cycle, name));
    }
    path.push_back(name);
    // The lets this one uses, expanded first; then its text with theirs.
    std::map<std::string, std::string> inner;
    Replaced(texts.at(name), texts, [&](const std::string& used) { inner[used] = expand(used); });
    std::string expanded = Replaced(texts.at(name), inner, [](const std::string&) {});
    path.pop_back();
    if (expanded.size() > kMaxExpressionChars) {
      Fail(lines.at(name), fmt::format("[let].{}", name),
           fmt::format("{} characters once the [let] names it uses are replaced (an expression has at most {})",
                       expanded.size(), kMaxExpressionChars));
    }
    return done[name] = std::move(expanded);
  };
  for (const auto& [name, text] : texts) expand(name);
  lets_ = std::move(done);
  let_lines_ = std::move(lines);
}

std::string Reader::Expanded(const std::string& text, uint32_t line, std::string_view key) const {
  if (lets_.empty()) return text;
  std::string expanded = Replaced(text, lets_, [](const std::string&) {});
  if (expanded.size() > kMaxExpressionChars) {
    Fail(line, key, fmt::format("{} characters once its [let] names are replaced (an expression has at most {})",
                                expanded.size(), kMaxExpressionChars));
  }
  return expanded;
}

void Reader::CheckLetNames(const std::vector<std::string>& taken) const {
  for (const auto& [name, text] : lets_) {
    if (std::find(taken.begin(), taken.end(), name) != taken.end()) {
      Fail(let_lines_.at(name), fmt::format("[let].{}", name),
           fmt::format("'{}' is already a name of the manifest's expressions (a variable, resource or function); "
                       "choose another",
                       name));
    }
  }
}

}  // namespace csbench::manifest_detail
