#include "capture/tool/access.hpp"

#include <cstddef>

namespace csbench::capture {

namespace {

// SPIR-V opcodes the scan knows.
enum Op : uint32_t {
  kOpFunctionCall = 57,
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
  kOpCopyObject = 83,
  kOpAtomicLoad = 227,
  kOpAtomicStore = 228,
  kOpAtomicExchange = 229,
  kOpAtomicXor = 242,
  kOpAtomicFMinEXT = 5614,
  kOpAtomicFMaxEXT = 5615,
  kOpAtomicFAddEXT = 6035,
  kOpName = 5,
  kOpMemberName = 6,
  kOpEntryPoint = 15,
  kOpMemberDecorate = 72,
  kOpGroupDecorate = 74,
  kOpGroupMemberDecorate = 75,
  kOpDecorateId = 332,
  kOpDecorateString = 5632,
  kOpMemberDecorateString = 5633,
};
constexpr uint32_t kDecorationBinding = 33, kDecorationDescriptorSet = 34;
constexpr uint32_t kStorageUniform = 2, kStorageBuffer = 12;

struct Instruction {
  uint32_t op = 0;
  const uint32_t* words = nullptr;  // words[0] is the opcode's word
  uint32_t count = 0;
};

}  // namespace

std::map<std::pair<uint32_t, uint32_t>, Access> AccessOf(const std::vector<uint32_t>& spirv) {
  std::vector<Instruction> code;
  for (std::size_t at = 5; at < spirv.size();) {
    const uint32_t count = spirv[at] >> 16;
    if (count == 0 || at + count > spirv.size()) break;
    code.push_back({spirv[at] & 0xffff, &spirv[at], count});
    at += count;
  }
  std::map<uint32_t, uint32_t> set_of, binding_of;
  std::map<uint32_t, uint32_t> root;  // pointer id -> the descriptor variable it points into
  for (const Instruction& i : code) {
    if (i.op == kOpDecorate && i.count >= 4 && i.words[2] == kDecorationDescriptorSet) set_of[i.words[1]] = i.words[3];
    if (i.op == kOpDecorate && i.count >= 4 && i.words[2] == kDecorationBinding) binding_of[i.words[1]] = i.words[3];
    if (i.op == kOpVariable && i.count >= 4 && (i.words[3] == kStorageBuffer || i.words[3] == kStorageUniform))
      root[i.words[2]] = i.words[2];
  }
  std::map<uint32_t, Access> by_variable;
  auto touch = [&](uint32_t pointer, bool read, bool written) {
    auto r = root.find(pointer);
    if (r == root.end()) return;
    Access& a = by_variable[r->second];
    a.read |= read;
    a.written |= written;
  };
  // Pointers derived from pointers; an id may be used before its definition only through OpPhi, which
  // counts as unfollowed below, so one pass in order follows every chain.
  for (const Instruction& i : code) {
    switch (i.op) {
      case kOpAccessChain:
      case kOpInBoundsAccessChain:
      case kOpPtrAccessChain:
      case kOpInBoundsPtrAccessChain:
      case kOpCopyObject:
        if (i.count >= 4)
          if (auto r = root.find(i.words[3]); r != root.end()) root[i.words[2]] = r->second;
        break;
      case kOpLoad:
      case kOpAtomicLoad:
        if (i.count >= 4) touch(i.words[3], true, false);
        break;
      case kOpStore:
      case kOpAtomicStore:
        if (i.count >= 2) touch(i.words[1], false, true);
        break;
      case kOpCopyMemory:
      case kOpCopyMemorySized:
        if (i.count >= 3) {
          touch(i.words[1], false, true);
          touch(i.words[2], true, false);
        }
        break;
      // Names, decorations and the entry point's interface list name a variable without using it.
      case kOpArrayLength:
      case kOpName:
      case kOpMemberName:
      case kOpEntryPoint:
      case kOpDecorate:
      case kOpMemberDecorate:
      case kOpGroupDecorate:
      case kOpGroupMemberDecorate:
      case kOpDecorateId:
      case kOpDecorateString:
      case kOpMemberDecorateString:
      case kOpVariable:
        break;
      default:
        if ((i.op >= kOpAtomicExchange && i.op <= kOpAtomicXor) || i.op == kOpAtomicFMinEXT ||
            i.op == kOpAtomicFMaxEXT || i.op == kOpAtomicFAddEXT) {
          if (i.count >= 4) touch(i.words[3], true, true);
          break;
        }
        // Any other use of a tracked pointer (a function's argument, OpSelect, OpPhi, a conversion):
        // not followed, so both.
        for (uint32_t w = 1; w < i.count; ++w) touch(i.words[w], true, true);
    }
  }
  std::map<std::pair<uint32_t, uint32_t>, Access> out;
  for (const auto& [variable, access] : by_variable) {
    auto b = binding_of.find(variable);
    if (b == binding_of.end()) continue;
    auto s = set_of.find(variable);
    Access& a = out[{s == set_of.end() ? 0 : s->second, b->second}];
    a.read |= access.read;
    a.written |= access.written;
  }
  return out;
}

}  // namespace csbench::capture
