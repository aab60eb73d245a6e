// Which physical device a run uses: pure logic over the device list, so that it can be tested.
#pragma once

#include <string_view>
#include <vector>

#include "harness/context.hpp"

namespace csbench {

// `want` empty: the first discrete GPU, else integrated, else virtual, else CPU, else any.
// `want` all digits: that index. Otherwise the first device whose name contains `want`
// (case-insensitive). Throws Error listing the devices when nothing matches.
uint32_t ChooseDevice(const std::vector<DeviceInfo>& devices, std::string_view want);

}  // namespace csbench
