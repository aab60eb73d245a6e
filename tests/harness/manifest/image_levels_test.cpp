// Images with layers and mip levels, and views of one level bound as images of their own: sizes, slots, what a view
// takes from its image, and the load errors.
#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <string_view>

#include "harness/manifest/manifest.hpp"
#include "tests/harness/temp_folder.hpp"

namespace csbench {
namespace {

// src (level 0 of a chain) at binding 0, dst[2] (two of its levels) at binding 1, an arrayed input at binding 2.
constexpr std::string_view kShader = R"(#version 450
layout(local_size_x_id = 0, local_size_y_id = 1) in;
layout(binding = 0, r32f) uniform readonly image2D src;
layout(binding = 1, r32f) uniform writeonly image2D dst[2];
layout(binding = 2, r32f) uniform readonly image2DArray stack;
void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  imageStore(dst[0], p, imageLoad(src, 2 * p) + imageLoad(stack, ivec3(p, 1)));
  imageStore(dst[1], p, imageLoad(src, 8 * p));
}
)";

constexpr std::string_view kManifest = R"toml([family]
name = "fam"
domains = ["100x64"]
workgroups = ["8x8"]
bytes = "16 * W * H"

[[image]]
name = "half"
view = { image = "src", level = 1 }
binding = 1
element = 0
output = true

[[image]]
name = "src"
binding = 0
format = "r32f"
levels = 4
init = "x + y"

[[image]]
name = "eighth"
bindings = [[0, 1, 1]]
view = { image = "src", level = 3 }
output = true

[[image]]
name = "stack"
binding = 2
format = "r32f"
layers = "H / 16"
init = "z"

[dispatch]
groups = ["ceil(W / WG_X)", "ceil(H / WG_Y)", "1"]

[[variant]]
name = "v"
source = "k.comp"

[check]
half = "src(2 * x, 2 * y) + stack(x, y, 1)"
eighth = "src(8 * x, 8 * y)"
)toml";

class ImageLevels : public ::testing::Test {
 protected:
  // Each load in a folder of its own: compiled shaders are kept by their path.
  Manifest Load(const std::string &manifest) {
    const std::filesystem::path dir = folder_.path() / std::to_string(loads_++);
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "m.toml") << manifest;
    std::ofstream(dir / "k.comp") << kShader;
    return LoadManifest(dir / "m.toml");
  }
  std::string LoadError(const std::string &manifest) {
    try {
      Load(manifest);
    } catch (const ManifestError &e) {
      return e.message;
    }
    return "(no error)";
  }
  // `manifest` with its first `from` replaced by `to`.
  static std::string Replaced(std::string_view manifest, std::string_view from, std::string_view to) {
    std::string text(manifest);
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return text.replace(at, from.size(), to);
  }
  testing::TempFolder folder_{"csbench_image_levels_test"};
  int loads_ = 0;
};

TEST_F(ImageLevels, ViewsTakeTheirImagesFormatAndTheirLevelsSize) {
  const Manifest m = Load(std::string(kManifest));
  ASSERT_EQ(m.images.size(), 4u);
  const ManifestImage &half = m.images[0];
  const ManifestImage &src = m.images[1];
  const ManifestImage &eighth = m.images[2];
  const ManifestImage &stack = m.images[3];
  EXPECT_EQ(src.levels, 4u);
  EXPECT_EQ(src.view_of, -1);
  EXPECT_FALSE(src.arrayed);
  // A view declared before its image finds it all the same.
  EXPECT_EQ(half.view_of, 1);
  EXPECT_EQ(half.view_level, 1u);
  EXPECT_EQ(eighth.view_of, 1);
  EXPECT_EQ(eighth.view_level, 3u);
  EXPECT_EQ(half.format.glsl, "r32f");
  EXPECT_EQ(half.slots, (std::vector<SlotPlace>{{0, 1, 0}}));
  EXPECT_EQ(eighth.slots, (std::vector<SlotPlace>{{0, 1, 1}}));
  // A view has no init of its own: written, it starts poisoned; its image's init is what it reads.
  EXPECT_FALSE(half.init_given);
  EXPECT_EQ(half.init_expression, "x + y");
  EXPECT_TRUE(stack.arrayed);
  EXPECT_EQ(stack.layers, "H / 16");
  EXPECT_EQ(m.variants[0].declared, (std::set<SlotPlace>{{0, 0, 0}, {0, 1, 0}, {0, 1, 1}, {0, 2, 0}}));

  const PointValues p = EvaluatePoint(m, m.variants[0], {8, 8}, {100, 64});
  ASSERT_EQ(p.image_sizes.size(), 4u);
  EXPECT_EQ(p.image_sizes[1], (std::array<uint32_t, 3>{100, 64, 1}));
  // Level 1 halves each size, level 3 divides by 8, rounding down.
  EXPECT_EQ(p.image_sizes[0], (std::array<uint32_t, 3>{50, 32, 1}));
  EXPECT_EQ(p.image_sizes[2], (std::array<uint32_t, 3>{12, 8, 1}));
  // Layers are the third size of an arrayed image.
  EXPECT_EQ(p.image_sizes[3], (std::array<uint32_t, 3>{100, 64, 4}));
}

