// Data files of a manifest's resources (`init = { file = ... }`, `expect = { file = ... }`): named at
// parse, found, sized against every point and hashed at load (shaders compiled through shaderc; no
// device).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "harness/base/provenance.hpp"
#include "harness/manifest/manifest.hpp"
#include "tests/harness/temp_folder.hpp"

namespace csbench {
namespace {

// x (read) and out (written, a count before its array); the tests add keys by replacing a line.
constexpr std::string_view kManifest = R"toml([family]
name = "files"
domains = ["256"]
workgroups = ["64"]
bytes = "8 * W"
#FAMILY

[[buffer]]
name = "x"
binding = 0
type = "float"
count = "W"
#X

[[buffer]]
name = "out"
binding = 1
type = "float"
count = "W"
output = true
#OUT

[push]
constants = ["W"]

[dispatch]
groups = ["ceil(W / WG_X)", "1", "1"]

[[variant]]
name = "plain"
source = "k.comp"
)toml";

constexpr std::string_view kShader = R"(#version 450
layout(local_size_x_id = 0) in;
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) buffer Out { uint count; float result[]; };
layout(push_constant) uniform Parameters { uint n; };
void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i == 0) count = n;
  if (i < n) result[i] = 2.0 * x[i];
}
)";

std::string Text(std::string_view x, std::string_view out, std::string_view family = "") {
  std::string text(kManifest);
  for (auto [mark, with] : {std::pair{"#FAMILY", family}, {"#X", x}, {"#OUT", out}}) {
    text.replace(text.find(mark), std::string_view(mark).size(), with);
  }
  return text;
}

std::string ParseError(const std::string& text) {
  try {
    ParseManifest(text, "dir/m.toml");
  } catch (const ManifestError& e) {
    return e.message;
  }
  return "(no error)";
}

TEST(ManifestDataFiles, NamedAtParseRelativeToTheManifest) {
  const Manifest m = ParseManifest(Text("init = { file = \"in.bin\" }",
                                        "expect = { file = \"/data/out.bin\", tolerance = 1e-3 }"),
                                   "dir/m.toml");
  const ManifestBuffer& x = m.buffers[0];
  EXPECT_EQ(x.init_file.path, std::filesystem::path("dir/in.bin"));
  EXPECT_EQ(x.init_file.key, "[[buffer]] 'x'.init");
  EXPECT_TRUE(x.init_given);
  EXPECT_FALSE(x.init_file.bytes);  // ParseManifest reads no file
  EXPECT_FALSE(x.expect.Given());
  const ManifestBuffer& out = m.buffers[1];
  EXPECT_FALSE(out.init_file.Given());
  EXPECT_FALSE(out.init_given);
  // An absolute path is taken as it is; tolerances not given are the variant's.
  EXPECT_EQ(out.expect.path, std::filesystem::path("/data/out.bin"));
  EXPECT_EQ(out.expect.tolerance, std::optional<double>(1e-3));
  EXPECT_FALSE(out.expect.abs_tolerance);
}

TEST(ManifestDataFiles, AnExpectFileChecksAnOutput) {
  // No [check], no reference variant: the expect file is the output's check.
  EXPECT_EQ(ParseError(Text("", "expect = { file = \"out.bin\" }")), "(no error)");
  EXPECT_NE(ParseError(Text("", "")).find("output 'out' is checked against nothing"), std::string::npos);
}

TEST(ManifestDataFiles, RefusedForms) {
  EXPECT_NE(ParseError(Text("init = { file = \"\" }", "")).find("[[buffer]] 'x'.init.file: expected the path"),
            std::string::npos);
  EXPECT_NE(ParseError(Text("init = { path = \"a\" }", "")).find("a table of member = init is for type = \"struct\""),
            std::string::npos);
  EXPECT_NE(ParseError(Text("expect = { file = \"x.bin\" }", "")).find("expect needs output = true"),
            std::string::npos);
  EXPECT_NE(ParseError(Text("", "expect = { tolerance = 0.1 }")).find("[[buffer]] 'out'.expect.file: expected the path"),
            std::string::npos);
  EXPECT_NE(ParseError(Text("", "expect = { file = \"o.bin\", tolerance = \"a\" }"))
                .find("[[buffer]] 'out'.expect.tolerance: expected a number"),
            std::string::npos);
  EXPECT_NE(ParseError(Text("", "header = {}\ninit = { file = \"o.bin\" }")).find("give no header beside it"),
            std::string::npos);
}

