// Runs csbench on several devices (--device=all, or a list of indexes and names): one child
// process per device, each this same program with --device=<index>, so that every device has its
// own Vulkan instance, case cache and output file ("{device}" or "{device_key}" in
// --benchmark_out). The children run one after another, or at the same time with --parallel=yes.
#pragma once

#include <string>
#include <vector>

#include "harness/base/options.hpp"
#include "harness/vulkan/context.hpp"

namespace csbench {

// The exit code of a run over several devices, from its children's: 2 (a usage error) if any
// child had it, else an interrupt's 143 or 130, else 1 (a failed check or an error; also a child
// that crashed or could not start), else 3 (validation messages), else 0.
int CombineExitCodes(const std::vector<int>& codes);

// Throws UsageError when the runs on `chosen` would write one output file twice: with more than
// one device, `out_pattern` (if not empty) must expand to a different file for each.
void CheckOutputsDiffer(const std::string& out_pattern, const std::vector<DeviceInfo>& chosen);

// Runs `argv` (the command line as given, argv[0] first) once per device of `chosen`, with its
// --device replaced by the device's index, in parallel or one after another, and returns
// CombineExitCodes() of the runs. In parallel, each output line is prefixed with
// "[device N] ". SIGINT and SIGTERM are passed on to the children, which write what finished.
int RunOnEachDevice(const std::vector<std::string>& argv, const std::vector<DeviceInfo>& chosen, bool parallel);

}  // namespace csbench
