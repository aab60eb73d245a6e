// `preamble` (family, variant, pass) and function-like macros in `defines`: parsed, refused, and
// loaded with their files and shaders (compiled through shaderc; no device).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "harness/manifest/manifest.hpp"
#include "harness/vulkan/shader_compiler.hpp"
#include "tests/harness/temp_folder.hpp"

// CompileShader returns a reference into the run-long cache, not into its argument: GCC 13 and later
// guess otherwise when the argument is a temporary (-Wdangling-reference).
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 13
#pragma GCC diagnostic ignored "-Wdangling-reference"
#endif

namespace csbench {
namespace {

// A family of a GLSL variant and a variant of two passes; the tests add keys by replacing a line.
constexpr std::string_view kManifest = R"toml([family]
name = "pre"
domains = ["1024"]
workgroups = ["64"]
bytes = "8 * W"
#FAMILY

[[buffer]]
name = "x"
binding = 0
type = "float"
count = "W"

[[buffer]]
name = "out"
binding = 1
type = "float"
count = "W"
output = true

[push]
constants = ["W"]

[dispatch]
groups = ["ceil(W / WG_X)", "1", "1"]

[[variant]]
name = "one"
source = "k.comp"
#ONE

[[variant]]
name = "two"
#TWO

[[variant.pass]]
source = "k.comp"
#PASS1

[[variant.pass]]
source = "k.comp"

[check]
out = "2 * x"
)toml";

// kManifest with each placeholder's line replaced by its text (or left as a comment).
std::string Text(std::string_view family, std::string_view one = "", std::string_view two = "",
                 std::string_view pass1 = "") {
  std::string text(kManifest);
  for (auto [mark, with] : {std::pair{"#FAMILY", family}, {"#ONE", one}, {"#TWO", two}, {"#PASS1", pass1}}) {
    text.replace(text.find(mark), std::string_view(mark).size(), with);
  }
  return text;
}

std::string ErrorOf(const std::string& text) {
  try {
    ParseManifest(text, "dir/m.toml");
  } catch (const ManifestError& e) {
    return e.message;
  }
  return "(no error)";
}

std::vector<std::string> Keys(const std::vector<ManifestPreamble>& parts) {
  std::vector<std::string> keys;
  for (const ManifestPreamble& p : parts) keys.push_back(p.key);
  return keys;
}

TEST(ManifestPreamble, LevelsAddUpFamilyThenVariantThenPass) {
  const Manifest m = ParseManifest(Text("preamble = \"#define A 1\"", "preamble = { file = \"one.glsl\" }",
                                        "preamble = \"#define B 2\\n\"", "preamble = \"#define C 3\""),
                                   "dir/m.toml");
  ASSERT_EQ(m.preamble.size(), 1u);
  EXPECT_EQ(m.preamble[0].text, "#define A 1");
  EXPECT_EQ(m.preamble[0].line, 6u);
  const ManifestVariant& one = m.variants[0];
  EXPECT_EQ(Keys(one.preamble), (std::vector<std::string>{"[family].preamble", "[[variant]] 'one'.preamble"}));
  // A file is named at parse and read at load.
  EXPECT_EQ(one.preamble[1].file, std::filesystem::path("dir/one.glsl"));
  EXPECT_TRUE(one.preamble[1].text.empty());
  const ManifestVariant& two = m.variants[1];
  ASSERT_EQ(two.passes.size(), 2u);
  EXPECT_EQ(Keys(two.passes[0].preamble), (std::vector<std::string>{"[family].preamble", "[[variant]] 'two'.preamble",
                                                                    "[[variant]] 'two'.pass[1].preamble"}));
  EXPECT_EQ(two.passes[0].preamble[2].text, "#define C 3");
  EXPECT_EQ(Keys(two.passes[1].preamble),
            (std::vector<std::string>{"[family].preamble", "[[variant]] 'two'.preamble"}));

  // The compiler gets the parts in order, a file's under its path and key.
  const ShaderSource source = SourceOf(one, {64, 1}, true);
  ASSERT_EQ(source.preamble.size(), 2u);
  EXPECT_EQ(source.preamble[0].name, "[family].preamble");
  EXPECT_EQ(source.preamble[0].text, "#define A 1");
  EXPECT_EQ(source.preamble[1].name, "dir/one.glsl ([[variant]] 'one'.preamble)");
}

TEST(ManifestPreamble, NoneWithoutTheKey) {
  const Manifest m = ParseManifest(Text(""), "dir/m.toml");
  EXPECT_TRUE(m.preamble.empty());
  EXPECT_TRUE(m.variants[0].preamble.empty());
  EXPECT_TRUE(SourceOf(m.variants[0], {64, 1}, true).preamble.empty());
}

TEST(ManifestPreamble, RefusedForms) {
  EXPECT_NE(ErrorOf(Text("preamble = 3")).find("dir/m.toml:6: [family].preamble: expected GLSL text"),
            std::string::npos);
  EXPECT_NE(ErrorOf(Text("preamble = [\"a\"]")).find("[family].preamble: expected GLSL text"), std::string::npos);
  EXPECT_NE(ErrorOf(Text("preamble = { path = \"a\" }")).find("[family].preamble.'path': unknown key"),
            std::string::npos);
  EXPECT_NE(ErrorOf(Text("preamble = { file = 3 }")).find("[family].preamble.file: expected a string"),
            std::string::npos);
  EXPECT_NE(ErrorOf(Text("preamble = { file = \"\" }")).find("[family].preamble.file: expected a file's path"),
            std::string::npos);
  const std::string large = "preamble = \"" + std::string((1 << 20) + 1, ' ') + "\"";
  EXPECT_NE(ErrorOf(Text(large)).find("1048577 bytes of text: at most 1048576"), std::string::npos);
  // An HLSL or SPIR-V source takes no preamble of its own, and none of the family's.
  const std::string spv = Text("", "preamble = \"#define A 1\"");
  std::string with_spv = spv;
  with_spv.replace(with_spv.find("source = \"k.comp\"\npreamble"), 17, "source = \"k.spv\"");
  EXPECT_NE(ErrorOf(with_spv).find("[[variant]] 'one'.preamble: a preamble is GLSL text, and the source is SPIR-V"),
            std::string::npos)
      << ErrorOf(with_spv);
  std::string hlsl = Text("preamble = \"#define A 1\"");
  hlsl.replace(hlsl.find("source = \"k.comp\""), 17, "source = \"k.hlsl\"");
  const Manifest m = ParseManifest(hlsl, "dir/m.toml");
  EXPECT_TRUE(m.variants[0].preamble.empty());
  EXPECT_EQ(m.variants[1].passes[0].preamble.size(), 1u);
}

TEST(ManifestDefines, FunctionLikeMacros) {
  const Manifest m =
      ParseManifest(Text("", "defines = { \"buffer_ld1(buf, i)\" = \"buf[i]\", \"now()\" = \"0\", N = 2 }", "",
                         "defines = { \"N(a)\" = \"a\" }"),
                    "dir/m.toml");
  const ManifestVariant& one = m.variants[0];
  auto has = [](const ManifestVariant& v, const std::string& name, const std::string& value) {
    return std::any_of(v.defines.begin(), v.defines.end(),
                       [&](const Define& d) { return d.name == name && d.value == value; });
  };
  EXPECT_TRUE(has(one, "buffer_ld1(buf,i)", "buf[i]"));  // as the compiler takes it: no blanks
  EXPECT_TRUE(has(one, "now()", "0"));
  // A function-like macro is no variable of expressions; the object-like N is.
  EXPECT_FALSE(one.numeric_defines.contains("buffer_ld1"));
  EXPECT_FALSE(one.numeric_defines.contains("buffer_ld1(buf,i)"));
  EXPECT_EQ(one.numeric_defines.at("N"), 2);
  // A pass's function-like N replaces nothing of the variant two (which has no N) and is no variable.
  const ManifestVariant& pass = m.variants[1].passes[0];
  EXPECT_TRUE(has(pass, "N(a)", "a"));
  EXPECT_FALSE(pass.numeric_defines.contains("N"));
}

TEST(ManifestDefines, PassFunctionLikeMacroReplacesTheVariantsByName) {
  const Manifest m = ParseManifest(Text("", "", "defines = { N = 2 }", "defines = { \"N(a)\" = \"a\" }"), "dir/m.toml");
  const ManifestVariant& pass = m.variants[1].passes[0];
  EXPECT_EQ(std::count_if(pass.defines.begin(), pass.defines.end(),
                          [](const Define& d) { return d.name == "N" || d.name == "N(a)"; }),
            1);
  EXPECT_FALSE(pass.numeric_defines.contains("N"));
  EXPECT_EQ(m.variants[1].passes[1].numeric_defines.at("N"), 2);  // the other pass keeps the variant's
}

TEST(ManifestDefines, RefusedFunctionLikeMacros) {
  auto error = [](std::string_view defines) { return ErrorOf(Text("", defines)); };
  EXPECT_NE(error("defines = { \"1a(i)\" = \"i\" }").find("'1a' is not a macro name"), std::string::npos);
  EXPECT_NE(error("defines = { \"a (i)\" = \"i\" }").find("nothing may stand between the name and '('"),
            std::string::npos);
  EXPECT_NE(error("defines = { \"a(i\" = \"i\" }").find("in parentheses at the key's end"), std::string::npos);
  EXPECT_NE(error("defines = { \"a(i)x\" = \"i\" }").find("in parentheses at the key's end"), std::string::npos);
  EXPECT_NE(error("defines = { \"a(i, 2)\" = \"i\" }").find("parameter '2' of a"), std::string::npos);
  EXPECT_NE(error("defines = { \"a(i,,j)\" = \"i\" }").find("parameter '' of a"), std::string::npos);
  EXPECT_NE(error("defines = { \"a(i,)\" = \"i\" }").find("a's parameter list ends with a comma"), std::string::npos);
  EXPECT_NE(error("defines = { \"a(i, j, i)\" = \"i\" }").find("parameter 'i' of a is named twice"), std::string::npos);
  EXPECT_NE(error("defines = { \"a(...)\" = \"i\" }").find("parameter '...' of a"), std::string::npos);
  EXPECT_NE(error("defines = { \"a(i)\" = 1 }").find("a function-like macro's body is a string"), std::string::npos);
  EXPECT_NE(error("defines = { \"a(i)\" = \"i\\nj\" }").find("a macro's text must be one line"), std::string::npos);
  EXPECT_NE(error("defines = { a = 1, \"a(i)\" = \"i\" }").find("macro a is defined twice"), std::string::npos);
  EXPECT_NE(error("defines = { \"a(i)\" = \"i\", \"a(j)\" = \"j\" }").find("macro a is defined twice"),
            std::string::npos);
  EXPECT_NE(error("workgroup_defines = [\"WG\"]\ndefines = { \"WG(i)\" = \"i\" }").find("'WG' is also in defines"),
            std::string::npos);
  std::string axis = Text("", "defines = { \"ROWS(i)\" = \"i\" }");
  axis.replace(axis.find("[[variant]]"), 0, "[axes]\nROWS = [1, 2]\n\n");
  EXPECT_NE(ErrorOf(axis).find("[axes] has an axis ROWS, a macro of that name"), std::string::npos) << ErrorOf(axis);
}

// ---- Loaded: the files read, the shaders compiled ------------------------------------------

constexpr std::string_view kShader = R"(#version 450
layout(std430, binding = 0) readonly buffer X { sfp x[]; };
layout(std430, binding = 1) writeonly buffer Out { sfp result[]; };
layout(push_constant) uniform Parameters { uint n; };
void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i < n) buffer_st1(result, i, 2.0 * buffer_ld1(x, i));
#ifdef FAIL
  undeclared_here = 1;
