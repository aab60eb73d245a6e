#include "harness/vulkan/shader_compiler.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <vulkan/vulkan_core.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <shaderc/shaderc.hpp>
#include <spirv-tools/libspirv.hpp>
#include <sstream>

#include "harness/base/error.hpp"
#include "harness/base/provenance.hpp"
#include "harness/vulkan/shaderc_options.hpp"
#include "harness/vulkan/spirv_cache.hpp"
#include "harness/vulkan/spirv_words.hpp"

namespace csbench {
namespace {

std::string ReadFile(const std::filesystem::path& path, std::string_view what) {
  std::ifstream in(path, std::ios::binary);
  Require(in.good(), fmt::format("cannot read {} {}", what, path.string()));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Resolves `#include` for shaderc: see SetShadercBase. Where `read` is given, notes each file it
// included and each place it looked at first and found empty (the SPIR-V cache's dependencies).
class Includer : public shaderc::CompileOptions::IncluderInterface {
  struct Result {
    shaderc_include_result result;
    std::string name;
    std::string content;
  };

 public:
  Includer(std::vector<std::string> include_dirs, std::vector<SpirvDependency>* read)
      : include_dirs_(std::move(include_dirs)), read_(read) {}

  shaderc_include_result* GetInclude(const char* requested, shaderc_include_type type, const char* requesting,
                                     size_t) override {
    namespace fs = std::filesystem;
    std::vector<fs::path> candidates;
    if (type == shaderc_include_type_relative) candidates.push_back(fs::path(requesting).parent_path() / requested);
    for (const auto& dir : include_dirs_) candidates.push_back(fs::path(dir) / requested);
    auto* r = new Result;
    for (const auto& path : candidates) {
      // A folder of the requested name opens as a stream on Linux but reads as nothing.
      std::error_code error;
      std::ifstream in;
      if (fs::is_regular_file(path, error)) in.open(path, std::ios::binary);
      if (!in.is_open() || !in.good()) {
        Note(path.string(), std::nullopt);
        continue;
      }
      std::ostringstream text;
      text << in.rdbuf();
      r->name = path.string();
      r->content = text.str();
      Note(r->name, r->content);
      break;
    }
    if (r->name.empty()) {
      // An empty name with content is how shaderc is told that the include failed, and why. A
      // quoted name not found beside its includer comes back here as a <...> one.
      std::string dirs;
      for (const auto& dir : include_dirs_) dirs += fmt::format("{}{}", dirs.empty() ? "" : ", ", dir);
      r->content = fmt::format("cannot find {} {}in the include folders ({})", requested,
                               type == shaderc_include_type_relative ? "beside the including file or " : "",
                               dirs.empty() ? "none given" : dirs);
    }
    r->result = {r->name.data(), r->name.size(), r->content.data(), r->content.size(), r};
    return &r->result;
  }
  void ReleaseInclude(shaderc_include_result* data) override { delete static_cast<Result*>(data->user_data); }

 private:
  void Note(const std::string& path, const std::optional<std::string>& content) {
    if (read_ == nullptr) return;
    SpirvDependency dependency{.path = path};
    if (content) dependency.sha256 = Sha256Hex(*content);
    if (std::find(read_->begin(), read_->end(), dependency) == read_->end()) read_->push_back(std::move(dependency));
  }

  std::vector<std::string> include_dirs_;
  std::vector<SpirvDependency>* read_;
};

spv_target_env ValidatorEnvOf(VulkanTarget target) {
  switch (target) {
    case VulkanTarget::k1_1:
      return SPV_ENV_VULKAN_1_1;
    case VulkanTarget::k1_2:
      return SPV_ENV_VULKAN_1_2;
    case VulkanTarget::k1_3:
      return SPV_ENV_VULKAN_1_3;
  }
  return SPV_ENV_VULKAN_1_1;
}

// Where a SPIR-V module's failure messages start: what was read, for which variant.
std::string SpirvContext(const ShaderSource& source, const std::filesystem::path& path) {
  return fmt::format("SPIR-V module {} for variant {}", path.string(), source.label);
}

std::vector<uint32_t> ReadSpirv(const ShaderSource& source, const std::filesystem::path& path) {
  const std::string bytes = ReadFile(path, "SPIR-V module");
  const std::string context = SpirvContext(source, path);
  Require(!bytes.empty(), fmt::format("{} is empty", context));
  Require(bytes.size() % 4 == 0,
          fmt::format("{} is {} bytes, not a whole number of 32-bit words", context, bytes.size()));
  std::vector<uint32_t> words(bytes.size() / 4);
  std::copy(bytes.begin(), bytes.end(), reinterpret_cast<char*>(words.data()));
  // Vulkan takes the module's words as they are: a module written in the other byte order would
  // need swapping, which no tool that writes .spv for Vulkan asks for.
  Require(words[0] == spirv::kMagic,
          fmt::format("{} does not start with the SPIR-V magic number 0x{:08x} (it starts with 0x{:08x})", context,
                      spirv::kMagic, words[0]));
  Require(words.size() >= spirv::kHeaderWords, fmt::format("{} is truncated: {} words, fewer than the {}-word header",
                                                         context, words.size(), spirv::kHeaderWords));

  spvtools::SpirvTools tools(ValidatorEnvOf(source.target));
  std::string log;
  // The position's index counts instructions for some messages and words for others, so only the
  // message is kept; the validator names the failing instruction in it where it can.
  tools.SetMessageConsumer([&log](spv_message_level_t, const char*, const spv_position_t&, const char* message) {
    log += fmt::format("{}\n", message);
  });
  if (!tools.Validate(words)) {
    throw Error(
        fmt::format("{} is not valid SPIR-V for Vulkan {}:\n{}", context, VulkanTargetName(source.target), log));
  }

  // The pipeline names its entry point; a module without it would fail only at pipeline creation,
  // with no word of which names the module has.
  std::vector<std::string> entries;
  // The validator has refused a malformed module: the walk reads every instruction.
  for (const spirv::Instruction& in : spirv::Instructions(words)) {
    // OpEntryPoint's operands: execution model, function, name, interface...
    if (in.op != spirv::kOpEntryPoint || in.operands.size() < 3 || in.operands[0] != spirv::kModelGLCompute) continue;
    entries.push_back(spirv::LiteralString(in.operands.subspan(2)));
    if (entries.back() == source.entry) return words;
  }
  throw Error(fmt::format("{} has no GLCompute entry point named {} (it has: {})", context, source.entry,
                          entries.empty() ? "none" : fmt::format("{}", fmt::join(entries, ", "))));
}

// A name in a #line directive's quotes: glslang reads it up to the next quote, and a line ends it.
std::string LineName(std::string_view name) {
  std::string out(name);
  std::replace_if(
      out.begin(), out.end(), [](char c) { return c == '"' || c == '\n' || c == '\r'; }, '\'');
  return out;
}

// Where the line after a GLSL source's #version directive starts (0 where it has none), and that
// line's number: the first line whose first token, outside comments, is `#version`.
std::pair<size_t, size_t> AfterVersion(std::string_view text) {
  bool in_comment = false;
  size_t line = 1;
  for (size_t at = 0; at < text.size(); ++line) {
    size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view rest = text.substr(at, end - at);
    // Blanks and comments before the line's first token.
    for (;;) {
      if (in_comment) {
        const size_t close = rest.find("*/");
        if (close == std::string_view::npos) {
          rest = {};
          break;
        }
        rest.remove_prefix(close + 2);
        in_comment = false;
      }
      const size_t first = rest.find_first_not_of(" \t\r\f\v");
      rest = first == std::string_view::npos ? std::string_view{} : rest.substr(first);
      if (!rest.starts_with("/*")) break;
      in_comment = true;
      rest.remove_prefix(2);
    }
    if (rest.starts_with("#")) {
      rest.remove_prefix(1);
      const size_t first = rest.find_first_not_of(" \t");
      rest = first == std::string_view::npos ? std::string_view{} : rest.substr(first);
      if (rest.starts_with("version") &&
          (rest.size() == 7 || !(std::isalnum(static_cast<unsigned char>(rest[7])) || rest[7] == '_'))) {
        return {std::min(end + 1, text.size()), line};
      }
      return {0, 0};  // another directive first: the source has no #version of its own
    }
    if (!rest.empty() && !rest.starts_with("//")) return {0, 0};
    at = end + 1;
  }
  return {0, 0};
}

// `text` with the preamble's parts inserted after its #version line (at the top where it has
// none). glslang's file-named #line (GL_GOOGLE_cpp_style_line_directive) makes an error inside a
// part name that part, and one in the shader its own file and line.
std::string WithPreamble(const std::string& text, const std::vector<Preamble>& preamble,
                         const std::filesystem::path& path) {
  if (preamble.empty()) return text;
  const auto [at, version_line] = AfterVersion(text);
  std::string out = text.substr(0, at);
  if (at > 0 && !out.ends_with('\n')) out += '\n';
  out += "#extension GL_GOOGLE_cpp_style_line_directive : enable\n";
  for (const Preamble& part : preamble) {
    out += fmt::format("#line 1 \"{}\"\n", LineName(part.name));
    out += part.text;
    if (!part.text.empty() && !part.text.ends_with('\n')) out += '\n';
  }
  out += fmt::format("#line {} \"{}\"\n", version_line + 1, LineName(path.string()));
  out += text.substr(at);
  return out;
}

// Compiles `source` (its text read from `path` where it has none; `key`: every other field the
// words depend on), or takes the words an earlier process compiled from the same text, includes
// and options (spirv_cache.hpp).
std::vector<uint32_t> CompileText(const ShaderSource& source, const std::filesystem::path& path,
                                  const std::string& key) {
  const std::string original =
      source.text ? *source.text : ReadFile(path, fmt::format("{} source", LanguageName(source.language)));
  const std::string cached = SpirvCachePath(source.text ? key : key + original);
  if (std::optional<std::vector<uint32_t>> words = ReadCachedSpirv(cached)) {
    NoteSpirvCache(true);
    return std::move(*words);
  }
  const std::string text = WithPreamble(original, source.preamble, path);
  std::vector<SpirvDependency> read;
  shaderc::CompileOptions options;
  SetShadercBase(options, source.target, source.defines, source.include_dirs, cached.empty() ? nullptr : &read);
  if (source.optimize) options.SetOptimizationLevel(shaderc_optimization_level_performance);
  if (source.language == SourceLanguage::kHlsl) {
    options.SetSourceLanguage(shaderc_source_language_hlsl);
    // Registers map to bindings by their number alone (every class's base is 0), and a resource
    // without a register or [[vk::binding]] is given a free binding rather than colliding at 0.
    options.SetHlslIoMapping(true);
    options.SetAutoBindUniforms(true);
  }
  shaderc::Compiler compiler;
  auto result =
      compiler.CompileGlslToSpv(text, shaderc_compute_shader, path.string().c_str(), source.entry.c_str(), options);
  if (result.GetCompilationStatus() != shaderc_compilation_status_success) {
    // glslang's "Entry point not found" does not say which name it looked for.
    const std::string entry =
        source.language == SourceLanguage::kHlsl ? fmt::format(" (HLSL, entry point {})", source.entry) : "";
    throw Error(fmt::format("compiling {}{} for variant {} with defines {} failed:\n{}", path.string(), entry,
                            source.label, DefinesText(source.defines), result.GetErrorMessage()));
  }
  std::vector<uint32_t> words(result.cbegin(), result.cend());
  NoteSpirvCache(false);
  WriteCachedSpirv(cached, words, read);
  return words;
}

}  // namespace

void SetShadercBase(shaderc::CompileOptions& options, VulkanTarget target, const std::vector<Define>& defines,
                    std::vector<std::string> include_dirs, std::vector<SpirvDependency>* read) {
  // shaderc's default SPIR-V version for each Vulkan environment is the one set here; it is set
  // all the same, so that the pairing is ours and not a library default that might move.
  switch (target) {
    case VulkanTarget::k1_1:
      options.SetTargetEnvironment(shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_1);
      options.SetTargetSpirv(shaderc_spirv_version_1_3);
      break;
    case VulkanTarget::k1_2:
      options.SetTargetEnvironment(shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_2);
      options.SetTargetSpirv(shaderc_spirv_version_1_5);
      break;
    case VulkanTarget::k1_3:
      options.SetTargetEnvironment(shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_3);
      options.SetTargetSpirv(shaderc_spirv_version_1_6);
      break;
  }
  options.SetIncluder(std::make_unique<Includer>(std::move(include_dirs), read));
  for (const auto& d : defines) options.AddMacroDefinition(d.name, d.value);
}

std::string KernelDirectory() {
  if (const char* dir = std::getenv("CSBENCH_KERNEL_DIR"); dir != nullptr && *dir != '\0') return dir;
  // An installed copy, PREFIX/bin/csbench, reads PREFIX/share/csbench/kernels; build/bench sits one
  // folder below the project root. Either works without the source path compiled in, so an
  // installed or copied tree runs from anywhere.
  std::error_code error;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", error);
  if (!error) {
    auto prefix = exe.parent_path().parent_path();
    for (const auto& beside : {prefix / "share" / "csbench" / "kernels", prefix / "kernels"}) {
      if (std::filesystem::exists(beside / "reduction", error)) return beside.string();
    }
  }
  return CSBENCH_KERNEL_DIR;
}

std::vector<Define> ParseDefines(std::string_view text) {
  std::vector<Define> defines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find_first_of(" ,", start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view item = text.substr(start, end - start);
    if (!item.empty()) {
      size_t eq = item.find('=');
      defines.push_back(
          {std::string(item.substr(0, eq)), eq == std::string_view::npos ? "1" : std::string(item.substr(eq + 1))});
    }
    start = end + 1;
  }
  return defines;
}

const std::vector<Define>& ExtraDefines() {
  static const std::vector<Define> extra = [] {
    const char* text = std::getenv("CSBENCH_EXTRA_DEFINES");
    return text == nullptr ? std::vector<Define>{} : ParseDefines(text);
  }();
  return extra;
}

std::string DefinesText(const std::vector<Define>& defines) {
  std::string text;
  for (const auto& d : defines) text += fmt::format("{}{}={}", text.empty() ? "" : " ", d.name, d.value);
  return text.empty() ? "(none)" : text;
}

const std::vector<uint32_t>& CompileShader(const ShaderSource& source) {
  // A path relative to the kernels folder resolves there; an absolute one (a user's shader beside
  // its manifest) replaces the folder.
  const std::filesystem::path path = std::filesystem::path(KernelDirectory()) / source.path;
  // Every field the SPIR-V depends on, each closed by a 0 byte so that no two sources share a key.
  std::string key;
  auto add = [&key](std::string_view field) {
    key += field;
    key += '\0';
  };
  add(path.string());
  add(source.text ? "text:" + *source.text : "file");
  add(LanguageName(source.language));
  add(source.entry);
  add(VulkanTargetName(source.target));
  add(source.optimize ? "optimized" : "not optimized");
  add(std::to_string(source.defines.size()));  // where the defines end and the include folders begin
  for (const auto& d : source.defines) {
    add(d.name);
    add(d.value);
  }
  for (const auto& dir : source.include_dirs) add(dir);
  add(std::to_string(source.preamble.size()));  // where the include folders end
  for (const Preamble& part : source.preamble) {
    add(part.name);
    add(part.text);
  }

  // Compiled outside the lock, so that several threads compile at once (the tuner hashes a
  // space's shaders on every host thread); two that compile one source keep the first's words.
  // Static: compiling is a function of the source alone, the same for the whole process, and
  // every caller (cases, the tuner's hashes, the tests) asks with the source only.
  static std::mutex mutex;
  static std::map<std::string, std::vector<uint32_t>> cache;
  {
    std::lock_guard lock(mutex);
    if (auto it = cache.find(key); it != cache.end()) return it->second;
  }

  std::vector<uint32_t> spirv;
  if (source.language == SourceLanguage::kSpirv) {
    Require(source.defines.empty(), fmt::format("{} is already compiled: it takes no defines (given {})",
                                                SpirvContext(source, path), DefinesText(source.defines)));
    Require(source.preamble.empty(),
            fmt::format("{} is already compiled: it takes no preamble", SpirvContext(source, path)));
    spirv = ReadSpirv(source, path);
  } else if (source.language == SourceLanguage::kHlsl && !source.preamble.empty()) {
    throw Error(fmt::format("compiling {} for variant {}: a preamble is GLSL text, and the source is HLSL",
                            path.string(), source.label));
  } else {
    // shaderc would quietly name a GLSL module's entry point main whatever it is asked for, and the
    // pipeline would then look for a name the module does not have.
    Require(source.language != SourceLanguage::kGlsl || source.entry == "main",
            fmt::format("compiling {} for variant {}: a GLSL shader's entry point is main, not {} (an entry "
                        "point of another name is for HLSL and SPIR-V)",
                        path.string(), source.label, source.entry));
    spirv = CompileText(source, path, key);
  }
  std::lock_guard lock(mutex);
  return cache.emplace(std::move(key), std::move(spirv)).first->second;
}

const std::vector<uint32_t>& CompileKernel(const std::string& source, const std::vector<Define>& defines,
                                           const std::string& label) {
  std::vector<Define> all = defines;
  // CSBENCH_EXTRA_DEFINES_VARIANT narrows the extra defines to the kernels of one variant (its
  // label), so that a planted slowdown touches one kernel and nothing else.
  const char* only = std::getenv("CSBENCH_EXTRA_DEFINES_VARIANT");
  if (only == nullptr || *only == '\0' || label == only) {
    for (const Define& extra : ExtraDefines()) all.push_back(extra);
  }
  // Vulkan 1.1 is the floor: subgroup operations need SPIR-V 1.3.
  return CompileShader({.path = source,
                        .language = SourceLanguage::kGlsl,
                        .defines = std::move(all),
                        .include_dirs = {KernelDirectory()},
                        .target = VulkanTarget::k1_1,
                        .optimize = true,
                        .label = label});
}

}  // namespace csbench
