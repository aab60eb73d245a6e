// Images and samplers on the machine's device: texels through an upload and back, through a kernel
// that reads a sampled image and writes a storage image, and the specs Vulkan forbids refused; and
// a kernel's array of storage-buffer descriptors, each element bound and offset on its own.
#include "harness/vulkan/image.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <memory>
#include <span>
#include <shaderc/shaderc.hpp>
#include <string>
#include <vector>

#include "harness/base/error.hpp"
#include "harness/vulkan/buffer.hpp"
#include "harness/vulkan/commands.hpp"
#include "harness/vulkan/context.hpp"
#include "harness/vulkan/kernel.hpp"
#include "tests/bench/vulkan_environment.hpp"

namespace csbench {
namespace {

std::vector<uint32_t> Compile(const std::string& glsl) {
  shaderc::Compiler compiler;
  shaderc::CompileOptions options;
  options.SetTargetEnvironment(shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_1);
  auto result = compiler.CompileGlslToSpv(glsl, shaderc_compute_shader, "image_test.comp", options);
  EXPECT_EQ(result.GetCompilationStatus(), shaderc_compilation_status_success) << result.GetErrorMessage();
  return {result.cbegin(), result.cend()};
}

// Texel i of an r32f image: exact in a float, different at every texel.
std::vector<float> Floats(size_t count) {
  std::vector<float> texels(count);
  for (size_t i = 0; i < count; ++i) texels[i] = static_cast<float>(i) * 0.25f - 3.0f;
  return texels;
}

std::vector<std::byte> Bytes(size_t count) {
  std::vector<std::byte> texels(count);
  for (size_t i = 0; i < count; ++i) texels[i] = static_cast<std::byte>((i * 7 + i / 251) & 0xFF);
  return texels;
}

// Uploads `texels` into a new image and downloads them again.
std::vector<std::byte> RoundTrip(Context& context, vk::Format format, uint32_t texel_bytes,
                                 std::array<uint32_t, 3> extent, bool three_d, bool storage, bool sampled,
                                 std::span<const std::byte> texels) {
  Image image(context, format, texel_bytes, extent, three_d, storage, sampled);
  EXPECT_EQ(image.bytes(), texels.size());
  image.Upload(texels);
  std::vector<std::byte> back(texels.size());
  image.Download(back);
  return back;
}

TEST(Image, FormatSupportOnTheDevice) {
  Context* context = testing::SharedContext();
  if (context == nullptr) GTEST_SKIP() << "no Vulkan device";
  const FormatSupport r32f = SupportOf(*context, vk::Format::eR32Sfloat);
  EXPECT_TRUE(r32f.storage);
  EXPECT_TRUE(r32f.sampled);
  // An integer format is never filtered linearly.
  EXPECT_FALSE(SupportOf(*context, vk::Format::eR32Uint).linear_filter);
}

TEST(Image, TexelsComeBackAsUploaded) {
  Context* context = testing::SharedContext();
  if (context == nullptr) GTEST_SKIP() << "no Vulkan device";
  const std::vector<float> floats = Floats(37 * 29);
  const auto r32f = std::as_bytes(std::span(floats));
  EXPECT_TRUE(std::ranges::equal(RoundTrip(*context, vk::Format::eR32Sfloat, 4, {37, 29, 1}, false, true, true, r32f), r32f));
  const std::vector<std::byte> rgba8 = Bytes(16 * 9 * 4);
  EXPECT_TRUE(std::ranges::equal(
      RoundTrip(*context, vk::Format::eR8G8B8A8Unorm, 4, {16, 9, 1}, false, true, true, rgba8), rgba8));
  const std::vector<std::byte> rgba8_3d = Bytes(7 * 5 * 3 * 4);
  EXPECT_TRUE(std::ranges::equal(
      RoundTrip(*context, vk::Format::eR8G8B8A8Uint, 4, {7, 5, 3}, true, true, false, rgba8_3d), rgba8_3d));
  testing::ExpectNoNewValidationMessages();
}

// A fill of the device writes the word over the packed bytes as a host loop would (byte b is byte
// b % 4 of the word), also in pieces that start inside the word: rows of 37 one-byte texels.
TEST(Image, AFillRepeatsTheWordOverThePackedBytes) {
  Context* context = testing::SharedContext();
  if (context == nullptr) GTEST_SKIP() << "no Vulkan device";
  const uint32_t word = 0x7fc0dead;
  auto expect_pattern = [&](Image& image, uint32_t level, uint64_t piece_bytes) {
    image.Fill(word, level, piece_bytes);
    std::vector<std::byte> back(image.LevelBytes(level));
    image.Download(back, level);
    size_t wrong = back.size();
    for (size_t b = 0; b < back.size() && wrong == back.size(); ++b) {
      if (back[b] != static_cast<std::byte>(word >> (8 * (b % 4)))) wrong = b;
    }
    EXPECT_EQ(wrong, back.size()) << "first byte not the pattern's, pieces of " << piece_bytes;
  };
  Image r8(*context, vk::Format::eR8Uint, 1, {37, 29, 1}, false, true, false);
  for (uint64_t piece : {uint64_t{0}, uint64_t{37 * 3}, uint64_t{37 * 5}}) expect_pattern(r8, 0, piece);
  Image r32f(*context, vk::Format::eR32Sfloat, 4, {37, 29, 1}, false, true, true, {.levels = 3});
  expect_pattern(r32f, 1, 0);
  testing::ExpectNoNewValidationMessages();
}

// The pieces tile the packed bytes in order, each at most the piece size, each a box whose first
// texel lies at its `at`: whole slices where one fits (3-D), else whole rows of one slice (2-D).
// Checked on the cut alone: a transfer of more than kStagingBytes takes seconds on lavapipe.
void ExpectTiling(const std::vector<ImagePiece>& pieces, std::array<uint32_t, 3> extent, uint32_t texel_bytes,
                  uint64_t piece_bytes) {
  const uint64_t row = uint64_t{extent[0]} * texel_bytes;
  uint64_t next = 0;
  for (const ImagePiece& p : pieces) {
    EXPECT_EQ(p.at, next);
    EXPECT_LE(p.bytes, piece_bytes);
    EXPECT_EQ(p.bytes, uint64_t{p.extent[0]} * p.extent[1] * p.extent[2] * texel_bytes);
    EXPECT_EQ(p.offset[0], 0u);
    EXPECT_EQ(p.extent[0], extent[0]);
    EXPECT_EQ(p.at, (uint64_t{p.offset[2]} * extent[1] + p.offset[1]) * row);
    // A box of several slices spans whole slices.
    if (p.extent[2] > 1) {
      EXPECT_EQ(p.extent[1], extent[1]);
    }
    next += p.bytes;
  }
  EXPECT_EQ(next, uint64_t{extent[0]} * extent[1] * extent[2] * texel_bytes);
}

TEST(Image, EachLevelAndLayerComesBackAsUploaded) {
  Context* context = testing::SharedContext();
  if (context == nullptr) GTEST_SKIP() << "no Vulkan device";
  // 37x29 of 3 layers and 4 levels: 37x29, 18x14, 9x7, 4x3, each of 3 layers.
  Image image(*context, vk::Format::eR32Sfloat, 4, {37, 29, 1}, false, true, true,
              {.arrayed = true, .layers = 3, .levels = 4});
  EXPECT_EQ(image.LevelExtent(0), (std::array<uint32_t, 3>{37, 29, 3}));
  EXPECT_EQ(image.LevelExtent(1), (std::array<uint32_t, 3>{18, 14, 3}));
  EXPECT_EQ(image.LevelExtent(3), (std::array<uint32_t, 3>{4, 3, 3}));
  EXPECT_EQ(image.bytes(), 37u * 29 * 3 * 4);
  EXPECT_EQ(image.LevelBytes(2), 9u * 7 * 3 * 4);
  std::vector<std::vector<float>> levels;
  for (uint32_t level = 0; level < 4; ++level) {
    levels.push_back(Floats(image.LevelBytes(level) / 4));
    // Each level's values its own: a level written over another would show.
    for (float& v : levels.back()) v += 1000.0f * static_cast<float>(level);
    image.Upload(std::as_bytes(std::span(levels.back())), level);
  }
  for (uint32_t level = 0; level < 4; ++level) {
    std::vector<float> back(levels[level].size());
    image.Download(std::as_writable_bytes(std::span(back)), level);
    EXPECT_EQ(back, levels[level]) << "level " << level;
  }
  // A 3-D image's levels halve its depth too.
  Image cube(*context, vk::Format::eR32Sfloat, 4, {8, 8, 8}, true, true, false, {.levels = 4});
  EXPECT_EQ(cube.LevelExtent(2), (std::array<uint32_t, 3>{2, 2, 2}));
  // More levels than the chain of 8 (8, 4, 2, 1); layers of a 3-D image.
  EXPECT_THROW(Image(*context, vk::Format::eR32Sfloat, 4, {8, 8, 1}, false, true, false, {.levels = 5}), Error);
  EXPECT_THROW(Image(*context, vk::Format::eR32Sfloat, 4, {8, 8, 8}, true, true, false, {.arrayed = true, .layers = 2}),
               Error);
  testing::ExpectNoNewValidationMessages();
}

TEST(Image, TransfersAreCutIntoPiecesOfWholeSlicesOrRows) {
  // 7x5x9 texels of 4 bytes, slices of 140 bytes: 3 slices a piece, three pieces.
  const auto slices = ImagePieces({7, 5, 9}, 4, 3 * 140 + 17);
  EXPECT_EQ(slices.size(), 3u);
  ExpectTiling(slices, {7, 5, 9}, 4, 3 * 140 + 17);
  // 37x29 r32f, rows of 148 bytes, 5 a piece: 6 pieces, the last of 4 rows.
  const auto rows = ImagePieces({37, 29, 1}, 4, 5 * 148);
  ASSERT_EQ(rows.size(), 6u);
  EXPECT_EQ(rows.back().extent[1], 4u);
  ExpectTiling(rows, {37, 29, 1}, 4, 5 * 148);
  // A 3-D image whose slice does not fit: rows of each slice in turn.
  const auto both = ImagePieces({16, 10, 3}, 8, 128 * 4);
  EXPECT_EQ(both.size(), 9u);
  ExpectTiling(both, {16, 10, 3}, 8, 128 * 4);
  // All at once where it fits, as every image below kStagingBytes goes.
  EXPECT_EQ(ImagePieces({37, 29, 1}, 4, kStagingBytes).size(), 1u);
  EXPECT_THROW(ImagePieces({37, 29, 1}, 4, 100), Error);
}

// Each texel of `target` is the texel of `source` two up and two to the left, read through an
// unnormalized nearest sampler that clamps to the edge: the first two rows and columns read the
// edge. A storage buffer beside the images counts the invocations: the only dynamic descriptor.
constexpr const char* kShiftShader = R"(#version 450
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z_id = 2) in;
layout(set = 0, binding = 0) uniform sampler2D source;
layout(set = 0, binding = 1, r32f) uniform writeonly image2D target;
layout(set = 0, binding = 2, std430) buffer Count { uint invocations; };
void main() {
  const ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  const ivec2 size = imageSize(target);
  if (p.x >= size.x || p.y >= size.y) return;
  imageStore(target, p, textureLod(source, vec2(p - ivec2(2)) + 0.5, 0.0));
  atomicAdd(invocations, 1u);
}
)";

