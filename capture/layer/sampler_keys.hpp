// A program's VkSampler as the keys of a manifest's sampled [[image]] (`filter`, `address`,
// `border`, `unnormalized`), or why it cannot be said. Shared by the layer (which maps the sampler a
// captured combined image sampler reads through) and the tool's tests.
#pragma once

#include <vulkan/vulkan.h>

#include <string>

namespace csbench::capture {

// What a VkSamplerCreateInfo set, copied when the sampler is made (its pNext chain is gone by the
// time a dispatch is captured): `extension` says why a structure of that chain changes the
// sampling in a way a manifest cannot say ("" where none does).
struct SamplerSettings {
  VkFilter mag = VK_FILTER_NEAREST, min = VK_FILTER_NEAREST;
  VkSamplerMipmapMode mipmap = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  VkSamplerAddressMode u = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, v = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                       w = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  float lod_bias = 0, min_lod = 0, max_lod = 0;
  bool anisotropy = false;
  float max_anisotropy = 1;
  bool compare = false;
  VkCompareOp compare_op = VK_COMPARE_OP_NEVER;
  VkBorderColor border = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
  bool unnormalized = false;
  std::string extension;
};

// The settings of `info`, its pNext chain read for what changes the sampling.
SamplerSettings SettingsOf(const VkSamplerCreateInfo& info);

// The manifest's sampler keys: `border` is "" unless the address is clamp_to_border (the only
// address a manifest takes a border with).
struct SamplerKeys {
  std::string filter, address, border;
  bool unnormalized = false;
  bool operator==(const SamplerKeys&) const = default;
};

// `settings` as keys for a one-level 2-D view of a format of integer texels or not; `why` is ""
// where they say it exactly. The LOD settings (mipmap mode, bias, minimum and maximum) change
// nothing on one level with one filter for magnification and minification; addressModeW reads no
// coordinate of a 2-D image.
struct SamplerMapping {
  SamplerKeys keys;
  std::string why;
};
SamplerMapping MapSampler(const SamplerSettings& settings, bool integer_format);

}  // namespace csbench::capture
