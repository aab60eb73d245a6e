// Arrays of combined image samplers and of uniform buffers, and runtime-sized arrays of
// descriptors: each element a resource of its own (`element`), every element given once, a
// runtime-sized array as long as the elements given (0 to N-1, none skipped), and the device
// features descriptor indexing needs found in the shader's SPIR-V.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <string_view>

#include "harness/manifest/manifest.hpp"
#include "harness/manifest/requirements.hpp"
#include "harness/vulkan/context.hpp"
#include "tests/harness/manifest/manifest_loads.hpp"

namespace csbench {
namespace {

// tex[3] at binding 0 (sampled), dst at 1, weights[2] at 2 (uniform buffers).
constexpr std::string_view kFixedShader = R"(#version 450
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(set = 0, binding = 0) uniform sampler2D tex[3];
layout(set = 0, binding = 1, r32f) uniform writeonly image2D dst;
layout(std140, set = 0, binding = 2) uniform Weight { float w; vec2 shift; } weights[2];
void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  float sum = 0.0;
  for (int k = 0; k < 3; ++k) sum += weights[k % 2].w * texelFetch(tex[k], p, 0).x;
  imageStore(dst, p, vec4(sum));
}
)";

constexpr std::string_view kFixedManifest = R"toml([family]
name = "fam"
domains = ["16x16"]
workgroups = ["8x8"]
bytes = "16 * W * H"

[[image]]
name = "t2"
bindings = [[0, 0, 2]]
format = "r32f"
usage = "sampled"
filter = "linear"

[[image]]
name = "t0"
binding = 0
element = 0
format = "r32f"
usage = "sampled"

[[image]]
name = "t1"
binding = 0
element = 1
format = "r32f"
usage = "sampled"
address = "repeat"

[[image]]
name = "dst"
binding = 1
format = "r32f"
output = true

[[uniform]]
name = "odd"
binding = 2
element = 1
values = { w = 2, shift = [0, 0] }

[[uniform]]
name = "even"
binding = 2
element = 0
values = { w = 1, shift = [0, 0] }

[dispatch]
groups = ["ceil(W / WG_X)", "ceil(H / WG_Y)", "1"]

[[variant]]
name = "v"
source = "k.comp"

[[variant]]
name = "own"
source = "k.comp"
[variant.uniform.odd]
w = "W"

[check]
dst = "t0 + 2 * t1 + t2"
)toml";

// Runtime-sized arrays of each kind: storage buffers, storage images, sampled images.
constexpr std::string_view kRuntimeShader = R"(#version 450
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(std430, binding = 0) readonly buffer Part { float v[]; } parts[];
layout(set = 0, binding = 1) uniform sampler2D tex[];
layout(set = 0, binding = 2, r32f) uniform writeonly image2D dst[];
layout(push_constant) uniform Size { uint width; uint n; };
void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  const uint k = uint(p.x) % n;
  const float v = parts[nonuniformEXT(k)].v[p.y * width + p.x] + texelFetch(tex[nonuniformEXT(k)], p, 0).x;
  imageStore(dst[nonuniformEXT(k)], p, vec4(v));
}
)";

constexpr std::string_view kRuntimeManifest = R"toml([family]
name = "fam"
domains = ["16x16"]
workgroups = ["8x8"]
bytes = "16 * W * H"

[[buffer]]
name = "p1"
binding = 0
element = 1
type = "float"
count = "W * H"

[[buffer]]
name = "p0"
binding = 0
element = 0
type = "float"
count = "W * H"

[[image]]
name = "s0"
binding = 1
format = "r32f"
usage = "sampled"

[[image]]
name = "s1"
bindings = [[0, 1, 1]]
format = "r32f"
usage = "sampled"

[[image]]
name = "d0"
binding = 2
element = 0
format = "r32f"
output = true

[[image]]
name = "d1"
binding = 2
element = 1
format = "r32f"
output = true

[push]
constants = ["W", "2"]

[dispatch]
groups = ["ceil(W / WG_X)", "ceil(H / WG_Y)", "1"]

[[variant]]
name = "v"
source = "k.comp"

[check]
d0 = "p0 + s0"
d1 = "p1 + s1"
)toml";

class DescriptorArray : public testing::ManifestLoads {
 protected:
  DescriptorArray() : ManifestLoads("csbench_descriptor_array_test") {}
};

using testing::With;

