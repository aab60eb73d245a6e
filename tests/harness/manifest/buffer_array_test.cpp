// Arrays of storage-buffer descriptors: each element a [[buffer]] of its own (`element`, or a
// [set, binding, element] triple), resolved against the shader's array and ordered as Vulkan
// orders the dynamic offsets (binding, then element).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <string_view>

#include "harness/manifest/manifest.hpp"
#include "tests/harness/temp_folder.hpp"

namespace csbench {
namespace {

// The shader: parts[3] at binding 0 (elements a, b, c), out at binding 1.
constexpr std::string_view kShader = R"(#version 450
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(std430, binding = 0) readonly buffer Part { float v[]; } parts[3];
layout(std430, binding = 1) writeonly buffer Out { float r[]; };
void main() {}
)";

// Buffers listed out of order: c by a triple, b and a by `element`.
constexpr std::string_view kManifest = R"toml([family]
name = "fam"
domains = ["1000"]
workgroups = ["64"]
bytes = "16 * W"

[[buffer]]
name = "out"
binding = 1
type = "float"
count = "W"
output = true

[[buffer]]
name = "c"
bindings = [[0, 0, 2]]
type = "float"
count = "W"

[[buffer]]
name = "b"
binding = 0
element = 1
type = "float"
count = "W"

[[buffer]]
name = "a"
binding = 0
element = 0
type = "float"
count = "W"

[dispatch]
groups = ["ceil(W / WG_X)", "1", "1"]

[[variant]]
name = "v"
source = "k.comp"

[check]
out = "a + 2 * b + 3 * c"
)toml";

class BufferArray : public ::testing::Test {
 protected:
  // Each load in a folder of its own: compiled shaders are kept by their path.
  Manifest Load(const std::string& manifest) {
    const std::filesystem::path dir = folder_.path() / std::to_string(loads_++);
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "m.toml") << manifest;
    std::ofstream(dir / "k.comp") << kShader;
    return LoadManifest(dir / "m.toml");
  }
  std::string LoadError(const std::string& manifest) {
    try {
      Load(manifest);
    } catch (const ManifestError& e) {
      return e.message;
    }
    return "(no error)";
  }
  testing::TempFolder folder_{"csbench_buffer_array_test"};
  int loads_ = 0;
};

TEST_F(BufferArray, ElementsAreSlotsInBindingThenElementOrder) {
  const Manifest m = Load(std::string(kManifest));
  ASSERT_EQ(m.buffers.size(), 4u);
  EXPECT_EQ(m.buffers[0].name, "a");
  EXPECT_EQ(m.buffers[1].name, "b");
  EXPECT_EQ(m.buffers[2].name, "c");
  EXPECT_EQ(m.buffers[3].name, "out");
  EXPECT_EQ(m.buffers[1].slots, (std::vector<SlotPlace>{{0, 0, 1}}));
  EXPECT_EQ(m.buffers[2].slots, (std::vector<SlotPlace>{{0, 0, 2}}));
  ASSERT_EQ(m.variants.size(), 1u);
  // The shader's array is three slots of binding 0, then out's.
  EXPECT_EQ(m.variants[0].declared, (std::set<SlotPlace>{{0, 0, 0}, {0, 0, 1}, {0, 0, 2}, {0, 1, 0}}));
}

TEST_F(BufferArray, EveryElementOnceAndNoneBeyond) {
  std::string manifest(kManifest);
  // c moved from element 2 to 1: element 2 is left out and element 1 given twice.
  const std::string twice = std::string(manifest).replace(manifest.find("[[0, 0, 2]]"), 11, "[[0, 0, 1]]");
  EXPECT_NE(LoadError(twice).find("[[buffer]] 'b'.binding: set 0 binding 0 element 1 is given to two buffers"),
            std::string::npos)
      << LoadError(twice);
  const std::string beyond = std::string(manifest).replace(manifest.find("[[0, 0, 2]]"), 11, "[[0, 0, 3]]");
  EXPECT_NE(LoadError(beyond).find("the shader declares binding 0 (block Part, float v[]), an array of 3 "
                                   "descriptors, and no [[buffer]] has binding 0 element 2"),
            std::string::npos)
      << LoadError(beyond);
}

}  // namespace
}  // namespace csbench
