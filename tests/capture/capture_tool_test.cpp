// The capture tool's pure parts: --dispatches parsed and resolved against a summary, and a block's
// bytes written as values that give the program's bits back.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <stdexcept>

#include "capture/tool/block_values.hpp"
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
