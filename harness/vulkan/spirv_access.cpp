#include "harness/vulkan/spirv_access.hpp"

#include "harness/vulkan/spirv_words.hpp"

namespace csbench::spirv {

std::map<std::pair<uint32_t, uint32_t>, Access> AccessBySlot(std::span<const uint32_t> module) {
  const Instructions code(module);
  std::map<uint32_t, uint32_t> set_of, binding_of;
  std::map<uint32_t, uint32_t> root;  // pointer id -> the descriptor variable it points into
  for (const Instruction& i : code) {
    const auto& w = i.operands;
    if (i.op == kOpDecorate && w.size() >= 3 && w[1] == kDecorationDescriptorSet) set_of[w[0]] = w[2];
    if (i.op == kOpDecorate && w.size() >= 3 && w[1] == kDecorationBinding) binding_of[w[0]] = w[2];
    if (i.op == kOpVariable && w.size() >= 3 && (w[2] == kStorageBuffer || w[2] == kStorageUniform)) root[w[1]] = w[1];
  }
  std::map<uint32_t, Access> by_variable;
  auto touch = [&](uint32_t pointer, bool reads, bool writes) {
    auto r = root.find(pointer);
    if (r == root.end()) return;
    Access& a = by_variable[r->second];
    a.reads |= reads;
    a.writes |= writes;
  };
  // Pointers derived from pointers; an id may be used before its definition only through OpPhi, which
  // counts as unfollowed below, so one pass in order follows every chain.
  for (const Instruction& i : code) {
    const auto& w = i.operands;
    switch (i.op) {
      case kOpAccessChain:
      case kOpInBoundsAccessChain:
      case kOpPtrAccessChain:
      case kOpInBoundsPtrAccessChain:
      case kOpCopyObject:
        if (w.size() >= 3)
          if (auto r = root.find(w[2]); r != root.end()) root[w[1]] = r->second;
        break;
      case kOpLoad:
      case kOpAtomicLoad:
        if (w.size() >= 3) touch(w[2], true, false);
        break;
      case kOpStore:
      case kOpAtomicStore:
        if (w.size() >= 1) touch(w[0], false, true);
        break;
      case kOpCopyMemory:
      case kOpCopyMemorySized:
        if (w.size() >= 2) {
          touch(w[0], false, true);
          touch(w[1], true, false);
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
          if (w.size() >= 3) touch(w[2], true, true);
          break;
        }
        // Any other use of a tracked pointer (a function's argument, OpSelect, OpPhi, a conversion):
        // not followed, so both.
        for (uint32_t operand : w) touch(operand, true, true);
    }
  }
  std::map<std::pair<uint32_t, uint32_t>, Access> out;
  for (const auto& [variable, access] : by_variable) {
    auto b = binding_of.find(variable);
    if (b == binding_of.end()) continue;
    auto s = set_of.find(variable);
    Access& a = out[{s == set_of.end() ? 0 : s->second, b->second}];
    a.reads |= access.reads;
    a.writes |= access.writes;
  }
  return out;
}

}  // namespace csbench::spirv
