// The capture tool's pure parts: --dispatches parsed and resolved against a summary (indirect
// dispatches by the counts they read), the layer's files read back, what an indirect dispatch's
// counts allow, a block's bytes written as values that give the program's bits back, and a
// program's sampler as a manifest's sampler keys.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "capture/layer/run_order.hpp"
#include "capture/layer/sampler_keys.hpp"
#include "capture/tool/block_values.hpp"
#include "capture/tool/manifest_parts.hpp"
#include "capture/tool/selection.hpp"

namespace csbench::capture {
namespace {

Summary TwoPipelines() {
  Summary s;
  s.dispatches = 10;
  s.pipelines = {{0, "main"}, {1, "main"}};
  s.keys = {{.pipeline = 0, .groups = {16, 1, 1}, .count = 1, .first_index = 0},
            {.pipeline = 0, .groups = {64, 1, 1}, .count = 3, .first_index = 1},
            {.pipeline = 1, .groups = {8, 8, 1}, .count = 2, .first_index = 5},
            {.pipeline = 1, .groups = {4, 4, 1}, .count = 2, .first_index = 2}};
  s.nth[7] = {.pipeline = 1, .groups = {8, 8, 1}, .first_index = 7};
  return s;
}

TEST(CaptureSelection, ParsesEveryForm) {
  auto items = ParseSelection("default,all,12,pipeline:3,hash:ABCdef");
  ASSERT_EQ(items.size(), 5u);
  EXPECT_EQ(items[0].kind, SelectionItem::Kind::kDefault);
  EXPECT_EQ(items[1].kind, SelectionItem::Kind::kAll);
  EXPECT_EQ(items[2].kind, SelectionItem::Kind::kIndex);
  EXPECT_EQ(items[2].number, 12u);
  EXPECT_EQ(items[3].kind, SelectionItem::Kind::kPipeline);
  EXPECT_EQ(items[3].number, 3u);
  EXPECT_EQ(items[4].hash, "abcdef");
  EXPECT_EQ(IndicesOf(items), (std::set<uint64_t>{12}));
}

TEST(CaptureSelection, RefusesWhatIsNoSelection) {
  for (const char* bad : {"", "pipeline:", "pipeline:x", "hash:", "hash:xyz", "-1", "1.5", "first", "3,,4"})
    EXPECT_THROW(ParseSelection(bad), std::invalid_argument) << bad;
}

TEST(CaptureSelection, DefaultIsEachPipelineAtItsMostFrequentSize) {
  std::vector<Chosen> chosen = Resolve(ParseSelection("default"), TwoPipelines(), {});
  ASSERT_EQ(chosen.size(), 2u);
  EXPECT_EQ(chosen[0].name, "p0_64x1x1");
  // Equally frequent sizes: the one that ran first.
  EXPECT_EQ(chosen[1].name, "p1_4x4x1");
  EXPECT_FALSE(chosen[0].by_index);
}

TEST(CaptureSelection, PipelineHashIndexAndAll) {
  Summary s = TwoPipelines();
  std::map<uint32_t, std::string> hashes = {{0, "aaaa1111"}, {1, "bbbb2222"}};
  EXPECT_EQ(Resolve(ParseSelection("pipeline:1"), s, hashes).at(0).name, "p1_4x4x1");
  EXPECT_EQ(Resolve(ParseSelection("hash:bbbb"), s, hashes).at(0).name, "p1_4x4x1");
  std::vector<Chosen> nth = Resolve(ParseSelection("7"), s, hashes);
  ASSERT_EQ(nth.size(), 1u);
  EXPECT_EQ(nth[0].name, "d7_p1_8x8x1");
  EXPECT_TRUE(nth[0].by_index);
  EXPECT_EQ(Resolve(ParseSelection("all"), s, hashes).size(), 4u);
  // The same dispatch named twice is written once.
  EXPECT_EQ(Resolve(ParseSelection("default,pipeline:0"), s, hashes).size(), 2u);
}

TEST(CaptureSelection, SelectingNothingIsRefused) {
  Summary s = TwoPipelines();
  EXPECT_THROW(Resolve(ParseSelection("pipeline:2"), s, {}), std::invalid_argument);
  EXPECT_THROW(Resolve(ParseSelection("hash:cc"), s, {{0, "aa"}}), std::invalid_argument);
  EXPECT_THROW(Resolve(ParseSelection("8"), s, {}), std::invalid_argument);
}

// Dispatches 2 to 4 ran in recording 5's first submission, at its places 1 to 3; dispatch 5 in
// recording 6. The summary has ten dispatches.
Summary WithRecordings() {
  Summary s = TwoPipelines();
  for (uint32_t k = 0; k < 3; ++k)
    s.nth[2 + k] = {.pipeline = k % 2, .groups = {4, 4, 1}, .first = {5, 1 + k, 1}, .first_index = 2 + k};
  s.nth[5] = {.pipeline = 0, .groups = {64, 1, 1}, .first = {6, 0, 1}, .first_index = 5};
  return s;
}

TEST(CaptureSelection, Sequences) {
  std::vector<SelectionItem> items = ParseSelection("sequence:2-4,3");
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].kind, SelectionItem::Kind::kSequence);
  EXPECT_EQ(items[0].number, 2u);
  EXPECT_EQ(items[0].last, 4u);
  EXPECT_EQ(IndicesOf(items), (std::set<uint64_t>{2, 3, 4}));
  for (const char* bad : {"sequence:", "sequence:3", "sequence:a-b", "sequence:4-2", "sequence:0-64", "sequence:-3"})
    EXPECT_THROW(ParseSelection(bad), std::invalid_argument) << bad;
  EXPECT_NO_THROW(ParseSelection("sequence:0-63"));
  Summary s = WithRecordings();
  std::vector<Chosen> chosen = Resolve(ParseSelection("sequence:2-4"), s, {});
  ASSERT_EQ(chosen.size(), 1u);
  EXPECT_EQ(chosen[0].name, "s2-4");
  ASSERT_EQ(chosen[0].steps.size(), 3u);
  EXPECT_EQ(chosen[0].steps[2].first.ordinal, 3u);
  auto refusal = [&](const std::string& selection) {
    try {
      Resolve(ParseSelection(selection), s, {});
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(refusal("sequence:4-5").find("spans two recordings: dispatch 4 ran in recording 5"), std::string::npos)
      << refusal("sequence:4-5");
  EXPECT_NE(refusal("sequence:8-10").find("runs past the program's dispatches: it submitted 10"), std::string::npos);
  EXPECT_NE(refusal("sequence:0-1").find("dispatch 0 is not a compute dispatch"), std::string::npos);
}

TEST(CaptureIndirect, CountsOfZeroOrPastTheLimitDoNotReplay) {
  const std::array<uint32_t, 3> limits = {65535, 65535, 65535};
  EXPECT_EQ(CountsProblem({32, 1, 1}, limits), "");
  EXPECT_EQ(CountsProblem({65535, 65535, 65535}, limits), "");
  EXPECT_NE(CountsProblem({0, 1, 1}, limits).find("a count of 0"), std::string::npos);
  EXPECT_NE(CountsProblem({4, 4, 0}, limits).find("a count of 0"), std::string::npos);
  EXPECT_NE(
      CountsProblem({1, 65536, 1}, limits).find("past the device's maxComputeWorkGroupCount (65535, 65535, 65535)"),
      std::string::npos);
  // Limits not known: only 0 is refused.
  EXPECT_EQ(CountsProblem({1u << 30, 1, 1}, {}), "");
}

TEST(CaptureIndirect, WrittenWithTheCountsItHadOrSaidWhyNot) {
  IndirectSource source{.indirect = true, .offset = 16, .buffer_size = 64, .read = true};
  Written ok;
  CheckIndirectCounts(source, {32, 1, 1}, {65535, 65535, 65535}, "", ok);
  EXPECT_TRUE(ok.skipped.empty());
  EXPECT_EQ(ok.notes, std::vector<std::string>{"indirect: captured with the counts it had (32, 1, 1)"});
  EXPECT_NE(IndirectComment(source, {32, 1, 1}).find("at offset 16 of a buffer of 64 bytes"), std::string::npos);
  EXPECT_EQ(IndirectComment({}, {32, 1, 1}), "");
  Written zero;
  CheckIndirectCounts(source, {0, 1, 1}, {65535, 65535, 65535}, "dispatch 5: ", zero);
  ASSERT_EQ(zero.skipped.size(), 1u);
  EXPECT_TRUE(zero.skipped[0].starts_with("dispatch 5: an indirect dispatch read workgroup counts 0 x 1 x 1"));
  EXPECT_TRUE(zero.notes.empty());
  Written unread;
  source.read = false;
  CheckIndirectCounts(source, {32, 1, 1}, {}, "", unread);
  EXPECT_EQ(unread.skipped, std::vector<std::string>{"an indirect dispatch whose workgroup counts could not be read"});
  // A direct dispatch says nothing unless its counts would not replay.
  Written direct;
  CheckIndirectCounts({}, {8, 8, 1}, {}, "", direct);
  EXPECT_TRUE(direct.skipped.empty() && direct.notes.empty());
}

// Pipeline 2 ran only indirectly: 4x1x1 three times (its first at dispatch 6, recording 3's place
// 2), 0x1x1 five times; pipeline 0 has direct sizes only.
Summary WithIndirect() {
  Summary s = TwoPipelines();
  s.pipelines[2] = "main";
  s.limits = {65535, 65535, 65535};
  s.keys.push_back(
      {.pipeline = 2, .groups = {0, 1, 1}, .count = 5, .first_index = 3, .indirect = 5, .first_indirect = true});
  s.keys.push_back({.pipeline = 2,
                    .groups = {4, 1, 1},
                    .count = 3,
                    .first = {3, 2, 1},
                    .first_index = 6,
                    .indirect = 3,
                    .first_indirect = true});
  return s;
}

TEST(CaptureIndirect, SelectedByTheCountsReadAndFoundAgainByPlace) {
  Summary s = WithIndirect();
  std::vector<Chosen> chosen = Resolve(ParseSelection("pipeline:2"), s, {});
  ASSERT_EQ(chosen.size(), 1u);
  // The more frequent 0x1x1 would not replay: the most frequent size that would is chosen.
  EXPECT_EQ(chosen[0].name, "p2_4x1x1");
  // Its first dispatch was indirect: pass 2 finds it by its place, not by pipeline and size.
  EXPECT_TRUE(chosen[0].by_index);
  EXPECT_EQ(chosen[0].row.first.serial, 3u);
  EXPECT_EQ(chosen[0].row.first.ordinal, 2u);
  EXPECT_NE(chosen[0].why.find("its first, dispatch 6, was indirect"), std::string::npos);
  // `all` takes the size that would not replay too (its report says why), also by its place.
  std::vector<Chosen> all = Resolve(ParseSelection("all"), s, {});
  auto zero = std::find_if(all.begin(), all.end(), [](const Chosen& c) { return c.name == "p2_0x1x1"; });
  ASSERT_NE(zero, all.end());
  EXPECT_TRUE(zero->by_index);
  // Direct sizes stay found by their key.
  EXPECT_FALSE(Resolve(ParseSelection("pipeline:0"), s, {}).at(0).by_index);
}

TEST(CaptureIndirect, TheLayersFilesReadBack) {
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "capture_indirect_raw";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "summary.txt") << "dispatches 9\npipeline 2 00000000000000aa spirv main\n"
                                        "key 2 32 1 1 3 4 1 1 5 3 1\nkey 2 8 1 1 1 4 0 1 4\n"
                                        "indirect 2 4\nunread 2 1\nlimits 65535 65535 1024\n";
  std::optional<Summary> summary = ReadSummary(dir);
  ASSERT_TRUE(summary.has_value());
  ASSERT_EQ(summary->keys.size(), 2u);
  EXPECT_EQ(summary->keys[0].indirect, 3u);
  EXPECT_TRUE(summary->keys[0].first_indirect);
  // A line of the older form: no indirect fields.
  EXPECT_EQ(summary->keys[1].indirect, 0u);
  EXPECT_FALSE(summary->keys[1].first_indirect);
  EXPECT_EQ(summary->indirect.at(2), 4u);
  EXPECT_EQ(summary->unread.at(2), 1u);
  EXPECT_EQ(summary->limits, (std::array<uint32_t, 3>{65535, 65535, 1024}));
  std::ofstream(dir / "info.txt") << "pipeline 2\ngroups 32 1 1\nentry main\npush -\nindirect 16 64 read\n"
                                     "limits 65535 65535 1024\n";
  std::optional<RawCapture> capture = ReadCapture(dir);
  ASSERT_TRUE(capture.has_value());
  EXPECT_TRUE(capture->source.indirect && capture->source.read);
  EXPECT_EQ(capture->source.offset, 16u);
  EXPECT_EQ(capture->source.buffer_size, 64u);
  EXPECT_EQ(capture->groups, (std::array<uint32_t, 3>{32, 1, 1}));
  EXPECT_EQ(capture->limits[2], 1024u);
  std::filesystem::remove_all(dir);
}

// A linear clamp-to-edge sampler as a program might make it, LOD settings and W included.
VkSamplerCreateInfo LinearClamp() {
  return {.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
          .magFilter = VK_FILTER_LINEAR,
          .minFilter = VK_FILTER_LINEAR,
          .mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR,
          .addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
          .addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
          .addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT,
          .mipLodBias = 0.5f,
          .maxAnisotropy = 16.0f,
          .minLod = 1.0f,
          .maxLod = VK_LOD_CLAMP_NONE,
          .borderColor = VK_BORDER_COLOR_INT_OPAQUE_WHITE};
}

TEST(CaptureSampler, SaidByTheManifestsKeys) {
  // LOD settings, W and the border colour change nothing on one level of a 2-D image that is not
  // clamped to its border; maxAnisotropy nothing while anisotropy is off.
  SamplerMapping m = MapSampler(SettingsOf(LinearClamp()), false);
  EXPECT_EQ(m.why, "");
  EXPECT_EQ(m.keys, (SamplerKeys{.filter = "linear", .address = "clamp_to_edge"}));
  VkSamplerCreateInfo info = LinearClamp();
  info.magFilter = info.minFilter = VK_FILTER_NEAREST;
  info.addressModeU = info.addressModeV = VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT;
  info.unnormalizedCoordinates = VK_TRUE;
  m = MapSampler(SettingsOf(info), false);
  EXPECT_EQ(m.keys, (SamplerKeys{.filter = "nearest", .address = "mirrored_repeat", .unnormalized = true}));
  info.addressModeU = info.addressModeV = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  EXPECT_EQ(MapSampler(SettingsOf(info), false).keys.address, "repeat");
}

TEST(CaptureSampler, BorderColoursByTheFormatsKind) {
  VkSamplerCreateInfo info = LinearClamp();
  info.addressModeU = info.addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
  info.borderColor = VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK;
  SamplerMapping m = MapSampler(SettingsOf(info), false);
  EXPECT_EQ(m.keys, (SamplerKeys{.filter = "linear", .address = "clamp_to_border", .border = "opaque_black"}));
  info.borderColor = VK_BORDER_COLOR_INT_OPAQUE_WHITE;
  EXPECT_EQ(MapSampler(SettingsOf(info), true).keys.border, "opaque_white");
  info.borderColor = VK_BORDER_COLOR_INT_TRANSPARENT_BLACK;
  EXPECT_EQ(MapSampler(SettingsOf(info), false).why,
            "an integer border colour on an image of float texels: the manifest's border takes the format's kind");
  info.borderColor = VK_BORDER_COLOR_FLOAT_CUSTOM_EXT;
  EXPECT_EQ(MapSampler(SettingsOf(info), false).why,
            "border colour 1000287003 (custom), which the manifest does not take");
}

TEST(CaptureSampler, EverySettingTheManifestLacksIsNamed) {
  auto why = [](auto change) {
    VkSamplerCreateInfo info = LinearClamp();
    change(info);
    return MapSampler(SettingsOf(info), false).why;
  };
  EXPECT_EQ(why([](VkSamplerCreateInfo& i) { i.minFilter = VK_FILTER_NEAREST; }),
            "magFilter linear and minFilter nearest: the manifest's filter is one for both");
  EXPECT_EQ(why([](VkSamplerCreateInfo& i) { i.magFilter = i.minFilter = VK_FILTER_CUBIC_EXT; }),
            "filter VkFilter 1000015000: the manifest's filters are nearest and linear");
  EXPECT_EQ(why([](VkSamplerCreateInfo& i) { i.addressModeV = VK_SAMPLER_ADDRESS_MODE_REPEAT; }),
            "addressModeU clamp_to_edge and addressModeV repeat: the manifest's address is one for both");
  EXPECT_EQ(why([](VkSamplerCreateInfo& i) {
              i.addressModeU = i.addressModeV = VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE;
            }),
            "address mode mirror_clamp_to_edge, which the manifest does not take");
  EXPECT_EQ(why([](VkSamplerCreateInfo& i) { i.anisotropyEnable = VK_TRUE; }),
            "anisotropic filtering enabled (maxAnisotropy 16), which the manifest does not take");
  EXPECT_EQ(why([](VkSamplerCreateInfo& i) {
              i.compareEnable = VK_TRUE;
              i.compareOp = VK_COMPARE_OP_LESS;
            }),
            "depth comparison enabled (VkCompareOp 1), which the manifest does not take");
}

TEST(CaptureSampler, ExtensionStructuresThatChangeTheSampling) {
  VkSamplerReductionModeCreateInfo reduction{.sType = VK_STRUCTURE_TYPE_SAMPLER_REDUCTION_MODE_CREATE_INFO,
                                             .reductionMode = VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE};
  VkSamplerCreateInfo info = LinearClamp();
  info.pNext = &reduction;
  EXPECT_EQ(MapSampler(SettingsOf(info), false).why, "");
  reduction.reductionMode = VK_SAMPLER_REDUCTION_MODE_MAX;
  EXPECT_EQ(MapSampler(SettingsOf(info), false).why,
            "a reduction mode of max (VkSamplerReductionModeCreateInfo): the manifest's filters average");
  VkSamplerYcbcrConversionInfo ycbcr{.sType = VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_INFO};
  info.pNext = &ycbcr;
  EXPECT_EQ(MapSampler(SettingsOf(info), false).why, "a Y'CbCr conversion (VkSamplerYcbcrConversionInfo)");
}

TEST(CaptureSampler, TheLayersBindingLineReadBack) {
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "capture_sampled_raw";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "info.txt") << "pipeline 3\ngroups 4 3 1\nentry main\npush -\n"
                                     "binding 0 0 0 3072 data image 32 24 37 sampled linear clamp_to_border "
                                     "opaque_white 1\nbinding 0 1 0 64 data image 4 4 100\n";
  std::optional<RawCapture> capture = ReadCapture(dir);
  ASSERT_TRUE(capture.has_value());
  ASSERT_EQ(capture->bindings.size(), 2u);
  const RawBinding& b = capture->bindings[0];
  EXPECT_TRUE(b.image && b.sampled && b.unnormalized);
  EXPECT_EQ(b.filter, "linear");
  EXPECT_EQ(b.address, "clamp_to_border");
  EXPECT_EQ(b.border, "opaque_white");
  EXPECT_EQ(b.format, 37);
  EXPECT_FALSE(capture->bindings[1].sampled);
  std::filesystem::remove_all(dir);
}

