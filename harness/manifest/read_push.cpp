// Stage 1, read: [push] and [dispatch].
#include "harness/manifest/manifest.hpp"

#include <toml++/toml.h>

#include <array>

#include "harness/manifest/reader.hpp"
#include "harness/manifest/stage.hpp"

namespace csbench {
using namespace manifest_detail;

namespace manifest_detail {

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

}  // namespace manifest_detail

}  // namespace csbench
