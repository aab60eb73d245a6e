// Which physical device a run uses: pure logic over the device list, so that it can be tested.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "harness/vulkan/context.hpp"

namespace csbench {

// `want` empty: the first discrete GPU, else integrated, else virtual, else CPU, else any.
// `want` all digits: that index. Otherwise the first device whose name contains `want`
// (case-insensitive). Throws Error listing the devices when nothing matches.
uint32_t ChooseDevice(const std::vector<DeviceInfo>& devices, std::string_view want);

// True when `want` names several devices: "all", or a comma-separated list of indexes or names.
bool NamesSeveralDevices(std::string_view want);

// The devices `want` names, in the order named, each once. "all": every device that is not a CPU
// device (a software rasterizer beside real GPUs would only slow the run down), or every device
// where there are only CPU devices. A list: each item as ChooseDevice() reads it. Throws Error,
// listing the devices, for an item that names none.
std::vector<DeviceInfo> ChooseDevices(const std::vector<DeviceInfo>& devices, std::string_view want);

// `pattern` with "{device}" replaced by `device` (the device's index; "plain_loop" for a run on the
// plain_loop backend) and "{device_key}" by `key` (the name of its baseline file,
// vendor-device-driver, or the plain_loop backend's key).
std::string ExpandDevicePlaceholders(std::string_view pattern, std::string_view device, std::string_view key);

}  // namespace csbench