std::vector<uint8_t> Bytes(const void* data, size_t size) {
  auto* p = static_cast<const uint8_t*>(data);
  return {p, p + size};
}

TEST(CaptureValues, FloatsGiveTheirBitsBack) {
  for (float f : {0.1f, 1.0f / 3.0f, 16777217.0f, 1e-38f, 5.74e-42f, -2.5f, 3.4028235e38f}) {
    std::optional<std::string> text = ScalarText({ScalarKind::kFloat, 32}, Bytes(&f, 4).data(), 4);
    ASSERT_TRUE(text);
    EXPECT_EQ(static_cast<float>(std::stod(*text)), f) << *text;
    EXPECT_NE(text->find_first_of(".en"), std::string::npos) << *text;
  }
  double d = 0.1;
  EXPECT_EQ(std::stod(*ScalarText({ScalarKind::kFloat, 64}, Bytes(&d, 8).data(), 8)), d);
  float nan = std::nanf("");
  EXPECT_FALSE(ScalarText({ScalarKind::kFloat, 32}, Bytes(&nan, 4).data(), 4));
}

TEST(CaptureValues, IntegersBySignAndWidth) {
  uint32_t minus_two = 0xfffffffe;
  EXPECT_EQ(*ScalarText({ScalarKind::kInt, 32}, Bytes(&minus_two, 4).data(), 4), "-2");
  EXPECT_EQ(*ScalarText({ScalarKind::kUint, 32}, Bytes(&minus_two, 4).data(), 4), "4294967294");
  uint16_t minus_one = 0xffff;
  EXPECT_EQ(*ScalarText({ScalarKind::kInt, 16}, Bytes(&minus_one, 2).data(), 2), "-1");
  uint32_t yes = 7;
  EXPECT_EQ(*ScalarText({ScalarKind::kBool, 32}, Bytes(&yes, 4).data(), 4), "1");
  // Past 2^53 a double, which evaluates expressions, cannot hold every integer.
  uint64_t big = (1ull << 53) + 1;
  EXPECT_FALSE(ScalarText({ScalarKind::kUint, 64}, Bytes(&big, 8).data(), 8));
}