#endif
}
)";

constexpr std::string_view kCommon = R"(#define sfp float
layout(local_size_x_id = 233, local_size_y = 1) in;
)";

class LoadedPreamble : public ::testing::Test {
 protected:
  void Write(const std::string& name, std::string_view text) {
    std::ofstream(folder_.path() / name, std::ios::binary) << text;
  }
  Manifest Load(const std::string& text) {
    Write("m.toml", text);
    return LoadManifest(folder_.path() / "m.toml");
  }
  std::string LoadError(const std::string& text) {
    try {
      Load(text);
    } catch (const ManifestError& e) {
      return e.message;
    }
    return "(no error)";
  }
  void SetUp() override {
    Write("k.comp", kShader);
    Write("common.glsl", kCommon);
  }
  testing::TempFolder folder_{"csbench_preamble"};
  const std::string kMacros =
      "defines = { \"buffer_ld1(buf,i)\" = \"buf[i]\", \"buffer_st1(buf, i, v)\" = \"{ buf[i] = v; }\" }";
};

TEST_F(LoadedPreamble, FileAndMacrosCompileAndTheWorkgroupIsConstant233) {
  const Manifest m =
      Load(Text("preamble = { file = \"common.glsl\" }", kMacros, kMacros, "preamble = \"// pass's own\""));
  const ManifestVariant& one = m.variants[0];
  ASSERT_EQ(one.preamble.size(), 1u);
  EXPECT_EQ(one.preamble[0].text, kCommon);
  // The local size the preamble declares is found in the SPIR-V: x from constant 233, y literal 1.
  EXPECT_EQ(one.local_size_ids[0], std::optional<uint32_t>(233));
  EXPECT_EQ(one.local_size_ids[1], std::nullopt);
  EXPECT_EQ(m.variants[1].passes[0].preamble.back().text, "// pass's own");
  EXPECT_EQ(m.variants[1].passes[0].local_size_ids[0], std::optional<uint32_t>(233));
}

