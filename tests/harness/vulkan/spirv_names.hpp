// Tests' SPIR-V modules with and without debug names: GLSL compiled with every name kept, and
// edits of those names: all of them removed, as a release build's module comes, or some members'
// removed or renamed, as no compiler writes them but a module may have them. The module is the
// compiler's own otherwise, so the validator still takes it.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <shaderc/shaderc.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "harness/vulkan/spirv_words.hpp"

namespace csbench::testing {

// GLSL -> SPIR-V by shaderc directly (not the code under test), without optimisation, so that names
// and unused declarations stay. A compile error fails the test and gives an empty module.
inline std::vector<uint32_t> CompileWithNames(const std::string& glsl,
                                              shaderc_env_version vulkan = shaderc_env_version_vulkan_1_1) {
  shaderc::Compiler compiler;
  shaderc::CompileOptions options;
  options.SetTargetEnvironment(shaderc_target_env_vulkan, vulkan);
  auto result = compiler.CompileGlslToSpv(glsl, shaderc_compute_shader, "test.comp", options);
  if (result.GetCompilationStatus() != shaderc_compilation_status_success) {
    ADD_FAILURE() << result.GetErrorMessage();
    return {};
  }
  return {result.cbegin(), result.cend()};
}

// Appends the instruction `in` of `words` to `out` as it is.
inline void Keep(std::vector<uint32_t>& out, const std::vector<uint32_t>& words, const spirv::Instruction& in) {
  out.insert(out.end(), words.begin() + in.at, words.begin() + in.at + 1 + in.operands.size());
}

// Removes OpName and OpMemberName, as spirv-opt --strip-debug does.
inline std::vector<uint32_t> StripNames(const std::vector<uint32_t>& words) {
  std::vector<uint32_t> out(words.begin(), words.begin() + spirv::kHeaderWords);
  for (const spirv::Instruction& in : spirv::Instructions(words)) {
    if (in.op != spirv::kOpName && in.op != spirv::kOpMemberName) Keep(out, words, in);
  }
  return out;
}

// The module with each OpMemberName whose name `renamed` holds given the name it maps to, or
// removed where that is "": a module that names some members only, or names one member as
// another is named by its position.
inline std::vector<uint32_t> RenameMembers(
    const std::vector<uint32_t>& words, std::initializer_list<std::pair<std::string_view, std::string_view>> renamed) {
  std::vector<uint32_t> out(words.begin(), words.begin() + spirv::kHeaderWords);
  for (const spirv::Instruction& in : spirv::Instructions(words)) {
    // OpMemberName: type, member, then the name's bytes, NUL-terminated and padded to a word.
    std::string_view name;
    if (in.op == spirv::kOpMemberName) {
      const char* text = reinterpret_cast<const char*>(&in.operands[2]);
      name = std::string_view(text, std::find(text, text + 4 * (in.operands.size() - 2), '\0'));
    }
    auto it = std::find_if(renamed.begin(), renamed.end(), [&](const auto& r) { return r.first == name; });
    if (in.op != spirv::kOpMemberName || it == renamed.end()) {
      Keep(out, words, in);
    } else if (!it->second.empty()) {
      const std::string_view to = it->second;
      const size_t text_words = to.size() / 4 + 1;
      out.push_back(uint32_t(3 + text_words) << 16 | spirv::kOpMemberName);
      out.insert(out.end(), {in.operands[0], in.operands[1]});
      for (size_t i = 0; i < text_words; ++i) {
        uint32_t w = 0;
        for (size_t b = 0; b < 4 && i * 4 + b < to.size(); ++b) w |= uint32_t(uint8_t(to[i * 4 + b])) << (8 * b);
        out.push_back(w);
      }
    }
  }
  return out;
}

}  // namespace csbench::testing
