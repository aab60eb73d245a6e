#include "harness/device_choice.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>

#include "harness/error.hpp"

namespace csbench {
namespace {

std::string Lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

std::string Listing(const std::vector<DeviceInfo>& devices) {
  std::string text;
  for (const auto& d : devices) text += fmt::format("\n  {}: {} ({})", d.index, d.name, d.type);
  return text.empty() ? " none" : text;
}

}  // namespace

uint32_t ChooseDevice(const std::vector<DeviceInfo>& devices, std::string_view want) {
  Require(!devices.empty(), "the Vulkan loader found no physical device");
  if (want.empty()) {
    for (std::string_view type : std::array{"discrete", "integrated", "virtual", "cpu"}) {
      for (const auto& d : devices) {
        if (d.type == type) return d.index;
      }
    }
    return devices.front().index;
  }
  if (std::all_of(want.begin(), want.end(), [](unsigned char c) { return std::isdigit(c); })) {
    uint32_t index = static_cast<uint32_t>(std::stoul(std::string(want)));
    for (const auto& d : devices) {
      if (d.index == index) return index;
    }
    throw Error(fmt::format("--device={}: no device with that index; devices:{}", want, Listing(devices)));
  }
  for (const auto& d : devices) {
    if (Lower(d.name).find(Lower(want)) != std::string::npos) return d.index;
  }
  throw Error(fmt::format("--device={}: no device name contains it; devices:{}", want, Listing(devices)));
}

}  // namespace csbench
