// A manifest over a module without member names (a .spv compiled without debug names): struct
// buffers, `init` and `[check]` keys, uniform and push values by the members' positional names
// ("_m0", nested "_m2._m1", in arrays "_m1[1]._m0"); names the module does not have refused with
// the names it does; a positional name that repeats a real one, a variant that names the struct's
// members beside one that does not, and a header beside the struct refused with what clashes.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "harness/manifest/manifest.hpp"
#include "tests/harness/temp_folder.hpp"
#include "tests/harness/vulkan/spirv_names.hpp"

namespace csbench {
namespace {

// An input and an output array of Item, a uniform block holding an array of structs, and a push
// block. The body reads them all, so that the compiler keeps them.
constexpr const char* kShader = R"(#version 450
layout(local_size_x_id = 0, local_size_y_id = 1) in;
struct Inner { float k; uint id; };
struct Item { vec2 a; float b; Inner inner; };
layout(std430, binding = 0) readonly buffer In { Item items[]; };
layout(std430, binding = 1) writeonly buffer Out { Item outs[]; };
struct Part { float mass; uint id; };
layout(std140, binding = 2) uniform Params { float dt; Part parts[2]; } params;
layout(push_constant) uniform Push { uint n; float scale; } pc;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= pc.n) return;
  Item item = items[i];
  item.b = item.b * params.dt * pc.scale + params.parts[1].mass;
  outs[i] = item;
}
)";

// The same manifest by the positional names: Item is _m0 (a), _m1 (b), _m2 (inner: _m0 k, _m1 id);
// Params is _m0 (dt), _m1 (parts: _m0 mass, _m1 id); Push is _m0 (n), _m1 (scale).
constexpr const char* kManifest = R"toml([family]
name = "fam"
domains = ["1000"]
workgroups = ["64"]
bytes = "48 * W"

[[buffer]]
name = "items"
binding = 0
type = "struct"
count = "W"

[buffer.init]
_m1 = "i"
"_m2._m0" = "2 * i"

[[buffer]]
name = "out"
binding = 1
type = "struct"
count = "W"
output = true

[[uniform]]
name = "params"
binding = 2

[uniform.values]
_m0 = "0.5"
"_m1[0]._m0" = "1"
"_m1[0]._m1" = "2"
"_m1[1]._m0" = "3"
"_m1[1]._m1" = "4"

[push]
values = { _m0 = "W", _m1 = "2" }

[dispatch]
groups = ["ceil(W / WG_X)", "1", "1"]

[[variant]]
name = "v"
source = "k.spv"

[check]
"out._m0" = "items._m0"
"out._m1" = "items._m1 * 0.5 * 2 + 3"
"out._m2._m0" = "items._m2._m0"
"out._m2._m1" = "items._m2._m1"
)toml";

