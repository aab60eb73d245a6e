// Stage 2, resolve, and the device stage: the device capabilities a variant may require
// (`requires`), the SPIR-V capabilities that show a shader needs each, and whether a device has it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "harness/manifest/manifest.hpp"
namespace csbench {
struct DeviceInfo;
}

namespace csbench::manifest_detail {

// One name `requires` takes: what it is, in the docs' words, and the SPIR-V capabilities whose
// declaration shows a shader needs it.
struct Requirement {
  std::string_view name;
  std::string_view what;
  std::vector<std::string_view> spirv;
};
const std::vector<Requirement>& Requirements();

// Whether `info`'s device has requirement `name` (one of Requirements()); in case.cpp, the device
// stage's.
bool DeviceMeets(const DeviceInfo& info, std::string_view name);

// The requirements `v`'s shaders show (their SPIR-V capabilities) that its `requires` does not
// list, each as "name (SPIR-V Capability)". A subgroup class listed covers the basic operations.
std::vector<std::string> UndeclaredRequirements(const ManifestVariant& v);

}  // namespace csbench::manifest_detail
