#include "harness/vulkan/reflection.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "harness/base/error.hpp"

namespace csbench {
namespace {

const ShaderBuffer* AtBinding(const std::vector<ShaderBuffer>& buffers, uint32_t set, uint32_t binding) {
  for (const auto& b : buffers) {
    if (b.set == set && b.binding == binding) return &b;
  }
  return nullptr;
}

std::string ErrorText(const std::string& glsl, const std::string& file_name,
                      const std::vector<std::string>& include_dirs = {}) {
  try {
    ReflectStorageBuffers(glsl, file_name, {}, include_dirs);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

// A folder of its own per test, removed afterwards.
class TempDir {
 public:
  TempDir() {
    path_ = std::filesystem::temp_directory_path() / ("csbench_reflection_" + std::to_string(getpid()) + "_" +
                                                      ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  std::string Write(const std::string& name, const std::string& text) const {
    auto path = path_ / name;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path) << text;
    return path.string();
  }
  std::string Path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

constexpr const char* kThreeBindings = R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { float in_values[]; };
layout(std430, binding = 1) writeonly buffer Out { vec4 out_values[]; } outb;
layout(std430, binding = 2) buffer Counts { uint total; uint counts[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  outb.out_values[i] = vec4(in_values[i]);
  atomicAdd(counts[i % 4], 1u);
}
)";

TEST(Reflect, ThreeBindingsTheirElementsStridesAndAccess) {
  auto buffers = ReflectStorageBuffers(kThreeBindings, "three.comp");
  ASSERT_EQ(buffers.size(), 3u);
  EXPECT_EQ(buffers[0], (ShaderBuffer{.set = 0,
                                      .binding = 0,
                                      .block = "In",
                                      .member = "in_values",
                                      .element = "float",
                                      .array_stride = 4,
                                      .readonly = true,
                                      .writeonly = false,
                                      .active = true}));
  // An instance-named block: the member is named without the "Out." that reflection puts before it.
  EXPECT_EQ(buffers[1], (ShaderBuffer{.set = 0,
                                      .binding = 1,
                                      .block = "Out",
                                      .member = "out_values",
                                      .element = "vec4",
                                      .array_stride = 16,
                                      .readonly = false,
                                      .writeonly = true,
                                      .active = true}));
  // The runtime array follows a scalar: its element is the array's, not the block's first member's.
  EXPECT_EQ(buffers[2], (ShaderBuffer{.set = 0,
                                      .binding = 2,
                                      .block = "Counts",
                                      .member = "counts",
                                      .element = "uint",
                                      .array_stride = 4,
                                      .readonly = false,
                                      .writeonly = false,
                                      .active = true}));
}

TEST(Reflect, BlockUnusedByMainIsStillDeclared) {
  auto buffers = ReflectStorageBuffers(R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Used { float used[]; };
layout(std430, binding = 3) readonly buffer Unused { ivec2 never_read[]; };
void main() { used[gl_GlobalInvocationID.x] = 1.0; }
)",
                                       "unused.comp");
  ASSERT_EQ(buffers.size(), 2u);
  const ShaderBuffer* unused = AtBinding(buffers, 0, 3);
  ASSERT_NE(unused, nullptr);
  EXPECT_FALSE(unused->active);
  EXPECT_EQ(unused->block, "Unused");
  EXPECT_EQ(unused->member, "never_read");
  EXPECT_EQ(unused->element, "ivec2");
  EXPECT_EQ(unused->array_stride, 8u);
  EXPECT_TRUE(unused->readonly);
  EXPECT_TRUE(AtBinding(buffers, 0, 0)->active);
}

TEST(Reflect, RuntimeArrayMainNeverIndexesStillHasItsElement) {
  // Only the count is read; the array's type must come from the block's declaration.
  auto buffers = ReflectStorageBuffers(R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint count; uvec4 items[]; };
layout(std430, binding = 1) buffer Out { uint result[]; };
void main() { result[0] = count; }
)",
                                       "barely.comp");
  const ShaderBuffer* data = AtBinding(buffers, 0, 0);
  ASSERT_NE(data, nullptr);
  EXPECT_TRUE(data->active);
  EXPECT_EQ(data->member, "items");
  EXPECT_EQ(data->element, "uvec4");
  EXPECT_EQ(data->array_stride, 16u);
}

TEST(Reflect, DescriptorSetComesFromTheSpirv) {
  auto buffers = ReflectStorageBuffers(R"(#version 450
layout(local_size_x = 64) in;
layout(std430, set = 1, binding = 0) readonly buffer Far { vec2 far_values[]; };
layout(std430, set = 0, binding = 0) buffer Near { float near_values[]; };
void main() { near_values[gl_GlobalInvocationID.x] = far_values[gl_GlobalInvocationID.x].y; }
)",
                                       "sets.comp");
  ASSERT_EQ(buffers.size(), 2u);
  // Ordered by set first: the same binding number in two sets is two buffers.
  EXPECT_EQ(buffers[0].block, "Near");
  EXPECT_EQ(buffers[0].set, 0u);
  EXPECT_EQ(buffers[1].block, "Far");
  EXPECT_EQ(buffers[1].set, 1u);
  EXPECT_EQ(buffers[1].binding, 0u);
  EXPECT_EQ(buffers[1].element, "vec2");
  EXPECT_EQ(buffers[1].array_stride, 8u);
  EXPECT_TRUE(buffers[1].readonly);
}

TEST(Reflect, DefinesChooseTheElement) {
  const char* glsl = R"(#version 450
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { ELEMENT values[]; };
void main() { values[gl_GlobalInvocationID.x] = ELEMENT(1); }
)";
  EXPECT_EQ(ReflectStorageBuffers(glsl, "d.comp", {{"ELEMENT", "ivec4"}}).at(0).element, "ivec4");
  auto as_vec3 = ReflectStorageBuffers(glsl, "d.comp", {{"ELEMENT", "vec3"}});
  EXPECT_EQ(as_vec3.at(0).element, "vec3");
  EXPECT_EQ(as_vec3.at(0).array_stride, 16u);  // std430 pads a vec3 array element to 16 bytes
}

TEST(Reflect, MixedAccessAndNonScalarArrays) {
  auto buffers = ReflectStorageBuffers(R"(#version 450
layout(local_size_x = 64) in;
struct Pair { float a; vec3 b; };
layout(std430, binding = 0) buffer Mixed { readonly uint n; float values[]; };
layout(std430, binding = 1) buffer Pairs { Pair pairs[]; };
layout(std430, binding = 2) buffer Fixed { vec4 fixed_values[8]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  values[i] = pairs[i].a + fixed_values[i % 8].x + float(n);
}
)",
                                       "mixed.comp");
  ASSERT_EQ(buffers.size(), 3u);
  // One writable member makes the block writable.
  EXPECT_FALSE(buffers[0].readonly);
  EXPECT_EQ(buffers[0].element, "float");
  // A runtime array of structs: the member and stride, but no scalar or vector element.
  EXPECT_EQ(buffers[1].member, "pairs");
  EXPECT_EQ(buffers[1].element, "");
  EXPECT_EQ(buffers[1].array_stride, 32u);
  // No runtime array at all.
  EXPECT_EQ(buffers[2].member, "");
  EXPECT_EQ(buffers[2].element, "");
  EXPECT_EQ(buffers[2].array_stride, 0u);
}

