#include "harness/vulkan/reflection.hpp"

#include <fmt/format.h>
#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>

#include <algorithm>
#include <array>
#include <map>
#include <mutex>
#include <optional>
#include <shaderc/shaderc.hpp>
#include <string_view>
#include <utility>

#include "harness/base/error.hpp"
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

// ---- The SPIR-V module's words -----------------------------------------------------------------
// A module is a 5-word header followed by instructions; an instruction's first word holds its
// word count (high 16 bits) and opcode (low 16 bits), and a result id follows, or for OpVariable
// its result type and then the id. Numbers from the SPIR-V specification:

constexpr uint32_t kSpirvMagic = 0x07230203;
constexpr size_t kSpirvHeaderWords = 5;

constexpr uint32_t kOpName = 5;               // target, name
constexpr uint32_t kOpMemberName = 6;         // struct type, member, name
constexpr uint32_t kOpTypeInt = 21;           // result, width, signedness
constexpr uint32_t kOpTypeFloat = 22;         // result, width
constexpr uint32_t kOpTypeVector = 23;        // result, component type, count
constexpr uint32_t kOpTypeArray = 28;         // result, element type, length
constexpr uint32_t kOpTypeRuntimeArray = 29;  // result, element type
constexpr uint32_t kOpTypeStruct = 30;        // result, member types...
constexpr uint32_t kOpTypePointer = 32;       // result, storage class, pointee type
constexpr uint32_t kOpVariable = 59;          // result type, result, storage class
constexpr uint32_t kOpDecorate = 71;          // target, decoration, operands...
constexpr uint32_t kOpMemberDecorate = 72;    // struct type, member, decoration, operands...

constexpr uint32_t kDecorationBlock = 2;
constexpr uint32_t kDecorationBufferBlock = 3;  // a storage buffer before SPIR-V 1.3's StorageBuffer class
constexpr uint32_t kDecorationArrayStride = 6;
constexpr uint32_t kDecorationNonWritable = 24;
constexpr uint32_t kDecorationNonReadable = 25;
constexpr uint32_t kDecorationBinding = 33;
constexpr uint32_t kDecorationDescriptorSet = 34;

constexpr uint32_t kStorageClassUniform = 2;
constexpr uint32_t kStorageClassStorageBuffer = 12;

struct Access {
  bool non_writable = false, non_readable = false;
};

// What an id is: the instruction that defines it (a type or a variable) and what decorates it.
struct SpirvId {
  uint32_t op = 0;
  std::vector<uint32_t> operands;  // the defining instruction's words after the result id
  uint32_t variable_type = 0;      // OpVariable's result type (a pointer)
  std::string name;
  std::vector<std::string> member_names;
  std::optional<uint32_t> binding, set;
  uint32_t array_stride = 0;
  bool block = false, buffer_block = false;
  Access access;
  std::vector<Access> member_access;
};

std::string SpirvString(const uint32_t* words, size_t count) {
  // A literal string packs its UTF-8 bytes four to a word, lowest byte first, up to a 0 byte.
  std::string text;
  for (size_t i = 0; i < count; ++i) {
    for (int shift = 0; shift < 32; shift += 8) {
      char c = static_cast<char>((words[i] >> shift) & 0xFF);
      if (c == '\0') return text;
      text += c;
    }
  }
  return text;
}

std::map<uint32_t, SpirvId> ReadSpirvIds(const std::vector<uint32_t>& spirv) {
  Require(spirv.size() >= kSpirvHeaderWords && spirv[0] == kSpirvMagic, "not a SPIR-V module");
  std::map<uint32_t, SpirvId> ids;
  for (size_t at = kSpirvHeaderWords; at < spirv.size();) {
    const uint32_t count = spirv[at] >> 16, op = spirv[at] & 0xFFFF;
    Require(count > 0 && at + count <= spirv.size(), fmt::format("malformed SPIR-V instruction at word {}", at));
    const uint32_t* w = &spirv[at];  // w[0] is the opcode word; w[1..count) its operands
    switch (op) {
      case kOpName:
        if (count >= 3) ids[w[1]].name = SpirvString(w + 2, count - 2);
        break;
      case kOpMemberName:
        if (count >= 4) {
          auto& names = ids[w[1]].member_names;
          if (names.size() <= w[2]) names.resize(w[2] + 1);
          names[w[2]] = SpirvString(w + 3, count - 3);
        }
        break;
      case kOpTypeInt:
      case kOpTypeFloat:
      case kOpTypeVector:
      case kOpTypeArray:
      case kOpTypeRuntimeArray:
      case kOpTypeStruct:
      case kOpTypePointer:
        if (count >= 2) {
          ids[w[1]].op = op;
          ids[w[1]].operands.assign(w + 2, w + count);
        }
        break;
      case kOpVariable:
        if (count >= 4) {
          ids[w[2]].op = op;
          ids[w[2]].variable_type = w[1];
          ids[w[2]].operands.assign(w + 3, w + count);
        }
        break;
      case kOpDecorate:
        if (count >= 3) {
          SpirvId& id = ids[w[1]];
          const uint32_t operand = count >= 4 ? w[3] : 0;
          switch (w[2]) {
            case kDecorationBlock:
              id.block = true;
              break;
            case kDecorationBufferBlock:
              id.buffer_block = true;
              break;
            case kDecorationArrayStride:
              id.array_stride = operand;
              break;
            case kDecorationNonWritable:
              id.access.non_writable = true;
              break;
            case kDecorationNonReadable:
              id.access.non_readable = true;
              break;
            case kDecorationBinding:
              id.binding = operand;
              break;
            case kDecorationDescriptorSet:
              id.set = operand;
              break;
            default:
              break;
          }
        }
        break;
      case kOpMemberDecorate:
        if (count >= 4 && (w[3] == kDecorationNonWritable || w[3] == kDecorationNonReadable)) {
          auto& members = ids[w[1]].member_access;
          if (members.size() <= w[2]) members.resize(w[2] + 1);
          (w[3] == kDecorationNonWritable ? members[w[2]].non_writable : members[w[2]].non_readable) = true;
        }
        break;
      default:
        break;
    }
    at += count;
  }
  return ids;
}

