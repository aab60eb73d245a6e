// Buffers whose blocks have members before their runtime arrays (a header): the `header` key read,
// resolved against the shader's std430 layout, and its bytes at a point.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "harness/manifest/manifest.hpp"
#include "tests/harness/temp_folder.hpp"

namespace csbench {
namespace {

// A family over one shader (`k.comp`, `glsl` its declarations and body) with an input x and an
// output `out` of `out_type`; `out_keys` are added to out's table, `check` is the [check] table.
std::string Family(std::string_view out_type, std::string_view out_keys, std::string_view check) {
  return std::string(R"toml([family]
name = "fam"
domains = ["1000"]
workgroups = ["64"]
bytes = "8 * W"

[[buffer]]
name = "x"
binding = 0
type = "float"
count = "W"

[[buffer]]
name = "out"
binding = 1
type = ")toml") + std::string(out_type) + "\"\ncount = \"W\"\noutput = true\n" + std::string(out_keys) +
         R"toml(

[dispatch]
groups = ["ceil(W / WG_X)", "1", "1"]

[[variant]]
name = "v"
source = "k.comp"

[check]
)toml" + std::string(check) + "\n";
}

class Header : public ::testing::Test {
 protected:
  // Writes the manifest and the shader (its buffer declarations, then an empty main) and loads it.
  // Each load in a folder of its own: compiled shaders are kept by their path.
  Manifest Load(const std::string& manifest, std::string_view declarations) {
    const std::filesystem::path dir = folder_.path() / std::to_string(loads_++);
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "m.toml") << manifest;
    std::ofstream(dir / "k.comp")
        << "#version 450\nlayout(local_size_x_id = 0, local_size_y_id = 1) in;\n"
           "layout(std430, binding = 0) readonly buffer X { float x[]; };\n"
        << declarations << "\nvoid main() {}\n";
    return LoadManifest(dir / "m.toml");
  }
  std::string LoadError(const std::string& manifest, std::string_view declarations) {
    try {
      Load(manifest, declarations);
    } catch (const ManifestError& e) {
      return e.message;
    }
    return "(no error)";
  }
  testing::TempFolder folder_{"csbench_header_test"};
  int loads_ = 0;
};

uint32_t WordAt(const std::vector<std::byte>& bytes, size_t offset) {
  uint32_t word = 0;
  std::memcpy(&word, bytes.data() + offset, 4);
  return word;
}

TEST(ParseManifestHeader, ReadsHeaderValuesAsUniformValues) {
  const Manifest m = ParseManifest(
      Family("float", R"(header = { count = "W", scale = 2.5, sub = { a = 1 }, pair = [1, "W / 2"] })", R"(out = "x")"),
      "dir/m.toml");
  const ManifestBuffer& out = m.buffers[1];
  ASSERT_EQ(out.name, "out");
  EXPECT_TRUE(out.header_given);
  EXPECT_FALSE(m.buffers[0].header_given);
  EXPECT_EQ(out.header.at("count"), std::vector<std::string>{"W"});
  EXPECT_EQ(out.header.at("sub.a"), std::vector<std::string>{"1"});
  EXPECT_EQ(out.header.at("pair").size(), 2u);
  EXPECT_EQ(out.header.at("scale").size(), 1u);
  // Until the shader is read the header's members are unknown: nothing is laid out yet.
  EXPECT_EQ(out.type.array_offset, 0u);
  EXPECT_TRUE(out.header_fields.empty());
  EXPECT_TRUE(HasUnresolvedStruct(m));
}

TEST(ParseManifestHeader, WrongFormsNameTheKey) {
  auto error = [](const std::string& text) {
    try {
      ParseManifest(text, "dir/m.toml");
    } catch (const ManifestError& e) {
      return e.message;
    }
    return std::string("(no error)");
  };
  EXPECT_NE(error(Family("float", "header = 3", R"(out = "x")")).find("[[buffer]] 'out'.header: expected a table of member = value"),
            std::string::npos);
  EXPECT_NE(error(Family("float", R"(header = { n = "Q" })", R"(out = "x")")).find("'out'.header.n"), std::string::npos);
  // A member check needs a struct or a header key.
  EXPECT_NE(error(Family("float", "", "out = \"x\"\n\"out.count\" = \"W\"")).find("has no header (a `header` key)"),
            std::string::npos);
}