class PositionalNames : public ::testing::Test {
 protected:
  // The GLSL compiled without optimisation: every member kept, with its name.
  static std::vector<uint32_t> Module(const std::string& glsl) { return testing::CompileWithNames(glsl); }
  // Writes the manifest, `spirv` as k.spv and `glsl` (if any) as k.comp, each load in a folder of
  // its own (compiled shaders are kept by their path), and loads it.
  Manifest Load(const std::string& manifest, const std::vector<uint32_t>& spirv, const std::string& glsl = "") {
    const std::filesystem::path dir = folder_.path() / std::to_string(loads_++);
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "m.toml") << manifest;
    std::ofstream(dir / "k.spv", std::ios::binary)
        .write(reinterpret_cast<const char*>(spirv.data()), static_cast<std::streamsize>(spirv.size() * 4));
    if (!glsl.empty()) std::ofstream(dir / "k.comp") << glsl;
    return LoadManifest(dir / "m.toml");
  }
  std::string LoadError(const std::string& manifest, const std::vector<uint32_t>& spirv, const std::string& glsl = "") {
    try {
      Load(manifest, spirv, glsl);
    } catch (const ManifestError& e) {
      return e.message;
    }
    return "(no error)";
  }
  static std::string Replaced(std::string text,
                              std::initializer_list<std::pair<std::string_view, std::string_view>> edits) {
    for (const auto& [from, to] : edits) {
      const size_t at = text.find(from);
      EXPECT_NE(at, std::string::npos) << from;
      if (at != std::string::npos) text.replace(at, from.size(), to);
    }
    return text;
  }
  // kManifest by the shader's own names.
  static std::string Named() {
    return Replaced(kManifest, {{"\"_m2._m0\" = \"2 * i\"", "\"inner.k\" = \"2 * i\""},
                                {"_m1 = \"i\"", "b = \"i\""},
                                {"\"out._m0\" = \"items._m0\"", "\"out.a\" = \"items.a\""},
                                {"\"out._m1\" = \"items._m1", "\"out.b\" = \"items.b"},
                                {"\"out._m2._m0\" = \"items._m2._m0\"", "\"out.inner.k\" = \"items.inner.k\""},
                                {"\"out._m2._m1\" = \"items._m2._m1\"", "\"out.inner.id\" = \"items.inner.id\""},
                                {"_m0 = \"0.5\"", "dt = \"0.5\""},
                                {"\"_m1[0]._m0\"", "\"parts[0].mass\""},
                                {"\"_m1[0]._m1\"", "\"parts[0].id\""},
                                {"\"_m1[1]._m0\"", "\"parts[1].mass\""},
                                {"\"_m1[1]._m1\"", "\"parts[1].id\""},
                                {"_m0 = \"W\", _m1 = \"2\"", "n = \"W\", scale = \"2\""}});
  }
  testing::TempFolder folder_{"csbench_positional_names_test"};
  int loads_ = 0;
};

TEST_F(PositionalNames, AModuleWithoutNamesIsDescribedByPosition) {
  const Manifest m = Load(kManifest, testing::StripNames(Module(kShader)));
  std::vector<std::string> names;
  for (const StructField& f : m.buffers[1].type.fields) names.push_back(f.name + "@" + std::to_string(f.offset));
  EXPECT_EQ(names, (std::vector<std::string>{"_m0@0", "_m1@8", "_m2._m0@12", "_m2._m1@16"}));
  EXPECT_EQ(m.buffers[1].type.stride, 24u);
  EXPECT_EQ(m.buffers[0].member_inits.size(), 2u);
  const ManifestVariant& v = m.variants[0];
  EXPECT_EQ(v.check.size(), 4u);
  // std140: parts at 16, each Part rounded up to 16 bytes.
  ASSERT_EQ(v.uniform_fields.size(), 1u);
  std::vector<std::string> keys;
  for (const BlockField& f : v.uniform_fields[0]) keys.push_back(f.key + "@" + std::to_string(f.offset));
  EXPECT_EQ(keys, (std::vector<std::string>{"values._m0@0", "values._m1[0]._m0@16", "values._m1[0]._m1@20",
                                            "values._m1[1]._m0@32", "values._m1[1]._m1@36"}));
  ASSERT_EQ(v.push_fields.size(), 2u);
  EXPECT_EQ(v.push_fields[1].key, "[push].values._m1");
  EXPECT_EQ(v.push_fields[1].offset, 4u);
}

TEST_F(PositionalNames, TheShadersOwnNamesAreUnknownThenAndTheMessageSaysTheNamesItHas) {
  const std::vector<uint32_t> stripped = testing::StripNames(Module(kShader));
  EXPECT_NE(LoadError(Replaced(kManifest, {{"\"out._m2._m1\"", "\"out.inner.id\""}}), stripped)
                .find("check 'out.inner.id' (variant 'v'): 'out' has no member 'inner.id' (it has _m0, _m1, _m2._m0, "
                      "_m2._m1)"),
            std::string::npos);
  const std::string missing = LoadError(Replaced(kManifest, {{"_m0 = \"0.5\"", "dt = \"0.5\""}}), stripped);
  EXPECT_NE(missing.find("[[uniform]] 'params' (variant 'v').values: member _m0 (float, unnamed in the SPIR-V: named "
                         "by its position) is not given"),
            std::string::npos)
      << missing;
  const std::string extra =
      LoadError(Replaced(kManifest, {{"_m0 = \"0.5\"", "_m0 = \"0.5\"\ndt = \"0.5\""}}), stripped);
  EXPECT_NE(extra.find("values names dt, which the block does not have (its members: _m0 (unnamed in the SPIR-V), "
                       "_m1 (unnamed in the SPIR-V))"),
            std::string::npos)
      << extra;
  EXPECT_NE(LoadError(Replaced(kManifest, {{"_m1 = \"i\"", "b = \"i\""}}), stripped)
                .find("[[buffer]] 'items'.init.b: the struct has no such member (it has _m0, _m1, _m2._m0, _m2._m1)"),
            std::string::npos);
}

