// Stage 1, read: a variant's [check] table (output buffer = expression).
#include "harness/manifest/manifest.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>

#include "harness/manifest/reader.hpp"
#include "harness/manifest/stage.hpp"

namespace csbench {
using namespace manifest_detail;

namespace manifest_detail {

std::map<std::string, std::string> ReadCheck(const Reader& r, const toml::node& node, std::string_view where,
                                             const Manifest& m, std::map<std::string, uint32_t>& lines) {
  if (!node.is_table()) r.Fail(Reader::LineOf(node), where, "expected a table of output buffer = expression");
  std::map<std::string, std::string> check;
  // A struct output's member (or a header's) is checked under "buffer.member" (quoted in TOML), or
  // as a table buffer = { member = "..." }.
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
    // A header's member is checked under "buffer.member" too: the loader checks that the shader's
    // block has it.
    if (!buffer->type.is_struct && !buffer->header_given && dot != std::string::npos) {
      r.Fail(Reader::LineOf(value), fmt::format("{}.{}", where, Quoted(name)),
             fmt::format("'{}' is not a struct buffer (type = \"struct\") and has no header (a `header` key): it "
                         "has no members",
                         buffer_name));
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

}  // namespace manifest_detail

}  // namespace csbench
