// A variant's and a pass's own uniform contents ([variant.uniform.NAME],
// [variant.pass.uniform.NAME]) as the reader takes them: over the [[uniform]]'s values member by
// member, P allowed in a pass's, and refused where it names no [[uniform]].
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "harness/manifest/manifest.hpp"

namespace csbench {
namespace {

constexpr std::string_view kSort = R"toml([family]
name = "sort"
domains = ["1024"]
workgroups = ["64"]
bytes = "8 * W"

[[buffer]]
name = "keys"
binding = 0
type = "uint"
count = "W"
output = true
init = "i"

[[uniform]]
name = "step"
binding = 1
values = { k = "2", j = "1", tag = [1, 2] }

[dispatch]
groups = ["ceil(W / WG_X)", "1", "1"]

[[variant]]
name = "v"
uniform = { step = { j = "3" } }

[[variant.pass]]
source = "a.comp"
repeat = "4"
uniform = { step = { k = "2 ^ (P + 1)" } }

[[variant.pass]]
source = "b.comp"

[check]
keys = "i"
)toml";

TEST(PassUniform, OwnMembersOverTheUniformsValues) {
  const Manifest m = ParseManifest(kSort, "dir/m.toml");
  ASSERT_EQ(m.variants.size(), 1u);
  const ManifestVariant& v = m.variants[0];
  ASSERT_EQ(v.passes.size(), 2u);
  const ManifestUniform& u = m.uniforms.at(0);
  // The variant's own j over the [[uniform]]'s; k and tag the [[uniform]]'s.
  const NamedValues variant = UniformValues(u, v);
  EXPECT_EQ(variant.at("k"), std::vector<std::string>{"2"});
  EXPECT_EQ(variant.at("j"), std::vector<std::string>{"3"});
  EXPECT_EQ(variant.at("tag"), (std::vector<std::string>{"1", "2"}));
  // The first pass's k (of P) over both; its j the variant's.
  const NamedValues first = UniformValues(u, v.passes[0]);
  EXPECT_EQ(first.at("k"), std::vector<std::string>{"2 ^ (P + 1)"});
  EXPECT_EQ(first.at("j"), std::vector<std::string>{"3"});
  // The second pass gives none of its own: the variant's.
  EXPECT_EQ(UniformValues(u, v.passes[1]), variant);
}

TEST(PassUniform, RefusedWhereItCannotApply) {
  auto message = [](const std::string& from, const std::string& to) {
    std::string text(kSort);
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
    try {
      ParseManifest(text, "dir/m.toml");
    } catch (const ManifestError& e) {
      return e.message;
    }
    return std::string("(loaded)");
  };
  // A name no [[uniform]] has.
  EXPECT_NE(message(R"x(uniform = { step = { k = "2 ^ (P + 1)" } })x", R"x(uniform = { stp = { k = "1" } })x")
                .find("pass[1].uniform.'stp': no [[uniform]] is named 'stp' (declared: step)"),
            std::string::npos);
  // P in a variant's own values: its passes take them, with their P. (A variant without passes
  // has no P: tests/manifests/bad/uniform_p_outside_a_pass.toml.)
  EXPECT_EQ(message(R"x(uniform = { step = { j = "3" } })x", R"x(uniform = { step = { j = "P" } })x"), "(loaded)");
  // P in the [[uniform]]'s values is a pass's variable: taken where every dispatch is a pass.
  EXPECT_EQ(message(R"x(values = { k = "2", j = "1", tag = [1, 2] })x", R"x(values = { k = "P + 1", j = "1", tag = [1, 2] })x"),
            "(loaded)");
  // Not a table, and a table with no member.
  EXPECT_NE(message(R"x(uniform = { step = { j = "3" } })x", "uniform = 3").find("expected a table of uniform buffers"),
            std::string::npos);
  EXPECT_NE(message(R"x(uniform = { step = { j = "3" } })x", "uniform = { step = {} }").find("at least one member"),
            std::string::npos);
}

}  // namespace
}  // namespace csbench