TEST_F(PositionalNames, OnlyTheUnnamedMembersOfAPartlyNamedModuleArePositional) {
  // Item keeps its names but b's; Inner and the blocks keep theirs.
  const std::string manifest =
      Replaced(Named(), {{"b = \"i\"", "_m1 = \"i\""}, {"\"out.b\" = \"items.b", "\"out._m1\" = \"items._m1"}});
  const Manifest m = Load(manifest, testing::RenameMembers(Module(kShader), {{"b", ""}}));
  std::vector<std::string> names;
  for (const StructField& f : m.buffers[1].type.fields) names.push_back(f.name);
  EXPECT_EQ(names, (std::vector<std::string>{"a", "_m1", "inner.k", "inner.id"}));
}

TEST_F(PositionalNames, APositionalNameThatRepeatsARealOneIsALoadError) {
  // Item's member 0 is named _m1 by the module, its member 1 has no name: two members _m1.
  const std::string error = LoadError(kManifest, testing::RenameMembers(Module(kShader), {{"a", "_m1"}, {"b", ""}}));
  EXPECT_NE(error.find("[[buffer]] 'items' (variant 'v').type: struct, but the shader's binding 0, member items: "
                       "members 0 and 1 "
                       "are both named _m1 (member 1 has no name in the SPIR-V and is named by its position; the "
                       "other's name is the shader's own): no name may stand for two members"),
            std::string::npos)
      << error;
  // In a uniform block too: its member 0 named _m1 by the module, member 1 (parts) unnamed.
  const std::string uniform =
      LoadError(Named(), testing::RenameMembers(Module(kShader), {{"dt", "_m1"}, {"parts", ""}}));
  EXPECT_NE(uniform.find("[[uniform]] 'params' (variant 'v').values (block Params): members 0 and 1 are both named "
                         "_m1"),
            std::string::npos)
      << uniform;
}

TEST_F(PositionalNames, AVariantThatNamesTheMembersBesideOneThatDoesNotIsALoadError) {
  // The same struct from GLSL (its names kept) and from the stripped module (_m0, ...).
  const std::string manifest = std::string(kManifest) + "\n[[variant]]\nname = \"glsl\"\nsource = \"k.comp\"\n";
  const std::string error = LoadError(manifest, testing::StripNames(Module(kShader)), kShader);
  EXPECT_NE(error.find("the shader lays the struct out differently from another variant's: member a (vec2) at byte 0 "
                       "here, _m0 (vec2) at byte 0 in the other"),
            std::string::npos)
      << error;
}

TEST_F(PositionalNames, AHeaderBesideTheStructSharesItsPositionalNames) {
  // Both the block's first member and the struct's are _m0: checks could not tell them apart.
  const std::string shader =
      Replaced(kShader, {{"buffer In { Item items[]; }", "buffer In { uint count; Item items[]; }"}});
  const std::string error = LoadError(kManifest, testing::StripNames(Module(shader)));
  EXPECT_NE(error.find("[[buffer]] 'items' (variant 'v').header: the header's member _m0 has the name of a member of "
                       "the array's struct: checks read both as 'items._m0' (the header's member has no name in the "
                       "SPIR-V and is named by its position: such a buffer needs a module that names its members)"),
            std::string::npos)
      << error;
}

}  // namespace
}  // namespace csbench
