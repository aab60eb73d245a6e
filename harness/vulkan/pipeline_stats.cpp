#include "harness/vulkan/pipeline_stats.hpp"

#include <fmt/format.h>

#include <map>
#include <mutex>
#include <string>

#include "harness/base/error.hpp"
#include "harness/vulkan/context.hpp"
#include "harness/vulkan/shader_compiler.hpp"

namespace csbench {
namespace {

// What makes two specs one pipeline on one device: the SPIR-V's source and defines, and the layout and
// specialization built from the rest (the label only names it).
std::string PipelineKey(const Context& context, const KernelSpec& spec) {
  std::string key = fmt::format("{}|{}|{}|{}", context.info().Key(), context.info().index, spec.source, spec.bindings);
  for (const Define& d : spec.defines) key += fmt::format("|{}={}", d.name, d.value);
  for (uint32_t v : spec.local_size) key += fmt::format("|l{}", v);
  for (uint32_t v : spec.constants) key += fmt::format("|c{}", v);
  return key + fmt::format("|p{}", spec.push_bytes);
}

// What a statistic's value means, where the driver's number says something else. NVIDIA's
// "Local Memory Size" (580 drivers) comes as a 64-bit word whose upper half is 16 on every
// pipeline seen and whose lower half is the local memory (register spills) of one invocation in
// bytes: 0 for every occupancy and Gray-Scott pipeline, 112 for occupancy/live64 at 1024
// invocations alone, the one pipeline whose registers (64) cannot hold its 64 live values. Read
// whole, the word is 2^36 (68.7G) or more on every pipeline (docs/perf-notes.md, section 11).
double Meaningful(const DeviceInfo& device, std::string_view name, vk::PipelineExecutableStatisticFormatKHR format,
                  uint64_t raw, double value) {
  if (device.vendor_id == 0x10de && name == "Local Memory Size" &&
      format == vk::PipelineExecutableStatisticFormatKHR::eUint64 && (raw >> 32) != 0) {
    return static_cast<double>(raw & 0xffffffffull);
  }
  return value;
}

std::vector<PipelineStatistic> Asked(Context& context, const KernelSpec& spec) {
  const vk::raii::Device& device = context.device();
  const PipelineObjects objects = BuildPipeline(context, spec, vk::PipelineCreateFlagBits::eCaptureStatisticsKHR);
  const vk::raii::Pipeline& pipeline = objects.pipeline;

  std::vector<PipelineStatistic> statistics;
  auto executables = CSBENCH_VK(device.getPipelineExecutablePropertiesKHR({.pipeline = *pipeline}));
  for (uint32_t e = 0; e < executables.size(); ++e) {
    auto stats = CSBENCH_VK(device.getPipelineExecutableStatisticsKHR({.pipeline = *pipeline, .executableIndex = e}));
    for (const auto& s : stats) {
      PipelineStatistic out{.executable = executables[e].name.data(),
                            .name = s.name.data(),
                            .description = s.description.data()};
      switch (s.format) {
        case vk::PipelineExecutableStatisticFormatKHR::eBool32: out.value = s.value.b32 ? 1 : 0; break;
        case vk::PipelineExecutableStatisticFormatKHR::eInt64: out.value = static_cast<double>(s.value.i64); break;
        case vk::PipelineExecutableStatisticFormatKHR::eUint64: out.value = static_cast<double>(s.value.u64); break;
        case vk::PipelineExecutableStatisticFormatKHR::eFloat64: out.value = s.value.f64; break;
        default: continue;
      }
      out.value = Meaningful(context.info(), out.name, s.format, s.value.u64, out.value);
      statistics.push_back(std::move(out));
    }
  }
  return statistics;
}

}  // namespace

std::vector<PipelineStatistic> PipelineStatistics(Context& context, const KernelSpec& spec) {
  if (!context.info().pipeline_executable_info) return {};
  // Asked once per pipeline in a run: a second pipeline built to capture them costs a driver
  // compile, and Gray-Scott's three modes and domains share each kernel (a whole-suite run would
  // compile hundreds where a few dozen pipelines exist). Static: a pipeline's statistics are the
  // driver's, the same for the whole process, and a case asks for them with its Context alone.
  static std::mutex lock;
  static std::map<std::string, std::vector<PipelineStatistic>> asked;
  const std::string key = PipelineKey(context, spec);
  {
    std::lock_guard guard(lock);
    if (auto it = asked.find(key); it != asked.end()) return it->second;
  }
  std::vector<PipelineStatistic> statistics = Asked(context, spec);
  std::lock_guard guard(lock);
  return asked.try_emplace(key, std::move(statistics)).first->second;
}

}  // namespace csbench