TEST_F(Header, ACountBeforeAFloatArrayMovesTheArrayAndStartsAtZero) {
  // The block of the issue, with no header key: the count starts at zero, the array at byte 4.
  const Manifest m = Load(Family("float", "", R"(out = "x")"),
                          "layout(std430, binding = 1) buffer Y { uint count; float y[]; };");
  const ManifestBuffer& out = m.buffers[1];
  EXPECT_EQ(out.type.array_offset, 4u);
  ASSERT_EQ(out.header_fields.size(), 1u);
  EXPECT_EQ(out.header_fields[0].key, "count");
  EXPECT_EQ(out.header_fields[0].offset, 0u);
  EXPECT_EQ(out.header_fields[0].kind, 'u');
  EXPECT_EQ(out.header_fields[0].text, "0");
  EXPECT_EQ(m.buffers[0].type.array_offset, 0u);
  const PointValues p = EvaluatePoint(m, m.variants[0], {64, 1}, {1000, 1});
  EXPECT_EQ(p.counts[1], 1000u);
  EXPECT_TRUE(p.headers[0].empty());
  ASSERT_EQ(p.headers[1].size(), 4u);
  EXPECT_EQ(WordAt(p.headers[1], 0), 0u);
  // Its member is a check's variable.
  const std::vector<std::string> names = CheckVariables(m);
  EXPECT_EQ(names.back(), "out.count");
}

TEST_F(Header, ValuesByNameAtTheShadersOffsets) {
  // std430: n at 0, scale at 4, sub at 8 (a at 8, b at 16: a vec2's alignment), the array at 24.
  const Manifest m = Load(Family("float", R"(header = { n = "W", scale = 2.5, sub = { a = "W / 8" } })",
                                 "out = \"x * out.scale\"\n\"out.n\" = \"W\""),
                          "struct Sub { uint a; vec2 b; };\n"
                          "layout(std430, binding = 1) buffer Y { uint n; float scale; Sub sub; float y[]; };");
  const ManifestBuffer& out = m.buffers[1];
  EXPECT_EQ(out.type.array_offset, 24u);
  const PointValues p = EvaluatePoint(m, m.variants[0], {64, 1}, {1000, 1});
  ASSERT_EQ(p.headers[1].size(), 24u);
  EXPECT_EQ(WordAt(p.headers[1], 0), 1000u);
  float scale = 0;
  std::memcpy(&scale, p.headers[1].data() + 4, 4);
  EXPECT_EQ(scale, 2.5f);
  EXPECT_EQ(WordAt(p.headers[1], 8), 125u);
  EXPECT_EQ(WordAt(p.headers[1], 16), 0u);  // sub.b, not named: zero
  EXPECT_EQ(WordAt(p.headers[1], 20), 0u);
  // Scalars are variables; a vector's components are not.
  const std::vector<std::string> names = CheckVariables(m);
  for (const char* name : {"out.n", "out.scale", "out.sub.a"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
  }
  EXPECT_EQ(std::find_if(names.begin(), names.end(), [](const auto& n) { return n.find("sub.b") != std::string::npos; }),
            names.end());
}

TEST_F(Header, ACounterBesideAnArrayOfStructs) {
  // std430: part_counter at 0; State (a vec2 and a float) aligned to 8 with a stride of 16, so the
  // array starts at byte 8.
  const Manifest m = Load(Family("struct", "header = { part_counter = 0 }",
                                 "\"out.p\" = \"x\"\n\"out.v\" = \"1\"\n\"out.part_counter\" = \"W\""),
                          "struct State { vec2 p; float v; };\n"
                          "layout(std430, binding = 1) buffer S { uint part_counter; State state[]; };");
  const ManifestBuffer& out = m.buffers[1];
  EXPECT_EQ(out.type.array_offset, 8u);
  EXPECT_EQ(out.type.stride, 16u);
  ASSERT_EQ(out.type.fields.size(), 2u);
  EXPECT_EQ(out.type.fields[0].offset, 0u);  // from the element's start, after the header
  EXPECT_EQ(out.type.fields[1].offset, 8u);
  ASSERT_EQ(out.header_fields.size(), 1u);
  EXPECT_EQ(out.header_fields[0].key, "part_counter");
  const PointValues p = EvaluatePoint(m, m.variants[0], {64, 1}, {1000, 1});
  EXPECT_EQ(p.headers[1].size(), 8u);
}

TEST_F(Header, WrongHeadersAreRefusedAtLoad) {
  const std::string block = "layout(std430, binding = 1) buffer Y { uint count; float y[]; };";
  EXPECT_NE(LoadError(Family("float", "header = { total = 1 }", R"(out = "x")"), block)
                .find("'out' (variant 'v').header: names total, which the shader's binding 1 (block Y, float y[]) does "
                      "not have before its runtime array (it has count)"),
            std::string::npos);
  EXPECT_NE(LoadError(Family("float", "header = { count = [1, 2] }", R"(out = "x")"), block)
                .find("member count (uint) takes 1 value, and 2 are given"),
            std::string::npos);
  EXPECT_NE(LoadError(Family("float", "header = {}", R"(out = "x")"),
                      "layout(std430, binding = 1) buffer Y { float y[]; };")
                .find("has no members before its runtime array"),
            std::string::npos);
  EXPECT_NE(LoadError(Family("float", "header = {}", "out = \"x\"\n\"out.total\" = \"1\""), block)
                .find("'out' has no member 'total' (it has count (header))"),
            std::string::npos);
  EXPECT_NE(LoadError(Family("float", "header = {}", R"(out = "x + out.total")"), block).find("out.total"),
            std::string::npos);
}

}  // namespace
}  // namespace csbench