TEST_F(ImageLevels, ALevelPastOneTexelStaysOneTexel) {
  // 100x4: level 3 is 12x1 (4 / 8 rounds down to 0, kept at 1).
  const Manifest m = Load(Replaced(Replaced(kManifest, R"(domains = ["100x64"])", R"(domains = ["100x4"])"),
                                   R"(layers = "H / 16")", R"(layers = "2")"));
  const PointValues p = EvaluatePoint(m, m.variants[0], {8, 8}, {100, 4});
  EXPECT_EQ(p.image_sizes[2], (std::array<uint32_t, 3>{12, 1, 1}));
  EXPECT_EQ(p.image_sizes[3], (std::array<uint32_t, 3>{100, 4, 2}));
}

TEST_F(ImageLevels, LevelsPastTheChainAreRefusedAtThePoint) {
  // 8x8 has 4 levels (8, 4, 2, 1); 5 is one too many.
  const std::string text = Replaced(Replaced(kManifest, R"(domains = ["100x64"])", R"(domains = ["8x16", "8x8"])"),
                                    "levels = 4", "levels = 5");
  EXPECT_NE(LoadError(text).find("[[image]] 'src'.levels: 5, but an image of 8x8 at "), std::string::npos)
      << LoadError(text);
  EXPECT_NE(LoadError(text).find("has 4 mip levels (the full chain down to 1x1)"), std::string::npos);
}

TEST_F(ImageLevels, ViewErrorsNameTheView) {
  const std::string unknown =
      Replaced(kManifest, R"(view = { image = "src", level = 1 })", R"(view = { image = "source", level = 1 })");
  EXPECT_NE(LoadError(unknown).find("[[image]] 'half'.view.image: 'source': no [[image]] has this name"),
            std::string::npos)
      << LoadError(unknown);
  const std::string past = Replaced(kManifest, "level = 3", "level = 4");
  EXPECT_NE(LoadError(past).find("[[image]] 'eighth'.view.level: 4, but image 'src' has 4 mip levels"),
            std::string::npos)
      << LoadError(past);
  const std::string sized = Replaced(kManifest, "element = 0\n", "element = 0\nwidth = \"W / 2\"\n");
  EXPECT_NE(LoadError(sized).find("[[image]] 'half'.width: a view (an "
                                  "[[image]] with `view`) takes its format"),
            std::string::npos)
      << LoadError(sized);
  const std::string of_view =
      Replaced(kManifest, R"(view = { image = "src", level = 3 })", R"(view = { image = "half", level = 0 })");
  EXPECT_NE(LoadError(of_view).find("'half' is itself a view"), std::string::npos) << LoadError(of_view);
}

TEST_F(ImageLevels, LayersMustMatchTheShadersDeclaration) {
  // stack without layers, while the shader declares an image2DArray.
  const std::string missing = Replaced(kManifest, "layers = \"H / 16\"\n", "");
  EXPECT_NE(LoadError(missing).find("[[image]] 'stack' (variant 'v').layers: the shader's"), std::string::npos)
      << LoadError(missing);
  EXPECT_NE(LoadError(missing).find("is an arrayed image (image2DArray)"), std::string::npos);
  // layers on src, an image2D: its view half, declared first and at an image2D too, is told first, as the view of src.
  // (The checks then read src at three coordinates, as an image with layers is read.)
  const std::string extra = Replaced(Replaced(Replaced(kManifest, "levels = 4\n", "levels = 4\nlayers = \"2\"\n"),
                                              "src(2 * x, 2 * y)", "src(2 * x, 2 * y, 0)"),
                                     "src(8 * x, 8 * y)", "src(8 * x, 8 * y, 0)");
  EXPECT_NE(LoadError(extra).find("[[image]] 'half' (variant 'v').layers: the manifest's 'half' (a view of 'src') has "
                                  "layers, but the shader's storage image at binding 1 (dst) is not arrayed"),
            std::string::npos)
      << LoadError(extra);
}

TEST(ImageLevelsParse, ChecksReadALayeredImageAtThreeCoordinates) {
  std::string text(kManifest);
  text.replace(text.find("stack(x, y, 1)"), 14, "stack(x, y)");
  try {
    ParseManifest(text, "dir/m.toml");
    FAIL() << "a layered image read at two coordinates loaded";
  } catch (const ManifestError &e) {
    EXPECT_NE(e.message.find("stack(2 arguments): an image with layers is read "
                             "as stack(x, y, layer) or "
                             "stack(x, y, layer, c)"),
              std::string::npos)
        << e.message;
  }
}

}  // namespace
}  // namespace csbench