TEST_F(DescriptorArray, SampledElementsEachKeepTheirOwnSampler) {
  const Manifest m = Load(std::string(kFixedManifest), kFixedShader);
  ASSERT_EQ(m.images.size(), 4u);
  // In the order declared, each at its element with its own sampler settings.
  EXPECT_EQ(m.images[0].name, "t2");
  EXPECT_EQ(m.images[0].slots, (std::vector<SlotPlace>{{0, 0, 2}}));
  EXPECT_TRUE(m.images[0].linear);
  EXPECT_EQ(m.images[1].slots, (std::vector<SlotPlace>{{0, 0, 0}}));
  EXPECT_EQ(m.images[1].address, "clamp_to_edge");
  EXPECT_FALSE(m.images[1].linear);
  EXPECT_EQ(m.images[2].slots, (std::vector<SlotPlace>{{0, 0, 1}}));
  EXPECT_EQ(m.images[2].address, "repeat");
  ASSERT_EQ(m.variants.size(), 2u);
  // Three sampled slots, dst, and the two uniform buffers' elements.
  EXPECT_EQ(m.variants[0].declared,
            (std::set<SlotPlace>{{0, 0, 0}, {0, 0, 1}, {0, 0, 2}, {0, 1, 0}, {0, 2, 0}, {0, 2, 1}}));
}

TEST_F(DescriptorArray, UniformElementsTakeTheirOwnValuesByName) {
  const Manifest m = Load(std::string(kFixedManifest), kFixedShader);
  ASSERT_EQ(m.uniforms.size(), 2u);
  EXPECT_EQ(m.uniforms[0].name, "odd");
  EXPECT_EQ(m.uniforms[0].element, 1u);
  EXPECT_EQ(m.uniforms[1].element, 0u);
  // Each element's block is the array's (w, then shift at std140's offset 8): one field list per
  // [[uniform]], in the order declared.
  for (const ManifestVariant& v : m.variants) {
    ASSERT_EQ(v.uniform_fields.size(), 2u) << v.name;
    ASSERT_EQ(v.uniform_fields[0].size(), 3u) << v.name;
    EXPECT_EQ(v.uniform_fields[0][0].offset, 0u);
    EXPECT_EQ(v.uniform_fields[0][1].offset, 8u);
  }
  // The variant's own value goes to odd (element 1) only.
  EXPECT_EQ(m.variants[0].uniform_fields[0][0].text, "2");
  EXPECT_EQ(m.variants[1].uniform_fields[0][0].text, "W");
  EXPECT_EQ(m.variants[1].uniform_fields[1][0].text, "1");
}

TEST_F(DescriptorArray, APassTakesAnElementsOwnValuesByItsName) {
  // A variant of two passes of the shader: the first gives odd (element 1) its own w of P.
  std::string manifest(kFixedManifest);
  manifest = With(manifest, "[[variant]]\nname = \"own\"\nsource = \"k.comp\"\n[variant.uniform.odd]\nw = \"W\"\n",
                  "[[variant]]\nname = \"passes\"\n[[variant.pass]]\nsource = \"k.comp\"\nrepeat = \"2\"\n"
                  "uniform = { odd = { w = \"P + 5\" } }\n[[variant.pass]]\nsource = \"k.comp\"\n");
  const Manifest m = Load(manifest, kFixedShader);
  ASSERT_EQ(m.variants.size(), 2u);
  const ManifestVariant& v = m.variants[1];
  ASSERT_EQ(v.passes.size(), 2u);
  ASSERT_EQ(v.passes[0].uniform_fields.size(), 2u);
  ASSERT_EQ(v.passes[1].uniform_fields.size(), 2u);
  // The first pass's odd is its own, its even the [[uniform]]'s; the second pass's both the [[uniform]]s'.
  EXPECT_EQ(v.passes[0].uniform_fields[0][0].text, "P + 5");
  EXPECT_EQ(v.passes[0].uniform_fields[1][0].text, "1");
  EXPECT_EQ(v.passes[1].uniform_fields[0][0].text, "2");
}

