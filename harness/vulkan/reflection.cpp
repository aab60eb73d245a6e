#include "harness/vulkan/reflection.hpp"

#include <fmt/format.h>
#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <shaderc/shaderc.hpp>
#include <string_view>
#include <utility>

#include "harness/base/error.hpp"
#include "harness/vulkan/interface.hpp"
#include "harness/vulkan/shaderc_options.hpp"

namespace csbench {
namespace {

// ---- GLSL text -> preprocessed text (shaderc, so that #include and defines behave as they do when
// the kernel is compiled) -------------------------------------------------------------------------

std::string Preprocess(const std::string& glsl, const std::string& file_name, const std::vector<Define>& defines,
                       const std::vector<std::string>& include_dirs, VulkanTarget target) {
  shaderc::Compiler compiler;
  shaderc::CompileOptions options;
  SetShadercBase(options, target, defines, include_dirs);
  auto result = compiler.PreprocessGlsl(glsl, shaderc_compute_shader, file_name.c_str(), options);
  if (result.GetCompilationStatus() != shaderc_compilation_status_success) {
    throw Error(fmt::format("preprocessing {} with defines {} failed:\n{}", file_name, DefinesText(defines),
                            result.GetErrorMessage()));
  }
  return std::string(result.cbegin(), result.cend());
}

// ---- glslang's reflection ----------------------------------------------------------------------

void InitializeGlslang() {
  // Never finalized: the process keeps glslang's tables until it exits (shaderc shares them).
  static std::once_flag once;
  std::call_once(once, [] { glslang::InitializeProcess(); });
}

// GL type enums as glslang's reflection reports them (glDefineType), by the GLSL name of the type.
struct GlType {
  int gl;
  std::string_view glsl;
};
constexpr std::array kGlTypes{
    GlType{0x1406, "float"},     GlType{0x8B50, "vec2"},    GlType{0x8B51, "vec3"},    GlType{0x8B52, "vec4"},
    GlType{0x1404, "int"},       GlType{0x8B53, "ivec2"},   GlType{0x8B54, "ivec3"},   GlType{0x8B55, "ivec4"},
    GlType{0x1405, "uint"},      GlType{0x8DC6, "uvec2"},   GlType{0x8DC7, "uvec3"},   GlType{0x8DC8, "uvec4"},
    GlType{0x140A, "double"},    GlType{0x8FFC, "dvec2"},   GlType{0x8FFD, "dvec3"},   GlType{0x8FFE, "dvec4"},
    GlType{0x8FF8, "float16_t"}, GlType{0x8FF9, "f16vec2"}, GlType{0x8FFA, "f16vec3"}, GlType{0x8FFB, "f16vec4"},
    GlType{0x140E, "int64_t"},   GlType{0x8FE9, "i64vec2"}, GlType{0x8FEA, "i64vec3"}, GlType{0x8FEB, "i64vec4"},
    GlType{0x140F, "uint64_t"},  GlType{0x8FF5, "u64vec2"}, GlType{0x8FF6, "u64vec3"}, GlType{0x8FF7, "u64vec4"},
    GlType{0x8B56, "bool"},      GlType{0x8B57, "bvec2"},   GlType{0x8B58, "bvec3"},   GlType{0x8B59, "bvec4"},
};

std::string GlslTypeName(int gl) {
  for (const auto& t : kGlTypes) {
    if (t.gl == gl) return std::string(t.glsl);
  }
  return "";
}

// A block glslang's reflection lists: one that main() reaches.
struct ReflectedBlock {
  std::string name;
  int binding = -1;
  std::string member, element;
  int array_stride = 0;
};

// Parses and links the preprocessed text, builds its reflection, and translates the same program to
// (unoptimized, so that inactive blocks stay) SPIR-V.
std::vector<ReflectedBlock> ReflectWithGlslang(const std::string& text, const std::string& file_name,
                                               VulkanTarget target, std::vector<uint32_t>& spirv) {
  InitializeGlslang();
  const auto messages = static_cast<EShMessages>(EShMsgSpvRules | EShMsgVulkanRules);
  glslang::TShader shader(EShLangCompute);
  const char* strings[] = {text.c_str()};
  const int lengths[] = {static_cast<int>(text.size())};
  const char* names[] = {file_name.c_str()};
  shader.setStringsWithLengthsAndNames(strings, lengths, names, 1);
  shader.setEnvInput(glslang::EShSourceGlsl, EShLangCompute, glslang::EShClientVulkan, 100);
  // The same pairs of Vulkan and SPIR-V versions as SetShadercBase sets, so that a shader that
  // compiles for its target parses here too (a dynamic subgroupBroadcast id needs SPIR-V 1.5).
  switch (target) {
    case VulkanTarget::k1_1:
      shader.setEnvClient(glslang::EShClientVulkan, glslang::EShTargetVulkan_1_1);
      shader.setEnvTarget(glslang::EShTargetSpv, glslang::EShTargetSpv_1_3);
      break;
    case VulkanTarget::k1_2:
      shader.setEnvClient(glslang::EShClientVulkan, glslang::EShTargetVulkan_1_2);
      shader.setEnvTarget(glslang::EShTargetSpv, glslang::EShTargetSpv_1_5);
      break;
    case VulkanTarget::k1_3:
      shader.setEnvClient(glslang::EShClientVulkan, glslang::EShTargetVulkan_1_3);
      shader.setEnvTarget(glslang::EShTargetSpv, glslang::EShTargetSpv_1_6);
      break;
  }
  if (!shader.parse(GetDefaultResources(), 450, false, messages)) {
    throw Error(fmt::format("parsing {} failed:\n{}", file_name, shader.getInfoLog()));
  }
  glslang::TProgram program;
  program.addShader(&shader);
  if (!program.link(messages)) throw Error(fmt::format("linking {} failed:\n{}", file_name, program.getInfoLog()));
  // SeparateBuffers lists buffer blocks apart from uniform blocks; AllBlockVariables lists every
  // member of a listed block, also those main() never touches (the runtime array may be one).
  Require(program.buildReflection(EShReflectionSeparateBuffers | EShReflectionAllBlockVariables),
          fmt::format("glslang could not build the reflection of {}", file_name));

  std::vector<ReflectedBlock> blocks(program.getNumBufferBlocks());
  for (int i = 0; i < program.getNumBufferBlocks(); ++i) {
    const auto& b = program.getBufferBlock(i);
    // An array of blocks is listed as "B[0]", "B[1]", ...; SPIR-V and GLSL know it as "B".
    blocks[i].name = b.name.substr(0, b.name.find('['));
    blocks[i].binding = b.getBinding();
  }
  for (int i = 0; i < program.getNumBufferVariables(); ++i) {
    const auto& v = program.getBufferVariable(i);
    // A runtime array is the one variable of size 0; an array of structs is listed member by
    // member ("s[0].a") with a size of 1 each, and leaves the element empty.
    if (v.index < 0 || v.index >= static_cast<int>(blocks.size()) || v.size != 0 || v.arrayStride <= 0) continue;
    ReflectedBlock& block = blocks[v.index];
    // An instance-named block prefixes its members ("Out.out_values").
    size_t dot = v.name.rfind('.');
    block.member = dot == std::string::npos ? v.name : v.name.substr(dot + 1);
    block.element = GlslTypeName(v.glDefineType);
    block.array_stride = v.arrayStride;
  }

  glslang::SpvOptions options;
  options.disableOptimizer = true;
  glslang::GlslangToSpv(*program.getIntermediate(EShLangCompute), spirv, &options);
  return blocks;
}

// ---- What the SPIR-V says ---------------------------------------------------------------------

// The element names glslang's reflection can report (the GL table above), so that active and
// inactive blocks spell elements alike: scalars and vectors of 32- and 64-bit numbers and of
// float16_t; not 8- or 16-bit integers, bools, matrices, structs or arrays.
bool GlNamable(const TypeLayout& t) {
  if (t.kind != TypeLayout::Kind::kScalar && t.kind != TypeLayout::Kind::kVector) return false;
  switch (t.scalar.kind) {
    case ScalarKind::kFloat:
      return t.scalar.bits == 16 || t.scalar.bits == 32 || t.scalar.bits == 64;
    case ScalarKind::kInt:
    case ScalarKind::kUint:
      return t.scalar.bits == 32 || t.scalar.bits == 64;
    case ScalarKind::kBool:
      return false;
  }
  return false;
}

// Every storage buffer variable of the module, described from its decorations and types alone.
std::vector<ShaderBuffer> SpirvStorageBuffers(const std::vector<uint32_t>& spirv) {
  std::vector<ShaderBuffer> buffers;
  for (const Resource& r : ReflectInterface(spirv).resources) {
    if (r.kind != ResourceKind::kStorageBuffer) continue;
    ShaderBuffer b{
        .set = r.set, .binding = r.binding, .block = r.block, .readonly = r.readonly, .writeonly = r.writeonly};
    if (!r.type.members.empty()) {
      const Member& last = r.type.members.back();
      if (last.type.kind == TypeLayout::Kind::kRuntimeArray && last.type.element != nullptr) {
        b.member = last.name;
        b.element = GlNamable(*last.type.element) ? last.type.element->glsl : "";
        b.array_stride = last.type.array_stride;
      }
    }
    buffers.push_back(std::move(b));
  }
  return buffers;
}

}  // namespace

std::vector<ShaderBuffer> ReflectStorageBuffers(const std::string& glsl, const std::string& file_name,
                                                const std::vector<Define>& defines,
                                                const std::vector<std::string>& include_dirs, VulkanTarget target) {
  const std::string text = Preprocess(glsl, file_name, defines, include_dirs, target);
  std::vector<uint32_t> spirv;
  const std::vector<ReflectedBlock> reflected = ReflectWithGlslang(text, file_name, target, spirv);
  std::vector<ShaderBuffer> buffers = SpirvStorageBuffers(spirv);

  // GLSL block names are unique in a shader, so they pair glslang's blocks with the SPIR-V's.
  for (const ReflectedBlock& r : reflected) {
    auto it = std::find_if(buffers.begin(), buffers.end(), [&](const ShaderBuffer& b) { return b.block == r.name; });
    if (it == buffers.end()) {
      buffers.push_back({.block = r.name});
      it = buffers.end() - 1;
    }
    it->active = true;
    if (r.binding >= 0) it->binding = static_cast<uint32_t>(r.binding);
    if (!r.member.empty()) {
      it->member = r.member;
      it->element = r.element;
      it->array_stride = static_cast<uint32_t>(r.array_stride);
    }
  }
  std::sort(buffers.begin(), buffers.end(), [](const ShaderBuffer& a, const ShaderBuffer& b) {
    return std::pair(a.set, a.binding) < std::pair(b.set, b.binding);
  });
  return buffers;
}

}  // namespace csbench