// ---- Loaded: the files found, sized and hashed -------------------------------------------------

class LoadedDataFiles : public ::testing::Test {
 protected:
  void Write(const std::string& name, std::string_view bytes) {
    std::ofstream(folder_.path() / name, std::ios::binary) << bytes;
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
    Write("in.bin", std::string(1024, 'a'));
    // out's count, then its 256 floats.
    Write("out.bin", std::string(4 + 1024, 'b'));
  }
  testing::TempFolder folder_{"csbench_data_files_test"};
  const std::string kBoth = "init = { file = \"out.bin\" }\nexpect = { file = \"out.bin\" }";
};

TEST_F(LoadedDataFiles, SizesAreTakenAndTheHeaderComesFromTheFile) {
  const Manifest m = Load(Text("init = { file = \"in.bin\" }", kBoth));
  EXPECT_EQ(m.buffers[0].init_file.bytes, std::optional<uint64_t>(1024));
  EXPECT_EQ(m.buffers[1].init_file.bytes, std::optional<uint64_t>(1028));
  EXPECT_EQ(m.buffers[1].expect.bytes, std::optional<uint64_t>(1028));
  // The file holds the header's bytes: the point gives none of its own for out.
  const PointValues p = EvaluatePoint(m, m.variants[0], {64, 1}, {256, 1});
  EXPECT_TRUE(p.headers[1].empty());
  const Manifest without = Load(Text("init = { file = \"in.bin\" }", "expect = { file = \"out.bin\" }"));
  EXPECT_EQ(EvaluatePoint(without, without.variants[0], {64, 1}, {256, 1}).headers[1].size(), 4u);
}

TEST_F(LoadedDataFiles, EveryDeclaredPointMustFitTheFile) {
  // 1024 bytes are 256 floats: the test domain of 100 takes 400.
  const std::string error = LoadError(Text("init = { file = \"in.bin\" }", kBoth, "test_domains = [\"100\"]"));
  EXPECT_NE(error.find("m.toml:13: [[buffer]] 'x'.init.file: "), std::string::npos) << error;
  EXPECT_NE(error.find("in.bin is 1024 bytes, but buffer 'x' is 400 bytes at variant plain, workgroup 64x1, domain "
                       "100x1 (100 elements of float, 4 bytes each)"),
            std::string::npos)
      << error;
  // The header counts in out's size: its 1024 float bytes alone do not fit.
  Write("out.bin", std::string(1024, 'b'));
  const std::string header = LoadError(Text("init = { file = \"in.bin\" }", kBoth));
  EXPECT_NE(header.find("out.bin is 1024 bytes, but buffer 'out' is 1028 bytes at variant plain, workgroup 64x1, "
                        "domain 256x1 (256 elements of float, 4 bytes each, after a header of 4 bytes)"),
            std::string::npos)
      << header;
}

TEST_F(LoadedDataFiles, AMissingFileIsNamed) {
  const std::string error = LoadError(Text("init = { file = \"in.bin\" }", "expect = { file = \"gone.bin\" }"));
  EXPECT_NE(error.find("[[buffer]] 'out'.expect.file: "), std::string::npos) << error;
  EXPECT_NE(error.find("gone.bin does not exist (or is not a file)"), std::string::npos) << error;
}

TEST_F(LoadedDataFiles, TheManifestsHashCoversTheFilesContents) {
  const std::string text = Text("init = { file = \"in.bin\" }", kBoth);
  auto hash = [&] {
    Load(text);
    return RunProvenance().manifests.back().sha256;
  };
  const std::string first = hash();
  EXPECT_EQ(hash(), first);
  Write("in.bin", std::string(1023, 'a') + "c");
  const std::string changed = hash();
  EXPECT_NE(changed, first);
  Write("out.bin", std::string(4 + 1024, 'c'));
  EXPECT_NE(hash(), changed);
  Write("in.bin", std::string(1024, 'a'));
  Write("out.bin", std::string(4 + 1024, 'b'));
  EXPECT_EQ(hash(), first);
}

}  // namespace
}  // namespace csbench
