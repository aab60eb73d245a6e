// What a compute shader declares as storage buffers, so that a user's manifest can be checked
// against the shader (binding, element type, access) before anything is allocated or run.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "harness/vulkan/shader_compiler.hpp"

namespace csbench {

// One storage buffer block the shader declares (an array of blocks is one entry: one binding).
struct ShaderBuffer {
  uint32_t set = 0, binding = 0;
  std::string block;   // the block's name, e.g. "Out"
  std::string member;  // its runtime array member, e.g. "out_values"; "" if the last member is not one
  // The runtime array's element as GLSL spells it: float, vec2..4, int, ivec2..4, uint, uvec2..4,
  // double, dvec2..4, float16_t, f16vec2..4, int64_t, uint64_t and their vectors, bool (read as
  // uint in an inactive block); "" for a struct, an array or an 8/16-bit integer element, or
  // when the block has no runtime array.
  std::string element;
  uint32_t array_stride = 0;  // bytes between the runtime array's elements; 0 without one
  bool readonly = false;      // NonWritable: the shader cannot write it
  bool writeonly = false;     // NonReadable: the shader cannot read it
  // main() reaches the block. An inactive block is still declared and bound; glslang's reflection
  // does not list it, so its description comes from the SPIR-V alone.
  bool active = false;
  bool operator==(const ShaderBuffer&) const = default;
};

// The storage buffers of the GLSL compute shader `glsl`, ordered by (set, binding), as glslang's
// reflection sees them plus what only the SPIR-V says (descriptor set, access, inactive blocks).
// `defines` are set as by CompileKernel. `file_name` names the shader in messages; `#include "x"`
// is looked up beside the file that includes it, then in `include_dirs` in order, and
// `#include <x>` in `include_dirs` only. `target` sets the Vulkan and SPIR-V versions as for
// CompileShader (CompileKernel's is 1.1).
// Throws Error with the compiler's log (file and line) when the shader does not preprocess, parse
// or link.
std::vector<ShaderBuffer> ReflectStorageBuffers(const std::string& glsl, const std::string& file_name,
                                                const std::vector<Define>& defines = {},
                                                const std::vector<std::string>& include_dirs = {},
                                                VulkanTarget target = VulkanTarget::k1_1);

}  // namespace csbench
