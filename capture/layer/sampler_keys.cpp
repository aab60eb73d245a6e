#include "capture/layer/sampler_keys.hpp"

#include <fmt/format.h>

namespace csbench::capture {

namespace {

std::string FilterName(VkFilter filter) {
  switch (filter) {
    case VK_FILTER_NEAREST:
      return "nearest";
    case VK_FILTER_LINEAR:
      return "linear";
    default:
      return fmt::format("VkFilter {}", static_cast<int>(filter));
  }
}

// The manifest's name of an address mode; "" for one it does not take.
std::string AddressKey(VkSamplerAddressMode mode) {
  switch (mode) {
    case VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE:
      return "clamp_to_edge";
    case VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER:
      return "clamp_to_border";
    case VK_SAMPLER_ADDRESS_MODE_REPEAT:
      return "repeat";
    case VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT:
      return "mirrored_repeat";
    default:
      return "";
  }
}

std::string AddressName(VkSamplerAddressMode mode) {
  if (mode == VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE) return "mirror_clamp_to_edge";
  std::string key = AddressKey(mode);
  return key.empty() ? fmt::format("VkSamplerAddressMode {}", static_cast<int>(mode)) : key;
}

}  // namespace

SamplerSettings SettingsOf(const VkSamplerCreateInfo& info) {
  SamplerSettings s{.mag = info.magFilter,
                    .min = info.minFilter,
                    .mipmap = info.mipmapMode,
                    .u = info.addressModeU,
                    .v = info.addressModeV,
                    .w = info.addressModeW,
                    .lod_bias = info.mipLodBias,
                    .min_lod = info.minLod,
                    .max_lod = info.maxLod,
                    .anisotropy = info.anisotropyEnable == VK_TRUE,
                    .max_anisotropy = info.maxAnisotropy,
                    .compare = info.compareEnable == VK_TRUE,
                    .compare_op = info.compareOp,
                    .border = info.borderColor,
                    .unnormalized = info.unnormalizedCoordinates == VK_TRUE};
  for (auto* next = static_cast<const VkBaseInStructure*>(info.pNext); next != nullptr; next = next->pNext) {
    if (next->sType == VK_STRUCTURE_TYPE_SAMPLER_REDUCTION_MODE_CREATE_INFO) {
      auto mode = reinterpret_cast<const VkSamplerReductionModeCreateInfo*>(next)->reductionMode;
      if (mode != VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE)
        s.extension = fmt::format(
            "a reduction mode of {} (VkSamplerReductionModeCreateInfo): the manifest's filters "
            "average",
            mode == VK_SAMPLER_REDUCTION_MODE_MIN ? "min" : "max");
    } else if (next->sType == VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_INFO) {
      s.extension = "a Y'CbCr conversion (VkSamplerYcbcrConversionInfo)";
    } else if (next->sType != VK_STRUCTURE_TYPE_SAMPLER_CUSTOM_BORDER_COLOR_CREATE_INFO_EXT) {
      // A custom border colour is refused by its VkBorderColor where a border is read; any other
      // structure may change the sampling in a way not followed here.
      s.extension = fmt::format("a structure of sType {} in its pNext chain, which the capture does not follow",
                                static_cast<int>(next->sType));
    }
    if (!s.extension.empty()) break;
  }
  return s;
}

SamplerMapping MapSampler(const SamplerSettings& s, bool integer_format) {
  SamplerMapping m;
  auto refuse = [&](const std::string& why) {
    m.why = why;
    return m;
  };
  if (!s.extension.empty()) return refuse(s.extension);
  if (s.mag != s.min)
    return refuse(fmt::format("magFilter {} and minFilter {}: the manifest's filter is one for both", FilterName(s.mag),
                              FilterName(s.min)));
  if (s.mag != VK_FILTER_NEAREST && s.mag != VK_FILTER_LINEAR)
    return refuse(fmt::format("filter {}: the manifest's filters are nearest and linear", FilterName(s.mag)));
  if (s.u != s.v)
    return refuse(fmt::format("addressModeU {} and addressModeV {}: the manifest's address is one for both",
                              AddressName(s.u), AddressName(s.v)));
  if (AddressKey(s.u).empty())
    return refuse(fmt::format("address mode {}, which the manifest does not take", AddressName(s.u)));
  if (s.anisotropy)
    return refuse(fmt::format("anisotropic filtering enabled (maxAnisotropy {}), which the manifest does not take",
                              s.max_anisotropy));
  if (s.compare)
    return refuse(fmt::format("depth comparison enabled (VkCompareOp {}), which the manifest does not take",
                              static_cast<int>(s.compare_op)));
  m.keys = {.filter = FilterName(s.mag), .address = AddressKey(s.u), .unnormalized = s.unnormalized};
  if (s.u != VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER) return m;
  struct Border {
    VkBorderColor color;
    const char* key;
    bool integer;
  };
  static constexpr Border kBorders[] = {
      {VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK, "transparent_black", false},
      {VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK, "opaque_black", false},
      {VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE, "opaque_white", false},
      {VK_BORDER_COLOR_INT_TRANSPARENT_BLACK, "transparent_black", true},
      {VK_BORDER_COLOR_INT_OPAQUE_BLACK, "opaque_black", true},
      {VK_BORDER_COLOR_INT_OPAQUE_WHITE, "opaque_white", true},
  };
  for (const Border& b : kBorders)
    if (b.color == s.border) {
      if (b.integer != integer_format)
        return refuse(
            fmt::format("{} border colour on an image of {} texels: the manifest's border takes the "
                        "format's kind",
                        b.integer ? "an integer" : "a float", integer_format ? "integer" : "float"));
      m.keys.border = b.key;
      return m;
    }
  return refuse(fmt::format("border colour {} (custom), which the manifest does not take", static_cast<int>(s.border)));
}

}  // namespace csbench::capture
