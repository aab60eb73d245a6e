// What a shader source is (its language, its Vulkan target), apart from the compiler: the manifest
// reader needs these to parse a manifest, and its fuzz target is built without shaderc.
#include <vulkan/vulkan_core.h>

#include <algorithm>
#include <cctype>

#include "harness/vulkan/shader_compiler.hpp"

namespace csbench {

SourceLanguage LanguageOf(const std::filesystem::path& path) {
  std::string extension = path.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (extension == ".spv") return SourceLanguage::kSpirv;
  if (extension == ".hlsl") return SourceLanguage::kHlsl;
  return SourceLanguage::kGlsl;
}

std::string_view LanguageName(SourceLanguage language) {
  switch (language) {
    case SourceLanguage::kGlsl:
      return "GLSL";
    case SourceLanguage::kHlsl:
      return "HLSL";
    case SourceLanguage::kSpirv:
      return "SPIR-V";
  }
  return "?";
}

std::optional<VulkanTarget> ParseVulkanTarget(std::string_view text) {
  for (VulkanTarget target : {VulkanTarget::k1_1, VulkanTarget::k1_2, VulkanTarget::k1_3}) {
    if (text == VulkanTargetName(target)) return target;
  }
  return std::nullopt;
}

std::string_view VulkanTargetName(VulkanTarget target) {
  switch (target) {
    case VulkanTarget::k1_1:
      return "1.1";
    case VulkanTarget::k1_2:
      return "1.2";
    case VulkanTarget::k1_3:
      return "1.3";
  }
  return "?";
}

uint32_t ApiVersionOf(VulkanTarget target) {
  switch (target) {
    case VulkanTarget::k1_1:
      return VK_API_VERSION_1_1;
    case VulkanTarget::k1_2:
      return VK_API_VERSION_1_2;
    case VulkanTarget::k1_3:
      return VK_API_VERSION_1_3;
  }
  return VK_API_VERSION_1_1;
}

}  // namespace csbench