TEST(Image, AKernelSamplesOneImageAndStoresToAnother) {
  Context* context = testing::SharedContext();
  if (context == nullptr) GTEST_SKIP() << "no Vulkan device";
  constexpr uint32_t kWidth = 37;
  constexpr uint32_t kHeight = 29;
  std::vector<float> texels(kWidth * kHeight);
  for (uint32_t y = 0; y < kHeight; ++y) {
    for (uint32_t x = 0; x < kWidth; ++x) texels[y * kWidth + x] = static_cast<float>(x + 100 * y);
  }
  Image source(*context, vk::Format::eR32Sfloat, 4, {kWidth, kHeight, 1}, false, false, true);
  source.Upload(std::as_bytes(std::span(texels)));
  Image target(*context, vk::Format::eR32Sfloat, 4, {kWidth, kHeight, 1}, false, true, false);
  Sampler sampler(*context, {.linear = false, .address = vk::SamplerAddressMode::eClampToEdge, .unnormalized = true});
  Buffer count(*context, 4);

  const std::vector<uint32_t> spirv = Compile(kShiftShader);
  KernelSpec spec{.label = "image_test",
                  .local_size = {8, 8, 1},
                  .slots = {{.set = 0, .binding = 0, .kind = DescriptorSlot::Kind::kCombinedImageSampler},
                            {.set = 0, .binding = 1, .kind = DescriptorSlot::Kind::kStorageImage},
                            {.set = 0, .binding = 2, .kind = DescriptorSlot::Kind::kStorageBuffer}},
                  .max_sets = 1,
                  .spirv = &spirv};
  Kernel kernel(*context, spec);
  EXPECT_EQ(kernel.slots(), 3u);
  EXPECT_EQ(kernel.dynamic_slots(), 1u);
  const Bindings bindings = kernel.Bind({{.image = &source, .sampler = &sampler}, {.image = &target}, {.buffer = &count}});
  context->Run([&](Commands& c) {
    c.Fill(count, 0);
    c.Barrier();
    c.Dispatch(kernel, bindings, {CappedGroups(kWidth, 8), CappedGroups(kHeight, 8), 1});
  });
  // One offset per buffer, not per descriptor.
  EXPECT_THROW(context->Run([&](Commands& c) {
    const std::array<uint32_t, 3> offsets{};
    c.Dispatch(kernel, bindings, {1, 1, 1}, offsets);
  }), Error);

  std::vector<float> out(kWidth * kHeight);
  target.Download(std::as_writable_bytes(std::span(out)));
  const auto at = [&](uint32_t x, uint32_t y) { return out[y * kWidth + x]; };
  EXPECT_EQ(at(10, 7), 8.0f + 100 * 5);               // inside: the texel two up and left
  EXPECT_EQ(at(0, 20), 0.0f + 100 * 18);              // left of the edge: column 0
  EXPECT_EQ(at(1, 0), 0.0f);                          // above and left: the corner
  EXPECT_EQ(at(kWidth - 1, kHeight - 1), 34.0f + 100 * 26);
  uint32_t invocations = 0;
  count.Download(std::as_writable_bytes(std::span(&invocations, 1)));
  EXPECT_EQ(invocations, kWidth * kHeight);
  testing::ExpectNoNewValidationMessages();
}

