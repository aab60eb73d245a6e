// The shaderc options a shader is compiled with (shader_compiler.cpp): its includes, macros and
// target.
// Inside the vulkan layer only: it exposes shaderc, which the public headers keep out.
#pragma once

#include <shaderc/shaderc.hpp>
#include <string>
#include <vector>

#include "harness/vulkan/shader_compiler.hpp"
#include "harness/vulkan/spirv_cache.hpp"

namespace csbench {

// Sets the Vulkan environment and SPIR-V version of `target`, the macros, and an includer that
// resolves `#include "x"` beside the including file, then in `include_dirs` in order, and
// `#include <x>` in `include_dirs` only; a missing file is a compile error naming the folders
// searched. Where `read` is given, the includer notes there each file it included and each place
// it looked at and found empty.
void SetShadercBase(shaderc::CompileOptions& options, VulkanTarget target, const std::vector<Define>& defines,
                    std::vector<std::string> include_dirs, std::vector<SpirvDependency>* read = nullptr);

}  // namespace csbench