TEST(Reflect, IncludesResolveBesideTheFileThenInIncludeDirs) {
  TempDir dir;
  dir.Write("src/common.glsl", "layout(std430, binding = 1) writeonly buffer Shared { uvec2 shared_values[]; };\n");
  dir.Write("lib/library.glsl", "layout(std430, binding = 2) readonly buffer Lib { double lib_values[]; };\n");
  // Never read: a <...> include does not look beside the file.
  dir.Write("src/library.glsl", "layout(std430, binding = 5) readonly buffer Lib { float lib_values[]; };\n");
  const std::string glsl = R"(#version 450
layout(local_size_x = 64) in;
#include "common.glsl"
#include <library.glsl>
void main() { shared_values[gl_GlobalInvocationID.x] = uvec2(lib_values[0]); }
)";
  const std::string main_path = dir.Write("src/main.comp", glsl);
  auto buffers = ReflectStorageBuffers(glsl, main_path, {}, {dir.Path() + "/lib"});
  ASSERT_EQ(buffers.size(), 2u);
  EXPECT_EQ(buffers[0].block, "Shared");
  EXPECT_EQ(buffers[0].binding, 1u);
  EXPECT_EQ(buffers[0].element, "uvec2");
  EXPECT_TRUE(buffers[0].writeonly);
  EXPECT_EQ(buffers[1].block, "Lib");
  EXPECT_EQ(buffers[1].element, "double");
  EXPECT_EQ(buffers[1].array_stride, 8u);

  EXPECT_EQ(buffers[1].binding, 2u);

  std::string message = ErrorText(glsl, main_path);
  EXPECT_NE(message.find("cannot find library.glsl"), std::string::npos) << message;
}

TEST(Reflect, CompileErrorNamesFileAndLine) {
  std::string message = ErrorText(R"(#version 450
layout(local_size_x = 64) in;
/* a comment
   over two lines */
layout(std430, binding = 0) buffer Data { float values[]; };
void main() { values[0] = undeclared_name; }
)",
                                  "broken.comp");
  EXPECT_NE(message.find("broken.comp:6"), std::string::npos) << message;
  EXPECT_NE(message.find("undeclared_name"), std::string::npos) << message;
}

TEST(Reflect, ErrorInAnIncludedFileNamesThatFile) {
  TempDir dir;
  dir.Write("helpers.glsl", "\nfloat Helper() { return missing_thing; }\n");
  const std::string glsl = R"(#version 450
layout(local_size_x = 64) in;
#include "helpers.glsl"
layout(std430, binding = 0) buffer Data { float values[]; };
void main() { values[0] = Helper(); }
)";
  std::string message = ErrorText(glsl, dir.Write("user.comp", glsl));
  EXPECT_NE(message.find("helpers.glsl:2"), std::string::npos) << message;
}

}  // namespace
}  // namespace csbench
