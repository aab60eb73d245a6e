#include "harness/vulkan/shader_compiler.hpp"

#include <fmt/format.h>
#include <shaderc/shaderc.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>

#include "harness/base/error.hpp"

namespace csbench {
namespace {

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  Require(in.good(), fmt::format("cannot read kernel source {}", path.string()));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Resolves `#include "x"` against the kernels folder, so kernels can share helper files.
class KernelIncluder : public shaderc::CompileOptions::IncluderInterface {
  struct Result {
    shaderc_include_result result;
    std::string name;
    std::string content;
  };

 public:
  shaderc_include_result* GetInclude(const char* requested, shaderc_include_type type, const char* requesting,
                                     size_t) override {
    auto* r = new Result;
    // `#include "x"` looks beside the including file first (a user's shader beside its
    // manifest), then in the kernels folder; `#include <x>` in the kernels folder only.
    std::filesystem::path path = std::filesystem::path(KernelDirectory()) / requested;
    if (type == shaderc_include_type_relative) {
      std::error_code error;
      std::filesystem::path beside = std::filesystem::path(requesting).parent_path() / requested;
      if (std::filesystem::is_regular_file(beside, error)) path = beside;
    }
    std::ifstream in(path, std::ios::binary);
    if (in.good()) {
      std::ostringstream text;
      text << in.rdbuf();
      r->name = path.string();
      r->content = text.str();
    } else {
      r->content = fmt::format("cannot open {}", path.string());  // shaderc reports it as the error
    }
    r->result = {r->name.data(), r->name.size(), r->content.data(), r->content.size(), r};
    return &r->result;
  }
  void ReleaseInclude(shaderc_include_result* data) override { delete static_cast<Result*>(data->user_data); }
};

}  // namespace

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
      defines.push_back({std::string(item.substr(0, eq)), eq == std::string_view::npos ? "1" : std::string(item.substr(eq + 1))});
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

const std::vector<uint32_t>& CompileKernel(const std::string& source, const std::vector<Define>& defines,
                                           const std::string& label) {
  static std::mutex mutex;
  static std::map<std::string, std::vector<uint32_t>> cache;
  std::lock_guard lock(mutex);
  std::vector<Define> all = defines;
  // CSBENCH_EXTRA_DEFINES_VARIANT narrows the extra defines to the kernels of one variant (its
  // label), so that a planted slowdown touches one kernel and nothing else.
  const char* only = std::getenv("CSBENCH_EXTRA_DEFINES_VARIANT");
  if (only == nullptr || *only == '\0' || label == only) {
    for (const Define& extra : ExtraDefines()) all.push_back(extra);
  }
  std::string key = source + '\n' + DefinesText(all);
  if (auto it = cache.find(key); it != cache.end()) return it->second;

  std::filesystem::path path = std::filesystem::path(KernelDirectory()) / source;
  std::string text = ReadFile(path);
  shaderc::Compiler compiler;
  shaderc::CompileOptions options;
  // Vulkan 1.1 is the floor: subgroup operations need SPIR-V 1.3.
  options.SetTargetEnvironment(shaderc_target_env_vulkan, shaderc_env_version_vulkan_1_1);
  options.SetOptimizationLevel(shaderc_optimization_level_performance);
  options.SetIncluder(std::make_unique<KernelIncluder>());
  for (const auto& d : all) options.AddMacroDefinition(d.name, d.value);
  auto result = compiler.CompileGlslToSpv(text, shaderc_compute_shader, path.string().c_str(), options);
  if (result.GetCompilationStatus() != shaderc_compilation_status_success) {
    throw Error(fmt::format("compiling {} for variant {} with defines {} failed:\n{}", path.string(), label,
                            DefinesText(all), result.GetErrorMessage()));
  }
  return cache.emplace(key, std::vector<uint32_t>(result.cbegin(), result.cend())).first->second;
}

}  // namespace csbench
