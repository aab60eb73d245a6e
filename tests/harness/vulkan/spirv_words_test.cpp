#include "harness/vulkan/spirv_words.hpp"

#include <gtest/gtest.h>

#include <initializer_list>
#include <iterator>
#include <span>
#include <string>
#include <vector>

namespace csbench::spirv {
namespace {

// A module's header and `ops`, each an opcode and its operands.
std::vector<uint32_t> Module(std::initializer_list<std::initializer_list<uint32_t>> ops) {
  std::vector<uint32_t> words{kMagic, 0x00010300, 0, 100, 0};
  for (const auto& op : ops) {
    words.push_back(static_cast<uint32_t>(op.size()) << 16 | *op.begin());
    words.insert(words.end(), op.begin() + 1, op.end());
  }
  return words;
}

std::vector<uint32_t> Ops(std::span<const uint32_t> module) {
  std::vector<uint32_t> ops;
  for (const Instruction& in : Instructions(module)) ops.push_back(in.op);
  return ops;
}

TEST(SpirvWords, WalksEveryInstructionWithItsPlaceAndOperands) {
  const auto words = Module({{kOpCapability, 1}, {14, 0, 1}, {kOpDecorate, 7, kDecorationBinding, 3}});
  EXPECT_EQ(Ops(words), (std::vector<uint32_t>{kOpCapability, 14, kOpDecorate}));
  std::vector<Instruction> all;
  for (const Instruction& in : Instructions(words)) all.push_back(in);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[2].at, 10u);
  EXPECT_EQ(std::vector<uint32_t>(all[2].operands.begin(), all[2].operands.end()),
            (std::vector<uint32_t>{7, kDecorationBinding, 3}));
  EXPECT_FALSE(Instructions(words).Stop().has_value());
}

TEST(SpirvWords, StopsAtAnInstructionPastTheEnd) {
  auto words = Module({{kOpCapability, 1}, {14, 0, 1}});
  const size_t end = words.size();
  words.push_back((9u << 16) | kOpCapability);  // 9 words, where the module has 2 left
  words.push_back(1);
  EXPECT_EQ(Ops(words).size(), 2u);
  const auto stop = Instructions(words).Stop();
  ASSERT_TRUE(stop.has_value());
  EXPECT_EQ(stop->at, end);
  EXPECT_EQ(stop->op, uint32_t{kOpCapability});
  EXPECT_EQ(stop->count, 9u);
  EXPECT_EQ(stop->left, 2u);
}

TEST(SpirvWords, StopsAtAWordCountOfZeroAndReadsNothingAfter) {
  auto words = Module({{kOpCapability, 1}});
  words.push_back(kOpCapability);  // a word count of 0
  const auto rest = Module({{kOpCapability, 9}});
  words.insert(words.end(), rest.begin() + kHeaderWords, rest.end());
  EXPECT_EQ(Ops(words).size(), 1u);
  ASSERT_TRUE(Instructions(words).Stop().has_value());
  EXPECT_EQ(Instructions(words).Stop()->count, 0u);
  EXPECT_EQ(Instructions(words).Stop()->at, kHeaderWords + 2);
}

TEST(SpirvWords, AModuleShorterThanItsHeaderHasNoInstructions) {
  const std::vector<uint32_t> words{kMagic, 0x00010300, 0};
  EXPECT_EQ(Instructions(words).begin(), std::default_sentinel);
  EXPECT_FALSE(Instructions(words).Stop().has_value());
  EXPECT_TRUE(Ops(std::vector<uint32_t>{}).empty());
}

TEST(SpirvWords, LiteralStringWithAndWithoutItsZero) {
  // "main" is one word, little-endian, and its 0 byte the next.
  const std::vector<uint32_t> main_word{0x6e69616d, 0};
  EXPECT_EQ(LiteralString(main_word), "main");
  EXPECT_EQ(LiteralString(std::span(main_word).first(1)), "main");  // no 0: it ends with the words
  EXPECT_EQ(LiteralString(std::vector<uint32_t>{0x00006261}), "ab");
  EXPECT_EQ(LiteralString(std::vector<uint32_t>{}), "");
}

}  // namespace
}  // namespace csbench::spirv