const SpirvId* Find(const std::map<uint32_t, SpirvId>& ids, uint32_t id) {
  auto it = ids.find(id);
  return it == ids.end() ? nullptr : &it->second;
}

// The GLSL name of a scalar or vector type; "" for anything else. Limited to the types the GL
// table above names, so that active and inactive blocks spell elements alike.
std::string SpirvTypeName(const std::map<uint32_t, SpirvId>& ids, uint32_t type_id) {
  const SpirvId* t = Find(ids, type_id);
  if (t == nullptr) return "";
  if (t->op == kOpTypeFloat && t->operands.size() >= 1) {
    switch (t->operands[0]) {
      case 16:
        return "float16_t";
      case 32:
        return "float";
      case 64:
        return "double";
      default:
        return "";
    }
  }
  if (t->op == kOpTypeInt && t->operands.size() >= 2) {
    const bool is_signed = t->operands[1] != 0;
    switch (t->operands[0]) {
      case 32:
        return is_signed ? "int" : "uint";
      case 64:
        return is_signed ? "int64_t" : "uint64_t";
      default:
        return "";
    }
  }
  if (t->op == kOpTypeVector && t->operands.size() >= 2) {
    static const std::map<std::string, std::string, std::less<>> kPrefix{
        {"float", "vec"}, {"double", "dvec"},    {"float16_t", "f16vec"}, {"int", "ivec"},
        {"uint", "uvec"}, {"int64_t", "i64vec"}, {"uint64_t", "u64vec"}};
    auto prefix = kPrefix.find(SpirvTypeName(ids, t->operands[0]));
    return prefix == kPrefix.end() ? "" : fmt::format("{}{}", prefix->second, t->operands[1]);
  }
  return "";
}

// Every storage buffer variable of the module, described from its decorations and types alone.
std::vector<ShaderBuffer> SpirvStorageBuffers(const std::vector<uint32_t>& spirv) {
  const auto ids = ReadSpirvIds(spirv);
  std::vector<ShaderBuffer> buffers;
  for (const auto& [id, variable] : ids) {
    if (variable.op != kOpVariable || variable.operands.empty()) continue;
    const uint32_t storage = variable.operands[0];
    const SpirvId* pointer = Find(ids, variable.variable_type);
    if (pointer == nullptr || pointer->op != kOpTypePointer || pointer->operands.size() < 2) continue;
    // An array of blocks shares one binding: look through the array to the block.
    const SpirvId* block = Find(ids, pointer->operands[1]);
    while (block != nullptr && (block->op == kOpTypeArray || block->op == kOpTypeRuntimeArray)) {
      block = Find(ids, block->operands.at(0));
    }
    if (block == nullptr || block->op != kOpTypeStruct) continue;
    const bool is_storage_buffer = (storage == kStorageClassStorageBuffer && block->block) ||
                                   (storage == kStorageClassUniform && block->buffer_block);
    if (!is_storage_buffer) continue;

    ShaderBuffer b;
    b.set = variable.set.value_or(0);
    b.binding = variable.binding.value_or(0);
    b.block = block->name;
    if (!block->operands.empty()) {
      const uint32_t last = static_cast<uint32_t>(block->operands.size() - 1);
      const SpirvId* array = Find(ids, block->operands[last]);
      if (array != nullptr && array->op == kOpTypeRuntimeArray && !array->operands.empty()) {
        b.member = last < block->member_names.size() ? block->member_names[last] : "";
        b.element = SpirvTypeName(ids, array->operands[0]);
        b.array_stride = array->array_stride;
      }
    }
    // glslang puts readonly/writeonly of a block on each of its members; other compilers may put
    // it on the variable. A block is read-only when the variable is, or every member is.
    const size_t members = block->operands.size();
    auto all_members = [&](bool Access::*flag) {
      if (members == 0 || block->member_access.size() < members) return false;
      return std::all_of(block->member_access.begin(), block->member_access.begin() + members,
                         [&](const Access& a) { return a.*flag; });
    };
    b.readonly = variable.access.non_writable || all_members(&Access::non_writable);
    b.writeonly = variable.access.non_readable || all_members(&Access::non_readable);
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
