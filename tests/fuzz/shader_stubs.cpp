// The shader compiler and interface reflection that LoadManifest calls, for the fuzz target only: it calls
// ParseManifest and EvaluatePoint, which never reach these, so each aborts if it is ever called.
// (The real ones pull in glslang and shaderc, and clang 14 with libstdc++ 12 has no
// std::source_location for harness/base/error.hpp.)
#include <cstdlib>

#include "harness/vulkan/interface.hpp"
#include "harness/vulkan/shader_compiler.hpp"

namespace csbench {

std::string KernelDirectory() { std::abort(); }

const std::vector<uint32_t>& CompileKernel(const std::string&, const std::vector<Define>&, const std::string&) {
  std::abort();
}

const std::vector<uint32_t>& CompileShader(const ShaderSource&) { std::abort(); }

ShaderInterface ReflectInterface(const std::vector<uint32_t>&) { std::abort(); }

std::string_view KindName(ResourceKind) { std::abort(); }

std::optional<std::string> MemberNameClash(const std::vector<Member>&, const std::string&) { std::abort(); }

}  // namespace csbench