// A block's scalar members as the reflection lays them out.
const TypeLayout kF32{.kind = TypeLayout::Kind::kScalar, .scalar = {ScalarKind::kFloat, 32}, .size = 4, .glsl = "float"};
const TypeLayout kU32{.kind = TypeLayout::Kind::kScalar, .scalar = {ScalarKind::kUint, 32}, .size = 4, .glsl = "uint"};

TEST(CaptureValues, MembersByNameStructsAndMatrices) {
  TypeLayout mat2{.kind = TypeLayout::Kind::kMatrix,
                  .scalar = {ScalarKind::kFloat, 32},
                  .components = 2,
                  .columns = 2,
                  .matrix_stride = 8,
                  .size = 16,
                  .glsl = "mat2"};
  TypeLayout light{.kind = TypeLayout::Kind::kStruct, .size = 8, .glsl = "Light"};
  light.members = {{"power", 0, kF32}, {"id", 4, kU32}};
  std::vector<Member> block = {{"scale", 0, kF32}, {"m", 16, mat2}, {"light", 32, light}};
  struct {
    float scale = 2.5f, pad[3] = {};
    float m[4] = {1, 2, 3, 4};  // columns (1, 2) and (3, 4)
    float power = 0.5f;
    uint32_t id = 9;
  } data;
  std::vector<MemberValues> values = BlockValues(block, reinterpret_cast<const uint8_t*>(&data), sizeof data);
  ASSERT_EQ(values.size(), 4u);
  EXPECT_EQ(values[0].name, "scale");
  EXPECT_EQ(values[0].values, std::vector<std::string>{"2.5"});
  EXPECT_EQ(values[1].values, (std::vector<std::string>{"1.0", "2.0", "3.0", "4.0"}));
  EXPECT_EQ(values[2].name, "light.power");
  EXPECT_EQ(values[3].name, "light.id");
  EXPECT_EQ(values[3].values, std::vector<std::string>{"9"});
  EXPECT_EQ(ValuesToml({values[0]}), "\"scale\" = \"2.5\"  # float\n");
  // Bytes short of a member are refused with the member's name.
  EXPECT_THROW(BlockValues(block, reinterpret_cast<const uint8_t*>(&data), 20), std::runtime_error);
}