TEST(Image, SpecsVulkanForbidsAreRefused) {
  Context* context = testing::SharedContext();
  if (context == nullptr) GTEST_SKIP() << "no Vulkan device";
  try {
    Sampler sampler(*context, {.address = vk::SamplerAddressMode::eRepeat, .unnormalized = true});
    ADD_FAILURE() << "an unnormalized repeating sampler was made";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("unnormalized coordinates and address mode Repeat"), std::string::npos)
        << e.what();
  }
  EXPECT_NO_THROW(Sampler(*context, {.address = vk::SamplerAddressMode::eClampToBorder,
                                     .border = BorderFor("opaque_white", false), .unnormalized = true}));
  // Not r32f's 4-byte texels; a 2-D image of depth 2; neither storage nor sampled.
  EXPECT_THROW(Image(*context, vk::Format::eR32Sfloat, 8, {4, 4, 1}, false, true, false), Error);
  EXPECT_THROW(Image(*context, vk::Format::eR32Sfloat, 4, {4, 4, 2}, false, true, false), Error);
  EXPECT_THROW(Image(*context, vk::Format::eR32Sfloat, 4, {4, 4, 1}, false, false, false), Error);
  Image image(*context, vk::Format::eR32Sfloat, 4, {4, 4, 1}, false, true, false);
  std::vector<std::byte> short_by_one(image.bytes() - 1);
  EXPECT_THROW(image.Upload(short_by_one), Error);
  testing::ExpectNoNewValidationMessages();
}

