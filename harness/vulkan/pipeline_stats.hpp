// What the driver says a kernel's pipeline uses (registers, shared memory, spills...), through
// VK_KHR_pipeline_executable_properties, so an occupancy story can stand next to its timing.
#pragma once

#include <string>
#include <vector>

#include "harness/vulkan/kernel.hpp"

namespace csbench {

class Context;

struct PipelineStatistic {
  std::string executable;  // the driver's name of the compiled stage, e.g. "Compute Shader"
  std::string name;        // the driver's name, e.g. "VGPRs", "Spilled VGPRs", "LDS size"
  std::string description;
  double value = 0;        // booleans as 0 or 1
};

// The statistics of the pipeline `spec` compiles to, or none where the device does not expose
// them (context.info().pipeline_executable_info is false). A pipeline must ask for statistics
// when it is created, and asking may change how a driver compiles it, so the statistics come
// from a second pipeline built from the same SPIR-V, specialization and layout as the timed one.
std::vector<PipelineStatistic> PipelineStatistics(Context& context, const KernelSpec& spec);

}  // namespace csbench