TEST(CaptureValues, MembersWithoutNamesByPosition) {
  // As the reflection gives a module without member names: each named by its position.
  TypeLayout inner{.kind = TypeLayout::Kind::kStruct, .size = 8};
  inner.members = {{"_m0", 0, kF32, true}, {"_m1", 4, kU32, true}};
  std::vector<Member> block = {{"_m0", 0, kF32, true}, {"_m1", 16, inner, true}};
  struct {
    float scale = 2.5f, pad[3] = {};
    float power = 0.5f;
    uint32_t id = 9;
  } data;
  std::vector<MemberValues> values = BlockValues(block, reinterpret_cast<const uint8_t*>(&data), sizeof data);
  ASSERT_EQ(values.size(), 3u);
  EXPECT_EQ(values[2].name, "_m1._m1");
  EXPECT_EQ(values[2].values, std::vector<std::string>{"9"});
  EXPECT_EQ(ValuesToml({values[0]}), "\"_m0\" = \"2.5\"  # float, named by position (the SPIR-V gives no name)\n");
  // A real name that repeats a positional one would give two members one name: refused.
  block[0] = {"_m1", 0, kF32, false};
  try {
    BlockValues(block, reinterpret_cast<const uint8_t*>(&data), sizeof data);
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("the block: members 0 and 1 are both named _m1 (member 1 has no name in the "
                                         "SPIR-V and is named by its position"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace csbench::capture

// A submitted command buffer's own dispatches and the secondaries it executes, in the order they
// run: each secondary after the own dispatches recorded before it, several at one place in order.
TEST(RunOrder, SecondariesRunWhereTheyWereExecuted) {
  std::vector<std::string> order;
  auto own = [&](uint32_t ordinal) { order.push_back(std::to_string(ordinal)); };
  auto run = [&](const std::string& secondary) { order.push_back(secondary); };
  using Executed = std::vector<std::pair<uint32_t, std::string>>;
  csbench::capture::InRunOrder(3, Executed{{0, "A"}, {2, "B"}, {3, "C"}, {3, "D"}}, own, run);
  EXPECT_EQ(order, (std::vector<std::string>{"A", "0", "1", "B", "2", "C", "D"}));
  order.clear();
  csbench::capture::InRunOrder(0, Executed{{0, "only"}}, own, run);
  EXPECT_EQ(order, (std::vector<std::string>{"only"}));
  order.clear();
  csbench::capture::InRunOrder(2, Executed{}, own, run);
  EXPECT_EQ(order, (std::vector<std::string>{"0", "1"}));
}
