#include "harness/vulkan/device_choice.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>

#include "harness/base/error.hpp"

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

// The device `want` names (not empty): an index, or a part of a name.
const DeviceInfo& FindDevice(const std::vector<DeviceInfo>& devices, std::string_view want) {
  if (std::all_of(want.begin(), want.end(), [](unsigned char c) { return std::isdigit(c); })) {
    const uint32_t index = static_cast<uint32_t>(std::stoul(std::string(want)));
    for (const auto& d : devices) {
      if (d.index == index) return d;
    }
    throw Error(fmt::format("--device={}: no device with that index; devices:{}", want, Listing(devices)));
  }
  for (const auto& d : devices) {
    if (Lower(d.name).find(Lower(want)) != std::string::npos) return d;
  }
  throw Error(fmt::format("--device={}: no device name contains it; devices:{}", want, Listing(devices)));
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
  return FindDevice(devices, want).index;
}

bool NamesSeveralDevices(std::string_view want) { return want == "all" || want.find(',') != std::string_view::npos; }

std::vector<DeviceInfo> ChooseDevices(const std::vector<DeviceInfo>& devices, std::string_view want) {
  Require(!devices.empty(), "the Vulkan loader found no physical device");
  std::vector<DeviceInfo> chosen;
  if (want == "all") {
    for (const auto& d : devices) {
      if (d.type != "cpu") chosen.push_back(d);
    }
    return chosen.empty() ? devices : chosen;
  }
  size_t start = 0;
  while (true) {
    const size_t comma = want.find(',', start);
    const std::string_view item = want.substr(start, comma == std::string_view::npos ? want.npos : comma - start);
    if (item.empty()) throw Error(fmt::format("--device={}: an empty item in the list", want));
    const DeviceInfo& device = FindDevice(devices, item);
    const bool seen = std::any_of(chosen.begin(), chosen.end(), [&](const DeviceInfo& d) { return d.index == device.index; });
    if (!seen) chosen.push_back(device);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return chosen;
}

std::string ExpandDevicePlaceholders(std::string_view pattern, std::string_view device, std::string_view key) {
  std::string out;
  for (size_t i = 0; i < pattern.size();) {
    if (pattern.substr(i).starts_with("{device_key}")) {
      out += key;
      i += std::string_view("{device_key}").size();
    } else if (pattern.substr(i).starts_with("{device}")) {
      out += device;
      i += std::string_view("{device}").size();
    } else {
      out += pattern[i++];
    }
  }
  return out;
}

}  // namespace csbench
