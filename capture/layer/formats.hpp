// The storage image formats a capture copies: each Vulkan format with GLSL's format qualifier (as
// a manifest's [[image]] names it) and the bytes of one texel. Shared by the layer (how much to
// copy) and the tool (what to write).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>

namespace csbench::capture {

struct FormatInfo {
  VkFormat format;
  const char* glsl;
  uint32_t bytes;
};

inline constexpr FormatInfo kFormats[] = {
    {VK_FORMAT_R32_SFLOAT, "r32f", 4},
    {VK_FORMAT_R32G32_SFLOAT, "rg32f", 8},
    {VK_FORMAT_R32G32B32A32_SFLOAT, "rgba32f", 16},
    {VK_FORMAT_R16_SFLOAT, "r16f", 2},
    {VK_FORMAT_R16G16_SFLOAT, "rg16f", 4},
    {VK_FORMAT_R16G16B16A16_SFLOAT, "rgba16f", 8},
    {VK_FORMAT_R8G8B8A8_UNORM, "rgba8", 4},
    {VK_FORMAT_R8G8_UNORM, "rg8", 2},
    {VK_FORMAT_R8_UNORM, "r8", 1},
    {VK_FORMAT_R16G16B16A16_UNORM, "rgba16", 8},
    {VK_FORMAT_R16G16_UNORM, "rg16", 4},
    {VK_FORMAT_R16_UNORM, "r16", 2},
    {VK_FORMAT_R8G8B8A8_SNORM, "rgba8_snorm", 4},
    {VK_FORMAT_R8G8_SNORM, "rg8_snorm", 2},
    {VK_FORMAT_R8_SNORM, "r8_snorm", 1},
    {VK_FORMAT_R16G16B16A16_SNORM, "rgba16_snorm", 8},
    {VK_FORMAT_R16G16_SNORM, "rg16_snorm", 4},
    {VK_FORMAT_R16_SNORM, "r16_snorm", 2},
    {VK_FORMAT_R32_UINT, "r32ui", 4},
    {VK_FORMAT_R32G32_UINT, "rg32ui", 8},
    {VK_FORMAT_R32G32B32A32_UINT, "rgba32ui", 16},
    {VK_FORMAT_R16_UINT, "r16ui", 2},
    {VK_FORMAT_R16G16_UINT, "rg16ui", 4},
    {VK_FORMAT_R16G16B16A16_UINT, "rgba16ui", 8},
    {VK_FORMAT_R8_UINT, "r8ui", 1},
    {VK_FORMAT_R8G8_UINT, "rg8ui", 2},
    {VK_FORMAT_R8G8B8A8_UINT, "rgba8ui", 4},
    {VK_FORMAT_R32_SINT, "r32i", 4},
    {VK_FORMAT_R32G32_SINT, "rg32i", 8},
    {VK_FORMAT_R32G32B32A32_SINT, "rgba32i", 16},
    {VK_FORMAT_R16_SINT, "r16i", 2},
    {VK_FORMAT_R16G16_SINT, "rg16i", 4},
    {VK_FORMAT_R16G16B16A16_SINT, "rgba16i", 8},
    {VK_FORMAT_R8_SINT, "r8i", 1},
    {VK_FORMAT_R8G8_SINT, "rg8i", 2},
    {VK_FORMAT_R8G8B8A8_SINT, "rgba8i", 4},
};

inline const FormatInfo* FindFormat(VkFormat format) {
  for (const FormatInfo& f : kFormats)
    if (f.format == format) return &f;
  return nullptr;
}

}  // namespace csbench::capture