TEST_F(DescriptorArray, EveryElementOfAFixedArrayOnce) {
  const std::string manifest(kFixedManifest);
  // A sampler element left out.
  EXPECT_NE(LoadError(With(manifest, "bindings = [[0, 0, 2]]", "bindings = [[0, 3, 0]]"), kFixedShader)
                .find("an array of 3 descriptors, and no [[image]] has binding 0 element 2"),
            std::string::npos)
      << LoadError(With(manifest, "bindings = [[0, 0, 2]]", "bindings = [[0, 3, 0]]"), kFixedShader);
  // A sampler element past the array.
  const std::string past = With(manifest, "bindings = [[0, 0, 2]]", "bindings = [[0, 0, 2], [0, 0, 3]]");
  EXPECT_NE(LoadError(past, kFixedShader)
                .find("[[image]] 't2' (variant 'v').element: 3, but the shader's combined image sampler at binding 0 "
                      "(tex) is an array "
                      "of 3 descriptors (elements 0 to 2)"),
            std::string::npos)
      << LoadError(past, kFixedShader);
  // A uniform element twice, and one past the array.
  const std::string twice = With(manifest, "element = 1\nvalues", "element = 0\nvalues");
  EXPECT_NE(LoadError(twice, kFixedShader).find("[[uniform]] 'even'.binding: set 0 binding 2 element 0 is given twice"),
            std::string::npos)
      << LoadError(twice, kFixedShader);
  const std::string beyond = With(manifest, "element = 1\nvalues", "element = 2\nvalues");
  EXPECT_NE(
      LoadError(beyond, kFixedShader).find("an array of 2 descriptors, and no [[uniform]] has binding 2 element 1"),
      std::string::npos)
      << LoadError(beyond, kFixedShader);
  // Two uniform buffers of one name: a variant's uniform table could not tell them apart.
  const std::string named = With(manifest, "name = \"odd\"", "name = \"even\"");
  EXPECT_NE(LoadError(named, kFixedShader).find("[[uniform]] 'even'.name: two uniform buffers have this name"),
            std::string::npos)
      << LoadError(named, kFixedShader);
}

TEST_F(DescriptorArray, ARuntimeArrayIsAsLongAsTheElementsGiven) {
  const Manifest m = Load(std::string(kRuntimeManifest), kRuntimeShader);
  ASSERT_EQ(m.variants.size(), 1u);
  const ManifestVariant& v = m.variants[0];
  EXPECT_EQ(v.declared, (std::set<SlotPlace>{{0, 0, 0}, {0, 0, 1}, {0, 1, 0}, {0, 1, 1}, {0, 2, 0}, {0, 2, 1}}));
  // The shader's capabilities show descriptor indexing; requires does not list them, so they are
  // taken as required (and a note says so).
  auto has = [&](const std::string& name) {
    return std::find(v.requires_features.begin(), v.requires_features.end(), name) != v.requires_features.end();
  };
  EXPECT_TRUE(has("runtime_descriptor_array"));
  EXPECT_TRUE(has("storage_buffer_array_non_uniform_indexing"));
  EXPECT_TRUE(has("sampled_image_array_non_uniform_indexing"));
  EXPECT_TRUE(has("storage_image_array_non_uniform_indexing"));
  EXPECT_FALSE(has("uniform_buffer_array_non_uniform_indexing"));
  ASSERT_FALSE(m.notes.empty());
  EXPECT_NE(m.notes.back().find("runtime_descriptor_array (SPIR-V RuntimeDescriptorArray)"), std::string::npos)
      << m.notes.back();
}

TEST_F(DescriptorArray, ARuntimeArrayTakesElementsFromZeroNoneSkipped) {
  const std::string manifest(kRuntimeManifest);
  // p0 moved to element 2: elements 1 and 2 are given, 0 is not.
  const std::string gap = With(manifest, "element = 0\ntype", "element = 2\ntype");
  EXPECT_NE(LoadError(gap, kRuntimeShader)
                .find("the shader declares binding 0 (block Part, float v[]), a runtime-sized array of descriptors: "
                      "elements up to 2 are given, and no [[buffer]] has element 0"),
            std::string::npos)
      << LoadError(gap, kRuntimeShader);
  // No element at all of the sampled array.
  const std::string none =
      With(With(manifest, "binding = 1\nformat", "binding = 3\nformat"), "[[0, 1, 1]]", "[[0, 3, 1]]");
  EXPECT_NE(
      LoadError(none, kRuntimeShader).find("a runtime-sized array of descriptors, and no [[image]] has an element"),
      std::string::npos)
      << LoadError(none, kRuntimeShader);
}

TEST(DescriptorIndexing, ADeviceMeetsItAsItsFeaturesSay) {
  DeviceInfo info;
  info.capability_features["RuntimeDescriptorArray"] = true;
  info.capability_features["StorageBufferArrayNonUniformIndexing"] = true;
  info.capability_features["SampledImageArrayNonUniformIndexing"] = false;
  EXPECT_TRUE(manifest_detail::DeviceMeets(info, "runtime_descriptor_array"));
  EXPECT_TRUE(manifest_detail::DeviceMeets(info, "storage_buffer_array_non_uniform_indexing"));
  EXPECT_FALSE(manifest_detail::DeviceMeets(info, "sampled_image_array_non_uniform_indexing"));
  EXPECT_FALSE(manifest_detail::DeviceMeets(info, "storage_image_array_non_uniform_indexing"));  // not reported
}

}  // namespace
}  // namespace csbench
