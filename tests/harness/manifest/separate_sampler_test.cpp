// Separate sampled images and samplers: a texture2D is a sampled [[image]] marked separate, with no
// sampler keys of its own; a sampler is a [[sampler]] whose keys read as a combined image
// sampler's do; a [[sampler]] that Vulkan would refuse beside the shader's separate images is a
// load error.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>

#include "harness/manifest/manifest.hpp"
#include "tests/harness/manifest/manifest_loads.hpp"

namespace csbench {
namespace {

// tex (texture2D) at binding 0, smp (sampler) at binding 1 of set 1, dst at binding 2.
constexpr std::string_view kShader = R"(#version 450
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(set = 0, binding = 0) uniform texture2D tex;
layout(set = 1, binding = 1) uniform sampler smp;
layout(set = 0, binding = 2, r32f) uniform writeonly image2D dst;
void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  imageStore(dst, p, textureLod(sampler2D(tex, smp), vec2(p) + 0.5, 0.0));
}
)";

constexpr std::string_view kManifest = R"toml([family]
name = "fam"
domains = ["16x16"]
workgroups = ["8x8"]
bytes = "8 * W * H"

[[image]]
name = "tex"
binding = 0
format = "r32f"
usage = "sampled"

[[sampler]]
name = "smp"
set = 1
binding = 1
address = "clamp_to_border"
border = "opaque_white"
unnormalized = true

[[image]]
name = "dst"
binding = 2
format = "r32f"
output = true

[dispatch]
groups = ["ceil(W / WG_X)", "ceil(H / WG_Y)", "1"]

[[variant]]
name = "v"
source = "k.comp"

[check]
dst = "tex"
)toml";

class SeparateSampler : public testing::ManifestLoads {
 protected:
  SeparateSampler() : ManifestLoads("csbench_separate_sampler_test") {}
};

using testing::With;

TEST_F(SeparateSampler, TheImageIsSeparateAndTheSamplerTakesTheKeys) {
  const Manifest m = Load(std::string(kManifest), kShader);
  ASSERT_EQ(m.images.size(), 2u);
  EXPECT_TRUE(m.images[0].sampled);
  EXPECT_TRUE(m.images[0].separate);
  EXPECT_FALSE(m.images[1].separate);
  ASSERT_EQ(m.samplers.size(), 1u);
  const ManifestSampler& s = m.samplers[0];
  EXPECT_EQ(s.name, "smp");
  EXPECT_EQ(s.slot, (SlotPlace{1, 1, 0}));
  EXPECT_FALSE(s.linear);  // the default filter, nearest
  EXPECT_EQ(s.address, "clamp_to_border");
  EXPECT_EQ(s.border, "opaque_white");
  EXPECT_TRUE(s.unnormalized);
  EXPECT_EQ(m.variants[0].declared, (std::set<SlotPlace>{{0, 0, 0}, {0, 2, 0}, {1, 1, 0}}));
}

TEST_F(SeparateSampler, WhatVulkanOrTheShaderRefusesIsALoadError) {
  // The sampler keys are read as an image's: a border without clamp_to_border.
  EXPECT_NE(LoadError(With(kManifest, "address = \"clamp_to_border\"\n", ""), kShader).find(
                "a border colour is read only with address = \"clamp_to_border\""),
            std::string::npos);
  // Unnormalised coordinates beside a separate image the shader may pair them with that is arrayed.
  const std::string arrayed = With(kManifest, "usage = \"sampled\"", "usage = \"sampled\"\nlayers = \"2\"");
  const std::string shader = With(With(kShader, "uniform texture2D tex", "uniform texture2DArray tex"),
                                  "sampler2D(tex, smp), vec2(p) + 0.5", "sampler2DArray(tex, smp), vec3(p, 0.0)");
  EXPECT_NE(LoadError(arrayed, shader)
                .find("[[sampler]] 'smp' (variant 'v').unnormalized: the shader may sample the separate image 'tex' "
                      "with it, which is arrayed"),
            std::string::npos);
  // A sampler key on the separate image, and a [[sampler]] at the image's binding.
  EXPECT_NE(LoadError(With(kManifest, "usage = \"sampled\"", "usage = \"sampled\"\nfilter = \"linear\""), kShader)
                .find(".filter: the shader's sampled image at binding 0 (tex) is a separate sampled image"),
            std::string::npos);
  EXPECT_NE(LoadError(With(kManifest, "set = 1\nbinding = 1", "binding = 0"), kShader).find("given twice"),
            std::string::npos);
}

}  // namespace
}  // namespace csbench
