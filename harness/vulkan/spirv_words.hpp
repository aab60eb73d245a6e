// The numbers of the SPIR-V specification that csbench's readers of a module share (opcodes,
// decorations, storage classes), and a walk over a module's instructions. A module is a 5-word
// header (magic, version, generator, id bound, 0) followed by instructions; an instruction's first
// word holds its word count (high 16 bits) and opcode (low 16 bits), and its operands follow.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <span>
#include <string>

namespace csbench::spirv {

constexpr uint32_t kMagic = 0x07230203;
constexpr size_t kHeaderWords = 5;

enum Op : uint32_t {
  kOpName = 5,
  kOpMemberName = 6,
  kOpEntryPoint = 15,
  kOpExecutionMode = 16,
  kOpCapability = 17,
  kOpTypeVoid = 19,
  kOpTypeBool = 20,
  kOpTypeInt = 21,
  kOpTypeFloat = 22,
  kOpTypeVector = 23,
  kOpTypeMatrix = 24,
  kOpTypeImage = 25,
  kOpTypeSampler = 26,
  kOpTypeSampledImage = 27,
  kOpTypeArray = 28,
  kOpTypeRuntimeArray = 29,
  kOpTypeStruct = 30,
  kOpTypePointer = 32,
  kOpConstantTrue = 41,
  kOpConstantFalse = 42,
  kOpConstant = 43,
  kOpConstantComposite = 44,
  kOpSpecConstantTrue = 48,
  kOpSpecConstantFalse = 49,
  kOpSpecConstant = 50,
  kOpSpecConstantComposite = 51,
  kOpVariable = 59,
  kOpLoad = 61,
  kOpStore = 62,
  kOpCopyMemory = 63,
  kOpCopyMemorySized = 64,
  kOpAccessChain = 65,
  kOpInBoundsAccessChain = 66,
  kOpPtrAccessChain = 67,
  kOpArrayLength = 68,
  kOpInBoundsPtrAccessChain = 70,
  kOpDecorate = 71,
  kOpMemberDecorate = 72,
  kOpGroupDecorate = 74,
  kOpGroupMemberDecorate = 75,
  kOpCopyObject = 83,
  kOpAtomicLoad = 227,
  kOpAtomicStore = 228,
  kOpAtomicExchange = 229,  // the read-modify-write atomics are 229 to 242 (OpAtomicXor)
  kOpAtomicXor = 242,
  kOpExecutionModeId = 331,
  kOpDecorateId = 332,
  kOpTypeAccelerationStructure = 5341,
  kOpAtomicFMinEXT = 5614,
  kOpAtomicFMaxEXT = 5615,
  kOpDecorateString = 5632,
  kOpMemberDecorateString = 5633,
  kOpAtomicFAddEXT = 6035,
};

constexpr uint32_t kModelGLCompute = 5;
constexpr uint32_t kModeLocalSize = 17;
constexpr uint32_t kModeLocalSizeId = 38;

constexpr uint32_t kDecorationSpecId = 1;
constexpr uint32_t kDecorationBlock = 2;
constexpr uint32_t kDecorationBufferBlock = 3;  // a storage buffer before SPIR-V 1.3's StorageBuffer class
constexpr uint32_t kDecorationRowMajor = 4;
constexpr uint32_t kDecorationArrayStride = 6;
constexpr uint32_t kDecorationMatrixStride = 7;
constexpr uint32_t kDecorationBuiltIn = 11;
constexpr uint32_t kDecorationNonWritable = 24;
constexpr uint32_t kDecorationNonReadable = 25;
constexpr uint32_t kDecorationBinding = 33;
constexpr uint32_t kDecorationDescriptorSet = 34;
constexpr uint32_t kDecorationOffset = 35;
constexpr uint32_t kBuiltInWorkgroupSize = 25;

constexpr uint32_t kStorageUniformConstant = 0;
constexpr uint32_t kStorageUniform = 2;
constexpr uint32_t kStoragePushConstant = 9;
constexpr uint32_t kStorageBuffer = 12;

// One instruction of a module.
struct Instruction {
  uint32_t op = 0;
  size_t at = 0;                       // the word it starts at, for messages
  std::span<const uint32_t> operands;  // the words after the opcode word
};

// Where a walk stopped before the module's end: the instruction at word `at` has a word count of 0,
// or more words (`count`) than the `left` from it to the module's end.
struct Malformed {
  size_t at = 0;
  uint32_t op = 0, count = 0;
  size_t left = 0;
};

// A module's instructions after its header, in order, with every word bounds-checked: a malformed
// instruction ends the walk (nothing from it on is read) and Stop() tells where. A module shorter
// than its header has no instructions. The module's words must outlive the walk and what it gives.
//   for (const spirv::Instruction& in : spirv::Instructions(words)) ...
class Instructions {
 public:
  explicit Instructions(std::span<const uint32_t> module) : words_(module) {}

  class Iterator {
   public:
    using value_type = Instruction;
    using difference_type = std::ptrdiff_t;
    Iterator() = default;
    Iterator(std::span<const uint32_t> words, size_t at) : words_(words), at_(at) {}
    Instruction operator*() const {
      return {words_[at_] & 0xFFFF, at_, words_.subspan(at_ + 1, Count() - 1)};
    }
    Iterator& operator++() {
      at_ += Count();
      return *this;
    }
    Iterator operator++(int) {
      Iterator before = *this;
      ++*this;
      return before;
    }
    // The walk ends at the module's end and at a malformed instruction.
    bool operator==(std::default_sentinel_t) const { return !Whole(words_, at_); }

   private:
    uint32_t Count() const { return words_[at_] >> 16; }
    std::span<const uint32_t> words_;
    size_t at_ = 0;
  };

  Iterator begin() const { return {words_, kHeaderWords}; }
  std::default_sentinel_t end() const { return {}; }

  // The malformed instruction the walk stops at; nullopt where it reaches the module's end.
  std::optional<Malformed> Stop() const {
    size_t at = kHeaderWords;
    while (Whole(words_, at)) at += words_[at] >> 16;
    if (at >= words_.size()) return std::nullopt;
    return Malformed{.at = at, .op = words_[at] & 0xFFFF, .count = words_[at] >> 16, .left = words_.size() - at};
  }

 private:
  // Whether an instruction starts at `at` and ends within the module.
  static bool Whole(std::span<const uint32_t> words, size_t at) {
    if (at >= words.size()) return false;
    const uint32_t count = words[at] >> 16;
    return count > 0 && count <= words.size() - at;
  }
  std::span<const uint32_t> words_;
};

// A literal string's text: its UTF-8 bytes packed four to a word, lowest byte first, up to a 0
// byte. A malformed one may lack the 0 and simply ends with its words.
inline std::string LiteralString(std::span<const uint32_t> words) {
  std::string text;
  for (uint32_t word : words) {
    for (int shift = 0; shift < 32; shift += 8) {
      const char c = static_cast<char>((word >> shift) & 0xFF);
      if (c == '\0') return text;
      text += c;
    }
  }
  return text;
}

}  // namespace csbench::spirv