TEST(Image, BorderColoursForFloatAndIntegerFormats) {
  EXPECT_EQ(BorderFor("transparent_black", false), vk::BorderColor::eFloatTransparentBlack);
  EXPECT_EQ(BorderFor("transparent_black", true), vk::BorderColor::eIntTransparentBlack);
  EXPECT_EQ(BorderFor("opaque_black", false), vk::BorderColor::eFloatOpaqueBlack);
  EXPECT_EQ(BorderFor("opaque_black", true), vk::BorderColor::eIntOpaqueBlack);
  EXPECT_EQ(BorderFor("opaque_white", false), vk::BorderColor::eFloatOpaqueWhite);
  EXPECT_EQ(BorderFor("opaque_white", true), vk::BorderColor::eIntOpaqueWhite);
  EXPECT_THROW(BorderFor("grey", false), Error);
}

// Three storage buffers as one array binding (`parts[3]`): each element gets its own buffer, and
// the dispatch's dynamic offsets go by binding, then element (Vulkan's order). Element k's buffer
// holds 10 + k at its start and 20 + k at byte 256 (no device's offset alignment is above 256), and
// only element 1 is offset: the kernel copies 10, 21, 12.
TEST(Kernel, AnArrayOfStorageBuffersTakesAnOffsetPerElementInOrder) {
  Context* context = testing::SharedContext();
  if (context == nullptr) GTEST_SKIP() << "no Vulkan device";
  const std::vector<uint32_t> spirv = Compile(R"(#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) readonly buffer Part { uint v[]; } parts[3];
layout(std430, binding = 1) writeonly buffer Out { uint r[]; };
void main() {
  r[0] = parts[0].v[0];
  r[1] = parts[1].v[0];
  r[2] = parts[2].v[0];
}
)");
  std::vector<std::unique_ptr<Buffer>> parts;
  for (uint32_t k = 0; k < 3; ++k) {
    parts.push_back(std::make_unique<Buffer>(*context, 512));
    const std::array<uint32_t, 2> values{10 + k, 20 + k};
    parts.back()->Upload(std::as_bytes(std::span(values).first(1)), 0);
    parts.back()->Upload(std::as_bytes(std::span(values).last(1)), 256);
  }
  Buffer out(*context, 16);
  KernelSpec spec{.label = "array_test",
                  .local_size = {1, 1, 1},
                  .slots = {{.binding = 0, .element = 0}, {.binding = 0, .element = 1}, {.binding = 0, .element = 2},
                            {.binding = 1}},
                  .max_sets = 1,
                  .spirv = &spirv};
  Kernel kernel(*context, spec);
  EXPECT_EQ(kernel.slots(), 4u);
  EXPECT_EQ(kernel.dynamic_slots(), 4u);
  const Bindings bindings = kernel.Bind({{.buffer = parts[0].get(), .range = 256},
                                         {.buffer = parts[1].get(), .range = 256},
                                         {.buffer = parts[2].get(), .range = 256},
                                         {.buffer = &out}});
  const std::array<uint32_t, 4> offsets{0, 256, 0, 0};
  context->Run([&](Commands& c) { c.Dispatch(kernel, bindings, {1, 1, 1}, offsets); });
  std::array<uint32_t, 3> copied{};
  out.Download(std::as_writable_bytes(std::span(copied)));
  EXPECT_EQ(copied, (std::array<uint32_t, 3>{10, 21, 12}));
  testing::ExpectNoNewValidationMessages();
}

}  // namespace
}  // namespace csbench