TEST_F(LoadedPreamble, TheSpirvFollowsThePreamble) {
  const Manifest m = Load(Text("preamble = { file = \"common.glsl\" }", kMacros, kMacros));
  ManifestVariant other = m.variants[0];
  other.preamble[0].text = "#define sfp float\nlayout(local_size_x_id = 233, local_size_y = 2) in;\n";
  const std::vector<uint32_t>& first = CompileShader(SourceOf(m.variants[0], {64, 1}, true));
  EXPECT_NE(CompileShader(SourceOf(other, {64, 1}, true)), first);
}

TEST_F(LoadedPreamble, MissingFileNamesTheKeyAndLine) {
  const std::string error = LoadError(Text("preamble = { file = \"nowhere.glsl\" }", kMacros, kMacros));
  EXPECT_NE(error.find("m.toml:6: [family].preamble.file: "), std::string::npos) << error;
  EXPECT_NE(error.find("nowhere.glsl does not exist"), std::string::npos) << error;
}

TEST_F(LoadedPreamble, ErrorsNameTheShadersLineOrThePreamblesPart) {
  // Line 9 of k.comp, after a preamble of two lines and a variant's of one.
  const std::string in_shader =
      LoadError(Text("preamble = { file = \"common.glsl\" }", kMacros + "\npreamble = \"#define FAIL 1\"", kMacros));
  EXPECT_NE(in_shader.find("k.comp:9: error:"), std::string::npos) << in_shader;
  Write("common.glsl", std::string(kCommon) + "not glsl;\n");
  const std::string in_file = LoadError(Text("preamble = { file = \"common.glsl\" }", kMacros, kMacros));
  EXPECT_NE(in_file.find("common.glsl ([family].preamble):3: error:"), std::string::npos) << in_file;
}

}  // namespace
}  // namespace csbench
