// GLSL -> SPIR-V at run time through shaderc, cached per (source, defines) for the whole run.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace csbench {

struct Define {
  std::string name;
  std::string value;
  bool operator==(const Define&) const = default;
};

// The folder the kernels are read from: $CSBENCH_KERNEL_DIR, else PREFIX/share/csbench/kernels of
// an installed binary (PREFIX/bin/csbench), else kernels/ beside a build folder, else the source
// tree's kernels/.
std::string KernelDirectory();

// Compiles kernels/<source> with the defines (and `#include "..."` relative to kernels/).
// Throws Error naming the file, line, label (the variant) and defines on a compile error.
const std::vector<uint32_t>& CompileKernel(const std::string& source, const std::vector<Define>& defines,
                                           const std::string& label);

// "A=1 B" or "A=1,B" -> {A=1}, {B=1}.
std::vector<Define> ParseDefines(std::string_view text);

// Defines added to every kernel from $CSBENCH_EXTRA_DEFINES (e.g. "SLOWDOWN=256"): the hook for
// fault injection, such as the deliberately slowed run that proves the regression check works.
// With $CSBENCH_EXTRA_DEFINES_VARIANT set, only the kernels of that variant (label) get them.
const std::vector<Define>& ExtraDefines();

// "NAME=value NAME2=value2", as the defines appear in messages.
std::string DefinesText(const std::vector<Define>& defines);

}  // namespace csbench
