// A compute shader's source -> SPIR-V at run time: GLSL and HLSL through shaderc, a SPIR-V module
// read and validated through SPIRV-Tools; cached for the whole run.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace csbench {

// A macro: object-like (`PER_ITEM`), or function-like where the name carries its parameter list
// (`load(buf,i)`, no blank before the parenthesis).
struct Define {
  std::string name;
  std::string value;
  bool operator==(const Define&) const = default;
};

// Text a GLSL shader is compiled with, inserted after its #version line. `name` is what a compile
// error inside it gives as its file (a manifest key, or a file's path).
struct Preamble {
  std::string name;
  std::string text;
  bool operator==(const Preamble&) const = default;
};

// The folder the kernels are read from: $CSBENCH_KERNEL_DIR, else PREFIX/share/csbench/kernels of
// an installed binary (PREFIX/bin/csbench), else kernels/ beside a build folder, else the source
// tree's kernels/.
std::string KernelDirectory();

enum class SourceLanguage { kGlsl, kHlsl, kSpirv };

// By the file's extension, in any case: .spv is a SPIR-V module, .hlsl HLSL, anything else (.comp,
// .glsl, none) GLSL compute.
SourceLanguage LanguageOf(const std::filesystem::path& path);

// "GLSL", "HLSL" or "SPIR-V", for messages.
std::string_view LanguageName(SourceLanguage language);

// The Vulkan version a shader is compiled and validated for. Each sets the SPIR-V version too:
// 1.1 -> SPIR-V 1.3 (subgroup operations), 1.2 -> SPIR-V 1.5, 1.3 -> SPIR-V 1.6.
enum class VulkanTarget { k1_1, k1_2, k1_3 };

// "1.1", "1.2" or "1.3"; nothing for anything else.
std::optional<VulkanTarget> ParseVulkanTarget(std::string_view text);

// "1.1", "1.2" or "1.3".
std::string_view VulkanTargetName(VulkanTarget target);

// VK_API_VERSION_1_x, to compare with the device's apiVersion before a pipeline is made.
uint32_t ApiVersionOf(VulkanTarget target);

struct ShaderSource {
  // The file: absolute, or relative to the kernels folder (KernelDirectory()).
  std::filesystem::path path;
  // GLSL made in memory (a check's shader, harness/manifest/case_device_check.cpp): compiled in
  // place of the file, `path` then only naming it in messages.
  std::optional<std::string> text;
  SourceLanguage language = SourceLanguage::kGlsl;
  // Preprocessor macros, GLSL and HLSL only: a SPIR-V module with defines is an error.
  std::vector<Define> defines;
  // GLSL only (another language with a preamble is an error): inserted in order right after the
  // #version line (at the top of a source without one), each part preceded by a #line naming it,
  // and followed by a #line that gives the shader's own lines their own numbers in errors.
  std::vector<Preamble> preamble;
  // `#include "x"` is looked up beside the file that includes it, then in these folders in order;
  // `#include <x>` in these folders only.
  std::vector<std::string> include_dirs;
  // HLSL: the entry function, which also names the module's entry point. SPIR-V: the name of the
  // GLCompute OpEntryPoint the module must have. GLSL: must be "main".
  std::string entry = "main";
  VulkanTarget target = VulkanTarget::k1_1;
  // false: no optimizer, so OpName and OpMemberName stay for reflection. No effect on SPIR-V.
  bool optimize = true;
  // The variant, for messages; the SPIR-V does not depend on it, so it is not part of the cache key.
  std::string label;
};

// The SPIR-V of `source`, compiled (or read and validated) once per run for each distinct source
// (every field but the label); the reference stays valid until the process exits.
//
// HLSL goes through glslang's HLSL front end for the compute stage: `[numthreads(x, y, z)]` is the
// local size; a resource's register number is its binding and its space its descriptor set,
// whatever the register's class (t, u, b or s: so `register(u1)` is binding 1 of set 0, and a `t1`
// beside it collides with it), `[[vk::binding(n, s)]]` overrides the register, and a resource with
// neither is given a binding of set 0 that no other resource there has.
//
// A SPIR-V module must be a non-empty whole number of host-order words starting with the SPIR-V
// magic number, pass SPIRV-Tools' validator for the target's Vulkan environment, and have a
// GLCompute entry point named `entry`.
//
// Throws Error naming the file, the label (the variant) and the defines, with the compiler's log
// (file:line: error) or the validator's message.
const std::vector<uint32_t>& CompileShader(const ShaderSource& source);

// A built-in kernel: GLSL kernels/<source> (or an absolute path) with the defines plus those of
// ExtraDefines(), for Vulkan 1.1, optimized; `#include` looks beside the including file, then in the
// kernels folder. Throws as CompileShader does.
const std::vector<uint32_t>& CompileKernel(const std::string& source, const std::vector<Define>& defines,
                                           const std::string& label);

// "A=1 B" or "A=1,B" -> {A=1}, {B=1}.
std::vector<Define> ParseDefines(std::string_view text);

// Defines added to every kernel from $CSBENCH_EXTRA_DEFINES (e.g. "SLOWDOWN=256"): the hook for
// fault injection, such as the deliberately slowed run that proves the regression check works.
// With $CSBENCH_EXTRA_DEFINES_VARIANT set, only the kernels of that variant (label) get them.
const std::vector<Define>& ExtraDefines();

// "NAME=value NAME2=value2", as the defines appear in messages.
std::string DefinesText(const std::vector<Define>& defines);

}  // namespace csbench
