#include "harness/vulkan/shader_compiler.hpp"

#include <gtest/gtest.h>
#include <unistd.h>
#include <vulkan/vulkan_core.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <shaderc/shaderc.hpp>
#include <string>
#include <vector>

#include "harness/base/error.hpp"
#include "harness/vulkan/spirv_words.hpp"

// CompileShader and CompileKernel return a reference into the run-long cache, not into their
// argument: GCC 13 and later guess otherwise when the argument is a temporary (-Wdangling-reference).
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 13
#pragma GCC diagnostic ignored "-Wdangling-reference"
#endif

namespace csbench {
namespace {

// ---- Reading the SPIR-V the compiler returns: just enough of the instruction stream to check
// what a test expects ----------------------------------------------------------------------------

using namespace spirv;

// The module's instructions (spans into `spirv`), failing the test where one is malformed.
std::vector<Instruction> Walk(const std::vector<uint32_t>& spirv) {
  const Instructions code(spirv);
  if (const auto stop = code.Stop()) ADD_FAILURE() << "malformed instruction at word " << stop->at;
  std::vector<Instruction> found;
  for (const Instruction& i : code) found.push_back(i);
  return found;
}

// The local size the module's entry point declares.
std::vector<uint32_t> LocalSize(const std::vector<uint32_t>& spirv) {
  for (const auto& i : Walk(spirv)) {
    if (i.op == kOpExecutionMode && i.operands.size() == 5 && i.operands[1] == kModeLocalSize) {
      return {i.operands[2], i.operands[3], i.operands[4]};
    }
  }
  return {};
}

std::vector<std::string> EntryPoints(const std::vector<uint32_t>& spirv) {
  std::vector<std::string> names;
  for (const auto& i : Walk(spirv)) {
    if (i.op == kOpEntryPoint) names.push_back(LiteralString(i.operands.subspan(2)));
  }
  return names;
}

struct SetAndBinding {
  std::optional<uint32_t> set, binding;
};

// The descriptor set and binding of each variable, by its OpName (unoptimized modules keep them).
std::map<std::string, SetAndBinding> BindingsByName(const std::vector<uint32_t>& spirv) {
  std::map<uint32_t, std::string> names;
  std::map<uint32_t, SetAndBinding> by_id;
  for (const auto& i : Walk(spirv)) {
    if (i.op == kOpName) names[i.operands[0]] = LiteralString(i.operands.subspan(1));
    if (i.op == kOpDecorate && i.operands.size() == 3 && i.operands[1] == kDecorationBinding) {
      by_id[i.operands[0]].binding = i.operands[2];
    }
    if (i.op == kOpDecorate && i.operands.size() == 3 && i.operands[1] == kDecorationDescriptorSet) {
      by_id[i.operands[0]].set = i.operands[2];
    }
  }
  std::map<std::string, SetAndBinding> result;
  for (const auto& [id, b] : by_id) result[names[id]] = b;
  return result;
}

std::vector<std::string> MemberNames(const std::vector<uint32_t>& spirv) {
  std::vector<std::string> names;
  for (const auto& i : Walk(spirv)) {
    if (i.op == kOpMemberName) names.push_back(LiteralString(i.operands.subspan(2)));
  }
  return names;
}

// ---- Files ----------------------------------------------------------------------------------

// A folder of its own per test, removed afterwards.
class TempDir {
 public:
  TempDir() {
    path_ = std::filesystem::temp_directory_path() / ("csbench_shader_compiler_" + std::to_string(getpid()) + "_" +
                                                      ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  std::filesystem::path Write(const std::string& name, const std::string& text) const {
    auto path = path_ / name;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  std::filesystem::path WriteWords(const std::string& name, const std::vector<uint32_t>& words) const {
    return Write(name, std::string(reinterpret_cast<const char*>(words.data()), words.size() * 4));
  }
  std::string Path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

std::string ErrorText(const ShaderSource& source) {
  try {
    CompileShader(source);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

// GLSL compiled by shaderc directly, not through CompileShader, so a .spv test does not depend on
// the code under test for its input.
std::vector<uint32_t> ShadercSpirv(const std::string& glsl, shaderc_env_version env = shaderc_env_version_vulkan_1_1) {
  shaderc::Compiler compiler;
  shaderc::CompileOptions options;
  options.SetTargetEnvironment(shaderc_target_env_vulkan, env);
  auto result = compiler.CompileGlslToSpv(glsl, shaderc_compute_shader, "test.comp", options);
  EXPECT_EQ(result.GetCompilationStatus(), shaderc_compilation_status_success) << result.GetErrorMessage();
  return {result.cbegin(), result.cend()};
}

constexpr const char* kSizedGlsl = R"(#version 450
layout(local_size_x = WIDTH, local_size_y = 2) in;
layout(std430, binding = 3) writeonly buffer Out { float out_values[]; };
void main() { out_values[gl_GlobalInvocationID.x] = 1.0; }
)";

// kSizedGlsl with its width written in, for shaderc to compile without defines.
std::string WithWidth(int width) {
  std::string glsl = kSizedGlsl;
  return glsl.replace(glsl.find("WIDTH"), 5, std::to_string(width));
}

// A dynamic subgroupBroadcast id is allowed from SPIR-V 1.5 on (Vulkan 1.2), a constant one before.
constexpr const char* kDynamicBroadcast = R"(#version 460
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Data { uint values[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  values[i] = subgroupBroadcast(values[i], values[i + 1] & 3u);
}
)";

// ---- Names of languages and targets ---------------------------------------------------------

TEST(ShaderCompiler, LanguageOfExtension) {
  EXPECT_EQ(LanguageOf("/a/b/k.spv"), SourceLanguage::kSpirv);
  EXPECT_EQ(LanguageOf("k.SPV"), SourceLanguage::kSpirv);
  EXPECT_EQ(LanguageOf("k.hlsl"), SourceLanguage::kHlsl);
  EXPECT_EQ(LanguageOf("k.comp"), SourceLanguage::kGlsl);
  EXPECT_EQ(LanguageOf("k.glsl"), SourceLanguage::kGlsl);
  EXPECT_EQ(LanguageOf("spv"), SourceLanguage::kGlsl);  // a name, not an extension
  EXPECT_EQ(LanguageOf("k.spv.comp"), SourceLanguage::kGlsl);
}

TEST(ShaderCompiler, ParseVulkanTargetAndApiVersion) {
  EXPECT_EQ(ParseVulkanTarget("1.1"), VulkanTarget::k1_1);
  EXPECT_EQ(ParseVulkanTarget("1.2"), VulkanTarget::k1_2);
  EXPECT_EQ(ParseVulkanTarget("1.3"), VulkanTarget::k1_3);
  EXPECT_EQ(ParseVulkanTarget("1.0"), std::nullopt);
  EXPECT_EQ(ParseVulkanTarget("1.4"), std::nullopt);
  EXPECT_EQ(ParseVulkanTarget("1.2 "), std::nullopt);
  EXPECT_EQ(ParseVulkanTarget(""), std::nullopt);
  EXPECT_EQ(ApiVersionOf(VulkanTarget::k1_1), VK_API_VERSION_1_1);
  EXPECT_EQ(ApiVersionOf(VulkanTarget::k1_2), VK_API_VERSION_1_2);
  EXPECT_EQ(ApiVersionOf(VulkanTarget::k1_3), VK_API_VERSION_1_3);
  EXPECT_EQ(VulkanTargetName(VulkanTarget::k1_3), "1.3");
}

// ---- GLSL -----------------------------------------------------------------------------------

TEST(ShaderCompiler, GlslDefaultsToVulkan11WithDefines) {
  TempDir dir;
  auto path = dir.Write("sized.comp", kSizedGlsl);
  const auto& spirv =
      CompileShader({.path = path, .language = LanguageOf(path), .defines = {{"WIDTH", "32"}}, .label = "sized"});
  ASSERT_GT(spirv.size(), 5u);
  EXPECT_EQ(spirv[0], 0x07230203u);
  EXPECT_EQ(spirv[1], 0x00010300u);  // SPIR-V 1.3 for Vulkan 1.1
  EXPECT_EQ(LocalSize(spirv), (std::vector<uint32_t>{32, 2, 1}));
  EXPECT_EQ(EntryPoints(spirv), std::vector<std::string>{"main"});

  const auto& wider = CompileShader({.path = path, .defines = {{"WIDTH", "128"}}, .label = "sized"});
  EXPECT_EQ(LocalSize(wider), (std::vector<uint32_t>{128, 2, 1}));
}

TEST(ShaderCompiler, GlslErrorNamesFileLineLabelAndDefines) {
  TempDir dir;
  auto path = dir.Write("broken.comp", "#version 450\nlayout(local_size_x = 1) in;\nvoid main() { nope(); }\n");
  std::string message = ErrorText({.path = path, .defines = {{"A", "7"}}, .label = "the_variant"});
  EXPECT_NE(message.find(path.string() + ":3:"), std::string::npos) << message;
  EXPECT_NE(message.find("the_variant"), std::string::npos) << message;
  EXPECT_NE(message.find("A=7"), std::string::npos) << message;
}

TEST(ShaderCompiler, GlslEntryPointOtherThanMainIsRefused) {
  TempDir dir;
  auto path = dir.Write("sized.comp", kSizedGlsl);
  std::string message = ErrorText({.path = path, .defines = {{"WIDTH", "1"}}, .entry = "CSMain", .label = "v"});
  EXPECT_NE(message.find("entry point is main, not CSMain"), std::string::npos) << message;
}

TEST(ShaderCompiler, RelativePathIsUnderTheKernelsFolder) {
  // The built-in kernels compile through the same cache: CompileKernel is CompileShader with the
  // kernels folder to include from.
  const auto& by_kernel = CompileKernel("reduction/tree.comp", {}, "tree");
  const auto& by_source = CompileShader({.path = "reduction/tree.comp",
                                         .language = SourceLanguage::kGlsl,
                                         .include_dirs = {KernelDirectory()},
                                         .label = "tree"});
  if (ExtraDefines().empty()) {
    EXPECT_EQ(&by_kernel, &by_source);
  }
  EXPECT_EQ(by_kernel, by_source);
  EXPECT_EQ(EntryPoints(by_source), std::vector<std::string>{"main"});

  // "grayscott/common.glsl" is not beside grayscott/global.comp: the kernels folder supplies it.
  EXPECT_EQ(EntryPoints(CompileKernel("grayscott/global.comp", {}, "global")), std::vector<std::string>{"main"});
}

// ---- Targets --------------------------------------------------------------------------------

TEST(ShaderCompiler, DynamicSubgroupBroadcastNeedsTarget12) {
  TempDir dir;
  auto path = dir.Write("broadcast.comp", kDynamicBroadcast);
  std::string message = ErrorText({.path = path, .target = VulkanTarget::k1_1, .label = "b"});
  EXPECT_NE(message.find("compile-time constant"), std::string::npos) << message;
  EXPECT_NE(message.find(path.string() + ":7:"), std::string::npos) << message;

  const auto& for_1_2 = CompileShader({.path = path, .target = VulkanTarget::k1_2, .label = "b"});
  EXPECT_EQ(for_1_2.at(1), 0x00010500u);  // SPIR-V 1.5
  const auto& for_1_3 = CompileShader({.path = path, .target = VulkanTarget::k1_3, .label = "b"});
  EXPECT_EQ(for_1_3.at(1), 0x00010600u);  // SPIR-V 1.6
}

// ---- HLSL -----------------------------------------------------------------------------------

TEST(ShaderCompiler, HlslNumthreadsAndRegistersBecomeLocalSizeAndBindings) {
  TempDir dir;
  auto path = dir.Write("scale.hlsl", R"(
StructuredBuffer<float> input_values : register(t0);
RWStructuredBuffer<float> output_values : register(u1);
RWStructuredBuffer<float> spaced : register(u2, space3);
[[vk::binding(6, 1)]] RWStructuredBuffer<float> explicit_values : register(u4);
RWStructuredBuffer<float> unregistered;
[numthreads(64, 2, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
  output_values[id.x] = input_values[id.x] * SCALE + spaced[id.x] + explicit_values[id.x] + unregistered[id.x];
}
)");
  ASSERT_EQ(LanguageOf(path), SourceLanguage::kHlsl);
  // Unoptimized, so that the variables keep their names for the check.
  const auto& spirv = CompileShader({.path = path,
                                     .language = LanguageOf(path),
                                     .defines = {{"SCALE", "2.0"}},
                                     .entry = "CSMain",
                                     .optimize = false,
                                     .label = "scale"});
  EXPECT_EQ(LocalSize(spirv), (std::vector<uint32_t>{64, 2, 1}));
  EXPECT_EQ(EntryPoints(spirv), std::vector<std::string>{"CSMain"});
  auto bindings = BindingsByName(spirv);
  EXPECT_EQ(bindings["input_values"].binding, 0u);
  EXPECT_EQ(bindings["input_values"].set, 0u);
  EXPECT_EQ(bindings["output_values"].binding, 1u);
  EXPECT_EQ(bindings["output_values"].set, 0u);
  EXPECT_EQ(bindings["spaced"].binding, 2u);
  EXPECT_EQ(bindings["spaced"].set, 3u);
  EXPECT_EQ(bindings["explicit_values"].binding, 6u);
  EXPECT_EQ(bindings["explicit_values"].set, 1u);
  // Given one of its own in set 0 rather than left at 0 beside input_values.
  ASSERT_TRUE(bindings["unregistered"].binding.has_value());
  EXPECT_NE(*bindings["unregistered"].binding, 0u);
  EXPECT_NE(*bindings["unregistered"].binding, 1u);
  EXPECT_EQ(bindings["unregistered"].set, 0u);

  // The optimized module keeps the layout.
  const auto& optimized = CompileShader(
      {.path = path, .language = SourceLanguage::kHlsl, .defines = {{"SCALE", "2.0"}}, .entry = "CSMain"});
  EXPECT_EQ(LocalSize(optimized), (std::vector<uint32_t>{64, 2, 1}));
  EXPECT_EQ(EntryPoints(optimized), std::vector<std::string>{"CSMain"});
}

TEST(ShaderCompiler, HlslSyntaxErrorNamesFileAndLine) {
  TempDir dir;
  auto path = dir.Write("bad.hlsl",
                        "RWStructuredBuffer<float> o : register(u0);\n[numthreads(1, 1, 1)]\n"
                        "void main(uint3 id : SV_DispatchThreadID) { o[id.x] = 1.0 +; }\n");
  std::string message =
      ErrorText({.path = path, .language = SourceLanguage::kHlsl, .defines = {{"K", "1"}}, .label = "bad_hlsl"});
  EXPECT_NE(message.find(path.string() + ":3:"), std::string::npos) << message;
  EXPECT_NE(message.find("bad_hlsl"), std::string::npos) << message;
  EXPECT_NE(message.find("K=1"), std::string::npos) << message;
}

TEST(ShaderCompiler, HlslWrongEntryPointIsAnError) {
  TempDir dir;
  auto path = dir.Write("entry.hlsl",
                        "RWStructuredBuffer<float> o : register(u0);\n[numthreads(1, 1, 1)]\n"
                        "void CSMain(uint3 id : SV_DispatchThreadID) { o[id.x] = 1.0; }\n");
  std::string message = ErrorText({.path = path, .language = SourceLanguage::kHlsl, .label = "entry"});
  EXPECT_NE(message.find("compiling " + path.string() + " (HLSL, entry point main) for variant entry"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("Entry point not found"), std::string::npos) << message;
}

// ---- SPIR-V modules -------------------------------------------------------------------------

TEST(ShaderCompiler, SpirvFileLoadsUnchanged) {
  TempDir dir;
  const std::vector<uint32_t> words = ShadercSpirv(WithWidth(16));
  ASSERT_EQ(LocalSize(words), (std::vector<uint32_t>{16, 2, 1}));
  auto path = dir.WriteWords("sized.spv", words);
  ASSERT_EQ(LanguageOf(path), SourceLanguage::kSpirv);
  const auto& loaded = CompileShader({.path = path, .language = SourceLanguage::kSpirv, .label = "spv"});
  EXPECT_EQ(loaded, words);
}

TEST(ShaderCompiler, SpirvFileOfBadSizeOrMagicIsRefused) {
  TempDir dir;
  const std::vector<uint32_t> words = ShadercSpirv(WithWidth(16));
  const std::string bytes(reinterpret_cast<const char*>(words.data()), words.size() * 4);
  auto message_for = [&](const std::string& name, const std::string& content) {
    return ErrorText({.path = dir.Write(name, content), .language = SourceLanguage::kSpirv, .label = "spv"});
  };
  std::string message = message_for("empty.spv", "");
  EXPECT_NE(message.find("empty.spv for variant spv is empty"), std::string::npos) << message;

  message = message_for("odd.spv", bytes.substr(0, bytes.size() - 2));
  EXPECT_NE(message.find(std::to_string(bytes.size() - 2) + " bytes, not a whole number of 32-bit words"),
            std::string::npos)
      << message;

  std::string swapped = bytes;
  std::swap(swapped[0], swapped[3]);
  std::swap(swapped[1], swapped[2]);
  message = message_for("magic.spv", swapped);
  EXPECT_NE(message.find("does not start with the SPIR-V magic number 0x07230203 (it starts with 0x03022307)"),
            std::string::npos)
      << message;

  message = message_for("header.spv", bytes.substr(0, 12));
  EXPECT_NE(message.find("truncated: 3 words"), std::string::npos) << message;

  // Whole words, but the last instruction cut short: the validator's to find.
  message = message_for("cut.spv", bytes.substr(0, bytes.size() - 8));
  EXPECT_NE(message.find("is not valid SPIR-V for Vulkan 1.1"), std::string::npos) << message;
}

TEST(ShaderCompiler, SpirvFileTakesNoDefines) {
  TempDir dir;
  auto path = dir.WriteWords("sized.spv", ShadercSpirv(WithWidth(16)));
  std::string message =
      ErrorText({.path = path, .language = SourceLanguage::kSpirv, .defines = {{"WIDTH", "8"}}, .label = "spv"});
  EXPECT_NE(message.find("takes no defines (given WIDTH=8)"), std::string::npos) << message;
}

TEST(ShaderCompiler, InvalidSpirvGivesTheValidatorsMessage) {
  TempDir dir;
  std::vector<uint32_t> words = ShadercSpirv(WithWidth(16));
  // A valid header and instructions, then one of opcode 0xFFFF, which no specification defines.
  words.push_back((1u << 16) | 0xFFFFu);
  auto path = dir.WriteWords("garbage.spv", words);
  std::string message = ErrorText({.path = path, .language = SourceLanguage::kSpirv, .label = "garbage"});
  EXPECT_NE(message.find("SPIR-V module " + path.string() + " for variant garbage is not valid SPIR-V for Vulkan 1.1"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("Invalid opcode: 65535"), std::string::npos) << message;
}

TEST(ShaderCompiler, SpirvIsValidatedForTheTarget) {
  TempDir dir;
  auto path = dir.WriteWords("broadcast.spv", ShadercSpirv(kDynamicBroadcast, shaderc_env_version_vulkan_1_2));
  std::string message = ErrorText({.path = path, .language = SourceLanguage::kSpirv, .label = "b"});
  EXPECT_NE(message.find("is not valid SPIR-V for Vulkan 1.1"), std::string::npos) << message;
  EXPECT_NE(message.find("1.5"), std::string::npos) << message;  // the module's version, too new for 1.1
  const auto& loaded =
      CompileShader({.path = path, .language = SourceLanguage::kSpirv, .target = VulkanTarget::k1_2, .label = "b"});
  EXPECT_EQ(loaded.at(1), 0x00010500u);
}

TEST(ShaderCompiler, SpirvEntryPointMustExist) {
  TempDir dir;
  auto path = dir.WriteWords("sized.spv", ShadercSpirv(WithWidth(16)));
  std::string message =
      ErrorText({.path = path, .language = SourceLanguage::kSpirv, .entry = "CSMain", .label = "spv"});
  EXPECT_NE(message.find("has no GLCompute entry point named CSMain (it has: main)"), std::string::npos) << message;
}

// ---- Includes, cache, names -----------------------------------------------------------------

TEST(ShaderCompiler, IncludesLookBesideThenInIncludeDirs) {
  TempDir dir;
  dir.Write("src/width.glsl", "#define WIDTH 8\n");
  dir.Write("lib/width.glsl", "#define WIDTH 3\n");    // never read: the file beside comes first
  dir.Write("lib/height.glsl", "#define HEIGHT 4\n");  // quoted, not beside: found in the folders
  dir.Write("lib/depth.glsl", "#define DEPTH 2\n");
  // Never read: a <...> include does not look beside the file, and the first folder wins.
  dir.Write("src/depth.glsl", "#define DEPTH 5\n");
  dir.Write("other/depth.glsl", "#define DEPTH 7\n");
  auto path = dir.Write("src/main.comp", R"(#version 450
#include "width.glsl"
#include "height.glsl"
#include <depth.glsl>
layout(local_size_x = WIDTH, local_size_y = HEIGHT, local_size_z = DEPTH) in;
layout(std430, binding = 0) buffer Data { uint values[]; };
void main() { values[gl_LocalInvocationIndex] = 1u; }
)");
  const auto& spirv =
      CompileShader({.path = path, .include_dirs = {dir.Path() + "/lib", dir.Path() + "/other"}, .label = "inc"});
  EXPECT_EQ(LocalSize(spirv), (std::vector<uint32_t>{8, 4, 2}));

  std::string message = ErrorText({.path = path, .include_dirs = {dir.Path() + "/other"}, .label = "inc"});
  // shaderc asks again as for <height.glsl> once the quoted name is not found beside the file.
  EXPECT_NE(message.find("main.comp:3: error: '#include' : cannot find height.glsl in the include folders (" +
                         dir.Path() + "/other)"),
            std::string::npos)
      << message;
}

TEST(ShaderCompiler, CacheReturnsTheSameVectorForTheSameSource) {
  TempDir dir;
  auto path = dir.Write("sized.comp", kSizedGlsl);
  const ShaderSource source{.path = path, .defines = {{"WIDTH", "4"}}, .label = "first"};
  const auto& first = CompileShader(source);
  ShaderSource relabelled = source;
  relabelled.label = "second";
  EXPECT_EQ(&CompileShader(source), &first);
  EXPECT_EQ(&CompileShader(relabelled), &first);  // the label only names the variant in messages

  ShaderSource other_target = source;
  other_target.target = VulkanTarget::k1_2;
  EXPECT_NE(&CompileShader(other_target), &first);
  EXPECT_EQ(CompileShader(other_target).at(1), 0x00010500u);
  ShaderSource other_define = source;
  other_define.defines[0].value = "5";
  EXPECT_EQ(LocalSize(CompileShader(other_define)), (std::vector<uint32_t>{5, 2, 1}));
  ShaderSource unoptimized = source;
  unoptimized.optimize = false;
  EXPECT_NE(&CompileShader(unoptimized), &first);
}

TEST(ShaderCompiler, UnoptimizedKeepsMemberNames) {
  TempDir dir;
  auto path = dir.Write("sized.comp", kSizedGlsl);
  const auto& kept = CompileShader({.path = path, .defines = {{"WIDTH", "4"}}, .optimize = false, .label = "v"});
  const auto names = MemberNames(kept);
  EXPECT_NE(std::find(names.begin(), names.end(), "out_values"), names.end());
  const auto& optimized = CompileShader({.path = path, .defines = {{"WIDTH", "4"}}, .label = "v"});
  EXPECT_TRUE(MemberNames(optimized).empty());
}

// ---- Preambles and function-like macros -----------------------------------------------------

// A comment before #version, a define of WIDTH and a function-like LOAD from the preamble, and a
// line that fails where a test asks (FAIL defined).
constexpr const char* kPreambleGlsl = R"(// a comment first
#version 450
layout(std430, binding = 0) buffer Data { float values[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  values[i] = LOAD(values, i + 1u) + float(WIDTH);
#ifdef FAIL
  undeclared_here = 1;
#endif
}
)";

TEST(ShaderCompiler, PreambleGoesAfterVersionAndKeepsTheShadersLines) {
  TempDir dir;
  auto path = dir.Write("pre.comp", kPreambleGlsl);
  ShaderSource source{
      .path = path,
      .defines = {{"LOAD(buf,i)", "buf[i]"}},
      .preamble = {{.name = "[family].preamble", .text = "#define WIDTH 4\n"},
                   {.name = "[[variant]] 'v'.preamble", .text = "layout(local_size_x_id = 233, local_size_y = 2) in;"}},
      .label = "v"};
  // The layout in the preamble is the shader's: local size x from constant 233 (default 1), y 2.
  EXPECT_EQ(LocalSize(CompileShader(source)), (std::vector<uint32_t>{1, 2, 1}));

  ShaderSource failing = source;
  failing.defines.push_back({"FAIL", "1"});
  const std::string error = ErrorText(failing);
  // Line 8 of the file, whatever the preamble's length.
  EXPECT_NE(error.find(path.string() + ":8: error:"), std::string::npos) << error;

  ShaderSource broken = source;
  broken.preamble[1].text = "\nnot glsl;\n";
  const std::string in_preamble = ErrorText(broken);
  EXPECT_NE(in_preamble.find("[[variant]] 'v'.preamble:2: error:"), std::string::npos) << in_preamble;
}

TEST(ShaderCompiler, PreambleChangesTheSpirvAndTheCacheKey) {
  TempDir dir;
  auto path = dir.Write("pre.comp", kPreambleGlsl);
  ShaderSource source{.path = path,
                      .defines = {{"LOAD(buf,i)", "buf[i]"}},
                      .preamble = {{.name = "p", .text = "#define WIDTH 4\nlayout(local_size_x = 8) in;\n"}},
                      .label = "v"};
  const auto& first = CompileShader(source);
  ShaderSource other = source;
  other.preamble[0].text = "#define WIDTH 4\nlayout(local_size_x = 16) in;\n";
  EXPECT_NE(&CompileShader(other), &first);
  EXPECT_EQ(LocalSize(CompileShader(other)), (std::vector<uint32_t>{16, 1, 1}));
  EXPECT_EQ(LocalSize(first), (std::vector<uint32_t>{8, 1, 1}));
  ShaderSource renamed = source;
  renamed.preamble[0].name = "q";  // only in messages, but part of the key all the same
  EXPECT_EQ(CompileShader(renamed), first);
}

TEST(ShaderCompiler, PreambleIsForGlslOnly) {
  TempDir dir;
  auto hlsl = dir.Write("k.hlsl", "[numthreads(1, 1, 1)] void main() {}\n");
  const std::string hlsl_error = ErrorText({.path = hlsl,
                                            .language = SourceLanguage::kHlsl,
                                            .preamble = {{.name = "p", .text = "#define X 1\n"}},
                                            .label = "v"});
  EXPECT_NE(hlsl_error.find("a preamble is GLSL text, and the source is HLSL"), std::string::npos) << hlsl_error;
  auto spv = dir.WriteWords("k.spv", ShadercSpirv(WithWidth(4)));
  const std::string spv_error = ErrorText({.path = spv,
                                           .language = SourceLanguage::kSpirv,
                                           .preamble = {{.name = "p", .text = "#define X 1\n"}},
                                           .label = "v"});
  EXPECT_NE(spv_error.find("takes no preamble"), std::string::npos) << spv_error;
}

TEST(ShaderCompiler, FunctionLikeMacroFromDefines) {
  TempDir dir;
  auto path = dir.Write("fn.comp", R"(#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Data { float values[]; };
void main() { STORE(values, 0, LOAD(values, 1) * TWICE(3.0)); }
)");
  const auto& spirv = CompileShader(
      {.path = path,
       .defines = {{"LOAD(buf,i)", "buf[i]"}, {"STORE(buf,i,v)", "buf[i] = v"}, {"TWICE(x)", "(2.0 * (x))"}},
       .label = "v"});
  EXPECT_FALSE(spirv.empty());
}

}  // namespace
}  // namespace csbench
